"""Asking a strategy a question, safely: the game's side of every decision.

:func:`ask` puts a question to a player's strategy, with the game as the player's
read-only :class:`~monopoly_lesson.game.state.GameView` when the strategy's code is not
the package's own, and turns a crash, a wrong kind of answer, or a change made to the
game into a :class:`~monopoly_lesson.game.strategies.StrategyError` naming the player and the
decision. It knows nothing of how strategies are made (:mod:`monopoly_lesson.game.plugins`),
so the game's rules load no chromosome player to ask a question.
"""

from __future__ import annotations

import functools
import linecache
import numbers
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .state import GameState, PlayerState
from .strategies import GameChanged, StrategyError

__all__ = [
    "PACKAGE",
    "as_space",
    "ask",
    "ask_bid",
    "ask_space",
    "ask_yes_no",
    "shows_strategy_errors",
    "student_traceback",
    "where_raised",
]

PACKAGE = Path(__file__).resolve().parent.parent
"""The package's folder, subpackages and all: its frames are left out of a student's
traceback."""


def ask(decision: str, game: GameState, me: PlayerState, *args: object) -> Any:
    """Put a question to ``me``'s strategy. A crash becomes a StrategyError naming who and
    what, which starts with the strategy's own line (see :func:`student_traceback`).

    A watched decision (:func:`watched_decisions`: any code but the package's own) reads
    the game through its read-only view (:meth:`~monopoly_lesson.game.state.GameState.view`),
    and if it changed the game anyway (through private attributes, say) it is a
    :class:`~monopoly_lesson.game.strategies.GameChanged`. The package's own strategies and the
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
        try:
            after = game.fingerprint(me.seat)
            changes = game.changes(before, after) if after != before else ""
        except Exception as error:  # the game's own values always read: something else does not
            changes = f"it no longer reads ({type(error).__name__}: {error})"
        if changes:
            raise GameChanged(
                f"{me.name}'s {decision} decision changed the game: {changes}. A strategy may "
                "read the game but not change it (to try a change, work on game.copy())."
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
