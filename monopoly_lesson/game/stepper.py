"""A whole game stepped turn by turn, without widgets: what the game widget draws.

:class:`GameStepperState` holds a :class:`~monopoly_lesson.game.engine.MonopolyGame`, plays a
turn, a round or the rest of the game on request, keeps the narration as a log, and
describes the board (owners, mortgages, houses and hotels, tokens) and the players
(cash, net worth, lots) for any view. A strategy that fails stops the game with its
message in :attr:`error`; the state stays readable and :meth:`reset` starts a new game.

A seat of ``"you"`` (:class:`~monopoly_lesson.game.person.You`) is a person's: the game
stops at each of its decisions with :attr:`GameStepperState.question` open, and
:meth:`GameStepperState.answer` plays on. Routine questions are answered by the person's
plan (:class:`~monopoly_lesson.game.seat_plan.SeatPlan`): a trade is proposed, and a turn's
building planned, when the person asks to (:attr:`GameStepperState.turn_end`).

The game runs in a thread of its own, handing over to the caller at each question and at
the end of each step, so that only one of them runs at a time: the same seed and the same
answers give the same game.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import pandas as pd

from ..board_view import TOKEN_COLOURS, SpaceExtras
from ..checks import at_the_call, is_list
from .engine import MonopolyGame
from .person import ASKED, PERSON, PLANS, Question, You
from .seat_plan import SeatPlan
from .state import HOTEL
from .trade import Trade

__all__ = ["DEFAULT_STRATEGIES", "GameStepperState"]

DEFAULT_STRATEGIES = ("heuristic", "always", "random:0.5", "never")
"""The four players of a new game unless told otherwise."""
LOG_LINES = 2000  # the log keeps the newest lines of a long game
STEPS = ("turn", "round", "end")


class GameStepperState:
    """A game to step through: ``step_turn()``, ``step_round()``, ``play_to_end()``.

    Takes the strategies in seat order (at most as many as there are token colours), the
    seed, the round limit and the trading option of
    :class:`~monopoly_lesson.game.engine.MonopolyGame`. A seat of ``"you"`` (or ``You()``)
    is answered here: a step stops at its question (:attr:`question`), :meth:`answer`
    answers it and plays on to the end of the step. ``answers`` (a list, such as another
    game's :attr:`answers`) answers the first questions without asking, in order: the
    same seed and answers replay the same game. With ``plans=False`` the person is asked
    every question the engine asks (each building, a trade every turn), as a strategy is.
    """

    def __init__(
        self,
        strategies: Sequence[object] = DEFAULT_STRATEGIES,
        *,
        seed: int = 0,
        max_rounds: int = 100,
        trading: bool = False,
        answers: Sequence[object] | None = None,
        plans: bool = True,
    ) -> None:
        with at_the_call():  # a mistake in an argument is shown from here, not from the checks
            if is_list(strategies) and len(strategies) > len(TOKEN_COLOURS):
                raise ValueError(
                    f"strategies: the game widget shows at most {len(TOKEN_COLOURS)} players, "
                    f"got {len(strategies)} strategies."
                )
            if answers is not None and not is_list(answers):
                raise TypeError(
                    f"answers must be a list of answers (such as a game's state.answers) or "
                    f"None, got {type(answers).__name__}."
                )
            self.strategies, self.seed, self.max_rounds = strategies, seed, max_rounds
            self.trading, self.plans = trading, bool(plans)
            self._table: _Table | None = None
            self.reset(answers=list(answers or ()))  # the game checks them all
            self.strategies = list(strategies)

    def reset(
        self,
        seed: int | None = None,
        *,
        answers: Sequence[object] = (),
        auto: Iterable[int] = (),
        turn_end: Iterable[str] = (),
    ) -> None:
        """Start a new game (with a new ``seed`` if given; ``answers`` to replay, as in the
        constructor, ``auto`` the indices of those the person's plan gave, ``turn_end`` what
        the person asked to be asked). The old game's thread ends: nothing is left waiting."""
        table = _Table(answers, auto, self.plans, turn_end)
        given = self.strategies
        seats = [_seat(s, table) for s in given] if is_list(given) else given  # else refused
        people = [
            k for k, s in enumerate(seats, start=1) if isinstance(s, You) and s.answer is table.seat
        ]
        game = MonopolyGame(
            seats,
            seed=self.seed if seed is None else seed,
            max_rounds=self.max_rounds,
            verbose=True,
            trading=self.trading,
        )
        if seed is not None:
            self.seed = seed
        if self._table is not None:
            self._stop_thread()  # the old game's: nothing is left waiting
        table.game = game
        self._table, self.game, self._people = table, game, tuple(people)
        self._stop_thread = weakref.finalize(self, table.stop)  # also when the state goes
        self.lines: list[str] = []
        self.error: str | None = None

    # -- playing ---------------------------------------------------------------------

    @property
    def people(self) -> tuple[int, ...]:
        """The seats whose questions this state asks (``"you"``), in seat order."""
        return self._people

    @property
    def question(self) -> Question | None:
        """The person's question waiting for an answer, or None when nothing waits."""
        return self._table.question

    @property
    def answers(self) -> list[object]:
        """Every answer the person's seat gave so far, in order, the plan's included (plain
        values; a trade as a Trade): pass them as ``answers=`` with the same strategies and
        seed to replay this game."""
        return list(self._table.seat.answers)

    @property
    def auto(self) -> set[int]:
        """The indices in :attr:`answers` of those the person's plan gave without asking."""
        return set(self._table.seat.auto)

    @property
    def answers_given(self) -> list[object]:
        """The person's own answers, in order (the plan's left out): a plan is one answer,
        its first building (lift) or None."""
        auto = self._table.seat.auto
        return [a for k, a in enumerate(self._table.seat.answers) if k not in auto]

    @property
    def given(self) -> int:
        """How many questions the person has answered (the plan's answers not counted)."""
        return self._table.seat.given

    @property
    def turn_end(self) -> set[str]:
        """What the person will be asked at their next turn's end, where the rules allow it:
        add ``"propose_trade"``, ``"build"`` or ``"lift"`` (each asked once, then taken out;
        a completion swap newly on offer, a group newly built on or a mortgage newly lifted
        are asked without it)."""
        return self._table.seat.turn_end

    @property
    def asked_for(self) -> Question | None:
        """The game's own question behind the open one (the first build or lift question of
        a turn, behind its plan question), or the open question itself."""
        question = self.question
        if question is not None and question.decision in PLANS.values():
            return self._table.seat.pending
        return question

    @property
    def turns_played(self) -> int:
        """The turns played so far in this game."""
        return self._table.turns_played

    def step_turn(self) -> None:
        """Play the next player's turn (nothing once the game is over or has failed)."""
        self._step("turn")

    def step_round(self) -> None:
        """Play the rest of the current round."""
        self._step("round")

    def play_to_end(self) -> None:
        """Play until one player is left or the round limit."""
        self._step("end")

    def answer(self, value: object) -> None:
        """Answer the open :attr:`question` and play on: to the person's next question or
        the end of the step it interrupted. An illegal answer is a ValueError naming the
        rule it breaks, and the question stays open."""
        question = self.question
        if question is None:
            raise RuntimeError("no question is open: state.question is None (step the game).")
        with at_the_call():
            value = question.check(value)
        self._hand_over(lambda: self._table.answer(value))

    def undo(self, answers: int = 1) -> None:
        """Take back the person's last ``answers`` answers: the game is played again from its
        seed with the answers before them, turn by turn, to the question the first of them
        answered, which is open again (a game is replayed exactly by its answers; those the
        plan gave after it are taken back with it)."""
        with at_the_call():
            given = self.given
            if isinstance(answers, bool) or not isinstance(answers, int) or answers < 1:
                raise ValueError(f"answers must be a whole number from 1 up, got {answers!r}.")
            if answers > given:
                raise ValueError(
                    f"answers: only {given} answer{'s' * (given != 1)} to take back, got {answers}."
                )
        auto = self.auto
        cut = [k for k in range(len(self.answers)) if k not in auto][-answers]
        self.replay(self.answers[:cut], auto={k for k in auto if k < cut}, ask_next=True)

    def replay(
        self, answers: Sequence[object], *, auto: Iterable[int] = (), ask_next: bool = False
    ) -> None:
        """A new game of the same seed, played turn by turn with ``answers`` (checked as the
        constructor's are; ``auto`` the indices of the plan's) until a question they do not
        answer is open, or the game ends. With ``ask_next`` that question is put to the
        person whatever the plan (it is the one a take-back takes back)."""
        self.reset(answers=list(answers), auto=auto, turn_end=self.turn_end)
        self._table.seat.force = ask_next
        while self.question is None and not self.over:
            self._step("turn")

    def save(self, path: str | os.PathLike) -> Path:
        """Write the game to ``path`` as a small JSON file: the strategies (by name), the
        seed, the round limit, trading and the answers given; :meth:`load` plays it again."""
        with at_the_call():
            names = [s for s in self.strategies if isinstance(s, str)]
            if not is_list(self.strategies) or len(names) != len(self.strategies):
                raise ValueError(
                    "save: only a game of strategies given by name (such as 'you', "
                    "'heuristic', 'league') can be saved: a strategy object cannot be written."
                )
            data = {
                "saved": SAVED,
                "strategies": names,
                "seed": self.seed,
                "max_rounds": self.max_rounds,
                "trading": self.trading,
                "plans": self.plans,
                "answers": [encode_answer(a) for a in self.answers],
                "auto": sorted(self.auto),
                "open": self.question is not None,
            }
        target = Path(path)
        target.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return target

    @classmethod
    def load(cls, path: str | os.PathLike) -> GameStepperState:
        """The game saved in ``path`` (see :meth:`save`), played again to where it was."""
        with at_the_call():
            data = read_saved(Path(path))
            state = cls(
                data["strategies"],
                seed=data["seed"],
                max_rounds=data["max_rounds"],
                trading=data["trading"],
                plans=data["plans"],
            )
        state.replay(data["answers"], auto=data["auto"], ask_next=data["open"])
        problem = state._table.problem
        root = getattr(problem, "__cause__", None) or problem
        if isinstance(root, ValueError) and "does not answer the question" in str(root):
            raise ValueError(f"{path}: {root}")  # an answer the saved game does not meet
        return state

    def _step(self, step: str) -> None:
        question = self.question
        if question is not None:
            raise RuntimeError(
                f"{self.game.state.name(question.seat)} has a question open ({question.decision}"
                "): answer it first with state.answer(value); state.question has its choices."
            )
        if self.error or self.game.over:
            return
        self._hand_over(lambda: self._table.play(step))

    def _hand_over(self, go: Callable[[], None]) -> None:
        """Let the game's thread play (printing into the log) until it hands back."""
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                go()
        except KeyboardInterrupt:  # Ctrl-C while the game played: it is over
            self.error = "stopped (interrupted)."
            raise
        finally:
            problem = self._table.problem
            if problem is not None and self.error is None:
                self.error = f"{type(problem).__name__}: {problem}"  # a student's strategy
            self.lines += out.getvalue().splitlines()
            if self.error:
                self.lines.append(f"The game stopped: {self.error} Start a new game to play again.")
            del self.lines[:-LOG_LINES]
        if problem is not None and not isinstance(problem, Exception):
            raise problem  # a strategy's SystemExit or KeyboardInterrupt: the caller's

    # -- describing ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended (or stopped on an error)."""
        return self.game.over or self.error is not None

    def status(self) -> str:
        """One line: the round, whose turn it is, or how the game ended."""
        state = self.game.state
        if self.error:
            return f"Stopped in round {state.round}: {self.error}"
        if self.question is not None:
            who = state.name(self.question.seat)
            return f"Round {state.round}: {who} is asked {ASKED[self.question.decision]}."
        if self.game.over:
            result = self.game.result()
            how = "one player left" if result.ended_by == "last player" else "the round limit"
            return f"Over after {result.rounds} rounds ({how}): {state.name(result.winner)} wins."
        return f"Round {state.round}: {self.game.mover.name} to play ({self.turns_played} turns)."

    def players(self) -> pd.DataFrame:
        """One row per player: cash, net worth, space, jail, lots, monopolies, still playing."""
        state = self.game.state
        rows = [
            dict(
                player=p.name,
                colour=TOKEN_COLOURS[p.seat - 1],
                cash=p.cash,
                net_worth=state.net_worth(p.seat),
                space=p.token.pos,
                in_jail=p.token.in_jail,
                lots=len(p.lots),
                monopolies=len(state.monopolies(p.seat)),
                playing=p.in_game,
            )
            for p in state.players
        ]
        return pd.DataFrame(rows).set_index("player")

    def extras(self) -> dict[int, SpaceExtras]:
        """Each owned lot's owner (name, colour, seat number as its mark), mortgage, houses
        or hotel, for the board."""
        state = self.game.state
        return {
            space: SpaceExtras(
                owner=state.name(lot.owner),
                colour=TOKEN_COLOURS[lot.owner - 1],
                mark=str(lot.owner),
                mortgaged=lot.mortgaged,
                houses=lot.buildings if lot.buildings < HOTEL else 0,
                hotel=lot.buildings == HOTEL,
            )
            for space, lot in state.lots.items()
            if lot.owner is not None
        }

    def tokens(self) -> dict[str, int]:
        """Where each player still in the game stands."""
        return {p.name: p.token.pos for p in self.game.state.players if p.in_game}


# ---------------------------------------------------------------------------
# A saved game: a small JSON file
# ---------------------------------------------------------------------------

SAVED = "monopoly-lesson game 2"
"""What a saved game's ``saved`` field says (and the version of its layout)."""
SAVED_KEYS = {
    "saved",
    "strategies",
    "seed",
    "max_rounds",
    "trading",
    "plans",
    "answers",
    "auto",
    "open",
}
SAVED_BEFORE = {"monopoly-lesson game 1": SAVED_KEYS - {"plans", "auto", "open"}}
"""Earlier layouts still read: each with its keys (every answer the person's, asked)."""


def encode_answer(answer: object) -> object:
    """An answer as JSON: itself, or ``{"trade": [partner, give, take, cash]}``; a
    ``("sell", 19)`` becomes a list, which :func:`decode_answer` turns back."""
    if isinstance(answer, Trade):
        return {"trade": [answer.partner, list(answer.give), list(answer.take), answer.cash]}
    if isinstance(answer, tuple):
        return list(answer)
    return answer


def decode_answer(value: object) -> object:
    """An answer read from a saved game (the rules check it when the game meets it)."""
    if isinstance(value, dict) and set(value) == {"trade"} and isinstance(value["trade"], list):
        partner, give, take, cash = (*value["trade"], None, None, None, None)[:4]
        return Trade(partner, tuple(give or ()), tuple(take or ()), cash)  # type: ignore[arg-type]
    if isinstance(value, list):
        return tuple(value)
    return value


def read_saved(path: Path) -> dict:
    """A saved game's fields, read strictly: a ValueError says what is wrong with the file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file (a game saved with save(path))") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{path} is not a saved game ({type(error).__name__})") from None
    layouts = {SAVED: SAVED_KEYS, **SAVED_BEFORE}
    if not isinstance(data, dict) or set(data) != layouts.get(data.get("saved"), ()):
        raise ValueError(f"{path} is not a saved game (a file written by save(path))")
    data = {"plans": True, "auto": [], "open": True, **data}
    if not isinstance(data["answers"], list):
        raise ValueError(f"{path}: its answers are not a list")
    count = len(data["answers"])
    auto = data["auto"]
    if not (isinstance(auto, list) and all(type(k) is int and 0 <= k < count for k in auto)):
        raise ValueError(f"{path}: its auto answers are not a list of answer numbers")
    if not all(isinstance(data[k], bool) for k in ("plans", "open", "trading")):
        raise ValueError(f"{path}: plans, open and trading are true or false")
    return {**data, "answers": [decode_answer(a) for a in data["answers"]]}


# ---------------------------------------------------------------------------
# The game's thread, and the hand-off: one of the two runs at a time
# ---------------------------------------------------------------------------


class _Ended(BaseException):
    """Ends a game's thread where it waits (a new game, or its state let go): not an
    Exception, so that no strategy's or engine's handler takes it."""


class _Table:
    """A game played in a thread of its own: :meth:`play` and :meth:`answer` hand it over
    and wait until it hands back, at the person's next question or the step's end."""

    def __init__(
        self, answers: Sequence[object], auto: Iterable[int], plans: bool, turn_end: Iterable[str]
    ) -> None:
        self.game: MonopolyGame | None = None
        self.question: Question | None = None
        self.seat = SeatPlan(self.ask, replay=answers, auto=auto, plans=plans, turn_end=turn_end)
        """The person's seat: answers replayed, the plan's, and the person's through ask."""
        self.problem: BaseException | None = None
        self.turns_played = 0
        self._step: str | None = None
        self._answer: object = None
        self._ending = False
        self._go, self._back = threading.Semaphore(0), threading.Semaphore(0)
        self._thread: threading.Thread | None = None

    # -- the caller's side -------------------------------------------------------------

    def play(self, step: str) -> None:
        """Play ``step`` (one of :data:`STEPS`) until a question or its end."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="monopoly game", daemon=True)
            self._thread.start()
        self._step = step
        self._hand_over()

    def answer(self, value: object) -> None:
        """Give the open question ``value`` (checked) and play on."""
        self.question, self._answer = None, value
        self._hand_over()

    def _hand_over(self) -> None:
        self._go.release()
        try:
            self._back.acquire()
        except KeyboardInterrupt:  # Ctrl-C: the game's thread ends at its next turn or question
            self.stop()
            raise

    def stop(self) -> None:
        """End the game's thread (it waits, or ends at its next turn or question)."""
        self._ending = True
        thread = self._thread
        if thread is None or thread is threading.current_thread():
            return
        self._go.release()
        thread.join()
        self.question = None  # nobody is asked any more

    # -- the game's side ---------------------------------------------------------------

    def ask(self, question: Question) -> object:
        """The person's answer to ``question``: the caller's, handed over."""
        if self._ending:
            raise _Ended
        self.question = question
        self._back.release()
        self._go.acquire()
        if self._ending:
            raise _Ended
        return self._answer

    def _run(self) -> None:
        try:
            self._go.acquire()
            while not self._ending:
                try:
                    self._play(self._step)
                except _Ended:
                    raise
                except BaseException as problem:  # shown, or raised again, by the caller
                    self.problem = problem
                over = self.game.over or self.problem is not None
                self._back.release()
                if over:
                    return
                self._go.acquire()
        except _Ended:
            return

    def _play(self, step: str) -> None:
        game = self.game
        assert game is not None, "the table's game is set before it plays"
        round_now, played = game.state.round, 0
        while not game.over:
            if self._ending:
                raise _Ended
            if (step == "turn" and played) or (step == "round" and game.state.round != round_now):
                return
            game.play_turn()
            self.turns_played += 1
            played += 1


def _seat(strategy: object, table: _Table) -> object:
    """The strategy for a seat: ``"you"`` or a ``You()`` with nobody to answer it is a
    person's, answered through ``table``."""
    if (isinstance(strategy, str) and strategy == PERSON) or (
        isinstance(strategy, You) and strategy.answer is None
    ):
        return You(answer=table.seat)
    return strategy
