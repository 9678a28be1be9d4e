"""Every roll of the whole game's movement, as the events the money rules hook into.

The compiled game engine (:mod:`monopoly_lesson.game.fast`) does not re-code the movement
rules: like the roll table of the movement engines (:mod:`monopoly_lesson.roll_table`),
this module plays :func:`~monopoly_lesson.rules.play_roll` once for every start state,
doubles so far, dice class, jail choice and card drawn, with a recording
:class:`~monopoly_lesson.rules.GameHooks`, and keeps the hooks' calls in order: passing
Go, each landing (with the card that moved the token there), each card drawn, leaving jail
at once, the third failed roll's fee, and where the roll ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np

from ..roll_table import STATES, dice_classes, each_card_choice, probe_seat, state_of
from ..rules import DOUBLES_TO_JAIL, Rules, Seat, play_roll
from ..starter import NUM_SPACES, community_deck
from .card_effects import chance_effects

__all__ = ["EVENT_WIDTH", "JAIL_CHOICES", "OPS", "GameRollTable", "game_roll_table"]

OPS = {"end": 0, "go": 1, "land": 2, "draw": 3, "leave": 4, "fee": 5}
"""Event codes: ``end(next state, doubles, asked the jail choice)``, ``go``,
``land(space, rent x, dice x)``,
``draw(deck)``, ``leave`` (at once, card or $50) and ``fee`` (the third failed roll)."""
EVENT_WIDTH = 4
"""The fields of an event: its code and three arguments."""
JAIL_CHOICES = 2
"""A jailed player stays or leaves: a roll's leaves are kept for each choice."""
CARD_RENT = {
    row.card: (int(row.rent_multiplier), int(row.dice_multiplier))
    for row in chance_effects.itertuples()
}


class _Recorder:
    """The hooks of one roll, recorded in order; the jail choice answers ``leave``."""

    def __init__(self, leave: bool) -> None:
        self.leave, self.asked = leave, False
        self.events: list[tuple[int, int, int, int]] = []

    def passed_go(self, seat: Seat) -> None:
        self.events.append((OPS["go"], 0, 0, 0))

    def landed(self, seat: Seat, card: str | None) -> None:
        times, dice = CARD_RENT.get(card, (1, 0)) if card else (1, 0)
        self.events.append((OPS["land"], seat.player.pos, times, dice))

    def card_drawn(self, seat: Seat, deck: object, number: int) -> None:
        self.events.append((OPS["draw"], deck.deck, 0, 0))  # type: ignore[attr-defined]

    def leave_jail_now(self, seat: Seat) -> bool:
        self.asked = True
        if self.leave:
            self.events.append((OPS["leave"], 0, 0, 0))
        return self.leave

    def pay_to_leave_jail(self, seat: Seat) -> None:
        self.events.append((OPS["fee"], 0, 0, 0))

    def tally(self, space: int) -> None:
        """The recorder is the tracker too; tallies are not needed here."""


def _play_recorded(
    rules: Rules,
    decks: tuple[list[str], list[str]],
    state: int,
    doubles: int,
    faces: tuple[int, int],
    leave: bool,
    chosen: dict[int, int],
) -> tuple[tuple[int, int], list[tuple[int, ...]]]:
    """One roll with these cards chosen: the cards and the recorded events, ending in ``end``."""
    recorder = _Recorder(leave)
    seat = probe_seat(rules, decks, state, faces, chosen, recorder, game=recorder)
    again = play_roll(seat, doubles)
    end = (OPS["end"], state_of(seat.player), again, int(recorder.asked))
    return (chosen.get(0, -1), chosen.get(1, -1)), [*recorder.events, end]


@dataclass(frozen=True)
class GameRollTable:
    """The events of every roll, packed for the fast engine.

    ``leaf[row, dice class, leave, chance card, chest card]`` is the leaf a roll plays
    (cards 0-based; a roll that does not draw from a deck has the same leaf for all its
    cards); leaf ``k``'s events are ``events[start[k]:start[k + 1]]``, rows of
    (op, a, b, c). ``asks[row]`` says whether a roll from that row starts with the jail
    choice. Rows are ``doubles * STATES + state``, as in the movement roll table.
    """

    dice_class: np.ndarray
    leaf: np.ndarray
    start: np.ndarray
    events: np.ndarray
    asks: np.ndarray


@lru_cache(maxsize=4)
def game_roll_table(rules: Rules) -> GameRollTable:
    """Enumerate every roll of ``rules`` with the whole game's hooks (cached per Rules)."""
    decks = (list(rules.chance_deck["card"]), list(community_deck["card"]))
    faces, of_code, _ = dice_classes(rules.dice_sides)
    sizes = (len(decks[0]), len(decks[1]))
    rows = DOUBLES_TO_JAIL * STATES
    leaf = np.zeros((rows, len(faces), JAIL_CHOICES, *sizes), dtype=np.int32)
    asks = np.zeros(rows, dtype=np.int32)
    events: list[tuple[int, ...]] = []
    start = [0]
    for row in range(rows):
        doubles, state = divmod(row, STATES)
        if doubles and state >= NUM_SPACES:
            continue  # a player in jail never rolls again in the same turn
        for cls, roll in enumerate(faces):
            for leave in (False, True):
                play = partial(_play_recorded, rules, decks, state, doubles, roll, leave)
                for (chance, chest), leaf_events in each_card_choice(play, sizes):
                    leaf[row, cls, int(leave), _cards(chance), _cards(chest)] = len(start) - 1
                    events += leaf_events
                    start.append(len(events))
                    asks[row] |= leaf_events[-1][3]  # the end event says if it asked
    return GameRollTable(
        of_code.astype(np.int32),
        leaf,
        np.array(start, dtype=np.int32),
        np.array(events, dtype=np.int32).reshape(-1, EVENT_WIDTH),
        asks,
    )


def _cards(card: int) -> slice | int:
    """The card index a leaf fills: its card, or every card when the deck was not drawn."""
    return slice(None) if card < 0 else card
