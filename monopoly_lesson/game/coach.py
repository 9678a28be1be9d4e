"""A Monte Carlo coach at a person's question: each choice played on many times.

:func:`coach` takes a game in progress stopped at a person's
:class:`~monopoly_lesson.game.person.Question` and, for each legal choice (a few bids for
an auction), plays the rest of the game on many times: the choice taken now, every other
player as it is, the person's seat by a stand-in strategy (the shipped ``league`` player by
default). Each choice's share of play-outs the person wins is its estimated win chance,
with a 95% Wilson interval (:func:`~monopoly_lesson.game.tournament.wilson_interval`).

How a play-out starts from the question: the coach replays the game in a game of its own
(the same strategies, seed, round limit and trading, and the person's answers so far) to
the start of the turn being played, and checks that the replay meets the same question.
Each play-out is a copy of that game whose turn is played again to the question (so that
all that happened before it, the dice rolled and the bids already made, is as it was), the
choice is taken there, and from then on every draw is new, seeded by the play-out: the
dice, the players' decisions, and the order of the cards still to deal, which nobody at the
table knows. At the end of that turn the compiled engine plays the rest of the game from
its state (:func:`~monopoly_lesson.game.fast.state_vector`), when it plays every seat's
strategy; otherwise the reference engine plays it, with fewer play-outs, and says so.
The game being played is only read: the coach changes nothing in it.
"""

from __future__ import annotations

import copy
import functools
import textwrap
import warnings
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..checks import check_seed
from ..starter import RandomDice
from .engine import MonopolyGame
from .fast import fast_games, state_vector, strategy_codes
from .person import PERSON, Question, You, question_for
from .plugins import BUILT_IN, SHIPPED_PLAYERS, as_strategy, strategy_named, watched_decisions
from .state import PRICE, GameState, PlayerRandom, PlayerState
from .strategies import Strategy
from .streams import GameStreams, StreamExhausted
from .tournament import wilson_interval

if TYPE_CHECKING:  # the stepper is only read here, as the widget holds it
    from .stepper import GameStepperState

__all__ = [
    "ENGINES",
    "MAX_CHOICES",
    "PLAYOUTS",
    "STAND_INS",
    "Coaching",
    "coach",
    "coach_stepper",
    "coach_text",
    "stand_in_strategy",
]

PLAYOUTS = 200
"""Play-outs of each choice unless told otherwise."""
REFERENCE_SHARE = 4
"""With a strategy the compiled engine does not play, the reference engine plays the rest
of the game, with a quarter of the play-outs (it is some hundred times slower)."""
STAND_INS = ("league", "dealer", "heuristic")
"""The default stand-in for the person's seat: the first of these that loads."""
ENGINES = ("auto", "fast", "reference")
"""Which engine plays the rest of each play-out: the compiled one when it can (``auto``),
always the compiled one (``fast``, an error if it cannot), or the reference one."""
MAX_CHOICES = 6
"""The most choices the coach plays on at one question."""
STAND_IN_ASKS = 25
"""How often the stand-in is asked the question itself, each time with its own draws."""
CONFIDENCE = 0.95


class _Reached(BaseException):
    """The replay met the person's question (not an Exception: no handler takes it)."""


# ---------------------------------------------------------------------------
# The estimates
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Coaching:
    """The coach's estimates at one question: for each choice, the play-outs the person won.

    ``choices`` are the answers played on and ``labels`` their words; ``wins[k]`` of
    ``playouts`` play-outs of choice ``k`` were won by the person. ``stand_in`` names the
    strategy that played the person's seat after the choice, and ``stand_in_answer`` is
    what it answers the question itself (``stand_in_share``: in that share of its asks).
    ``engine`` says which engine played the games on, and ``note`` why, when it was not
    the compiled one.
    """

    decision: str
    choices: tuple[object, ...]
    labels: tuple[str, ...]
    wins: tuple[int, ...]
    playouts: int
    stand_in: str
    stand_in_answer: object
    stand_in_label: str
    stand_in_share: float
    engine: str
    note: str
    seed: int

    @property
    def chances(self) -> np.ndarray:
        """Each choice's estimated win chance: its share of play-outs won."""
        return np.array(self.wins) / self.playouts

    @property
    def intervals(self) -> tuple[np.ndarray, np.ndarray]:
        """Each choice's 95% Wilson interval for its win chance, as (low, high) arrays."""
        games = np.full(len(self.wins), self.playouts)
        return wilson_interval(np.array(self.wins), games, CONFIDENCE)

    def table(self) -> pd.DataFrame:
        """One row per choice: its words, wins, play-outs, win chance and its interval."""
        low, high = self.intervals
        return pd.DataFrame(
            {
                "choice": self.labels,
                "wins": self.wins,
                "playouts": self.playouts,
                "win_chance": self.chances,
                "ci_low": low,
                "ci_high": high,
            }
        )

    def describe(self) -> str:
        """The estimates in a player's words: each choice's win chance and interval, and what
        the stand-in would answer."""
        low, high = self.intervals
        parts = [
            f"{label}: {'you win ' if k == 0 else ''}{_percent(chance)} ({_percent(lo)} to "
            f"{_percent(hi)}){f' of {self.playouts:,} play-outs' if k == 0 else ''}"
            for k, (label, chance, lo, hi) in enumerate(
                zip(self.labels, self.chances, low, high, strict=True)
            )
        ]
        share = "" if self.stand_in_share == 1 else f" ({_percent(self.stand_in_share)} of asks)"
        text = (
            f"{'; '.join(parts)}. The {self.stand_in} player would "
            f"{_would(self.decision, self.stand_in_label)}{share}."
        )
        return text + (f" ({self.note})" if self.note else "")


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def _would(decision: str, label: str) -> str:
    """``"buy"``, ``"not buy"``, ``"bid $140"``: a choice's words after "would"."""
    special = {"Do not buy": "not buy", "No bid": "not bid", "Done": "be done"}
    if label in special:
        return special[label]
    words = label[0].lower() + label[1:]
    return f"propose {words}" if decision == "propose_trade" else words


# ---------------------------------------------------------------------------
# The coach
# ---------------------------------------------------------------------------


def coach(
    game: MonopolyGame,
    question: Question,
    answers: Sequence[object],
    *,
    playouts: int = PLAYOUTS,
    stand_in: object = None,
    seed: int = 0,
    engine: str = "auto",
    choices: Sequence[object] | None = None,
) -> Coaching:
    """Estimate the person's win chance for each choice at ``question``, open in ``game``.

    ``answers`` are the person's answers before this question, in order (a stepper's
    ``state.answers``). Each choice (``choices``, or those the question lists, a few bids
    for an auction) is played on ``playouts`` times, each play-out with draws of its own
    seeded by ``seed`` and its number (the same seed, the same estimates; play-out ``k`` of
    every choice starts from the same seed); ``stand_in`` (a name or a strategy; by default
    the first of :data:`STAND_INS` that loads) plays the person's seat after the choice.
    ``engine`` is one of :data:`ENGINES`. The game is only read.
    """
    playouts, seed, engine = _check_options(playouts, seed, engine)
    _check_question(game, question, answers)
    player = stand_in_strategy(stand_in)
    template, given = _replay_to_turn(game, question, answers)
    asked = _ask_stand_in(template, question, given, player, seed)
    picked = _pick_choices(question, asked.most_common(1)[0][0], choices)
    seats = [player if p.seat == question.seat else p.strategy for p in game.state.players]
    engine, note, playouts = _engine_for(seats, engine, playouts)
    wins = [
        _wins(template, question.seat, given, choice, player, seats, engine, playouts, seed)
        for choice in picked
    ]
    answer, count = asked.most_common(1)[0]
    return Coaching(
        decision=question.decision,
        choices=tuple(picked),
        labels=tuple(question.describe(c) for c in picked),
        wins=tuple(wins),
        playouts=playouts,
        stand_in=player.name,
        stand_in_answer=answer,
        stand_in_label=question.describe(answer),
        stand_in_share=count / STAND_IN_ASKS,
        engine=engine,
        note=note,
        seed=seed,
    )


def coach_stepper(state: GameStepperState, **options: Any) -> Coaching:
    """The coach at the open question of a game stepper (the game widget's ``state``, a
    :class:`~monopoly_lesson.game.stepper.GameStepperState`); ``options`` as :func:`coach`'s.
    ``coach_stepper(state).describe()`` is its text. At a building (lift) plan it weighs
    the game's own question behind it: the turn's first building (lift)."""
    question = getattr(state, "asked_for", None)
    if not isinstance(getattr(state, "game", None), MonopolyGame):
        raise TypeError(f"state must be a GameStepperState, got {type(state).__name__}.")
    if question is None:
        raise ValueError("no question is open: the coach answers at a person's question.")
    return coach(state.game, question, state.answers, **options)


def coach_text(game: MonopolyGame, question: Question, answers: Sequence[object]) -> str:
    """What the terminal shows at ``c``: the coach's :meth:`Coaching.describe`, or why the
    coach cannot help at this question."""
    try:
        coaching = coach(game, question, answers)
    except (ValueError, RuntimeError) as error:
        return f"The coach cannot help here: {error}"
    playouts = f"{coaching.playouts:,} play-outs of each choice"
    return (
        f"Coach ({playouts}; after it, the {coaching.stand_in} player plays your seat):\n"
        + textwrap.fill(coaching.describe(), 100)
    )


def _check_options(playouts: object, seed: object, engine: object) -> tuple[int, int, str]:
    """The play-outs, seed and engine as the coach takes them, or a plain error."""
    if isinstance(playouts, bool) or not isinstance(playouts, (int, np.integer)):
        raise TypeError(f"playouts must be a whole number (at least 1), got {playouts!r}.")
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1 (play-outs of each choice), got {playouts}.")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}.")
    return int(playouts), check_seed(seed), str(engine)


def _check_question(game: object, question: object, answers: object) -> None:
    """Refuse what the coach cannot play on, saying what it takes."""
    if not isinstance(game, MonopolyGame):
        raise TypeError(f"game must be a MonopolyGame in progress, got {type(game).__name__}.")
    if not isinstance(question, Question):
        raise TypeError(f"question must be a person's Question, got {type(question).__name__}.")
    if not len(question.choices):
        raise ValueError(
            f"the {question.decision} question has no choices: the coach needs at least one."
        )
    if not 1 <= question.seat <= len(game.state.players):
        raise ValueError(
            f"the question's seat, {question.seat}, is not a seat of the game (1 to "
            f"{len(game.state.players)})."
        )
    if isinstance(answers, (str, bytes)) or not isinstance(answers, Sequence):
        raise TypeError(
            f"answers must be the list of the person's answers so far, got {answers!r}."
        )
    if game.over:
        raise ValueError("the game is over: the coach plays on a game in progress.")
    people = [p.seat for p in game.state.players if isinstance(p.strategy, You)]
    if any(seat != question.seat for seat in people):
        raise ValueError(
            f"the coach plays on games with one person at the table, but seats "
            f"{', '.join(map(str, people))} are people's."
        )


@functools.lru_cache(maxsize=16)
def _named(name: str) -> Strategy:
    """A strategy by its name, loaded once (the shipped players are read from disk)."""
    return strategy_named(name)


def stand_in_strategy(stand_in: object = None) -> Strategy:
    """The strategy that plays the person's seat in the play-outs: ``stand_in`` (a name or a
    strategy), or the first of :data:`STAND_INS` that loads."""
    if stand_in is None:
        for name in STAND_INS:
            try:
                return _named(name)
            except (OSError, ValueError):  # a shipped player missing from this install
                continue
    if isinstance(stand_in, str) and stand_in != PERSON:
        try:
            return _named(stand_in)
        except ValueError:
            pass
    elif not isinstance(stand_in, (str, You)):
        try:
            return as_strategy(stand_in)
        except (TypeError, ValueError) as error:
            raise type(error)(f"stand_in: {error}") from None
    known = ", ".join([*SHIPPED_PLAYERS, *BUILT_IN, "random:P", "rga", "tga", "sga", "ega", "bga"])
    raise ValueError(
        f"stand_in plays your seat after the choice, so it must be a program: one of {known}, "
        f"or a Strategy; got {stand_in!r}."
    )


# ---------------------------------------------------------------------------
# The replay: the coach's own copy of the game, at the start of the question's turn
# ---------------------------------------------------------------------------


class _Branch(You):
    """The person's seat in the coach's games: the answers ``given`` first, in order; at the
    next question ``reached(game, me, question)`` is called and ``choice`` answered."""

    def __init__(
        self,
        given: Sequence[object],
        choice: object = None,
        reached: Callable[[GameState, PlayerState, Question], None] | None = None,
    ) -> None:
        super().__init__(answer=_not_asked)  # it answers in _ask itself
        self.given, self.choice, self.reached = deque(given), choice, reached
        self.used, self.met = 0, False

    def _ask(self, decision: str, game: Any, me: Any, *args: object) -> Any:
        view = game.view(me.seat)
        question = question_for(decision, view, view.player(me.seat), *args)
        if question is None:  # nothing to choose: the only answer the rules allow
            return 0 if decision == "bid" else None
        if self.given:
            self.used += 1
            return question.check(self.given.popleft())
        if self.reached is None:
            raise _Reached(f"your answers ran out at an earlier question ({question.text!r})")
        if self.met:
            raise _Reached(f"a second question met in a play-out ({question.text!r})")
        self.met = True
        self.reached(game, me, question)
        return question.check(self.choice)


def _not_asked(question: Question) -> object:
    """A branch's ``answer``, never called (the branch answers each question itself)."""
    raise AssertionError("a branch answers its questions itself")


def _replay_to_turn(
    game: MonopolyGame, question: Question, answers: Sequence[object]
) -> tuple[MonopolyGame, list[object]]:
    """A game of the coach's own that replays ``game`` to the start of the turn now being
    played, and the person's answers given in that turn before ``question``."""
    turns_before = sum(game.turns) - 1  # the turns played before the one being played
    rolls = 3000 + 30 * turns_before
    while True:
        try:
            streams = GameStreams.of_seed(
                game.seed,
                len(game.state.players),
                rolls=rolls,
                shuffles=rolls // 20 + 4,
                uniforms=rolls,
            )
            replay, branch = _new_replay(game, question.seat, answers, streams)
            for _ in range(turns_before):
                replay.play_turn()
            return replay, list(answers[branch.used :])
        except (_Reached, Exception) as error:
            if isinstance(error, StreamExhausted) or isinstance(error.__cause__, StreamExhausted):
                rolls *= 4  # a long game: longer streams (a strategy's draw runs out as its error)
                continue
            raise RuntimeError(
                "the coach replays the game from its seed and your answers, and this game "
                f"does not replay ({type(error).__name__}: {error}): a strategy that "
                "remembers, or a game set up by hand."
            ) from None


def _new_replay(
    game: MonopolyGame, seat: int, answers: Sequence[object], streams: GameStreams
) -> tuple[MonopolyGame, _Branch]:
    """The coach's copy of ``game`` at its start, drawing the seeded game's ``streams``."""
    branch = _Branch(answers)
    strategies = [branch if p.seat == seat else _copied(p.strategy) for p in game.state.players]
    with warnings.catch_warnings():  # the game warned the person already, if need be
        warnings.simplefilter("ignore")
        replay = MonopolyGame(
            strategies, streams=streams, max_rounds=game.max_rounds, trading=game.trading
        )
    replay.state.player(seat).watched = frozenset()  # the branch reads the game itself
    return replay, branch


def _copied(strategy: object) -> object:
    """A copy of ``strategy`` for the coach's games, so that none of its own changes the
    game's; the strategy itself if it cannot be copied."""
    try:
        return copy.deepcopy(strategy)
    except Exception:
        return strategy


def _fork(game: MonopolyGame) -> MonopolyGame:
    """A copy of ``game`` to play on, sharing what its play only reads: the strategies, the
    streams' draws and the ledger's entries so far."""
    state = game.state
    shared: list[object] = [p.strategy for p in state.players]
    shared += [getattr(p.rng, "values", None) for p in state.players]
    shared += [getattr(d.rng, "rows", None) for d in state.decks.values()]
    shared += [d.cards for d in state.decks.values()]
    shared += [getattr(game.seats[0].dice, "faces", None), game.seats[0].rules]
    memo: dict[int, object] = {id(o): o for o in shared if o is not None}
    memo[id(state.ledger)] = list(state.ledger)
    return copy.deepcopy(game, memo)


def _same_question(replayed: Question, question: Question) -> bool:
    """Whether the replay met the question that is open: the same decision, words, choices."""
    return (replayed.decision, replayed.seat, replayed.text, tuple(replayed.choices)) == (
        question.decision,
        question.seat,
        question.text,
        tuple(question.choices),
    )


def _ask_stand_in(
    template: MonopolyGame, question: Question, given: list[object], player: Strategy, seed: int
) -> Counter:
    """Replay the question's turn to the question, check that it is the open one, and ask
    ``player`` the question there :data:`STAND_IN_ASKS` times, each with draws of its own:
    its answers, counted."""
    asked: Counter = Counter()

    def ask(game: GameState, me: PlayerState, replayed: Question) -> None:
        if not _same_question(replayed, question):
            raise RuntimeError(
                "the coach's replay of this game met another question "
                f"({replayed.text!r}): a strategy that remembers, or a game set up by hand."
            )
        args = {
            "buy": (replayed.space,),
            "bid": (replayed.space,),
            "raise_cash": (replayed.owed,),
            "accept_trade": (replayed.offer,),
        }.get(replayed.decision, ())
        for k in range(STAND_IN_ASKS):
            me.rng = PlayerRandom(int(np.random.SeedSequence([seed, k]).generate_state(1)[0]))
            view = game.view(me.seat)
            answer = getattr(player, question.decision)(view, view.player(me.seat), *args)
            asked[question.check(answer)] += 1
        raise _Reached

    game = _fork(template)
    game.state.player(question.seat).strategy = _Branch(given, reached=ask)
    try:
        game.play_turn()
    except _Reached:
        return asked
    raise RuntimeError(
        "the coach's replay of this game did not meet the question: a strategy that "
        "remembers, or a game set up by hand."
    )


# ---------------------------------------------------------------------------
# The choices, and the engine that plays them on
# ---------------------------------------------------------------------------


def _pick_choices(
    question: Question, stand_in_answer: object, choices: Sequence[object] | None
) -> list[object]:
    """The choices to play on: ``choices`` (each checked), or for a bid $0, half the price,
    the price, half as much again and the stand-in's bid (up to the cash), else the
    question's own, at most :data:`MAX_CHOICES` (the stand-in's and the default's kept)."""
    if choices is not None:
        if isinstance(choices, (str, bytes)) or not isinstance(choices, Sequence) or not choices:
            raise ValueError(f"choices must be a non-empty list of answers, got {choices!r}.")
        picked = [question.check(choice) for choice in choices]
        return list(dict.fromkeys(picked))
    if question.decision == "bid":
        price, cash = PRICE[question.space], question.choices[-1]  # type: ignore[index]
        amounts = {0, price // 2, price, price * 3 // 2, int(stand_in_answer)}  # type: ignore[call-overload]
        return sorted({min(amount, cash) for amount in amounts})
    listed = list(question.choices)
    if len(listed) <= MAX_CHOICES:
        return listed
    first = [c for c in (stand_in_answer, question.default, None) if c in listed]
    kept = list(dict.fromkeys([*first, *listed]))[:MAX_CHOICES]
    return [c for c in listed if c in kept]


def _engine_for(seats: list[object], engine: str, playouts: int) -> tuple[str, str, int]:
    """The engine that plays the rest of each play-out, why (when not the compiled one),
    and the play-outs of each choice."""
    if engine == "reference":
        return "reference", "the reference engine, as asked", playouts
    others = []
    for seat, strategy in enumerate(seats, start=1):
        try:
            strategy_codes([strategy])
        except ValueError:
            others.append(f"P{seat} {getattr(strategy, 'name', '?')}")
    if not others:
        return "fast", "", playouts
    why = f"{', '.join(others)} is not a strategy the compiled engine plays"
    if engine == "fast":
        raise ValueError(f"engine='fast' cannot play this game: {why}.")
    fewer = max(1, playouts // REFERENCE_SHARE)
    return "reference", f"the reference engine, {fewer:,} play-outs of each choice: {why}", fewer


# ---------------------------------------------------------------------------
# The play-outs
# ---------------------------------------------------------------------------


def _wins(
    template: MonopolyGame,
    seat: int,
    given: list[object],
    choice: object,
    player: Strategy,
    seats: list[object],
    engine: str,
    playouts: int,
    seed: int,
) -> int:
    """How many of ``playouts`` play-outs of ``choice`` the person in ``seat`` wins."""
    wins, starts, compiled_seeds = 0, [], []
    for k in range(playouts):
        sources = np.random.SeedSequence(seed, spawn_key=(k,)).spawn(5)
        game = _play_out(template, seat, given, choice, player, sources[:4])
        if engine == "reference" or game.over:
            if not game.over:
                game.play()
            wins += game.result().winner == seat
        else:
            starts.append(state_vector(game.state))
            compiled_seeds.append(int(sources[4].generate_state(1)[0]))
    if starts:
        out = fast_games(
            strategy_codes(seats),
            np.tile(np.arange(len(seats)), (len(starts), 1)),
            seeds=compiled_seeds,
            starts=np.array(starts),
            max_rounds=template.max_rounds,
            trading=template.trading,
        )
        wins += int((out["finish"][:, seat - 1] == 1).sum())
    return wins


def _play_out(
    template: MonopolyGame,
    seat: int,
    given: list[object],
    choice: object,
    player: Strategy,
    sources: list[np.random.SeedSequence],
) -> MonopolyGame:
    """A copy of ``template`` (at the start of the question's turn) whose turn is played
    again to the question, ``choice`` taken there, every draw afresh from ``sources`` after
    it and the person's seat played by ``player``: the game at the end of that turn."""
    game = _fork(template)

    def take_over(state: GameState, me: PlayerState, question: Question) -> None:
        _draw_afresh(game, sources)
        me.strategy, me.watched = player, watched_decisions(player)

    branch = _Branch(given, choice, take_over)
    game.state.player(seat).strategy = branch
    game.play_turn()
    if not branch.met:
        raise RuntimeError("a play-out did not meet the question its replay met.")
    return game


def _draw_afresh(game: MonopolyGame, sources: list[np.random.SeedSequence]) -> None:
    """Every draw of ``game`` from now on new, from ``sources``: the dice, each deck (its
    cards still to deal in a new order too: nobody at the table knows it) and each
    player's decisions."""
    dice_source, chance_source, chest_source, players_source = sources
    dice = RandomDice(dice_source)
    for seat in game.seats:
        seat.dice = dice
    for deck, source in zip(game.state.decks.values(), (chance_source, chest_source), strict=True):
        deck.rng = np.random.default_rng(source)
        deck.restack(deck.rng.permutation(deck.to_deal).tolist())
    own = players_source.generate_state(len(game.state.players), np.uint64)
    for player, player_seed in zip(game.state.players, own, strict=True):
        player.rng = PlayerRandom(int(player_seed))
