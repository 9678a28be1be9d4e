"""Every roll of the rules, enumerated from the reference engine: what the fast and exact
engines are built from.

A roll's result depends on where it starts (free on a space, or in jail after k turns),
how many doubles came before it in the turn, the dice (their total, and whether they are
doubles) and the cards it draws. :func:`roll_table` plays the reference
:func:`~monopoly_lesson.rules.play_roll` once for every such case, with probe dice and
probe decks, and records what happened: the next state, whether the player rolls again,
the tallies, and which cards were drawn. Nothing here knows a rule; change a rule in
:mod:`monopoly_lesson.rules` and the tables (so the fast and exact engines) follow.

States are numbered 0..39 for "free on space 1..40" and 40 + k for "in jail after k
turns" (k < ``TURNS_IN_JAIL``); a roll's *row* is ``doubles_so_far * STATES + state``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import numpy as np

from .rules import DOUBLES_TO_JAIL, TURNS_IN_JAIL, Rules, Seat, play_roll
from .starter import JAIL, NUM_SPACES, Player, community_deck

__all__ = [
    "STATES",
    "Leaf",
    "RollTable",
    "dice_classes",
    "each_card_choice",
    "probe_seat",
    "roll_table",
    "state_label",
    "state_of",
]

T = TypeVar("T")
STATES = NUM_SPACES + TURNS_IN_JAIL
"""Start-of-roll states: free on a space (0..39), or in jail after k turns (40 + k)."""
DECKS = ("chance", "community")


def state_label(state: int) -> str:
    """``"free s"`` (s = 1..40) or ``"jail k"`` for a state number."""
    return f"free {state + 1}" if state < NUM_SPACES else f"jail {state - NUM_SPACES}"


@dataclass(frozen=True)
class Leaf:
    """One way a roll can go, once its dice and the cards it draws are known."""

    cards: tuple[int | None, int | None]  # the Chance and Community Chest card drawn (0-based)
    next_state: int
    doubles: int  # doubles in a row if the player rolls again, 0 if the turn is over
    tallies: tuple[int, ...]  # spaces tallied (1-based), in order


@dataclass(frozen=True)
class RollTable:
    """Every roll of one ``Rules``, as leaves per (row, dice class).

    ``dice_class`` maps a dice code ``(d1 - 1) * n + (d2 - 1)`` to its class (total and
    doubles); ``leaves[row][cls]`` lists the leaves, one per combination of cards drawn
    (a single leaf when no card is drawn). Rows that play cannot reach are None.
    """

    rules: Rules
    dice_class: np.ndarray
    class_faces: tuple[tuple[int, int], ...]  # the roll that stands for each class
    class_size: np.ndarray  # how many dice codes each class has
    leaves: tuple[tuple[tuple[Leaf, ...], ...] | None, ...]
    deck_sizes: tuple[int, int]

    def weighted(self, row: int) -> list[tuple[int, float, Leaf]]:
        """Every leaf of ``row`` with its dice class and its probability.

        Dice are fair, and each card is drawn uniformly from its deck (draws with
        replacement, as exact answers assume).
        """
        rolls = self.leaves[row] or ()
        codes = self.rules.dice_sides**2
        return [
            (cls, self.class_size[cls] / codes * self._card_probability(leaf), leaf)
            for cls, leaves in enumerate(rolls)
            for leaf in leaves
        ]

    def _card_probability(self, leaf: Leaf) -> float:
        p = 1.0
        for card, size in zip(leaf.cards, self.deck_sizes, strict=True):
            if card is not None:
                p /= size
        return p


# ---------------------------------------------------------------------------
# Probes: dice, decks and a tracker that record one roll
# ---------------------------------------------------------------------------


class _NeedCard(Exception):
    """A probe deck was drawn from before the enumeration chose its card."""

    def __init__(self, deck: int) -> None:
        self.deck = deck


class _OneRoll:
    """Dice that roll the given faces once: a roll is one roll."""

    def __init__(self, faces: tuple[int, int], sides: int) -> None:
        self.faces, self.sides, self.rolled = faces, sides, False

    def roll(self) -> tuple[int, int]:
        if self.rolled:
            raise RuntimeError("play_roll rolled the dice twice in one roll")
        self.rolled = True
        return self.faces


class _ProbeDeck:
    """A deck that deals the card the enumeration chose for it, at most once per roll."""

    def __init__(self, deck: int, cards: list[str], chosen: dict[int, int]) -> None:
        self.deck, self.cards, self.chosen, self.drawn = deck, cards, chosen, False

    def draw(self) -> int:
        if self.drawn:
            raise ValueError(
                f"one roll draws twice from the {DECKS[self.deck]} deck under these rules; "
                "the fast and exact engines cannot play them (use the reference engine)."
            )
        self.drawn = True
        if self.deck not in self.chosen:
            raise _NeedCard(self.deck)
        return self.chosen[self.deck] + 1

    def card(self, number: int) -> str:
        return self.cards[number - 1]


class _Recorder:
    """A tracker that keeps the tallies of one roll in order."""

    def __init__(self) -> None:
        self.spaces: list[int] = []

    def tally(self, space: int) -> None:
        self.spaces.append(space)


# ---------------------------------------------------------------------------
# The enumeration
# ---------------------------------------------------------------------------


def state_of(player: Player) -> int:
    """The roll table's state of a token: free on a space (0..39), or in jail after k turns."""
    if not player.in_jail:
        return player.pos - 1
    if player.jail_turns >= TURNS_IN_JAIL:
        raise ValueError(
            f"a roll left the player in jail after {player.jail_turns} turns, more than the "
            f"{TURNS_IN_JAIL} the tables have states for."
        )
    return NUM_SPACES + player.jail_turns


def probe_seat(
    rules: Rules,
    decks: tuple[list[str], list[str]],
    state: int,
    faces: tuple[int, int],
    chosen: dict[int, int],
    tracker: object,
    game: object = None,
) -> Seat:
    """A seat for one roll from ``state``: the dice roll ``faces`` once, and each deck deals
    the card ``chosen`` for it (a deck without a chosen card raises _NeedCard)."""
    player = Player(state + 1 if state < NUM_SPACES else JAIL)
    if state >= NUM_SPACES:
        player.in_jail, player.jail_turns = True, state - NUM_SPACES
    chance, community = (_ProbeDeck(i, cards, chosen) for i, cards in enumerate(decks))
    dice = _OneRoll(faces, rules.dice_sides)
    return Seat(player, tracker, dice, chance, community, rules, game=game)  # type: ignore[arg-type]


def each_card_choice(
    play: Callable[[dict[int, int]], T],
    sizes: tuple[int, int],
    chosen: dict[int, int] | None = None,
) -> list[T]:
    """``play(chosen)`` for every way the roll can go: a card is chosen only when drawn."""
    chosen = chosen or {}
    try:
        return [play(chosen)]
    except _NeedCard as need:
        return [
            leaf
            for card in range(sizes[need.deck])
            for leaf in each_card_choice(play, sizes, {**chosen, need.deck: card})
        ]


@dataclass(frozen=True)
class _Roll:
    """One roll to enumerate: the rules, where it starts, and the dice."""

    rules: Rules
    decks: tuple[list[str], list[str]]
    state: int
    doubles: int
    faces: tuple[int, int]

    def play(self, chosen: dict[int, int]) -> Leaf:
        """Play it with these cards chosen; raise _NeedCard if a deck without one is drawn."""
        tracker = _Recorder()
        seat = probe_seat(self.rules, self.decks, self.state, self.faces, chosen, tracker)
        doubles = play_roll(seat, self.doubles)
        cards = (chosen.get(0), chosen.get(1))
        return Leaf(cards, state_of(seat.player), doubles, tuple(tracker.spaces))

    def leaves(self) -> list[Leaf]:
        """Every way the roll can go: a card is chosen only when the roll draws it."""
        return each_card_choice(self.play, (len(self.decks[0]), len(self.decks[1])))


def dice_classes(sides: int) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
    """One roll per class (total, doubles); each code's class; the codes per class.

    The rules read the dice only through their total and whether they are doubles, so
    one roll of each class stands for all of its codes.
    """
    d1, d2 = np.divmod(np.arange(sides * sides), sides)
    keys = (d1 + d2) * 2 + (d1 == d2)  # total and doubles, as one number
    _, first, of_code, size = np.unique(
        keys, return_index=True, return_inverse=True, return_counts=True
    )
    faces = [(int(d1[i]) + 1, int(d2[i]) + 1) for i in first]
    return faces, of_code.astype(np.int64), size.astype(np.int64)


@lru_cache(maxsize=64)
def roll_table(rules: Rules) -> RollTable:
    """Enumerate every roll of ``rules`` through the reference engine (cached per Rules).

    Jail states are rolled from only at the start of a turn (doubles so far 0).
    """
    decks = (list(rules.chance_deck["card"]), list(community_deck["card"]))
    faces, of_code, size = dice_classes(rules.dice_sides)
    rows: list[tuple[tuple[Leaf, ...], ...] | None] = []
    for doubles in range(DOUBLES_TO_JAIL):
        for state in range(STATES):
            if doubles and state >= NUM_SPACES:
                rows.append(None)  # a player in jail never rolls again in the same turn
                continue
            rolls = (_Roll(rules, decks, state, doubles, roll) for roll in faces)
            rows.append(tuple(tuple(roll.leaves()) for roll in rolls))
    return RollTable(
        rules, of_code, tuple(faces), size, tuple(rows), (len(decks[0]), len(decks[1]))
    )
