"""A person at the table: "you" plays through questions in the game stepper, against the
shipped evolved players, with every answer checked by the rules' own why_not_..."""

from __future__ import annotations

import _thread
import gc
import random
import re
import threading
import time

import pytest

from monopoly_lesson import (
    MonopolyGame,
    Question,
    Trade,
    You,
    evolve,
    experiment,
    load_shipped_run,
    make_strategy,
    play_games,
    play_monopoly,
    win_rates_against,
)
from monopoly_lesson.evolution.shipped import SHIPPED_RUNS
from monopoly_lesson.game.fast import strategy_codes
from monopoly_lesson.game.person import PERSON
from monopoly_lesson.game.plugins import SHIPPED_PLAYERS, as_strategy, strategy_named
from monopoly_lesson.game.stepper import GameStepperState
from monopoly_lesson.game.strategies import DECISIONS
from monopoly_lesson.starter import space_name

FIELD = ["you", "ega_trading", "always", "heuristic"]
SEEDS = (0, 1, 2, 3)
"""Games that, answered by :class:`Answerer` seeded as the game, ask every decision."""


class Answerer:
    """A person played by code: a seeded legal choice, the default now and then, and now
    and then a trade of its own (an illegal one must be refused, the question left open)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.refused = self.proposed = 0

    def __call__(self, state: GameStepperState) -> object:
        question = state.question
        if question.decision == "propose_trade" and self.rng.random() < 0.3:
            trade = self.own_trade(state, question)
            if trade is not None:
                if question.why_not(trade) is None:
                    self.proposed += 1
                    return trade
                self.refuse(state, question, trade)
        if question.decision == "bid":
            return self.rng.choice([0, question.default, self.rng.choice(question.choices)])
        if self.rng.random() < 0.3:
            return question.default
        return self.rng.choice(list(question.choices))

    def own_trade(self, state: GameStepperState, question: Question) -> Trade | None:
        """A random swap of one lot for one, or a lot for cash, with a random partner."""
        game = state.game.state
        others = [p for p in game.in_game if p.seat != question.seat]
        if not others:
            return None
        partner = self.rng.choice(others)
        mine, theirs = sorted(game.player(question.seat).lots), sorted(partner.lots)
        give = (self.rng.choice(mine),) if mine and self.rng.random() < 0.6 else ()
        take = (self.rng.choice(theirs),) if theirs and self.rng.random() < 0.6 else ()
        cash = self.rng.randrange(-200, 201)
        return Trade(partner.seat, give=give, take=take, cash=cash)

    def refuse(self, state: GameStepperState, question: Question, answer: object) -> None:
        """An illegal answer raises the rule it breaks and changes nothing."""
        before = state.game.state.fingerprint(question.seat)
        with pytest.raises(ValueError, match=re.escape(question.why_not(answer))):
            state.answer(answer)
        assert state.question is question
        assert state.game.state.fingerprint(question.seat) == before
        self.refused += 1


def play_through_questions(seed: int) -> tuple[GameStepperState, list, Answerer]:
    """A whole game of :data:`FIELD` answered by :class:`Answerer`, the game's own check
    holding after every answer; the questions asked, and the answerer."""
    state = GameStepperState(FIELD, seed=seed, trading=True, plans=False)
    answerer, asked = Answerer(seed), []
    state.play_to_end()
    while state.question is not None:
        question = state.question
        asked.append(question)
        says_its_amounts(question)
        state.answer(answerer(state))
        state.game.state.check()
        if state.question is None and not state.over:
            state.play_to_end()
    assert state.game.over and state.error is None, state.error
    return state, asked, answerer


def says_its_amounts(question: Question) -> None:
    """A question, when it is asked: its sentence has the amounts, its choices are the
    legal answers, its default is one of them."""
    assert question.decision in DECISIONS and question.seat == 1
    cash = question.game.player(question.seat).cash
    assert question.why_not(question.default) is None
    assert all(question.why_not(c) is None for c in list(question.choices)[:50])
    assert all(isinstance(question.describe(c), str) for c in list(question.choices)[:50])
    if question.decision == "buy":
        assert question.text.startswith(f"Buy {space_name(question.space)} for $")
        assert f"You have ${cash:,}" in question.text
        assert question.choices == (True, False) and question.default is True
    if question.decision == "bid":
        assert question.choices == range(cash + 1) and f"${cash:,}" in question.text
    if question.decision == "raise_cash":
        assert f"You owe ${question.owed:,} and have ${cash:,}" in question.text
        assert question.choices and all(p[0] in ("sell", "mortgage") for p in question.choices)
    if question.decision in ("build", "lift"):
        assert question.choices[-1] is None and len(question.choices) > 1
    if question.decision == "accept_trade":
        assert isinstance(question.offer, Trade) and "offers you a trade" in question.text


@pytest.fixture(scope="module")
def games() -> dict[int, tuple[GameStepperState, list, Answerer]]:
    return {seed: play_through_questions(seed) for seed in SEEDS}


def test_whole_games_against_the_evolved_player_through_questions_only(games):
    for state, asked, _ in games.values():
        assert state.game.over and len(state.answers) == len(asked) > 20
        assert state.people == (1,) and state.strategies == FIELD
        names = [p.name for p in state.game.state.players]
        assert names == ["P1 you", "P2 ega_trading", "P3 always", "P4 heuristic"]
        assert state.status().startswith("Over after")
    assert len({len(state.answers) for state, _, _ in games.values()}) > 1  # different games
    answerers = [answerer for _, _, answerer in games.values()]
    assert sum(a.proposed for a in answerers) > 0 and sum(a.refused for a in answerers) > 0
    for state, _, _ in games.values():  # the person's proposals are its answers, as given
        made = [p.trade for p in state.game.state.proposals if p.proposer == 1]
        assert made == [a for a in state.answers if isinstance(a, Trade)]


def test_every_decision_is_asked_of_the_person_in_some_game(games):
    asked = {question.decision for _, questions, _ in games.values() for question in questions}
    assert asked == set(DECISIONS)


def test_the_same_seed_and_answers_replay_the_same_game(games):
    state, _, _ = games[SEEDS[0]]
    again = GameStepperState(FIELD, seed=SEEDS[0], trading=True, answers=state.answers, plans=False)
    again.play_to_end()
    assert again.question is None and again.game.over
    assert again.game.state.ledger == state.game.state.ledger
    assert again.lines == state.lines and again.answers == state.answers


def test_a_replayed_answer_that_does_not_fit_stops_the_game_naming_it():
    state = GameStepperState(FIELD, seed=0, trading=True, answers=["yes"])
    state.play_to_end()
    assert state.question is None and state.over
    assert "answers[0], 'yes', does not answer the question" in state.error


def first_question(decision: str, seed: int = 0) -> GameStepperState:
    """A game (answered by its Answerer) stopped at the person's first ``decision``."""
    state = GameStepperState(FIELD, seed=seed, trading=True, plans=False)
    answerer = Answerer(seed)
    state.play_to_end()
    while state.question is not None and state.question.decision != decision:
        state.answer(answerer(state))
        if state.question is None and not state.over:
            state.play_to_end()
    assert state.question is not None, f"no {decision} question in game {seed}"
    return state


def others_lot(game):
    """A lot another player holds."""
    return next(s for s, lot in game.lots.items() if lot.owner not in (None, 1))


@pytest.mark.parametrize(
    ("decision", "answer", "rule"),
    [
        ("buy", "yes", "the answer is True or False"),
        ("buy", 1, "the answer is True or False"),
        ("bid", 10**6, "a bid must be from \\$0 to your cash"),
        ("bid", -1, "a bid must be from \\$0 to your cash"),
        ("bid", 12.0, "a bid is whole dollars"),
        ("build", 40.5, "name a space by its number"),
        ("build", 5, "is not a lot"),
        ("build", others_lot, "is not yours"),
        ("raise_cash", lambda game: ("sell", others_lot(game)), "is not yours"),
        ("raise_cash", None, "the debt must be raised"),
        ("propose_trade", "no", "the answer is a Trade"),
        ("propose_trade", Trade(1, give=(), take=()), "the partner must be another player"),
        ("propose_trade", Trade(2, give=(), take=()), "at least one lot must change hands"),
        ("propose_trade", Trade(2, give=(2.0,), take=()), "a Trade names a seat, lots"),
        (
            "propose_trade",
            lambda game: Trade(
                game.lots[others_lot(game)].owner, take=(others_lot(game),), cash=10**6
            ),
            "seat 1 has \\$",
        ),
    ],
)
def test_an_illegal_answer_says_the_rule_and_leaves_the_question_open(decision, answer, rule):
    state = first_question(decision)
    question, ledger = state.question, list(state.game.state.ledger)
    before = state.game.state.fingerprint(1)
    if callable(answer):
        answer = answer(state.game.state)
    with pytest.raises(ValueError, match=rule):
        state.answer(answer)
    assert state.question is question and state.game.state.fingerprint(1) == before
    assert state.game.state.ledger == ledger and state.error is None
    state.answer(question.default)  # the question was still open: nothing was lost
    assert state.question is not question


def test_stepping_while_a_question_is_open_is_refused():
    state = first_question("buy")
    for step in (state.step_turn, state.step_round, state.play_to_end):
        with pytest.raises(RuntimeError, match="P1 you has a question open \\(buy\\): answer"):
            step()
    assert "is asked whether to buy" in state.status()
    state.answer(True)
    with pytest.raises(RuntimeError, match="no question is open"):
        GameStepperState(FIELD).answer(True)


def test_an_answer_plays_on_to_the_end_of_the_step_it_interrupted():
    state = GameStepperState(FIELD, seed=0, trading=True)
    state.step_turn()  # the person moves first: it is asked before its turn is over
    assert state.question is not None and state.turns_played == 0
    while state.question is not None:
        state.answer(state.question.default)
    assert state.turns_played == 1 and state.game.state.turn == 2
    state.step_round()
    while state.question is not None:
        state.answer(state.question.default)
    assert state.game.state.round == 2 and state.game.state.turn == 1


def test_the_narration_is_kept_in_the_log_and_nothing_is_printed(capsys):
    state = GameStepperState(FIELD, seed=0, trading=True)
    state.step_round()
    while state.question is not None:
        state.answer(state.question.default)
    headers = [line.split(":")[0] for line in state.lines if line.startswith("Round ")]
    assert headers == [f"Round 1, P{k} {name}" for k, name in enumerate(FIELD, start=1)]
    assert any(line.startswith("P1 you buys ") for line in state.lines)
    assert state.lines[1].startswith("Rolled ") and capsys.readouterr().out == ""


def test_a_new_game_or_a_dropped_state_leaves_no_thread_waiting():
    before = threading.active_count()
    state = first_question("buy")
    assert threading.active_count() == before + 1
    state.reset()
    assert threading.active_count() == before and state.question is None
    assert state.turns_played == 0 and state.lines == []
    state.play_to_end()  # a new game, asking again
    assert state.question is not None and threading.active_count() == before + 1
    del state
    gc.collect()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() == before


def test_ctrl_c_while_the_game_plays_stops_it_and_leaves_no_thread():
    before, pressed = threading.active_count(), []

    def buy(game, me, space):  # Ctrl-C pressed while the game's thread plays a turn
        if not pressed:
            pressed.append(space)
            _thread.interrupt_main()
        return True

    state = GameStepperState([make_strategy(buy=buy), "you"], seed=1)
    with pytest.raises(KeyboardInterrupt):
        state.play_to_end()
    assert pressed and threading.active_count() == before
    assert state.error == "stopped (interrupted)." and state.over
    state.play_to_end()  # stopped: nothing more is played until a new game
    assert state.lines[-1].startswith("The game stopped: stopped (interrupted).")


def test_a_strategy_that_raises_systemexit_hands_it_to_the_caller():
    def buy(game, me, space):
        raise SystemExit(3)

    before = threading.active_count()
    state = GameStepperState([make_strategy(buy=buy), "you"], seed=1)
    with pytest.raises(SystemExit):
        state.play_to_end()
    assert state.error.startswith("SystemExit") and threading.active_count() == before


def test_a_game_without_a_person_steps_as_before():
    before = threading.active_count()
    state = GameStepperState(["always", "ega_trading"], seed=3)
    state.play_to_end()
    assert state.game.over and state.question is None and state.answers == []
    assert state.people == () and threading.active_count() == before  # its thread ended


# ---------------------------------------------------------------------------
# "you" elsewhere: refused where nobody answers; You(answer=...) plays anywhere
# ---------------------------------------------------------------------------

NOBODY = "'you' is a person's seat, and nobody answers its questions here"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: play_games(["you", "always"], games=1), f"strategies: {NOBODY}"),
        (lambda: play_games([You(), "always"], games=1), f"strategies: {NOBODY}"),
        (lambda: play_monopoly(["always", "you"]), f"strategies: {NOBODY}"),
        (lambda: MonopolyGame(["you", "never"]), f"strategies: {NOBODY}"),
        (
            lambda: strategy_codes(["always", "you"]),
            "strategies: 'you' is a person's seat: the fast engine plays programs only",
        ),
        (lambda: win_rates_against(["you"]), "players: 'you' is a person's seat"),
        (
            lambda: win_rates_against(["always"], ["you", "always"]),
            "opponents: 'you' is a person's seat",
        ),
        (
            lambda: evolve("rga", "vs:you,always,always", population=4, generations=1, out=None),
            "'you' is a person's seat",
        ),
        (
            lambda: experiment(
                "rga", "vs:you,always,always", population=4, generations=1, out="never-made"
            ),
            "'you' is a person's seat",
        ),
    ],
)
def test_you_is_refused_where_nobody_answers(call, message):
    with pytest.raises(ValueError) as raised:
        call()
    assert message in str(raised.value)


def test_you_with_an_answer_function_plays_a_whole_game():
    asked = []

    def answer(question: Question) -> object:
        asked.append(question.decision)
        return question.default

    result = play_monopoly([You(answer=answer), "ega_trading"], seed=2, trading=True)
    assert result.rounds >= 1 and "buy" in asked
    assert as_strategy(PERSON).name == "you" and as_strategy("you").answer is None
    with pytest.raises(TypeError, match="answer must be a function answer\\(question\\)"):
        You(answer=5)


def test_a_bad_answer_from_an_answer_function_is_the_players_error():
    with pytest.raises(Exception, match="P1 you's buy decision raised ValueError: answer 'no'"):
        play_monopoly([You(answer=lambda question: "no"), "always"], seed=1)


# ---------------------------------------------------------------------------
# The shipped evolved players by name
# ---------------------------------------------------------------------------


def test_the_shipped_players_are_the_shipped_runs_best_by_name():
    assert set(SHIPPED_PLAYERS) == set(SHIPPED_RUNS)
    for name in SHIPPED_PLAYERS:
        player, best = strategy_named(name), load_shipped_run(name).best_player()
        assert player.name == name and type(player) is type(best)
        assert all(
            (a == b).all() for a, b in zip(player.gene_arrays(), best.gene_arrays(), strict=True)
        )
    table = play_games(["ega_trading", "rga_level", "always"], games=3, seed=1, max_rounds=20)
    assert set(table["strategy"]) == {"ega_trading", "rga_level", "always"}
    codes = strategy_codes(["ega_always", "rga_finish_order"])
    assert len(codes) == 2


def test_an_unknown_name_lists_the_shipped_players_and_you():
    with pytest.raises(
        ValueError,
        match="the shipped evolved players league, ega_trading, ega_always, "
        "rga_level, rga_finish_order; and you \\(a person's seat\\)",
    ):
        strategy_named("ega_best")


CODE_WORDS = re.compile(r"\bNone\b|Trade\(|\w_\w|\b(?:P\d \S+|seat \d+)'s\b")
"""What reads as code, not as a player's words: None, Trade(...), names_with_underscores,
and a possessive after a player's name ("P1 you's")."""


def words(game, text: str) -> str:
    """``text`` without the players' names (a name such as "P2 ega_trading" is a name)."""
    for player in game.players:
        text = text.replace(player.name, "the player")
    return text


def test_every_question_and_refusal_is_in_a_players_words(games):
    for _, asked, _ in games.values():
        for question in asked:
            said = words(question.game, question.text)
            assert not CODE_WORDS.search(said), said
            for choice in list(question.choices)[:20]:
                said = words(question.game, question.describe(choice))
                assert not CODE_WORDS.search(said), said
    question = first_question("build").question
    reason = question.why_not(others_lot(question.game))
    assert reason and not CODE_WORDS.search(words(question.game, reason)), reason
