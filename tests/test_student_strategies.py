"""A student's strategy as a student writes it: numpy's answers, and errors that start with
the student's own line."""

from __future__ import annotations

import traceback

import numpy as np
import pytest

from monopoly_lesson import lots, make_strategy, play_games, play_monopoly
from monopoly_lesson.game.buildings import why_not_build
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.strategies import Strategy, StrategyError


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
    assert package_frames(error) == ["play_monopoly"]  # raised from it, not the engine


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
    assert len(package_frames(raised.value)) == 1  # the entry point's own, not the engine's


# ---------------------------------------------------------------------------
# Answers of the wrong type: a StrategyError naming the player, the decision and what is
# allowed (or a TypeError as soon as the strategy is made)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decisions", "said"),
    [
        (
            dict(build=lambda game, me: 12.0),
            "build decision must name a space by its number "
            "(a whole number from 1 to 40) or None, got 12.0: give a space as an int, 12, not 12.0",
        ),
        (
            dict(lift=lambda game, me: [12, 14]),
            "lift decision must name a space by its number"
            " (a whole number from 1 to 40) or None, got [12, 14] (name one space at a time",
        ),
        (
            dict(buy=lambda game, me, space: False, bid=lambda game, me, space: 10.0),
            "bid decision must return whole dollars (0 for no bid), got 10.0: give dollars as an "
            "int, 10, not 10.0",
        ),
        (
            dict(buy=lambda game, me, space: None),
            "buy decision must return True or False, got "
            "None (does every path of the function end in a return?)",
        ),
    ],
)
def test_a_wrong_kind_of_answer_says_what_is_allowed(decisions, said):
    decisions.setdefault("buy", lambda game, me, space: True)
    odd = make_strategy("odd", **decisions)
    with pytest.raises(StrategyError, match="P1 odd's ") as raised:
        play_monopoly([odd, "always"], seed=1, max_rounds=30)
    assert said in str(raised.value)


def in_debt_with(choice):
    """P1 owes $100 of income tax with $50 in hand and owns both brown lots; its raise_cash
    decision answers ``choice``."""
    from game_scenarios import give, new_game, passive, set_cash

    g = new_game(passive(raise_cash=lambda game, me, owed: choice), dice=[1, 3])
    give(g, 1, 2, 4)
    set_cash(g, 1, 50)
    g.state.player(1).token.pos = 1
    return g


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        (("mortgage", 2.0), "got 2.0: give a space as an int, 2, not 2.0"),
        (("mortgage", [2]), "got [2] (name one space at a time"),
        (["mortgage", 2], "or None (a tuple, in round brackets), got ['mortgage', 2]"),
        (([2], "mortgage"), "must return ('sell', space), ('mortgage', space) or None"),
    ],
)
def test_raise_cash_must_name_its_space_by_a_whole_number(choice, said):
    g = in_debt_with(choice)
    with pytest.raises(StrategyError, match="P1 passive's raise_cash decision") as raised:
        g.play_turn()
    assert said in str(raised.value)
    assert not any(lot.mortgaged for lot in g.state.lots.values())  # nothing done with it


def test_numpy_booleans_answer_every_yes_or_no_question():
    eager = make_strategy(
        "eager", buy=lambda game, me, space: np.True_, leave_jail=lambda game, me: np.bool_(1)
    )
    result = play_monopoly([eager, "never"], seed=3, max_rounds=60)
    assert result.lots[0] > 0


class NoBuy(Strategy):
    name = "nobuy"

    def bid(self, game, me, space):
        return 0


class MisspeltSubclass(Strategy):
    name = "typo"

    def buy(self, game, me, space):
        return True

    def raise_mony(self, game, me, owed):
        return None


class MisspeltPlain:
    def buy(self, game, me, space):
        return True

    def raise_money(self, game, me, owed):
        return None


class CapitalBuy:
    def Buy(self, game, me, space):  # the student's misspelling
        return True


@pytest.mark.parametrize(
    ("strategy", "said"),
    [
        (
            NoBuy(),
            "strategy 'nobuy' has no buy decision: a Strategy must define "
            "buy(self, game, me, space) returning True or False",
        ),
        (
            MisspeltSubclass(),
            "strategy 'typo' has a method 'raise_mony', which the game never "
            "asks: did you mean 'raise_cash'?",
        ),
        (
            MisspeltPlain(),
            "strategy 'MisspeltPlain' has a method 'raise_money', which the game "
            "never asks: did you mean 'raise_cash'?",
        ),
        (
            CapitalBuy(),
            "got CapitalBuy, which has no buy decision (your method 'Buy' is never "
            "asked: did you mean 'buy'?)",
        ),
    ],
)
def test_a_missing_or_misspelt_decision_is_refused_before_the_game(strategy, said):
    with pytest.raises(TypeError) as raised:
        MonopolyGame([strategy, "always"], seed=1)
    assert said in str(raised.value)


def test_make_strategy_says_which_decision_a_misspelt_one_meant():
    with pytest.raises(TypeError, match="unknown decision 'raise_Cash': did you mean 'raise_cash'"):
        make_strategy(buy=lambda game, me, space: True, raise_Cash=lambda game, me, owed: None)


def test_helpers_named_like_decisions_are_not_misspellings():
    class Helpful:
        def buy(self, game, me, space):
            return self.buy_orange(game, me, space)

        def buy_orange(self, game, me, space):  # buy is there: a helper
            return True

        def raise_threshold(self):  # takes nothing a decision is given
            return 300

    assert play_monopoly([Helpful(), "never"], seed=1, max_rounds=10).rounds == 10


def test_a_bare_strategy_names_the_player_and_the_decision():
    with pytest.raises(StrategyError, match="P1 strategy's buy decision raised NotImplemented"):
        play_monopoly([Strategy(), "always"], seed=1, max_rounds=20)
