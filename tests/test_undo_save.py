"""A person's game taken back answer by answer, saved to a small file and loaded again.

Every game is replayed exactly by its seed and answers, so undo plays the game again with
fewer answers, and a saved game is those answers and what the game was made of.
"""

from __future__ import annotations

import json

import pytest

from monopoly_lesson.game.stepper import GameStepperState

PLAYERS = ["you", "heuristic", "always", "dealer"]


def played(answers: int, seed: int = 4) -> GameStepperState:
    """A game in which the person has given ``answers`` answers (each the default) and
    the next question is open."""
    state = GameStepperState(PLAYERS, seed=seed, trading=True)
    while state.question is None:
        state.step_turn()
    for _ in range(answers):
        state.answer(state.question.default)
        while state.question is None and not state.over:
            state.step_turn()
    assert state.question is not None, "the game ended before that many answers"
    return state


def seen(state: GameStepperState) -> tuple:
    """What a person sees: the question, the log, the players."""
    question = state.question
    asked = None if question is None else (question.decision, question.text)
    return asked, list(state.lines), state.players().to_dict()


def test_undo_opens_again_the_question_the_last_answer_answered():
    before = played(6)
    after = played(7)
    after.undo()
    assert seen(after) == seen(before)
    assert after.answers == before.answers


def test_undo_of_several_answers_and_of_every_answer():
    state, first = played(9), played(0)
    state.undo(9)
    assert state.given == 0 and seen(state) == seen(first)
    with pytest.raises(ValueError, match="only 0 answers to take back, got 1"):
        state.undo()


def test_after_undo_another_answer_plays_another_game():
    given = next(k for k in range(20) if played(k).question.decision == "buy")
    state = played(given)
    question = state.question
    state.answer(not question.default)
    state.undo()
    assert state.question.text == question.text
    state.answer(question.default)
    assert state.answers_given[-1] is question.default
    assert seen(state) == seen(played(given + 1)) or state.question is None


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        (0, "from 1 up, got 0"),
        (-1, "from 1 up, got -1"),
        ("1", "from 1 up, got '1'"),
        (True, "from 1 up, got True"),
        (99, "only 2 answers to take back, got 99"),
    ],
)
def test_undo_refuses_what_cannot_be_taken_back(answers, message):
    state = played(2)
    with pytest.raises(ValueError, match=message):
        state.undo(answers)
    assert state.given == 2  # nothing was taken back


def test_a_saved_game_loads_where_it_was(tmp_path):
    state = played(8)
    path = state.save(tmp_path / "game.json")
    saved = json.loads(path.read_text())
    assert saved["strategies"] == PLAYERS and saved["seed"] == 4 and saved["trading"] is True
    again = GameStepperState.load(path)
    assert seen(again) == seen(state)
    assert again.answers == state.answers
    again.answer(again.question.default)  # and plays on
    assert again.given == 9 and again.auto >= state.auto


def test_a_saved_trade_and_a_raised_debt_load_as_they_were(tmp_path):
    from monopoly_lesson.game.stepper import decode_answer, encode_answer
    from monopoly_lesson.game.trade import Trade

    for answer in (Trade(2, (7,), (9,), -30), ("mortgage", 19), None, True, 150):
        assert decode_answer(json.loads(json.dumps(encode_answer(answer)))) == answer


def test_what_cannot_be_saved_or_loaded_is_said(tmp_path):
    from monopoly_lesson import make_strategy

    mine = make_strategy("mine", buy=lambda game, me, space: True)
    state = GameStepperState(["you", mine])
    with pytest.raises(ValueError, match="only a game of strategies given by name"):
        state.save(tmp_path / "game.json")
    with pytest.raises(ValueError, match="no such file"):
        GameStepperState.load(tmp_path / "missing.json")
    (tmp_path / "other.json").write_text('{"seed": 1}')
    with pytest.raises(ValueError, match="is not a saved game"):
        GameStepperState.load(tmp_path / "other.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ValueError, match="is not a saved game"):
        GameStepperState.load(tmp_path / "broken.json")


def test_a_saved_game_whose_answers_do_not_fit_is_refused_naming_the_file(tmp_path):
    path = played(3).save(tmp_path / "game.json")
    data = json.loads(path.read_text())
    data["answers"][0] = "maybe"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"game.json: answers\[0\], 'maybe', does not answer"):
        GameStepperState.load(path)


def test_undo_skips_the_answers_the_plan_gave():
    state = played(6)
    assert state.auto, "the plan answered some questions (no trade, no building)"
    given, last = state.given, max(set(range(len(state.answers))) - state.auto)
    state.undo()
    assert state.given == given - 1 and len(state.answers) == last  # back to the person's


def test_a_saved_game_keeps_which_answers_were_the_plans(tmp_path):
    state = played(8)
    saved = json.loads(state.save(tmp_path / "game.json").read_text())
    assert saved["auto"] == sorted(state.auto) and saved["open"] is True
    again = GameStepperState.load(tmp_path / "game.json")
    assert again.auto == state.auto and again.given == state.given == 8
    again.undo(2)
    assert again.given == 6 and seen(again) == seen(played(6))


def test_a_game_saved_by_the_first_layout_still_loads(tmp_path):
    state = GameStepperState(PLAYERS, seed=4, trading=True, plans=False)
    while state.question is None:
        state.step_turn()
    for _ in range(5):
        state.answer(state.question.default)
        while state.question is None:
            state.step_turn()
    data = json.loads(state.save(tmp_path / "game.json").read_text())
    old = {key: data[key] for key in ("strategies", "seed", "max_rounds", "trading", "answers")}
    (tmp_path / "old.json").write_text(json.dumps({"saved": "monopoly-lesson game 1", **old}))
    again = GameStepperState.load(tmp_path / "old.json")
    assert again.answers == state.answers and again.given == 5  # every answer the person's
    assert again.game.state.ledger == state.game.state.ledger
