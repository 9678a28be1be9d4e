"""Turning what a student writes into a strategy, checked before the game starts.

A strategy may be a built-in's name (``always``, ``never``, ``heuristic``, ``dealer``,
``random:P``, ``rga``, ``tga``, ``sga``, ``ega``, ``bga``), a shipped evolved player's
(:data:`SHIPPED_PLAYERS`: ``league``, ``ega_trading``, ``ega_always``, ``rga_level``,
``rga_finish_order``), ``you`` (a person's seat, :class:`~monopoly_lesson.game.person.You`), a
:class:`~monopoly_lesson.game.strategies.Strategy`, a plain object with a ``buy`` method,
or a buy function. :func:`watched_decisions` says which of
its decisions run the student's code, which :func:`~monopoly_lesson.game.asking.ask` then gives
a read-only view of the game and checks.
"""

from __future__ import annotations

import contextlib
import difflib
import inspect
import json
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..checks import damaged_data
from .chromosomes import CHROMOSOME_PLAYERS, RGA
from .dealer import Dealer
from .person import NOBODY_ANSWERS, PERSON, You
from .state import MAX_PLAYERS, MIN_PLAYERS
from .strategies import (
    DECISIONS,
    AlwaysBuy,
    Heuristic,
    NeverBuy,
    RandomBuy,
    Strategy,
)

__all__ = [
    "BUILT_IN",
    "SHIPPED_DATA",
    "SHIPPED_PLAYERS",
    "as_strategy",
    "check_strategies",
    "make_strategy",
    "strategy_named",
    "watched_decisions",
]


def check_strategies(strategies: object) -> list[Strategy]:
    """One strategy per player, each as :func:`as_strategy` makes it, for 2 to 8 players;
    else a plain error that names the argument, ``strategies``, and says what to give."""
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence):
        raise TypeError(
            f"strategies must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} strategies (one per "
            f"player), e.g. ['always', 'never'], got {strategies!r}."
        )
    if not MIN_PLAYERS <= len(strategies) <= MAX_PLAYERS:
        raise ValueError(
            f"strategies must be {MIN_PLAYERS} to {MAX_PLAYERS} strategies (one per player), "
            f"got {len(strategies)}."
        )
    checked = []
    for strategy in strategies:
        try:
            checked.append(as_strategy(strategy))
        except (TypeError, ValueError) as error:  # said of the argument the student passed
            kind = TypeError if isinstance(error, TypeError) else ValueError
            raise kind(f"strategies: {error}") from None
        if isinstance(checked[-1], You) and checked[-1].answer is None:
            raise ValueError(f"strategies: {NOBODY_ANSWERS}.")
    return checked


BUILT_IN: dict[str, type[Strategy]] = {
    "always": AlwaysBuy,
    "never": NeverBuy,
    "heuristic": Heuristic,
    "dealer": Dealer,
}
"""The built-in strategies without parameters, by name."""
SHIPPED_PLAYERS = ("league", "ega_trading", "ega_always", "rga_level", "rga_finish_order")
"""The shipped evolved players, by the names of their shipped runs
(:data:`monopoly_lesson.evolution.shipped.SHIPPED_RUNS`): each run's final best genome."""
SHIPPED_DATA = Path(__file__).resolve().parent.parent / "data" / "players"
"""The shipped evolved players' data files, ``NAME.json``: each player's chromosome and
genes, written from its shipped run by ``tools/shipped_players.py``."""


ARGUMENTS = {
    "buy": "game, me, space",
    "bid": "game, me, space",
    "leave_jail": "game, me",
    "build": "game, me",
    "lift": "game, me",
    "raise_cash": "game, me, owed",
    "propose_trade": "game, me",
    "accept_trade": "game, me, offer",
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
    """The built-in strategy called ``name`` (a chromosome player gets random genes, seed 0),
    a shipped evolved player (its run's final best genome, named as the run), or ``"you"``
    (a person's seat, with nobody to answer until a game stepper gives it its questions)."""
    if name == PERSON:
        return You()
    if name in SHIPPED_PLAYERS:
        return shipped_player(name)
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
    raise ValueError(
        f"unknown strategy {name!r}; the built-in ones are {', '.join(known)}; the shipped "
        f"evolved players {', '.join(SHIPPED_PLAYERS)}; and {PERSON} (a person's seat)."
    )


def shipped_player(name: str) -> Strategy:
    """The shipped run ``name``'s final best genome as a player named ``name``, read from its
    data file in :data:`SHIPPED_DATA` when asked for. (The game sits below the genetic
    algorithm, which plays games: it reads the player as data, not through the run.)"""
    path = SHIPPED_DATA / f"{name}.json"
    if not path.is_file():
        raise damaged_data(path, "is missing")
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise damaged_data(path, f"cannot be read as JSON ({error})") from None
    kind, genes = _chromosome_and_genes(stored, name)
    if kind is None:
        raise damaged_data(path, f"is not what it should be: not {name}'s chromosome and genes")
    try:
        player = kind.from_genes(*genes)
    except (TypeError, ValueError) as error:
        raise damaged_data(path, f"is not what it should be: {str(error).rstrip('.')}") from None
    player.name = name
    return player


def _chromosome_and_genes(stored: object, name: str) -> tuple[type[RGA] | None, list]:
    """The chromosome player's class and its tables of genes, in order, that a shipped
    player's file holds; ``(None, [])`` if it does not hold them for the player ``name``."""
    if not isinstance(stored, dict) or stored.get("name") != name:
        return None, []
    chromosome, genes = stored.get("chromosome"), stored.get("genes")
    kind = CHROMOSOME_PLAYERS.get(chromosome) if isinstance(chromosome, str) else None
    if kind is None or not isinstance(genes, dict) or list(genes) != list(kind.gene_tables()):
        return None, []
    return kind, list(genes.values())


_OWN_STRATEGIES = frozenset(
    {AlwaysBuy, NeverBuy, RandomBuy, Heuristic, *CHROMOSOME_PLAYERS.values()}
)
_OWN_DEFAULTS = frozenset(
    {
        Strategy.leave_jail,
        Strategy.build,
        Strategy.lift,
        Strategy.raise_cash,
        Strategy.propose_trade,
        Strategy.accept_trade,
    }
)


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
