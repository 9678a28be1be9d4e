"""StepperState: the game behind the turn stepper, played directly (no widgets)."""

import sys
import types

import pandas as pd
import pytest

from monopoly_lesson import (
    CardDeck,
    Player,
    RandomDice,
    Rules,
    SpaceTracker,
    community_deck,
    take_turn,
)
from monopoly_lesson.stepper import LOG_LINES, StepperState
from monopoly_lesson.widgets import TurnStepper


def headers(state):
    return [line for line in state.lines if line.startswith("--- Turn")]


def test_one_step_plays_one_turn_and_logs_its_narration():
    state = StepperState(take_turn, seed=3)
    assert state.lines == [] and state.turns_played == 0 and state.error is None
    state.step()
    assert state.turns_played == 1 and headers(state) == ["--- Turn 1, Player 1 ---"]
    assert state.lines[1].startswith("Rolled ") and state.lines[-1].startswith("Tally: ")
    assert state.tallies.sum() == state.tracker.total >= 1


def test_two_players_take_turns_in_order():
    state = StepperState(take_turn, players=2, seed=1)
    state.step(4)
    assert headers(state) == [
        "--- Turn 1, Player 1 ---",
        "--- Turn 1, Player 2 ---",
        "--- Turn 2, Player 1 ---",
        "--- Turn 2, Player 2 ---",
    ]
    assert list(state.tokens) == ["Player 1", "Player 2"]
    assert state.next_player.name == "Player 1"


def test_preset_dice_move_the_token():
    state = StepperState(take_turn, preset=[2, 3])
    state.step()
    assert state.tokens == {"Player 1": 6} and state.tallies[6] == 1
    assert "Tally: Reading Railroad (6), now 1." in state.lines


def test_start_space_and_preset_cards():
    state = StepperState(take_turn, start=5, preset=[1, 2], chance_order=[1])
    state.step()
    assert "Chance: drew card 1, 'Advance to Go'." in state.lines
    assert state.tokens == {"Player 1": 1}
    assert {space: n for space, n in state.tallies.items() if n} == {8: 1, 1: 1}


def test_where_says_who_is_in_jail():
    state = StepperState(take_turn, start=24, preset=[3, 4])
    state.step()
    assert state.where() == ["Player 1 on Jail (11), in jail"]


def test_the_log_and_where_tell_a_visit_to_jail_from_being_in_jail():
    state = StepperState(take_turn, start=4, preset=[3, 4])
    state.step()
    assert "Player 1 moves from Baltic Avenue (4) to Jail (11), just visiting." in state.lines
    assert state.where() == ["Player 1 on Jail (11), just visiting"]


def test_same_seed_same_game_other_seed_other_game():
    a, b, c = (StepperState(take_turn, seed=s) for s in (9, 9, 10))
    for state in (a, b, c):
        state.step(10)
    assert a.lines == b.lines and a.lines != c.lines


def test_reset_goes_back_to_the_start_and_replays_the_same_game():
    state = StepperState(take_turn, players=2, seed=4, start=3)
    state.step(7)
    first = list(state.lines)
    state.reset()
    assert state.turns_played == 0 and state.lines == [] and state.error is None
    assert state.tokens == {"Player 1": 3, "Player 2": 3} and state.tallies.sum() == 0
    state.step(7)
    assert state.lines == first


@pytest.mark.parametrize(("seed", "players"), [(0, 1), (7, 1), (5, 2)])
def test_tallies_and_tokens_agree_with_the_reference_engine(seed, players):
    """The state plays exactly the reference take_turn with dice seed, decks seed+1, seed+2."""
    state = StepperState(take_turn, players=players, seed=seed)
    state.step(30)
    tokens = [Player(1, name=f"Player {i + 1}") for i in range(players)]
    tracker, dice = SpaceTracker(), RandomDice(seed)
    chance = CardDeck(Rules().chance_deck, seed=seed + 1)
    community = CardDeck(community_deck, seed=seed + 2)
    for turn in range(30):
        take_turn(tokens[turn % players], tracker, dice=dice, chance=chance, community=community)
    pd.testing.assert_series_equal(state.tallies, tracker.counts)
    assert state.tokens == {p.name: p.pos for p in tokens}
    assert [p.in_jail for p in state.players] == [p.in_jail for p in tokens]


def test_used_up_preset_dice_stop_the_turns_and_new_dice_recover():
    state = StepperState(take_turn, preset=[3, 4])
    state.step(10)
    assert state.turns_played == 1
    assert state.error.startswith("Error in take_turn on turn 2 (Player 1): DiceUsedUpError: ")
    assert "preset dice are used up" in state.error
    state.configure(preset=[1, 2, 1, 2])
    assert state.error is None and state.turns_played == 0
    state.step(10)
    assert state.turns_played == 2


def test_an_error_in_take_turn_is_recorded_and_the_game_stays_usable():
    def broken(player, tracker, *, dice, chance, community):
        dice.roll()
        if player.name == "Player 2":
            raise KeyError("oops")
        take_turn(player, tracker, dice=dice, chance=chance, community=community)

    state = StepperState(broken, players=2, seed=2)
    state.step(5)
    message = "Error in take_turn on turn 1 (Player 2): KeyError: 'oops'"
    assert state.turns_played == 1 and state.error == message
    assert state.lines[-3] == "--- Turn 1, Player 2 ---"
    assert state.lines[-2].startswith("Rolled ")  # the narration before the error is kept
    assert state.lines[-1] == "ERROR: " + message
    state.take_turn = take_turn  # the student fixes the code
    state.step(2)
    assert state.turns_played == 3 and state.error is None
    assert headers(state)[-2:] == ["--- Turn 1, Player 2 ---", "--- Turn 2, Player 1 ---"]


def test_a_fixed_take_turn_in_the_notebook_is_picked_up(monkeypatch):
    """Re-running the cell that defines take_turn changes what is played at the next turn."""
    notebook = types.ModuleType("__main__")
    monkeypatch.setitem(sys.modules, "__main__", notebook)
    exec("def take_turn(player, tracker, **decks):\n    raise ValueError('bug')", vars(notebook))
    state = StepperState(notebook.take_turn, seed=1)
    state.step()
    assert state.error.endswith("ValueError: bug")
    vars(notebook)["take_turn"] = take_turn  # the student's fixed definition
    assert state.current_take_turn() is take_turn
    state.step()
    assert state.turns_played == 1 and state.error is None


def test_a_function_from_a_module_is_not_replaced(monkeypatch):
    notebook = types.ModuleType("__main__")
    notebook.take_turn = print
    monkeypatch.setitem(sys.modules, "__main__", notebook)
    assert StepperState(take_turn).current_take_turn() is take_turn


def test_the_log_keeps_the_latest_lines():
    state = StepperState(take_turn, seed=6)
    state.step(150)
    assert len(state.lines) == LOG_LINES and state.turns_played == 150
    assert headers(state)[-1] == "--- Turn 150, Player 1 ---"


def test_the_rules_choose_the_decks():
    state = StepperState(take_turn, rules=Rules(chance="standard", replacement=True))
    assert len(state.chance) == 16 and state.chance.replace and state.community.replace


def test_configure_changes_the_setup_and_starts_again():
    state = StepperState(take_turn, seed=1)
    state.step(3)
    state.configure(players=2, seed=8)
    assert (state.setup.players, state.setup.seed, state.turns_played) == (2, 8, 0)
    assert len(state.players) == 2 and state.setup.start == 1


def test_configure_with_a_bad_value_leaves_the_game_as_it_was():
    state = StepperState(take_turn, seed=1)
    state.step(3)
    before = (state.setup, list(state.lines))
    with pytest.raises(ValueError, match="players must be 1 or 2, got 4"):
        state.configure(players=4)
    with pytest.raises(TypeError, match=r"configure\(\) can change players, seed, .*; got colour"):
        state.configure(colour="red")
    assert (state.setup, state.lines, state.turns_played) == (*before, 3)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(take_turn=None), TypeError, "take_turn must be a function such as .*NoneType"),
        (dict(players=3), ValueError, "players must be 1 or 2, got 3"),
        (dict(players=True), TypeError, "players must be a whole number, got True"),
        (dict(seed=-1), ValueError, "seed must be 0 or more, got -1"),
        (dict(seed=1.5), TypeError, "seed must be a whole number 0 or more, got 1.5"),
        (dict(start=41), ValueError, "start must be a space number from 1 to 40, got 41"),
        (dict(preset=[1, 2, 3]), ValueError, "even number of faces"),
        (dict(preset=[1, 7]), ValueError, "die faces must be from 1 to 6, got 7"),
        (dict(preset="34"), TypeError, "must be a list of die faces"),
        (dict(chance_order=[20]), ValueError, "the Chance deck has cards 1 to 15"),
        (dict(chest_order="12"), TypeError, "chest_order must be a list of card numbers"),
        (dict(rules="lesson"), TypeError, "rules must be a Rules value such as LESSON_RULES"),
    ],
)
def test_bad_inputs_are_explained(kwargs, error, message):
    fn = kwargs.pop("take_turn", take_turn)
    with pytest.raises(error, match=message):
        StepperState(fn, **kwargs)


def test_bad_numbers_of_turns_are_explained():
    state = StepperState(take_turn)
    with pytest.raises(ValueError, match="turns must be 0 or more, got -1"):
        state.step(-1)
    with pytest.raises(TypeError, match="turns must be a whole number, got '3'"):
        state.step("3")
    state.step(0)
    assert state.lines == []


@pytest.mark.parametrize("where", [0, 41, 12.0, "12"])
def test_a_token_left_off_the_board_is_the_students_error_not_a_crash(where):
    def off_the_board(player, tracker, *, dice, chance, community):
        dice.roll()
        player.pos = where

    stepper = TurnStepper(off_the_board, seed=1)
    stepper.step(3)  # no exception out of step()
    state = stepper.state
    assert state.turns_played == 0 and state.players[0].pos == 1, "the token is put back"
    assert f"take_turn left the token on {where!r}, which is not a space" in state.error
    assert "not a space" in stepper.status_view.value, "shown where the student looks"
    assert "Player 1 on Go (1)" in stepper.snapshot_markdown()


def test_a_negative_seed_is_refused():
    with pytest.raises(ValueError, match="seed must be 0 or more, got -1"):
        TurnStepper(take_turn, seed=-1)
