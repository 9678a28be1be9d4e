"""Grade a notebook's take_turn in a process that holds only what the exercise gives.

The checker sends the notebook's code cells (read from the file here, not from its kernel)
to :mod:`~monopoly_lesson.checker.graded_process`, which runs them with the package's starter
classes and nothing else of the package, then plays the games of the checks there and
reports each turn as data. The reference engine plays the same games in this process, and
:class:`~monopoly_lesson.grading.GradeBook` compares. Nothing the notebook can reach decides
the grade: its own kernel is not asked about take_turn at all, and a take_turn that tries to
use the package's engine (or read its files, or a stored solution) is told so by name.

The random games' seeds are drawn from the notebook's code, so that no answer can be worked
out in advance and pasted in, and the same notebook is always graded on the same games.

The simulations whose results the notebook's kernel reports are re-run in the same process,
after the games, with the take_turn loaded there (:class:`Run`): a result is the student's
own only if its re-run there gives the tallies the kernel reported, so the kernel says what
its results are but no longer decides whether they are its take_turn's.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..grading import GradeBook, GradingReport, rule_games
from ..rules import LESSON_RULES, Rules
from .answers import MalformedAnswer, read_tallies
from .isolation import Sandbox
from .kernel_session import ANSWER_LIMIT, Unanswered
from .sandbox import ProcessGuard, launcher_command

__all__ = [
    "SCRIPT",
    "GradedProcess",
    "Run",
    "TakeTurnGrade",
    "grade_take_turn",
    "graded_seed",
    "not_own",
    "python_cells",
    "read_reached",
]

SCRIPT = Path(__file__).with_name("graded_process.py")
PACKAGE = Path(__file__).resolve().parent.parent
RANDOM_GAMES_SEED = 2026  # the checks' own seed; a notebook's games are drawn from it


def graded_seed(sources: list[tuple[int, str]]) -> int:
    """The seed of a notebook's random games: the same for the same code, unknowable before."""
    text = json.dumps(sources).encode()
    return RANDOM_GAMES_SEED + int(hashlib.sha256(text).hexdigest()[:8], 16)


def library_paths() -> list[str]:
    """Where Python's own libraries and the lesson's dependencies are (never the package's
    folder, the notebooks' or the current one): the graded process reads only these."""
    import numpy
    import pandas

    paths = sysconfig.get_paths()
    found = [paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    found += [str(Path(module.__file__).resolve().parent.parent) for module in (numpy, pandas)]
    return list(dict.fromkeys(p for p in found if Path(p).is_dir()))


class GradedProcess:
    """The graded process: started under the check's memory cap and watched by its guard;
    questions sent as JSON lines, answers read as JSON lines (see ``graded_process``)."""

    def __init__(self, memory: int, sandbox: Sandbox | None = None, game: bool = False) -> None:
        """Start it; in ``sandbox`` (see :mod:`~monopoly_lesson.checker.isolation`) unless None;
        with ``game``, holding the whole game but not the checker (chapter 9)."""
        self.folder = tempfile.TemporaryDirectory(prefix="graded-")
        folder = Path(self.folder.name)
        wrap = sandbox.graded_command(folder) if sandbox is not None else []
        command = [
            *launcher_command(os.getpid(), memory, pipes=True, wrap=wrap),
            sys.executable,
            "-I",
            "-S",
            str(SCRIPT),
            *(["--game"] if game else []),
            str(PACKAGE),
            *library_paths(),
        ]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=self.folder.name,
            env={"PATH": os.defpath, "HOME": self.folder.name, "LC_ALL": "C.UTF-8"},
        )
        self.sent = 0  # questions asked whose answers have not been read

    def send(self, request: dict) -> None:
        """Put one question; answers come in the order asked."""
        self.sent += 1
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())  # type: ignore[union-attr]
            self.process.stdin.flush()  # type: ignore[union-attr]
        except (BrokenPipeError, OSError):
            pass  # it has stopped: receive() says so

    def receive(self) -> object:
        """The next answer, read strictly; :class:`Unanswered` if none came."""
        self.sent -= 1
        line = self.process.stdout.readline(ANSWER_LIMIT + 1)  # type: ignore[union-attr]
        if not line:
            raise Unanswered("the graded process stopped")
        if len(line) > ANSWER_LIMIT or not line.endswith(b"\n"):
            raise Unanswered("the answer is too long")
        try:
            return json.loads(line)
        except (ValueError, RecursionError):
            raise Unanswered("the answer is not readable") from None

    def drain(self) -> None:
        """Read and drop the answers to questions asked but not yet read."""
        while self.sent > 0:
            self.receive()

    def close(self) -> None:
        """Stop the process and remove its folder."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            stream.close()  # type: ignore[union-attr]
        self.folder.cleanup()


@dataclass(frozen=True)
class Run:
    """A simulation whose results the notebook reports, to re-run with its take_turn: the
    variable that holds it, ``simulate``'s parameters (``games``, ``turns``, ``players``,
    ``seed``, and ``rules`` as a dict of ``Rules``' fields) and the tallies reported."""

    name: str
    parameters: dict
    counts: list[int]


@dataclass
class TakeTurnGrade:
    """What the graded process showed of a notebook's take_turn, and its grade."""

    defined: bool = False
    callable: bool = False
    not_own: str = ""  # why take_turn is not the student's own work ('' when it is)
    rules: GradingReport | None = None
    failed_cells: list[str] = field(default_factory=list)
    stopped: str = ""  # why the graded process gave no usable answer ('' when it did)
    reruns: dict[str, list[int] | str] = field(default_factory=dict)
    """Each re-run simulation's tallies there, or why it has none, by variable name."""


def grade_take_turn(
    sources: list[tuple[int, str]],
    chapter: int | None,
    memory: int,
    guard: ProcessGuard,
    sandbox: Sandbox | None = None,
    runs: Sequence[Run] = (),
) -> TakeTurnGrade:
    """Run the notebook's code cells in a graded process (in ``sandbox``, unless None) and
    grade its take_turn there on the games of ``chapter``'s checks (None: every rule); then
    re-run the simulations ``runs`` with it, in order, until one gives the tallies the
    notebook reports (the checker uses the first that does)."""
    cells = python_cells(sources)
    grade = TakeTurnGrade()
    room = GradedProcess(memory, sandbox)
    try:
        rules = {name: getattr(LESSON_RULES, name) for name in LESSON_RULES.__dataclass_fields__}
        room.send({"kind": "load", "cells": cells, "rules": rules})
        loaded = _read_loaded(room.receive())
        grade.defined, grade.callable = loaded["defined"], loaded["callable"]
        grade.failed_cells = loaded["failed_cells"]
        playing = grade.callable and not loaded["withheld"]
        games = rule_games(chapter=chapter, seed=graded_seed(sources)) if playing else []
        for game in games:
            room.send({"kind": "game", "game": game.setup})
        room.send({"kind": "reached"})
        book = GradeBook(chapter)
        for game in games:
            try:
                observed = room.receive()
            except Unanswered as error:
                observed = {"unanswered": str(error)}
            book.add(game, observed)
        reached = read_reached(room.receive())
        grade.not_own = not_own(reached, withheld=loaded["withheld"])
        grade.rules = book.report() if playing and not grade.not_own else None
        grade.reruns = _rerun(room, runs) if playing else {}
    except Unanswered as error:
        grade.stopped = str(error) if guard.remaining() > 0 else "the time limit ran out"
    finally:
        room.close()
    return grade


def python_cells(sources: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The notebook's code cells as Python, numbered as in the notebook."""
    from IPython.core.inputtransformer2 import TransformerManager

    transform = TransformerManager().transform_cell
    return [(number, _python(transform, source)) for number, source in sources]


def _rerun(room: GradedProcess, runs: Sequence[Run]) -> dict[str, list[int] | str]:
    """The tallies of each of ``runs`` re-run in ``room``, or why it has none, until one gives
    the tallies reported; one whose rules ``Rules`` refuses (as ``simulate`` would) is not
    sent."""
    again: dict[str, list[int] | str] = {}
    for run in runs:
        try:
            Rules(**run.parameters["rules"])
        except (TypeError, ValueError) as error:
            again[run.name] = f"simulate refuses its rules: {error}"
            continue
        room.send({"kind": "rerun", "run": run.parameters})
        try:
            again[run.name] = _read_rerun(room.receive())
        except Unanswered as error:
            for rest in runs[len(again) :]:
                again[rest.name] = f"the process that plays take_turn did not answer ({error})"
            break
        if again[run.name] == run.counts:
            break
    return again


def _read_rerun(answer: object) -> list[int] | str:
    """A re-run's tallies, or why it has none, read strictly."""
    if isinstance(answer, dict) and set(answer) == {"error"} and isinstance(answer["error"], str):
        return answer["error"][:400]
    try:
        if not (isinstance(answer, dict) and set(answer) == {"counts"}):
            raise MalformedAnswer("not a re-run's tallies")
        return read_tallies(answer["counts"])
    except MalformedAnswer as error:
        raise Unanswered(f"its re-run is not readable ({error})") from None


def _python(transform: object, source: str) -> str:
    """A cell as Python (``%magics`` turned into calls), as its kernel would run it."""
    try:
        return transform(source)  # type: ignore[operator]
    except (SyntaxError, ValueError):
        return source


def _read_loaded(answer: object) -> dict:
    keys = {"defined", "callable", "withheld", "failed_cells"}
    if not isinstance(answer, dict) or set(answer) != keys:
        raise Unanswered("its answer about take_turn is not readable")
    flags_ok = type(answer["defined"]) is bool and type(answer["callable"]) is bool
    withheld = answer["withheld"]
    cells = answer["failed_cells"]
    texts_ok = isinstance(cells, list) and all(isinstance(c, str) for c in cells[:50])
    if not (flags_ok and texts_ok and (withheld is None or isinstance(withheld, str))):
        raise Unanswered("its answer about take_turn is not readable")
    return {**answer, "withheld": (withheld or "")[:300], "failed_cells": cells[:50]}


def read_reached(answer: object) -> list[dict]:
    """What the graded process says the notebook's code reached (each ``what`` and ``when``),
    read strictly."""
    ok = isinstance(answer, list) and all(
        isinstance(a, dict) and isinstance(a.get("what"), str) and a.get("when") in _WHEN
        for a in answer
    )
    if not ok:
        raise Unanswered("its answer about what the graded code used is not readable")
    return answer  # type: ignore[return-value]


_WHEN = ("cells", "turns")


def not_own(reached: list[dict], who: str = "take_turn", withheld: str = "") -> str:
    """Why the graded code is not the student's own work ('' if nothing says so): ``who``
    is a name of the package the exercise does not give (``withheld``), or used one while
    it played (or did what the graded process refuses), or the cells read a file of the
    package the process withholds or a notebook (a stored solution)."""
    found = [f"{who} is {withheld}"] if withheld else []
    turns = [entry["what"] for entry in reached if entry["when"] == "turns"]
    reads = [
        entry["what"]
        for entry in reached
        if entry["when"] == "cells"
        and entry["what"].startswith(("reads ", "lists "))
        and (entry["what"].split(" ", 1)[1].startswith(PACKAGE.name) or ".ipynb" in entry["what"])
    ]
    found += [f"{who} {what}" for what in dict.fromkeys(turns)]
    found += [f"the notebook's code {what}" for what in dict.fromkeys(reads)]
    return "; ".join(found[:3])
