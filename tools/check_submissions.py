"""Run the lesson's check on every submitted notebook in a folder, one line per submission.

    python tools/check_submissions.py SUBMISSIONS [--timeout 600] [--verbose]

runs ``python -m monopoly_lesson check FILE`` on each ``*.ipynb`` under the folder (its
subfolders too, for one folder per student; checkpoints are skipped), one after the other,
and prints a line per file with the check's exit status:

    0  pass        alice/01_moving_around.ipynb
    1  rule fails  bob/01_moving_around.ipynb
    2  unusable    carol/01_moving_around.ipynb

then a summary. Below the line of a submission that fails a rule go the check's first
lines: the broken rules, and the cells that failed when the notebook was run (it is run
past them and graded at the end); below an unusable one, the reason it cannot be graded.
A check that crashes with another status shows as ``error``, one that runs past the
timeout as ``timeout``. ``--verbose`` prints each check's whole output instead. Exit
status: 0 if every submission passed, 1 if any did not, 2 if there was none.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

CHECK = (sys.executable, "-m", "monopoly_lesson", "check")
MEANINGS = {0: "pass", 1: "rule fails", 2: "unusable"}
INDENT = " " * 7


@dataclass
class Result:
    """One submission's check: its exit status (None if it timed out) and its output."""

    path: Path
    status: int | None
    output: str

    @property
    def meaning(self) -> str:
        if self.status is None:
            return "timeout"
        return MEANINGS.get(self.status, "error")


def submissions(folder: Path) -> list[Path]:
    """Every notebook under ``folder``, by name, leaving out Jupyter's checkpoints."""
    found = folder.rglob("*.ipynb")
    return sorted(p for p in found if ".ipynb_checkpoints" not in p.parts and p.is_file())


def check_one(path: Path, command: Sequence[str] = CHECK, timeout: float = 600) -> Result:
    """Run the check command on one notebook (stopped, with its kernels, after ``timeout``)."""
    process = subprocess.Popen(
        [*command, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, so a timeout stops its children too
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(process)
        output, _ = process.communicate()
        return Result(path, None, f"{output}\n(stopped after {timeout:g} s)")
    return Result(path, process.returncode, output)


def stop(process: subprocess.Popen) -> None:
    """Kill a check and everything it started."""
    if hasattr(os, "killpg"):
        os.killpg(process.pid, signal.SIGKILL)
    else:  # Windows
        process.kill()


def line(result: Result, folder: Path) -> str:
    """The report line of one submission: status, meaning, path within the folder."""
    status = "-" if result.status is None else str(result.status)
    return f"{status:>3}  {result.meaning:<10}  {result.path.relative_to(folder)}"


def reasons(result: Result) -> list[str]:
    """What to show below a submission's line: the first paragraph of a failing check's output
    (the broken rules and the failed cells, or why it cannot be graded)."""
    first = result.output.strip().split("\n\n")[0]
    if result.status in (1, 2) or (result.status == 0 and "Cells that failed" in first):
        return first.splitlines()
    return []


def summary(results: list[Result]) -> str:
    """How many submissions, and how many of each outcome."""
    counts = Counter(result.meaning for result in results)
    order = [*MEANINGS.values(), "error", "timeout"]
    parts = ", ".join(f"{counts[name]} {name}" for name in order if counts[name])
    return f"{len(results)} submission(s): {parts}"


def main(argv: list[str] | None = None, command: Sequence[str] = CHECK) -> int:
    """Check every submission in the folder given on the command line; return the status."""
    parser = argparse.ArgumentParser(description="Check every submitted notebook in a folder.")
    parser.add_argument("folder", type=Path, help="folder of submitted notebooks")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per notebook")
    parser.add_argument("--verbose", action="store_true", help="show each check's output")
    args = parser.parse_args(argv)
    notebooks = submissions(args.folder) if args.folder.is_dir() else []
    if not notebooks:
        print(f"no notebooks (*.ipynb) found in {args.folder}", file=sys.stderr)
        return 2
    results = []
    for path in notebooks:
        result = check_one(path, command, args.timeout)
        results.append(result)
        print(line(result, args.folder), flush=True)
        shown = result.output.strip().splitlines() if args.verbose else reasons(result)
        if shown:
            print("\n".join(f"{INDENT}{text}" for text in shown))
    print(summary(results))
    return 0 if all(result.status == 0 for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
