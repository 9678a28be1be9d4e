"""Each chapter's checks: preset games that exercise every branch a chapter adds to take_turn.

A check plays the student's ``take_turn`` side by side with the reference engine on the
same preset dice and cards, turn by turn. Each chapter's games stay inside the rules that
chapter has introduced (chapter 2 never rolls doubles or lands on a card, for instance),
so the reference engine's answer is the chapter's answer. The jail state is compared from
chapter 5 on, when players are held in jail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules import LESSON_RULES, Rules
from ..scenarios import SCENARIOS, Difference, play_side_by_side

__all__ = [
    "CHAPTER_CHECKS",
    "CHAPTER_RULES",
    "CHAPTER_TOPICS",
    "ChapterCheck",
    "chapter_games",
    "check_chapter",
    "rules_taught",
]

TakeTurn = Callable[..., None]
JAIL_CHAPTER = 5  # from this chapter on, a player sent to jail is held there


@dataclass(frozen=True)
class ChapterCheck:
    """One preset game of a chapter's checks: what it checks, the start, the dice, the cards."""

    name: str
    start: int
    dice: tuple[int, ...]
    turns: int = 1
    chance_order: tuple[int, ...] = ()
    chest_order: tuple[int, ...] = ()
    jail_turns: int | None = None  # start in jail after this many turns there

    def difference(self, take_turn: TakeTurn, *, jail: bool) -> Difference | None:
        """Where ``take_turn`` first differs from the rules in this game (None: nowhere)."""
        return play_side_by_side(
            take_turn,
            dice=self.dice,
            start=self.start,
            turns=self.turns,
            chance_order=self.chance_order,
            chest_order=self.chest_order,
            jail_turns=self.jail_turns,
            jail=jail,
            name=self.name,
        )


def _scenario(number: int, what: str) -> ChapterCheck:
    s = SCENARIOS[number]
    return ChapterCheck(
        f"{what} (scenario {number} of the rules)",
        s.start,
        s.dice,
        s.turns,
        s.chance_order,
        s.chest_order,
    )


C = ChapterCheck
ORDINARY = C("an ordinary landing: from Go (1), 2 and 3 to Reading Railroad (6)", 1, (2, 3))
PASSING_GO = C("passing Go: from Park Place (38), 2 and 4 to Baltic Avenue (4)", 38, (2, 4))
TWO_TURNS = C(
    "two turns: Go (1) to Reading Railroad (6), then on to St. James Place (17)",
    1,
    (4, 1, 6, 5),
    turns=2,
)
JAILED_BY_DICE = _scenario(1, "Go to Jail by dice: from Indiana Avenue (24), 3 and 4")

CARDS = (
    C("Chance, advance to Go: from Chance (37), card 1", 30, (3, 4), chance_order=(1,)),
    C(
        "Chance, nearest railroad, passing Go: from Chance (37), card 5",
        30,
        (3, 4),
        chance_order=(5,),
    ),
    C("Chance, nearest utility: from Chance (23), card 4", 16, (3, 4), chance_order=(4,)),
    C(
        "Chance, Go Back 3 onto Community Chest (34), whose card 1 advances to Go",
        30,
        (3, 4),
        chance_order=(9,),
        chest_order=(1,),
    ),
    C("Chance, the Go to Jail card: from Chance (8), card 8", 1, (3, 4), chance_order=(8,)),
    C("Chance, a card that does not move: Chance (8), card 10", 1, (3, 4), chance_order=(10,)),
    C(
        "Community Chest, advance to Go: from Community Chest (34), card 1",
        28,
        (2, 4),
        chest_order=(1,),
    ),
    C(
        "Community Chest, the Go to Jail card: from Community Chest (18), card 2",
        15,
        (1, 2),
        chest_order=(2,),
    ),
    C(
        "Community Chest, a card that does not move: Community Chest (18), card 3",
        12,
        (2, 4),
        chest_order=(3,),
    ),
)

DOUBLES = (
    C("doubles roll again: 3 and 3 to Oriental Avenue (7), then 1 and 2", 1, (3, 3, 1, 2)),
    C("three doubles: sent to jail without moving on the third", 1, (3, 3, 3, 3, 1, 1)),
    C("doubles onto Go to Jail: the turn ends, no roll again", 25, (3, 3, 1, 2)),
    C(
        "doubles onto Chance (8) and its Go to Jail card: the turn ends",
        4,
        (2, 2, 3, 4),
        chance_order=(8,),
    ),
    _scenario(2, "Chance cards with doubles, four turns"),
    _scenario(3, "two doubles, then Community Chest"),
)

JAIL = (
    C("sent to jail, then held: Go to Jail, and the next turn stays", 24, (3, 4, 1, 2), turns=2),
    C("in jail, no doubles on the 1st turn: stay, and tally Jail", 11, (1, 2), jail_turns=0),
    C(
        "in jail, doubles: leave to Virginia Avenue (15), no roll again",
        11,
        (2, 2, 1, 2),
        jail_turns=0,
    ),
    C(
        "in jail, the 3rd turn: leave anyway, to Pennsylvania Railroad (16)",
        11,
        (2, 3),
        jail_turns=2,
    ),
    C(
        "in jail, the 3rd turn onto Community Chest (18): its card 1 advances to Go",
        11,
        (3, 4),
        chest_order=(1,),
        jail_turns=2,
    ),
    _scenario(4, "three doubles, then three turns in jail"),
    _scenario(5, "doubles onto Go to Jail, doubles out of jail"),
)

CHAPTER_CHECKS: dict[int, tuple[ChapterCheck, ...]] = {
    1: (ORDINARY, PASSING_GO, TWO_TURNS),
    2: (ORDINARY, PASSING_GO, JAILED_BY_DICE),
    3: (ORDINARY, JAILED_BY_DICE, *CARDS),
    4: (ORDINARY, *DOUBLES),
    5: (
        JAILED_BY_DICE,
        *JAIL,
        _scenario(2, "Chance cards with doubles, four turns"),
        _scenario(3, "two doubles, then Community Chest"),
    ),
    6: (ORDINARY, PASSING_GO, TWO_TURNS, JAILED_BY_DICE, *CARDS, *DOUBLES, *JAIL),
}
"""Each chapter's checks, by chapter: every branch the chapter's ``take_turn`` adds."""
del C

CHAPTER_TOPICS = {
    1: "moving and passing Go",
    2: "Go to Jail",
    3: "Chance and Community Chest",
    4: "doubles",
    5: "jail",
    6: "the full simulation",
}
"""What each take_turn chapter adds to the rules, in a few words."""

CHAPTER_RULES: dict[int, Rules] = {
    1: Rules(jail="short", go_to_jail=False, cards=False, doubles=False),
    2: Rules(jail="short", cards=False, doubles=False),
    3: Rules(jail="short", doubles=False),
    4: Rules(jail="short"),
    5: LESSON_RULES,
    6: LESSON_RULES,
}
"""The rules each chapter has taught so far, as the reference engine plays them. Before
chapter 5 jail is only a place: a player sent there plays on from it the next turn (the
``"short"`` stay, whose tallies are the same)."""


def rules_taught(chapter: int) -> str:
    """The rules of chapters 1 to ``chapter``, in words: ``chapters 1 to 2 (moving ..., ...)``."""
    topics = ", ".join(CHAPTER_TOPICS[n] for n in range(1, min(chapter, 5) + 1))
    span = "chapter 1" if chapter == 1 else f"chapters 1 to {chapter}"
    return f"the rules of {span} ({topics})"


def chapter_games(chapter: int) -> tuple[ChapterCheck, ...]:
    """The checks of chapters 1 to ``chapter``, each once, in chapter order."""
    games = {check.name: check for n in range(1, chapter + 1) for check in CHAPTER_CHECKS[n]}
    return tuple(games.values())


def check_chapter(take_turn: TakeTurn, chapter: int) -> None:
    """Play a chapter's checks through ``take_turn``; raise an ``AssertionError`` if one fails.

    Each check plays ``take_turn`` and the rules side by side on the same dice and cards.
    A failure names the check and the turn, what the rules expect and what the code did.

    >>> from monopoly_lesson import take_turn
    >>> check_chapter(take_turn, 2)
    Chapter 2: all 3 checks pass (your take_turn and the rules, side by side).
      pass  an ordinary landing: from Go (1), 2 and 3 to Reading Railroad (6)
      pass  passing Go: from Park Place (38), 2 and 4 to Baltic Avenue (4)
      pass  Go to Jail by dice: from Indiana Avenue (24), 3 and 4 (scenario 1 of the rules)
    """
    if isinstance(chapter, bool) or not isinstance(chapter, int):
        raise TypeError(f"chapter must be a whole number, got {chapter!r}.")
    if chapter not in CHAPTER_CHECKS:
        raise ValueError(f"chapters with checks are {sorted(CHAPTER_CHECKS)}, got {chapter}.")
    if not callable(take_turn):
        raise TypeError(f"expected a take_turn function, got {type(take_turn).__name__}.")
    checks = CHAPTER_CHECKS[chapter]
    found = [(check, check.difference(take_turn, jail=chapter >= JAIL_CHAPTER)) for check in checks]
    failed = [(check, d) for check, d in found if d is not None]
    if failed:
        raise AssertionError(_failure(chapter, found, failed))
    print(
        f"Chapter {chapter}: all {len(checks)} checks pass "
        "(your take_turn and the rules, side by side)."
    )
    for check in checks:
        print(f"  pass  {check.name}")


def _failure(chapter: int, found: list, failed: list) -> str:
    """The message of a failed chapter check: a headline, then each check, failures first."""
    first, difference = failed[0]
    lines = [
        f"Chapter {chapter}: {len(failed)} of {len(found)} checks fail; the first: {first.name}, "
        f"turn {difference.turn}.",
        "Each check plays your take_turn and the rules side by side on the same dice and cards.",
    ]
    for check, d in failed:
        lines += ["", f"FAIL  {d.report(check.name)}"]
    lines.append("")
    lines += [f"pass  {check.name}" for check, d in found if d is None]
    return "\n".join(lines)
