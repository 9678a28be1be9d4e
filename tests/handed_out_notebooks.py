"""Submissions for the check's tests, made as students make them: from a chapter as handed out.

The check grades a notebook as the chapter whose handed-out (locked) cells it holds, so a
test submission starts from a real chapter, the student edition (``base="edition"``) or the
instructor's notebook in notebooks/ (``base="stored"``), and the test's code is written where
the student writes: in place of the chapter's solution code cells. An edition can be a
student's own (``variant``, as ``tools/student_edition.py --roster`` writes it).
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import sys
from pathlib import Path

import nbformat

from monopoly_lesson.checker.variants import Variant

ROOT = Path(__file__).resolve().parents[1]


def chapter_path(chapter: int) -> Path:
    """The chapter's notebook in notebooks/ (``5``: notebooks/05_jail.ipynb)."""
    (path,) = (ROOT / "notebooks").glob(f"{chapter:02d}_*.ipynb")
    return path


@functools.cache
def _tool():
    path = ROOT / "tools" / "student_edition.py"
    spec = importlib.util.spec_from_file_location("student_edition", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _edition(chapter: int, variant: Variant | None = None) -> nbformat.NotebookNode:
    tool = _tool()
    notebook = nbformat.read(chapter_path(chapter), as_version=4)
    return tool.student_edition(notebook, chapter, variant)


def edition(chapter: int, variant: Variant | None = None) -> nbformat.NotebookNode:
    """The chapter's student edition, as ``make student`` writes it (a fresh copy); with a
    student's ``variant``, that student's edition."""
    return copy.deepcopy(_edition(chapter, variant))


def stored(chapter: int) -> nbformat.NotebookNode:
    """The chapter as stored in notebooks/, with its solutions."""
    return nbformat.read(chapter_path(chapter), as_version=4)


def new_cell(source: str) -> nbformat.NotebookNode:
    """A cell of the student's own: Markdown if ``source`` starts with ``md:``, else code."""
    if source.startswith("md:"):
        return nbformat.v4.new_markdown_cell(source[3:])
    return nbformat.v4.new_code_cell(source)


def solution_code_cells(chapter: int) -> list[str]:
    """The ids of the chapter's code cells that hold solutions (where the student writes)."""
    return [
        cell.id
        for cell in stored(chapter).cells
        if cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
    ]


def answered(
    chapter: int,
    *sources: str,
    base: str = "edition",
    replace: tuple[str, ...] = (),
    variant: Variant | None = None,
) -> tuple[nbformat.NotebookNode, int]:
    """The chapter with the student's cells ``sources`` written in place of its solution code
    cells (those of ``replace``, by id; by default all of them): the first one's place takes
    the student's cells, the others are deleted. Also the number (from 1) of the first of the
    student's cells in the notebook. ``variant``: a student's own edition."""
    notebook = edition(chapter, variant) if base == "edition" else stored(chapter)
    ids = replace or tuple(solution_code_cells(chapter))
    at = next(n for n, cell in enumerate(notebook.cells) if cell.id in ids)
    kept = [cell for cell in notebook.cells if cell.id not in ids]
    notebook.cells = kept[:at] + [new_cell(source) for source in sources] + kept[at:]
    return notebook, at + 1


def write(notebook: nbformat.NotebookNode, folder: Path, name: str) -> Path:
    """Write ``notebook`` as ``folder/name``."""
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / name)
    return folder / name


def submission(
    folder: Path,
    chapter: int,
    *sources: str,
    name: str = "",
    base: str = "edition",
    replace: tuple[str, ...] = (),
) -> Path:
    """Write :func:`answered`'s notebook as ``folder/name`` (by default the chapter's file
    name)."""
    notebook, _ = answered(chapter, *sources, base=base, replace=replace)
    return write(notebook, folder, name or chapter_path(chapter).name)
