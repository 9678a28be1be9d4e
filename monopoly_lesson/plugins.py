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
import inspect
import numbers
import weakref
from collections.abc import Callable
from typing import Any

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

__all__ = ["BUILT_IN", "as_strategy", "ask", "make_strategy", "strategy_named"]

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


def ask(decision: str, game: GameState, me: PlayerState, *args: object) -> Any:
    """Put a question to ``me``'s strategy; a crash becomes a StrategyError naming who and what."""
    try:
        return getattr(me.strategy, decision)(game, me, *args)
    except StrategyError:
        raise
    except Exception as error:
        raise StrategyError(
            f"{me.name}'s {decision} decision raised {type(error).__name__}: {error}"
        ) from error


def ask_yes_no(decision: str, game: GameState, me: PlayerState, *args: object) -> bool:
    """A yes-or-no decision (``buy``, ``leave_jail``): True or False, nothing else."""
    answer = ask(decision, game, me, *args)
    if answer is True or answer is False or type(answer).__name__ == "bool_":
        return bool(answer)
    raise StrategyError(
        f"{me.name}'s {decision} decision must return True or False, got {answer!r}."
    )


def ask_bid(game: GameState, me: PlayerState, space: int) -> int:
    """The most ``me`` would pay for ``space`` in an auction: whole dollars, 0 to its cash."""
    bid = ask("bid", game, me, space)
    if isinstance(bid, bool) or not isinstance(bid, numbers.Integral):
        raise StrategyError(
            f"{me.name}'s bid decision must return whole dollars (0 for no bid), got {bid!r}."
        )
    if not 0 <= bid <= me.cash:
        raise StrategyError(
            f"{me.name}'s bid decision bid ${bid} for space {space}, but a bid must be from "
            f"$0 to the player's cash, ${me.cash}."
        )
    return int(bid)
