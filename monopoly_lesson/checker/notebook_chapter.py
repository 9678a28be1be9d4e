"""Which chapter a submitted notebook is, and what a check grades in it.

A chapter is recognised from its content, its first Markdown heading (``# 9. The whole
game``, or ``# Chapter 9``), and otherwise from its file name (``alice_09.ipynb``,
``09_whole_game.ipynb``), since submissions are renamed. What each chapter is graded on:

- every chapter: its cells run and its own checks (``check_chapter``, ``assert``) pass;
- chapters 1 to 6, and a notebook whose chapter is not recognised: its final ``take_turn``
  (chapters 1 to 4: for the rules chapters 1 to N teach; the others: against every rule),
  and its results against the trends of those rules (a notebook without one cannot be
  graded);
- chapters 0, 7 and 8: the same, if the notebook defines a ``take_turn``;
- chapter 9: the student's own strategy (``mine``) and trade policy (``trader``, with
  trading on), each played in many games;
- chapters 10 to 12: the exercises whose answers are assigned to named variables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .exercise_answers import Exercise, chapter_exercises
from .strategy_probe import GRADED

__all__ = ["CHAPTERS", "Chapter", "chapter_named", "notebook_chapter"]

CHAPTERS = range(13)
"""The lesson's chapters, 00 to 12."""
TAKE_TURN_CHAPTERS = range(1, 7)
"""The chapters in which the student writes take_turn (and must have one to be graded)."""
STRATEGY_CHAPTER = 9
HEADING = re.compile(r"^#{1,6}\s+(?:chapter\s+)?(\d{1,2})(?![\d])", re.IGNORECASE)
NUMBER = re.compile(r"(?<!\d)(\d{1,2})(?!\d)")


@dataclass(frozen=True)
class Chapter:
    """A notebook's chapter (None: not recognised), how it was recognised, what is graded.

    ``take_turn`` is ``"required"`` (chapters 1-6 and unrecognised notebooks),
    ``"optional"`` (graded if defined) or ``"none"``; ``strategies`` are the variables
    holding the student's strategies that the check plays (chapter 9's).
    """

    number: int | None
    found_by: str = ""
    take_turn: str = "required"
    strategies: tuple[str, ...] = ()
    exercises: tuple[Exercise, ...] = ()

    def __str__(self) -> str:
        if self.number is None:
            return "chapter: not recognised (no chapter number in its first heading or file name)"
        return f"chapter: {self.number} (from {self.found_by})"


def chapter_named(number: int | None, found_by: str = "") -> Chapter:
    """What a check grades in chapter ``number`` (None: a notebook of no known chapter)."""
    if number is None or number in TAKE_TURN_CHAPTERS:
        return Chapter(number, found_by)
    if number == STRATEGY_CHAPTER:
        return Chapter(number, found_by, take_turn="none", strategies=tuple(GRADED))
    exercises = chapter_exercises(number)
    return Chapter(number, found_by, "none" if exercises else "optional", exercises=exercises)


def notebook_chapter(notebook: object, path: str | Path) -> Chapter:
    """The chapter of a notebook: its first Markdown heading's number, else its file name's."""
    for cell in getattr(notebook, "cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        headings = [
            line
            for line in str(cell.get("source", "")).splitlines()
            if line.lstrip().startswith("#")
        ]
        if headings:
            found = HEADING.match(headings[0].strip())
            if found and int(found.group(1)) in CHAPTERS:
                return chapter_named(int(found.group(1)), f'its first heading "{headings[0][:80]}"')
            break
    numbers = {int(n) for n in NUMBER.findall(Path(path).stem)} & set(CHAPTERS)
    padded = {int(n) for n in re.findall(r"(?<!\d)(\d\d)(?!\d)", Path(path).stem)} & numbers
    for found in (padded, numbers):
        if len(found) == 1:
            return chapter_named(found.pop(), f"its file name {Path(path).name}")
    return chapter_named(None)
