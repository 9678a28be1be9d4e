"""Per-student variants: each student's editions ask for numbers of their own.

A one-number answer can be copied from a classmate, or from the chapter's stored solution.
So an instructor with a roster hands each student an edition with parameters of their own
(``tools/student_edition.py --roster roster.csv``): the games each player plays in chapters
11 and 12's fitness exercises, drawn from the student's name, never the stored solution's
100. The edition carries the student and the parameters in its metadata, and its exercise
says them. The grader names the student (``check --student NAME``, ``check_submissions.py
--roster``): the checker then computes that student's right answers from the student's own
parameters, so a classmate's or the solution's number is wrong; a notebook whose metadata
names another student is not graded. Without a student named (a student checking their own
work), the parameters are read from the notebook's metadata.
"""

from __future__ import annotations

import csv
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DEFAULT",
    "GAMES_PER_PLAYER",
    "METADATA",
    "Variant",
    "notebook_variant",
    "read_roster",
    "variant_for",
]

METADATA = "monopoly_lesson"
"""The notebook metadata key of the lesson (its chapter, student and variant)."""
STORED_GAMES = 100
"""The games per player the stored chapters (and their solutions) ask about."""
GAMES_PER_PLAYER = (40, 50, 60, 70, 80, 90, 110, 120, 130, 140, 150, 160)
"""The games per player a student's variant may ask about (never the stored 100)."""
PHRASE = re.compile(r"\b100 games per player\b")
"""How an exercise says its games per player, in the stored chapters."""


@dataclass(frozen=True)
class Variant:
    """One student's parameters (``student`` empty: the stored chapters' own)."""

    student: str = ""
    games_per_player: int = STORED_GAMES

    def parameters(self) -> dict[str, int]:
        """The parameters an answer key's function takes, by name."""
        return {"games_per_player": self.games_per_player}

    def say(self, text: str) -> str:
        """An exercise's text with this variant's numbers in place of the stored ones."""
        text = PHRASE.sub(f"{self.games_per_player} games per player", text)
        return re.sub(r"\bits 100 games\b", f"its {self.games_per_player} games", text)

    def metadata(self) -> dict:
        """The variant as an edition's metadata keeps it."""
        return {"student": self.student, "games_per_player": self.games_per_player}


DEFAULT = Variant()
"""The stored chapters' parameters: what an edition without a student asks."""


def variant_for(student: str) -> Variant:
    """The variant of ``student`` (a name or id from the roster): the same every time."""
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"a student must be named by a non-empty text, got {student!r}.")
    digest = int(hashlib.sha256(student.strip().encode()).hexdigest(), 16)
    return Variant(student.strip(), GAMES_PER_PLAYER[digest % len(GAMES_PER_PLAYER)])


def notebook_variant(notebook: object) -> Variant:
    """The variant an edition's metadata says it is (the stored chapters' if none, or if
    what it says is not a variant the lesson makes)."""
    metadata = getattr(notebook, "metadata", {}) or {}
    said = (metadata.get(METADATA) or {}).get("variant")
    if not isinstance(said, dict):
        return DEFAULT
    student, games = said.get("student"), said.get("games_per_player")
    if not isinstance(student, str) or games not in (STORED_GAMES, *GAMES_PER_PLAYER):
        return DEFAULT
    return Variant(student, games)


def read_roster(path: str | Path) -> list[str]:
    """The students of a roster: a CSV file whose ``student`` column names each one, by a
    name that can be a folder's (letters, digits, ``.``, ``_`` and ``-``); a ``ValueError``
    says what is wrong with another."""
    path = Path(path)
    with path.open(newline="") as file:
        rows = list(csv.DictReader(file))
    if not rows or "student" not in rows[0]:
        raise ValueError(f"{path}: a roster is a CSV file with a 'student' column")
    students = [(row["student"] or "").strip() for row in rows]
    for number, student in enumerate(students, 2):
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", student):
            raise ValueError(
                f"{path}, line {number}: {student!r} is not a name a folder can have "
                "(letters, digits, '.', '_' and '-')"
            )
    if len(set(students)) != len(students):
        raise ValueError(f"{path}: a student is named twice")
    return students
