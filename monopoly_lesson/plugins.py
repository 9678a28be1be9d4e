"""Turning what a student writes into a strategy, and asking it questions safely.

A strategy may be a built-in's name (``always``, ``never``, ``heuristic``, ``random:P``,
``rga``, ``tga``, ``sga``), a :class:`~monopoly_lesson.strategies.Strategy`, a plain
object with a ``buy`` method, or a buy function. :func:`ask` puts a question to it, with
the game as a read-only :class:`~monopoly_lesson.game_state.GameView`, and turns a crash,
a wrong kind of answer, or a change made to the game into a :class:`StrategyError`
naming the player and the decision.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import inspect
import linecache
import numbers
import types
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .chromosomes import CHROMOSOME_PLAYERS
from .game_state import GameState, PlayerState
from .strategies import (
    DECISIONS,
    AlwaysBuy,
    GameChanged,
    Heuristic,
    NeverBuy,
    RandomBuy,
    Strategy,
    StrategyError,
)

__all__ = [
    "BUILT_IN",
    "as_strategy",
    "ask",
    "ask_space",
    "make_strategy",
    "shows_strategy_errors",
    "strategy_named",
    "watched_decisions",
]

BUILT_IN: dict[str, type[Strategy]] = {
    "always": AlwaysBuy,
    "never": NeverBuy,
    "heuristic": Heuristic,
}
"""The built-in strategies without parameters, by name."""


ARGUMENTS = {
    "buy": "game, me, space",
    "bid": "game, me, space",
    "leave_jail": "game, me",
    "build": "game, me",
    "lift": "game, me",
    "raise_cash": "game, me, owed",
}
"""What each decision is called with."""


class _Plugin(Strategy):
    """A plain object's decisions, with the defaults for the ones it does not have."""

    def __init__(self, obj: object, name: str) -> None:
        self.name = name
        for decision in DECISIONS:
            method = getattr(obj, decision, None)
            if method is not None:
                check_decision(name, decision, method)
                setattr(self, decision, method)


_CHECKED: weakref.WeakSet[Strategy] = weakref.WeakSet()


def _check_strategy(strategy: Strategy) -> None:
    """Check a Strategy's decisions once (a tournament passes the same ones again)."""
    try:
        if strategy in _CHECKED:
            return
    except TypeError:  # unhashable: checked every time
        pass
    check_names(strategy.name, strategy)
    if type(strategy) is not Strategy and not _has_own(strategy, "buy"):
        meant = _meant_for(strategy, "buy")
        raise TypeError(
            f"strategy {strategy.name!r} has no buy decision: a Strategy must define "
            f"buy(self, game, me, space) returning True or False{meant}."
        )
    for decision in DECISIONS:
        check_decision(strategy.name, decision, getattr(strategy, decision))
    with contextlib.suppress(TypeError):
        _CHECKED.add(strategy)


def check_decision(name: str, decision: str, function: object) -> None:
    """Refuse a decision that is not a function taking the arguments the game passes."""
    arguments = ARGUMENTS[decision]
    if not callable(function):
        raise TypeError(f"strategy {name!r}: {decision} must be a function ({arguments}).")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return  # a builtin or C function: it will be called and checked then
    try:
        signature.bind(*arguments.split(", "))
    except TypeError:
        raise TypeError(
            f"strategy {name!r}: {decision} must take ({arguments}), but yours takes {signature}."
        ) from None


def check_names(name: str, obj: object) -> None:
    """Refuse a method whose name is a misspelt decision (it would silently never be asked):
    a name close to a decision's (``raise_Cash``), or one like the name of a decision the
    strategy lacks that takes what that decision is given (``raise_money(game, me, owed)``)."""
    for attribute in dir(obj):
        if attribute.startswith("_") or attribute in DECISIONS:
            continue
        meant = meant_decision(obj, attribute)
        if meant:
            raise TypeError(
                f"strategy {name!r} has a method {attribute!r}, which the game never asks: "
                f"did you mean {meant!r}? The decisions are {', '.join(DECISIONS)}."
            )


def meant_decision(obj: object, attribute: str) -> str | None:
    """The decision that ``obj``'s method ``attribute`` is probably a misspelling of, or None."""
    lowered = attribute.lower()
    close = difflib.get_close_matches(lowered, DECISIONS, n=1, cutoff=0.8)
    missing = [decision for decision in DECISIONS if not _has_own(obj, decision)]
    alike = difflib.get_close_matches(lowered, missing, n=1, cutoff=0.6) or [
        decision for decision in missing if lowered.split("_")[0] == decision.split("_")[0]
    ]
    try:
        method = getattr(obj, attribute, None)
    except Exception:  # a property that fails is no decision
        return None
    if close and callable(method):
        return close[0]
    if alike and _takes(method, ARGUMENTS[alike[0]]):
        return alike[0]
    return None


def _meant_for(obj: object, decision: str) -> str:
    """``" (your method 'Buy' is never asked: did you mean 'buy'?)"`` if ``obj`` has a
    misspelt ``decision``, else ``""``."""
    for attribute in dir(obj):
        if attribute.startswith("_") or attribute in DECISIONS:
            continue
        if meant_decision(obj, attribute) == decision:
            return f" (your method {attribute!r} is never asked: did you mean {decision!r}?)"
    return ""


def _has_own(obj: object, decision: str) -> bool:
    """Whether ``obj`` answers ``decision`` itself (not with :class:`Strategy`'s default)."""
    if isinstance(obj, Strategy):
        own = getattr(obj, "__dict__", {})
        return decision in own or getattr(type(obj), decision) is not getattr(Strategy, decision)
    try:
        return callable(getattr(obj, decision, None))
    except Exception:  # a property that fails is no decision
        return False


def _takes(function: object, arguments: str) -> bool:
    """Whether ``function`` can be called with ``arguments`` (``"game, me, owed"``)."""
    if not callable(function):
        return False
    try:
        inspect.signature(function).bind(*arguments.split(", "))
    except (TypeError, ValueError):
        return False
    return True


def _namespace(decisions: dict[str, Callable[..., Any]]) -> object:
    holder = type("Decisions", (), {})()
    for decision, function in decisions.items():
        setattr(holder, decision, function)
    return holder


def make_strategy(name: str = "mine", **decisions: Callable[..., Any]) -> Strategy:
    """A strategy from a few functions, e.g. ``make_strategy(buy=my_buy, bid=my_bid)``.

    >>> make_strategy(buy=lambda game, me, space: space > 20).name
    'mine'
    """
    unknown = sorted(set(decisions) - set(DECISIONS))
    if unknown:
        meant = meant_decision(_namespace(decisions), unknown[0])
        hint = f"did you mean {meant!r}? " if meant else ""
        raise TypeError(
            f"unknown decision {unknown[0]!r}: {hint}The decisions are {', '.join(DECISIONS)}."
        )
    if "buy" not in decisions:
        raise TypeError("a strategy must at least have a buy decision: make_strategy(buy=...).")
    return _Plugin(_namespace(decisions), str(name))


def as_strategy(spec: object) -> Strategy:
    """A :class:`Strategy` from a name, a Strategy, a plain object with a ``buy`` method,
    or a buy function ``buy(game, me, space) -> bool``.

    >>> as_strategy("random:0.5").name
    'random:0.5'
    """
    if isinstance(spec, Strategy):
        _check_strategy(spec)
        return spec
    if isinstance(spec, str):
        return strategy_named(spec)
    if isinstance(spec, type):
        raise TypeError(
            f"give an instance of your strategy class, {spec.__name__}(), not the class itself."
        )
    if callable(getattr(spec, "buy", None)):
        name = str(getattr(spec, "name", type(spec).__name__))
        check_names(name, spec)
        return _Plugin(spec, name)
    if callable(spec):
        return _Plugin(_namespace({"buy": spec}), getattr(spec, "__name__", "mine"))
    raise TypeError(
        f"a strategy must be a name, a Strategy, a buy function or an object with a "
        f"buy(game, me, space) method; got {type(spec).__name__}, which has no buy "
        f"decision{_meant_for(spec, 'buy')}."
    )


def strategy_named(name: str) -> Strategy:
    """The built-in strategy called ``name`` (a chromosome player gets random genes, seed 0)."""
    if name in BUILT_IN:
        return BUILT_IN[name]()
    if name.startswith("random:"):
        try:
            p = float(name.removeprefix("random:"))
        except ValueError:
            p = -1.0
        if not 0 <= p <= 1:
            raise ValueError(f"random:P needs a probability P from 0 to 1, got {name!r}.")
        return RandomBuy(p)
    if name in CHROMOSOME_PLAYERS:
        return CHROMOSOME_PLAYERS[name].random(seed=0)
    known = [*BUILT_IN, "random:P", *CHROMOSOME_PLAYERS]
    raise ValueError(f"unknown strategy {name!r}: the built-in ones are {', '.join(known)}.")


PACKAGE = Path(__file__).resolve().parent
"""The package's folder: its frames are left out of a student's traceback."""


_OWN_STRATEGIES = frozenset({AlwaysBuy, NeverBuy, RandomBuy, Heuristic,
                             *CHROMOSOME_PLAYERS.values()})  # fmt: skip
_OWN_DEFAULTS = frozenset({Strategy.leave_jail, Strategy.build, Strategy.lift,
                           Strategy.raise_cash})  # fmt: skip


def watched_decisions(strategy: object) -> frozenset[str]:
    """The decisions of ``strategy`` that run code other than the package's own: the game
    checks that each of their answers left it as it was. (The built-in strategies and the
    rules' defaults only read the game; checking them would slow every game down.)"""
    own = getattr(strategy, "__dict__", {})
    if type(strategy) in _OWN_STRATEGIES and not own.keys() & {*DECISIONS, "rules"}:
        return frozenset()
    return frozenset(
        decision
        for decision in DECISIONS
        if decision in own or getattr(type(strategy), decision, None) not in _OWN_DEFAULTS
    )


def ask(decision: str, game: GameState, me: PlayerState, *args: object) -> Any:
    """Put a question to ``me``'s strategy. A crash becomes a StrategyError naming who and
    what, which starts with the strategy's own line (see :func:`student_traceback`).

    A watched decision (:func:`watched_decisions`: any code but the package's own) reads
    the game through its read-only view (:meth:`~monopoly_lesson.game_state.GameState.view`),
    and if it changed the game anyway (through private attributes, say) it is a
    :class:`~monopoly_lesson.strategies.GameChanged`. The package's own strategies and the
    rules' defaults read the game itself, at full speed: their code only reads.
    """
    watched = me.watched is None or decision in me.watched
    if watched:
        seen = game.view(me.seat)
        before, mine = game.fingerprint(me.seat), seen.player(me.seat)
    else:
        seen, mine = game, me  # type: ignore[assignment]
    try:
        answer = getattr(me.strategy, decision)(seen, mine, *args)
    except StrategyError:
        raise
    except Exception as error:
        own = student_traceback(error.__traceback__)
        where = f" ({where_raised(own)})" if own else ""
        raise StrategyError(
            f"{me.name}'s {decision} decision raised {type(error).__name__}: {error}{where}"
        ) from error.with_traceback(own)
    if watched:
        after = game.fingerprint(me.seat)
        if after != before:
            raise GameChanged(
                f"{me.name}'s {decision} decision changed the game: "
                f"{game.changes(before, after)}. A strategy may read the game but not change "
                "it (to try a change, work on game.copy())."
            )
    return answer


def student_traceback(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The frames of ``tb`` that are not the package's: the student's code (and the
    libraries it called), without the game's machinery around it."""
    frames = []
    while tb is not None:
        if not Path(tb.tb_frame.f_code.co_filename).resolve().is_relative_to(PACKAGE):
            frames.append(tb)
        tb = tb.tb_next
    kept = None
    for frame in reversed(frames):
        kept = types.TracebackType(kept, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return kept


def where_raised(tb: types.TracebackType) -> str:
    """``in my_buy, line 3: return 1 / 0``: the first frame of ``tb`` (the student's)."""
    code = tb.tb_frame.f_code
    line = linecache.getline(code.co_filename, tb.tb_lineno).strip()
    return f"in {code.co_name}, line {tb.tb_lineno}" + (f": {line}" if line else "")


Entry = TypeVar("Entry", bound=Callable[..., Any])


def shows_strategy_errors(function: Entry) -> Entry:
    """Raise a :class:`StrategyError` from ``function`` itself, not from deep inside the
    game: a student reads the message and their own line first, not the engine's frames."""

    @functools.wraps(function)
    def entry(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True  # IPython and pytest leave this frame out
        try:
            return function(*args, **kwargs)
        except StrategyError as error:
            raise error.with_traceback(None) from error.__cause__

    return entry  # type: ignore[return-value]


def ask_yes_no(decision: str, game: GameState, me: PlayerState, *args: object) -> bool:
    """A yes-or-no decision (``buy``, ``leave_jail``): True or False (numpy's too)."""
    answer = ask(decision, game, me, *args)
    if isinstance(answer, (bool, np.bool_)):
        return bool(answer)
    hint = " (does every path of the function end in a return?)" if answer is None else ""
    raise StrategyError(
        f"{me.name}'s {decision} decision must return True or False, got {answer!r}{hint}."
    )


def ask_space(decision: str, game: GameState, me: PlayerState, *args: object) -> int | None:
    """A decision that names a space (``build``, ``lift``): a whole number (numpy's too), or
    None for nothing."""
    return as_space(me, decision, ask(decision, game, me, *args))


def as_space(me: PlayerState, decision: str, space: object) -> int | None:
    """``space`` as an int if it is a whole number (None stays None); else a StrategyError."""
    if space is None:
        return None
    if isinstance(space, (bool, np.bool_)) or not isinstance(space, numbers.Integral):
        raise StrategyError(
            f"{me.name}'s {decision} decision must name a space by its number (a whole "
            f"number from 1 to 40) or None, got {space!r}{_space_hint(space)}."
        )
    return int(space)


def _space_hint(space: object) -> str:
    """What to give instead of a list of spaces or a whole-number float, or ``""``."""
    if isinstance(space, (list, tuple, np.ndarray)):
        return " (name one space at a time: the game asks again after each)"
    return _whole_hint(space, "a space")


def _whole_hint(value: object, what: str) -> str:
    """``": give a space as an int, 12, not 12.0"`` for a whole-number float, else ``""``."""
    number = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
    if not (number and float(value).is_integer()):  # type: ignore[arg-type]
        return ""
    return f": give {what} as an int, {int(value)}, not {value!r}"  # type: ignore[call-overload]


def ask_bid(game: GameState, me: PlayerState, space: int) -> int:
    """The most ``me`` would pay for ``space`` in an auction: whole dollars, 0 to its cash
    (numpy's integers too)."""
    bid = ask("bid", game, me, space)
    if isinstance(bid, (bool, np.bool_)) or not isinstance(bid, numbers.Integral):
        raise StrategyError(
            f"{me.name}'s bid decision must return whole dollars (0 for no bid), "
            f"got {bid!r}{_whole_hint(bid, 'dollars')}."
        )
    if not 0 <= bid <= me.cash:
        raise StrategyError(
            f"{me.name}'s bid decision bid ${bid} for space {space}, but a bid must be from "
            f"$0 to the player's cash, ${me.cash}."
        )
    return int(bid)
