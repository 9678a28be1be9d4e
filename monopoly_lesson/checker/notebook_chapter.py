"""Which chapter a submitted notebook is, and what a check grades in it.

A chapter is recognised from the cells its student edition hands out locked, by their ids
(:mod:`monopoly_lesson.checker.handed_out_cells`), never from its heading, file name or
metadata, which a student can edit. What each chapter is graded on:

- every chapter: its cells run and its own checks (``check_chapter``, ``assert``) pass;
- chapters 1 to 6: its final ``take_turn`` (chapters 1 to 4: for the rules chapters 1 to N
  teach; the others: against every rule), and its results against the trends of those
  rules;
- chapters 0, 7 and 8: the same, if the notebook defines a ``take_turn``;
- chapter 9: the student's own strategy (``mine``) and trade policy (``trader``, with
  trading on), each played in many games;
- chapters 10 to 12: the exercises whose answers are assigned to named variables.

A notebook holding none of a chapter's handed-out cells is not graded at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .exercise_answers import Exercise, chapter_exercises
from .handed_out_cells import HandedOutCells, recognise
from .strategy_probe import GRADED

__all__ = ["CHAPTERS", "Chapter", "chapter_named", "notebook_chapter", "unrecognised"]

CHAPTERS = range(13)
"""The lesson's chapters, 00 to 12."""
TAKE_TURN_CHAPTERS = range(1, 7)
"""The chapters in which the student writes take_turn (and must have one to be graded)."""
STRATEGY_CHAPTER = 9


@dataclass(frozen=True)
class Chapter:
    """A notebook's chapter (None: not recognised), how it was recognised, what is graded.

    ``take_turn`` is ``"required"`` (chapters 1-6), ``"optional"`` (graded if defined) or
    ``"none"``; ``strategies`` are the variables holding the student's strategies that the
    check plays (chapter 9's); ``cells`` is what the notebook holds of the chapter's
    handed-out cells.
    """

    number: int | None
    found_by: str = ""
    take_turn: str = "required"
    strategies: tuple[str, ...] = ()
    exercises: tuple[Exercise, ...] = ()
    cells: HandedOutCells = field(default_factory=lambda: HandedOutCells(None))

    def __str__(self) -> str:
        if self.number is None:
            return "chapter: not recognised (it holds none of the cells a chapter hands out)"
        how = f" (recognised by {self.found_by})" if self.found_by else ""
        return f"graded as chapter {self.number}{how}"


def chapter_named(
    number: int | None, found_by: str = "", cells: HandedOutCells | None = None
) -> Chapter:
    """What a check grades in chapter ``number``."""
    cells = cells or HandedOutCells(number)
    if number is None or number in TAKE_TURN_CHAPTERS:
        return Chapter(number, found_by, cells=cells)
    if number == STRATEGY_CHAPTER:
        return Chapter(number, found_by, "none", tuple(GRADED), cells=cells)
    exercises = chapter_exercises(number)
    kind = "none" if exercises else "optional"
    return Chapter(number, found_by, kind, exercises=exercises, cells=cells)


def notebook_chapter(notebook: object) -> Chapter:
    """The chapter of a notebook: the one whose handed-out (locked) cells it holds, by their
    ids; its heading, file name and metadata are not read, since a student can edit them."""
    cells = recognise(notebook)
    if cells.chapter is None:
        return Chapter(None, cells=cells)
    found_by = f"the {cells.total} cells {cells.file} hands out, locked"
    return chapter_named(cells.chapter, found_by, cells)


def unrecognised(cells: HandedOutCells, name: str) -> str:
    """Why a notebook of no recognised chapter cannot be graded, and what to submit."""
    if cells.tied:
        chapters = " and ".join(str(chapter) for chapter in cells.tied)
        why = f"it holds as many handed-out cells of chapters {chapters}"
    else:
        why = "it holds none of the cells a chapter hands out (they are known by their ids)"
    return (
        f"{name} cannot be graded: {why}; submit the chapter's notebook as handed out "
        "(e.g. 05_jail.ipynb), with your work written in it"
    )
