"""A student's strategy as a student writes it: numpy's answers, and errors that start with
the student's own line."""

from __future__ import annotations

import traceback

import numpy as np
import pytest

from monopoly_lesson import lots, make_strategy, play_games, play_monopoly
from monopoly_lesson.buildings import why_not_build
from monopoly_lesson.game import MonopolyGame
from monopoly_lesson.strategies import StrategyError


def keeps_200(game, me, space):
    """The first strategy a student writes: pandas hands back numpy's numbers."""
    return me.cash - lots.at[space, "price"] >= 200


def test_numpy_booleans_are_answers():
    answer = keeps_200(None, type("Me", (), {"cash": 1500})(), 2)
    assert isinstance(answer, np.bool_)  # what the game used to refuse
    mine = make_strategy("mine", buy=keeps_200)
    result = play_monopoly([mine, "heuristic"], seed=1, max_rounds=30)
    assert result.lots[0] > 0


def test_numpy_integers_name_spaces_and_bids():
    def build(game, me):
        for space in np.array(sorted(me.lots)):  # numpy's integers
            if why_not_build(game, me.seat, space) is None and me.cash > 800:
                return space
        return None

    spender = make_strategy(
        "spender",
        buy=lambda game, me, space: True,
        bid=lambda game, me, space: np.int64(min(me.cash, 10)),
        build=build,
    )
    table = play_games([spender, "never"], games=6, seed=4, max_rounds=60)
    assert table["lots"].sum() > 0


@pytest.mark.parametrize("answer", [17.0, "17", np.float64(17.0), True])
def test_a_space_must_be_a_whole_number(answer):
    odd = make_strategy("odd", buy=lambda game, me, space: True, lift=lambda game, me: answer)
    with pytest.raises(StrategyError, match=r"P1 odd's lift decision must name a space"):
        play_monopoly([odd, "always"], seed=1, max_rounds=5)


def crashing_buy(game, me, space):
    if space > 10:
        return lots.at[space, "no such column"]  # the student's bug
    return True


BUG_LINE = crashing_buy.__code__.co_firstlineno + 2


def package_frames(error: BaseException) -> list[str]:
    """The package's frames a student sees above the error's message."""
    frames = traceback.extract_tb(error.__traceback__)
    return [frame.name for frame in frames if "/monopoly_lesson/" in frame.filename]


def test_an_error_shows_the_students_line_first():
    mine = make_strategy("mine", buy=crashing_buy)
    with pytest.raises(StrategyError) as raised:
        play_monopoly([mine, "always"], seed=2, max_rounds=20)
    error = raised.value
    assert "P1 mine's buy decision raised KeyError" in str(error)
    assert f'in crashing_buy, line {BUG_LINE}: return lots.at[space, "no such' in str(error)
    cause_frames = traceback.extract_tb(error.__cause__.__traceback__)
    assert cause_frames[0].name == "crashing_buy"  # the student's frame comes first
    assert not any("monopoly_lesson" in frame.filename for frame in cause_frames)
    assert package_frames(error) == ["entry"]  # raised from play_monopoly, not the engine


@pytest.mark.parametrize(
    "play",
    [
        lambda mine: play_games([mine, "always"], games=2, seed=2, max_rounds=20),
        lambda mine: MonopolyGame([mine, "always"], seed=2, max_rounds=20).play(),
    ],
)
def test_every_entry_point_raises_from_itself(play):
    mine = make_strategy("mine", buy=crashing_buy)
    with pytest.raises(StrategyError, match=f"in crashing_buy, line {BUG_LINE}") as raised:
        play(mine)
    assert package_frames(raised.value) == ["entry"]
