"""Tournaments: the tidy table of many games, rotated seats, seeds, and win rates."""

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson.game import play_monopoly
from monopoly_lesson.strategies import Strategy
from monopoly_lesson.tournament import (
    TABLE_COLUMNS,
    game_seed,
    play_games,
    strategy_labels,
    wilson_interval,
    win_rates,
)

THREE = ["always", "never", "heuristic"]


@pytest.fixture(scope="module")
def table():
    return play_games(THREE, games=12, seed=5, max_rounds=15)


def test_one_row_per_player_per_game(table):
    assert table.shape == (12 * 3, len(TABLE_COLUMNS))
    assert list(table.columns) == list(TABLE_COLUMNS)
    assert table.groupby("game").size().eq(3).all()
    assert table["game"].unique().tolist() == list(range(12))
    assert str(table["bankrupt_round"].dtype) == "Int64"
    assert table["winner"].dtype == bool and table["bankrupt"].dtype == bool


def test_every_game_has_one_winner_and_a_full_finish_order(table):
    assert table.groupby("game")["winner"].sum().eq(1).all()
    assert all(sorted(game["finish"]) == [1, 2, 3] for _, game in table.groupby("game"))
    assert (table.loc[table["winner"], "finish"] == 1).all()
    assert table["bankrupt"].eq(table["bankrupt_round"].notna()).all()
    assert set(table["ended_by"]) <= {"last player", "rounds"}
    assert (table.groupby("game")["seed"].nunique() == 1).all()


def test_rotation_seats_each_strategy_in_every_seat_equally_often(table):
    seats = pd.crosstab(table["strategy"], table["seat"])
    assert seats.shape == (3, 3) and (seats == 4).all().all()
    first_game = table[table["game"] == 1].sort_values("seat")
    assert first_game["strategy"].tolist() == ["never", "heuristic", "always"]


def test_without_rotation_the_seats_stay_in_the_order_given():
    fixed = play_games(THREE, games=4, seed=5, max_rounds=5, rotate=False)
    for _, game in fixed.groupby("game"):
        assert game.sort_values("seat")["strategy"].tolist() == THREE


def test_same_seed_same_table_and_a_short_run_is_the_start_of_a_long_one(table):
    again = play_games(THREE, games=12, seed=5, max_rounds=15)
    pd.testing.assert_frame_equal(table, again)
    short = play_games(THREE, games=5, seed=5, max_rounds=15)
    pd.testing.assert_frame_equal(short, table.iloc[: 5 * 3])
    other = play_games(THREE, games=12, seed=6, max_rounds=15)
    assert not other["seed"].equals(table["seed"])


def test_a_game_is_replayed_from_its_seed_and_seats(table):
    game = table[table["game"] == 7].sort_values("seat")
    assert game["seed"].iloc[0] == game_seed(5, 7)
    result = play_monopoly(game["strategy"].tolist(), seed=int(game["seed"].iloc[0]),
                           max_rounds=15)  # fmt: skip
    assert result.net_worth == game["net_worth"].tolist()
    assert result.finish_order[0] == game.loc[game["winner"], "seat"].item()


def test_game_seeds_are_whole_numbers_that_fit_the_table():
    seeds = [game_seed(seed, g) for seed in (0, 1, 2**40) for g in range(50)]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2**63 for s in seeds)


def test_a_name_given_twice_gets_a_numbered_label():
    twice = play_games(["always", "always", "never"], games=3, seed=1, max_rounds=5)
    assert list(twice["strategy"].cat.categories) == ["always", "always#2", "never"]
    assert pd.crosstab(twice["strategy"], twice["seat"]).eq(1).all().all()
    assert strategy_labels([Strategy(), Strategy(), Strategy()]) == [
        "strategy", "strategy#2", "strategy#3",
    ]  # fmt: skip


def test_a_students_own_strategy_plays():
    def buy_cheap(game, me, space):
        return space < 20

    table = play_games([buy_cheap, "never"], games=2, seed=3, max_rounds=5)
    assert set(table["strategy"]) == {"buy_cheap", "never"}


def test_win_rates_add_up(table):
    rates = win_rates(table)
    assert list(rates.columns) == [
        "games", "wins", "win_rate", "ci_low", "ci_high", "mean_finish", "mean_net_worth",
    ]  # fmt: skip
    assert sorted(rates.index) == sorted(THREE)
    assert (rates["games"] == 12).all()
    assert rates["wins"].sum() == 12
    assert rates["win_rate"].is_monotonic_decreasing
    assert np.allclose(rates["win_rate"], rates["wins"] / rates["games"])
    assert rates["mean_finish"].between(1, 3).all()


def test_the_wilson_interval_holds_the_rate_and_stays_in_0_1(table):
    rates = win_rates(table)
    assert (rates["ci_low"] <= rates["win_rate"]).all()
    assert (rates["win_rate"] <= rates["ci_high"]).all()
    assert rates[["ci_low", "ci_high"]].stack().between(0, 1).all()
    low, high = wilson_interval(np.array([0, 5, 10]), np.array([10, 10, 10]))
    assert low[0] == 0 and high[2] == 1
    assert np.round(low[1], 3) == 0.237 and np.round(high[1], 3) == 0.763
    wide_low, wide_high = wilson_interval(np.array([5]), np.array([10]), 0.99)
    assert wide_low[0] < low[1] and wide_high[0] > high[1]


def test_always_buying_beats_never_buying():
    """A check that can fail: over 200 short games, 'always' wins more than half for sure."""
    rates = win_rates(play_games(["always", "never"], games=200, seed=11, max_rounds=20))
    assert rates.index[0] == "always"
    assert rates.loc["always", "ci_low"] > 0.5


def test_progress_bar_is_shown_when_asked(capsys):
    play_games(["always", "never"], games=3, seed=1, max_rounds=3, progress=True)
    err = capsys.readouterr().err
    assert "games" in err and "3/3" in err
    play_games(["always", "never"], games=3, seed=1, max_rounds=3)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(strategies="always"), TypeError, "must be a list"),
        (dict(strategies=["always"]), ValueError, "2 to 8 players, got 1"),
        (dict(strategies=["always"] * 9), ValueError, "2 to 8 players, got 9"),
        (dict(strategies=["always", "nope"]), ValueError, "unknown strategy 'nope'"),
        (dict(strategies=["always", "random:1.5"]), ValueError, "from 0 to 1"),
        (dict(games=0), ValueError, "games must be at least 1, got 0"),
        (dict(games=2.5), TypeError, "games must be a whole number"),
        (dict(games=True), TypeError, "games must be a whole number"),
        (dict(seed=-1), ValueError, "seed must be at least 0, got -1"),
        (dict(seed="1"), TypeError, "seed must be a whole number"),
        (dict(max_rounds=0), ValueError, "max_rounds must be at least 1"),
        (dict(rotate="yes"), TypeError, "rotate must be True or False"),
    ],
)
def test_bad_input_is_refused_with_a_plain_message(kwargs, error, message):
    arguments = dict(strategies=["always", "never"], games=2, max_rounds=3) | kwargs
    with pytest.raises(error, match=message):
        play_games(**arguments)


def test_win_rates_refuse_what_is_not_a_games_table(table):
    with pytest.raises(TypeError, match="play_games"):
        win_rates([1, 2])
    with pytest.raises(ValueError, match="lacks the column"):
        win_rates(table.drop(columns="winner"))
    with pytest.raises(ValueError, match="no rows"):
        win_rates(table.iloc[:0])
    with pytest.raises(ValueError, match="between 0 and 1"):
        win_rates(table, confidence=1.5)
    with pytest.raises(TypeError, match="confidence"):
        win_rates(table, confidence="95%")
