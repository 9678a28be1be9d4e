"""Grade chapter 9's own strategies: the games they play are replayed here, from their answers.

Chapter 9 asks for a strategy (``mine``, played without trading) and a trade policy
(``trader``, played with trading on, against the built-in strategies' default traders).
The student's strategy is the student's code, so it runs only in the graded process, which
holds the whole game but not the checker (:mod:`monopoly_lesson.checker.graded_process`). The
checker chooses the games (seeds, and the seats rotated as :func:`~monopoly_lesson.game.
tournament.play_games` rotates them, against ``heuristic``, ``always`` and ``always``); the
graded process plays them and reports, per game, the sequence of answers the strategy gave
(:mod:`monopoly_lesson.checker.strategy_probe`). Here each game is replayed with the
reference engine, the recorded answers fed back in order by a :class:`ScriptedStrategy`: the
engine checks every answer against the rules, and the results (who won) are the replay's,
never the graded process's. A report of answers its strategy did not give is caught when
the replay asks another question than the one recorded, runs out of answers, has answers
left, or ends the game otherwise than the report said.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pandas as pd

from ..game.engine import play_monopoly
from ..game.plugins import BUILT_IN, SHIPPED_PLAYERS, strategy_named
from ..game.result import GameResult
from ..game.strategies import DECISIONS, Strategy, StrategyError
from ..game.tournament import game_seed, strategy_labels, win_rates
from ..game.trade import Trade
from .handed_out import handed_out_at, handed_out_starters
from .strategy_probe import GRADED, STRATEGY_VARIABLE, TRADER_VARIABLE, encode

if TYPE_CHECKING:
    from .submission_code import SubmissionCode

__all__ = [
    "CAPSTONE_GAMES",
    "CAPSTONE_SEED",
    "NO_STRATEGY",
    "OPPONENTS",
    "TRADING",
    "GameReplay",
    "Judge",
    "ScriptedStrategy",
    "StrategyReport",
    "capstone_games",
    "decode",
    "handed_out_strategy",
    "known_decisions",
    "missing_strategy",
    "plays_as_reason",
    "refusal_before_running",
    "replay_game",
]

CAPSTONE_GAMES = 400
"""Games the student's strategy plays in a check (the chapter plays 400 for its duel)."""
CAPSTONE_SEED = 2026
"""The seed of the check's games (not the chapter's own 3: a strategy tuned to those games
is measured on others)."""
OPPONENTS = ("heuristic", "always", "always")
"""The strategies it plays against, as in the chapter's duel."""
TRADING = {STRATEGY_VARIABLE: False, TRADER_VARIABLE: True}
"""Whether each graded variable's games are played with trading on."""
MAX_ROUNDS = 100
BATCH = 20
"""Games the graded process is asked to play per question."""
NO_STRATEGY = (
    f"no strategy named {STRATEGY_VARIABLE} (the chapter's "
    f'{STRATEGY_VARIABLE} = make_strategy("mine", buy=my_buy))'
)
"""Why a chapter-9 notebook without the strategy to grade cannot be graded."""
WHAT = {STRATEGY_VARIABLE: "strategy", TRADER_VARIABLE: "trade policy"}
"""What each graded variable holds, in the check's words."""


def capstone_games(
    games: int = CAPSTONE_GAMES, seed: int = CAPSTONE_SEED, trading: bool = False
) -> list[dict]:
    """The check's games as data: ``game`` (from 0), ``seed``, ``seats`` (a strategy's name
    per seat, None for the student's), ``max_rounds``, ``trading``; game ``g`` is
    ``play_games``'s game ``g`` for ``[mine, *OPPONENTS]`` (with ``trading``): the same
    seed, the seats rotated by ``g % 4``."""
    entries: list[str | None] = [None, *OPPONENTS]
    count = len(entries)
    setups = []
    for game in range(games):
        shift = game % count
        seats = [entries[(shift + seat) % count] for seat in range(count)]
        setups.append(
            {
                "game": game,
                "seed": game_seed(seed, game),
                "seats": seats,
                "max_rounds": MAX_ROUNDS,
                "trading": trading,
            }
        )
    return setups


class _Unprintable:
    """An answer the graded process could only describe (its type and repr): no rule accepts it."""

    def __init__(self, kind: str, text: str) -> None:
        self.kind, self.text = kind, text

    def __repr__(self) -> str:
        return self.text


def decode(value: object) -> object:
    """An encoded answer (``strategy_probe.encode``) as the value the strategy returned."""
    if not isinstance(value, dict):
        return value
    if "tuple" in value:
        return tuple(decode(item) for item in value["tuple"])
    if "list" in value:
        return [decode(item) for item in value["list"]]
    if "float" in value:
        return float(value["float"])
    if "trade" in value:
        partner, give, take, cash = (decode(item) for item in value["trade"])
        return Trade(partner, give, take, cash)  # type: ignore[arg-type]
    return _Unprintable(value["other"], value["repr"])


class ReplayDisagrees(Exception):
    """The replay asked the strategy something the graded process's record does not answer."""


def _raised(kind: str, message: str) -> Exception:
    """An error like the one the student's decision raised: same type name, same message."""
    if kind == "StrategyError":
        return StrategyError(message)
    name = kind if kind.isidentifier() else "Error"
    return type(name, (Exception,), {"__str__": lambda self: message})()


JUDGED_ANSWERS = 20
"""The fewest answers of a decision that can show it to be another's (fewer may agree by
chance: a check of a handful of games judges no decision)."""


class Judge:
    """Which known players answer a strategy's own decisions as it does, question for
    question: the built-in and shipped players and the chapter's starter code.

    ``candidates`` maps each decision the student wrote to the known functions that could
    answer it (a label each). As the games are replayed every recorded answer is put to
    them with its question; one that answers otherwise once is dropped. A decision whose
    every answer a known function gave, over the whole check, is that function's work,
    however it is spelt (names, order, wrappers).
    """

    def __init__(self, candidates: dict[str, dict[str, Callable[..., object]]]) -> None:
        self.alive = {decision: dict(known) for decision, known in candidates.items()}
        self.asked: Counter[str] = Counter()

    def hear(self, decision: str, value: object, game: object, me: object, args: tuple) -> None:
        """One recorded answer (encoded, as sent) to a question of the game."""
        if decision not in self.alive or (isinstance(value, dict) and "raised" in value):
            return
        self.asked[decision] += 1
        for label, function in list(self.alive[decision].items()):
            try:
                same = encode(function(game, me, *args)) == value
            except Exception:  # a known function that cannot answer this is not this one
                same = False
            if not same:
                del self.alive[decision][label]

    def plays_as(self) -> dict[str, list[str]]:
        """For each decision the student wrote that the games asked at least
        :data:`JUDGED_ANSWERS` times, the known functions that gave every one of its answers;
        {} if any such decision matches none (or none was asked that often): then the
        strategy is the student's own (a few answers alike may be chance)."""
        asked = {
            d: list(known) for d, known in self.alive.items() if self.asked[d] >= JUDGED_ANSWERS
        }
        return asked if asked and all(asked.values()) else {}


class ScriptedStrategy(Strategy):
    """Answers each question with the next answer recorded in the graded process, in order.

    No student code: the answers are data. ``problem`` says where the record and the
    replay parted, ``last`` is the last answer given (decision and encoded value).
    """

    def __init__(self, name: str, answers: list, judge: Judge | None = None) -> None:
        self.name = name
        self._answers, self._next = answers, 0
        self.problem, self.last = "", ("", None)
        self.judge = judge

    @property
    def unused(self) -> int:
        """Recorded answers never asked for."""
        return len(self._answers) - self._next

    def _answer(self, decision: str, game: object, me: object, *args: object) -> object:
        if not self.problem and self._next >= len(self._answers):
            self.problem = (
                f"the game asks its {decision} decision, but the graded process recorded "
                f"only {len(self._answers)} answers"
            )
        elif not self.problem and self._answers[self._next][0] != decision:
            recorded = self._answers[self._next][0]
            self.problem = (
                f"question {self._next + 1} of the game is its {decision} "
                f"decision, but the graded process recorded a {recorded} answer"
            )
        if self.problem:
            raise ReplayDisagrees(self.problem)
        _, value = self._answers[self._next]
        self._next += 1
        self.last = (decision, value)
        if self.judge is not None:
            self.judge.hear(decision, value, game, me, args)
        if isinstance(value, dict) and "raised" in value:
            raise _raised(*value["raised"])
        return decode(value)

    def buy(self, game: object, me: object, space: int) -> bool:  # type: ignore[override]
        """The recorded buy answer."""
        return self._answer("buy", game, me, space)  # type: ignore[return-value]

    def bid(self, game: object, me: object, space: int) -> int:  # type: ignore[override]
        """The recorded bid answer."""
        return self._answer("bid", game, me, space)  # type: ignore[return-value]

    def leave_jail(self, game: object, me: object) -> bool:  # type: ignore[override]
        """The recorded leave_jail answer."""
        return self._answer("leave_jail", game, me)  # type: ignore[return-value]

    def build(self, game: object, me: object) -> int | None:  # type: ignore[override]
        """The recorded build answer."""
        return self._answer("build", game, me)  # type: ignore[return-value]

    def lift(self, game: object, me: object) -> int | None:  # type: ignore[override]
        """The recorded lift answer."""
        return self._answer("lift", game, me)  # type: ignore[return-value]

    def raise_cash(self, game: object, me: object, owed: int) -> tuple[str, int] | None:  # type: ignore[override]
        """The recorded raise_cash answer."""
        return self._answer("raise_cash", game, me, owed)  # type: ignore[return-value]

    def propose_trade(self, game: object, me: object) -> Trade | None:  # type: ignore[override]
        """The recorded propose_trade answer."""
        return self._answer("propose_trade", game, me)  # type: ignore[return-value]

    def accept_trade(self, game: object, me: object, offer: Trade) -> bool:  # type: ignore[override]
        """The recorded accept_trade answer."""
        return self._answer("accept_trade", game, me, offer)  # type: ignore[return-value]


@dataclass(frozen=True)
class GameReplay:
    """One game replayed: its result, or why it failed.

    ``illegal`` is the rules' objection to an answer (or the error the strategy raised),
    ``decision`` the decision it concerns and ``place`` where the strategy raised it (from
    the graded process, for the report only); ``disagrees`` says how the graded process's
    record and the replay parted.
    """

    result: GameResult | None = None
    illegal: str = ""
    decision: str = ""
    place: dict | None = None
    disagrees: str = ""


def replay_game(setup: dict, record: dict, name: str, judge: Judge | None = None) -> GameReplay:
    """Replay one of :func:`capstone_games` with the answers the graded process recorded for it; a
    ``judge`` hears each answer with the question it answered."""
    script = ScriptedStrategy(name, record["answers"], judge)
    seats = [script if seat is None else seat for seat in setup["seats"]]
    try:
        result = play_monopoly(
            seats, seed=setup["seed"], max_rounds=setup["max_rounds"], trading=setup["trading"]
        )
    except Exception as error:  # the rules' objection to an answer, or the strategy's error
        if script.problem:
            return GameReplay(disagrees=script.problem)
        if record["error"] is None:
            return GameReplay(
                disagrees="its replay stops on an answer that the graded process's game "
                f"went past ({_message(error)})"
            )
        if script.unused:
            return GameReplay(
                disagrees=f"the graded process recorded {script.unused} answers after "
                "the one that stops the game"
            )
        decision, value = script.last
        place = value.get("place") if isinstance(value, dict) and "raised" in value else None
        return GameReplay(illegal=_message(error), decision=decision, place=place)
    if script.unused:
        return GameReplay(disagrees=f"{script.unused} recorded answers were never asked for")
    if record["error"] is not None:
        return GameReplay(
            disagrees=f"the graded process's game stopped ({record['error']}), its replay did not"
        )
    if list(result.finish_order) != record["finish"] or result.rounds != record["rounds"]:
        return GameReplay(
            disagrees=(
                f"the graded process's game ended after {record['rounds']} rounds, finish order "
                f"{record['finish']}; its replay after {result.rounds}, "
                f"{list(result.finish_order)}:"
                " a strategy may read the game but not change it"
            )
        )
    return GameReplay(result=result)


def _message(error: Exception) -> str:
    if isinstance(error, StrategyError):
        return str(error)
    return f"{type(error).__name__}: {error}"


@dataclass
class StrategyReport:
    """The strategy's games: every one replayed and legal, its win rate against each
    opponent with a Wilson 95% interval; or the first game that failed, and why.
    ``trading``: the games are played with trading on (the trade policy's games)."""

    variable: str
    name: str
    seed: int
    planned: int
    trading: bool = False
    setups: list[dict] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    failure: str = ""
    where: str = ""
    plays_as: dict[str, list[str]] = field(default_factory=dict)  # see Judge.plays_as

    @property
    def passed(self) -> bool:
        """True when every game was played, replayed and legal."""
        return not self.failure and len(self.results) == self.planned

    def add(self, setup: dict, replay: GameReplay, where: str = "") -> None:
        """Record one replayed game; the first failure is kept (and no game after it)."""
        number = (
            f"game {setup['game']} of the check's {self.planned} (counted from 0, as "
            f"play_games counts), seed {setup['seed']}"
        )
        if replay.disagrees:
            self.failure = (
                f"{number}: the answers the graded process reported are not the ones its "
                f"game got: {replay.disagrees}"
            )
        elif replay.illegal:
            self.failure, self.where = f"{number}: {replay.illegal}", where
        else:
            self.setups.append(setup)
            self.results.append(replay.result)  # type: ignore[arg-type]

    def fail(self, why: str) -> None:
        """A failure that is no game's (the graded process did not answer, or not readably)."""
        self.failure = self.failure or why

    def labels(self) -> list[str]:
        """The table's name for each entry: the student's variable, then the opponents."""
        mine = f"{self.variable} (yours)" if self.variable in OPPONENTS else self.variable
        return strategy_labels([SimpleNamespace(name=name) for name in (mine, *OPPONENTS)])

    def table(self) -> pd.DataFrame:
        """One row per player per game: strategy, winner, finish, net worth (``play_games``'s
        columns that ``win_rates`` reads)."""
        labels = self.labels()
        count, rows = len(labels), []
        for setup, result in zip(self.setups, self.results, strict=True):
            for seat in range(1, count + 1):
                entry = (setup["game"] % count + seat - 1) % count  # as capstone_games seats it
                finish = result.finish_order.index(seat) + 1
                worth = result.net_worth[seat - 1]
                rows.append(
                    {
                        "strategy": labels[entry],
                        "winner": finish == 1,
                        "finish": finish,
                        "net_worth": worth,
                    }
                )
        table = pd.DataFrame(rows, columns=["strategy", "winner", "finish", "net_worth"])
        table["strategy"] = pd.Categorical(table["strategy"], categories=labels)
        return table

    def summary(self) -> str:
        """The summary line of a failed check ('' when it passed)."""
        if self.passed:
            return ""
        where = f" ({self.where})" if self.where else ""
        return f"Broken {self.what}: {self.variable}: {self.failure}{where}"

    @property
    def what(self) -> str:
        """What is graded: ``strategy``, or ``trade policy`` for the games with trading."""
        return "trade policy" if self.trading else "strategy"

    def __str__(self) -> str:
        trading = ", trading on" if self.trading else ""
        head = (
            f"{self.what}: {self.variable} (named {self.name!r}) against "
            f"{', '.join(OPPONENTS)}{trading}, seats rotated, seed {self.seed}"
        )
        if not self.passed:
            where = f"\n  the line: {self.where}" if self.where else ""
            played = f"{len(self.results)} of {self.planned} games played and legal before it"
            return f"{head}\n  FAIL  {self.failure}{where}\n  ({played})"
        rates = win_rates(self.table())
        lines = [
            f"{head}: all {self.planned} games played, every answer legal",
            f"  {'strategy':<12}{'games':>6}{'wins':>6}  win rate  95% interval",
        ]
        for label, row in rates.iterrows():
            lines.append(
                f"  {label:<12}{int(row['games']):>6}{int(row['wins']):>6}  "
                f"{row['win_rate']:8.1%}  {_interval(row)}"
            )
        return "\n".join([*lines, f"  {self.headline()}"])

    def headline(self) -> str:
        """The student's win rate against the heuristic player's, both with their intervals,
        and whether the games tell them apart ('' unless every game passed)."""
        if not self.passed:
            return ""
        rates, labels = win_rates(self.table()), self.labels()
        mine, heuristic = rates.loc[labels[0]], rates.loc[labels[OPPONENTS.index("heuristic") + 1]]
        if mine["ci_low"] > heuristic["ci_high"]:
            verdict = "better than the heuristic player, beyond the games' luck"
        elif mine["ci_high"] < heuristic["ci_low"]:
            verdict = "worse than the heuristic player, beyond the games' luck"
        else:
            verdict = "the intervals overlap, so these games cannot tell the two apart"
        return (
            f"{labels[0]} won {mine['win_rate']:.1%} of {self.planned} games (95% "
            f"interval {_interval(mine)}), the heuristic player {heuristic['win_rate']:.1%} "
            f"({_interval(heuristic)}): {verdict}."
        )


def _interval(row: pd.Series) -> str:
    return f"{row['ci_low']:.1%} to {row['ci_high']:.1%}"


def known_decisions(variable: str, owned: set[str], chapter: int | None) -> Judge:
    """A :class:`Judge` of the decisions of ``variable`` that the student wrote (``owned``,
    among those it is graded on): each may answer as a built-in player's, a shipped
    player's, the package's default, or one of the chapter's starter functions."""
    players = {f"the built-in {name}": strategy_named(name) for name in BUILT_IN}
    players |= {f"the shipped player {name}": strategy_named(name) for name in SHIPPED_PLAYERS}
    starters = handed_out_starters(chapter)
    candidates: dict[str, dict[str, Callable[..., object]]] = {}
    for decision in sorted(owned & set(GRADED[variable])):
        known: dict[str, Callable[..., object]] = {}
        for label, player in players.items():
            function = getattr(player, decision)
            if getattr(function, "__func__", None) is getattr(Strategy, decision):
                label = f"the package's default {decision}"
            known.setdefault(label, function)
        for name, function in starters.items():
            known[f"the chapter's starter {name}"] = function
        candidates[decision] = known
    return Judge(candidates)


def plays_as_reason(variable: str, plays_as: dict[str, list[str]]) -> tuple[bool, str]:
    """Whether a strategy that plays as known code is only the chapter's starter (not
    answered) rather than the package's players (not own work), and the words for it."""
    starter = all(any("starter" in label for label in known) for known in plays_as.values())
    parts = []
    for decision, known in plays_as.items():
        pick = [label for label in known if "starter" in label] if starter else known
        parts.append(f"its {decision} answers are those of {pick[0]}")
    said = "; ".join(parts) + ", in every game of the check"
    if starter:
        return True, f"{said}: write your own {WHAT[variable]} in the variable {variable}"
    return False, f"{variable} plays as the package's own players: {said}"


# -- before the games: a strategy to grade, and not the chapter's own starter --------------

PLURAL = {STRATEGY_VARIABLE: "strategies", TRADER_VARIABLE: "trade policies"}


def missing_strategy(variable: str, candidates: list[str]) -> str:
    """Why a notebook has no ``variable`` to grade: several candidates and none named so, or
    none at all (for ``mine``, the chapter's line to keep)."""
    if candidates:
        return (
            f"several {PLURAL[variable]} ({', '.join(candidates)}) and none named "
            f"{variable}: name the one to grade {variable}"
        )
    if variable == STRATEGY_VARIABLE:
        return NO_STRATEGY
    return f"write your {WHAT[variable]} in the variable {variable}"


def _cell_source(notebook: object, number: int) -> str | None:
    """The source of the notebook's code cell number ``number`` (counted from 1)."""
    cells = getattr(notebook, "cells", [])
    if 0 < number <= len(cells) and cells[number - 1].get("cell_type") == "code":
        return str(cells[number - 1].get("source", ""))
    return None


def handed_out_strategy(
    notebook: object, chapter: int | None, variable: str, where: dict[str, dict | None]
) -> list[str]:
    """The chapter's handed-out functions that ``variable``'s graded decisions are, if every
    one of them is the student edition's code unchanged ([] if any is the student's own).

    ``where`` is the place of each own decision (the cell's number and the line); the
    code there is read from the notebook and compared by fingerprint
    (:mod:`monopoly_lesson.checker.handed_out`).
    """
    graded = [decision for decision in GRADED[variable] if decision in where]
    names: list[str] = []
    for decision in graded:
        place = where[decision]
        source = _cell_source(notebook, place["cell"]) if place else None
        name = handed_out_at(chapter, source, place["line"]) if source and place else None
        if name is None:
            return []
        names.append(name)
    return list(dict.fromkeys(names))


def handed_out_reason(variable: str, names: list[str]) -> str:
    """How to answer when ``variable`` plays the chapter's starter functions ``names``."""
    return (
        f"the chapter's starter {' and '.join(names)}, unchanged: write your own "
        f"{WHAT[variable]} in the variable {variable}"
    )


DECISION_NAMES = frozenset(DECISIONS)
HATCHES = frozenset(
    {
        "exec",
        "eval",
        "compile",
        "globals",
        "vars",
        "locals",
        "setattr",
        "__import__",
        "get_ipython",
        "__dict__",
        "__builtins__",
        "builtins",
        "modules",
        "f_globals",
        "f_locals",
        "user_ns",
        "run_cell",
        "run_line_magic",
        "run_cell_magic",
        "import_module",
        "run_path",
        "run_module",
        "push",
        "read_pickle",
        "allow_pickle",
        "__getattr__",
        "__getattribute__",
        "__class_getitem__",
        "__init_subclass__",
        "__set_name__",
    }
)
"""Names through which code may bind a variable, or make a strategy, out of a static look's
sight."""
SAFE_MODULES = frozenset(
    {
        "monopoly_lesson",
        "math",
        "cmath",
        "random",
        "statistics",
        "itertools",
        "functools",
        "collections",
        "inspect",
        "dataclasses",
        "typing",
        "re",
        "time",
        "string",
        "fractions",
        "decimal",
        "operator",
        "textwrap",
        "pprint",
        "warnings",
        "json",
        "csv",
        "datetime",
        "copy",
        "enum",
        "abc",
        "heapq",
        "bisect",
        "numpy",
        "pandas",
        "plotly",
        "matplotlib",
        "scipy",
        "IPython",
        "ipywidgets",
    }
)
"""Modules that give a notebook no strategy of their own (any other might)."""


def _binds(node: ast.AST, name: str) -> bool:
    """Whether ``node`` may bind the variable ``name`` (anywhere, in any scope)."""
    if isinstance(node, ast.Name | ast.Attribute):
        found = node.id if isinstance(node, ast.Name) else node.attr
        return found == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.ExceptHandler):
        return node.name == name
    if isinstance(node, ast.alias):
        return (node.asname or node.name.split(".")[0]) == name
    if isinstance(node, ast.Global | ast.Nonlocal):
        return name in node.names
    if isinstance(node, ast.MatchAs | ast.MatchStar):
        return node.name == name
    return isinstance(node, ast.MatchMapping) and node.rest == name


def _out_of_sight(node: ast.AST) -> bool:
    """Code that may bind names or make strategies that a static look cannot see: ``exec``,
    the namespace's dictionaries, the kernel's own runner, ``import *``, other modules."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        module = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        modules = module or [alias.name for alias in node.names]
        relative = isinstance(node, ast.ImportFrom) and node.level > 0
        star = any(alias.name == "*" for alias in node.names)
        return relative or star or any(m.split(".")[0] not in SAFE_MODULES for m in modules)
    names = {
        ast.Name: "id",
        ast.Attribute: "attr",
        ast.keyword: "arg",
        ast.FunctionDef: "name",
        ast.AsyncFunctionDef: "name",
        ast.ClassDef: "name",
    }
    field_name = names.get(type(node))
    return bool(field_name) and getattr(node, field_name) in HATCHES


def _strategy_site(node: ast.AST) -> bool:
    """Code that may make a strategy: a decision's name (a keyword, a method, an attribute,
    a text), ``**`` keywords, or a call of something named a strategy."""
    if isinstance(node, ast.keyword):
        return node.arg is None or node.arg in DECISION_NAMES
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return node.name in DECISION_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in DECISION_NAMES
    if isinstance(node, ast.Name):
        return node.id in DECISION_NAMES
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in DECISION_NAMES
    if isinstance(node, ast.Call):
        func = node.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return "strateg" in called.lower()
    return False


def _bindings(nodes: list[ast.AST], name: str) -> list[ast.AST]:
    return [node for node in nodes if _binds(node, name)]


def _plain_strategy(statement: ast.stmt, nodes: list[ast.AST], makes: bool) -> str | None:
    """The variable a top-level ``NAME = make_strategy(..., buy=f)`` binds, if it surely holds
    a strategy of the notebook's own: bound there only, with a decision that is a lambda or a
    function the notebook defines (and binds) once, with ``def``."""
    if not (makes and isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    target, value = statement.targets[0], statement.value
    if not (isinstance(target, ast.Name) and isinstance(value, ast.Call)):
        return None
    name = target.id
    if name.startswith("_") or name in GRADED or len(_bindings(nodes, name)) != 1:
        return None
    if not (isinstance(value.func, ast.Name) and value.func.id == "make_strategy"):
        return None
    if any(keyword.arg is None for keyword in value.keywords):
        return None
    for keyword in value.keywords:
        if keyword.arg in DECISION_NAMES:
            decision = keyword.value
            if isinstance(decision, ast.Lambda):
                return name
            bound = _bindings(nodes, decision.id) if isinstance(decision, ast.Name) else []
            if len(bound) == 1 and isinstance(bound[0], ast.FunctionDef | ast.AsyncFunctionDef):
                return name
    return None


def refusal_before_running(code: SubmissionCode) -> str:
    """Why a chapter-9 notebook cannot be graded, told from its code before it runs: no
    strategy named ``mine`` and none of its own, or several and none named ``mine``.

    '' whenever the code may bind ``mine`` or make a single strategy of its own, or does
    something a static look cannot follow (``exec``, ``globals()``, a magic, an import of
    another module): then the notebook is run and the graded process asked.
    """
    nodes = [node for _, tree in code.cells for node in ast.walk(tree)]
    if any(_binds(node, STRATEGY_VARIABLE) or _out_of_sight(node) for node in nodes):
        return ""
    makes = code.names.get("make_strategy", "").startswith("package:")
    plain: dict[str, None] = {}
    seen: set[int] = set()
    for _, tree in code.cells:
        for statement in tree.body:
            name = _plain_strategy(statement, nodes, makes)
            other = isinstance(statement, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in GRADED for t in statement.targets
            )
            if name or other:
                seen |= {id(node) for node in ast.walk(statement.value)}  # type: ignore[attr-defined]
            if name:
                plain[name] = None
    if any(_strategy_site(node) and id(node) not in seen for node in nodes):
        return ""
    if len(plain) == 1:
        return ""
    return missing_strategy(STRATEGY_VARIABLE, list(plain)[:20])
