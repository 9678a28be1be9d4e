"""The fast (compiled) engine: the same rules as the exact solver, reproducible, and usable.

Agreement is statistical: each game is an independent replicate, so the standard error of
the mean per-game tally of a space is the spread between games / sqrt(games). The fast
engine plays two players sharing shuffled decks; the exact solver is one player drawing
with replacement, so a game's expected tallies are twice the solver's (real decks differ
from draws with replacement only at millions of games).
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys

import numpy as np
import pytest

from monopoly_lesson import (
    Rules,
    expected_tallies,
    fast_game_tallies,
    fast_loop,
    fast_tallies,
    simulate,
    take_turn,
)

VARIANTS = {
    "lesson": Rules(),
    "with replacement": Rules(replacement=True),
    "4-sided dice": Rules(dice_sides=4),
    "short stay": Rules(jail="short"),
    "standard deck": Rules(chance="standard"),
    "end of move": Rules(counting="end_of_move"),
    "all variants": Rules(dice_sides=4, jail="short", chance="standard", counting="end_of_move"),
}
GAMES, TURNS = 20_000, 150


def z_scores(per_game: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """(mean - expected) / standard error per space, from the between-game spread."""
    se = per_game.std(axis=0, ddof=1) / math.sqrt(len(per_game))
    z = np.zeros(per_game.shape[1])
    np.divide(per_game.mean(axis=0) - expected, se, out=z, where=se > 0)
    return z


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_agrees_with_the_exact_solver(variant):
    rules = VARIANTS[variant]
    per_game = fast_game_tallies(GAMES, TURNS, players=2, seed=2026, rules=rules)
    expected = 2 * expected_tallies(TURNS, rules).to_numpy()
    z = z_scores(per_game, expected)
    assert np.abs(z).max() < 4.5, dict(zip(range(1, 41), z.round(1), strict=True))
    assert (z**2).sum() < 40 + 5 * math.sqrt(2 * 40)  # chi-square with ~40 degrees of freedom
    totals = per_game.sum(axis=1)
    assert abs(totals.mean() - expected.sum()) < 4 * totals.std(ddof=1) / math.sqrt(GAMES)
    assert per_game[:, 30].sum() == 0, "Go to Jail is never tallied"


def test_one_player_agrees_with_the_exact_solver_turn_by_turn():
    """Short games from Go: the exact answer depends on the number of turns."""
    for turns in (1, 3):
        per_game = fast_game_tallies(GAMES, turns, players=1, seed=turns, rules=VARIANTS["lesson"])
        z = z_scores(per_game, expected_tallies(turns).to_numpy())
        assert np.abs(z).max() < 4.5


def test_per_game_tallies_add_up_to_the_summed_tallies():
    rules = Rules(dice_sides=5, jail="short")
    per_game = fast_game_tallies(300, 40, players=3, seed=8, rules=rules)
    summed = fast_tallies(300, 40, players=3, seed=8, rules=rules)
    assert per_game.shape == (300, 40)
    assert per_game.sum(axis=0).tolist() == summed.tolist()


def test_same_seed_same_counts_and_different_seeds_differ():
    a = simulate(games=500, seed=11, engine="fast")
    b = simulate(games=500, seed=11, engine="fast")
    c = simulate(games=500, seed=12, engine="fast")
    assert a.counts.equals(b.counts) and not a.counts.equals(c.counts)


def test_same_seed_same_counts_in_another_process():
    code = (
        "from monopoly_lesson import simulate;"
        "print(simulate(games=300, seed=5, engine='fast').counts.tolist())"
    )
    there = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert simulate(games=300, seed=5, engine="fast").counts.tolist() == eval(there)


def test_simulate_fast_returns_the_usual_result():
    result = simulate(
        games=200, turns=30, players=2, seed=3, rules=Rules(jail="short"), engine="fast"
    )
    assert (result.games, result.turns, result.players, result.seed, result.engine) == (
        200,
        30,
        2,
        3,
        "fast",
    )
    assert result.rules == Rules(jail="short")
    assert list(result.counts.index) == list(range(1, 41)) and result.counts.dtype == "int64"
    assert result.counts[31] == 0 and result.total >= 200 * 30 * 2
    assert list(result.table("board")["space"]) == list(range(1, 41))


def test_the_lesson_run_shows_the_robust_trends():
    table = simulate(games=1000, seed=1, engine="fast").table("frequency")
    assert table.iloc[0]["title"] == "Jail" and 0.10 <= table.iloc[0]["rel"] <= 0.13
    assert set(table.iloc[1:3]["title"]) == {"Illinois Avenue", "Go"}


@pytest.mark.parametrize("sides", [2, 16, 17, 256])
def test_unusual_dice_play(sides):
    """Small dice are drawn from one random byte (2 and 16 sides), bigger ones from two."""
    counts = fast_tallies(50, 20, players=2, seed=1, rules=Rules(dice_sides=sides))
    assert counts.sum() >= 50 * 20 * 2 and counts[31] == 0


def test_dice_beyond_256_sides_are_refused_with_the_way_out():
    with pytest.raises(ValueError, match="at most 256 sides, got 257; use engine='reference'"):
        fast_tallies(10, rules=Rules(dice_sides=257))


# ---------------------------------------------------------------------------
# Pieces: the decks and the landing tables
# ---------------------------------------------------------------------------


def random_pool(seed: int, size: int = 1 << 16) -> np.ndarray:
    """A ring of random bytes as the compiled loop keeps one (a power-of-two size)."""
    return np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)


def test_each_game_deals_whole_shuffled_decks():
    pool, used = random_pool(4), 0
    chance = np.zeros(15, dtype=np.int64)
    first_cards = []
    for _ in range(300):  # 300 games, each dealing three whole Chance decks in a row
        cursor, used = fast_loop.new_deck(chance, False, pool, used)
        dealt = []
        for _ in range(3 * 15):
            dealt.append(chance[cursor])
            cursor, used = fast_loop.deal(chance, cursor, False, pool, used)
        decks = np.array(dealt).reshape(3, 15)
        assert (np.sort(decks, axis=1) == np.arange(15)).all(), "each deck is all 15 cards"
        assert not (decks[0] == decks[1]).all(), "a used-up deck is shuffled afresh"
        first_cards.append(decks[0, 0])
    assert np.bincount(first_cards, minlength=15).min() > 5  # every card comes first somewhere


def test_draws_with_replacement_are_independent_random_cards():
    pool, used = random_pool(5), 0
    chest = np.zeros(16, dtype=np.int64)
    cursor, used = fast_loop.new_deck(chest, True, pool, used)
    dealt = []
    for _ in range(3200):
        dealt.append(chest[cursor])
        cursor, used = fast_loop.deal(chest, cursor, True, pool, used)
    counts = np.bincount(dealt, minlength=16)
    assert cursor == 0 and ((counts - 200) ** 2 / 200).sum() < 40  # chi-square, 15 d.f.
    repeats = sum(a == b for a, b in itertools.pairwise(dealt))
    assert 150 < repeats < 250, "the same card twice in a row about 1 time in 16"


@pytest.mark.parametrize(("limit", "bits"), [(36, 8), (16, 8), (15, 8), (2, 8), (324, 16)])
def test_below_is_exactly_uniform(limit, bits):
    """Fed every possible value once, each number comes out equally often."""
    values = np.arange(1 << bits)
    pool = values.astype(np.uint8) if bits == 8 else values.astype(">u2").view(np.uint8)
    threshold, drawn, used = (1 << bits) % limit, [], 0
    for _ in range((1 << bits) - threshold):  # the values accepted
        number, used = fast_loop.below(limit, bits, threshold, pool, used)
        drawn.append(number)
    assert used == pool.size, "the rejected values were skipped, none was read twice"
    assert np.bincount(drawn, minlength=limit).tolist() == [(1 << bits) // limit] * limit


def test_shuffles_are_uniform_over_orders():
    pool, used = random_pool(6), 0
    order = np.zeros(3, dtype=np.int64)
    seen = []
    for _ in range(6000):
        order[:] = [0, 1, 2]
        used = fast_loop.shuffle(order, pool, used)
        seen.append(tuple(order))
    counts = np.array([seen.count(p) for p in itertools.permutations(range(3))])
    assert ((counts - 1000) ** 2 / 1000).sum() < 20  # chi-square, 5 d.f.


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


def test_unknown_engine_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="engine must be 'reference' or 'fast', got 'turbo'"):
        simulate(games=1, engine="turbo")


def test_fast_engine_cannot_play_a_student_take_turn():
    with pytest.raises(ValueError, match="to play your own take_turn, use engine='reference'"):
        simulate(games=1, engine="fast", take_turn=take_turn)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(games=0), ValueError, "games must be at least 1, got 0"),
        (dict(turns=2.5), TypeError, "turns must be a whole number"),
        (dict(players=-1), ValueError, "players must be at least 1"),
        (dict(seed=-2), ValueError, "seed must be 0 or more"),
        (dict(rules="standard"), TypeError, "such as LESSON_RULES, got str"),
    ],
)
def test_bad_arguments_are_refused(kwargs, error, message):
    with pytest.raises(error, match=message):
        fast_tallies(**kwargs)


def test_the_loop_refuses_tables_packed_in_another_format():
    """The format is compiled into the loop; a stale compiled loop must not misread tables."""
    from monopoly_lesson.fast import tables
    from monopoly_lesson.fast_format import FORMAT

    t = tables(Rules())
    bits = np.random.PCG64DXSM(1)
    other = np.array(FORMAT, dtype=np.int64) + 1
    with pytest.raises(RuntimeError, match="compiled fast loop is out of date"):
        fast_loop.play_games(
            1,
            1,
            1,
            t.dice_codes,
            t.situation,
            t.next_state,
            np.zeros(15, np.int64),
            np.zeros(16, np.int64),
            False,
            np.zeros(len(t.next_state), np.int64),
            t.tallies,
            np.zeros((0, 41), np.int64),
            other,
            bits.ctypes.next_uint64,
            bits.ctypes.state_address,
        )
