"""The exact solver: its chain against the reference engine, exhaustively and by simulation.

Two independent checks. First, one turn from a start state is enumerated branch by branch
through the reference ``take_turn`` (every dice outcome, every card, with probabilities
multiplied along the way); the solver's transition row and expected tallies must equal
that enumeration. Second, long reference simulations of single players with draws with
replacement must agree with the exact expected tallies within a few standard errors, the
standard error coming from the spread between games (games are independent replicates).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson import Player, Rules, SpaceTracker, community_deck, take_turn
from monopoly_lesson.exact import (
    euler84,
    euler84_percentages,
    expected_frequencies,
    expected_tallies,
    stationary,
    transition_matrix,
    turn_tallies,
)
from monopoly_lesson.simulation import play_game

VARIANTS = {
    "lesson": Rules(),
    "4-sided dice": Rules(dice_sides=4),
    "short stay": Rules(jail="short"),
    "standard deck": Rules(chance="standard"),
    "end of move": Rules(counting="end_of_move"),
    "all variants": Rules(dice_sides=4, jail="short", chance="standard", counting="end_of_move"),
}
# Cards that do not move the token (the rules page), grouped into one branch when enumerating.
STILL_CARDS = {"lesson": range(10, 16), "standard": range(11, 17), "chest": range(3, 17)}


# ---------------------------------------------------------------------------
# Exhaustive enumeration of one turn through the reference engine
# ---------------------------------------------------------------------------


@dataclass
class Choices:
    """Replays a prefix of choices, then takes option 0 of each new choice and records it."""

    prefix: list[int]
    counts: list[int] = field(default_factory=list)  # options at every choice point
    probability: float = 1.0

    def choose(self, options: list[tuple[object, float]]) -> object:
        i = len(self.counts)
        pick = self.prefix[i] if i < len(self.prefix) else 0
        self.counts.append(len(options))
        value, weight = options[pick]
        self.probability *= weight
        return value

    def next_prefix(self) -> list[int] | None:
        """The next run's choices in odometer order, or None when every branch was run."""
        taken = [*self.prefix, *[0] * (len(self.counts) - len(self.prefix))]
        for i in reversed(range(len(taken))):
            if taken[i] + 1 < self.counts[i]:
                return [*taken[:i], taken[i] + 1]
        return None


class BranchingDice:
    """Dice whose every roll is a branch: the distinct pairs, weighted by probability."""

    def __init__(self, choices: Choices, sides: int) -> None:
        self.choices, self.sides = choices, sides
        n2 = sides * sides
        self.options = [
            ((d1, d2), (1 if d1 == d2 else 2) / n2)
            for d1 in range(1, sides + 1)
            for d2 in range(d1, sides + 1)
        ]

    def roll(self) -> tuple[int, int]:
        return self.choices.choose(self.options)


class BranchingDeck:
    """A deck whose every draw is a branch: each moving card, and all still cards as one."""

    def __init__(self, choices: Choices, table: pd.DataFrame, still: range) -> None:
        self.choices, self.cards = choices, list(table["card"])
        n = len(self.cards)
        moving = [k for k in range(1, n + 1) if k not in still]
        self.options = [(k, 1 / n) for k in moving] + [(still[0], len(still) / n)]

    def draw(self) -> int:
        return self.choices.choose(self.options)

    def card(self, number: int) -> str:
        return self.cards[number - 1]


def state_label(player: Player) -> str:
    return f"jail {player.jail_turns}" if player.in_jail else f"free {player.pos}"


def enumerate_turn(rules: Rules, start: str) -> tuple[dict[str, float], np.ndarray]:
    """Every branch of one reference turn from ``start``: next-state probabilities, tallies."""
    moves: dict[str, float] = defaultdict(float)
    tallies = np.zeros(40)
    prefix: list[int] | None = []
    while prefix is not None:
        choices = Choices(prefix)
        kind, number = start.split()
        player = Player(11 if kind == "jail" else int(number))
        if kind == "jail":
            player.go_to_jail()
            player.jail_turns = int(number)
        tracker = SpaceTracker()
        chance_still = STILL_CARDS[rules.chance]
        take_turn(
            player,
            tracker,
            dice=BranchingDice(choices, rules.dice_sides),
            chance=BranchingDeck(choices, rules.chance_deck, chance_still),
            community=BranchingDeck(choices, community_deck, STILL_CARDS["chest"]),
            rules=rules,
        )
        moves[state_label(player)] += choices.probability
        tallies += choices.probability * tracker.counts.to_numpy()
        prefix = choices.next_prefix()
    return dict(moves), tallies


# From 30 a 7 lands on Chance 37, whose "Go Back 3" lands on Community Chest 34.
ENUMERATED = [
    (name, start)
    for name in VARIANTS
    for start in ("free 1", "free 30", "jail 0", "jail 1", "jail 2")
    if not (VARIANTS[name].jail == "short" and start in ("jail 1", "jail 2"))
] + [("lesson", "free 35")]


@pytest.mark.parametrize(("variant", "start"), ENUMERATED)
def test_one_turn_equals_the_reference_engine_branch_by_branch(variant, start):
    """Rows of the chain = an exhaustive enumeration of the reference take_turn."""
    rules = VARIANTS[variant]
    moves, tallies = enumerate_turn(rules, start)
    row = transition_matrix(rules).loc[start]
    assert row[row > 0].to_dict() == pytest.approx(moves, abs=1e-12)
    assert set(row[row > 1e-15].index) == set(moves)
    np.testing.assert_allclose(turn_tallies(rules).loc[start].to_numpy(), tallies, atol=1e-12)


# ---------------------------------------------------------------------------
# Properties of the chain
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_rows_of_the_transition_matrix_sum_to_1(variant):
    matrix = transition_matrix(VARIANTS[variant])
    assert (matrix.to_numpy() >= 0).all()
    np.testing.assert_allclose(matrix.sum(axis=1), 1.0, atol=1e-12)
    jail_states = 1 if VARIANTS[variant].jail == "short" else 3
    assert matrix.shape == (40 + jail_states,) * 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_expected_tallies_add_up_turn_by_turn(variant):
    """The expected tallies' sum is the expected number of tallies, turn by turn."""
    rules = VARIANTS[variant]
    matrix, per_turn = transition_matrix(rules).to_numpy(), turn_tallies(rules).to_numpy()
    state, expected_count = np.eye(len(matrix))[0], 0.0
    for turns in range(1, 31):
        expected_count += state @ per_turn.sum(axis=1)
        state = state @ matrix
        assert expected_tallies(turns, rules).sum() == pytest.approx(expected_count, rel=1e-12)
    if rules.counting == "end_of_move":  # one count per roll: 1 to 3 rolls per turn
        assert 30 <= expected_count <= 90
    else:  # at least one tally per turn
        assert expected_count >= 30


@pytest.mark.parametrize("variant", VARIANTS)
def test_go_to_jail_is_never_tallied_and_frequencies_sum_to_1(variant):
    rules = VARIANTS[variant]
    for series in (expected_tallies(150, rules), stationary(rules)):
        assert list(series.index) == list(range(1, 41))
        assert series[31] == 0
    assert expected_frequencies(150, rules).sum() == pytest.approx(1.0)
    assert stationary(rules).sum() == pytest.approx(1.0)


def test_the_lesson_answer_shows_the_course_trends():
    rel = expected_frequencies()
    ranked = list(rel.sort_values(ascending=False, kind="stable").index)
    assert ranked[0] == 11 and 0.10 <= rel[11] <= 0.13
    assert set(ranked[1:3]) == {25, 1}
    assert {19, 20, 6, 26} <= set(ranked[:10])
    assert {2} <= set(ranked[-5:]) and 38 in ranked[-10:]
    assert ranked.index(4) == 40 - 6, "Baltic's expected rank is just outside the bottom 5"


def test_stationary_is_the_long_run_limit():
    long_run = expected_frequencies(turns=5000)
    np.testing.assert_allclose(long_run, stationary(), atol=2e-4)


def test_replacement_option_makes_no_difference_to_the_exact_answer():
    pd.testing.assert_series_equal(
        expected_tallies(rules=Rules()), expected_tallies(rules=Rules(replacement=True))
    )


# ---------------------------------------------------------------------------
# Project Euler 84
# ---------------------------------------------------------------------------


def test_euler84_reproduces_project_euler_percentages_for_6_sided_dice():
    """JAIL 6.24%, E3 3.18%, GO 3.09% (printed truncated: GO is 3.095...%)."""
    percent = euler84_percentages(6)
    for space, printed in [(11, 6.24), (25, 3.18), (1, 3.09)]:
        assert abs(percent[space] - printed) < 0.01
        assert math.floor(100 * percent[space]) / 100 == printed
    assert percent.sum() == pytest.approx(100.0)
    assert euler84(6) == "102400"


def test_euler84_with_4_sided_dice():
    assert euler84(4) == "101524"


def test_euler84_refuses_bad_sides():
    with pytest.raises(ValueError, match="sides must be at least 2, got 1"):
        euler84(1)
    with pytest.raises(TypeError, match=r"sides must be a whole number, got 6\.5"):
        euler84_percentages(6.5)


# ---------------------------------------------------------------------------
# Against long reference simulations (one player, draws with replacement)
# ---------------------------------------------------------------------------


def per_game_tallies(rules: Rules, games: int, turns: int, seed: int) -> np.ndarray:
    """Tallies of each single-player reference game: a (games x 40) array."""
    rows = []
    for game_seed in np.random.SeedSequence(seed).spawn(games):
        tracker = SpaceTracker()
        play_game(tracker, game_seed, turns=turns, players=1, rules=rules)
        rows.append(tracker.counts.to_numpy())
    return np.array(rows)


def z_scores(per_game: np.ndarray, expected: pd.Series) -> np.ndarray:
    """(mean - expected) / standard error, per space; the SE from the between-game spread."""
    mean = per_game.mean(axis=0)
    se = per_game.std(axis=0, ddof=1) / math.sqrt(len(per_game))
    z = np.zeros(40)
    np.divide(mean - expected.to_numpy(), se, out=z, where=se > 0)
    return z


@pytest.mark.parametrize("variant", VARIANTS)
def test_exact_agrees_with_long_reference_simulations(variant):
    rules = Rules(**{**VARIANTS[variant].__dict__, "replacement": True})
    turns, games = 100, 1500
    per_game = per_game_tallies(rules, games, turns, seed=84)
    expected = expected_tallies(turns, rules)
    z = z_scores(per_game, expected)
    assert np.abs(z).max() < 4.5, dict(zip(range(1, 41), z.round(1), strict=True))
    totals = per_game.sum(axis=1)
    total_se = totals.std(ddof=1) / math.sqrt(games)
    assert abs(totals.mean() - expected.sum()) < 4 * total_se


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: expected_tallies(0), ValueError, "turns must be at least 1, got 0"),
        (lambda: expected_tallies(1.5), TypeError, "turns must be a whole number, got 1.5"),
        (lambda: stationary("lesson"), TypeError, "such as LESSON_RULES, got str"),
        (lambda: transition_matrix(None), TypeError, "rules must be a Rules value"),
    ],
)
def test_bad_arguments_are_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_exact_answers_have_a_documented_bound_on_the_dice():
    with pytest.raises(ValueError, match="at most 256 sides, got 257"):
        expected_tallies(10, Rules(dice_sides=257))
    with pytest.raises(ValueError, match="at most 256 sides, got 1000"):
        euler84(1000)


def test_numpy_whole_numbers_are_accepted_as_dice_sides():
    rules = Rules(dice_sides=np.int64(4))
    assert rules == Rules(dice_sides=4) and type(rules.dice_sides) is int
    assert expected_tallies(20, rules).equals(expected_tallies(20, Rules(dice_sides=4)))
    with pytest.raises(TypeError, match=r"whole number of at least 2, got 2\.5"):
        Rules(dice_sides=2.5)
