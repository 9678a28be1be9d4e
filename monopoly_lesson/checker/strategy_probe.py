"""Play the chapter-9 check's games with the student's strategy and record its every answer.

This runs in the graded process (:mod:`monopoly_lesson.checker.graded_process`, with
``--game``), where the notebook's cells run with the whole game but not the checker. It
finds a strategy the chapter asks for (the variable ``mine``, or the trade policy
``trader``), plays the whole games the checker chose (seeds, seats, trading on or off) with
the package's engine, and reports, per game, the
sequence of answers the student's strategy gave, as plain data. Nothing here decides whether
an answer is legal or who won: the checker replays every game in its own process from these
answers alone (:mod:`monopoly_lesson.checker.capstone_check`).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import io
import math
import numbers
import sys
import types

import numpy as np

from ..game.engine import play_monopoly
from ..game.plugins import as_strategy
from ..game.strategies import DECISIONS, GameChanged, Strategy
from ..game.trade import Trade

__all__ = [
    "GRADED",
    "STRATEGY_VARIABLE",
    "TRADER_VARIABLE",
    "TRADE_DECISIONS",
    "Recorder",
    "code_place",
    "describe_strategy",
    "encode",
    "find_strategy",
    "play_recorded",
]

STRATEGY_VARIABLE = "mine"
"""The variable that holds the student's strategy in chapter 9 (``mine = make_strategy(...)``)."""
TRADER_VARIABLE = "trader"
"""The variable that holds the student's trade policy in chapter 9's trading section."""
TRADE_DECISIONS = ("propose_trade", "accept_trade")
GRADED = {STRATEGY_VARIABLE: DECISIONS, TRADER_VARIABLE: TRADE_DECISIONS}
"""Each variable chapter 9 grades, and the decisions of which at least one must be the
student's own for it to be the student's work."""
TEXT_LIMIT = 200  # characters kept of a text answer, a repr or an error message
MAX_DEPTH = 3  # tuples and lists inside an answer
MAX_ITEMS = 10  # items of a tuple or list answer
BIG = 10**18  # whole numbers larger than this are recorded by their repr only
PACKAGE = "monopoly_lesson"


def _clip(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + " [...]"


def _safe_text(value: object, show: type[str] | object = str) -> str:
    """``str(value)`` (or ``repr``), clipped; a stand-in if the student's object cannot say
    what it is."""
    try:
        return _clip(show(value))  # type: ignore[operator]
    except Exception as error:  # a student's __str__ or __repr__ may raise anything
        return f"<unprintable {type(error).__name__}>"


def encode(value: object, depth: int = 0) -> object:
    """An answer as JSON data that the checker turns back into the same value.

    None, True/False, whole numbers, finite floats and short texts are themselves;
    ``{"tuple": [...]}``, ``{"list": [...]}`` and ``{"float": "nan"}`` keep what JSON cannot,
    ``{"trade": [partner, give, take, cash]}`` a proposed
    :class:`~monopoly_lesson.game.trade.Trade` (each field encoded in turn); anything else
    is ``{"other": type name, "repr": its repr}``, which no rule accepts.
    """
    if value is None or isinstance(value, (bool, np.bool_)):
        return None if value is None else bool(value)
    if isinstance(value, numbers.Integral) and abs(int(value)) <= BIG:
        return int(value)
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        number = float(value)
        return number if math.isfinite(number) else {"float": repr(number)}
    if isinstance(value, str) and len(value) <= TEXT_LIMIT:
        return value
    if isinstance(value, Trade) and depth < MAX_DEPTH:
        fields = (value.partner, value.give, value.take, value.cash)
        return {"trade": [encode(item, depth + 1) for item in fields]}
    if isinstance(value, (tuple, list)) and len(value) <= MAX_ITEMS and depth < MAX_DEPTH:
        kind = "tuple" if isinstance(value, tuple) else "list"
        return {kind: [encode(item, depth + 1) for item in value]}
    return {"other": _clip(type(value).__name__), "repr": _safe_text(value, repr)}


def code_place(code: types.CodeType | None, line: int | None = None) -> dict | None:
    """Where code of the notebook is: the cell (its number in the notebook, from 1) and the
    line in the cell, read from the name the graded process compiles each cell under
    (``<cell N>``). None for code outside the notebook's cells (the package's, a library's).
    """
    name = getattr(code, "co_filename", "")
    if not (name.startswith("<cell ") and name.endswith(">")):
        return None
    number = name[len("<cell ") : -1]
    if not number.isdigit():
        return None
    return {"cell": int(number), "line": int(line or code.co_firstlineno)}  # type: ignore[union-attr]


def _function_of(decision: object) -> object:
    """The plain function behind a decision (bound method, ``functools.partial``, wrapper)."""
    for _ in range(20):
        if isinstance(decision, functools.partial):
            decision = decision.func
        elif hasattr(decision, "__func__"):
            decision = decision.__func__  # type: ignore[union-attr]
        else:
            break
    with contextlib.suppress(Exception):
        decision = inspect.unwrap(decision)  # type: ignore[arg-type]
    return decision


def _is_package(function: object) -> bool:
    return str(getattr(function, "__module__", "") or "").startswith(PACKAGE)


def _is_candidate(value: object, decisions: tuple[str, ...] = DECISIONS) -> bool:
    """A strategy a student made: not a class or module, with a ``buy`` decision and one of
    ``decisions`` of the student's own."""
    if isinstance(value, (type, types.ModuleType)):
        return False
    with contextlib.suppress(Exception):
        return callable(getattr(value, "buy", None)) and not all(
            _is_package(_function_of(getattr(value, d, None)))
            for d in decisions
            if getattr(value, d, None) is not None
        )
    return False


def find_strategy(
    namespace: dict, variable: str = STRATEGY_VARIABLE
) -> tuple[str | None, list[str]]:
    """The variable holding the student's strategy ``variable`` (a key of :data:`GRADED`):
    that name, else the only strategy of the notebook's own with one of its decisions (the
    other graded variables left out); and every candidate found (to name several)."""
    if variable in namespace:
        return variable, [variable]
    found = [
        name
        for name, value in list(namespace.items())[:5000]
        if not name.startswith("_")
        and name not in GRADED
        and _is_candidate(value, GRADED[variable])
    ]
    return (found[0] if len(found) == 1 else None), found[:20]


def describe_strategy(namespace: dict, variable: str = STRATEGY_VARIABLE) -> dict:
    """The student's strategy ``variable`` (a key of :data:`GRADED`): the variable found, its
    name, what of the package it plays if none of the graded decisions is the student's
    own, where each of its own decisions is defined, or why it is not a usable strategy."""
    graded = GRADED[variable]
    variable, candidates = find_strategy(namespace, variable)
    described: dict = {
        "variable": variable,
        "candidates": candidates,
        "name": "",
        "builtin": "",
        "error": "",
        "where": {},
    }
    if variable is None:
        return described
    value = namespace[variable]
    try:
        strategy = as_strategy(value)
    except Exception as error:  # as_strategy says what is wrong with it, in a TypeError
        described["error"] = _clip(f"{type(error).__name__}: {_safe_text(error)}")
        return described
    described["name"] = _safe_text(getattr(strategy, "name", "mine"))[:100]
    functions = {d: _function_of(getattr(strategy, d)) for d in DECISIONS}
    own = {d: f for d, f in functions.items() if not _is_package(f)}
    if not own.keys() & set(graded) and graded == DECISIONS:
        described["builtin"] = _package_part(value, strategy, functions["buy"])
    elif not own.keys() & set(graded):
        described["builtin"] = "default trade policy (the completion swap)"
    described["where"] = {d: code_place(getattr(f, "__code__", None)) for d, f in own.items()}
    return described


def _package_part(value: object, strategy: Strategy, buy: object) -> str:
    """What of the package a strategy without a decision of its own plays: a built-in
    strategy (``heuristic strategy``), or the package's function it buys with."""
    built_in = _is_package(type(strategy)) and type(strategy).__name__ != "_Plugin"
    if isinstance(value, str) or built_in:
        return _clip(f"{_safe_text(strategy.name)} strategy")
    return _clip(str(getattr(buy, "__qualname__", "") or getattr(buy, "__name__", "buy")))


class Recorder(Strategy):
    """The student's strategy, answering through this object, which writes down each answer
    (or the error it raised) in the order the game asked, and in ``lines`` the line of the
    decision's code that returned it (its ``return``; None if not known)."""

    def __init__(self, inner: Strategy, answers: list, lines: list | None = None) -> None:
        self.name = inner.name
        self._inner, self._answers = inner, answers
        self.lines = [] if lines is None else lines
        self._codes: dict[str, types.CodeType | None] = {}

    def _ask(self, decision: str, *args: object) -> object:
        code = self._code(decision)
        returned: list[int] = []
        try:
            value = _returning(code, returned, getattr(self._inner, decision), args)
        except Exception as error:
            raised = {"raised": [_clip(type(error).__name__)[:100], _safe_text(error)]}
            self._answers.append([decision, {**raised, "place": _raised_place(error)}])
            self.lines.append(None)
            raise
        self._answers.append([decision, encode(value)])
        self.lines.append(returned[-1] if returned else None)
        return value

    def _code(self, decision: str) -> types.CodeType | None:
        """The code of the student's own function behind ``decision`` (None: the package's)."""
        if decision not in self._codes:
            function = _function_of(getattr(self._inner, decision))
            code = getattr(function, "__code__", None)
            own = isinstance(code, types.CodeType) and not _is_package(function)
            self._codes[decision] = code if own else None
        return self._codes[decision]

    def buy(self, game: object, me: object, space: int) -> bool:  # type: ignore[override]
        """The student's buy decision, recorded."""
        return self._ask("buy", game, me, space)  # type: ignore[return-value]

    def bid(self, game: object, me: object, space: int) -> int:  # type: ignore[override]
        """The student's bid decision, recorded."""
        return self._ask("bid", game, me, space)  # type: ignore[return-value]

    def leave_jail(self, game: object, me: object) -> bool:  # type: ignore[override]
        """The student's leave_jail decision, recorded."""
        return self._ask("leave_jail", game, me)  # type: ignore[return-value]

    def build(self, game: object, me: object) -> int | None:  # type: ignore[override]
        """The student's build decision, recorded."""
        return self._ask("build", game, me)  # type: ignore[return-value]

    def lift(self, game: object, me: object) -> int | None:  # type: ignore[override]
        """The student's lift decision, recorded."""
        return self._ask("lift", game, me)  # type: ignore[return-value]

    def raise_cash(self, game: object, me: object, owed: int) -> tuple[str, int] | None:  # type: ignore[override]
        """The student's raise_cash decision, recorded."""
        return self._ask("raise_cash", game, me, owed)  # type: ignore[return-value]

    def propose_trade(self, game: object, me: object) -> Trade | None:  # type: ignore[override]
        """The student's propose_trade decision, recorded."""
        return self._ask("propose_trade", game, me)  # type: ignore[return-value]

    def accept_trade(self, game: object, me: object, offer: Trade) -> bool:  # type: ignore[override]
        """The student's accept_trade decision, recorded."""
        return self._ask("accept_trade", game, me, offer)  # type: ignore[return-value]


def _returning(
    code: types.CodeType | None, returned: list[int], decision: object, args: tuple
) -> object:
    """Call ``decision(*args)``, noting in ``returned`` the line at which ``code`` returned
    (a profile hook that looks only at that code's return; the previous hook is put back)."""
    if code is None:
        return decision(*args)  # type: ignore[operator]
    previous = sys.getprofile()

    def hook(frame: types.FrameType, event: str, arg: object) -> None:
        if event == "return" and frame.f_code is code:
            returned.append(frame.f_lineno)

    sys.setprofile(hook)
    try:
        return decision(*args)  # type: ignore[operator]
    finally:
        sys.setprofile(previous)


def _raised_place(error: BaseException) -> dict | None:
    """The notebook line nearest to where ``error`` was raised (the innermost cell frame)."""
    place, traceback = None, error.__traceback__
    while traceback is not None:
        found = code_place(traceback.tb_frame.f_code, traceback.tb_lineno)
        place = found or place
        traceback = traceback.tb_next
    return place


def play_recorded(value: object, games: list[dict]) -> list[dict]:
    """Play each of the checker's ``games`` (``seed``, ``seats`` with None for the student's
    strategy, ``max_rounds``, ``trading``) and record the student's answers, the line that
    returned each, the finish and any error."""
    strategy = as_strategy(value)
    records = []
    for game in games:
        answers: list = []
        recorder = Recorder(strategy, answers)
        seats = [recorder if seat is None else seat for seat in game["seats"]]
        record = {
            "answers": answers,
            "lines": recorder.lines,
            "finish": None,
            "rounds": None,
            "error": None,
        }
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # a strategy may print
                result = play_monopoly(
                    seats, seed=game["seed"], max_rounds=game["max_rounds"], trading=game["trading"]
                )
            record["finish"], record["rounds"] = list(result.finish_order), result.rounds
        except Exception as error:  # the game stops as it would in the notebook
            if isinstance(error, GameChanged) and answers:
                _changed_the_game(answers, error)
            record["error"] = _clip(f"{type(error).__name__}: {_safe_text(error)}")
        records.append(record)
    return records


def _changed_the_game(answers: list, error: GameChanged) -> None:
    """The last answer changed the game: record it as the error it is, so that the replay,
    which cannot see what the strategy did to the game, stops there with the same message."""
    decision = answers[-1][0]
    answers[-1] = [decision, {"raised": ["StrategyError", _safe_text(error)], "place": None}]
