"""Turning what a student writes into a strategy, and asking it questions safely.

A strategy may be a built-in's name (``always``, ``never``, ``heuristic``, ``random:P``,
``rga``, ``tga``, ``sga``), a :class:`~monopoly_lesson.strategies.Strategy`, a plain
object with a ``buy`` method, or a buy function. :func:`ask` puts a question to it and
turns a crash or a wrong kind of answer into a :class:`StrategyError` naming the player
and the decision.
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
    """Refuse a method whose name is a misspelt decision (it would silently never be asked)."""
    for attribute in dir(obj):
        if attribute.startswith("_") or attribute in DECISIONS:
            continue
        close = difflib.get_close_matches(attribute, DECISIONS, n=1, cutoff=0.8)
        if close and callable(getattr(obj, attribute, None)):
            raise TypeError(
                f"strategy {name!r} has a method {attribute!r}, which the game never asks: "
                f"did you mean {close[0]!r}? The decisions are {', '.join(DECISIONS)}."
            )


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
        raise TypeError(
            f"unknown decision {unknown[0]!r}: the decisions are {', '.join(DECISIONS)}."
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
        f"buy(game, me, space) method; got {type(spec).__name__}, which has no buy decision."
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


def ask(decision: str, game: GameState, me: PlayerState, *args: object) -> Any:
    """Put a question to ``me``'s strategy; a crash becomes a StrategyError naming who and
    what, which starts with the strategy's own line (see :func:`student_traceback`)."""
    try:
        return getattr(me.strategy, decision)(game, me, *args)
    except StrategyError:
        raise
    except Exception as error:
        own = student_traceback(error.__traceback__)
        where = f" ({where_raised(own)})" if own else ""
        raise StrategyError(
            f"{me.name}'s {decision} decision raised {type(error).__name__}: {error}{where}"
        ) from error.with_traceback(own)


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
    raise StrategyError(
        f"{me.name}'s {decision} decision must return True or False, got {answer!r}."
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
            f"number from 1 to 40) or None, got {space!r}."
        )
    return int(space)


def ask_bid(game: GameState, me: PlayerState, space: int) -> int:
    """The most ``me`` would pay for ``space`` in an auction: whole dollars, 0 to its cash
    (numpy's integers too)."""
    bid = ask("bid", game, me, space)
    if isinstance(bid, (bool, np.bool_)) or not isinstance(bid, numbers.Integral):
        raise StrategyError(
            f"{me.name}'s bid decision must return whole dollars (0 for no bid), got {bid!r}."
        )
    if not 0 <= bid <= me.cash:
        raise StrategyError(
            f"{me.name}'s bid decision bid ${bid} for space {space}, but a bid must be from "
            f"$0 to the player's cash, ${me.cash}."
        )
    return int(bid)
