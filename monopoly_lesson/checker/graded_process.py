"""The process in which a student's take_turn, or chapter 9's strategy, is played for a grade:
it holds only what the exercise gives the student.

The checker starts this file as a script (``python -I -S graded_process.py PACKAGE PATH...``,
through ``kernel_launcher.py`` for the memory cap), so that it imports nothing of the package
but the starter classes (``monopoly_lesson.starter``, and the small ``checks`` it uses), read
before any of the student's code runs. Every other name of the package is *withheld*: it can
be imported, so that a notebook's cells run as they did in its own kernel, but any use of it
raises :class:`WithheldError`, naming it. Once the starter is loaded an audit hook (which
Python cannot remove) refuses to open any file but Python's own libraries (so no file of the
package, no stored solution, nothing another process left), to start processes, to load C
libraries or to open sockets. The reference engine and the checker are not here to be
reached, by any route.

The checker sends the notebook's code cells, read from the file in its own process, then
the games to play, one JSON request per line; this process answers each with one JSON line
of what happened (see :func:`play_game`). It also re-runs the simulations whose results the
notebook reports (see :func:`rerun`), with the take_turn loaded here: the notebook's kernel
only says what its results are, and they are the student's own only if this re-run gives
the same tallies. It decides nothing: the checker compares the answers with its own
reference engine and with the results the kernel reported, in its own process.

Chapter 9 gives the student the whole game, so with ``--game`` before its arguments this
process loads the package itself, all but the checker (``monopoly_lesson.checker`` and
``grading``: withheld, their files unreadable) and the chapter's own tournaments
(``play_games``, withheld while the cells run: the check plays its own games). It then
plays the check's games with the strategy the cells made and records its every answer
(:mod:`~monopoly_lesson.checker.strategy_probe`, loaded before the seal and then taken out of
the package, is this process's recorder: the notebook imports a withheld module by its
name); the checker replays each game from those answers in its own process
(:mod:`~monopoly_lesson.checker.capstone_check`) and tells by the answers themselves whether
they are a built-in player's or handed-out code's. A notebook that reached this process's
own objects (through frames or the garbage collector) could only report other answers,
which some strategy of its own would have to give.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import io
import json
import numbers
import os
import signal
import sys
import types
from pathlib import Path

TEXT_LIMIT = 2000  # characters kept of a turn's narration or an error message
GAME_SECONDS = 10  # a game of the checks takes milliseconds: one this slow loops forever
CELL_SECONDS = 30  # a cell that runs longer here is cut short (it already ran in the kernel)
RERUN_LIMIT = 3_000_000  # player-turns: a longer simulation is not re-run to verify it
RERUN_READS = ("dice_sides", "chance", "replacement")
"""The rule options a re-run's dice and decks follow; the others are take_turn's to follow,
so, as ``simulate`` does (``rules.check_rules_for``), a re-run refuses them for a take_turn
without a ``rules=`` keyword unless they are the lesson's."""
STARTER_MODULES = ("checks", "starter")
"""The package's modules given to the student, loaded before the student's code runs."""
GIVEN = "only the starter classes (Player, the dice, CardDeck, SpaceTracker, the board)"
GAME_GIVEN = "the whole game, without the checker"
CHECKER_PARTS = ("checker", "grading.py")
"""The package's parts withheld where chapter 9's strategy is graded (its checker)."""
NOT_PLAYED = ("play_games", "evolve", "experiment")
"""What plays many games: withheld while chapter 9's cells run (the check plays its own)."""
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
REFUSED_EVENTS = ("ctypes.", "subprocess.", "socket.", "os.", "shutil.", "pty.", "glob.")
"""Audit events refused once the student's code runs (``os.listdir`` and ``os.scandir``
are let through for Python's own libraries)."""


class WithheldError(RuntimeError):
    """A name of the package that the exercise does not give was used."""


class TooSlow(BaseException):
    """A game of the checks ran far longer than a correct take_turn needs."""


class GameTooSlow(Exception):
    """A game of chapter 9's check ran far longer than a strategy needs: raised inside the
    strategy's decision, it is recorded as that decision's error (the replay stops there)."""


class Room:
    """What this process knows: where the package is, what may be read, what was reached."""

    def __init__(self, package: Path, readable: list[str], game: bool = False) -> None:
        self.package = package.resolve()
        self.readable = [Path(p).resolve() for p in readable]
        self.reached: list[dict] = []  # {"what", "when"}: "uses NAME", "reads PATH", ...
        self.phase = "cells"  # "cells" while the notebook's code runs, "turns" in the games
        self.sealed = False
        self.game = game  # chapter 9: the package is given, all but its checker
        self.graded = "the strategy" if game else "take_turn"
        self.given = GAME_GIVEN if game else GIVEN
        self.closed = [self.package / part for part in CHECKER_PARTS] if game else [self.package]

    def reach(self, what: str) -> None:
        """Note that the student's code reached ``what`` (kept once per phase)."""
        entry = {"what": what[:300], "when": self.phase}
        if entry not in self.reached and len(self.reached) < 100:
            self.reached.append(entry)

    def may_read(self, path: object) -> bool:
        """Whether ``path`` is a file of Python's own libraries (not of the package)."""
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str):
            return False
        if path == os.devnull:
            return True
        real = Path(os.path.realpath(path))
        if any(real == closed or closed in real.parents for closed in self.closed):
            return False
        if self.game and self.package in real.parents:
            return True
        return any(real == root or root in real.parents for root in self.readable)

    def audit(self, event: str, args: tuple) -> None:
        """Python's audit hook: refuse what the graded code may not do (once sealed)."""
        if not self.sealed:
            return
        if event == "open":
            path, mode, flags = (*args, None, None, None)[:3]
            writes = bool(isinstance(flags, int) and flags & WRITE_FLAGS) or (
                isinstance(mode, str) and any(c in mode for c in "wax+")
            )
            if writes:
                self._refuse(f"writes {self._shown(path)}")
            if not self.may_read(path):
                self._refuse(f"reads {self._shown(path)}")
        elif event in ("os.listdir", "os.scandir"):
            if not self.may_read(args[0] if args else "."):
                self._refuse(f"lists {self._shown(args[0] if args else '.')}")
        elif event.startswith(REFUSED_EVENTS):
            self._refuse(f"calls {event}")

    def _shown(self, path: object) -> str:
        """A path as the report shows it: within the package, from the package's name."""
        if isinstance(path, int):
            return f"file descriptor {path}"
        text = os.fsdecode(path) if isinstance(path, bytes) else str(path)
        with contextlib.suppress(OSError, ValueError):
            real = Path(os.path.realpath(text))
            if real == self.package or self.package in real.parents:
                return str(Path(self.package.name, real.relative_to(self.package)))
        return text[:200]

    def _refuse(self, what: str) -> None:
        self.reach(what)
        raise PermissionError(f"{what}: not available where {self.graded} is graded")


ROOM: Room | None = None


class Withheld:
    """A name of the package that the exercise does not give: any use of it raises."""

    __slots__ = ("_withheld_name",)
    __module__ = "monopoly_lesson"  # the package's name, not the student's (never graded)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_withheld_name", name)

    def _refuse(self, *args: object, **kwargs: object) -> object:
        name = object.__getattribute__(self, "_withheld_name")
        if ROOM is None:
            raise WithheldError(f"{name} is not available here")
        ROOM.reach(f"uses {name}")
        if name.rpartition(".")[2] in NOT_PLAYED and ROOM.game:
            raise WithheldError(
                f"{name} is not played where the strategy is graded: the check plays its own games"
            )
        raise WithheldError(f"{name} is not available where {ROOM.graded} is graded ({ROOM.given})")

    __call__ = __bool__ = __len__ = __iter__ = __contains__ = __getitem__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _refuse  # type: ignore[assignment]
    __int__ = __float__ = __index__ = __add__ = __radd__ = __sub__ = __rsub__ = _refuse
    __mul__ = __rmul__ = __mod__ = __truediv__ = __floordiv__ = __neg__ = _refuse
    __setattr__ = __delattr__ = __setitem__ = _refuse

    def __getattr__(self, attribute: str) -> Withheld:
        if attribute.startswith("__") and attribute.endswith("__"):
            raise AttributeError(attribute)  # Python's own questions (``__func__``, ...)
        name = object.__getattribute__(self, "_withheld_name")
        return Withheld(f"{name}.{attribute}")

    def __repr__(self) -> str:
        return f"<{object.__getattribute__(self, '_withheld_name')}: withheld>"


class WithheldModule(types.ModuleType):
    """A module of the package that the exercise does not give: its starter names are the
    real ones, every other name is :class:`Withheld`."""

    def __getattr__(self, attribute: str) -> object:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        starter = sys.modules["monopoly_lesson.starter"]
        if attribute in getattr(starter, "__all__", ()):
            return getattr(starter, attribute)
        return Withheld(f"{self.__name__}.{attribute}")


def _is_checker(name: str) -> bool:
    """Whether the module ``name`` is the package's checker (withheld in chapter 9)."""
    return name.split(".")[:2] in (["monopoly_lesson", "checker"], ["monopoly_lesson", "grading"])


class WithheldFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes every module of the package not yet loaded a :class:`WithheldModule` (with
    ``game``, only the checker's: the rest of the package is given)."""

    def __init__(self, game: bool = False) -> None:
        self.game = game

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        if name.split(".")[0] != "monopoly_lesson" or name in sys.modules:
            return None
        if self.game and not _is_checker(name):
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = WithheldModule(spec.name)
        module.__path__ = []  # type: ignore[attr-defined]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: a withheld module has no code here."""


def load_starter(package: Path) -> types.ModuleType:
    """The package as the exercise gives it: the starter's names, the rest withheld."""
    sys.meta_path.insert(0, WithheldFinder())
    top = WithheldModule("monopoly_lesson")
    top.__path__ = []  # type: ignore[attr-defined]
    sys.modules["monopoly_lesson"] = top
    for name in STARTER_MODULES:
        spec = importlib.util.spec_from_file_location(
            f"monopoly_lesson.{name}", package / f"{name}.py"
        )
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        sys.modules[spec.name] = module  # type: ignore[union-attr]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        setattr(top, name, module)
    starter = sys.modules["monopoly_lesson.starter"]
    for name in starter.__all__:
        setattr(top, name, getattr(starter, name))
    return starter


def load_game(package: Path) -> types.ModuleType:
    """The package as chapter 9 gives it: the whole game, its checker withheld, and what
    plays many games withheld while the cells run; returns the recorder of a strategy's
    answers (:mod:`~monopoly_lesson.checker.strategy_probe`)."""
    sys.path.insert(0, str(package.resolve().parent))
    import monopoly_lesson
    import monopoly_lesson.game
    from monopoly_lesson.checker import strategy_probe

    for name in [
        name for name in sys.modules if name.split(".")[1:2] in (["checker"], ["grading"])
    ]:
        del sys.modules[name]  # the recorder is this process's, not the notebook's to import
    with contextlib.suppress(AttributeError):
        del monopoly_lesson.checker
    sys.meta_path.insert(0, WithheldFinder(game=True))
    for module in (monopoly_lesson, monopoly_lesson.game):
        for name in NOT_PLAYED:
            if hasattr(module, name):
                setattr(module, name, Withheld(f"{module.__name__}.{name}"))
    return strategy_probe


def run_cells(cells: list, namespace: dict, statements: bool = False) -> list[str]:
    """Run the notebook's code cells in order, past any that fail; each failure in a line.
    With ``statements`` each cell's statements run one by one, past any that fail (a cell
    that plays a tournament still defines what comes after it)."""
    failed = []
    for number, source in cells:
        errors = []
        try:
            codes = _compiled(f"<cell {number}>", source, statements)
        except (SyntaxError, ValueError, RecursionError) as error:
            codes, errors = [], [error]
        _arm(CELL_SECONDS)
        try:
            for code in codes:
                try:
                    with contextlib.redirect_stdout(io.StringIO()):
                        exec(code, namespace)
                except BaseException as error:  # a cell may raise anything, SystemExit included
                    if isinstance(error, KeyboardInterrupt):
                        raise
                    errors.append(error)
                    if not statements or isinstance(error, TooSlow):
                        break
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if errors:
            error = errors[0]
            failed.append(f"cell {number}: {type(error).__name__}: {_clip(str(error), 200)}")
    return failed


def _compiled(name: str, source: str, statements: bool) -> list[types.CodeType]:
    """A cell's code to run: whole, or one statement at a time (its lines as in the cell)."""
    if not statements:
        return [compile(source, name, "exec")]
    tree = ast.parse(source, name)
    return [compile(ast.Module([node], []), name, "exec") for node in tree.body]


def describe(namespace: dict) -> dict:
    """The notebook's take_turn: defined, callable, and whether it is a withheld name."""
    fn = namespace.get("take_turn")
    inner = fn
    for _ in range(20):  # functools.partial and functools.wraps lead to what is called
        if _is_withheld(inner):
            break
        following = getattr(inner, "func", None)
        if following is None:
            following = getattr(inner, "__wrapped__", None)
        if following is None:
            break
        inner = following
    withheld = object.__getattribute__(inner, "_withheld_name") if _is_withheld(inner) else None
    return {"defined": "take_turn" in namespace, "callable": callable(fn), "withheld": withheld}


def _is_withheld(value: object) -> bool:
    return type(value) is Withheld


def make_seat(starter: types.ModuleType, game: dict, rules: dict) -> dict:
    """The objects of one game, set up as ``game`` says, as a student's turn receives them."""
    player = starter.Player(game.get("start", 1), verbose=True)
    if game.get("jail_turns") is not None:
        player.in_jail, player.pos, player.jail_turns = True, starter.JAIL, game["jail_turns"]
    if game.get("dice_seed") is not None:
        dice = starter.RandomDice(game["dice_seed"], verbose=True)
    else:
        dice = starter.PresetDice(game.get("dice") or [], verbose=True, sides=rules["dice_sides"])
    lesson = rules["chance"] == "lesson"
    chance_table = starter.chance_deck if lesson else starter.standard_chance_deck
    seed = game.get("seed", 0)
    return {
        "player": player,
        "tracker": starter.SpaceTracker(verbose=True),
        "dice": dice,
        "chance": starter.CardDeck(
            chance_table,
            seed=seed,
            order=game.get("chance_order", ()),
            verbose=True,
            replace=rules["replacement"],
        ),
        "community": starter.CardDeck(
            starter.community_deck,
            seed=seed + 1,
            order=game.get("chest_order", ()),
            verbose=True,
            replace=rules["replacement"],
        ),
    }


def observe(starter: types.ModuleType, seat: dict, said: str = "") -> dict:
    """What the rules define about a seat now, as JSON-ready data (``rolls`` None: not known)."""
    player, dice = seat["player"], seat["dice"]
    pos = player.pos
    if isinstance(pos, bool) or not isinstance(pos, numbers.Integral):
        pos = repr(pos)[:100]
    jail_turns = player.jail_turns
    return {
        "counts": starter.tallies(seat["tracker"]),
        "pos": pos if isinstance(pos, str) else int(pos),
        "in_jail": bool(player.in_jail),
        "jail_turns": int(jail_turns) if isinstance(jail_turns, numbers.Integral) else -1,
        "rolls": dice.rolls_used if isinstance(dice, starter.PresetDice) else None,
        "chance": int(seat["chance"].draws),
        "chest": int(seat["community"].draws),
        "said": _clip(said),
    }


def play_game(
    starter: types.ModuleType, take_turn: object, game: dict, rules: dict, slow: str = ""
) -> dict:
    """Play ``game["turns"]`` turns; every turn observed, and the error that stopped it.
    After a game that ran too long (``slow``, its message) no more turns are played."""
    seat = make_seat(starter, game, rules)
    if slow:
        failed = {"type": "TooSlow", "message": f"not played: {slow}"}
        return {"turns": [], "failed": {**failed, "state": observe(starter, seat)}}
    extra = {"rules": GivenRules(**rules)} if _takes_rules(take_turn) else {}
    turns: list[dict] = []
    _arm(GAME_SECONDS)
    try:
        for _ in range(game["turns"]):
            said = io.StringIO()
            try:
                with contextlib.redirect_stdout(said):
                    take_turn(  # type: ignore[operator]
                        seat["player"],
                        seat["tracker"],
                        dice=seat["dice"],
                        chance=seat["chance"],
                        community=seat["community"],
                        **extra,
                    )
            except (Exception, TooSlow) as error:  # a student's code may raise anything
                failed = {"type": type(error).__name__, "message": _clip(str(error))}
                state = observe(starter, seat, said.getvalue())
                return {"turns": turns, "failed": {**failed, "state": state}}
            turns.append(observe(starter, seat, said.getvalue()))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return {"turns": turns, "failed": None}


def rerun(
    starter: types.ModuleType, take_turn: object, run: dict, lesson: dict, slow: str = ""
) -> dict:
    """The tallies ``simulate(games, turns, players, seed, rules, take_turn=take_turn)`` gives
    for the parameters of a run the notebook reports (``{"counts": [40 ints]}``), or why it
    gives none (``{"error": ...}``); ``lesson`` is the lesson's rules (the ``load``'s).

    The simulation and the rules are withheld here, so this is a copy of ``simulate``'s loop
    (``simulate``, ``play_game`` and ``Seat.play`` in the package) made of the starter's
    classes: one numpy stream per game (from the starter's ``_child_seeds``) shared by its
    dice and decks, decks freshly shuffled for each game, the players taking turns in order;
    a test keeps the two equal. Each game has the games' time limit. A run of more than
    ``RERUN_LIMIT`` player-turns, or after a game that ran too long (``slow``, its message), is
    not played.
    """
    import numpy as np  # loaded before the seal (see main)

    try:
        refused = _not_rerun(take_turn, run, lesson, slow)
        if refused:
            return {"error": refused}
        rules = GivenRules(**run["rules"])
        extra = {"rules": rules} if _takes_rules(take_turn) else {}
        tracker = starter.SpaceTracker()
        decks = (
            starter.CardDeck(rules.chance_deck, replace=rules.replacement),
            starter.CardDeck(starter.community_deck, replace=rules.replacement),
        )
        with contextlib.redirect_stdout(Discarded()):
            for game_seed in starter._child_seeds(run["seed"], run["games"]):
                _arm(GAME_SECONDS)
                rng = np.random.default_rng(game_seed)  # one stream per game
                dice = starter.RandomDice(rng, sides=rules.dice_sides)
                chance, community = (deck.fresh(rng) for deck in decks)
                players = [starter.Player(name=f"Player {i + 1}") for i in range(run["players"])]
                for _ in range(run["turns"]):
                    for player in players:
                        take_turn(  # type: ignore[operator]
                            player, tracker, dice=dice, chance=chance, community=community, **extra
                        )
    except (Exception, TooSlow) as error:  # a student's code may raise anything
        return {"error": f"{type(error).__name__}: {_clip(str(error), 300)}"}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return {"counts": starter.tallies(tracker)}


def _not_rerun(take_turn: object, run: dict, lesson: dict, slow: str) -> str:
    """Why ``run`` is not re-run ('' if it is): a game ran too long before, it is not a run
    ``simulate`` plays, it is too long, or its rules are ones this take_turn cannot follow."""
    if slow:
        return f"not re-run: {slow}"
    sizes = [run.get(key) for key in ("games", "turns", "players")]
    seed = run.get("seed")
    if not all(type(n) is int and n >= 1 for n in sizes) or type(seed) is not int or seed < 0:
        return "not a run that simulate plays"
    if sizes[0] * sizes[1] * sizes[2] > RERUN_LIMIT:  # type: ignore[operator]
        return f"longer than {RERUN_LIMIT:,} player-turns: not re-run"
    rules = run.get("rules")
    if not isinstance(rules, dict) or set(rules) != set(lesson):
        return "its rules are not the options of Rules"
    decided = [
        f"{name}={rules[name]!r}"
        for name in rules
        if name not in RERUN_READS and rules[name] != lesson[name]
    ]
    if decided and not _takes_rules(take_turn):
        return (
            f"simulate refuses {' and '.join(decided)} for a take_turn without a rules= "
            "keyword (its own code decides the jail strategy, the counting and which rules "
            "it plays)"
        )
    return ""


class GivenRules(types.SimpleNamespace):
    """The rules as a take_turn with a ``rules=`` keyword is given them (``Rules`` is
    withheld here): the options, and ``chance_deck``, the Chance table they play with;
    read-only, as ``Rules`` is."""

    @property
    def chance_deck(self) -> object:
        """The Chance deck table these rules play with."""
        starter = sys.modules["monopoly_lesson.starter"]
        return starter.standard_chance_deck if self.chance == "standard" else starter.chance_deck

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")


class Discarded(io.TextIOBase):
    """Where a re-run's narration goes: nowhere (a long run's would fill the memory)."""

    def write(self, text: str) -> int:
        return len(text)


IGNORED_ALARMS = 5
"""The alarms after the first that code may catch and go on (one a second): then this
process ends, as nothing else would stop it."""
_alarms = {"rung": 0}


def _arm(seconds: float) -> None:
    """Ring the alarm in ``seconds``, then again each second until it is stopped."""
    _alarms["rung"] = 0
    signal.setitimer(signal.ITIMER_REAL, seconds, 1)


def _too_slow(signum: int, frame: object) -> None:
    """The alarm of a cell or a game that runs too long: an error raised where the code is,
    again each second while it goes on; after :data:`IGNORED_ALARMS` more, the process ends."""
    _alarms["rung"] += 1
    if _alarms["rung"] > 1 + IGNORED_ALARMS:
        os._exit(75)  # the checker hears no answer: "the graded process stopped"
    if ROOM is not None and ROOM.phase == "cells":
        raise TooSlow(f"this cell took more than {CELL_SECONDS} s here, and was cut short")
    if ROOM is not None and ROOM.game:
        raise GameTooSlow(f"this game took more than {GAME_SECONDS} s: the strategy may never end")
    raise TooSlow(f"this game took more than {GAME_SECONDS} s: take_turn may never end")


def _takes_rules(take_turn: object) -> bool:
    """Whether ``take_turn`` takes a ``rules`` keyword, as ``rules.takes_rules`` decides it
    (a ``**keywords`` parameter takes it too)."""
    try:
        parameters = inspect.signature(take_turn).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return any(p.name == "rules" or p.kind is p.VAR_KEYWORD for p in parameters)


def _clip(text: str, limit: int = TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + " [...]"


def play_strategy_games(recorder: types.ModuleType, value: object, games: list) -> list:
    """Chapter 9: play the check's ``games`` with the strategy ``value``, each game timed on
    its own, and record its answers (see ``strategy_probe.play_recorded``)."""
    records = []
    for game in games:
        _arm(GAME_SECONDS)
        try:
            records += recorder.play_recorded(value, [game])
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return records


def serve(room: Room, given: types.ModuleType, requests: object, answers: object) -> None:
    """Answer the checker's requests, one JSON line each, until its input ends; ``given`` is
    the starter (take_turn) or the recorder of a strategy's answers (``room.game``)."""
    namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
    state: dict = {"rules": {}, "slow": ""}
    for line in requests:  # type: ignore[attr-defined]
        try:
            answer = _answer(room, given, json.loads(line), namespace, state)
        except Exception as error:  # a question this process cannot answer, said as such
            answer = {"error": _clip(f"{type(error).__name__}: {error}", 300)}
        answers.write(json.dumps(answer) + "\n")  # type: ignore[attr-defined]
        answers.flush()  # type: ignore[attr-defined]


def _answer(
    room: Room, given: types.ModuleType, asked: dict, namespace: dict, state: dict
) -> object:
    """The answer to one request (``state``: the rules, and whether a game ran too long)."""
    kind = asked.get("kind")
    if kind == "load":
        state["rules"] = dict(asked.get("rules") or {})
        room.phase = "cells"
        failed = run_cells([tuple(cell) for cell in asked["cells"]], namespace, room.game)
        return {**({} if room.game else describe(namespace)), "failed_cells": failed[:50]}
    if kind == "reached":
        return list(room.reached)
    room.phase = "turns"
    if kind == "rerun" and not room.game:
        take_turn = namespace.get("take_turn")
        again = rerun(given, take_turn, asked["run"], state["rules"], state["slow"])
        if again.get("error", "").startswith("TooSlow") and not state["slow"]:
            state["slow"] = f"an earlier re-run ran too long ({again['error']})"
        return again
    if kind == "game" and not room.game:
        played = play_game(
            given, namespace.get("take_turn"), asked["game"], state["rules"], state["slow"]
        )
        failed = played["failed"] or {}
        if failed.get("type") == "TooSlow" and not state["slow"]:
            state["slow"] = f"an earlier game ran too long ({failed['message']})"
        return played
    if kind == "strategy" and room.game and asked.get("variable") in given.GRADED:
        return given.describe_strategy(namespace, asked["variable"])
    if kind == "strategy_games" and room.game and asked.get("variable") in namespace:
        return play_strategy_games(given, namespace[asked["variable"]], asked["games"])
    return {"error": f"no such request: {kind!r}"}


def main(argv: list[str]) -> None:
    """``[--game] PACKAGE PATH...``: load the starter (or with ``--game`` the whole game
    without the checker), seal the process, answer on stdin/stdout."""
    global ROOM
    sys.dont_write_bytecode = True  # nothing is written here, not even Python's caches
    game = argv[:1] == ["--game"]
    package, *paths = argv[1:] if game else argv
    sys.path[:] = list(dict.fromkeys(p for p in [*sys.path, *paths] if os.path.isdir(p)))
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = sys.stderr = io.StringIO()
    requests = io.TextIOWrapper(os.fdopen(os.dup(0), "rb"), encoding="utf-8")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.stdin = io.StringIO()
    import numpy  # noqa: F401 - loaded before the seal, as the starter needs them
    import pandas  # noqa: F401

    room = ROOM = Room(Path(package), sys.path, game)
    given = load_game(Path(package)) if game else load_starter(Path(package))
    signal.signal(signal.SIGALRM, _too_slow)
    sys.addaudithook(room.audit)
    room.sealed = True
    serve(room, given, requests, answers)


if __name__ == "__main__":
    main(sys.argv[1:])
