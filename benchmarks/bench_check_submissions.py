"""Benchmark grading a class: ``tools/check_submissions.py`` on a folder of mixed chapters.

Run ``python benchmarks/bench_check_submissions.py [--students 10] [--jobs N]``. Writes a
class of submissions from the stored chapters (``--students`` each of chapters 1, 5 and 9,
one folder per student, the chapter-9 strategies playing the check's 400 games each), checks
the folder with ``--jobs`` checks at once (by default one per processor) and prints the
wall time, the time per submission and the verdicts. With ``--peer`` it also checks the
class one notebook at a time, alternating with the parallel run, and prints the ratio of
their medians (machines here differ in speed from day to day: a ratio travels better).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ("01_moving_around", "05_jail", "09_whole_game")
sys.path.insert(0, str(ROOT / "tools"))

import check_submissions  # noqa: E402
from machine import machine_line  # noqa: E402


def write_class(folder: Path, students: int) -> int:
    """Each student's folder with the stored chapters 1, 5 and 9; how many notebooks."""
    for student in range(students):
        mine = folder / f"student{student:02d}"
        mine.mkdir(parents=True)
        for name in CHAPTERS:
            shutil.copy(ROOT / "notebooks" / f"{name}.ipynb", mine / f"{name}.ipynb")
    return students * len(CHAPTERS)


def grade(folder: Path, jobs: int) -> tuple[float, int, str]:
    """Seconds to check the folder, its exit status, and its summary line."""
    out = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out):
        status = check_submissions.main([str(folder), "--jobs", str(jobs)])
    took = time.perf_counter() - started
    return took, status, out.getvalue().strip().splitlines()[-1]


def main(argv: list[str] | None = None) -> None:
    """Write the class, check it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=10, help="students (3 notebooks each)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="checks at once")
    parser.add_argument("--peer", type=int, default=0, help="alternating runs with --jobs 1")
    args = parser.parse_args(argv)
    print(machine_line())
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "class"
        count = write_class(folder, args.students)
        print(f"{count} submissions ({args.students} each of {', '.join(CHAPTERS)})")
        took, status, summary = grade(folder, args.jobs)
        print(f"--jobs {args.jobs}: {took:.0f} s ({took / count:.1f} s a submission); {summary}")
        parallel, serial = [took], []
        for _ in range(args.peer):
            serial.append(grade(folder, 1)[0])
            parallel.append(grade(folder, args.jobs)[0])
            print(f"  --jobs 1: {serial[-1]:.0f} s, --jobs {args.jobs}: {parallel[-1]:.0f} s")
        if serial:
            ratio = statistics.median(serial) / statistics.median(parallel)
            print(f"one at a time / {args.jobs} at once (medians): {ratio:.2f}")
        if status != 0:
            print("(some submissions did not pass: the stored chapters should)")


if __name__ == "__main__":
    main()
