"""What an instructor hands out (make release): built here, searched for solutions and for the
answer key, its package installed in a fresh environment and a chapter checked there.

The fresh environment is a new venv of this interpreter with the wheel installed into it (no
download: the package's dependencies are this environment's libraries, named by a ``.pth``
file as a plain folder, so that their own ``.pth`` files, this repository's editable
install among them, are not read). Python runs there outside the repository, without
PYTHONPATH, as in a student's copy of the release.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
ANSWER_KEY = "monopoly_lesson/checker/answer_key.py"
MARKERS = ("BEGIN SOLUTION", "END SOLUTION")
NOT_GRADED_HERE = (
    "Exercises not graded here: boardwalk_hotel, hotel_payback, best_one_house are graded by "
    "the instructor's checker (this copy of the package has no answer key)."
)

pytestmark = pytest.mark.slow  # the release built, a fresh environment, three checks: ~40 s


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """The release's folder, written by tools/release.py as make release writes it."""
    out = tmp_path_factory.mktemp("release")
    command = [sys.executable, "tools/release.py", "--out", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return out / "monopoly-lesson"


def wheel_of(release: Path) -> Path:
    """The release's one wheel."""
    (wheel,) = (release / "wheels").glob("*.whl")
    return wheel


def every_text(release: Path) -> dict[str, bytes]:
    """Every file of the release, its zip's and its wheel's members included, by name."""
    texts = {}
    for path in (p for p in release.parent.rglob("*") if p.is_file()):
        texts[str(path)] = path.read_bytes()
        if path.suffix in (".whl", ".zip"):
            with zipfile.ZipFile(path) as archive:
                texts |= {f"{path}:{name}": archive.read(name) for name in archive.namelist()}
    return texts


def test_the_wheel_holds_the_whole_package_but_its_answer_key(release):
    names = set(zipfile.ZipFile(wheel_of(release)).namelist())
    modules = {path.relative_to(ROOT).as_posix() for path in ROOT.glob("monopoly_lesson/**/*.py")}
    assert ANSWER_KEY in modules
    assert modules - names == {ANSWER_KEY}, "the wheel leaves out other modules, or keeps the key"
    caches = [name for name in names if "__pycache__" in name or name.endswith((".nbi", ".nbc"))]
    assert not caches and not [name for name in names if name.endswith(".ipynb")]


def test_no_solution_anywhere_in_the_release(release):
    texts = every_text(release)
    assert any(name.endswith(".whl:monopoly_lesson/checker/notebook_check.py") for name in texts)
    assert any(name.endswith(".zip:monopoly-lesson/notebooks/05_jail.ipynb") for name in texts)
    leaks = [name for name, text in texts.items() if any(m.encode() in text for m in MARKERS)]
    assert not leaks, f"solutions handed out in {leaks}"
    chapters = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
    handed = sorted(path.name for path in (release / "notebooks").glob("*.ipynb"))
    assert handed == chapters
    assert (release / "notebooks" / "rules.md").read_text() == (
        ROOT / "notebooks" / "rules.md"
    ).read_text()


def test_the_packages_description_is_the_students_readme_not_the_graders(release):
    """The instructor's README states the exercises' right values; the wheel's does not."""
    with zipfile.ZipFile(wheel_of(release)) as wheel:
        (metadata,) = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
        description = wheel.read(metadata).decode()
    assert (release / "README.md").read_text().strip() in description
    assert "For graders" not in description and "--show-expected" not in description


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_the_students_make_lesson_installs_the_wheel_as_it_is(release):
    done = subprocess.run(
        ["make", "-n", "lesson"], cwd=release, capture_output=True, text=True, check=True
    )
    wheel = wheel_of(release).relative_to(release)
    assert f'-m pip install --quiet "{wheel}[lesson]"' in done.stdout
    assert " -e " not in done.stdout and "student_edition" not in done.stdout
    assert "--ServerApp.root_dir=notebooks" in done.stdout


@pytest.fixture(scope="module")
def student_python(release, tmp_path_factory) -> Path:
    """The Python of a fresh environment with the release's wheel installed (not editable)."""
    env = tmp_path_factory.mktemp("student") / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    libraries = {sysconfig.get_paths()[kind] for kind in ("purelib", "platlib")}
    (Path(site) / "lesson_libraries.pth").write_text("\n".join(sorted(libraries)) + "\n")
    install = ["-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index"]
    command = [sys.executable, *install, "-q", str(wheel_of(release))]
    subprocess.run(command, cwd=env, env=without_pythonpath(), check=True)
    return python


def without_pythonpath() -> dict[str, str]:
    """This process's environment variables but PYTHONPATH (which may name the repository)."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def run_there(python: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run the fresh environment's Python in ``cwd``, outside the repository, no PYTHONPATH."""
    return subprocess.run(
        [str(python), *args],
        cwd=cwd,
        env=without_pythonpath(),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_students_environment_cannot_import_the_answer_functions(student_python, tmp_path):
    code = (
        "import sys, monopoly_lesson\n"
        "from monopoly_lesson.checker.exercise_answers import answer_key\n"
        "print(monopoly_lesson.__file__)\n"
        f"print({str(ROOT)!r} in sys.path, answer_key())\n"
        "import monopoly_lesson.checker.answer_key\n"
    )
    done = run_there(student_python, ["-c", code], tmp_path)
    installed, found = done.stdout.splitlines()
    assert installed.startswith(str(student_python.parents[1])), "not the installed wheel"
    assert found == "False None"
    assert "ModuleNotFoundError: No module named 'monopoly_lesson.checker.answer_key'" in (
        done.stderr
    )
    package = Path(installed).parent
    assert not list(package.rglob("*.ipynb")) and not (package / "checker/answer_key.py").exists()


ANSWER_CELLS = {
    "57f0b368": "boardwalk_hotel = {}\nhotel_payback = {}\n",
    "2d843cca": "best_one_house = {!r}\n",
}
"""Chapter 10's two answer cells (by id), where the student writes the three answers."""


def chapter_10(release: Path, folder: Path, answers: tuple | None) -> Path:
    """The release's chapter 10, whole, its three answers written in its answer cells
    (None: as handed out). It runs in seconds."""
    notebook = nbformat.read(release / "notebooks" / "10_property_values.ipynb", as_version=4)
    cells = {cell.id: cell for cell in notebook.cells}
    assert all("# YOUR CODE HERE" in cells[id].source for id in ANSWER_CELLS)
    if answers is not None:
        hotel, payback, group = answers
        cells["57f0b368"].source = ANSWER_CELLS["57f0b368"].format(hotel, payback)
        cells["2d843cca"].source = ANSWER_CELLS["2d843cca"].format(group)
    folder.mkdir()
    nbformat.write(notebook, folder / "10_property_values.ipynb")
    return folder / "10_property_values.ipynb"


def check_there(python: Path, notebook: Path) -> subprocess.CompletedProcess:
    """``python -m monopoly_lesson check`` of ``notebook``, in the fresh environment."""
    return run_there(python, ["-m", "monopoly_lesson", "check", notebook.name], notebook.parent)


def test_a_students_check_leaves_the_exercise_to_the_instructors_checker(
    student_python, release, tmp_path
):
    """Right or wrong, the answers are neither compared nor told: the report is the same."""
    reports = {}
    for label, answers in (("right", (57.97, 18.2, "dark blue")), ("wrong", (1.25, 3.75, "green"))):
        done = check_there(student_python, chapter_10(release, tmp_path / label, answers))
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith(f"All checks pass.\n{NOT_GRADED_HERE}\n")
        for told in ("Wrong answer", "Hint", "Expected"):
            assert told not in done.stdout
        text = done.stdout
        for value in answers:
            text = text.replace(str(value), "ANSWER")
        reports[label] = text
    assert reports["right"] == reports["wrong"]
    given = "given         boardwalk_hotel: ANSWER, graded by the instructor's checker"
    assert given in reports["right"]


def test_a_students_check_still_says_an_exercise_left_as_handed_out_is_not_answered(
    student_python, release, tmp_path
):
    done = check_there(student_python, chapter_10(release, tmp_path / "handed_out", None))
    assert done.returncode == 1, done.stdout + done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("Not answered: boardwalk_hotel (write your answer in the variable")
    assert NOT_GRADED_HERE in done.stdout and "Hint" not in done.stdout


def test_the_release_tool_refuses_a_release_that_would_hand_out_answers(tmp_path):
    """Its own reading back: a solution marker in any file, or the key in the wheel."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from release import leaks
    finally:
        sys.path.remove(str(ROOT / "tools"))
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "05_jail.ipynb").write_text('"### BEGIN SOLUTION\\n"')
    (tmp_path / "notebooks" / "rules.md").write_text("The rules.\n")
    with zipfile.ZipFile(tmp_path / "package.whl", "w") as wheel:
        wheel.writestr(ANSWER_KEY, "ANSWERS = {}\n")
        wheel.writestr("monopoly_lesson/rules.py", "# ### END SOLUTION\n")
    assert leaks(tmp_path) == [
        "notebooks/05_jail.ipynb",
        f"package.whl:{ANSWER_KEY}",
        "package.whl:monopoly_lesson/rules.py",
    ]
