"""The preset scenarios of RULES.md as data, and a way to play and check them.

A scenario fixes the start space, the dice and the first cards of each deck, so any
``take_turn`` can be played through it and its tallies compared with the expected ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .rules import LESSON_RULES, Rules, Seat
from .starter import DiceUsedUpError

__all__ = ["SCENARIOS", "Scenario", "check_scenario", "play_preset"]


@dataclass(frozen=True)
class Scenario:
    """One preset scenario: where the token starts, the dice, the cards, what it must tally."""

    number: int
    description: str
    start: int
    dice: tuple[int, ...]
    turns: int
    tallies: dict[int, int]
    chance_order: tuple[int, ...] = ()
    chest_order: tuple[int, ...] = ()
    rules_needed: tuple[str, ...] = field(default=())


SCENARIOS = {
    1: Scenario(1, "dice onto Go to Jail", start=24, dice=(3, 4), turns=1,
                tallies={11: 1}, rules_needed=("go to jail",)),
    2: Scenario(2, "Chance cards, with doubles", start=1, dice=(3, 4, 3, 4, 1, 1, 3, 4, 5, 3),
                turns=4, tallies={1: 1, 6: 1, 8: 3, 16: 1, 23: 1, 29: 1, 37: 1},
                chance_order=(1, 6, 5, 4, 10), rules_needed=("cards", "doubles")),
    3: Scenario(3, "two doubles, then Community Chest", start=1, dice=(3, 3, 2, 2, 1, 2, 1, 3),
                turns=2, tallies={7: 1, 11: 1, 14: 1, 18: 1}, chest_order=(3,),
                rules_needed=("cards", "doubles")),
    4: Scenario(4, "three doubles, then three turns in jail", start=1,
                dice=(3, 3, 3, 3, 1, 1, 1, 2, 4, 5, 5, 6), turns=4,
                tallies={7: 1, 11: 3, 13: 1, 22: 1}, rules_needed=("doubles", "jail")),
    5: Scenario(5, "doubles onto Go to Jail, doubles out of jail", start=25,
                dice=(3, 3, 1, 2, 3, 3), turns=3, tallies={11: 2, 17: 1},
                rules_needed=("go to jail", "doubles", "jail")),
}  # fmt: skip
"""RULES.md's five scenarios, by number."""


def play_preset(
    take_turn: Callable[..., None] | None = None,
    *,
    dice: Sequence[int],
    start: int = 1,
    chance_order: Sequence[int] = (),
    chest_order: Sequence[int] = (),
    turns: int | None = None,
    verbose: bool = False,
    rules: Rules = LESSON_RULES,
    seed: int = 0,
) -> Seat:
    """Play turns with preset dice and cards; ``take_turn=None`` plays the reference engine.

    ``turns=None`` plays until the preset dice are used up. Cards after the preset ones
    come from decks shuffled with ``seed``. With ``verbose`` every event is narrated.
    Returns the :class:`~monopoly_lesson.rules.Seat` played, with its ``tallies``.

    >>> play_preset(dice=[1, 3, 2, 3]).tallies  # Go to Income Tax (5), then Connecticut (10)
    {5: 1, 10: 1}
    """
    seat = Seat.preset(
        dice=dice, start=start, chance_order=chance_order, chest_order=chest_order,
        rules=rules, seed=seed, verbose=verbose,
    )  # fmt: skip
    while (turns is None and seat.dice.rolls_left) or (turns and seat.turns_played < turns):
        if verbose:
            print(f"--- Turn {seat.turns_played + 1} ---")
        try:
            seat.play(take_turn)
        except DiceUsedUpError as error:
            raise DiceUsedUpError(
                f"turn {seat.turns_played + 1} needs more dice: {error}"
            ) from None
    return seat


def check_scenario(take_turn: Callable[..., None], scenario: Scenario | int) -> bool:
    """Play ``take_turn`` through a scenario and say whether its tallies are the expected ones."""
    s = SCENARIOS[scenario] if isinstance(scenario, int) else scenario
    run = play_preset(take_turn, dice=s.dice, start=s.start, chance_order=s.chance_order,
                      chest_order=s.chest_order, turns=s.turns)  # fmt: skip
    ok = run.tallies == s.tallies
    verdict = "passes" if ok else f"FAILS: expected {s.tallies}, got {run.tallies}"
    print(f"Scenario {s.number} ({s.description}): {verdict}")
    return ok
