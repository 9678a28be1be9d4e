"""Every chapter reads like a textbook: enough prose per line of code, short runs of code.

For each chapter in notebooks/:

- prose words: the words of its Markdown cells (a word is a run of non-space characters
  with a letter or digit in it; fenced code blocks and solution markers are not prose);
- code lines: the non-blank lines of its code cells, folded carried-over code included,
  less Quarto's ``#|`` option lines and the solution markers, which readers never see;
- the longest run of code cells with no Markdown cell between them.

Every chapter must have at least 8 prose words per code line and no more than two code
cells in a row. ``python tests/test_notebook_prose.py`` prints the figures.

The chapters also share a shape: the set-up cell is hidden from the book (``#| echo:
false``), code carried over unchanged from the previous chapter is folded (``#| code-fold:
true``), and each chapter ends with its exercises, with answers for the instructor, and
then a glossary of 3 to 8 terms.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from monopoly_lesson.checker.answer_key import ANSWERS
from monopoly_lesson.checker.exercise_answers import EXERCISES

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
MIN_WORDS_PER_LINE = 8
MAX_CODE_RUN = 2
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
HIDDEN = ("#|", "### BEGIN SOLUTION", "### END SOLUTION")


@dataclass(frozen=True)
class Figures:
    """A chapter's prose and code, measured."""

    words: int
    lines: int
    longest_run: int

    @property
    def words_per_line(self) -> float:
        return self.words / self.lines if self.lines else float("inf")


def prose_words(markdown: str) -> int:
    """The words of a Markdown cell, fenced code and solution markers left out."""
    text = FENCE.sub("", markdown)
    lines = [line for line in text.split("\n") if not line.lstrip().startswith(HIDDEN[1:])]
    return sum(1 for token in " ".join(lines).split() if re.search(r"\w", token))


def code_lines(code: str) -> int:
    """The non-blank lines of a code cell that readers see."""
    return sum(
        1 for line in code.split("\n") if line.strip() and not line.lstrip().startswith(HIDDEN)
    )


def measure(notebook: nbformat.NotebookNode) -> Figures:
    """Prose words, code lines and the longest run of consecutive code cells."""
    words = lines = run = longest = 0
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            words += prose_words(cell.source)
            run = 0
        elif cell.cell_type == "code":
            lines += code_lines(cell.source)
            run += 1
            longest = max(longest, run)
    return Figures(words, lines, longest)


def figures(path: Path) -> Figures:
    return measure(nbformat.read(path, as_version=4))


# -- the measure itself --------------------------------------------------------


def test_the_measure_counts_what_readers_see():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    notebook = nbformat.v4.new_notebook(
        cells=[
            md("# Title\n\nRoll the dice - then move.\n\n```python\nignored(code)\n```"),
            md("### BEGIN SOLUTION\n### END SOLUTION"),
            code("#| echo: false\nimport x\n\n"),
            code("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"),
            code("f()"),
            md("Two words."),
            code("g()"),
        ]
    )
    assert measure(notebook) == Figures(words=8, lines=5, longest_run=3)


def test_a_chapter_of_code_alone_fails():
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("Short."), nbformat.v4.new_code_cell("a = 1\nb = 2")]
    )
    assert measure(notebook).words_per_line < MIN_WORDS_PER_LINE


# -- the lesson ----------------------------------------------------------------


def test_every_chapter_is_measured():
    assert [path.name[:2] for path in NOTEBOOKS] == [f"{n:02d}" for n in range(13)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_enough_prose_per_line_of_code(path):
    found = figures(path)
    assert found.words_per_line >= MIN_WORDS_PER_LINE, (
        f"{path.name}: {found.words} words for {found.lines} lines of code "
        f"({found.words_per_line:.1f} per line; at least {MIN_WORDS_PER_LINE} wanted)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_long_runs_of_code_cells(path):
    found = figures(path)
    assert found.longest_run <= MAX_CODE_RUN, (
        f"{path.name}: {found.longest_run} code cells in a row; put prose between them"
    )


# -- the shape of a chapter ---------------------------------------------------------


def function_bodies(source: str) -> dict[str, str]:
    """The functions a code cell defines, each with its body (docstring left out) as AST."""
    code = "\n".join(line for line in source.split("\n") if not line.startswith("#|"))
    bodies = {}
    for node in ast.parse(code).body:
        if isinstance(node, ast.FunctionDef):
            statements = node.body[1:] if ast.get_docstring(node) else node.body
            bodies[node.name] = "".join(ast.dump(statement) for statement in statements)
    return bodies


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_set_up_cell_is_hidden_from_the_book(path):
    first = next(c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
    assert first.source.startswith("#| echo: false\n") and "setup_figures()" in first.source


@pytest.mark.parametrize("path", NOTEBOOKS[1:], ids=lambda p: p.stem)
def test_code_carried_over_from_the_previous_chapter_is_folded(path):
    """A function whose body is copied from the previous chapter sits in a folded cell."""
    previous = NOTEBOOKS[NOTEBOOKS.index(path) - 1]
    before = set()
    for cell in nbformat.read(previous, as_version=4).cells:
        if cell.cell_type == "code":
            before |= set(function_bodies(cell.source).values())
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        copied = [name for name, body in function_bodies(cell.source).items() if body in before]
        folded = cell.source.startswith("#| code-fold: true")
        assert folded or not copied, f"{path.name}: {copied} carried over but not folded"
        if folded:
            assert copied, f"{path.name}: a folded cell with no carried-over function"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_chapter_ends_with_exercises_answers_and_a_glossary(path):
    *cells, glossary = [c.source for c in nbformat.read(path, as_version=4).cells]
    starts = [i for i, source in enumerate(cells) if "## Exercises" in source]
    assert starts, f"{path.name}: no exercises before the glossary"
    exercises = "\n".join(cells[starts[-1] :])  # answer cells may sit between the exercises
    assert "### BEGIN SOLUTION" in exercises
    assert exercises.count("### BEGIN SOLUTION") == exercises.count("### END SOLUTION")
    assert glossary.startswith("## Glossary\n")
    terms = re.findall(r"^- \*\*(.+?)\*\*: ", glossary, re.MULTILINE)
    assert 3 <= len(terms) <= 8, f"{path.name}: {len(terms)} glossary terms"


def report(paths: list[Path]) -> str:
    """The figures of each chapter, one line each."""
    rows = [f"{'chapter':<36} {'words':>6} {'lines':>6} {'words/line':>10} {'longest run':>12}"]
    for path in paths:
        f = figures(path)
        rows.append(
            f"{path.stem:<36} {f.words:>6} {f.lines:>6} {f.words_per_line:>10.1f} "
            f"{f.longest_run:>12}"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(report([Path(p) for p in sys.argv[1:]] or NOTEBOOKS))


CAPSTONES = [path for path in NOTEBOOKS if path.name[:2] in ("09", "10", "11", "12")]


@pytest.mark.parametrize("path", CAPSTONES, ids=lambda p: p.stem)
def test_a_capstone_asks_for_predictions_before_its_results(path):
    """As chapters 1 to 6 do: the student guesses before the cell that answers."""
    cells = nbformat.read(path, as_version=4).cells
    asks = [
        i
        for i, cell in enumerate(cells)
        if cell.cell_type == "markdown" and "**Predict first" in cell.source
    ]
    assert len(asks) >= 2, f"{path.name}: {len(asks)} prediction(s) asked for"
    for i in asks:
        assert cells[i + 1].cell_type == "code", f"{path.name}: no result after cell {i + 1}"


def before_the_exercises(path: Path) -> list[nbformat.NotebookNode]:
    """A chapter's cells before its (last) ``## Exercises`` heading."""
    cells = nbformat.read(path, as_version=4).cells
    start = max(i for i, cell in enumerate(cells) if "## Exercises" in cell.source)
    return cells[:start]


def shown_as(value: float, digits: int) -> re.Pattern[str]:
    """A number as prose would write it at ``digits`` decimals (``150``, ``150.0``, ``57.97``)."""
    text = re.escape(f"{value:.{digits}f}")
    zeros = "" if digits else r"(\.0+)?"  # a whole number may be written 150.0
    return re.compile(rf"(?<![\d.,]){text}{zeros}(?!\.?\d)")


def test_the_pattern_finds_a_number_as_prose_writes_it():
    pattern = shown_as(150.0, 0)
    assert pattern.search("the mean is 150.0, exactly") and pattern.search("about 150 a run")
    assert not pattern.search("1,150 points or 150.5 or 1500")


@pytest.mark.parametrize(
    "exercise",
    [e for e in EXERCISES if e.digits is not None],
    ids=lambda e: f"{e.chapter}-{e.name}",
)
def test_no_exercise_is_answered_in_the_prose_before_it(exercise):
    """The student predicts and works it out; the chapter does not say it first."""
    path = next(path for path in NOTEBOOKS if path.name.startswith(f"{exercise.chapter:02d}_"))
    pattern = shown_as(float(ANSWERS[exercise.name]()), exercise.digits)
    for number, cell in enumerate(before_the_exercises(path)):
        if cell.cell_type == "markdown":
            found = pattern.search(cell.source)
            assert not found, f"{path.name} cell {number} gives {exercise.name}: {found[0]}"


def test_chapter_11_shows_how_to_read_a_runs_benchmark_before_asking_for_one():
    path = next(path for path in NOTEBOOKS if path.name.startswith("11_"))
    cells = before_the_exercises(path)
    reads = [
        i
        for i, cell in enumerate(cells)
        if cell.cell_type == "code" and re.search(r"\.benchmark\b", cell.source)
    ]
    assert reads, f"{path.name}: no cell reads a run's benchmark before the exercises"
    assert "**Predict first" in cells[reads[0] - 1].source
    exercises = "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)
    assert "the last benchmark's win rates" in exercises.split("## Exercises")[-1]
