"""Tournaments: the tidy table of many games, rotated seats, seeds, and win rates."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson.game import tournament
from monopoly_lesson.game.engine import play_monopoly
from monopoly_lesson.game.plugins import as_strategy
from monopoly_lesson.game.strategies import Strategy, StrategyError
from monopoly_lesson.game.tournament import (
    TABLE_COLUMNS,
    game_seed,
    play_games,
    strategy_labels,
    table_bytes,
    wilson_interval,
    win_rates,
)

THREE = ["always", "never", "heuristic"]


def no_game(*args, **kwargs):
    """Stands in for play_monopoly where no game may be played."""
    raise AssertionError("a game was played")


def readable_only(monkeypatch):
    """play_games with the fast engine turned off: every game played by play_monopoly."""
    monkeypatch.setattr(tournament, "_play_fast", lambda *args: False)


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
    result = play_monopoly(game["strategy"].tolist(), seed=int(game["seed"].iloc[0]), max_rounds=15)
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
        "strategy",
        "strategy#2",
        "strategy#3",
    ]


def test_a_students_own_strategy_plays():
    def buy_cheap(game, me, space):
        return space < 20

    table = play_games([buy_cheap, "never"], games=2, seed=3, max_rounds=5)
    assert set(table["strategy"]) == {"buy_cheap", "never"}


def test_win_rates_add_up(table):
    rates = win_rates(table)
    assert list(rates.columns) == [
        "games",
        "wins",
        "win_rate",
        "ci_low",
        "ci_high",
        "mean_finish",
        "mean_net_worth",
    ]
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
        (dict(strategies=["always"]), ValueError, r"strategies must be 2 to 8 .*, got 1\."),
        (dict(strategies=["always"] * 9), ValueError, r"strategies must be 2 to 8 .*, got 9\."),
        (dict(strategies=["always", "nope"]), ValueError, "strategies: unknown strategy 'nope';"),
        (dict(strategies=["always", "random:1.5"]), ValueError, "from 0 to 1"),
        (dict(games=0), ValueError, "games must be at least 1, got 0"),
        (dict(games=2.5), TypeError, "games must be a whole number"),
        (dict(games=True), TypeError, "games must be a whole number"),
        (dict(seed=-1), ValueError, r"seed must be from 0 to 2\*\*32 - 1 .*, got -1"),
        (dict(seed=2**32), ValueError, r"seed must be from 0 to 2\*\*32 - 1"),
        (dict(seed="1"), TypeError, "seed must be a whole number"),
        (dict(max_rounds=0), ValueError, "max_rounds must be from 1 to 10,000"),
        (dict(max_rounds=10_001), ValueError, "max_rounds must be from 1 to 10,000"),
        (dict(max_rounds=2**63), ValueError, "max_rounds must be from 1 to 10,000"),
        (dict(max_rounds=5.0), TypeError, "max_rounds must be a whole number"),
        (dict(games=10**15), ValueError, "at most [0-9,]+ games of 2 players fit"),
        (dict(rotate="yes"), TypeError, "rotate must be True or False"),
    ],
)
def test_bad_input_is_refused_with_a_plain_message(kwargs, error, message, monkeypatch):
    monkeypatch.setattr(tournament, "play_monopoly", no_game)
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


# ---------------------------------------------------------------------------
# A game that fails, names that collide, tables that cannot be, sizes that cannot fit
# ---------------------------------------------------------------------------


class Flaky(Strategy):
    """Buys everything, until its ``fail_at``-th buy question (counted over all games)."""

    name = "flaky"

    def __init__(self, fail_at):
        self.fail_at, self.calls = fail_at, 0

    def buy(self, game, me, space):
        self.calls += 1
        if self.calls == self.fail_at:
            return 1 / 0
        return True


def test_a_failing_game_says_which_and_keeps_the_games_before_it():
    with pytest.raises(StrategyError) as caught:
        play_games([Flaky(60), "never", "heuristic"], games=40, seed=4, max_rounds=30)
    error = caught.value
    g = error.game
    assert 0 < g < 40, "the failure comes after some games"
    assert error.seed == game_seed(4, g)
    message = str(error)
    assert message.startswith("P") and "ZeroDivisionError" in message
    assert f"game {g} of the tournament's 40 (counted from 0)" in message
    assert f"seed={error.seed}, max_rounds=30) replays it" in message
    assert "\n" not in message and "ZeroDivisionError" in error.reason
    before = play_games([Flaky(0), "never", "heuristic"], games=g, seed=4, max_rounds=30)
    pd.testing.assert_frame_equal(error.table, before)
    assert isinstance(error.__cause__, ZeroDivisionError), "the student's line stays shown"


def test_the_failing_game_is_replayed_from_its_seed():
    class Fails(Strategy):
        name = "fails"

        def buy(self, game, me, space):
            raise ValueError("no")

    with pytest.raises(StrategyError) as caught:
        play_games(["never", Fails()], games=5, seed=8, max_rounds=30)
    error = caught.value
    assert error.game == 0 and len(error.table) == 0 and list(error.table) == list(TABLE_COLUMNS)
    with pytest.raises(StrategyError, match="raised ValueError: no"):
        play_monopoly(["never", Fails()], seed=error.seed, max_rounds=30)


def test_any_other_error_in_a_game_carries_its_number_and_the_games_before_it(monkeypatch):
    real = tournament.play_monopoly

    def breaks_at_game_3(seats, seed, max_rounds, trading):
        if seed == game_seed(1, 3):
            raise RuntimeError("the engine broke")
        return real(seats, seed=seed, max_rounds=max_rounds)

    readable_only(monkeypatch)
    monkeypatch.setattr(tournament, "play_monopoly", breaks_at_game_3)
    with pytest.raises(RuntimeError, match="the engine broke") as caught:
        play_games(["always", "never"], games=6, seed=1, max_rounds=10)
    assert caught.value.game == 3 and caught.value.seed == game_seed(1, 3)
    assert caught.value.table["game"].unique().tolist() == [0, 1, 2]


def test_a_kind_of_strategy_error_stays_that_kind(monkeypatch):
    class Cheated(StrategyError):
        pass

    def cheats(seats, seed, max_rounds, trading):
        raise Cheated("P1 always's buy decision changed the game")

    readable_only(monkeypatch)
    monkeypatch.setattr(tournament, "play_monopoly", cheats)
    with pytest.raises(Cheated, match=r"changed the game \[in game 0 of the tournament's 2"):
        play_games(["always", "never"], games=2, seed=1, max_rounds=10)


def test_names_that_would_share_a_label_are_refused_before_any_game(monkeypatch):
    monkeypatch.setattr(tournament, "play_monopoly", no_game)
    named = Strategy()
    named.name = "always#2"
    with pytest.raises(ValueError, match="both be labelled 'always#2'"):
        play_games([named, "always", "always"], games=3, max_rounds=5)
    with pytest.raises(ValueError, match="another name"):
        strategy_labels([as_strategy("always"), as_strategy("always"), named])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.assign(winner=t["winner"].astype(int) * 5), "winner must be True or False"),
        (
            lambda t: t.assign(winner=t["winner"].astype(object).where(t.index != 4, "yes")),
            "winner must be True or False, got 'yes'",
        ),
        (lambda t: t.assign(finish=-t["finish"]), "finish must be a place 1, 2, 3"),
        (lambda t: t.assign(finish=t["finish"] + 0.5), "finish must be a place"),
        (lambda t: t.assign(finish=t["finish"].astype(str)), "finish column must hold places"),
        (lambda t: t.assign(winner=True, finish=1), "winners"),
        (lambda t: t.assign(winner=~t["winner"]), "the winner, and only the winner"),
        (
            lambda t: t.assign(finish=t["finish"].where(t["finish"] != 3, 7)),
            "finish 7 in a game of 3 players",
        ),
        (lambda t: t.assign(strategy=t["strategy"].cat.remove_categories("never")), "no strategy"),
        (lambda t: t.assign(net_worth=np.nan), "net_worth must be an amount"),
    ],
)
def test_win_rates_refuse_a_table_no_tournament_can_give(table, change, message):
    with pytest.raises(ValueError, match=message):
        win_rates(change(table))


def test_win_rates_read_tables_of_several_tournaments_and_without_game_numbers(table):
    other = play_games(THREE, games=12, seed=6, max_rounds=15)
    both = win_rates(pd.concat([table, other], ignore_index=True))
    assert (both["games"] == 24).all() and both["wins"].sum() == 24
    plain = win_rates(table[["strategy", "winner", "finish", "net_worth"]])
    pd.testing.assert_frame_equal(plain, win_rates(table))
    numbers = table.assign(winner=table["winner"].astype(int))
    assert win_rates(numbers)["wins"].sum() == 12


MEASURE = """
import sys, tracemalloc
from monopoly_lesson.game import tournament
from monopoly_lesson.game.engine import play_monopoly
n, games, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
if path == "readable":  # every game the same canned one: only the table's memory counts
    canned = play_monopoly(["always"] * n, seed=1, max_rounds=30)
    tournament._play_fast = lambda *args: False
    tournament.play_monopoly = lambda seats, seed, max_rounds, trading: canned
tournament.play_games(["always"] * n, games=2)
tracemalloc.start()
tournament.play_games(["always"] * n, games=games)
print(tracemalloc.get_traced_memory()[1])
"""


@pytest.mark.parametrize(
    ("players", "games", "path"),
    [(2, 20_000, "readable"), (8, 20_000, "readable"), (2, 3_000, "fast"), (8, 1_000, "fast")],
)
def test_the_memory_estimate_covers_what_a_tournament_uses(players, games, path):
    """Measured in a fresh interpreter (tracemalloc counts every thread's allocations), the
    games played by the readable engine (the table's memory) and by the fast engine (the
    table's and its draws, a chunk of games at a time)."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(players), str(games), path],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    peak = int(done.stdout)
    assert peak <= table_bytes(games, players) <= 1.3 * peak


def test_a_tournament_too_big_for_memory_is_refused_before_any_game(monkeypatch):
    monkeypatch.setattr(tournament, "play_monopoly", no_game)
    monkeypatch.setattr(tournament, "available_memory", lambda: 10**6)
    monkeypatch.setattr("monopoly_lesson.checks.available_memory", lambda: 10**6)
    with pytest.raises(ValueError) as caught:
        play_games(["always", "never"], games=10_000)
    message = str(caught.value)
    assert message.startswith("a tournament of 10,000 games of 2 players would need about")
    fixed, per_game = table_bytes(0, 2), table_bytes(1, 2) - table_bytes(0, 2)
    assert message.endswith(f"at most {(10**6 - fixed) // per_game:,} games of 2 players fit.")


# -- the fast path: the same games, many times faster ---------------------------------------


@pytest.mark.parametrize(
    ("strategies", "options"),
    [
        (THREE, dict(games=30, seed=5, max_rounds=100)),
        (["always"] * 4, dict(games=24, seed=1, max_rounds=100, trading=True)),
        (["heuristic", "random:0.4", "always", "rga_level"], dict(games=16, seed=2, trading=True)),
        (
            ["ega_trading", "ega_always", "always", "heuristic"],
            dict(games=16, seed=3, trading=True),
        ),
        (["always", "random:0.7"], dict(games=20, seed=4, max_rounds=300, rotate=False)),
        (["always", "heuristic", "never", "random:0.5"] * 2, dict(games=8, seed=6, max_rounds=40)),
    ],
)
def test_the_fast_path_gives_the_readable_engines_table(strategies, options, monkeypatch):
    """Built-in strategies are played by the fast engine, fed each game's own draws: the same
    table to the last dollar as play_monopoly's, game by game (bankruptcies and endings too)."""
    fast = play_games(strategies, **options)
    assert fast["bankrupt"].any()  # and in most, a game won by the last player left
    readable_only(monkeypatch)
    pd.testing.assert_frame_equal(fast, play_games(strategies, **options))


def test_a_strategy_the_fast_engine_does_not_play_is_played_by_play_monopoly(monkeypatch):
    """A student's strategy, or a built-in whose method was replaced, goes to play_monopoly."""
    played = []
    real = tournament.play_monopoly

    def counted(*args, **kwargs):
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(tournament, "play_monopoly", counted)
    play_games(["always", "never"], games=3, seed=1, max_rounds=10)
    assert played == []
    changed = as_strategy("always")
    changed.buy = lambda game, me, space: False
    table = play_games([changed, "never"], games=3, seed=1, max_rounds=10)
    assert len(played) == 3 and (table["lots"] == 0).all()


def test_a_game_longer_than_its_draws_is_played_by_play_monopoly(monkeypatch):
    """When a game would outrun the draws the fast path makes, the readable engine plays
    the tournament: the same table."""
    from monopoly_lesson.game.streams import GameStreams

    expected = play_games(["always", "random:0.5"], games=6, seed=9, max_rounds=50)
    short = GameStreams.of_seed.__func__

    def too_short(cls, seed, players, **size):
        return short(cls, seed, players, rolls=5, shuffles=1, uniforms=2)

    monkeypatch.setattr(GameStreams, "of_seed", classmethod(too_short))
    pd.testing.assert_frame_equal(
        play_games(["always", "random:0.5"], games=6, seed=9, max_rounds=50), expected
    )
