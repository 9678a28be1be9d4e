"""Check a student's notebook: run it in its own kernel, then grade what its chapter asks for.

A student notebook is untrusted code. It runs in a separate process (a Jupyter kernel,
started under a memory cap, its output reaching the checker only as Jupyter messages), past
any cell that fails; the cells that failed are read from the executed notebook. The grade is
computed here, in the checker's process: the kernel is only asked to play games the checker
chose (with the ordinary dice, decks, players and trackers a student uses, or the student's
strategy in whole games) and to report what happened, as data; the reference engine plays the
same games here and the two are compared. The notebook's code is also read (not run) to find a
take_turn that is the package's reference engine or calls it, and code that changes the
package, the libraries its randomness comes from (numpy, random, pandas) or how the kernel
runs code.

A take_turn is graded, once the kernel and all it started have gone, in a process that holds
only the exercise's starter classes (:mod:`monopoly_lesson.checker.graded_session`). The
results a take_turn chapter checks are the kernel's to report, not to vouch for: each
simulation result it reports is re-run with the notebook's take_turn in that same process,
and is the student's own only if the re-run gives the tallies the kernel reported (the
kernel re-runs nothing).

What is graded depends on the notebook's chapter, the one whose handed-out cells it holds
(:mod:`monopoly_lesson.checker.notebook_chapter`):
take_turn and the results in chapters 1-6 (and 0, 7, 8 if they have one), the student's
strategy and trade policy in chapter 9 (:mod:`monopoly_lesson.checker.capstone_check`), the
exercises' answer variables in chapters 10 to 12
(:mod:`monopoly_lesson.checker.exercise_answers`; in a student's package, which has no answer
key, the answers given are left to the instructor's checker), and in every chapter that its
cells ran.

The time limit covers the whole check and is enforced from outside the kernel; when a check
ends, for any reason, the kernel and every process the submission started are killed (see
:mod:`monopoly_lesson.checker.sandbox`). Where bubblewrap allows it, the kernel and the
graded process run in a sandbox with no network that shows them the system, Python and the
package read-only, the notebook's own folder to write in, and nothing else of the machine
(:mod:`monopoly_lesson.checker.isolation`); elsewhere the check says once that it isolates
nothing, and the submission runs as the grader's user.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..grading import (
    GRADED_CHAPTERS,
    GradingReport,
    check_results,
    rules_of,
)
from ..trends import trend_pass_rates
from .answers import (
    MalformedAnswer,
    read_results,
    read_strategy,
    read_strategy_games,
    read_values,
)
from .capstone_check import (
    BATCH,
    CAPSTONE_GAMES,
    CAPSTONE_SEED,
    TRADING,
    WHAT,
    GameReplay,
    StrategyReport,
    capstone_games,
    handed_out_reason,
    handed_out_strategy,
    known_decisions,
    missing_strategy,
    plays_as_reason,
    refusal_before_running,
    replay_game,
)
from .checked_kernel import import_quickly
from .exercise_answers import (
    INSTRUCTORS_CHECKER,
    Exercise,
    expected_answers,
    grade_answers,
    not_answered,
)
from .graded_process import RERUN_LIMIT
from .handed_out import fingerprint, handed_out
from .kernel_hook import MARKER as WITHHELD
from .notebook_chapter import Chapter, notebook_chapter, unrecognised
from .strategy_probe import STRATEGY_VARIABLE
from .submission_code import SubmissionCode, does_nothing, read_code
from .variants import DEFAULT, Variant, notebook_variant, variant_for

if TYPE_CHECKING:
    from collections.abc import Callable

    from .capstone_check import Judge
    from .graded_session import GradedProcess
    from .isolation import Sandbox
    from .kernel_session import KernelSession
    from .sandbox import ProcessGuard

__all__ = [
    "MAX_GAMES",
    "MAX_MEMORY_GB",
    "MAX_TIMEOUT",
    "NotebookCheck",
    "check_notebook",
    "failed_cells",
]

MAX_TIMEOUT = 24 * 3600  # seconds: the longest time limit a check accepts
MAX_MEMORY_GB = 1024  # GB: the largest memory cap a check accepts
MAX_GAMES = 100_000  # the most games a chapter-9 strategy may be asked to play
NOT_GRADED = (
    "Not graded: the notebook changes the package's own code, the libraries it uses (numpy, "
    "random, pandas) or how the kernel runs code (not allowed)"
)
REFERENCE = "take_turn is the package's reference engine (or calls it), not the student's own work"


@dataclass(frozen=True)
class NotebookCheck:
    """The outcome of checking a notebook: exit status (0, 1 or 2) and the report text.

    ``failed_cells`` lists the cells that raised when the notebook was run, one line each
    (``cell 10: AssertionError: ...``); the notebook is run past them and graded at the end.
    """

    status: int
    report: str
    failed_cells: tuple[str, ...] = ()


@dataclass
class _Answers:
    """What the checker learnt from the kernel (all of it data, read strictly), and the
    grades it worked out from it as the answers came."""

    described: dict | None = None
    reference: str = ""
    rules: GradingReport | None = None
    results_found: list[dict] = field(default_factory=list)  # as the kernel reports them
    results: dict | None = None
    results_notes: list[str] = field(default_factory=list)
    strategies_found: dict[str, dict] = field(default_factory=dict)
    strategies: dict[str, StrategyReport] = field(default_factory=dict)
    strategies_missing: dict[str, str] = field(default_factory=dict)
    strategies_handed_out: dict[str, list[str]] = field(default_factory=dict)
    strategy_not_own: str = ""  # what the strategy reached that the exercise does not give
    stage: str = ""  # what the checker was doing after the cells ran (said if time runs out)
    values: dict | None = None
    values_note: str = ""
    unusable: str = ""
    graded_chapter: int | None = None  # take_turn graded for this chapter's rules (None: all)
    variant: Variant = DEFAULT  # the student's parameters the exercises are graded for
    take_turn_unanswered: bool = False  # no take_turn, or a placeholder (unchanged or empty)

    @property
    def take_turn_graded(self) -> bool:
        """Whether the notebook has a take_turn that this check graded (or found not own)."""
        answered = self.described and self.described["callable"] and not self.take_turn_unanswered
        return bool(answered)


def failed_cells(notebook: dict) -> list[str]:
    """The cells of an executed notebook that raised: ``cell N: Error: first line``.

    Cells are numbered from 1 in notebook order, Markdown cells included.
    """
    found = []
    for number, cell in enumerate(notebook["cells"], start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                first = (str(output.get("evalue", "")).strip().splitlines() or [""])[0]
                summary = f"{output.get('ename', 'Error')}: {first}".rstrip(": ")
                found.append(f"cell {number}: {summary[:200]}")
    return found


def check_limits(timeout: float, memory_gb: float, games: int = CAPSTONE_GAMES) -> None:
    """Refuse a time limit, memory cap or number of games that is not positive and sensible."""
    if isinstance(games, bool) or not isinstance(games, int):
        raise TypeError(f"games must be a whole number, got {games!r}.")
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be from 1 to {MAX_GAMES:,}, got {games!r}.")
    limits = ((timeout, "timeout", MAX_TIMEOUT), (memory_gb, "memory", MAX_MEMORY_GB))
    for value, what, most in limits:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{what} must be a number, got {value!r}.")
        if not math.isfinite(value) or value <= 0 or value > most:
            raise ValueError(f"{what} must be more than 0 and at most {most:,}, got {value!r}.")


def check_notebook(
    path: str | Path,
    timeout: float = 600,
    memory_gb: float = 4,
    games: int = CAPSTONE_GAMES,
    show_expected: bool = False,
    started: float | None = None,
    student: str | None = None,
) -> NotebookCheck:
    """Run and grade a student's notebook in a separate kernel, within ``timeout`` seconds.

    The kernel (and everything it starts) may use at most ``memory_gb`` GB of address space.
    Cells that raise are listed and the notebook is run past them. What is graded depends on
    the notebook's chapter (:func:`~monopoly_lesson.checker.notebook_chapter.notebook_chapter`); a
    chapter-9 strategy plays ``games`` games. Status 0: everything graded passes; 1: a rule
    (or a near-certain trend) fails, take_turn or the strategy is not the student's own work,
    the strategy breaks a rule, an exercise is not answered (the chapter's starter code
    unchanged counts as not answered, and so does a take_turn missing or left as its
    placeholder) or its answer is wrong, or a cell failed (where take_turn is graded: one of the
    chapter's own handed-out checks);
    2: the notebook cannot be graded (missing, not a notebook, no strategy where the chapter
    needs one, too slow, too much memory), and
    the report is one line that says why. The chapter is the one whose handed-out cells the
    notebook holds: one that holds none is not graded (2), and one whose handed-out cells
    were changed or deleted is not graded either (1, naming each) and is not run. A wrong
    answer is told with the exercise's hint;
    ``show_expected`` (for graders) gives the right value instead. The limit counts from
    ``started`` (a ``time.monotonic()`` reading; by default now): the command line passes
    its own start, so that ``--timeout`` covers the whole command. ``student`` (for
    graders) names whose notebook it is: the exercises are graded for that student's
    variant (:mod:`~monopoly_lesson.checker.variants`), and an edition handed to another
    student is not graded (1); without it, the variant the notebook's metadata says.
    """
    started = time.monotonic() if started is None else started
    check_limits(timeout, memory_gb, games)
    path = Path(path)
    read = _read_submission(path, student)
    if isinstance(read, NotebookCheck):  # refused before it runs
        return read
    notebook, sources, chapter, variant = read
    code = read_code(sources)
    refused = refusal_before_running(code) if STRATEGY_VARIABLE in chapter.strategies else ""
    if refused:  # told from its code: no need to run it first
        return NotebookCheck(2, f"{path.name} cannot be graded: {refused}")
    with ThreadPoolExecutor(1) as worker:  # the exercises' answers, while the notebook runs
        expected = worker.submit(expected_answers, chapter.exercises, variant)
        if chapter.take_turn != "none":  # the trends its rules make true, measured meanwhile
            worker.submit(trend_pass_rates, rules_of(_graded_chapter(chapter)))
        answers = _run(
            notebook, path, (code, sources), chapter, games, (started, timeout), memory_gb
        )
        failed = tuple(failed_cells(notebook))
        if answers.unusable:
            cells = f" (cells that failed: {'; '.join(failed)})" if failed else ""
            return NotebookCheck(
                2, f"{path.name} cannot be graded: {answers.unusable}{cells}", failed
            )
        checks = _failed_checks(chapter, failed)
        answers.variant = variant
        return _verdict(code, chapter, answers, failed, expected.result(), show_expected, checks)


def _read_submission(
    path: Path, student: str | None
) -> NotebookCheck | tuple[object, list[tuple[int, str]], Chapter, Variant]:
    """The notebook, its code cells, its chapter and the variant its exercises are graded
    for; or why it is refused before it runs (not a readable notebook, no chapter's cells,
    its handed-out cells changed, another student's edition)."""
    wanted = variant_for(student) if student is not None else None
    if not path.is_file():
        return NotebookCheck(2, f"{path}: no such file")
    if path.suffix != ".ipynb":
        return NotebookCheck(2, f"{path}: not a notebook (expected a .ipynb file)")
    nbformat = import_quickly("nbformat")
    try:
        notebook = nbformat.read(path, as_version=4)
        sources = [(n, c.source) for n, c in enumerate(notebook.cells, 1) if c.cell_type == "code"]
    except Exception as error:  # nbformat raises many kinds of errors for a broken file
        return NotebookCheck(
            2,
            f"{path.name} cannot be graded: it is not a readable notebook ({type(error).__name__})",
        )
    chapter = notebook_chapter(notebook)
    if chapter.number is None:
        return NotebookCheck(2, unrecognised(chapter.cells, path.name))
    if not chapter.cells.intact:  # nothing is run: what it would show is not the chapter's
        cells = chapter.cells
        where = f"chapter {chapter.number} ({cells.held} of its {cells.total} handed-out cells"
        return NotebookCheck(1, f"{cells.not_graded()}\n\n{where} found): not graded")
    variant = notebook_variant(notebook)
    if wanted is not None and variant.student not in ("", wanted.student):
        return NotebookCheck(
            1,
            f"Not graded: this notebook is the edition handed to {variant.student}, "
            f"not to {wanted.student}\n\n{chapter}",
        )
    return notebook, sources, chapter, wanted or variant


def _failed_checks(chapter: Chapter, failed: tuple[str, ...]) -> tuple[str, ...]:
    """The chapter's own handed-out check cells among the cells that failed, each named."""
    numbers = [int(cell.split(":")[0].removeprefix("cell ")) for cell in failed]
    return tuple(chapter.cells.checks[n] for n in numbers if n in chapter.cells.checks)


def _run(
    notebook: object,
    path: Path,
    read: tuple[SubmissionCode, list[tuple[int, str]]],
    chapter: Chapter,
    games: int,
    limit: tuple[float, float],
    memory_gb: float,
) -> _Answers:
    """Run the notebook and ask its kernel the checker's questions, then (once that kernel
    and all it started have gone) grade take_turn, or chapter 9's strategies, in a graded
    process, if the chapter has them; all within the time limit."""
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    from .isolation import sandbox_for
    from .kernel_session import KernelSession
    from .sandbox import ProcessGuard

    (code, sources), answers, (started, timeout) = read, _Answers(), limit
    memory = int(memory_gb * 2**30)
    sandbox = sandbox_for(path)
    # the sandbox's folders are removed once every process of the check has been killed
    with sandbox or contextlib.nullcontext(), ProcessGuard(timeout, started) as guard:
        folder = sandbox.workdir if sandbox else path.parent.resolve()
        session = KernelSession(notebook, str(folder), guard, memory, sandbox)
        questions = _Questions(session, code, notebook, answers)
        try:
            asyncio.run(session.run(lambda s: questions.ask_all(chapter)))
        except (CellTimeoutError, DeadKernelError, RuntimeError, OSError, TimeoutError) as error:
            answers.unusable = _why_stopped(guard.expired, session.running, error, timeout)
        grading = not code.tampering() and not answers.unusable and guard.remaining() > 0
        if grading and (chapter.take_turn != "none" or chapter.strategies):
            guard.kill_all()  # nothing the notebook's kernel started is left to meddle
        if grading and chapter.take_turn != "none":
            answers.stage = "the graded games (take_turn's games of the rules)"
            _take_turn(code, sources, chapter, answers, (guard, memory, sandbox))
        if grading and chapter.strategies:
            graded = _GradedStrategies(notebook, chapter, answers, (guard, memory, sandbox))
            graded.play(sources, games)
    if guard.expired or session.timed_out or answers.unusable.startswith(TOO_LONG):
        answers.unusable = _too_long(timeout, session, len(notebook.cells), answers.stage)
    return _memory_problem(notebook, memory_gb, answers)


def _take_turn(
    code: SubmissionCode,
    sources: list[tuple[int, str]],
    chapter: Chapter,
    answers: _Answers,
    limits: tuple[ProcessGuard, int, Sandbox | None],
) -> None:
    """Grade take_turn where only the starter classes are given (see ``graded_session``),
    and re-run there the simulations whose results the kernel reported, to find the
    student's own: a required take_turn that is missing, or the placeholder as handed out,
    is not answered, and plays no game."""
    from .graded_session import Run, grade_take_turn

    guard, memory, sandbox = limits
    graded = _graded_chapter(chapter)
    answers.graded_chapter = graded
    if chapter.take_turn == "required" and _handed_out_take_turn(code):
        answers.take_turn_unanswered = True
        return
    runs = [
        Run(item["name"], run, item["counts"])
        for item in answers.results_found
        if (run := _rerun_of(item)) is not None
    ]
    if runs:
        answers.stage += " and the re-runs of the notebook's simulations"
    grade = grade_take_turn(sources, graded, memory, guard, sandbox, runs)
    if grade.stopped:
        answers.unusable = (
            TOO_LONG
            if guard.remaining() <= 0
            else f"the process that plays take_turn stopped ({grade.stopped})"
        )
        return
    answers.described = {"callable": grade.callable}
    if chapter.take_turn == "required" and not grade.callable:
        answers.take_turn_unanswered = True
        return
    answers.reference = code.reference_use() or grade.not_own
    answers.rules = None if answers.reference else grade.rules
    _find_results(code, answers, grade.reruns)


def _find_results(
    code: SubmissionCode, answers: _Answers, reruns: dict[str, list[int] | str]
) -> None:
    """The results of the student's own simulation: the first of those the kernel reported
    that the graded process's re-run with the final take_turn confirms (``reruns``), or that
    needs none; each one passed over is noted, saying why."""
    verified: list[list[int]] = []
    for item in answers.results_found:
        note = _verify(item, code.names.get(item["name"], "unknown"), verified, reruns)
        if note is None:
            answers.results = item
            return
        answers.results_notes.append(f"{item['name']}: {note}")


def _verify(
    item: dict, kind: str, verified: list[list[int]], reruns: dict[str, list[int] | str]
) -> str | None:
    """None if ``item`` holds the student's own results, else why it is not used: a table
    whose counts are a verified simulation's, or that the code says is the student's own; a
    simulation of the reference engine that the graded process's re-run repeats exactly
    (``reruns``), or, too long to re-run, that the code says is the student's own. ``kind``
    is what the code says of the variable (``SubmissionCode.names``)."""
    if item["kind"] == "table":
        if item["counts"] in verified or kind in ("own", "result:own"):
            return None
        return "not made by a simulation of your take_turn"
    if item["engine"] != "reference":
        return "made by the package's fast engine, not your take_turn"
    if _rerun_of(item) is None:
        return None if kind == "result:own" else "too long to re-run with your take_turn"
    again = reruns.get(item["name"], "not re-run")
    if isinstance(again, str):
        return f"could not be re-run with your take_turn ({again})"
    if again != item["counts"]:
        return "re-running its simulation with your final take_turn gives other tallies"
    verified.append(item["counts"])
    return None


def _handed_out_take_turn(code: SubmissionCode) -> bool:
    """Whether the notebook's last ``def take_turn`` is code a student edition hands out,
    unchanged (a placeholder that raises), of its chapter or of any other, or a
    placeholder edited to do nothing still (``pass``, ``...``, ``return None``, a ``raise``)."""
    function = code.functions.get("take_turn")
    if does_nothing(function):
        return True
    if not isinstance(function, ast.FunctionDef):
        return False
    return any(fingerprint(function) in known for known in handed_out().values())


TOO_LONG = "it ran longer than the time limit"


def _too_long(timeout: float, session: KernelSession, cells: int, stage: str) -> str:
    """Which part ran past the time limit: the kernel's start, the notebook's cells (the one
    running), or what the checker did after them (the graded games)."""
    limit = f"{TOO_LONG} of {timeout:g} s"
    if session.cells_ran_in is None and session.running:
        return f"{limit} in the notebook's cells (cell {session.running} of {cells} was running)"
    if session.cells_ran_in is None:
        return f"{limit} while its kernel started"
    part = stage or "the checker's questions"
    return f"{limit} in {part}, after its cells ran in {session.cells_ran_in:.0f} s"


def _why_stopped(expired: bool, cell: int, error: Exception, timeout: float) -> str:
    if expired or error.__class__.__name__ == "CellTimeoutError":
        return TOO_LONG
    where = f" while running cell {cell}" if cell else ""
    first = (str(error).splitlines() or [""])[0][:200]
    return f"its kernel stopped{where} ({type(error).__name__}: {first})"


def _memory_problem(notebook: object, memory_gb: float, answers: _Answers) -> _Answers:
    """A cell that ran out of memory under the cap makes the notebook unusable."""
    if answers.unusable.startswith("it ran longer"):
        return answers
    for number, cell in enumerate(notebook.cells, 1):
        if any(out.get("ename") == "MemoryError" for out in cell.get("outputs", [])):
            answers.unusable = f"it used more than {memory_gb:g} GB of memory (cell {number})"
            return answers
    if answers.unusable.startswith("its kernel stopped"):
        answers.unusable += f"; it may have used more than {memory_gb:g} GB of memory"
    return answers


@dataclass
class _Questions:
    """The checker's questions to one kernel, and the grading of each answer as it comes.

    Questions are sent ahead (the kernel answers them in order), so the kernel plays the
    next games while this process grades the last ones.
    """

    session: KernelSession
    code: SubmissionCode
    notebook: object
    answers: _Answers

    async def ask(self, request: dict) -> object:
        """One question, its answer awaited."""
        return await self.session.ask(request)

    def asking_on(self) -> bool:
        """Whether to go on to the next part: nothing has made the notebook ungradable and
        its time is not up (a check past its time names the part that was running then,
        not a later one that its stopped kernel could not answer)."""
        return not self.answers.unusable and self.session.guard.remaining() > 0

    async def ask_all(self, chapter: Chapter) -> None:
        """Ask what the notebook's chapter is graded on (nothing, if its code changes the
        package or the kernel: no answer from that kernel could be trusted)."""
        if self.code.tampering():
            return
        if chapter.take_turn != "none":
            await self.results()
        if chapter.exercises and self.asking_on():
            self.answers.stage = "reading the exercises' answers"
            await self.exercises(chapter.exercises)

    async def results(self) -> None:
        """The notebook's simulation results and results tables, the likeliest first, if it
        binds a take_turn: the kernel only reports them; which is the student's own is
        decided once take_turn is graded (see :func:`_take_turn`)."""
        from .kernel_session import Unanswered

        if "take_turn" not in self.code.names or _handed_out_take_turn(self.code):
            return
        self.answers.stage = "reading the results of the notebook's simulation"
        try:
            found = read_results(await self.ask({"kind": "results"}))
        except (Unanswered, MalformedAnswer) as error:
            self.answers.results_notes.append(f"the results could not be read ({error})")
            return
        found.sort(key=lambda item: (item["kind"] != "simulation", item["name"] != "result"))
        self.answers.results_found = found

    async def exercises(self, exercises: tuple[Exercise, ...]) -> None:
        """The values of the variables that hold the exercises' answers."""
        from .kernel_session import Unanswered

        names = [exercise.name for exercise in exercises]
        try:
            self.answers.values = read_values(
                await self.ask({"kind": "values", "names": names}), names
            )
        except (Unanswered, MalformedAnswer) as error:
            self.answers.values_note = f"the answers could not be read ({error})"


@dataclass
class _GradedStrategies:
    """Chapter 9: the student's strategy and trade policy, played in a graded process that
    holds the whole game but not the checker (``graded_process --game``, after the notebook's
    kernel is gone), every game replayed here from the answers recorded there."""

    notebook: object
    chapter: Chapter
    answers: _Answers
    limits: tuple[ProcessGuard, int, Sandbox | None]

    def play(self, sources: list[tuple[int, str]], games: int) -> None:
        """Run the notebook's code cells there, then grade each of the chapter's strategies."""
        from .graded_session import GradedProcess, not_own, python_cells, read_reached
        from .kernel_session import Unanswered

        guard, memory, sandbox = self.limits
        room = GradedProcess(memory, sandbox, game=True)
        self.answers.stage = "the graded games (running the cells where the strategy is graded)"
        try:
            room.send({"kind": "load", "cells": python_cells(sources)})
            loaded = room.receive()
            if not isinstance(loaded, dict) or not isinstance(loaded.get("failed_cells"), list):
                raise Unanswered("its answer about the cells is not readable")
            for variable in self.chapter.strategies:
                if self.answers.unusable or guard.remaining() <= 0:
                    break
                self.strategy(room, variable, games)
            room.send({"kind": "reached"})
            self.answers.strategy_not_own = not_own(read_reached(room.receive()), "the strategy")
        except Unanswered as error:
            self.answers.unusable = (
                TOO_LONG
                if guard.remaining() <= 0
                else f"the process that plays the strategy stopped ({error})"
            )
        finally:
            room.close()

    def strategy(self, room: GradedProcess, variable: str, games: int) -> None:
        """Find the student's strategy ``variable`` (``mine``, or the trade policy ``trader``),
        have the graded process play the games, replay each here; not if it is the starter
        code the chapter hands out."""
        answers, chapter = self.answers, self.chapter.number
        answers.stage = f"the graded games (finding the {WHAT[variable]} {variable})"
        room.send({"kind": "strategy", "variable": variable})
        try:
            found = answers.strategies_found[variable] = read_strategy(room.receive())
        except MalformedAnswer as error:
            answers.unusable = f"the graded process did not answer the checker ({error})"
            return
        if found["variable"] is None:
            why = missing_strategy(variable, found["candidates"])
            if variable == STRATEGY_VARIABLE:
                answers.unusable = why
            else:  # the trade policy is not answered, as an exercise can be
                answers.strategies_missing[variable] = why
            return
        if found["error"] or found["builtin"]:
            return
        starter = handed_out_strategy(self.notebook, chapter, variable, found["where"])
        if starter:
            answers.strategies_handed_out[variable] = starter
            return
        self.replay(room, found, variable, games)

    def replay(self, room: GradedProcess, found: dict, variable: str, games: int) -> None:
        """Have the graded process play ``games`` games of the check with the strategy
        ``found``, a batch at a time (the next one asked while this one is replayed), and
        replay each here."""
        answers = self.answers
        report = answers.strategies[variable] = StrategyReport(
            found["variable"], found["name"], CAPSTONE_SEED, games, TRADING[variable]
        )
        judge = known_decisions(variable, set(found["where"]), self.chapter.number)
        setups = capstone_games(games, CAPSTONE_SEED, TRADING[variable])
        batches = [setups[start : start + BATCH] for start in range(0, games, BATCH)]

        def ask(batch: list[dict]) -> None:
            room.send({"kind": "strategy_games", "variable": found["variable"], "games": batch})

        ask(batches[0])
        try:
            self._replay_batches(room, found, batches, ask, (report, judge))
        finally:
            room.drain()  # a batch asked for but not read, if a game failed before it
        report.plays_as = judge.plays_as()

    def _replay_batches(
        self,
        room: GradedProcess,
        found: dict,
        batches: list[list[dict]],
        ask: Callable[[list[dict]], None],
        grading: tuple[StrategyReport, Judge],
    ) -> None:
        """Read each batch's records (the next batch asked first) and replay its games, up
        to the first that fails."""
        answers, (report, judge) = self.answers, grading
        games = sum(len(batch) for batch in batches)
        for number, batch in enumerate(batches):
            if number + 1 < len(batches):
                ask(batches[number + 1])
            answers.stage = (
                f"the graded games ({report.what} {found['variable']}'s {games} "
                f"games, {batch[0]['game']} replayed)"
            )
            try:
                records = read_strategy_games(room.receive(), batch)
            except MalformedAnswer as error:
                report.fail(
                    f"games {batch[0]['game']} to {batch[-1]['game']} (counted from "
                    f"0): the graded process's answer could not be read ({error})"
                )
                return
            for setup, record in zip(batch, records, strict=True):
                replay = replay_game(setup, record, found["name"], judge)
                place = _answer_place(replay, record, found["where"])
                report.add(setup, replay, _place_text(self.notebook, place))
                if report.failure:
                    return


def _graded_chapter(chapter: Chapter) -> int | None:
    """The chapter whose rules take_turn is graded for: chapters 1 to 4 their own, else None
    (every rule)."""
    return chapter.number if chapter.number in GRADED_CHAPTERS else None


def _rerun_of(item: dict) -> dict | None:
    """The run the graded process repeats to verify a simulation result (None: no re-run)."""
    if item["kind"] != "simulation" or item["engine"] != "reference":
        return None
    if item["games"] * item["turns"] * item["players"] > RERUN_LIMIT:
        return None
    return {key: item[key] for key in ("games", "turns", "players", "seed", "rules")}


def _answer_place(replay: GameReplay, record: dict, where: dict) -> dict | None:
    """Where the answer that stopped a game came from: the line that raised, else the
    ``return`` of the decision that gave the refused answer (the game's last), else its
    ``def``."""
    if replay.place:
        return replay.place
    defined = where.get(replay.decision)
    returned = record["lines"][-1] if record["lines"] and replay.illegal else None
    if defined and returned:
        return {"cell": defined["cell"], "line": returned}
    return defined


def _place_text(notebook: object, place: dict | None) -> str:
    """``cell N, line L: the line``, from the cell's number in the notebook and the line
    (or '')."""
    if not place or not 0 < place["cell"] <= len(notebook.cells):
        return ""
    number, cell = place["cell"], notebook.cells[place["cell"] - 1]
    lines = cell.source.splitlines()
    text = lines[place["line"] - 1].strip() if 0 < place["line"] <= len(lines) else ""
    return f"cell {number}, line {place['line']}" + (f": {text[:120]}" if text else "")


@dataclass
class _Report:
    """A report being written: what fails (its first lines), notes shown below them (a
    capstone's win rate, exercises not answered), and the details, one paragraph each."""

    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)


def _verdict(
    code: SubmissionCode,
    chapter: Chapter,
    answers: _Answers,
    failed: tuple[str, ...],
    expected: dict[str, float | str] | None,
    show_expected: bool = False,
    failed_checks: tuple[str, ...] = (),
) -> NotebookCheck:
    """The status and report: findings about the code first, then what the chapter grades
    (rules and trends, the strategy, the exercises), then the failed cells. A wrong answer
    is told with its hint, or with the right value if ``show_expected``; without the answer
    key (``expected`` None) the answers given are left to the instructor's checker. Where
    take_turn is graded, a failed cell fails the check only if it is one of the chapter's
    own handed-out checks (``failed_checks``); elsewhere every failed cell does."""
    report = _Report(texts=[str(chapter)])
    tampering = code.tampering()
    if tampering:  # nothing was asked of its kernel (see _Questions.ask_all)
        report.failures.append(f"{NOT_GRADED}: " + "; ".join(tampering))
        report.texts.append(f"graded: nothing ({NOT_GRADED.lower()})")
    withheld = [cell for cell in failed if WITHHELD in cell]
    if withheld:  # the kernel's hook refused it (see kernel_hook)
        report.failures.append(
            "Not the student's own work: the notebook tries to read what a checked notebook "
            "may not (" + "; ".join(withheld) + ")"
        )
    if answers.take_turn_unanswered:
        report.failures.append(not_answered("take_turn", TAKE_TURN_HOW))
        report.texts.append("take_turn: not graded (not answered)")
    elif answers.take_turn_graded:
        _take_turn_verdict(answers, report)
    if answers.strategy_not_own:
        report.failures.append(f"Not the student's own work: {answers.strategy_not_own}.")
    for variable in chapter.strategies:
        _strategy_verdict(variable, answers, report)
    if chapter.exercises and not tampering:
        _exercises_verdict(chapter, answers, expected, report, show_expected)
    cells_graded = not answers.take_turn_graded  # with take_turn, failed cells are only listed
    if failed_checks and not cells_graded:  # ... but for the chapter's own checks
        report.failures.append("The chapter's own checks failed: " + "; ".join(failed_checks))
    report.texts.append(f"cells: {len(failed)} failed" if failed else "cells: every cell ran")
    passed = not report.failures and not (failed and cells_graded)
    verdict = "All rules pass." if answers.take_turn_graded else "All checks pass."
    summary = [verdict] if passed else list(report.failures)
    if failed:
        graded = "graded at the end" if answers.take_turn_graded else "each failed cell fails"
        summary.append(f"Cells that failed (the notebook was run past them and {graded}):")
        summary += [f"  {cell}" for cell in failed]
    summary += report.notes
    text = "\n\n".join(["\n".join(summary), *report.texts])
    return NotebookCheck(0 if passed else 1, text, failed)


TAKE_TURN_HOW = (
    "write your own take_turn, in place of the chapter's placeholders, and run "
    "the notebook to its end"
)
"""How to answer a take_turn chapter whose take_turn is missing or still the placeholder."""


def _take_turn_verdict(answers: _Answers, report: _Report) -> None:
    """The take_turn chapters: own work, the rules, the results' trends."""
    if answers.reference:
        report.failures.append(f"Not the student's own work: {REFERENCE} ({answers.reference}).")
        report.texts.append(
            "take_turn: not graded (it is the package's reference engine or calls it)"
        )
    elif answers.rules is not None:
        if not answers.rules.passed:
            broken = "; ".join(check.rule for check in answers.rules.failures)
            report.failures.append(f"Broken rules: {broken}")
        report.texts.append(str(answers.rules))
    summary_results, results_text = _results_text(answers)
    report.failures += summary_results
    report.texts.append(results_text)


def _strategy_verdict(graded: str, answers: _Answers, report: _Report) -> None:
    """Chapter 9: the student's own strategy (or trade policy), legal in every game, and
    its win rates; a missing trade policy, or the chapter's starter unchanged, is not
    answered (and fails)."""
    found = answers.strategies_found.get(graded, {})
    variable = found.get("variable") or graded
    what = WHAT[graded]
    played = answers.strategies.get(graded)
    if graded in answers.strategies_missing:
        missing = answers.strategies_missing[graded]
        report.failures.append(not_answered(graded, missing))
        report.texts.append(f"{what}: not played ({missing})")
    elif graded in answers.strategies_handed_out:
        starter = handed_out_reason(graded, answers.strategies_handed_out[graded])
        report.failures.append(not_answered(variable, starter))
        report.texts.append(f"{what}: {variable} not played ({starter})")
    elif found.get("error"):
        report.failures.append(
            f"Broken {what}: {variable} is not a strategy the game can use: {found['error']}"
        )
        report.texts.append(f"{what}: {variable} not played ({found['error']})")
    elif found.get("builtin"):
        why = f"{variable} plays the package's {found['builtin']}, not the student's own"
        report.failures.append(f"Not the student's own work: {why}.")
        report.texts.append(f"{what}: not played ({why})")
    elif played is not None and played.passed and played.plays_as:
        starter, why = plays_as_reason(variable, played.plays_as)
        if starter:
            report.failures.append(not_answered(variable, why))
        else:
            report.failures.append(f"Not the student's own work: {why}.")
        report.texts.append(f"{what}: {variable} played, not graded ({why})")
    elif played is not None:
        if played.passed:
            report.notes.append(played.headline())
        else:
            report.failures.append(played.summary())
        report.texts.append(str(played))


def _exercises_verdict(
    chapter: Chapter,
    answers: _Answers,
    expected: dict[str, float | str] | None,
    report: _Report,
    show_expected: bool = False,
) -> None:
    """Chapters 10 to 12: each answer variable right, wrong, or not answered (both fail);
    without the answer key, a note that the instructor's checker grades the answers."""
    if expected is None:
        names = [exercise.name for exercise in chapter.exercises]
        are = "is" if len(names) == 1 else "are"
        report.notes.append(INSTRUCTORS_CHECKER.format(names=", ".join(names), are=are))
    if answers.values is None:
        report.failures.append(f"Exercises not checked: {answers.values_note}")
        report.texts.append(f"exercises: {answers.values_note}")
        return
    graded = grade_answers(
        chapter.exercises, expected, answers.values, show_expected, answers.variant
    )
    report.failures += graded.failures
    report.texts.append(str(graded))


def _results_text(answers: _Answers) -> tuple[list[str], str]:
    """The summary lines and the report of the results check."""
    notes = "".join(f"\n  not used: {note}" for note in answers.results_notes)
    if answers.results is None:
        return (
            [],
            f"results: no results of your own take_turn found in the notebook (not checked){notes}",
        )
    import pandas as pd

    counts = pd.Series(answers.results["counts"], index=pd.RangeIndex(1, 41, name="space"))
    graded = answers.rules.graded_as if answers.rules and answers.rules.graded_as else None
    try:
        results = check_results(counts, graded or answers.graded_chapter)
    except (ValueError, TypeError) as error:
        return [f"Results unusable: {error}"], f"results: {answers.results['name']}: {error}"
    missing = results.rows.loc[results.rows["suspicious"], "trend"].tolist()
    summary = (
        []
        if results.passed
        else ["Trends missing that correct runs nearly always show: " + "; ".join(missing)]
    )
    return summary, f"{results}\n  (from {answers.results['name']}){notes}"
