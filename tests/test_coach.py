"""The coach: each choice at a person's question played on many times, from the question.

The estimates are seeded; the play-outs start from the choice (a lot that completes a
group, bought or not, makes all the difference); the game being coached is left exactly
as it was; both engines estimate alike; what the coach cannot take is refused, saying
what it takes.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from monopoly_lesson.game.coach import (
    MAX_CHOICES,
    PLAYOUTS,
    Coaching,
    coach,
    coach_stepper,
    coach_text,
    stand_in_strategy,
)
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.person import Question, You
from monopoly_lesson.game.plugins import make_strategy
from monopoly_lesson.game.state import GROUP, GROUP_SPACES, PRICE
from monopoly_lesson.game.stepper import GameStepperState
from monopoly_lesson.game.strategies import DECISIONS
from monopoly_lesson.starter import CardDeck, community_deck

FIELD = ["always", "heuristic", "random:0.5"]
"""The person's opponents, seats 2 to 4."""
COMPLETES = (74, 7)
"""Seed 74: the person's 8th question (answers 0 to 6 before it) is to buy Oriental Avenue
(7), the last light-blue lot the person lacks, in round 7."""


def at_question(seed, index, ask, strategies=FIELD, person=1, **options):
    """Play the game of ``seed`` with a person answering the defaults; at question
    ``index`` (a number, or the first of a decision) call ``ask(game, question, answers)``;
    return what it returned."""
    answers, asked = [], []

    def answer(question):
        here = question.decision == index if isinstance(index, str) else len(answers) == index
        if here and not asked:
            asked.append(ask(game, question, list(answers)))
        answers.append(question.default)
        return question.default

    seats = list(strategies)
    seats.insert(person - 1, You(answer=answer))
    game = MonopolyGame(seats, seed=seed, **options)
    while not game.over and not asked:
        game.play_turn()
    return asked[0]


def completes_a_group(game, question):
    """Whether ``question`` is to buy the last lot of a colour group the person lacks."""
    others = [s for s in GROUP_SPACES[GROUP[question.space]] if s != question.space]
    return question.decision == "buy" and all(
        question.game.lots[s].owner == question.seat for s in others
    )


def test_buying_the_lot_that_completes_a_group_wins_more_beyond_the_intervals():
    """With a stand-in that buys nothing more (``never``, which still builds), buying the
    last light-blue lot wins most play-outs, and declining it (it is auctioned, and the
    stand-in bids nothing) almost none: the play-outs start from the choice."""

    def ask(game, question, answers):
        assert completes_a_group(game, question), "the scenario's premise"
        return coach(game, question, answers, stand_in="never")

    coaching = at_question(*COMPLETES, ask)
    assert coaching.choices == (True, False) and coaching.playouts == PLAYOUTS
    low, high = coaching.intervals
    assert low[0] > high[1] and coaching.chances[0] > 0.7 and coaching.chances[1] < 0.1
    assert coaching.stand_in == "never" and coaching.stand_in_answer is False
    assert coaching.engine == "fast" and coaching.note == ""


def test_the_estimates_are_seeded():
    def ask(game, question, answers):
        return [coach(game, question, answers, playouts=60, seed=seed) for seed in (5, 5, 6)]

    first, again, other = at_question(20, 8, ask)
    assert first == again
    assert first.wins != other.wins and first.seed == 5 and other.seed == 6


def test_a_bid_is_played_at_a_few_amounts_up_to_the_cash_with_the_stand_in_s():
    def ask(game, question, answers):
        return question, coach(game, question, answers, playouts=10)

    question, coaching = at_question(0, "bid", ask, ["ega_trading", "always", "heuristic"])
    price, cash, bid = PRICE[question.space], question.choices[-1], coaching.stand_in_answer
    assert coaching.stand_in == "league" and bid not in (0, price // 2, price, price * 3 // 2)
    amounts = {0, price // 2, price, price * 3 // 2, bid}
    assert coaching.choices == tuple(sorted(min(amount, cash) for amount in amounts))
    assert coaching.labels[0] == "No bid" and f"Bid ${price}" in coaching.labels


def test_the_coached_game_is_the_game_without_the_coach():
    """Coached at every one of its first questions, a game plays on exactly as without:
    the same answers asked, the same ledger, the same result."""

    def play(coached):
        answers, questions = [], []

        def answer(question):
            if coached and len(answers) < 12:
                coach(game, question, list(answers), playouts=3, seed=len(answers))
            questions.append(question.text)
            answers.append(question.default)
            return question.default

        game = MonopolyGame(
            [You(answer=answer), "ega_trading", "always", "heuristic"], seed=3, trading=True
        )
        result = game.play()
        return str(result), result.net_worth, list(game.state.ledger), questions, answers

    assert play(coached=True) == play(coached=False)


def test_the_reference_engine_plays_on_for_a_strategy_the_compiled_one_cannot():
    mine = make_strategy("mine", buy=lambda game, me, space: me.cash > 400)

    def ask(game, question, answers):
        coaching = coach(game, question, answers, playouts=8)
        with pytest.raises(ValueError, match="engine='fast' cannot play this game: P3 mine"):
            coach(game, question, answers, playouts=8, engine="fast")
        return coaching

    coaching = at_question(20, 3, ask, ["always", mine, "heuristic"])
    assert coaching.engine == "reference" and coaching.playouts == 8 // 4
    assert "P3 mine is not a strategy the compiled engine plays" in coaching.note
    assert "(the reference engine, 2 play-outs of each choice" in coaching.describe()


def test_both_engines_estimate_alike():
    """The same question played on by the reference engine after the question's turn, and
    by the compiled one: each choice's intervals overlap."""

    def ask(game, question, answers):
        options = dict(stand_in="never", playouts=120)
        return [coach(game, question, answers, engine=e, **options) for e in ("fast", "reference")]

    fast, reference = at_question(*COMPLETES, ask)
    assert reference.engine == "reference" and reference.playouts == 120
    for k in range(2):
        assert fast.intervals[0][k] <= reference.intervals[1][k]
        assert reference.intervals[0][k] <= fast.intervals[1][k]


def test_the_words_say_each_choice_s_chance_and_what_the_stand_in_would_do():
    coaching = Coaching(
        decision="buy",
        choices=(True, False),
        labels=("Buy", "Do not buy"),
        wins=(62, 48),
        playouts=200,
        stand_in="league",
        stand_in_answer=True,
        stand_in_label="Buy",
        stand_in_share=1.0,
        engine="fast",
        note="",
        seed=0,
    )
    assert coaching.describe() == (
        "Buy: you win 31% (25% to 38%) of 200 play-outs; Do not buy: 24% (19% to 30%). "
        "The league player would buy."
    )
    table = coaching.table()
    assert list(table["choice"]) == ["Buy", "Do not buy"]
    assert table["win_chance"].tolist() == [0.31, 0.24]


def test_every_decision_is_coached_with_at_most_a_few_choices():
    asked = {}

    def answer(question):
        if question.decision not in asked:
            coaching = coach(game, question, list(answers), playouts=2)
            assert 1 <= len(coaching.choices) <= MAX_CHOICES
            assert set(coaching.choices) <= set(question.choices)
            assert all(0 <= wins <= 2 for wins in coaching.wins)
            asked[question.decision] = coaching
        choices = list(question.choices)[:40]
        value = choices[rng.integers(len(choices))]
        answers.append(value)
        return value

    for seed in range(8):
        rng, answers = np.random.default_rng(seed), []
        game = MonopolyGame(
            [You(answer=answer), "ega_trading", "always", "heuristic"], seed=seed, trading=True
        )
        game.play()
    assert set(asked) == set(DECISIONS)


def test_the_widget_s_state_is_coached_and_left_as_it_was():
    def stepper():
        state = GameStepperState(["you", *FIELD], seed=COMPLETES[0])
        while len(state.answers) < COMPLETES[1] or state.question is None:
            if state.question is not None:
                state.answer(state.question.default)
            else:
                state.step_turn()
        return state

    coached, plain = stepper(), stepper()
    question, lines = coached.question, list(coached.lines)
    coaching = coach_stepper(coached, playouts=20, stand_in="never")
    assert coaching.decision == "buy" and coaching.chances[0] > coaching.chances[1]
    assert coached.question is question and coached.lines == lines
    for state in (coached, plain):
        state.answer(True)
        while not state.over:
            if state.question is not None:
                state.answer(state.question.default)
            else:
                state.play_to_end()
    assert coached.lines == plain.lines and coached.answers == plain.answers


def test_the_terminal_s_words_say_why_the_coach_cannot_help():
    def ask(game, question, answers):
        return coach_text(game, question, answers[:-1])  # an answer missing: not this game

    text = at_question(20, 3, ask)
    assert text.startswith("The coach cannot help here: the coach")


# ---------------------------------------------------------------------------
# What the coach refuses
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def open_question():
    """A game stopped at a person's buy question, the question and the answers before."""
    found = at_question(20, 8, lambda game, question, answers: (game, question, answers))
    assert found[1].decision == "buy"
    return found


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        (dict(playouts=0), ValueError, "playouts must be at least 1"),
        (dict(playouts=2.5), TypeError, "playouts must be a whole number"),
        (dict(stand_in="nobody"), ValueError, "stand_in .* one of league, .*dealer"),
        (dict(stand_in="you"), ValueError, "stand_in plays your seat"),
        (dict(stand_in=You()), ValueError, "stand_in plays your seat"),
        (dict(stand_in=42), TypeError, "stand_in: a strategy must be"),
        (dict(engine="gpu"), ValueError, "engine must be one of 'auto', 'fast', 'reference'"),
        (dict(seed=-1), ValueError, "seed"),
        (dict(choices=[]), ValueError, "choices must be a non-empty list"),
        (dict(choices=["maybe"]), ValueError, "True or False"),
    ],
)
def test_bad_options_are_refused_saying_what_is_allowed(open_question, options, error, words):
    game, question, answers = open_question
    with pytest.raises(error, match=words):
        coach(game, question, answers, **options)


def test_a_question_without_choices_or_not_of_the_game_is_refused(open_question):
    game, question, answers = open_question
    empty = Question("build", question.seat, "Build?", (), None, question.game)
    with pytest.raises(ValueError, match="has no choices: the coach needs at least one"):
        coach(game, empty, answers)
    elsewhere = Question("buy", 9, "Buy?", (True, False), True, question.game, space=12)
    with pytest.raises(ValueError, match="seat, 9, is not a seat of the game"):
        coach(game, elsewhere, answers)
    with pytest.raises(TypeError, match="game must be a MonopolyGame"):
        coach("game", question, answers)
    with pytest.raises(TypeError, match="question must be a person's Question"):
        coach(game, "buy?", answers)
    with pytest.raises(TypeError, match="answers must be the list"):
        coach(game, question, "y;n")


def test_a_game_that_does_not_replay_to_its_question_is_refused(open_question):
    game, question, answers = open_question
    with pytest.raises(RuntimeError, match=r"does not replay|met another question"):
        coach(game, question, [not a if isinstance(a, bool) else a for a in answers])


def test_a_game_with_two_people_is_refused():
    def ask(game, question, answers):
        with pytest.raises(ValueError, match="one person at the table, but seats 1, 3"):
            coach(game, question, answers)
        return True

    other = You(answer=lambda question: question.default)
    assert at_question(1, 0, ask, ["always", other, "heuristic"])


def test_the_coach_s_widget_entry_wants_a_stepper_at_a_question():
    with pytest.raises(TypeError, match="GameStepperState"):
        coach_stepper(object())
    with pytest.raises(ValueError, match="no question is open"):
        coach_stepper(GameStepperState(["you", "always"]))


def test_the_default_stand_in_is_the_league_player():
    assert stand_in_strategy().name == "league"
    assert stand_in_strategy("dealer").name == "dealer"
    assert re.search("random", stand_in_strategy("random:0.5").name)


def test_a_deck_is_restacked_only_with_the_cards_it_has_still_to_deal():
    deck = CardDeck(community_deck, seed=1)
    deck.draw()
    left = deck.to_deal
    deck.restack(left[::-1])
    assert deck.to_deal == left[::-1] and deck.draw() == left[-1]
    with pytest.raises(ValueError, match="restack takes the cards still to deal"):
        deck.restack([*deck.to_deal, deck.to_deal[0]])
