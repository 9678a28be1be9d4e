"""Which chapter a notebook is, from the cells its student edition hands out, locked.

The student edition (tools/student_edition.py) locks every cell the student must not change
(the prose, the imports, the checks, the simulations) with nbgrader's cell metadata: each
locked cell carries its id and nbgrader's checksum of its source. The cells the student
writes in (those that held solutions) are nbgrader's solution cells and may change freely.

A heading, a file name or the notebook's metadata can be edited; the locked cells cannot be
without it showing. So a submission's chapter is the one whose locked cells it holds (by
cell id), and it is graded only if each of them is there, as handed out (by checksum,
computed here from the submitted cell, never read from its metadata). The locked cells of
each chapter, their checksums and a few words of what each is, are kept in
``data/handed_out/cells.json``, written by tools/handed_out.py from notebooks/; a test keeps
the file in step with the notebooks. Cells the student adds may go anywhere.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CELLS", "HandedOutCells", "LockedCell", "locked_cells", "locked_checksum", "recognise"]

CELLS = Path(__file__).resolve().parent.parent / "data" / "handed_out" / "cells.json"
"""Per chapter (its number, as text): its file name and its locked cells, in order."""


def locked_checksum(source: str, cell_type: str, cell_id: str) -> str:
    """nbgrader's checksum (``nbgrader.utils.compute_checksum``) of a locked cell whose
    ``grade_id`` is its cell id: what the student edition writes in the cell's metadata."""
    digest = hashlib.md5(usedforsecurity=False)
    for part in (source, cell_type, "False", "False", "True", cell_id):  # grade, solution, locked
        digest.update(part.encode("utf-8"))
    return digest.hexdigest()


@dataclass(frozen=True)
class LockedCell:
    """A cell a chapter hands out locked: its id, checksum, type, its number in the chapter
    as handed out (from 1), a few words of what it is, and whether it is one of the
    chapter's checks (it calls ``check_chapter`` or ``check_scenario``, or asserts)."""

    id: str
    checksum: str
    cell_type: str
    number: int
    what: str
    check: bool = False

    def named(self, number: int | None = None) -> str:
        """``cell 16 (05-13, check_chapter(take_turn, 5))``: its number in the notebook (or,
        if it is not there, in the chapter as handed out), its id and what it is."""
        if number is None:
            return f"handed-out cell {self.number} ({self.id}, {self.what})"
        return f"cell {number} ({self.id}, {self.what})"


@functools.cache
def locked_cells() -> dict[int, tuple[str, tuple[LockedCell, ...]]]:
    """Per chapter, its notebook's file name and the cells its student edition locks."""
    chapters = json.loads(CELLS.read_text())
    return {
        int(chapter): (found["file"], tuple(LockedCell(**cell) for cell in found["locked"]))
        for chapter, found in chapters.items()
    }


@dataclass(frozen=True)
class HandedOutCells:
    """What a notebook holds of the cells a chapter hands out locked.

    ``chapter`` is the chapter whose locked cells it holds the most of (None: it holds none,
    or as many of two chapters'); ``held`` and ``total`` count them; ``changed`` and
    ``deleted`` name those not there as handed out; ``checks`` are the notebook's numbers
    (from 1) of the chapter's check cells.
    """

    chapter: int | None
    file: str = ""
    held: int = 0
    total: int = 0
    changed: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    checks: dict[int, str] = field(default_factory=dict)
    tied: tuple[int, ...] = ()

    @property
    def intact(self) -> bool:
        """Whether every locked cell of the chapter is there, as handed out."""
        return self.chapter is not None and not self.changed and not self.deleted

    def not_graded(self) -> str:
        """The report's first line for a notebook whose handed-out cells were changed or
        deleted: each of them named."""
        parts = []
        if self.changed:
            parts.append("changed: " + "; ".join(self.changed))
        if self.deleted:
            parts.append("deleted: " + "; ".join(self.deleted))
        return (
            f"Not graded: handed-out cells were {'; and '.join(parts)} (chapter {self.chapter}'s "
            "cells must stay as handed out; cells of your own may go anywhere)"
        )


def recognise(notebook: object) -> HandedOutCells:
    """The chapter whose locked cells ``notebook`` holds (by cell id), and which of them are
    not there as handed out (by checksum of the submitted cell)."""
    cells = list(getattr(notebook, "cells", []))
    numbered = {str(cell.get("id")): n for n, cell in enumerate(cells, 1) if cell.get("id")}
    counts = {
        chapter: sum(cell.id in numbered for cell in locked)
        for chapter, (_, locked) in locked_cells().items()
    }
    most = max(counts.values(), default=0)
    best = sorted(chapter for chapter, count in counts.items() if count == most)
    if most == 0:
        return HandedOutCells(None)
    if len(best) > 1:
        return HandedOutCells(None, held=most, tied=tuple(best))
    chapter = best[0]
    file, locked = locked_cells()[chapter]
    changed, deleted, checks = [], [], {}
    for cell in locked:
        number = numbered.get(cell.id)
        if number is None:
            deleted.append(cell.named())
            continue
        given = cells[number - 1]
        source, kind = str(given.get("source", "")), str(given.get("cell_type", ""))
        if locked_checksum(source, kind, cell.id) != cell.checksum:
            changed.append(cell.named(number))
        elif cell.check:
            checks[number] = cell.named(number)
    return HandedOutCells(chapter, file, most, len(locked), tuple(changed), tuple(deleted), checks)
