"""The student edition (tools/student_edition.py): no solutions, the checks kept, and it runs.

The edition is built with the tool's command line into a temporary folder. Each student
notebook must be valid, hold no solution marker, no solution line, no written answer and no
output, and keep every unmarked cell as the instructor wrote it. Code carried over from the
previous chapter (folded cells) must ask the student to paste their own code from it. Each
chapter with solution code is then run cell by cell (in notebooks/, as a student would) up
to its first error, which must be a placeholder's NotImplementedError; the capstones are
run whole by the checker's tests instead, which assert the same of their first failed cell.
Chapters without solution code (the welcome, 07 and 08: their only solutions are written
answers) are the instructor's notebooks less their answers and outputs, which nbval already
runs: they are not executed again here.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from test_check_chapters import CAPSTONES  # run as handed out there

pytest.importorskip("nbgrader", reason="needs nbgrader (pip install -e '.[student]')")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
WITH_SOLUTIONS = {f"0{n}" for n in range(1, 7)}  # chapters 1-6: the student's take_turn
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


def load_tool():
    path = ROOT / "tools" / "student_edition.py"
    spec = importlib.util.spec_from_file_location("student_edition", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def regions(source: str) -> list[list[str]]:
    """The lines of each solution region of a cell, markers excluded."""
    found, current = [], None
    for line in source.split("\n"):
        if BEGIN in line:
            current = []
        elif END in line:
            found.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return found


def solution_lines(source: str) -> set[str]:
    """Lines found only inside a cell's solution regions (stripped, not blank)."""
    inside = {line.strip() for region in regions(source) for line in region if line.strip()}
    outside = {line.strip() for line in source.split("\n")} - inside
    return inside - outside


def is_starter(cell: nbformat.NotebookNode) -> bool:
    """A cell of working code handed out to be changed: its solutions leave no placeholder."""
    return tool.STARTER_TAG in cell.metadata.get("tags", [])


def has_solutions(path: Path, cell_type: str = "code") -> bool:
    """Whether the chapter has solutions of ``cell_type`` that become placeholders."""
    return any(
        BEGIN in c.source
        for c in read(path).cells
        if c.cell_type == cell_type and not is_starter(c)
    )


MARKED = [path for path in NOTEBOOKS if has_solutions(path)]
ANSWERED = [path for path in NOTEBOOKS if has_solutions(path, "markdown")]


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> Path:
    """The student edition of every chapter, written by the tool's command line."""
    out = tmp_path_factory.mktemp("student")
    command = [sys.executable, str(ROOT / "tools" / "student_edition.py"), "--out", str(out)]
    subprocess.run(command, check=True, capture_output=True, text=True)
    return out


# -- the tool on a small notebook ----------------------------------------------


def instructor_notebook() -> nbformat.NotebookNode:
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": kernel})
    nb.metadata.widgets = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    nb.metadata.celltoolbar = "Create Assignment"
    define = nbformat.v4.new_code_cell(
        'def take_turn(player):\n    """Roll and move."""\n    ### BEGIN SOLUTION\n'
        "    d1, d2 = roll()\n    player.move(d1 + d2)\n    ### END SOLUTION",
        metadata={"nbgrader": {"solution": True, "grade_id": "t1"}, "tags": ["solution", "x"]},
    )
    define.outputs = [nbformat.v4.new_output("stream", text="Rolled 3 and 4 (total 7).\n")]
    define.execution_count = 3
    module_level = nbformat.v4.new_code_cell(f"{BEGIN}\nanswer = 42\n{END}\nanswer")
    check = nbformat.v4.new_code_cell("check_scenario(take_turn, 1)", metadata={"tags": ["check"]})
    prose = nbformat.v4.new_markdown_cell(f"Why?\n\n{BEGIN}\nBecause.\n{END}")
    nb.cells = [define, module_level, check, prose]
    return nb


def test_a_region_becomes_a_placeholder_that_names_its_function():
    cell = tool.student_edition(instructor_notebook()).cells[0]
    assert cell.source == (
        'def take_turn(player):\n    """Roll and move."""\n    # YOUR CODE HERE\n'
        '    raise NotImplementedError("Write this part of take_turn, then run its cell again.")'
    )


def test_a_region_outside_a_function_asks_to_run_this_cell_again():
    source = tool.student_edition(instructor_notebook()).cells[1].source
    assert source.splitlines() == [
        "# YOUR CODE HERE",
        'raise NotImplementedError("Write this part, then run this cell again.")',
        "answer",
    ]


def test_a_nested_function_is_named_by_its_innermost_def():
    source = (
        "def outer():\n    def inner():\n        ### BEGIN SOLUTION\n        return 1\n"
        "        ### END SOLUTION\n    return inner"
    )
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    assert "this part of inner," in tool.student_edition(nb).cells[0].source


def test_checks_and_prose_are_kept_and_written_answers_cleared():
    cells = tool.student_edition(instructor_notebook()).cells
    assert cells[2].source == "check_scenario(take_turn, 1)"
    assert cells[3].source == "Why?\n\n*Your answer here.*"


def test_outputs_and_solution_metadata_are_gone():
    nb = tool.student_edition(instructor_notebook())
    assert set(nb.metadata) == {"kernelspec"}
    assert nb.cells[0].outputs == [] and nb.cells[0].execution_count is None
    assert {k: v for k, v in nb.cells[0].metadata.items() if k != "nbgrader"} == {"tags": ["x"]}
    assert nb.cells[0].metadata.nbgrader["grade_id"] == nb.cells[0].id  # not the old "t1"
    assert nb.cells[2].metadata.tags == ["check"]


def test_each_cell_is_marked_as_nbgrader_marks_an_assignment():
    """Cells that held solutions are solution cells; every other cell is locked, with
    nbgrader's checksum (the one the check computes) and the cell's id as its grade_id."""
    from nbgrader.nbgraderformat import MetadataValidator
    from nbgrader.utils import compute_checksum

    from monopoly_lesson.checker.handed_out_cells import locked_checksum

    nb = tool.student_edition(instructor_notebook(), chapter=3)
    MetadataValidator().validate_nb(nb)
    assert nb.metadata.monopoly_lesson == {"chapter": 3}
    marks = [(c.metadata.nbgrader["solution"], c.metadata.nbgrader["locked"]) for c in nb.cells]
    assert marks == [(True, False), (True, False), (False, True), (True, False)]
    for cell in nb.cells:
        assert cell.metadata.nbgrader["grade_id"] == cell.id
        assert cell.metadata.nbgrader["checksum"] == compute_checksum(cell)
    check = nb.cells[2]
    assert (check.metadata.editable, check.metadata.deletable) == (False, False)
    assert "editable" not in nb.cells[0].metadata  # the student writes there
    assert check.metadata.nbgrader["checksum"] == locked_checksum(check.source, "code", check.id)
    assert locked_checksum(check.source + " ", "code", check.id) != compute_checksum(check)


FOLDED = (
    '#| code-fold: true\n#| code-summary: "Chapter 4\'s code: land"\n'
    'def land(player):\n    """Resolve a landing."""\n    ### BEGIN SOLUTION\n'
    "    player.tally()\n    ### END SOLUTION"
)


def test_carried_over_code_asks_to_be_pasted_from_its_chapter():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(FOLDED)])
    assert tool.student_edition(nb).cells[0].source.splitlines() == [
        "#| code-fold: true",
        '#| code-summary: "Chapter 4\'s code: land"',
        "def land(player):",
        '    """Resolve a landing."""',
        "    # YOUR CODE HERE: paste your chapter-4 code",
        '    raise NotImplementedError("Paste your chapter-4 code for land here, then run its cell '
        'again.")',
    ]


def test_a_folded_cell_without_a_chapter_asks_for_the_previous_one():
    source = FOLDED.replace("Chapter 4's code: land", "Code")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    assert "paste your previous chapter's code" in tool.student_edition(nb).cells[0].source


def test_cell_options_stay_and_unfolded_code_asks_to_be_written():
    source = "#| echo: false\n" + FOLDED.split("\n", 2)[2]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    after = tool.student_edition(nb).cells[0].source
    assert after.startswith("#| echo: false\ndef land(player):")
    assert "Write this part of land, then run its cell again." in after


def test_each_written_answer_becomes_its_own_placeholder():
    prose = (
        "1. Where?\n\n   ### BEGIN SOLUTION\n   On Go.\n   ### END SOLUTION\n\n"
        "2. Why?\n\n   ### BEGIN SOLUTION\n   Because.\n   ### END SOLUTION"
    )
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(prose)])
    assert tool.student_edition(nb).cells[0].source == (
        "1. Where?\n\n   *Your answer here.*\n\n2. Why?\n\n   *Your answer here.*"
    )


def test_an_unclosed_region_is_refused_rather_than_leaked():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"{BEGIN}\nsecret = 1")])
    with pytest.raises(RuntimeError, match="no end solution"):
        tool.student_edition(nb)


@pytest.mark.parametrize(
    "marker", ["### begin solution", "### BEGIN SOLUTON", "## BEGIN SOLUTION", "###BEGIN SOLUTION"]
)
def test_a_marker_that_is_nearly_right_is_refused_with_its_cell(marker):
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("Intro"),
            nbformat.v4.new_code_cell(f"def f():\n    {marker}\n    return 42\n    {END}"),
        ]
    )
    with pytest.raises(ValueError, match=f"cell 1 has '{marker}', which looks like a solution"):
        tool.student_edition(nb)


def test_the_instructors_notebooks_are_never_written_over(tmp_path):
    command = [sys.executable, str(ROOT / "tools" / "student_edition.py"), "--out", "notebooks"]
    before = (ROOT / "notebooks" / "02_go_to_jail.ipynb").read_bytes()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "their solutions would be lost" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, "one line, no traceback"
    assert (ROOT / "notebooks" / "02_go_to_jail.ipynb").read_bytes() == before


# -- the lesson's student edition -----------------------------------------------


def test_chapters_1_to_6_mark_their_solutions():
    """A chapter that lost its markers would hand out its solutions."""
    assert {path.name[:2] for path in MARKED} >= WITH_SOLUTIONS


@pytest.mark.parametrize("source", NOTEBOOKS, ids=lambda path: path.stem)
def test_student_notebook_is_valid_and_holds_no_solution(edition, source):
    teacher, student = read(source), read(edition / source.name)
    nbformat.validate(student)
    assert set(student.metadata) <= {"kernelspec", "language_info", "monopoly_lesson"}
    assert student.metadata.monopoly_lesson == {"chapter": int(source.name[:2])}
    assert [c.cell_type for c in student.cells] == [c.cell_type for c in teacher.cells]
    assert [c.id for c in student.cells] == [c.id for c in teacher.cells]  # ids are kept
    for i, (before, after) in enumerate(zip(teacher.cells, student.cells, strict=True)):
        assert "BEGIN SOLUTION" not in after.source and "END SOLUTION" not in after.source, i
        assert after.get("outputs", []) == [] and after.get("execution_count") is None, i
        marks = after.metadata.nbgrader
        solution = BEGIN in before.source  # a starter too: it is handed out to be changed
        assert (marks["solution"], marks["locked"]) == (solution, not solution), i
        if BEGIN not in before.source:
            assert after.source == before.source, i  # prose, checks, simulations, figures
            continue
        count = len(regions(before.source))
        if before.cell_type == "markdown":  # a written answer
            assert after.source.count(tool.TEXT_PLACEHOLDER) == count, f"answers in cell {i}"
        elif is_starter(before):  # the starter as it is: the regions gone, no placeholder
            kept, inside = [], False
            for line in before.source.split("\n"):
                inside = inside or BEGIN in line
                kept += [] if inside else [line]
                inside = inside and END not in line
            assert after.source.split("\n") == kept, f"the starter in cell {i}"
        else:
            assert after.source.count("# YOUR CODE HERE") == count, f"placeholders in cell {i}"
            assert after.source.count("raise NotImplementedError(") == count, f"raise in cell {i}"
        leaked = solution_lines(before.source) & {line.strip() for line in after.source.split("\n")}
        assert not leaked, f"solution lines left in cell {i}: {sorted(leaked)}"


def test_every_chapter_answers_its_exercises_for_the_instructor_only(edition):
    """Each chapter's exercises have answers, and the student edition has none of them."""
    assert ANSWERED == NOTEBOOKS
    for source in ANSWERED:
        student = read(edition / source.name)
        sources = [c.source for c in student.cells]
        starts = [i for i, text in enumerate(sources) if "## Exercises" in text]
        exercises = "\n".join(sources[starts[-1] :]) if starts else ""  # answer cells too
        assert tool.TEXT_PLACEHOLDER in exercises, source.name
        assert "**Answer.**" not in "".join(c.source for c in student.cells), source.name


@pytest.mark.parametrize("source", MARKED, ids=lambda path: path.stem)
def test_carried_over_code_says_paste_your_previous_chapter(edition, source):
    """A later chapter's copy of earlier code asks for the student's own code from it."""
    previous = int(source.name[:2]) - 1
    folded = [c for c in read(edition / source.name).cells if c.source.startswith("#| code-fold")]
    for cell in folded:
        if "YOUR CODE HERE" in cell.source:
            assert f"# YOUR CODE HERE: paste your chapter-{previous} code" in cell.source
            assert f"Paste your chapter-{previous} code for " in cell.source
    solutions = [c.source for c in read(source).cells if "### BEGIN SOLUTION" in c.source]
    carried = [text for text in solutions if text.startswith("#| code-fold")]
    if carried:
        assert any("paste your chapter" in c.source for c in folded), "nothing to paste?"


def test_chapter_1_take_turn_is_left_to_the_student(edition):
    cells = read(edition / "01_moving_around.ipynb").cells
    assert not any("dice.roll()" in cell.source for cell in cells)
    assert any(cell.source.startswith("assert run.tallies") for cell in cells)  # its check stays


def run_until_first_error(path: Path) -> tuple[int | None, Exception | None]:
    """Run a notebook cell by cell in notebooks/; the index and error of the first failure."""
    notebook = read(path)
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=300,
        resources={"metadata": {"path": str(ROOT / "notebooks")}},
    )
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells):
            try:
                client.execute_cell(cell, index)
            except CellExecutionError as error:
                return index, error
    return None, None


# The capstones' student editions are run whole by the checker's tests (the first cell to
# fail must be a placeholder's: test_check_chapters.py), so they are not run again here.
@pytest.mark.parametrize(
    "source",
    [path for path in MARKED if path.stem not in CAPSTONES.values()],
    ids=lambda path: path.stem,
)
def test_student_notebook_runs_up_to_its_first_placeholder(edition, source):
    path = edition / source.name
    first = next(i for i, cell in enumerate(read(path).cells) if "# YOUR CODE HERE" in cell.source)
    index, error = run_until_first_error(path)
    assert error is not None, "no cell called the unwritten code: is a check missing?"
    assert index >= first, f"cell {index} failed before the first placeholder (cell {first})"
    assert error.ename == "NotImplementedError", error
    assert error.evalue.startswith(("Write this part", "Paste your chapter-")), error


@pytest.mark.parametrize("page", ["rules.md", "game_rules.md"])
def test_the_rules_pages_come_with_the_edition(edition, page):
    assert (edition / page).read_text() == (ROOT / "notebooks" / page).read_text()
    assert not (edition / "README.md").exists(), "the authors' notes stay behind"


def test_the_checks_record_of_locked_cells_is_the_editions(edition):
    """cells.json (tools/handed_out.py) names each chapter's locked cells as its edition
    locks them, and the stored solutions hold the same cells (so both are recognised)."""
    from monopoly_lesson.checker.handed_out_cells import locked_cells, recognise

    chapters = locked_cells()
    assert sorted(chapters) == [int(path.name[:2]) for path in NOTEBOOKS]
    for path in NOTEBOOKS:
        student = read(edition / path.name)
        file, locked = chapters[int(path.name[:2])]
        assert file == path.name
        assert [(c.id, c.number) for c in locked] == [
            (cell.id, n)
            for n, cell in enumerate(student.cells, 1)
            if cell.metadata.nbgrader["locked"]
        ]
        assert [c.checksum for c in locked] == [
            cell.metadata.nbgrader["checksum"]
            for cell in student.cells
            if cell.metadata.nbgrader["locked"]
        ]
        for notebook in (student, read(path)):
            found = recognise(notebook)
            assert (found.chapter, found.intact, found.held) == (
                int(path.name[:2]),
                True,
                len(locked),
            )
    checks = {
        chapter: [c.what for c in locked if c.check] for chapter, (_, locked) in chapters.items()
    }
    assert checks[5] == ["check_chapter(take_turn, 5)"] and checks[1][0].startswith("assert ")
    assert not checks[9] and not checks[0]


def test_a_locked_cell_that_is_not_as_in_notebooks_is_refused(tmp_path, monkeypatch):
    """The edition must not change a cell it locks: the stored solution would not be known."""
    handed = importlib.util.spec_from_file_location("handed_out", ROOT / "tools" / "handed_out.py")
    module = importlib.util.module_from_spec(handed)
    handed.loader.exec_module(module)
    path = tmp_path / "05_jail.ipynb"
    path.write_text((ROOT / "notebooks" / "05_jail.ipynb").read_text())
    original = module.edition

    def changed(at):
        notebook = original(at)
        notebook.cells[15].source += "\n"
        return notebook

    monkeypatch.setattr(module, "edition", changed)
    with pytest.raises(ValueError, match=r"cell 16 \(05-13\) is locked in the student edition"):
        module.chapter_cells(path)
