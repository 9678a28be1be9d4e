"""Check a student's notebook: run it in its own kernel, then grade its take_turn and results.

A student notebook is untrusted code. It runs in a separate process (a Jupyter kernel,
started under a memory cap, its output reaching the checker only as Jupyter messages), past
any cell that fails; the cells that failed are read from the executed notebook. The grade is
computed here, in the checker's process: the kernel is only asked to play games the checker
chose (with the ordinary dice, decks, players and trackers a student uses) and to report what
happened, as data; the reference engine plays the same games here and the two are compared.
The notebook's code is also read (not run) to find a take_turn that is the package's reference
engine or calls it, and code that changes the package or how the kernel runs code.

The time limit covers the whole check and is enforced from outside the kernel; when a check
ends, for any reason, the kernel and every process the submission started are killed (see
:mod:`monopoly_lesson.sandbox`). Not isolated: the submission runs as the grader's user, so it
can read and write that user's files and use the network. Run submissions in a container.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from .answers import MalformedAnswer, read_describe, read_results, read_tallies
from .grading import check_results, grade_games, rule_games
from .submission_code import SubmissionCode, read_code

__all__ = ["MAX_MEMORY_GB", "MAX_TIMEOUT", "NotebookCheck", "check_notebook", "failed_cells"]

MAX_TIMEOUT = 24 * 3600  # seconds: the longest time limit a check accepts
MAX_MEMORY_GB = 1024  # GB: the largest memory cap a check accepts
RERUN_LIMIT = 3_000_000  # player-turns: a longer simulation is not re-run to verify it
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
    """What the checker learnt from the kernel (all of it data, read strictly)."""

    described: dict | None = None
    observed: list = field(default_factory=list)
    results: dict | None = None
    results_notes: list[str] = field(default_factory=list)
    unusable: str = ""


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


def check_limits(timeout: float, memory_gb: float) -> None:
    """Refuse a time limit or memory cap that is not positive, finite and sensible."""
    limits = ((timeout, "timeout", MAX_TIMEOUT), (memory_gb, "memory", MAX_MEMORY_GB))
    for value, what, most in limits:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{what} must be a number, got {value!r}.")
        if not math.isfinite(value) or value <= 0 or value > most:
            raise ValueError(f"{what} must be more than 0 and at most {most:,}, got {value!r}.")


def check_notebook(path: str | Path, timeout: float = 600, memory_gb: float = 4) -> NotebookCheck:
    """Run and grade a student's notebook in a separate kernel, within ``timeout`` seconds.

    The kernel (and everything it starts) may use at most ``memory_gb`` GB of address space.
    Cells that raise are listed and the notebook is run past them. Status 0: every rule and
    trend check passes; 1: a rule (or a near-certain trend) fails, or take_turn is not the
    student's own work; 2: the notebook cannot be graded (missing, not a notebook, no
    take_turn at the end, too slow, too much memory), and the report is one line that says why.
    """
    started = time.monotonic()
    check_limits(timeout, memory_gb)
    path = Path(path)
    if not path.is_file():
        return NotebookCheck(2, f"{path}: no such file")
    if path.suffix != ".ipynb":
        return NotebookCheck(2, f"{path}: not a notebook (expected a .ipynb file)")
    import nbformat

    try:
        notebook = nbformat.read(path, as_version=4)
        sources = [(n, c.source) for n, c in enumerate(notebook.cells, 1) if c.cell_type == "code"]
    except Exception as error:  # nbformat raises many kinds of errors for a broken file
        return NotebookCheck(2, f"{path.name} cannot be graded: it is not a readable notebook "
                             f"({type(error).__name__})")  # fmt: skip
    code = read_code(sources)
    answers = _run(notebook, path, code, (started, timeout), memory_gb)
    failed = tuple(failed_cells(notebook))
    if answers.unusable:
        cells = f" (cells that failed: {'; '.join(failed)})" if failed else ""
        return NotebookCheck(2, f"{path.name} cannot be graded: {answers.unusable}{cells}", failed)
    return _verdict(code, answers, failed)


def _run(notebook: object, path: Path, code: SubmissionCode, limit: tuple[float, float],
         memory_gb: float) -> _Answers:  # fmt: skip
    """Run the notebook and ask the kernel the checker's questions, all within the time limit."""
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    from .kernel_session import KernelSession
    from .sandbox import ProcessGuard

    answers, (started, timeout) = _Answers(), limit
    with ProcessGuard(timeout, started) as guard:
        session = KernelSession(notebook, str(path.parent.resolve()), guard,
                                int(memory_gb * 2**30))  # fmt: skip
        try:
            asyncio.run(session.run(lambda s: _ask_all(s, code, answers)))
        except (CellTimeoutError, DeadKernelError, RuntimeError, OSError, TimeoutError) as error:
            answers.unusable = _why_stopped(guard.expired, session.running, error, timeout)
    if guard.expired:
        answers.unusable = f"it ran longer than the time limit of {timeout:g} s"
    return _memory_problem(notebook, memory_gb, answers)


def _why_stopped(expired: bool, cell: int, error: Exception, timeout: float) -> str:
    if expired or error.__class__.__name__ == "CellTimeoutError":
        return f"it ran longer than the time limit of {timeout:g} s"
    where = f" while running cell {cell}" if cell else ""
    first = (str(error).splitlines() or [""])[0][:200]
    return f"its kernel stopped{where} ({type(error).__name__}: {first})"


def _memory_problem(notebook: object, memory_gb: float, answers: _Answers) -> _Answers:
    """A cell that ran out of memory under the cap makes the notebook unusable."""
    if answers.unusable.startswith("it ran longer"):
        return answers
    for number, cell in enumerate(notebook.cells, 1):  # type: ignore[attr-defined]
        if any(out.get("ename") == "MemoryError" for out in cell.get("outputs", [])):
            answers.unusable = f"it used more than {memory_gb:g} GB of memory (cell {number})"
            return answers
    if answers.unusable.startswith("its kernel stopped"):
        answers.unusable += f"; it may have used more than {memory_gb:g} GB of memory"
    return answers


async def _ask_all(session: object, code: SubmissionCode, answers: _Answers) -> None:
    """Ask where take_turn comes from, play every game of the checks, then find the results."""
    from .kernel_session import Unanswered

    try:
        asked = await session.ask({"kind": "describe"})  # type: ignore[attr-defined]
        answers.described = read_describe(asked)
    except (Unanswered, MalformedAnswer) as error:
        answers.unusable = f"the kernel did not answer the checker ({error})"
        return
    if not answers.described["callable"]:
        answers.unusable = "no take_turn function is defined at the end of the notebook"
        return
    for game in rule_games():
        try:
            asked = await session.ask({"kind": "game", "game": game.setup})  # type: ignore[attr-defined]
            answers.observed.append(asked)
        except Unanswered as error:
            answers.observed.append({"unanswered": str(error)})
    await _find_results(session, code, answers)


async def _find_results(session: object, code: SubmissionCode, answers: _Answers) -> None:
    """The results of the student's own simulation: re-run with its take_turn where possible."""
    from .kernel_session import Unanswered

    try:
        found = read_results(await session.ask({"kind": "results"}))  # type: ignore[attr-defined]
    except (Unanswered, MalformedAnswer) as error:
        answers.results_notes.append(f"the results could not be read ({error})")
        return
    found.sort(key=lambda item: (item["kind"] != "simulation", item["name"] != "result"))
    verified: list[list[int]] = []
    for item in found:
        note = await _verify(session, code, item, verified)
        if note is None:
            answers.results = item
            return
        answers.results_notes.append(f"{item['name']}: {note}")


async def _verify(session: object, code: SubmissionCode, item: dict,
                  verified: list[list[int]]) -> str | None:  # fmt: skip
    """None if ``item`` holds the student's own results, else why it is not used."""
    from .kernel_session import Unanswered

    kind = code.names.get(item["name"], "unknown")
    if item["kind"] == "table":
        if item["counts"] in verified or kind in ("own", "result:own"):
            return None
        return "not made by a simulation of your take_turn"
    if item["engine"] != "reference":
        return "made by the package's fast engine, not your take_turn"
    if item["games"] * item["turns"] * item["players"] > RERUN_LIMIT:
        return None if kind == "result:own" else "too long to re-run with your take_turn"
    run = {key: item[key] for key in ("games", "turns", "players", "seed", "rules")}
    try:
        again = read_tallies(await session.ask({"kind": "rerun", "run": run}))  # type: ignore[attr-defined]
    except (Unanswered, MalformedAnswer) as error:
        return f"could not be re-run with your take_turn ({error})"
    if again != item["counts"]:
        return "re-running its simulation with your final take_turn gives other tallies"
    verified.append(item["counts"])
    return None


def _verdict(code: SubmissionCode, answers: _Answers, failed: tuple[str, ...]) -> NotebookCheck:
    """The status and report: findings about the code first, then rules, trends, failed cells."""
    summary, texts = [], []
    reference = _reference_use(code, answers.described or {})
    if reference:
        summary.append(f"Not the student's own work: {REFERENCE} ({reference}).")
        texts.append("take_turn: not graded (it is the package's reference engine or calls it)")
    tampering = code.tampering()
    if tampering:
        summary.append("Changes the checker's tools (not allowed): " + "; ".join(tampering))
    if not reference:
        games = rule_games()
        report = grade_games(games, _replay(games, answers.observed))
        if not report.passed:
            summary.append("Broken rules: " + "; ".join(c.rule for c in report.failures))
        texts.append(str(report))
    summary_results, results_text = _results_text(answers)
    summary += summary_results
    texts.append(results_text)
    passed = not summary
    if passed:
        summary.append("All rules pass.")
    if failed:
        summary.append("Cells that failed (the notebook was run past them and graded at the end):")
        summary += [f"  {cell}" for cell in failed]
    return NotebookCheck(0 if passed else 1, "\n\n".join(["\n".join(summary), *texts]), failed)


def _replay(games: list, observed: list) -> object:
    """A ``play`` for :func:`grade_games` that hands out the kernel's answer for each game."""
    answers = {id(game): answer for game, answer in zip(games, observed, strict=False)}
    return lambda game: answers.get(id(game), {"unanswered": "the game was not played"})


def _reference_use(code: SubmissionCode, described: dict) -> str:
    """Why take_turn is the package's reference engine or calls it ('' when it is not)."""
    if described.get("is_reference"):
        return f"take_turn is {described.get('module')}.take_turn"
    static = code.reference_use()
    if static:
        return static
    if described.get("uses"):
        return "take_turn calls the package's " + ", ".join(described["uses"])
    return ""


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
    try:
        results = check_results(counts)
    except (ValueError, TypeError) as error:
        return [f"Results unusable: {error}"], f"results: {answers.results['name']}: {error}"
    missing = results.rows.loc[results.rows["suspicious"], "trend"].tolist()
    summary = [] if results.passed else [
        "Trends missing that correct runs nearly always show: " + "; ".join(missing)]  # fmt: skip
    return summary, f"{results}\n  (from {answers.results['name']}){notes}"
