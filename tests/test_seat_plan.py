"""A person asked as a player decides: the seat's plan answers the routine questions.

The engine asks a person's seat every question it asks a strategy; the plan
(:class:`~monopoly_lesson.game.seat_plan.SeatPlan`) puts to the person the decisions a
person makes (buy, bid, jail, debts, offers), a trade and a turn's building when asked for
or newly possible, and answers the rest. The rules are unchanged: the answers the game took
replay the same game where every question is asked.
"""

from __future__ import annotations

import io
import re
import statistics

import pytest

from monopoly_lesson.cli import main
from monopoly_lesson.game.person import plan_steps
from monopoly_lesson.game.stepper import GameStepperState
from monopoly_lesson.game.terminal import answer_text

FIELD = ["you", "ega_trading", "always", "heuristic"]


def by_defaults(state: GameStepperState, stop: str | None = None) -> GameStepperState:
    """Answer every question with its default until the game ends (or ``stop`` is asked)."""
    if state.question is None and not state.over:
        state.play_to_end()
    while state.question is not None and state.question.decision != stop:
        state.answer(state.question.default)
        if state.question is None and not state.over:
            state.play_to_end()
    return state


@pytest.fixture(scope="module")
def planned() -> dict[int, GameStepperState]:
    return {
        seed: by_defaults(GameStepperState(FIELD, seed=seed, trading=True)) for seed in range(4)
    }


def test_a_typical_game_asks_at_most_40_questions(planned):
    asked = [state.given for state in planned.values()]
    every = [
        by_defaults(GameStepperState(FIELD, seed=seed, trading=True, plans=False)).given
        for seed in planned
    ]
    assert statistics.median(asked) <= 40, asked
    assert sum(every) >= 2 * sum(asked), (every, asked)


def test_the_plan_changes_no_rule_the_answers_replay_with_every_question_asked(planned):
    for seed, state in planned.items():
        again = GameStepperState(FIELD, seed=seed, trading=True, plans=False, answers=state.answers)
        again.play_to_end()
        assert again.question is None and again.game.over
        assert again.game.state.ledger == state.game.state.ledger
        assert again.given == len(state.answers) > state.given  # the plan's answers, asked


def first_plan(seed: int = 3) -> GameStepperState:
    state = by_defaults(GameStepperState(FIELD, seed=seed, trading=True), stop="build_plan")
    assert state.question is not None and state.question.decision == "build_plan"
    return state


def test_a_building_plan_is_checked_as_a_whole_by_the_rules():
    state = first_plan()
    question = state.question
    lots = sorted(question.choices)
    cash = question.game.player(question.seat).cash
    assert question.why_not({lots[0]: 2}).startswith("its building number 2")
    assert "building must be even" in question.why_not({lots[0]: 2})
    assert "costs $" in question.why_not({s: 5 for s in lots}) or cash >= 5 * 200 * len(lots)
    assert "is not yours" in question.why_not({2: 1}) or "nothing is built" in question.why_not(
        {2: 1}
    )
    assert "maps each lot" in question.why_not([lots[0]])
    assert question.why_not(None) is None and question.check(None) == {}
    even = {s: 1 for s in lots}
    steps = plan_steps(question, even)
    assert sorted(steps) == lots  # one building on each, the rules' order


def test_a_plan_answers_the_turns_successive_questions_and_is_taken_back_whole():
    state = first_plan()
    question, game = state.question, state.game.state
    plan = question.default or {s: 1 for s in question.choices}
    before = {s: game.lots[s].buildings for s in plan}
    given, answers = state.given, len(state.answers)
    steps = [*plan_steps(question, plan), None]  # each building, then done
    state.answer(plan)
    added = {s: game.lots[s].buildings - before[s] for s in plan}
    assert added == plan and state.given == given + 1
    assert state.answers[answers : answers + len(steps)] == steps
    assert set(range(answers + 1, answers + len(steps))) <= state.auto  # the plan's
    state.undo()
    assert state.question.decision == "build_plan" and state.given == given
    assert {s: state.game.state.lots[s].buildings for s in plan} == before


def test_asking_for_a_trade_asks_once_at_the_turns_end():
    state = GameStepperState(FIELD, seed=1, trading=True)
    state.turn_end.add("propose_trade")
    by_defaults(state, stop="propose_trade")
    assert state.question is not None and state.turn_end == set()
    assert state.question.game.player(1).seat == state.game.state.turn  # the person's turn
    state.answer(None)
    by_defaults(state)
    trades = [k for k, a in enumerate(state.answers) if k not in state.auto and a is None]
    assert state.game.over and len(trades) >= 1


def test_an_offer_no_better_than_one_refused_is_refused_without_asking():
    state = GameStepperState(["you", "dealer", "league", "heuristic"], seed=6, trading=True)
    state.play_to_end()
    offers = 0
    while state.question is not None:
        offers += state.question.decision == "accept_trade"
        state.answer(False if state.question.decision == "accept_trade" else state.question.default)
        if state.question is None and not state.over:
            state.play_to_end()
    again = [line for line in state.lines if "refused again without asking" in line]
    assert again and offers <= 10  # the dealer offers for the same lot every turn


def play(capsys, monkeypatch, typed: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


TERMINAL = ("--you", "1", "--strategy", "ega_trading,always,heuristic", "--trading")


def test_a_whole_game_in_the_terminal_with_the_coach_a_take_back_and_a_trade(capsys, monkeypatch):
    typed = "c\n\n\nu\n\nt\n" + "\n" * 120
    status, out, err = play(capsys, monkeypatch, typed, *TERMINAL, "--seed", "3")
    assert status == 0 and "wins" in out and not err, err[-300:]
    assert re.search(r"> c\nCoach \(200 play-outs of each choice", out)
    assert "Taken back: 'y'. The game is played again to that question." in out
    assert "You will be asked for a trade to propose at your turn's end." in out
    after_t = out.split("> t\n")[1]
    assert "Propose a trade (proposal 1 of" in after_t
    prompts = len(re.findall(r"\[Enter: [^\]]*, \?: help\] > ", out))
    assert prompts <= 60, prompts  # a whole game, every question and command


def test_a_building_plan_typed_in_the_terminal(capsys, monkeypatch):
    state = first_plan()
    lots = sorted(state.question.choices)
    answers = [answer_text(state.question, a) for a in state.answers_given]  # as typed
    typed = ";".join(answers)
    plan = ", ".join(f"{s}x1" for s in lots)
    _, out, _ = play(
        capsys, monkeypatch, f"{lots[0]}x2\n{plan}\n", *TERMINAL, "--seed", "3", "--answers", typed
    )
    said = " ".join(out.split())  # as read: lines wrap at the terminal's width
    assert "Not allowed: its building number 2" in said and "building must be even" in said
    built = [line for line in out.splitlines() if "builds a house on" in line]
    assert len(built) >= len(lots), out[-2000:]


def test_the_coach_at_a_building_plan_weighs_the_turns_first_building():
    from monopoly_lesson.game.coach import coach_stepper

    state = first_plan()
    coaching = coach_stepper(state, playouts=20)
    assert coaching.decision == "build" and coaching.choices == state.asked_for.choices
    assert state.question.decision == "build_plan"  # nothing changed in the game
