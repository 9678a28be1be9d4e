"""The same rules as a Markov chain: exact expected tallies, the long run, Project Euler 84.

A player's state at the start of a turn is "free on space s" (s = 1..40) or "in jail
after k turns" (k = 0, 1, 2 under the long stay; only k = 0 under the short stay). One
turn is enumerated exactly: every dice outcome of two n-sided dice, the doubles streak,
and every card, each drawn uniformly at random (draws with replacement, as RULES.md says
exact answers assume; ``Rules.replacement`` therefore makes no difference here). That
gives, per start state, the distribution of the next start state and the expected
tallies of the turn, from which everything else follows by matrix products.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import pandas as pd

from .rules import (
    CHANCE_SPACES,
    COMMUNITY_CHEST_SPACES,
    LESSON_RULES,
    SENDS_TO_JAIL,
    Rules,
    card_destination,
)
from .starter import GO, GO_TO_JAIL, JAIL, NUM_SPACES, _check_int, _check_sides, community_deck

__all__ = [
    "euler84",
    "euler84_percentages",
    "expected_frequencies",
    "expected_tallies",
    "stationary",
    "transition_matrix",
    "turn_tallies",
]

# Arrays are 0-based: column i is space i + 1. A landing's outcome is "free on a space"
# (columns 0..39) or "sent to jail" (column SENT).
SENT = NUM_SPACES
J = JAIL - 1  # Jail's 0-based column
JAIL_TURNS = {"long": 3, "short": 1}  # start-of-turn jail states per jail strategy
PE_STREAKS = 3  # Project Euler 84's roll states: doubles streak 0, 1 or 2

# ---------------------------------------------------------------------------
# One landing, one roll
# ---------------------------------------------------------------------------


def _card_effects(deck: pd.DataFrame, space: int) -> list[int | str | None]:
    """What each card of ``deck`` does on ``space``: a new landing, ``"jail"``, or None."""
    return [
        "jail" if card in SENDS_TO_JAIL else card_destination(card, space) for card in deck["card"]
    ]


def _landings(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Resolve a landing on each space: outcome probabilities (40 x 41), tallies (40 x 40)."""
    decks = {s: rules.chance_deck for s in CHANCE_SPACES}
    decks.update({s: community_deck for s in COMMUNITY_CHEST_SPACES})
    outcomes = np.zeros((NUM_SPACES, NUM_SPACES + 1))
    tallies = np.zeros((NUM_SPACES, NUM_SPACES))
    done: set[int] = set()

    def resolve(space: int) -> None:  # fills row space - 1; cards recurse into new landings
        row = space - 1
        if space in done:
            return
        if space == GO_TO_JAIL:
            outcomes[row, SENT], tallies[row, J] = 1.0, 1.0
        elif space not in decks:
            outcomes[row, row], tallies[row, row] = 1.0, 1.0
        else:
            tallies[row, row] = 1.0
            effects = _card_effects(decks[space], space)
            weight = 1.0 / len(effects)
            for effect in effects:
                if effect is None:
                    outcomes[row, row] += weight
                elif effect == "jail":
                    outcomes[row, SENT] += weight
                    tallies[row, J] += weight
                else:
                    assert isinstance(effect, int)
                    resolve(effect)
                    outcomes[row] += weight * outcomes[effect - 1]
                    tallies[row] += weight * tallies[effect - 1]
        done.add(space)

    for space in range(1, NUM_SPACES + 1):
        resolve(space)
    return outcomes, tallies


def _dice(sides: int) -> tuple[np.ndarray, np.ndarray]:
    """Probability of each total 0..2n for a roll that is not doubles, and one that is."""
    plain = np.zeros(2 * sides + 1)
    doubles = np.zeros(2 * sides + 1)
    for d1 in range(1, sides + 1):
        for d2 in range(1, sides + 1):
            (doubles if d1 == d2 else plain)[d1 + d2] += 1.0 / sides**2
    return plain, doubles


def _after_roll(by_landing: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """Rows = the space rolled from: mix the landing rows ``total`` spaces ahead."""
    mixed = np.zeros_like(by_landing)
    for total in np.flatnonzero(totals):
        mixed += totals[total] * np.roll(by_landing, -total, axis=0)
    return mixed


def _resting_space(outcomes: np.ndarray) -> np.ndarray:
    """Fold "sent to jail" into space 11: where the token rests after a roll."""
    rest = outcomes[:, :NUM_SPACES].copy()
    rest[:, J] += outcomes[:, SENT]
    return rest


@lru_cache(maxsize=64)
def _rolls(rules: Rules) -> tuple[np.ndarray, ...]:
    """Per roll from each space, not doubles and doubles: outcomes (40 x 41) and tallies."""
    outcomes, landing_tallies = _landings(rules)
    plain, doubles = _dice(rules.dice_sides)
    result = []
    for totals in (plain, doubles):
        after = _after_roll(outcomes, totals)
        if rules.counting == "landings":
            tallies = _after_roll(landing_tallies, totals)
        else:
            tallies = _resting_space(after)
        result += [after, tallies]
    return tuple(result)


# ---------------------------------------------------------------------------
# One turn, from every start state
# ---------------------------------------------------------------------------


def _free_turn(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """A free turn from each space: next outcome (40 x 41) and expected tallies (40 x 40)."""
    plain, plain_tallies, doubles, doubles_tallies = _rolls(rules)
    p_doubles = 1.0 / rules.dice_sides
    rolling = np.eye(NUM_SPACES)  # probability of rolling from each space, per start space
    outcome = np.zeros((NUM_SPACES, NUM_SPACES + 1))
    tallies = np.zeros((NUM_SPACES, NUM_SPACES))
    for streak in range(3):
        outcome += rolling @ plain
        tallies += rolling @ plain_tallies
        if streak == 2:  # the third doubles: sent to jail, Jail tallied (or counted) once
            sent = rolling.sum(axis=1) * p_doubles
            outcome[:, SENT] += sent
            tallies[:, J] += sent
            break
        after_doubles = rolling @ doubles
        tallies += rolling @ doubles_tallies
        outcome[:, SENT] += after_doubles[:, SENT]
        rolling = after_doubles[:, :NUM_SPACES]  # doubles, not sent to jail: roll again
    return outcome, tallies


def _long_jail_turn(rules: Rules, served: int) -> tuple[np.ndarray, np.ndarray]:
    """A turn started in jail after ``served`` turns: next outcome (41 + stay) and tallies."""
    plain, plain_tallies, doubles, doubles_tallies = _rolls(rules)
    p_plain = 1.0 - 1.0 / rules.dice_sides
    outcome = np.append(doubles[J], 0.0)  # last column: stays in jail
    tallies = doubles_tallies[J].copy()
    if served + 1 >= 3:  # the third turn in jail: leave anyway
        outcome[:-1] += plain[J]
        tallies += plain_tallies[J]
    else:
        outcome[-1] = p_plain
        tallies[J] += p_plain
    return outcome, tallies


@lru_cache(maxsize=64)
def _chain(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The turn chain: transition matrix (S x S) and expected tallies of a turn (S x 40)."""
    jail_states = JAIL_TURNS[rules.jail]
    size = NUM_SPACES + jail_states
    moves = np.zeros((size, size))
    tallies = np.zeros((size, NUM_SPACES))
    free_outcome, free_tallies = _free_turn(rules)
    moves[:NUM_SPACES, : NUM_SPACES + 1] = free_outcome  # SENT -> "jail 0"
    tallies[:NUM_SPACES] = free_tallies
    if rules.jail == "short":  # pay, leave and play a free turn from Jail
        moves[NUM_SPACES, : NUM_SPACES + 1] = free_outcome[J]
        tallies[NUM_SPACES] = free_tallies[J]
    else:
        for served in range(jail_states):
            outcome, turn_tallies = _long_jail_turn(rules, served)
            row = NUM_SPACES + served
            moves[row, : NUM_SPACES + 1] = outcome[:-1]
            if outcome[-1]:
                moves[row, row + 1] = outcome[-1]
            tallies[row] = turn_tallies
    moves.flags.writeable = tallies.flags.writeable = False
    return moves, tallies


def _state_labels(rules: Rules) -> list[str]:
    free = [f"free {space}" for space in range(1, NUM_SPACES + 1)]
    return free + [f"jail {k}" for k in range(JAIL_TURNS[rules.jail])]


def _exact_rules(rules: object) -> Rules:
    """Check ``rules``; draws are always with replacement here, so share one cache entry."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, got {type(rules).__name__}.")
    return replace(rules, replacement=True) if not rules.replacement else rules


def _space_series(values: np.ndarray, name: str) -> pd.Series:
    index = pd.RangeIndex(1, NUM_SPACES + 1, name="space")
    return pd.Series(values, index=index, name=name, dtype="float64")


# ---------------------------------------------------------------------------
# The public answers
# ---------------------------------------------------------------------------


def transition_matrix(rules: Rules = LESSON_RULES) -> pd.DataFrame:
    """The probability of each next start-of-turn state from each state; rows sum to 1.

    States are ``"free s"`` (s = 1..40) and ``"jail k"`` (in jail after k turns).
    """
    rules = _exact_rules(rules)
    labels = _state_labels(rules)
    return pd.DataFrame(_chain(rules)[0], index=labels, columns=labels)


def turn_tallies(rules: Rules = LESSON_RULES) -> pd.DataFrame:
    """The expected tallies of one turn (columns: spaces 1..40) from each start state."""
    rules = _exact_rules(rules)
    table = pd.DataFrame(_chain(rules)[1], index=_state_labels(rules))
    table.columns = pd.RangeIndex(1, NUM_SPACES + 1, name="space")
    return table


def expected_tallies(turns: int = 150, rules: Rules = LESSON_RULES) -> pd.Series:
    """The exact expected tallies of one player over ``turns`` turns, starting free on Go."""
    turns = _check_int(turns, "turns")
    if turns < 1:
        raise ValueError(f"turns must be at least 1, got {turns}.")
    rules = _exact_rules(rules)
    moves, tallies = _chain(rules)
    state = np.zeros(len(moves))
    state[GO - 1] = 1.0
    occupancy = np.zeros(len(moves))  # expected number of turns started in each state
    for _ in range(turns):
        occupancy += state
        state = state @ moves
    return _space_series(occupancy @ tallies, "tally")


def expected_frequencies(turns: int = 150, rules: Rules = LESSON_RULES) -> pd.Series:
    """The expected tallies over ``turns`` turns as relative frequencies (summing to 1)."""
    tallies = expected_tallies(turns, rules)
    return (tallies / tallies.sum()).rename("rel")


def _stationary_vector(moves: np.ndarray) -> np.ndarray:
    """The stationary distribution pi = pi @ moves of an ergodic chain (pi sums to 1)."""
    size = len(moves)
    system = moves.T - np.eye(size)
    system[-1] = 1.0  # replace one (redundant) balance equation by "sums to 1"
    target = np.zeros(size)
    target[-1] = 1.0
    return np.linalg.solve(system, target)


def stationary(rules: Rules = LESSON_RULES) -> pd.Series:
    """The long-run relative frequency of tallies per space (many turns, any start)."""
    rules = _exact_rules(rules)
    moves, tallies = _chain(rules)
    per_turn = _stationary_vector(moves) @ tallies
    return _space_series(per_turn / per_turn.sum(), "rel")


# ---------------------------------------------------------------------------
# Project Euler 84: its own model, a chain over rolls
# ---------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _euler84_chain(sides: int) -> np.ndarray:
    """Project Euler 84's roll chain over (square, doubles streak): (120 x 120).

    Jail is just a square: being sent there neither ends the turn nor resets the
    streak; only the third doubles does (it sends to jail with streak 0).
    """
    rules = Rules(dice_sides=sides, chance="standard", counting="end_of_move")
    plain, _, doubles, _ = _rolls(rules)
    rest_plain, rest_doubles = _resting_space(plain), _resting_space(doubles)
    size = NUM_SPACES * PE_STREAKS
    moves = np.zeros((size, size))
    for streak in range(PE_STREAKS):
        rows = slice(streak * NUM_SPACES, (streak + 1) * NUM_SPACES)
        moves[rows, :NUM_SPACES] += rest_plain  # not doubles: streak back to 0
        if streak + 1 < PE_STREAKS:
            moves[rows, (streak + 1) * NUM_SPACES : (streak + 2) * NUM_SPACES] += rest_doubles
        else:
            moves[rows, J] += 1.0 / sides  # third doubles: to jail, streak 0
    moves.flags.writeable = False
    return moves


def euler84_percentages(sides: int = 6) -> pd.Series:
    """Project Euler 84's long-run percentage of rolls ending on each space (1..40).

    Project Euler numbers its squares 00-39: square = space - 1 (JAIL is square 10).
    """
    sides = _check_sides(sides)
    by_state = _stationary_vector(_euler84_chain(sides))
    by_space = by_state.reshape(PE_STREAKS, NUM_SPACES).sum(axis=0)
    return _space_series(100.0 * by_space, "percent")


def euler84(sides: int = 6) -> str:
    """Project Euler 84's modal string: the three most popular squares, two digits each."""
    percentages = euler84_percentages(sides)
    top = percentages.sort_values(ascending=False, kind="stable").index[:3]
    return "".join(f"{space - 1:02d}" for space in top)
