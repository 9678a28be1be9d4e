"""Run the lesson's check on every submitted notebook in a folder, one line per submission.

    python tools/check_submissions.py SUBMISSIONS [--timeout 600] [--games 400]
                                      [--show-expected] [--verbose] [--jobs N]

runs ``python -m monopoly_lesson check FILE`` on each ``*.ipynb`` under the folder (its
subfolders too, for one folder per student; checkpoints are skipped), ``--jobs`` at once
(by default one per processor: each check is one kernel at a time), and prints, in the
folder's order, a line per file with the check's exit status and the chapter it was graded as:

    0  pass        chapter 6   alice/06_full_simulation.ipynb
    1  fails       chapter 9   bob/09_whole_game.ipynb
    2  unusable    -           carol/06_full_simulation.ipynb

then a summary, which counts the failing submissions with something not answered. The
check grades what each notebook's chapter asks for (its take_turn, its chapter-9 strategy
and trade policy, its exercises' answers, its cells), so a folder may mix chapters. The
chapter is the one whose handed-out cells the notebook holds, whatever its heading or file
name (read here, as the check reads it, before the check runs: "-" for a file that holds no
chapter's cells or is not a notebook). Each
check is given ``--timeout`` (a positive number of seconds, at most a day), ``--games`` if
given (the games a chapter-9 strategy plays) and ``--show-expected`` if given (a wrong
answer's right value, instead of its hint); every process a submission started is killed
when its check ends. Each check isolates its submission where bubblewrap is installed (no
network, no other submission, no file of the grader's but the notebook's own folder); where
it is not, this says so once, and submissions are code that can read and write the
grader's files and use the network: run this in a container (see the README, "Checking
submissions"). Below
the line of a submission that fails go the check's first lines: what fails (broken rules,
a broken strategy, exercises not answered, among them the chapter's starter code left
unchanged, and wrong answers) and the cells that failed when the notebook was run (it is
run past them); below an unusable one, the reason it cannot be graded; below a pass, its
notes (a strategy's win rate, cells that failed) if it has any. A check that crashes with
another status shows as ``error``, one that runs past the timeout as ``timeout``.
``--verbose`` prints each check's whole output instead. Before the summary comes a
similarity report:
how alike each submission's graded code (what its take_turn reaches, or what its chapter-9
strategies are made of) is to the reference engine and to its chapter's stored solution,
and the pairs of one chapter's submissions that are nearly the same code, on syntax trees
normalised so that names, statement order and wrappers do not hide a copy
(:mod:`monopoly_lesson.checker.similarity`); it informs, it grades nothing. Exit status: 0
if every submission passed, 1 if any did not, 2 if there was none.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

CHECK = (sys.executable, "-m", "monopoly_lesson", "check")
ROOT = Path(__file__).resolve().parents[1]
MEANINGS = {0: "pass", 1: "fails", 2: "unusable"}
MAX_TIMEOUT = 24 * 3600  # seconds, as the check command itself accepts
MAX_OUTPUT = 1_000_000  # bytes of a check's output kept
INDENT = " " * 7
PASSED = ("All rules pass.", "All checks pass.")  # the first line of a check that passes
NOT_ANSWERED = "Not answered: "  # how the check's line of a piece not answered starts


@dataclass
class Result:
    """One submission's check: its exit status (None if it timed out), its output, and the
    chapter it was graded as (None: not recognised)."""

    path: Path
    status: int | None
    output: str
    chapter: int | None = None

    @property
    def meaning(self) -> str:
        """pass, fails, unusable, timeout, or error (a check that crashed)."""
        if self.status is None:
            return "timeout"
        return MEANINGS.get(self.status, "error")

    @property
    def not_answered(self) -> bool:
        """Whether the check failed with something not answered (among its first lines)."""
        return self.status == 1 and any(text.startswith(NOT_ANSWERED) for text in reasons(self))


def submissions(folder: Path) -> list[Path]:
    """Every notebook under ``folder``, by name, leaving out Jupyter's checkpoints."""
    found = folder.rglob("*.ipynb")
    return sorted(p for p in found if ".ipynb_checkpoints" not in p.parts and p.is_file())


def chapter_of(path: Path) -> int | None:
    """The chapter the check grades the notebook at ``path`` as: the one whose handed-out
    cells it holds (None if it holds none, or is not a readable notebook)."""
    import nbformat

    from monopoly_lesson.checker.notebook_chapter import notebook_chapter

    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception:  # nbformat raises many kinds of errors for a broken file
        return None
    return notebook_chapter(notebook).number


def check_one(
    path: Path,
    command: Sequence[str] = CHECK,
    timeout: float = 600,
    games: int | None = None,
    show_expected: bool = False,
    student: str | None = None,
) -> Result:
    """Run the check command on one notebook, passing ``--timeout`` (and ``--games``,
    ``--show-expected`` and the notebook's ``--student``, if given) on.

    The check enforces that limit itself, and kills every process of the submission when
    it ends; should it overrun by more than a grace period, it is killed, with every
    process it started. (What a check killed so leaves behind, detached, is killed when
    the whole folder has been checked: see :func:`main`.)
    """
    from monopoly_lesson.checker.isolation import NOT_ISOLATED

    chapter = chapter_of(path)  # before the check: the notebook's code could rewrite it
    with tempfile.TemporaryFile() as out:  # a file, not a pipe: a process left holding it
        games_option = [] if games is None else ["--games", str(games)]  # cannot stall us
        expected_option = ["--show-expected"] if show_expected else []
        student_option = ["--student", student] if student else []
        options = ["--timeout", f"{timeout:g}", *games_option, *expected_option, *student_option]
        process = subprocess.Popen(
            [*command, str(path), *options],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own session, so a timeout stops its children too
        )
        try:
            process.wait(timeout=timeout + grace(timeout))
            expired = False
        except subprocess.TimeoutExpired:
            expired = True
            stop(process)
        out.seek(0)
        output = out.read(MAX_OUTPUT).decode(errors="replace")
    output = output.replace(NOT_ISOLATED + "\n", "")  # said once for the folder, by main()
    if expired:
        return Result(path, None, f"{output}\n(stopped after {timeout:g} s)", chapter)
    return Result(path, process.returncode, output, chapter)


def stop(process: subprocess.Popen) -> None:
    """Kill a check that ran past its time, every process it started, and its session."""
    import psutil

    try:
        found = psutil.Process(process.pid).children(recursive=True)
    except psutil.Error:
        found = []
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    for child in found:
        with contextlib.suppress(psutil.Error):
            child.kill()
    process.wait()
    psutil.wait_procs(found, timeout=2)


def grace(timeout: float) -> float:
    """How long a check may overrun its own time limit before it is killed."""
    return min(10.0, timeout)


def seconds(text: str) -> float:
    """``--timeout``: a positive, finite number of seconds, at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most {MAX_TIMEOUT} seconds, got {text!r}"
        )
    return value


def games_count(text: str) -> int:
    """``--games``: a whole number of games, at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of games, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 game, got {text!r}")
    return value


def line(result: Result, folder: Path) -> str:
    """The report line of one submission: status, meaning, chapter, path within the folder."""
    status = "-" if result.status is None else str(result.status)
    chapter = "-" if result.chapter is None else f"chapter {result.chapter}"
    return f"{status:>3}  {result.meaning:<10}  {chapter:<10}  {result.path.relative_to(folder)}"


def reasons(result: Result) -> list[str]:
    """What to show below a submission's line: the first paragraph of a failing check's output
    (what fails and the failed cells, or why it cannot be graded), or a pass's notes."""
    first = result.output.strip().split("\n\n")[0]
    if result.status in (1, 2):
        return first.splitlines()
    lines = first.splitlines()
    if result.status == 0 and lines and lines[0] in PASSED and len(lines) > 1:
        return lines
    return []


def summary(results: list[Result]) -> str:
    """How many submissions, and how many of each outcome (and of the failing ones, how many
    have something not answered)."""
    counts = Counter(result.meaning for result in results)
    unanswered = sum(result.not_answered for result in results)
    order = [*MEANINGS.values(), "error", "timeout"]
    parts = []
    for name in order:
        detail = f" ({unanswered} with something not answered)" if name == "fails" else ""
        if counts[name]:
            parts.append(f"{counts[name]} {name}{detail if unanswered else ''}")
    return f"{len(results)} submission(s): {', '.join(parts)}"


def main(argv: list[str] | None = None, command: Sequence[str] = CHECK) -> int:
    """Check every submission in the folder given on the command line; return the status."""
    parser = argparse.ArgumentParser(description="Check every submitted notebook in a folder.")
    parser.add_argument("folder", type=Path, help="folder of submitted notebooks")
    parser.add_argument("--timeout", type=seconds, default=600, help="seconds per notebook")
    parser.add_argument(
        "--games",
        type=games_count,
        default=None,
        help="games a chapter-9 strategy plays (default: the check's, 400)",
    )
    parser.add_argument(
        "--show-expected",
        action="store_true",
        help="show the right value of a wrong answer (by default, the exercise's hint)",
    )
    parser.add_argument("--verbose", action="store_true", help="show each check's output")
    parser.add_argument(
        "--roster",
        type=Path,
        default=None,
        help="the roster the editions were written for (tools/student_edition.py --roster): "
        "each notebook is graded for its student's own numbers",
    )
    parser.add_argument(
        "--jobs",
        type=jobs_count,
        default=os.cpu_count() or 1,
        help="notebooks checked at once (default: one per processor)",
    )
    args = parser.parse_args(argv)
    notebooks = submissions(args.folder) if args.folder.is_dir() else []
    if not notebooks:
        print(f"no notebooks (*.ipynb) found in {args.folder}", file=sys.stderr)
        return 2
    from monopoly_lesson.checker.isolation import isolation_available, say_not_isolated
    from monopoly_lesson.checker.sandbox import ProcessGuard
    from monopoly_lesson.checker.variants import read_roster

    try:
        roster = read_roster(args.roster) if args.roster else None
    except (ValueError, OSError) as error:
        parser.exit(2, f"check_submissions: {error}\n")
    if not isolation_available():  # each check finds the same: said once, here
        say_not_isolated()
    results = []
    longest = len(notebooks) * (args.timeout + grace(args.timeout)) + 60
    with ProcessGuard(longest), ThreadPoolExecutor(args.jobs) as pool:  # all killed at the end
        checks = []
        for path in notebooks:
            student = student_of(path, args.folder, roster)
            if roster is not None and student is None:
                checks.append(pool.submit(off_roster, path, args.folder))
                continue
            options = (args.timeout, args.games, args.show_expected, student)
            checks.append(pool.submit(check_one, path, command, *options))
        for check in checks:  # in the folder's order, each as soon as it and those before are
            result = check.result()
            results.append(result)
            print(line(result, args.folder), flush=True)
            shown = result.output.strip().splitlines() if args.verbose else reasons(result)
            if shown:
                print("\n".join(f"{INDENT}{text}" for text in shown))
    print(similarity_report(results, args.folder))
    print(summary(results))
    return 0 if all(result.status == 0 for result in results) else 1


def student_of(path: Path, folder: Path, roster: list[str] | None) -> str | None:
    """Whose notebook ``path`` is: its folder's name under ``folder`` (one folder per
    student), else its file name's start (``alice_11.ipynb``); None without a roster, or
    if that student is not on it."""
    if roster is None:
        return None
    parts = path.relative_to(folder).parts
    name = parts[0] if len(parts) > 1 else re.split(r"[_-]", path.stem)[0]
    return name if name in roster else None


def off_roster(path: Path, folder: Path) -> Result:
    """A notebook of nobody on the roster: not checked."""
    where = path.relative_to(folder)
    why = f"check: {path.name} cannot be graded: {where} is nobody's on the roster"
    return Result(path, 2, f"{why} (one folder per student, named as on the roster)")


def jobs_count(text: str) -> int:
    """``--jobs``: a whole number of checks at once, at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of checks, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def similarity_report(results: list[Result], folder: Path) -> str:
    """How alike each submission's graded code is to the reference engine and to its
    chapter's stored solution, and the pairs of a chapter's submissions at least
    :data:`~monopoly_lesson.checker.similarity.PAIR_THRESHOLD` alike (names, statement
    order and wrappers do not hide a copy)."""
    from monopoly_lesson.checker.similarity import (
        PAIR_THRESHOLD,
        notebook_code,
        reference_code,
        similarity,
    )

    reference = reference_code()
    codes = {r.path: notebook_code(r.path) for r in results if r.chapter is not None}
    codes = {path: code for path, code in codes.items() if code}
    lines = ["", "Similarity of the graded code (normalised syntax trees; 1.00: the same code):"]
    for result in results:
        code = codes.get(result.path)
        if code is None:
            continue
        stored = solution_of(result.chapter)
        solution = f"{similarity(code, notebook_code(stored)):.2f}" if stored else "-"
        lines.append(
            f"{INDENT}{result.path.relative_to(folder)!s:<40}  reference engine "
            f"{similarity(code, reference):.2f}  stored solution {solution}"
        )
    if len(lines) == 2:
        return "\n".join([*lines, f"{INDENT}(no take_turn or strategy of their own to compare)"])
    chapters = {r.path: r.chapter for r in results}
    paths = sorted(codes)
    pairs = [
        (similarity(codes[one], codes[other]), one, other)
        for n, one in enumerate(paths)
        for other in paths[n + 1 :]
        if chapters[one] == chapters[other]
    ]
    close = sorted((p for p in pairs if p[0] >= PAIR_THRESHOLD), reverse=True)
    lines.append(f"Pairs of one chapter at least {PAIR_THRESHOLD:.2f} alike:")
    lines += [
        f"{INDENT}{score:.2f}  {one.relative_to(folder)} ~ {other.relative_to(folder)}"
        for score, one, other in close
    ] or [f"{INDENT}none"]
    return "\n".join(lines)


def solution_of(chapter: int | None) -> Path | None:
    """The chapter's stored notebook (with its solutions), where notebooks/ is at hand."""
    found = sorted((ROOT / "notebooks").glob(f"{chapter:02d}_*.ipynb")) if chapter else []
    return found[0] if found else None


if __name__ == "__main__":
    sys.exit(main())
