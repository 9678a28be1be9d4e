"""Write the student edition of the lesson: every chapter with its solutions taken out.

In the instructor's notebooks, solution code sits between nbgrader's markers inside a code
cell, for example the body of ``take_turn`` after its docstring::

    ### BEGIN SOLUTION
    d1, d2 = dice.roll()
    ...
    ### END SOLUTION

nbgrader's ``ClearSolutions`` preprocessor (run here through nbconvert, with no nbgrader
course, database or cell metadata needed) replaces each region with a placeholder::

    # YOUR CODE HERE
    raise NotImplementedError("Write this part of take_turn, then run its cell again.")

A later chapter starts with the code the student wrote in the chapters before, in cells
that the book folds (Quarto's ``#| code-fold: true``, with a ``#| code-summary:`` such as
"Chapter 4's code: ..."). There the placeholder asks for that code instead::

    # YOUR CODE HERE: paste your chapter-4 code
    raise NotImplementedError("Paste your chapter-4 code for land here, then run its cell again.")

Written answers to exercises (Markdown cells) sit between the same markers; each becomes
``*Your answer here.*``.

A cell tagged ``starter`` hands out working code for the student to change (chapter 9's
starter strategy): its solution regions (the instructor's own changes) are taken out with
no placeholder, so the starter runs as it is. The check treats that starter, unchanged, as
not answered (tools/handed_out.py records it).

Cells without markers (prose, checks, simulations, figures) are kept as they are. Every
output is cleared, so nothing the solutions computed (tables, figures, printed narration)
reaches the students, and metadata other than the kernel's and language's is dropped.

Each cell is then marked as nbgrader marks a generated assignment (cell metadata
``nbgrader``, schema 3, its ``grade_id`` the cell's id): a cell that held a solution region
(code to write or paste, a written answer, a starter to change) is a solution cell; every
other cell is locked, with nbgrader's checksum of its source, and made neither editable nor
deletable in JupyterLab. The notebook's metadata says its chapter
(``"monopoly_lesson": {"chapter": 5}``). The check knows each chapter's locked cells
(tools/handed_out.py records them) and grades a notebook as the chapter whose locked cells
it holds, unchanged.

    python tools/student_edition.py [--out _student] [NOTEBOOK ...]

writes ``_student/NN_name.ipynb`` for every chapter in notebooks/ (or for those given), and
copies the rules pages beside them (``rules.md``, ``game_rules.md``).

    python tools/student_edition.py --roster roster.csv --out editions

writes one edition per student of the roster (a CSV file with a ``student`` column) into
``editions/STUDENT/``: each asks for numbers of that student's own in the exercises that
have one-number answers (chapter 10: the street whose hotel is asked about and the houses
of the best group per dollar; chapters 11 and 12: the games per player), said in the
exercise and kept, with the student's name, in the notebook's metadata
(:mod:`monopoly_lesson.checker.variants`). Graders name the student when they check
(``check --student``, ``check_submissions.py --roster``), so a classmate's or the stored
solution's number is wrong.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from difflib import SequenceMatcher
from pathlib import Path

import nbformat
from nbconvert.preprocessors import ClearOutputPreprocessor
from nbgrader.preprocessors import ClearSolutions

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from monopoly_lesson.checker.variants import Variant, read_roster, variant_for  # noqa: E402

BEGIN, END = "BEGIN SOLUTION", "END SOLUTION"
MARKERS = (f"### {BEGIN}", f"### {END}")  # a marker is a line of its own, exactly so
YOUR_CODE_HERE = "# YOUR CODE HERE"
RAISE = 'raise NotImplementedError("Write this part{where}, then run {which} cell again.")'
# In code carried over from an earlier chapter (a folded cell): paste it, do not rewrite it.
PASTE_HERE = "# YOUR CODE HERE: paste your {chapter} code"
PASTE = (
    'raise NotImplementedError("Paste your {chapter} code{where} here, '
    'then run {which} cell again.")'
)
TEXT_PLACEHOLDER = "*Your answer here.*"
STARTER_TAG = "starter"  # a cell whose code is handed out to be changed: no placeholder
# What a student edition keeps; any other metadata (nbgrader's, widget state, timings) goes.
NOTEBOOK_METADATA = {"kernelspec", "language_info"}
LESSON_METADATA = "monopoly_lesson"  # the notebook's metadata key for its chapter
CELL_METADATA = {"tags", "editable", "deletable", "jupyter", "slideshow"}


def chapters(paths: list[str] | None = None) -> list[Path]:
    """The notebooks to convert: those given, or every chapter in notebooks/."""
    return [Path(p) for p in paths] if paths else sorted((ROOT / "notebooks").glob("*.ipynb"))


def clearer(code_stub: str) -> ClearSolutions:
    """nbgrader's ClearSolutions with our markers and placeholders."""
    return ClearSolutions(
        begin_solution_delimeter=BEGIN,
        end_solution_delimeter=END,
        code_stub={"python": code_stub},
        text_stub=TEXT_PLACEHOLDER,
        enforce_metadata=False,  # plain markers: no nbgrader cell metadata needed
    )


def carried_from(source: str) -> str | None:
    """For a folded cell (``#| code-fold``), the chapter its code comes from, e.g. "chapter-4".

    The chapter is read from the cell's ``#| code-summary:`` ("Chapter 4's code: ...");
    "previous chapter's" if it names none. ``None`` for a cell that is not folded.
    """
    options = [line[2:] for line in source.split("\n") if line.startswith("#|")]
    if not any(re.match(r"\s*code-fold\s*:\s*(true|show)", line) for line in options):
        return None
    summary = " ".join(line for line in options if "code-summary" in line)
    number = re.search(r"[Cc]hapter[ -]?(\d+)", summary)
    return f"chapter-{number.group(1)}" if number else "previous chapter's"


def clear_solutions(notebook: nbformat.NotebookNode) -> None:
    """Replace every marked solution region by its placeholder (nbgrader's ClearSolutions).

    Code carried over from an earlier chapter (a folded cell) asks to be pasted; a starter
    (a cell tagged ``starter``) loses its solution regions and runs as it is; any other code
    asks to be written; a written answer becomes ``*Your answer here.*``.
    """
    for index, cell in enumerate(notebook.cells):
        chapter = carried_from(cell.source) if cell.cell_type == "code" else None
        if chapter:
            paste = f"{PASTE_HERE}\n{PASTE}".replace("{chapter}", chapter)
            clearer(paste).preprocess_cell(cell, {"language": "python"}, index)
        elif cell.cell_type == "code" and STARTER_TAG in cell.metadata.get("tags", []):
            clearer("").preprocess_cell(cell, {"language": "python"}, index)
            lines = cell.source.split("\n")  # the empty stub leaves a line of indentation
            cell.source = "\n".join(line for line in lines if line == "" or line.strip())
    clearer(f"{YOUR_CODE_HERE}\n{RAISE}").preprocess(notebook, {})


def function_at(source: str, line: int) -> str | None:
    """The name of the innermost function around line ``line`` (1-based) of ``source``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # e.g. IPython magics: fall back to the generic message
        return None
    around = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    return max(around, key=lambda node: node.lineno).name if around else None


def name_the_functions(source: str) -> str:
    """Say in each placeholder's message which function it belongs to, if any."""
    lines = source.split("\n")
    for number, line in enumerate(lines):
        if line.strip().startswith("raise NotImplementedError(") and "{where}" in line:
            name = function_at(source, number + 1)
            pasted = line.strip().startswith('raise NotImplementedError("Paste')
            where = (f" for {name}" if pasted else f" of {name}") if name else ""
            which = "its" if name else "this"
            lines[number] = line.replace("{where}", where).replace("{which}", which)
    return "\n".join(lines)


def clean_metadata(notebook: nbformat.NotebookNode) -> None:
    """Keep the notebook's kernel and language, and the cells' layout metadata only."""
    for key in set(notebook.metadata) - NOTEBOOK_METADATA:
        del notebook.metadata[key]
    for cell in notebook.cells:
        for key in set(cell.metadata) - CELL_METADATA:
            del cell.metadata[key]
        tags = [tag for tag in cell.metadata.pop("tags", []) if "solution" not in tag.lower()]
        if tags:
            cell.metadata["tags"] = tags


def mark_cells(notebook: nbformat.NotebookNode, solutions: list[bool]) -> None:
    """Mark each cell as nbgrader's ``generate_assignment`` does: a cell that held a solution
    region is a solution cell, every other cell is locked (not editable, not deletable), each
    with nbgrader's checksum; its ``grade_id`` is the cell's id, which is kept.

    A written answer (Markdown) is also a grade cell of 0 points, as nbgrader's schema asks
    of Markdown solution cells: it is read by the grader, not scored by the check.
    """
    from nbgrader.utils import compute_checksum

    for number, (cell, solution) in enumerate(zip(notebook.cells, solutions, strict=True), 1):
        answer = solution and cell.cell_type == "markdown"
        marks = {"grade": answer, "solution": solution, "locked": not solution}
        grade_id = cell.get("id") or f"cell-{number}"  # a notebook older than cell ids
        cell.metadata["nbgrader"] = {**marks, "grade_id": grade_id, "schema_version": 3}
        if answer:
            cell.metadata["nbgrader"]["points"] = 0
        if not solution:
            cell.metadata["editable"] = False
            cell.metadata["deletable"] = False
        cell.metadata["nbgrader"]["checksum"] = compute_checksum(cell)


def check_markers(notebook: nbformat.NotebookNode) -> None:
    """Refuse a marker that is nearly right (``### begin solution``, ``### BEGIN SOLUTON``...).

    Such a line would not be recognised, and the solution after it would reach the
    students; a ``ValueError`` names the cell and the line instead.
    """
    for index, cell in enumerate(notebook.cells):
        for line in cell.source.split("\n"):
            text = line.strip()
            if text in MARKERS:
                continue
            close = max(SequenceMatcher(None, text.upper(), marker).ratio() for marker in MARKERS)
            if close >= 0.8:
                raise ValueError(
                    f"cell {index} has {text!r}, which looks like a solution marker but is not "
                    f"one; write it exactly as {MARKERS[0]!r} or {MARKERS[1]!r}."
                )


def student_edition(
    notebook: nbformat.NotebookNode, chapter: int | None = None, variant: Variant | None = None
) -> nbformat.NotebookNode:
    """The student edition of one chapter: placeholders, no outputs, clean metadata, its
    cells marked locked or solution, and (if given) its ``chapter`` in its metadata. With a
    student's ``variant`` its exercises (the cells the student writes in) ask for that
    student's numbers, and its metadata names the student and the variant."""
    check_markers(notebook)
    solutions = [BEGIN in cell.source for cell in notebook.cells]
    clear_solutions(notebook)
    for cell, solution in zip(notebook.cells, solutions, strict=True):
        if variant is not None and solution and cell.cell_type == "markdown":
            cell.source = variant.say(cell.source, chapter)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = name_the_functions(cell.source)
    ClearOutputPreprocessor().preprocess(notebook, {})
    clean_metadata(notebook)
    mark_cells(notebook, solutions)
    if chapter is not None:
        notebook.metadata[LESSON_METADATA] = {"chapter": chapter}
    if variant is not None:
        notebook.metadata.setdefault(LESSON_METADATA, {})["variant"] = variant.metadata()
    left = [i for i, cell in enumerate(notebook.cells) if BEGIN in cell.source]
    if left:
        raise ValueError(f"a solution marker is left in cell(s) {left}")
    nbformat.validate(notebook)
    return notebook


def chapter_number(path: Path) -> int | None:
    """A chapter's number, from its file name in notebooks/ (``05_jail.ipynb``: 5)."""
    number = re.match(r"(\d+)_", Path(path).name)
    return int(number.group(1)) if number else None


def placeholders(notebook: nbformat.NotebookNode) -> int:
    """How many placeholders a notebook has (code to write or paste, answers to give)."""
    return sum(
        cell.source.count(YOUR_CODE_HERE) + cell.source.count(TEXT_PLACEHOLDER)
        for cell in notebook.cells
    )


def write_student_edition(path: Path, out: Path, variant: Variant | None = None) -> Path:
    """Write the student edition of the chapter at ``path`` into the folder ``out`` (for a
    student's ``variant``, if given).

    The folder of the instructor's notebooks is refused: the solutions would be lost.
    """
    if out.resolve() in (path.resolve().parent, (ROOT / "notebooks").resolve()):
        raise ValueError(
            f"refusing to write the student edition into {out}, where the instructor's "
            "notebooks are: their solutions would be lost. Choose another --out folder."
        )
    try:
        notebook = student_edition(nbformat.read(path, as_version=4), chapter_number(path), variant)
    except ValueError as error:
        raise ValueError(f"{path.name}: {error}") from None
    out.mkdir(parents=True, exist_ok=True)
    target = out / path.name
    nbformat.write(notebook, target)
    print(f"{target}: {placeholders(notebook)} placeholder(s)")
    return target


def main(argv: list[str] | None = None) -> None:
    """Write the student edition of the given chapters, or of every chapter."""
    parser = argparse.ArgumentParser(description="Write the student edition of the lesson.")
    parser.add_argument("--out", type=Path, default=ROOT / "_student", help="output folder")
    parser.add_argument(
        "--roster",
        type=Path,
        help="a CSV file with a 'student' column: one edition per student, in OUT/STUDENT/, "
        "each asking for numbers of that student's own",
    )
    parser.add_argument("notebooks", nargs="*", help="chapters (default: notebooks/*.ipynb)")
    args = parser.parse_args(argv)
    try:
        students = read_roster(args.roster) if args.roster else [None]
        for student in students:
            variant = variant_for(student) if student else None
            out = args.out / student if student else args.out
            for path in chapters(args.notebooks):
                write_student_edition(path, out, variant)
            copy_pages(out)
            if variant is not None:
                print(f"{student}: {variant.describe()}")
    except (ValueError, OSError) as error:
        parser.exit(2, f"student_edition: {error}\n")


def copy_pages(out: Path) -> None:
    """Copy the lesson's Markdown pages (the rules pages) beside the chapters, as they are."""
    out.mkdir(parents=True, exist_ok=True)
    for page in sorted((ROOT / "notebooks").glob("*.md")):
        if page.name != "README.md":
            (out / page.name).write_text(page.read_text())


if __name__ == "__main__":
    main()
