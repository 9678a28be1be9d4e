"""Write what an instructor hands out: the student edition, and the package without its answers.

    python tools/release.py [--out _release]     # make release

writes ``_release/monopoly-lesson/`` and the same folder zipped, ``_release/monopoly-lesson.zip``,
the file to give students::

    monopoly-lesson/
      README.md, Makefile   the student's set-up: make lesson, make check NOTEBOOK=...
      notebooks/            the student edition (tools/student_edition.py) and the rules pages
      wheels/               the package, built without its answer key
      jupyter/settings/     JupyterLab's settings for the lesson, as make lesson uses them

The student installs the wheel (not editable) and opens the notebooks: nothing in the
student's environment holds a solution or an answer. The wheel is built (``pip wheel``) from
a copy of the package with :data:`LEFT_OUT` taken out (the answer functions of the exercises
of chapters 10 to 12; there ``check`` says the answers are graded by the instructor's checker)
and with the student's README as its description (the instructor's README states the
exercises' answers). The fingerprints of the code the edition hands out
(``data/handed_out/``) stay: the check needs them, and they give no answer away.

The release is read back before it is written to ``--out``: a solution marker in any of its
files, the wheel's included, or a file of :data:`LEFT_OUT` in the wheel, stops it (exit 2,
with one line). Each run writes the release again, over the one it wrote before.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KIT = ROOT / "tools" / "student_kit"
"""The student's Makefile and README."""
NAME = "monopoly-lesson"
"""The release's folder, and its zip's name."""
LEFT_OUT = ("monopoly_lesson/checker/answer_key.py",)
"""The package's files a student's copy is built without: what would hand out answers."""
MARKERS = ("BEGIN SOLUTION", "END SOLUTION")
"""Text that only the instructor's notebooks hold (nbgrader's solution markers)."""
NOT_COPIED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
"""Files of the package that are this machine's caches (Python's, numba's), not the package."""


class ReleaseError(Exception):
    """The release cannot be written; the message says why, on one line."""


def run(command: list[str], what: str) -> None:
    """Run a step of the build; a failure is a ReleaseError naming the step and its last line."""
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or ["no message"]
        raise ReleaseError(f"{what} failed: {lines[-1]}")


def stage_package(stage: Path) -> Path:
    """A copy of the package to build the student's wheel from: the package without
    :data:`LEFT_OUT` and its caches, pyproject.toml, and the student's README."""
    shutil.copytree(ROOT / "monopoly_lesson", stage / "monopoly_lesson", ignore=NOT_COPIED)
    for path in LEFT_OUT:
        (stage / path).unlink()
    shutil.copy2(ROOT / "pyproject.toml", stage / "pyproject.toml")
    shutil.copy2(KIT / "README.md", stage / "README.md")
    return stage


def build_wheel(stage: Path, wheels: Path) -> Path:
    """The student's wheel, built by pip from ``stage`` into ``wheels``."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels)]
    run([*command, str(stage)], "building the wheel")
    return next(wheels.glob("*.whl"))


def leaks(kit: Path) -> list[str]:
    """What in the release would hand a student answers: each file holding a solution
    marker (a wheel's members read too), and each file of :data:`LEFT_OUT` in a wheel."""
    found = []
    for path in sorted(p for p in kit.rglob("*") if p.is_file()):
        where = path.relative_to(kit)
        texts = {str(where): path.read_bytes()}
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as wheel:
                texts = {f"{where}:{name}": wheel.read(name) for name in wheel.namelist()}
                found += [f"{where}:{name}" for name in wheel.namelist() if name in LEFT_OUT]
        found += [name for name, text in texts.items() if any(m.encode() in text for m in MARKERS)]
    return found


def write_kit(kit: Path, work: Path) -> None:
    """The release's folder: the student edition, the wheel, the student's set-up."""
    run(
        [sys.executable, "tools/student_edition.py", "--out", str(kit / "notebooks")],
        "writing the student edition",
    )
    build_wheel(stage_package(work / "package"), kit / "wheels")
    for name in ("Makefile", "README.md"):
        shutil.copy2(KIT / name, kit / name)
    shutil.copytree(ROOT / "jupyter" / "settings", kit / "jupyter" / "settings")
    found = leaks(kit)
    if found:
        raise ReleaseError(f"not released: answers would be handed out in {', '.join(found)}")


def release(out: Path) -> Path:
    """Write the release into ``out`` (its folder and its zip); the zip's path."""
    target = out / NAME
    if target.exists() and not (target / "wheels").is_dir():
        raise ReleaseError(f"{target} exists and is not a release: move it or choose another --out")
    with tempfile.TemporaryDirectory() as work:
        kit = Path(work) / NAME
        write_kit(kit, Path(work))
        out.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(kit, target)
    archive = shutil.make_archive(str(out / NAME), "zip", root_dir=out, base_dir=NAME)
    return Path(archive)


def main(argv: list[str] | None = None) -> int:
    """Write the release; exit 2 with one line if it cannot be written."""
    parser = argparse.ArgumentParser(description="Write what an instructor hands out.")
    parser.add_argument("--out", type=Path, default=ROOT / "_release", help="output folder")
    args = parser.parse_args(argv)
    try:
        archive = release(args.out)
    except (ReleaseError, OSError) as error:
        print(f"release: {error}", file=sys.stderr)
        return 2
    wheel = next((args.out / NAME / "wheels").glob("*.whl")).name
    chapters = len(list((args.out / NAME / "notebooks").glob("*.ipynb")))
    print(f"{archive}: {chapters} chapters (student edition) and {wheel} (no answer key)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
