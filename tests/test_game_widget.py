"""The game widget: its state steps a whole game, its view draws it, a failing strategy
is shown and the widget survives (no browser needed; the browser tests click it too)."""

from __future__ import annotations

import pytest

from monopoly_lesson.game.plugins import make_strategy
from monopoly_lesson.game.stepper import GameStepperState
from monopoly_lesson.game.widget import GameStepper


def test_a_turn_a_round_and_the_end():
    state = GameStepperState(seed=3)
    state.step_turn()
    assert state.turns_played == 1 and state.game.state.turn == 2
    assert any("Round 1, P1 heuristic" in line for line in state.lines)
    state.step_round()
    assert state.game.state.round == 2 and state.game.state.turn == 1
    state.play_to_end()
    assert state.game.over and state.status().startswith("Over after")
    played = state.turns_played
    state.step_turn()  # nothing more to play
    assert state.turns_played == played


def test_the_board_shows_owners_houses_and_the_players_table():
    state = GameStepperState(["always", "always"], seed=2)
    state.play_to_end()
    extras = state.extras()
    assert extras and all(e.owner.startswith("P") for e in extras.values())
    owned = {s for s, lot in state.game.state.lots.items() if lot.owner is not None}
    assert set(extras) == owned
    table = state.players()
    assert list(table.index) == ["P1 always", "P2 always"]
    assert table["net_worth"].tolist() == state.game.result().net_worth


def test_a_failing_strategy_is_shown_and_a_new_game_starts():
    def broken(game, me, space):
        raise ZeroDivisionError("my bug")

    stepper = GameStepper([make_strategy("mine", buy=broken), "always"], seed=1)
    stepper.to_end.click()
    assert stepper.state.error and "my bug" in stepper.status_view.value
    assert "The game stopped" in stepper.log_view.value
    stepper.seed_box.value = 5
    stepper.new_game.click()
    assert stepper.state.error is None and stepper.state.seed == 5


def test_clicks_redraw_the_board_and_cash():
    stepper = GameStepper(seed=4)
    before = stepper.board_view.value, stepper.players_view.value
    stepper.one_round.click()
    assert (stepper.board_view.value, stepper.players_view.value) != before
    assert "game-stepper-board" in stepper.board_view.value
    bundle = stepper._repr_mimebundle_()
    assert "Run this notebook" in bundle["text/markdown"] and "<svg" in bundle["image/svg+xml"]


def test_too_many_players_for_the_board_colours():
    with pytest.raises(ValueError, match="at most 6 players"):
        GameStepperState(["always"] * 7)


def test_a_game_with_trading_shows_its_trades_and_redraws_the_owners():
    """Step by step until a trade is made: the log says so, and the board's owners follow."""
    stepper = GameStepper(["always"] * 4, seed=0, trading=True)
    state = stepper.state
    while not any("make the trade" in line for line in state.lines):
        stepper.one_turn.click()
    trade = [p for p in state.game.state.proposals if p.accepted][-1].trade
    assert "accepts the trade" in stepper.log_view.value
    owners = state.extras()
    assert owners[trade.give[0]].owner == state.game.state.name(trade.partner)
    assert state.game.state.name(trade.partner) in stepper.board_view.value


def test_the_richer_chromosome_steps_in_the_widget():
    """EGA bids, builds and trades by its own genes; the widget steps its game to the end."""
    stepper = GameStepper(["ega", "always", "heuristic"], seed=1, trading=True)
    stepper.state.play_to_end()
    assert stepper.state.game.over and "P1 ega" in stepper.state.game.state.name(1)
