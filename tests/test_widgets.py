"""TurnStepper, driven from Python the way a test or a student's clicks drive it."""

import pytest

from monopoly_lesson import take_turn
from monopoly_lesson.widgets import STATIC_NOTE, TurnStepper


def turn_headers(stepper):
    return [line for line in stepper.lines if line.startswith("--- Turn")]


def test_buttons_say_what_they_do():
    stepper = TurnStepper(take_turn)
    labels = [b.description for b in (stepper.one_turn, stepper.ten_turns, stepper.reset_button)]
    assert labels == ["One turn", "Ten turns", "Reset"]
    assert all(b.tooltip for b in (stepper.one_turn, stepper.ten_turns, stepper.reset_button))


def test_one_turn_ten_turns_and_reset():
    stepper = TurnStepper(take_turn, seed=3)
    stepper.one_turn.click()
    assert stepper.turns_played == 1 and len(turn_headers(stepper)) == 1
    assert "Rolled" in stepper.log_view.value
    board_before = stepper.board_view.value
    stepper.ten_turns.click()
    assert stepper.turns_played == 11 and len(turn_headers(stepper)) == 11
    assert stepper.board_view.value != board_before
    assert "11 turn(s) played" in stepper.status_view.value
    stepper.reset_button.click()
    assert stepper.turns_played == 0 and stepper.lines == [] and stepper.tracker.total == 0
    assert [p.pos for p in stepper.players] == [1]


def test_same_seed_same_turns():
    a, b = TurnStepper(take_turn, seed=9), TurnStepper(take_turn, seed=9)
    a.step(10), b.step(10)
    assert a.lines == b.lines


def test_two_players_alternate():
    stepper = TurnStepper(take_turn, players=2, seed=1)
    stepper.step(4)
    assert [h.split(", ")[1] for h in turn_headers(stepper)] == [
        "Player 1 ---", "Player 2 ---", "Player 1 ---", "Player 2 ---",
    ]  # fmt: skip
    stepper.players_choice.value = 1  # changing a control starts again
    assert stepper.turns_played == 0 and len(stepper.players) == 1


def test_preset_dice_move_the_token_and_show_on_the_board():
    stepper = TurnStepper(take_turn, preset=[2, 3])
    stepper.one_turn.click()
    assert stepper.players[0].pos == 6
    assert 'title="Reading Railroad (6): 1"' in stepper.board_view.value
    assert "Tally: Reading Railroad (6), now 1." in stepper.log_view.value


def test_used_up_preset_dice_are_reported_and_the_widget_recovers():
    stepper = TurnStepper(take_turn, preset=[3, 4])
    stepper.ten_turns.click()
    assert stepper.turns_played == 1
    assert "preset dice are used up" in stepper.error
    assert "error: see the log" in stepper.status_view.value
    stepper.preset_box.value = "1,2,1,2"
    stepper.ten_turns.click()
    assert stepper.turns_played == 2


def test_a_bad_preset_list_is_explained():
    stepper = TurnStepper(take_turn, preset=[1, 2])
    stepper.preset_box.value = "3,x"
    assert "faces must be whole numbers separated by commas" in stepper.log_view.value


def test_a_failing_take_turn_is_shown_and_the_widget_stays_usable():
    def broken(player, tracker, *, dice, chance, community):
        dice.roll()
        raise KeyError("oops")

    stepper = TurnStepper(broken, seed=2)
    stepper.one_turn.click()
    assert stepper.turns_played == 0
    message = "Error in take_turn on turn 1 (Player 1): KeyError: 'oops'"
    assert stepper.error == message and "ERROR: " + message in stepper.lines
    assert "KeyError" in stepper.log_view.value
    stepper.take_turn = take_turn  # the student fixes the code
    stepper.one_turn.click()
    assert stepper.turns_played == 1 and stepper.error is None


def test_static_stand_in_for_print_and_html():
    stepper = TurnStepper(take_turn, seed=1)
    stepper.step(3)
    bundle = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert STATIC_NOTE in bundle["text/html"] and "turn-stepper-board" in bundle["text/html"]
    assert bundle["text/plain"].startswith("TurnStepper: 3 turn(s) played")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(take_turn=None), TypeError, "take_turn must be a function"),
        (dict(take_turn=take_turn, players=3), ValueError, "players must be 1 or 2, got 3"),
    ],
)
def test_bad_arguments(kwargs, error, message):
    fn = kwargs.pop("take_turn")
    with pytest.raises(error, match=message):
        TurnStepper(fn, **kwargs)


def test_a_fixed_take_turn_in_the_notebook_is_picked_up(monkeypatch):
    """Re-running the cell that defines take_turn changes what the widget plays."""
    import types

    notebook = types.ModuleType("__main__")
    monkeypatch.setitem(__import__("sys").modules, "__main__", notebook)
    exec("def take_turn(player, tracker, **decks):\n    raise ValueError('bug')", vars(notebook))
    stepper = TurnStepper(notebook.take_turn, seed=1)
    stepper.one_turn.click()
    assert "ValueError: bug" in stepper.error
    vars(notebook)["take_turn"] = take_turn  # the student's fixed definition
    stepper.one_turn.click()
    assert stepper.turns_played == 1 and stepper.error is None


def test_markdown_snapshot_for_print():
    stepper = TurnStepper(take_turn, players=2, seed=1)
    stepper.step(3)
    text = stepper._repr_mimebundle_()["text/markdown"]
    assert text.startswith(f"*{STATIC_NOTE}*") and "After 3 turn(s):" in text
    assert "Player 1 on" in text and "Player 2 on" in text and "```" in text
