"""Benchmark: compiling the fast engines from an empty cache, as on a student's first day.

Run ``python benchmarks/bench_compile.py`` (part of ``make bench``). Each run is a fresh
``python -m monopoly_lesson compile`` with numba's cache in an empty folder of its own:
its CPU time (user and system, all of it on one core), wall time and peak memory, and what
it said of each engine. The goal: both engines in at most 90 s of one core.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile

from machine import machine_line, timed_process

GOAL_SECONDS = 90
"""The goal: both engines compiled in at most 90 s of one core."""


def compile_once() -> tuple[float, float, float, str]:
    """One fresh compile of both engines: CPU seconds, wall seconds, peak MB, its output."""
    with tempfile.TemporaryDirectory() as cache:
        done, wall, cpu = timed_process(
            [sys.executable, "-m", "monopoly_lesson", "compile"],
            env={**os.environ, "NUMBA_CACHE_DIR": cache},
        )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return cpu, wall, peak, done.stdout


def main() -> None:
    """Compile from an empty cache ``--repeat`` times and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="fresh compiles (default 1)")
    args = parser.parse_args()
    print(machine_line())
    runs = [compile_once() for _ in range(args.repeat)]
    cpu = statistics.median(run[0] for run in runs)
    wall = statistics.median(run[1] for run in runs)
    peak = max(run[2] for run in runs)
    print(f"python -m monopoly_lesson compile, from an empty cache ({args.repeat} run(s)):")
    for line in runs[-1][3].splitlines():
        print(f"  says: {line}")
    print(f"  {cpu:.1f} s of CPU (median), {wall:.1f} s wall, {peak:,.0f} MB at most")
    print(f"  {cpu / GOAL_SECONDS:.2f} of the goal ({GOAL_SECONDS} s of one core)")
    print(f"  {machine_line()}")


if __name__ == "__main__":
    main()
