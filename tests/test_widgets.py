"""TurnStepper, the view: its buttons and controls drive the state, and it draws the state.

The game itself (turns, errors, the log) is tested in test_stepper.py.
"""

import base64
import re
from html import unescape

import ipywidgets as widgets
import pytest

from monopoly_lesson import take_turn
from monopoly_lesson.stepper import StepperState
from monopoly_lesson.widgets import LOG_LABEL, REOPENED_NOTE, STATIC_NOTE, TurnStepper


def buttons(stepper):
    return stepper.one_turn, stepper.ten_turns, stepper.reset_button


def square(stepper, space):
    """The HTML of one square of the drawn board."""
    board = stepper.board_view.value.split('class="monopoly-centre"')[0]
    return board.split(f'data-space="{space}"')[1].split('class="monopoly-space"')[0]


def test_buttons_say_what_they_do():
    stepper = TurnStepper(take_turn)
    assert [b.description for b in buttons(stepper)] == ["One turn", "Ten turns", "Reset"]
    assert all(b.tooltip for b in buttons(stepper))
    assert [b._dom_classes for b in buttons(stepper)] == [
        ("turn-stepper-one-turn",),
        ("turn-stepper-ten-turns",),
        ("turn-stepper-reset",),
    ]


def test_each_button_calls_its_method(monkeypatch):
    stepper = TurnStepper(take_turn)
    calls = []
    monkeypatch.setattr(stepper, "step", lambda turns: calls.append(("step", turns)))
    monkeypatch.setattr(stepper, "reset", lambda: calls.append(("reset",)))
    for button in buttons(stepper):
        button.click()
    assert calls == [("step", 1), ("step", 10), ("reset",)]


def test_the_view_exposes_its_state():
    stepper = TurnStepper(take_turn, players=2, seed=3, start=5)
    assert isinstance(stepper.state, StepperState)
    assert stepper.state.tokens == {"Player 1": 5, "Player 2": 5}
    stepper.ten_turns.click()
    assert stepper.turns_played == stepper.state.turns_played == 10
    assert stepper.lines is stepper.state.lines and stepper.error is None


def test_the_drawing_follows_the_state():
    stepper = TurnStepper(take_turn, preset=[2, 3, 1, 2])
    assert "(no turns yet)" in stepper.log_view.value
    stepper.one_turn.click()
    assert "1 turn(s) played, 1 tallies" in stepper.status_view.value
    assert "monopoly-token" in square(stepper, 6) and "monopoly-token" not in square(stepper, 1)
    assert "Reading Railroad (6): tally 1" in unescape(stepper.board_view.value)
    assert "Tally: Reading Railroad (6), now 1." in stepper.log_view.value
    assert "Reading Railroad (6): 1</title>" in stepper.chart_view.value
    stepper.state.step()  # played on the state directly: drawn at the next redraw
    stepper.redraw()
    assert "monopoly-token" in square(stepper, 9) and "monopoly-token" not in square(stepper, 6)
    assert unescape(stepper.log_view.value).endswith(stepper.lines[-1] + "</pre></div>")


def test_the_log_scrolls_from_its_bottom_so_the_newest_lines_show():
    stepper = TurnStepper(take_turn, seed=1)
    stepper.step(30)
    log = stepper.log_view.value
    box = re.search(r'<div class="turn-stepper-log" style="([^"]*)"[^>]*><pre', log)
    assert "overflow:auto" in box[1] and "flex-direction:column-reverse" in box[1]


def test_the_log_is_a_named_region_that_the_keyboard_reaches_and_scrolls():
    stepper = TurnStepper(take_turn, seed=1)
    stepper.step(30)
    named = f'role="region" aria-label="{LOG_LABEL}" tabindex="0"'
    assert named in stepper.log_view.value
    assert "tabindex" not in stepper.snapshot_html()  # a stored snapshot: as it was stored


def test_the_board_is_named_for_a_screen_reader_by_where_the_tokens_are():
    stepper = TurnStepper(take_turn, players=2, seed=1, start=11)
    stepper.step(1)
    where = "; ".join(stepper.state.where())
    assert "Player 1 on " in where and "Player 2 on Jail (11), just visiting" in where
    assert f'role="img" aria-label="The Monopoly board: {where}"' in stepper.board_view.value


def test_the_status_line_is_said_as_it_changes_and_every_control_is_labelled():
    """The status is a live region, which a screen reader says after each click (a stored
    snapshot is as it was); each chooser and box has a label, the players' included."""
    stepper = TurnStepper(take_turn, seed=1)
    stepper.one_turn.click()
    assert stepper.status_view.value.startswith('<div role="status" aria-live="polite"')
    assert "1 turn(s) played" in stepper.status_view.value
    assert 'role="status"' not in stepper.snapshot_html()
    controls = (stepper.players_choice, stepper.dice_choice, stepper.seed_box, stepper.preset_box)
    assert [control.description for control in controls] == [
        "Players:",
        "Dice:",
        "Seed:",
        "Faces:",
    ]
    assert isinstance(stepper.players_choice, widgets.Dropdown)  # its choice is said too


def test_a_note_shows_only_when_no_kernel_is_behind_the_widget():
    stepper = TurnStepper(take_turn)
    assert stepper.children[0] is stepper.reopened_view
    note = stepper.reopened_view.value
    assert REOPENED_NOTE in note and "run the cell to step turns" in REOPENED_NOTE
    assert ".turn-stepper-reopened{display:none}" in note
    assert ".jupyter-widgets-disconnected .turn-stepper-reopened{display:block}" in note


def test_the_centre_says_who_is_in_jail():
    stepper = TurnStepper(take_turn, start=24, preset=[3, 4])
    stepper.one_turn.click()
    centre = stepper.board_view.value.split('class="monopoly-centre"')[1]
    assert "Player 1 on Jail (11)" in centre and "Player 1 is in jail." in centre


def test_changing_a_control_starts_again_with_it():
    stepper = TurnStepper(take_turn, seed=1)
    stepper.step(3)
    stepper.players_choice.value = 2
    assert stepper.turns_played == 0 and stepper.state.setup.players == 2
    stepper.seed_box.value = 42
    assert stepper.state.setup.seed == 42
    stepper.preset_box.value = "2,3"
    stepper.dice_choice.value = "preset"
    assert stepper.state.setup.preset == (2, 3)
    stepper.reset_button.click()
    assert stepper.state.setup.preset == (2, 3) and stepper.state.setup.players == 2


@pytest.mark.parametrize(
    ("faces", "problem"),
    [
        ("3,x", "faces must be whole numbers separated by commas, got '3,x'."),
        ("1,2,3", "rolls must list an even number of faces"),
    ],
)
def test_bad_preset_faces_are_explained_in_the_log(faces, problem):
    stepper = TurnStepper(take_turn, preset=[1, 2])
    stepper.preset_box.value = faces
    assert stepper.error.startswith("The preset faces were not understood: " + problem)
    assert "The preset faces were not understood" in stepper.log_view.value
    assert "The preset faces were not understood: " + problem in unescape(stepper.status_view.value)
    stepper.preset_box.value = "1,2"
    assert stepper.error is None


def test_an_error_shows_in_the_status_and_a_fixed_take_turn_recovers():
    def broken(player, tracker, *, dice, chance, community):
        raise KeyError("oops")

    stepper = TurnStepper(broken, seed=2)
    stepper.one_turn.click()
    message = "Error in take_turn on turn 1 (Player 1): KeyError: 'oops'"
    assert message in unescape(stepper.status_view.value)  # where the student is looking
    assert message in unescape(stepper.log_view.value)
    stepper.take_turn = take_turn  # the student fixes the code
    assert stepper.state.take_turn is take_turn
    stepper.one_turn.click()
    assert stepper.turns_played == 1 and "error" not in stepper.status_view.value


def test_a_long_error_fits_on_one_status_line_and_is_escaped():
    def broken(player, tracker, *, dice, chance, community):
        raise ValueError("<b>bad</b>\n" + "x" * 300)

    stepper = TurnStepper(broken)
    stepper.one_turn.click()
    status = stepper.status_view.value
    assert "&lt;b&gt;bad&lt;/b&gt; xxx" in status and "<b>bad</b>" not in status
    assert "\n" not in status and status.count("x") < 200 and "…" in status
    assert "x" * 300 in stepper.log_view.value  # the whole message stays in the log


def svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def test_static_stand_ins_for_html_markdown_and_text():
    stepper = TurnStepper(take_turn, players=2, seed=1)
    stepper.step(3)
    bundle = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    page = bundle["text/html"]
    assert STATIC_NOTE in page and all(
        f'class="turn-stepper-{part}' in page for part in ("status", "chart", "log")
    )
    # the board and the chart as pictures, which a notebook opened untrusted shows too
    assert "<svg" not in page and page.count('<img class="') == 2
    board = re.search(r'<img class="monopoly-board turn-stepper-board" src="([^"]+)"', page)[1]
    assert board == svg_data_uri(bundle["image/svg+xml"])
    assert bundle["text/plain"] == (
        "TurnStepper: 3 turn(s) played, Player 1 on {}, Player 2 on {}. {}".format(
            *stepper.state.tokens.values(), STATIC_NOTE
        )
    )
    text = bundle["text/markdown"]
    assert text.startswith(f"*{STATIC_NOTE}*") and "After 3 turn(s):" in text
    assert "; ".join(stepper.state.where()) in text
    assert text.rstrip().endswith(f"{stepper.lines[-1]}\n```")
    assert re.search(r"\*\*Most tallied so far:\*\* \w", text)
    picture = bundle["image/svg+xml"]  # the board for print (Typst draws SVG, not HTML)
    assert picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    named = 'aria-label="The Monopoly board: {}"'.format("; ".join(stepper.state.where()))
    drawn = stepper.board_view.value.replace(named, 'aria-label="Monopoly board"')
    assert picture in drawn  # the very board the widget draws (named there in words)
    assert all(f"{name} on " in picture for name in stepper.state.tokens)


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
