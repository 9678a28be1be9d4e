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

Cells without markers (prose, checks, simulations, figures) are kept as they are. Every
output is cleared, so nothing the solutions computed (tables, figures, printed narration)
reaches the students, and metadata other than the kernel's and language's is dropped.

    python tools/student_edition.py [--out _student] [NOTEBOOK ...]

writes ``_student/NN_name.ipynb`` for every chapter in notebooks/ (or for those given).
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import nbformat
from nbconvert.preprocessors import ClearOutputPreprocessor
from nbgrader.preprocessors import ClearSolutions

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "BEGIN SOLUTION", "END SOLUTION"
YOUR_CODE_HERE = "# YOUR CODE HERE"
RAISE = 'raise NotImplementedError("Write this part{where}, then run {which} cell again.")'
TEXT_PLACEHOLDER = "*Your answer here.*"
# What a student edition keeps; any other metadata (nbgrader's, widget state, timings) goes.
NOTEBOOK_METADATA = {"kernelspec", "language_info"}
CELL_METADATA = {"tags", "editable", "deletable", "jupyter", "slideshow"}


def chapters(paths: list[str] | None = None) -> list[Path]:
    """The notebooks to convert: those given, or every chapter in notebooks/."""
    return [Path(p) for p in paths] if paths else sorted((ROOT / "notebooks").glob("*.ipynb"))


def clear_solutions(notebook: nbformat.NotebookNode) -> None:
    """Replace every marked solution region by the placeholder (nbgrader's ClearSolutions)."""
    ClearSolutions(
        begin_solution_delimeter=BEGIN,
        end_solution_delimeter=END,
        code_stub={"python": f"{YOUR_CODE_HERE}\n{RAISE}"},
        text_stub=TEXT_PLACEHOLDER,
        enforce_metadata=False,  # plain markers: no nbgrader cell metadata needed
    ).preprocess(notebook, {})


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
        if line.strip() == RAISE:
            name = function_at(source, number + 1)
            where = f" of {name}" if name else ""
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


def student_edition(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student edition of one chapter: placeholders, no outputs, clean metadata."""
    clear_solutions(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = name_the_functions(cell.source)
    ClearOutputPreprocessor().preprocess(notebook, {})
    clean_metadata(notebook)
    left = [i for i, cell in enumerate(notebook.cells) if BEGIN in cell.source]
    if left:
        raise ValueError(f"a solution marker is left in cell(s) {left}")
    nbformat.validate(notebook)
    return notebook


def placeholders(notebook: nbformat.NotebookNode) -> int:
    """How many placeholders a notebook has."""
    return sum(cell.source.count(YOUR_CODE_HERE) for cell in notebook.cells)


def write_student_edition(path: Path, out: Path) -> Path:
    """Write the student edition of the chapter at ``path`` into the folder ``out``."""
    notebook = student_edition(nbformat.read(path, as_version=4))
    out.mkdir(parents=True, exist_ok=True)
    target = out / path.name
    nbformat.write(notebook, target)
    print(f"{target}: {placeholders(notebook)} placeholder(s)")
    return target


def main(argv: list[str] | None = None) -> None:
    """Write the student edition of the given chapters, or of every chapter."""
    parser = argparse.ArgumentParser(description="Write the student edition of the lesson.")
    parser.add_argument("--out", type=Path, default=ROOT / "_student", help="output folder")
    parser.add_argument("notebooks", nargs="*", help="chapters (default: notebooks/*.ipynb)")
    args = parser.parse_args(argv)
    for path in chapters(args.notebooks):
        write_student_edition(path, args.out)


if __name__ == "__main__":
    main()
