"""The game widget: its state steps a whole game, its view draws it, a failing strategy
is shown and the widget survives (no browser needed; the browser tests click it too)."""

from __future__ import annotations

import asyncio
import collections
import html
import random
import re
from pathlib import Path

import ipywidgets as widgets
import nbformat
import pytest

from monopoly_lesson import take_turn
from monopoly_lesson.game.person import PLANS
from monopoly_lesson.game.plugins import make_strategy
from monopoly_lesson.game.stepper import GameStepperState
from monopoly_lesson.game.strategies import DECISIONS
from monopoly_lesson.game.trade import Trade
from monopoly_lesson.game.widget import SETTLE_SECONDS, TURN_END_TOGGLES, GameStepper
from monopoly_lesson.starter import space_name
from monopoly_lesson.widgets import FOCUS_RING, ICON_CHARACTERS, TurnStepper


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


# -- a person at the table: the question and its controls ----------------------------

FIELD = ["you", "ega_trading"]
CONTROLS = (
    *("yes", "no", "bid", "no-bid", "choose", "no-trade", "swap", "propose"),
    *("build-plan", "lift-plan", "no-plan"),
)
"""The CSS names of the controls that answer the person's questions."""


def shown(widget) -> bool:
    return widget.layout.display != "none"


def words(page: str) -> str:
    """The text a reader sees in HTML: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


class Clicker:
    """A person playing by clicks, seeded: a button for each question, a value set first
    where the control takes one; once each, an illegal bid and an empty trade (refused,
    the question left open) and a trade of its own from the form."""

    def __init__(self, stepper: GameStepper, seed: int) -> None:
        self.stepper, self.rng = stepper, random.Random(seed)
        self.used: collections.Counter = collections.Counter()
        self.asked: collections.Counter = collections.Counter()
        self.refused: list[str] = []
        self.form_trades = 0
        self.last = None

    def play(self) -> None:
        """Click "To the end", then answer every question until the game is over; now and
        then ask, at the turn's end, for a trade, a building or a lift."""
        stepper = self.stepper
        stepper.to_end.click()
        while stepper.state.question is not None:
            self.answer_one()
            stepper.state.game.state.check()
            toggles = stepper.turn_end_boxes
            if self.rng.random() < 0.15:
                toggles[self.rng.choice(sorted(toggles))].value = True
            if stepper.state.question is None and not stepper.state.over:
                stepper.to_end.click()

    def answer_one(self) -> None:
        stepper, rng = self.stepper, self.rng
        question = stepper.state.question
        if question is not self.last:  # asked again after a refused answer: the same one
            self.asked[question.decision] += 1
        self.last = question
        assert question.text in words(stepper.question_view.value)
        assert all(b.disabled for b in (stepper.one_turn, stepper.one_round, stepper.to_end))
        decision = question.decision
        if decision in ("buy", "leave_jail", "accept_trade"):
            button = stepper.yes_button if rng.random() < 0.6 else stepper.no_button
        elif decision == "bid":
            if not self.refused_once("bid", stepper.bid_box, question.choices[-1] + 1):
                return
            button = stepper.no_bid_button
            if rng.random() < 0.7:
                stepper.bid_box.value = rng.randrange(question.choices[-1] + 1)
                button = stepper.bid_button
        elif decision == "build_plan":
            button = stepper.no_plan_button
            if question.default and rng.random() < 0.7:  # the default's plan, typed in
                for space, count in question.default.items():
                    stepper.plan_boxes[space].value = count
                button = stepper.plan_button
        elif decision == "lift_plan":
            button = stepper.no_plan_button
            if rng.random() < 0.5:
                stepper.lift_select.value = (question.choices[0],)
                button = stepper.plan_button
        elif decision in ("build", "lift", "raise_cash"):
            button = stepper.choose_button
            if stepper.done_button is not None and rng.random() < 0.4:
                button = stepper.done_button
            else:
                stepper.chooser.value = rng.choice(stepper.chooser.options)[1]
        else:
            button = self.proposal(question)
            if button is None:
                return
        self.used[button._dom_classes[-1].removeprefix("game-stepper-")] += 1
        button.click()
        assert stepper.refused is None and stepper.state.question is not question

    def refused_once(self, kind: str, box, value: int) -> bool:
        """The first time: an illegal value is refused, shown, and the question stays."""
        if kind in self.refused:
            return True
        stepper = self.stepper
        question, lines = stepper.state.question, len(stepper.state.lines)
        box.value = value
        (stepper.bid_button if kind == "bid" else stepper.propose_button).click()
        assert stepper.state.question is question and len(stepper.state.lines) == lines
        assert "Not taken" in stepper.status_view.value and stepper.refused
        answer = value if kind == "bid" else Trade(1 + question.seat % 2, cash=value)
        assert question.why_not(answer) in words(stepper.status_view.value)
        self.refused.append(kind)
        return False

    def proposal(self, question):
        """No trade, mostly; a completion swap now and then; once, an empty form (refused)
        and a trade of one lot for one from the form."""
        stepper = self.stepper
        if stepper.swaps.children and self.rng.random() < 0.5:
            return stepper.swaps.children[0]
        if stepper.give_box.options and stepper.take_box.options and not self.form_trades:
            if not self.refused_once("trade", stepper.cash_box, 0):  # no lots: refused
                return None
            stepper.give_box.value = (stepper.give_box.options[0][1],)
            stepper.take_box.value = (stepper.take_box.options[-1][1],)
            stepper.cash_box.value = 10
            self.form_trades += 1
            return stepper.propose_button
        return stepper.no_trade_button


SEED = 0
"""A game of :data:`FIELD` in which :class:`Clicker` meets every decision and control."""


def test_a_person_plays_a_whole_game_by_clicks_through_every_control():
    stepper = GameStepper(FIELD, seed=SEED, trading=True)
    clicker = Clicker(stepper, SEED)
    clicker.play()
    state = stepper.state
    assert state.game.over and state.error is None and state.question is None
    assert set(clicker.asked) == set(DECISIONS) - {"build", "lift"} | set(PLANS.values())
    assert set(clicker.used) == set(CONTROLS) and clicker.refused == ["bid", "trade"]
    assert sum(clicker.asked.values()) == state.given == stepper.asked
    made = [p.trade for p in state.game.state.proposals if p.proposer == 1]
    assert made == [a for a in state.answers if isinstance(a, Trade)] and made
    assert not any(b.disabled for b in (stepper.one_turn, stepper.one_round, stepper.to_end))
    assert not shown(stepper.question_box) and "Over after" in stepper.status_view.value
    replay = GameStepperState(FIELD, seed=SEED, trading=True, answers=state.answers)
    replay.play_to_end()  # the answers given by clicks replay the same game
    assert replay.question is None and replay.game.over and replay.lines == state.lines
    assert replay.game.result().finish_order == state.game.result().finish_order


def labels_shown(box) -> set[str]:
    """The labels of the buttons shown in ``box`` and the boxes in it."""
    if not shown(box):
        return set()
    if isinstance(box, widgets.Button):
        return {box.description}
    return set().union(*(labels_shown(child) for child in getattr(box, "children", ())))


DEFAULTS_SEED = 8
"""A game of :data:`FIELD` in which the rules' defaults, as answers, meet every decision."""


def first_question(decision: str, seed: int = DEFAULTS_SEED) -> GameStepper:
    """A widget of :data:`FIELD` stopped at the person's first ``decision`` (earlier
    questions answered with the rules' defaults); a ``build`` or ``lift`` question is one of
    a game that asks every question (no plans)."""
    plans = decision not in ("build", "lift")
    stepper = GameStepper(FIELD, seed=seed, trading=True, plans=plans)
    return by_defaults(stepper, lambda state: state.question.decision == decision)


def by_defaults(stepper: GameStepper, stop) -> GameStepper:
    """``stepper`` played on by To the end, each question answered with the rules' default,
    until ``stop(stepper.state)`` holds at a question."""
    stepper.to_end.click()
    while not stop(stepper.state):
        stepper.state.answer(stepper.state.question.default)
        if stepper.state.question is None:
            stepper.to_end.click()
    stepper.redraw()
    return stepper


@pytest.mark.parametrize(
    ("decision", "labels"),
    [
        ("buy", ("Buy", "Do not buy")),
        ("bid", ("No bid",)),
        ("leave_jail", ("Pay $50 or Use the card", "Stay")),
        ("build", ("Build", "Stop building")),
        ("build_plan", ("Build", "No building")),
        ("propose_trade", ("No trade",)),  # Propose: in the form, folded till opened
        ("accept_trade", ("Accept", "Refuse")),
    ],
)
def test_a_question_shows_its_words_and_only_its_controls(decision, labels):
    stepper = first_question(decision)
    question = stepper.state.question
    assert question.text in words(stepper.question_view.value)
    assert f'data-decision="{decision}"' in stepper.question_view.value
    assert stepper.question_box.children == (
        stepper.question_view,
        stepper.facts_view,
        stepper.controls,
        stepper.coach_view,
    )
    if decision == "leave_jail":  # the way out the person has
        card = question.game.player(question.seat).jail_cards
        labels = ("Use the card" if card else "Pay $50", "Stay")
    if decision == "bid":  # the bid button says the bid it gives
        labels = (f"Bid ${question.default:,}", *labels)
    assert set(labels) <= labels_shown(stepper.controls)
    assert stepper.one_turn.disabled and stepper.to_end.disabled and not stepper.new_game.disabled
    with pytest.raises(RuntimeError, match="answer it first"):
        stepper.state.step_turn()  # the state refuses a step too, not only the buttons
    seat = 'class="game-stepper-you"'
    assert (
        stepper.players_view.value.count(seat) == 1 and "&#9733; you" in stepper.players_view.value
    )


def test_the_chooser_holds_the_legal_choices_in_words():
    stepper = first_question("build")
    question = stepper.state.question
    assert [value for _, value in stepper.chooser.options] == list(question.choices[:-1])
    assert [label for label, _ in stepper.chooser.options] == [
        question.describe(c) for c in question.choices[:-1]
    ]
    assert stepper.chooser.value == question.choices[0]  # never a blank choice (Done)
    stepper.choose_button.click()
    assert stepper.refused is None and stepper.state.answers_given[-1] == question.choices[0]


def test_the_bid_box_shows_the_legal_range_and_refuses_outside_it():
    stepper = first_question("bid")
    question = stepper.state.question
    cash = question.choices[-1]
    assert stepper.bid_box.value == question.default
    assert f"${cash:,}" in words(stepper.bid_range.value)
    stepper.bid_box.value = -1
    stepper.bid_button.click()
    assert stepper.state.question is question
    assert "a bid must be from $0 to your cash" in words(stepper.status_view.value)
    stepper.no_bid_button.click()
    assert stepper.refused is None and stepper.state.answers_given[-1] == 0
    assert "Not taken" not in stepper.status_view.value


def trade_question() -> GameStepper:
    """A widget of three players stopped at a trade question of the person's, when the
    third player owns lots to trade."""
    stepper = GameStepper(["you", "always", "ega_trading"], seed=2, trading=True)
    return by_defaults(
        stepper,
        lambda state: (
            state.question.decision == "propose_trade" and state.game.state.player(3).lots
        ),
    )


def test_the_trade_form_offers_the_lots_each_side_may_trade():
    stepper = trade_question()
    game = stepper.state.game.state
    assert [seat for _, seat in stepper.partner_box.options] == [2, 3]
    assert {s for _, s in stepper.give_box.options} <= game.player(1).lots
    stepper.partner_box.value = 3
    assert {s for _, s in stepper.take_box.options} <= game.player(3).lots
    assert stepper.take_box.options  # the partner's lots, when the partner changes
    stepper.no_trade_button.click()
    assert stepper.state.answers_given[-1] is None and stepper.refused is None


def test_a_snapshot_with_a_question_open_has_the_question_and_its_choices():
    stepper = first_question("buy")
    question = stepper.state.question
    bundle = stepper._repr_mimebundle_()
    markdown = re.sub(r"<span>\\\$([\d,]+)</span>", r"$\1", bundle["text/markdown"])
    assert question.text in markdown and "Choices: Buy; Do not buy" in markdown
    prose = bundle["text/markdown"].split("```")[0]  # amounts as the chapters write them
    assert re.sub(r"<span>\\\$[\d,]+</span>", "", prose).count("$") == 0
    page = bundle["text/html"]
    assert question.text in words(page) and "Choices: Buy; Do not buy" in page
    # the board is a picture, which a notebook opened untrusted shows (it strips <svg>)
    assert "<svg" not in page and page.count('<img class="monopoly-board"') == 1
    outside_the_log = re.sub(r"<pre.*?</pre>", "", page, flags=re.DOTALL)
    texts = re.split(r"<[^>]+>", outside_the_log)  # MathJax pairs $ only within one
    assert all(text.count("$") <= 1 for text in texts) and "$1,500" in words(page)
    assert question.text in bundle["text/plain"] and "Run this notebook" in bundle["text/plain"]
    assert "<svg" in bundle["image/svg+xml"]
    plain = GameStepper(["always", "ega_trading"], seed=SEED)._repr_mimebundle_()
    assert (
        "Choices" not in plain["text/markdown"]
        and "game-stepper-question" not in plain["text/html"]
    )


def test_a_new_game_while_a_question_is_open_starts_afresh():
    stepper = first_question("build")
    assert stepper.asked > 1
    stepper.seed_box.value = 1
    stepper.new_game.click()
    assert stepper.state.question is None and not shown(stepper.question_box)
    assert not stepper.to_end.disabled and stepper.state.status().startswith("Round 1:")
    stepper.to_end.click()
    assert stepper.state.question is not None and stepper.asked == 1
    assert 'data-number="1"' in stepper.question_view.value


def test_a_widget_replays_a_game_from_its_answers():
    stepper = GameStepper(FIELD, seed=SEED, trading=True)
    clicker = Clicker(stepper, SEED)
    stepper.to_end.click()
    for _ in range(5):
        clicker.answer_one()
        if stepper.state.question is None:
            stepper.to_end.click()
    answers = stepper.state.answers
    again = GameStepper(FIELD, seed=SEED, trading=True, answers=answers)
    again.to_end.click()  # the given answers are not asked again
    assert again.state.answers == answers and again.asked == len(answers) + 1
    assert f'data-number="{len(answers) + 1}"' in again.question_view.value
    assert again.state.question.text == stepper.state.question.text


# -- a click answers the question it was shown for, with the value it shows ----------


@pytest.mark.parametrize(
    ("decision", "button"),
    [
        ("buy", "yes_button"),
        ("bid", "bid_button"),
        ("leave_jail", "no_button"),
        ("build", "choose_button"),
        ("build_plan", "plan_button"),
        ("lift_plan", "no_plan_button"),
        ("raise_cash", "choose_button"),
        ("propose_trade", "no_trade_button"),
        ("accept_trade", "yes_button"),
    ],
)
def test_a_second_click_on_an_answered_question_does_nothing(decision, button):
    """A double-click's second click meets the answered question's button: each question
    has controls of its own, and an answered question's do nothing."""
    stepper = first_question(decision)
    clicked, answers = getattr(stepper, button), stepper.state.given
    clicked.click()
    following = stepper.state.question
    clicked.click()  # the second click of a double-click
    assert stepper.state.given == answers + 1 and stepper.state.question is following
    assert stepper.refused is None
    if following is not None:  # the next question has controls of its own
        assert clicked not in _buttons(stepper.controls)


def _buttons(box) -> list:
    if isinstance(box, widgets.Button):
        return [box]
    return [b for child in getattr(box, "children", ()) for b in _buttons(child)]


def test_a_click_on_a_stepping_button_while_a_question_is_open_waits():
    stepper = first_question("buy")
    question, lines = stepper.state.question, list(stepper.state.lines)
    stepper.to_end.click()  # a double-click's second, before the button greys
    assert stepper.state.question is question and stepper.state.lines == lines


def test_the_bid_button_says_the_bid_it_gives():
    stepper = first_question("bid")
    stepper.bid_box.value = 57  # as the box sends each digit typed
    assert stepper.bid_button.description == "Bid $57"
    stepper.bid_button.click()
    assert stepper.state.answers_given[-1] == 57


def test_a_new_questions_buttons_wait_before_they_take_a_click():
    """In a kernel (an event loop runs), a new question's buttons and New game are greyed
    for SETTLE_SECONDS, longer than a double-click, then released."""

    async def play() -> None:
        stepper = GameStepper(FIELD, seed=DEFAULTS_SEED, trading=True)
        stepper.to_end.click()
        held = [*_buttons(stepper.controls), stepper.new_game]
        assert held and all(button.disabled for button in held)
        await asyncio.sleep(SETTLE_SECONDS + 0.2)
        assert not any(button.disabled for button in held)

    asyncio.run(play())


def test_an_answered_questions_controls_are_closed_at_the_question_after():
    """Kept for one more question (a late click on them does nothing, quietly), then
    closed with everything in them."""
    stepper = first_question("build")
    first = stepper.controls
    for kept in (True, False):
        stepper.state.answer(stepper.state.question.default)
        if stepper.state.question is None:
            stepper.to_end.click()
        stepper.redraw()
        assert all((b.comm is not None) == kept for b in _buttons(first))
    assert first.comm is None


def test_chapter_11s_your_turn_runs_on_its_own():
    """The optional "Your turn" cell needs no cell above it: run alone, it shows the game
    stopped at the person's first question."""
    chapter = Path(__file__).resolve().parents[1] / "notebooks" / "11_evolving_players.ipynb"
    cells = nbformat.read(chapter, as_version=4).cells
    (cell,) = [c for c in cells if c.cell_type == "code" and "GameStepper(" in c.source]
    namespace: dict = {}
    exec(cell.source, namespace)  # a fresh namespace: nothing from the set-up cell
    (game,) = [value for value in namespace.values() if isinstance(value, GameStepper)]
    assert game.state.question is not None and game.state.people == (1,)


def test_a_building_plan_is_typed_per_lot_and_checked_as_a_whole():
    stepper = first_question("build_plan")
    question, game = stepper.state.question, stepper.state.game.state
    assert set(stepper.plan_boxes) >= {s for s in question.choices}
    plan = question.default or {question.choices[0]: 1}
    uneven = {question.choices[0]: 2}  # two on one lot of a group, none on the others
    for space, count in uneven.items():
        stepper.plan_boxes[space].value = count
    stepper.plan_button.click()
    assert stepper.state.question is question and "building must be even" in stepper.refused
    before = {s: game.lots[s].buildings for s in stepper.plan_boxes}
    for space in stepper.plan_boxes:
        stepper.plan_boxes[space].value = plan.get(space, 0)
    stepper.plan_button.click()
    assert stepper.refused is None
    built = {s: game.lots[s].buildings - before[s] for s in before}
    assert {s: n for s, n in built.items() if n} == plan
    answered = stepper.state.given
    stepper.state.undo()  # the plan is one answer: taken back whole
    assert stepper.state.given == answered - 1
    assert stepper.state.question.decision == "build_plan"
    assert {s: game.lots[s].buildings for s in before} != {
        s: stepper.state.game.state.lots[s].buildings for s in before
    } or not any(built.values())


def test_the_turn_end_toggles_ask_for_a_trade_once():
    stepper = GameStepper(FIELD, seed=DEFAULTS_SEED, trading=True)
    stepper.turn_end_boxes["propose_trade"].value = True
    assert stepper.state.turn_end == {"propose_trade"}
    stepper.to_end.click()
    while stepper.state.question.decision != "propose_trade":
        stepper.state.answer(stepper.state.question.default)
        if stepper.state.question is None:
            stepper.to_end.click()
    stepper.redraw()
    assert not stepper.turn_end_boxes["propose_trade"].value  # asked: off again
    round_asked = stepper.state.game.state.round
    stepper.no_trade_button.click()
    proposing = None  # the round of the last trade question
    while stepper.state.question is not None and not stepper.state.over:
        question = stepper.state.question
        if question.decision == "propose_trade":  # not asked every turn: only with a swap
            now = question.game.round  # on offer, or for the turn's next proposal
            assert len(question.choices) > 1 or proposing == now
            proposing = now
        stepper.state.answer(question.default)
        if stepper.state.question is None and not stepper.state.over:
            stepper.to_end.click()
    assert stepper.state.game.state.round > round_asked


# -- taking back, saving and loading, the coach, deeds and the help on trades ---------


def answered(stepper: GameStepper, answers: int) -> GameStepper:
    """``stepper`` with ``answers`` more answers given (each the rules' default), by its
    state, stopped at the next question."""
    given = stepper.state.given + answers
    return by_defaults(stepper, lambda state: state.given == given)


def test_take_back_opens_again_the_question_its_answer_answered():
    stepper = first_question("build")
    question, given = stepper.state.question, list(stepper.state.answers)
    number = stepper.asked
    assert not stepper.take_back.disabled and number > 1
    stepper.choose_button.click()
    assert stepper.state.answers == [*given, question.choices[0]]
    taken_back_by = stepper.take_back
    taken_back_by.click()
    assert stepper.state.answers == given and stepper.asked == number
    assert stepper.state.question.text == question.text
    assert f'data-number="{number}"' in stepper.question_view.value
    taken_back_by.click()  # a double-click's second click: the game has moved on
    assert stepper.state.answers == given
    stepper.take_back.click()  # a click on the Take back shown now takes back one more
    assert stepper.state.answers == given[:-1] and stepper.asked == number - 1


def test_take_back_waits_for_an_answer_and_is_a_persons_control():
    stepper = answered(GameStepper(FIELD, seed=SEED), 0)
    assert stepper.state.question is not None and stepper.take_back.disabled
    stepper.take_back.click()
    assert stepper.state.answers == [] and stepper.state.question is not None
    nobody = GameStepper(["always", "heuristic"], seed=1)
    for control in (nobody.take_back_place, nobody.coach_button, nobody.back_row):
        assert not shown(control)
    assert shown(stepper.take_back_place) and shown(stepper.coach_button)


def test_going_back_to_an_earlier_question():
    stepper = answered(GameStepper(FIELD, seed=SEED, trading=True), 6)
    given, texts = stepper.state.answers_given, []
    again = answered(GameStepper(FIELD, seed=SEED, trading=True), 2)
    texts.append(again.state.question.text)  # question 3, as first asked
    stepper.back_box.value = 3
    stepper.go_back_button.click()
    assert stepper.state.answers_given == given[:2] and stepper.asked == 3
    assert [stepper.state.question.text] == texts
    assert "Back to question 3" in words(stepper.status_view.value)
    stepper.go_back_button.click()  # again: question 3 is the open one, nothing to take back
    assert stepper.state.answers_given == given[:2]
    stepper.back_box.value = 4
    stepper.go_back_button.click()
    assert "Not gone back: question 4 is not one answered" in words(stepper.status_view.value)
    assert stepper.state.answers_given == given[:2]


def test_a_saved_game_loads_in_a_fresh_widget_where_it_was(tmp_path):
    stepper = answered(GameStepper(FIELD, seed=SEED, trading=True), 5)
    stepper.file_box.value = str(tmp_path / "game.json")
    stepper.save_button.click()
    assert "Saved to" in words(stepper.status_view.value) and (tmp_path / "game.json").exists()
    fresh = GameStepper(["always", "heuristic"], seed=3)
    fresh.file_box.value = str(tmp_path / "game.json")
    fresh.load_button.click()
    loaded = fresh.state
    assert loaded.answers == stepper.state.answers and loaded.lines == stepper.state.lines
    assert loaded.players().equals(stepper.state.players())
    assert loaded.question.text == stepper.state.question.text and fresh.asked == 6
    assert fresh.seed_box.value == SEED and shown(fresh.take_back_place)
    assert "Loaded" in words(fresh.status_view.value)
    _buttons(fresh.controls)[0].click()  # an answer given in the widget: the game plays on
    assert fresh.state.given == 6 and "Loaded" not in words(fresh.status_view.value)
    fresh.take_back.click()
    assert fresh.state.given == 5 and fresh.asked == 6


def test_what_cannot_be_saved_or_loaded_is_said_and_the_game_stays(tmp_path):
    mine = make_strategy("mine", buy=lambda game, me, space: True)
    stepper = answered(GameStepper(["you", mine], seed=2), 1)
    state, given = stepper.state, stepper.state.answers
    stepper.file_box.value = str(tmp_path / "game.json")
    stepper.save_button.click()
    said = words(stepper.status_view.value)
    assert "Not saved: " in said and "strategies given by name" in said
    (tmp_path / "other.json").write_text('{"seed": 1}')
    for name, reason in (("missing.json", "no such file"), ("other.json", "not a saved game")):
        stepper.file_box.value = str(tmp_path / name)
        stepper.load_button.click()
        said = words(stepper.status_view.value)
        assert "Not loaded: " in said and reason in said and "Traceback" not in said
        assert stepper.state is state and stepper.state.answers == given
    stepper.file_box.value = " "
    stepper.save_button.click()
    assert "type a file name first" in words(stepper.status_view.value)


def test_the_coach_shows_each_choice_and_changes_nothing():
    stepper = first_question("buy")
    question, lines, answers = (
        stepper.state.question,
        list(stepper.state.lines),
        len(stepper.state.answers),
    )
    assert not stepper.coach_button.disabled and stepper.coach_view.value == ""
    stepper.coach_button.click()
    table = stepper.coach_view.value
    rows = re.findall(r"<tr>.*?</tr>", table.split("<tbody>")[1])
    assert len(rows) == len(question.choices) == 2
    assert {words(row.split("</td>")[0]).split(" ←")[0] for row in rows} == {"Buy", "Do not buy"}
    assert "95% interval" in table and "player's choice" in words(table)
    assert re.search(r"\d+% to \d+%", words(table))
    assert stepper.state.question is question and stepper.state.lines == lines
    assert len(stepper.state.answers) == answers
    stepper.yes_button.click()  # the next question starts without the coach's table
    assert stepper.coach_view.value == "" or stepper.state.question is None


def test_the_deed_is_shown_at_a_buy_and_a_trades_effect_at_an_offer():
    stepper = first_question("buy")
    space = stepper.state.question.space
    from monopoly_lesson.game.state import PRICE
    from monopoly_lesson.starter import space_name

    shown_deed = words(stepper.facts_view.value)
    assert shown(stepper.facts_view) and f"{space_name(space)}," in shown_deed
    assert f"price ${PRICE[space]}" in shown_deed and "mortgage $" in shown_deed
    offer = first_question("accept_trade")
    assert "completes" in words(offer.facts_view.value)
    build = first_question("build")
    assert not shown(build.facts_view)


def test_any_lots_deed_and_what_each_player_accepts():
    stepper = first_question("propose_trade")
    stepper.more_button.value = True
    assert shown(stepper.more_panel)
    stepper.lot_box.value = 38
    assert "Park Place (38), dark blue: price $350" in words(stepper.deed_view.value)
    accepts = words(stepper.accepts_view.value)
    assert "P2 ega_trading accepts only a trade" in accepts and "P1 you accepts" not in accepts
    stepper.more_button.value = False
    assert not shown(stepper.more_panel)


def test_the_question_and_the_status_name_the_decision_in_words():
    stepper = first_question("propose_trade")
    header = words(stepper.question_view.value)
    assert f"question {stepper.asked}: a trade to propose?" in header
    assert "(propose_trade)" not in header + words(stepper.status_view.value)
    assert "is asked for a trade to propose." in words(stepper.status_view.value)
    assert "a trade to propose?**" in stepper.snapshot_markdown()
    assert "is asked for a trade to propose." in stepper._repr_mimebundle_()["text/plain"]
    assert 'data-decision="propose_trade"' in stepper.question_view.value


def test_the_trade_form_says_who_pays_the_cash():
    stepper = trade_question()
    form = stepper.controls.children[-1]
    assert not shown(form) and stepper.propose_button in _buttons(form)
    stepper.own_trade.value = True  # "A trade of your own", a button the keyboard reaches
    assert shown(form)
    stepper.partner_box.value = 3
    stepper.take_box.value = (stepper.take_box.options[0][1],)
    stepper.cash_box.value = stepper.paid_box.value = 5
    stepper.propose_button.click()
    assert "either you pay cash or they do" in words(stepper.status_view.value)
    stepper.cash_box.value = 0
    stepper.propose_button.click()
    assert stepper.refused is None
    trade = stepper.state.answers[-1]
    assert trade.cash == -5 and trade.partner == 3  # they pay: the proposer is paid


def test_a_building_plan_can_start_from_the_rules_default():
    stepper = first_question("build_plan")
    question = stepper.state.question
    assert all(box.value == 0 for box in stepper.plan_boxes.values())
    stepper.default_plan_button.click()
    assert stepper.state.question is question  # only the boxes are filled in
    assert {s: b.value for s, b in stepper.plan_boxes.items() if b.value} == question.default


def test_the_widget_loads_the_coach_and_its_compiled_engine_only_when_asked():
    """A chapter that shows the game (chapter 9, graded where nothing may be compiled or
    written) does not load the coach's compiled engine by importing the widget."""
    import subprocess
    import sys

    code = (
        "import sys, monopoly_lesson.game.widget; "
        "print('monopoly_lesson.game.coach' in sys.modules, 'numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "False"], done.stderr


# -- a person at the keyboard, or with a screen reader --------------------------------


def parts(box) -> list:
    """``box`` and every widget in it, to the last leaf."""
    return [box, *(part for child in getattr(box, "children", ()) for part in parts(child))]


BOXES = (widgets.Dropdown, widgets.SelectMultiple, widgets.IntText, widgets.BoundedIntText)


@pytest.mark.parametrize(
    "decision",
    ["bid", "build", "raise_cash", "build_plan", "lift_plan", "propose_trade"],
)
def test_every_box_and_list_of_a_question_is_labelled_and_every_button_named(decision):
    """A screen reader names a box or a list by its label (an ipywidgets description), and a
    button by its words, which say what it does."""
    stepper = first_question(decision)
    controls = parts(stepper.controls)
    boxes = [part for part in controls if isinstance(part, BOXES)]
    assert boxes and all(box.description.strip() for box in boxes)
    named = [part.description for part in controls if isinstance(part, widgets.Button)]
    assert named and all(named) and not {"None", "Done"} & set(named)


def page_click(button: widgets.Button) -> None:
    """A click as the page sends it (a mouse's, or Enter or Space on the focused button)."""
    button._handle_custom_msg({"event": "click"}, [])


def test_a_persons_click_leaves_the_focus_where_they_go_on():
    """A question opened: its first answer; none open: the stepping button used; the game
    over: New game; a button still there (Coach, a refused bid's): where it was."""
    stepper = GameStepper(["you", "always"], seed=2, max_rounds=15)
    while stepper.state.question is None:
        page_click(stepper.one_round)
    assert stepper.focused is stepper.yes_button  # "Buy", the first answer to a buy
    stepper.focused = None
    page_click(stepper.coach_button)
    assert stepper.focused is None  # the coach's table shows; the focus stays on Coach
    closed = refused = 0
    while not stepper.state.over:
        question = stepper.state.question
        if question is None:
            page_click(stepper.one_round)
            continue
        if question.decision == "bid" and not refused:  # more than the cash: refused
            stepper.bid_box.value = question.choices[-1] + 1
            page_click(stepper.bid_button)
            assert stepper.refused and stepper.focused is None
            stepper.bid_box.value, refused = question.default, refused + 1
        page_click(_buttons(stepper.controls)[0])
        if stepper.state.question is not None:
            assert stepper.focused is _buttons(stepper.controls)[0]
        else:
            closed += 1
            stepped = stepper.new_game if stepper.state.over else stepper.one_round
            assert stepper.focused is stepped
        stepper.focused = None
    assert closed > 1 and refused


def test_a_new_questions_first_answer_takes_the_focus_once_released(monkeypatch):
    sent = []
    monkeypatch.setattr(widgets.Button, "focus", lambda button: sent.append(button))

    async def play() -> None:
        stepper = GameStepper(FIELD, seed=DEFAULTS_SEED, trading=True)
        page_click(stepper.to_end)
        first = stepper.bid_button  # "Bid $N", the first answer to the first question
        assert stepper.focused is first and first.disabled
        assert sent == []  # a greyed button cannot take the focus
        await asyncio.sleep(SETTLE_SECONDS + 0.2)
        assert sent == [first] and not first.disabled
        stepper.state.answer(stepper.state.question.default)  # code, not a person: no focus
        stepper.redraw()
        await asyncio.sleep(SETTLE_SECONDS + 0.2)
        assert sent == [first]

    asyncio.run(play())


def test_the_question_and_the_status_line_are_said_as_they_change():
    """Both are live regions, which a screen reader says when they change, and each answer
    is described by its question; a stored snapshot's HTML is as it was."""
    stepper = first_question("buy")
    question, live = stepper.state.question, '<div role="status" aria-live="polite"'
    assert stepper.question_view.value.startswith(live)
    assert question.text in words(stepper.question_view.value)
    assert stepper.status_view.value.startswith(live)
    assert all(b.tooltip == question.text for b in _buttons(stepper.controls))
    assert 'role="status"' not in stepper.snapshot_html()
    stepper.new_game.click()  # nothing asked: nothing to say
    assert stepper.state.question is None and stepper.question_view.value == ""


def test_the_turn_end_toggles_are_check_boxes_whose_state_is_said():
    """A check box's state is said by a screen reader; a toggle button's was only drawn."""
    stepper = GameStepper(FIELD, seed=SEED, trading=True)
    boxes = stepper.turn_end_boxes
    assert [box.description for box in boxes.values()] == [t[1] for t in TURN_END_TOGGLES]
    assert all(isinstance(box, widgets.Checkbox) for box in boxes.values())
    boxes["build"].value = True
    assert stepper.state.turn_end == {"build"}


def test_the_board_is_named_for_a_screen_reader_by_where_the_tokens_are():
    stepper = first_question("buy")
    where = "; ".join(
        f"{name} on {space_name(space)}" for name, space in stepper.state.tokens().items()
    )
    assert f'role="img" aria-label="The Monopoly board: {where}"' in stepper.board_view.value
    assert 'aria-label="Monopoly board"' in stepper.snapshot_svg()  # as stored, as printed


def test_every_icon_a_button_shows_is_drawn_without_words_and_the_focus_shows_plainly():
    """An icon missing from ICON_CHARACTERS would be read out in its button's name."""
    stepper, turns = trade_question(), TurnStepper(take_turn)
    icons = {part.icon for part in parts(stepper) if getattr(part, "icon", "")}
    stepper.more_button.value = stepper.own_trade.value = True  # their carets turn up
    icons |= {part.icon for part in parts(stepper) if getattr(part, "icon", "")}
    icons |= {button.icon for button in (turns.one_turn, turns.ten_turns, turns.reset_button)}
    assert {"caret-down", "caret-up", "play"} <= icons <= set(ICON_CHARACTERS)
    style = stepper.children[0].value
    assert all(f'.game-stepper .fa-{icon}::before{{content:"\\' in style for icon in icons)
    assert ".game-stepper button:enabled:focus-visible" in style and FOCUS_RING in style
