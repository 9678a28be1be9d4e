"""Per-student variants: each student's editions ask for numbers of their own.

A one-number answer can be copied from a classmate, or from the chapter's stored solution.
So an instructor with a roster hands each student an edition with parameters of their own
(``tools/student_edition.py --roster roster.csv``), drawn from the student's name and never
the stored solution's: in chapter 10 the street whose hotel is asked about (not Boardwalk)
and the houses on every lot of the best group per dollar (not one); in chapters 11 and 12
the games each player plays in the fitness exercises (not 100). The edition carries the
student and the parameters in its metadata, and its exercises say them. The grader names
the student (``check --student NAME``, ``check_submissions.py --roster``): the checker then
computes that student's right answers from the student's own parameters, so a classmate's
or the solution's number is wrong; a notebook whose metadata names another student is not
graded. Without a student named (a student checking their own work), the parameters are
read from the notebook's metadata.
"""

from __future__ import annotations

import csv
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ..game.lots import lots

__all__ = [
    "DEFAULT",
    "GAMES_PER_PLAYER",
    "HOUSES",
    "LOTS",
    "METADATA",
    "REWRITES",
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
STORED_LOT = 40
"""The street whose hotel chapter 10 (and its solution) asks about: Boardwalk."""
LOTS = (22, 24, 25, 27, 28, 32, 33, 35, 38)
"""The streets a variant's chapter 10 may ask about: red to dark blue, each with a hotel rent
and a payback of its own at the digits the chapter shows, and Boardwalk's neither (Marvin
Gardens is left out: its payback, 22.9 turns, is Atlantic Avenue's)."""
STORED_HOUSES = 1
"""The houses on every lot of the best group per dollar that chapter 10 asks about."""
HOUSES = (3, 4)
"""The houses a variant's chapter 10 may ask about: orange is best per dollar with 3 or 4,
dark blue with the stored 1 (and with 2, which is left out: its answer is the stored one)."""
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}
"""How an exercise spells a number of houses."""

REWRITES = (
    (
        (11, 12),
        "games_per_player",
        r"\b100 games per player\b",
        "{games_per_player} games per player",
    ),
    ((11, 12), "games_per_player", r"\bits 100 games\b", "its {games_per_player} games"),
    ((10,), "lot", r"\bBoardwalk\b", "{title}"),
    ((10,), "lot", r"\bspace\s+40\b", "space {lot}"),
    ((10,), "lot", r"(\bfive\s+buildings\s+at\s+(?:<span>)?\\?\$)200\b", r"\g<1>{house_cost}"),
    ((10,), "houses", r"\bwith\s+one\s+house\b", "with {houses_said} houses"),
    ((10,), "houses", r"\bone-house\s+column\b", "{houses_said}-house column"),
    (
        (10,),
        "houses",
        r"\bWhy\s+is\s+it\s+not\s+orange\?",
        "Is it the best with one house too, and why?",
    ),
)
"""How a stored exercise says a parameter and how a variant says it instead: the chapters,
the parameter, the stored phrase (a pattern, spread over lines or not) and the variant's
(filled in from :meth:`Variant.words`). Each rewrite is used only where its parameter is
not the stored one, so the stored chapters' own text is left as it is."""


@dataclass(frozen=True)
class Variant:
    """One student's parameters (``student`` empty: the stored chapters' own)."""

    student: str = ""
    games_per_player: int = STORED_GAMES
    lot: int = STORED_LOT
    houses: int = STORED_HOUSES

    def parameters(self) -> dict[str, int]:
        """The parameters an answer key's function takes, by name."""
        return {"games_per_player": self.games_per_player, "lot": self.lot, "houses": self.houses}

    def words(self) -> dict[str, object]:
        """What the exercises say of this variant: its parameters, its street's name and
        the cost of one of that street's buildings, its houses spelt out."""
        return {
            **self.parameters(),
            "title": lots.at[self.lot, "title"],
            "house_cost": int(lots.at[self.lot, "house_cost"]),
            "houses_said": NUMBERS[self.houses],
        }

    def say(self, text: str, chapter: int | None = None) -> str:
        """An exercise's text with this variant's numbers in place of the stored ones (only
        chapter ``chapter``'s rewrites if given, else every chapter's)."""
        stored = DEFAULT.parameters()
        words = self.words()
        for chapters, parameter, phrase, said in REWRITES:
            if (chapter is None or chapter in chapters) and words[parameter] != stored[parameter]:
                text = re.sub(
                    phrase, lambda found, said=said: found.expand(said.format(**words)), text
                )
        return text

    def describe(self) -> str:
        """The variant in a line, for the instructor who hands it out."""
        words = self.words()
        return (
            f"{self.games_per_player} games per player; chapter 10: {words['title']} "
            f"(space {self.lot}), {self.houses} houses"
        )

    def metadata(self) -> dict:
        """The variant as an edition's metadata keeps it."""
        return {"student": self.student, **self.parameters()}


DEFAULT = Variant()
"""The stored chapters' parameters: what an edition without a student asks."""


def variant_for(student: str) -> Variant:
    """The variant of ``student`` (a name or id from the roster): the same every time."""
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"a student must be named by a non-empty text, got {student!r}.")
    digest = int(hashlib.sha256(student.strip().encode()).hexdigest(), 16)
    digest, games = divmod(digest, len(GAMES_PER_PLAYER))
    digest, lot = divmod(digest, len(LOTS))
    houses = digest % len(HOUSES)
    return Variant(student.strip(), GAMES_PER_PLAYER[games], LOTS[lot], HOUSES[houses])


def _made(value: object, stored: int, choices: tuple[int, ...]) -> bool:
    """Whether ``value`` is a parameter the lesson makes: the stored one or a variant's."""
    return type(value) is int and value in (stored, *choices)


def notebook_variant(notebook: object) -> Variant:
    """The variant an edition's metadata says it is (the stored chapters' if none, or if
    what it says is not a variant the lesson makes). An edition written before chapter 10
    had variants says none for it: chapter 10's stored parameters."""
    metadata = getattr(notebook, "metadata", {}) or {}
    said = (metadata.get(METADATA) or {}).get("variant")
    if not isinstance(said, dict):
        return DEFAULT
    student, games = said.get("student"), said.get("games_per_player")
    lot, houses = said.get("lot", STORED_LOT), said.get("houses", STORED_HOUSES)
    if not (
        isinstance(student, str)
        and _made(games, STORED_GAMES, GAMES_PER_PLAYER)
        and _made(lot, STORED_LOT, LOTS)
        and _made(houses, STORED_HOUSES, HOUSES)
    ):
        return DEFAULT
    return Variant(student, games, lot, houses)


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
