"""The reference rules engine: ``Rules`` (the options) and ``take_turn`` (the answer key).

Each rule of RULES.md is one short function below, named after what it does. Every
landing, whether by dice, by a card or on leaving jail, goes through the one
:func:`resolve_landing`, exactly as the rules say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

import pandas as pd

from .starter import (
    GO_TO_JAIL,
    JAIL,
    NUM_SPACES,
    CardDeck,
    Player,
    SpaceTracker,
    chance_deck,
    standard_chance_deck,
)

__all__ = [
    "CHANCE_SPACES",
    "COMMUNITY_CHEST_SPACES",
    "LESSON_RULES",
    "RAILROADS",
    "UTILITIES",
    "Dice",
    "Rules",
    "Turn",
    "card_destination",
    "play_turn",
    "take_turn",
]

# ---------------------------------------------------------------------------
# The data the rules refer to
# ---------------------------------------------------------------------------

RAILROADS = (6, 16, 26, 36)
UTILITIES = (13, 29)
CHANCE_SPACES = (8, 23, 37)
COMMUNITY_CHEST_SPACES = (3, 18, 34)

# What each moving card does, keyed by the card's text (all other cards do not move).
ADVANCE_TO = {
    "Advance to Go": 1,
    "Advance to Illinois Ave.": 25,
    "Advance to St. Charles Place": 12,
    "Take a ride on the Reading Railroad": 6,
    "Take a walk on the Boardwalk": 40,
}
ADVANCE_TO_NEAREST = {
    "Advance token to nearest Utility": UTILITIES,
    "Advance token to the nearest Railroad": RAILROADS,
}
GO_BACK = {"Go Back 3 Spaces": 3}
SENDS_TO_JAIL = {"Go to Jail"}


# ---------------------------------------------------------------------------
# Rules: the options every engine takes
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The rule options; ``Rules()`` is the lesson's rules (the defaults below).

    - ``dice_sides``: faces on each of the two dice.
    - ``jail``: ``"long"`` (stay until doubles or the third turn) or ``"short"``
      (pay and leave on the next turn, then play a normal turn from Jail).
    - ``chance``: ``"lesson"`` (15 cards) or ``"standard"`` (16, two railroad cards).
    - ``counting``: ``"landings"`` (tally every landing) or ``"end_of_move"`` (count
      the space where the token rests after each dice roll, Project Euler 84's way).
    - ``replacement``: draw cards with replacement instead of dealing a shuffled deck.
    """

    dice_sides: int = 6
    jail: Literal["long", "short"] = "long"
    chance: Literal["lesson", "standard"] = "lesson"
    counting: Literal["landings", "end_of_move"] = "landings"
    replacement: bool = False

    def __post_init__(self) -> None:
        sides = self.dice_sides
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 2:
            raise ValueError(f"dice_sides must be a whole number of at least 2, got {sides!r}.")
        _check_choice("jail", self.jail, ("long", "short"))
        _check_choice("chance", self.chance, ("lesson", "standard"))
        _check_choice("counting", self.counting, ("landings", "end_of_move"))
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement must be True or False, got {self.replacement!r}.")

    @property
    def chance_deck(self) -> pd.DataFrame:
        """The Chance deck table these rules play with."""
        return standard_chance_deck if self.chance == "standard" else chance_deck

    def describe(self) -> str:
        """One line naming every option that differs from the lesson's rules."""
        changed = [
            f"{name}={getattr(self, name)!r}"
            for name in self.__dataclass_fields__
            if getattr(self, name) != getattr(LESSON_RULES, name)
        ]
        return "lesson rules" if not changed else "lesson rules with " + ", ".join(changed)


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        options = " or ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be {options}, got {value!r}.")


LESSON_RULES = Rules()
"""The lesson's rules, the default everywhere."""


class Dice(Protocol):
    """Anything with ``roll() -> (d1, d2)``: ``PresetDice`` or ``RandomDice``."""

    def roll(self) -> tuple[int, int]:
        """Roll both dice."""
        ...


# ---------------------------------------------------------------------------
# One turn
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class Turn:
    """What a player's turns are played with, so each rule below takes one argument.

    The simulation makes one per player per game and plays every turn with it.
    """

    player: Player
    tracker: SpaceTracker
    dice: Dice
    chance: CardDeck
    community: CardDeck
    rules: Rules


def take_turn(
    player: Player,
    tracker: SpaceTracker,
    *,
    dice: Dice,
    chance: CardDeck,
    community: CardDeck,
    rules: Rules = LESSON_RULES,
) -> None:
    """Play one whole turn for ``player`` under ``rules``, tallying into ``tracker``."""
    sides = getattr(dice, "sides", rules.dice_sides)
    if sides != rules.dice_sides:
        raise ValueError(f"the dice have {sides} sides but the rules say {rules.dice_sides}.")
    play_turn(Turn(player, tracker, dice, chance, community, rules))


def play_turn(turn: Turn) -> None:
    """One whole turn: a turn in jail, or a free turn."""
    player = turn.player
    if player.in_jail:
        player.start_jail_turn()
        if turn.rules.jail == "long":
            jail_turn(turn)
            return
        player.leave_jail()  # short stay: pay, leave, and play a normal turn from Jail
    free_turn(turn)


def free_turn(turn: Turn) -> None:
    """Roll, move and land; roll again after doubles; the third doubles sends to jail."""
    doubles_in_a_row = 0
    while True:
        d1, d2 = turn.dice.roll()
        doubles_in_a_row = doubles_in_a_row + 1 if d1 == d2 else 0
        if doubles_in_a_row == 3:
            send_to_jail(turn)
        else:
            move_and_land(turn, d1 + d2)
        count_roll_end(turn)
        if not roll_again(turn, d1, d2):
            return


def jail_turn(turn: Turn) -> None:
    """Long stay in jail: leave on doubles or on the third turn, else stay (tally Jail)."""
    d1, d2 = turn.dice.roll()
    if d1 == d2 or turn.player.jail_turns >= 3:
        turn.player.leave_jail()
        move_and_land(turn, d1 + d2)  # no roll again, even after doubles
    else:
        count_landing(turn, JAIL)
    count_roll_end(turn)


def roll_again(turn: Turn, d1: int, d2: int) -> bool:
    """Doubles earn another roll, unless the roll ended with the player sent to jail."""
    return d1 == d2 and not turn.player.in_jail


def move_and_land(turn: Turn, steps: int) -> None:
    """Move forward by the dice total and resolve the landing."""
    turn.player.move_forward(steps)
    resolve_landing(turn)


def resolve_landing(turn: Turn) -> None:
    """The one procedure for every landing: Go to Jail, else tally and maybe draw a card."""
    space = turn.player.pos
    if space == GO_TO_JAIL:
        send_to_jail(turn)
        return
    count_landing(turn, space)
    if space in CHANCE_SPACES:
        draw_card(turn, turn.chance)
    elif space in COMMUNITY_CHEST_SPACES:
        draw_card(turn, turn.community)


def draw_card(turn: Turn, deck: CardDeck) -> None:
    """Draw a card and follow it: to jail, to a new landing, or nothing at all."""
    card = deck.card(deck.draw())
    if card in SENDS_TO_JAIL:
        send_to_jail(turn)
        return
    destination = card_destination(card, turn.player.pos)
    if destination is None:
        return
    if card in GO_BACK:
        turn.player.move_to(destination)
    else:
        turn.player.move_forward((destination - turn.player.pos) % NUM_SPACES)
    resolve_landing(turn)  # a card's move is a new landing, resolved the same way


def card_destination(card: str, pos: int) -> int | None:
    """The space a card sends the token to from ``pos``, or None if it does not move it.

    "Nearest" is always the next one forward, passing Go if need be.
    """
    if card in ADVANCE_TO:
        return ADVANCE_TO[card]
    if card in ADVANCE_TO_NEAREST:
        return min(ADVANCE_TO_NEAREST[card], key=lambda s: (s - pos - 1) % NUM_SPACES)
    if card in GO_BACK:
        return (pos - 1 - GO_BACK[card]) % NUM_SPACES + 1
    return None


def send_to_jail(turn: Turn) -> None:
    """Move the token to Jail, tally Jail once; the player is now in jail."""
    turn.player.go_to_jail()
    count_landing(turn, JAIL)


def count_landing(turn: Turn, space: int) -> None:
    """Tally a landing (the lesson's counting: every landing counts)."""
    if turn.rules.counting == "landings":
        turn.tracker.tally(space)


def count_roll_end(turn: Turn) -> None:
    """Tally where the token rests after a roll (the "end_of_move" counting only)."""
    if turn.rules.counting == "end_of_move":
        turn.tracker.tally(turn.player.pos)
