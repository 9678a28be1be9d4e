"""The same rules as a Markov chain: exact expected tallies, the long run, Project Euler 84.

A player's state at the start of a turn is "free on space s" (s = 1..40) or "in jail
after k turns". Every roll of the rules comes from
:func:`~monopoly_lesson.roll_table.roll_table`, the reference engine's own rolls
enumerated, weighted by the dice (fair) and the cards, each drawn uniformly at random
(draws with replacement, as the rules page says exact answers assume; ``Rules.replacement``
therefore makes no difference here). Chaining the rolls of a turn gives, per start
state, the distribution of the next start state and the expected tallies of the turn,
from which everything else follows by matrix products.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import pandas as pd

from .roll_table import STATES, roll_table, state_label
from .rules import DOUBLES_TO_JAIL, LESSON_RULES, Rules, check_rules
from .starter import GO, JAIL, NUM_SPACES, _check_int, _check_sides

__all__ = [
    "euler84",
    "euler84_percentages",
    "expected_frequencies",
    "expected_tallies",
    "stationary",
    "transition_matrix",
    "turn_tallies",
]

ROWS = DOUBLES_TO_JAIL * STATES  # a roll's row: doubles so far * STATES + state
MAX_SIDES = 256
"""The biggest dice the exact answers take: 256 sides take about three seconds."""

# ---------------------------------------------------------------------------
# From rolls to turns
# ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _roll_chain(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per roll row: the chance the turn ends in each state, rolls again from each row,
    and the expected tallies of the roll."""
    table = roll_table(rules)
    ends, again = np.zeros((ROWS, STATES)), np.zeros((ROWS, ROWS))
    tallies = np.zeros((ROWS, NUM_SPACES))
    for row in range(ROWS):
        for _, p, leaf in table.weighted(row):
            if leaf.doubles:
                again[row, leaf.doubles * STATES + leaf.next_state] += p
            else:
                ends[row, leaf.next_state] += p
            for space in leaf.tallies:
                tallies[row, space - 1] += p
    return ends, again, tallies


def _turns(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """From each start state, a whole turn: next start state (S x S) and tallies (S x 40)."""
    ends, again, roll_tallies = _roll_chain(rules)
    rolling = np.eye(ROWS)[:STATES]  # the first roll of a turn: no doubles so far
    moves, tallies = np.zeros((STATES, STATES)), np.zeros((STATES, NUM_SPACES))
    for _ in range(ROWS):
        moves += rolling @ ends
        tallies += rolling @ roll_tallies
        rolling = rolling @ again
        if not rolling.any():
            return moves, tallies
    raise ValueError("under these rules a turn can go on rolling for ever.")


def _reached(moves: np.ndarray) -> list[int]:
    """Every free state, and the jail states that play from Go can reach, in order."""
    seen, todo = {GO - 1}, [GO - 1]
    while todo:
        for nxt in np.flatnonzero(moves[todo.pop()]):
            if nxt not in seen:
                seen.add(int(nxt))
                todo.append(int(nxt))
    return [s for s in range(STATES) if s < NUM_SPACES or s in seen]


@lru_cache(maxsize=64)
def _chain(rules: Rules) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """The turn chain: transition matrix (S x S), expected tallies of a turn (S x 40), labels."""
    moves, tallies = _turns(rules)
    keep = _reached(moves)
    moves, tallies = moves[np.ix_(keep, keep)], tallies[keep]
    moves.flags.writeable = tallies.flags.writeable = False
    return moves, tallies, tuple(state_label(s) for s in keep)


def _exact_rules(rules: object) -> Rules:
    """Check ``rules``; draws are always with replacement here, so share one cache entry."""
    check_rules(rules)
    _check_exact_sides(rules.dice_sides)
    return replace(rules, replacement=True) if not rules.replacement else rules


def _check_exact_sides(sides: int) -> None:
    if sides > MAX_SIDES:
        raise ValueError(
            f"exact answers are worked out for dice of at most {MAX_SIDES} sides, got {sides} "
            "(the work grows with the square of the sides); simulate bigger dice instead."
        )


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
    moves, _, labels = _chain(_exact_rules(rules))
    return pd.DataFrame(moves, index=list(labels), columns=list(labels))


def turn_tallies(rules: Rules = LESSON_RULES) -> pd.DataFrame:
    """The expected tallies of one turn (columns: spaces 1..40) from each start state."""
    _, tallies, labels = _chain(_exact_rules(rules))
    table = pd.DataFrame(tallies, index=list(labels))
    table.columns = pd.RangeIndex(1, NUM_SPACES + 1, name="space")
    return table


def expected_tallies(turns: int = 150, rules: Rules = LESSON_RULES) -> pd.Series:
    """The exact expected tallies of one player over ``turns`` turns, starting free on Go."""
    turns = _check_int(turns, "turns")
    if turns < 1:
        raise ValueError(f"turns must be at least 1, got {turns}.")
    rules = _exact_rules(rules)
    moves, tallies, _ = _chain(rules)
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
    moves, tallies, _ = _chain(rules)
    per_turn = _stationary_vector(moves) @ tallies
    return _space_series(per_turn / per_turn.sum(), "rel")


# ---------------------------------------------------------------------------
# Project Euler 84: its own model, a chain over rolls
# ---------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _euler84_chain(sides: int) -> np.ndarray:
    """Project Euler 84's roll chain over (square, doubles streak): (120 x 120).

    Its rolls are this project's (standard deck), but jail is just a square: being sent
    there neither ends the turn nor resets the streak; only the third doubles, which
    sends to jail, starts the streak again.
    """
    table = roll_table(Rules(dice_sides=sides, chance="standard", replacement=True))
    moves = np.zeros((DOUBLES_TO_JAIL * NUM_SPACES, DOUBLES_TO_JAIL * NUM_SPACES))
    for streak in range(DOUBLES_TO_JAIL):
        for square in range(NUM_SPACES):
            for cls, p, leaf in table.weighted(streak * STATES + square):
                d1, d2 = table.class_faces[cls]
                after = streak + 1 if d1 == d2 and streak + 1 < DOUBLES_TO_JAIL else 0
                rest = leaf.next_state if leaf.next_state < NUM_SPACES else JAIL - 1
                moves[streak * NUM_SPACES + square, after * NUM_SPACES + rest] += p
    moves.flags.writeable = False
    return moves


def euler84_percentages(sides: int = 6) -> pd.Series:
    """Project Euler 84's long-run percentage of rolls ending on each space (1..40).

    Project Euler numbers its squares 00-39: square = space - 1 (JAIL is square 10).
    """
    sides = _check_sides(sides)
    _check_exact_sides(sides)
    by_state = _stationary_vector(_euler84_chain(sides))
    by_space = by_state.reshape(DOUBLES_TO_JAIL, NUM_SPACES).sum(axis=0)
    return _space_series(100.0 * by_space, "percent")


def euler84(sides: int = 6) -> str:
    """Project Euler 84's modal string: the three most popular squares, two digits each."""
    percentages = euler84_percentages(sides)
    top = percentages.sort_values(ascending=False, kind="stable").index[:3]
    return "".join(f"{space - 1:02d}" for space in top)
