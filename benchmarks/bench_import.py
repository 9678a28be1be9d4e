"""Benchmark ``import monopoly_lesson``: what every kernel start, command and test worker pays.

Run ``python benchmarks/bench_import.py`` (part of ``make bench``). Each run is a fresh
process, ``python -c "import monopoly_lesson"``: the whole process's wall time, the
import's own (timed inside it) and the process's CPU time (user and system: less swayed by
what else runs). Runs alternate with the same for ``import pandas`` alone, the floor (the
board and deck tables are pandas tables), so that what else runs on the machine weighs on
both alike; the medians are printed with their ratio, and the goal: the whole process
within 0.4 s. With ``--against DIR`` (another checkout, e.g. the main branch's) its import
alternates too, and the ratio of the two medians is printed.

Python's compiled bytecode is kept in a folder of its own for each checkout (one untimed
run writes it), as an installed package has it, whatever ``PYTHONDONTWRITEBYTECODE`` says.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from machine import machine_line, timed_process

ROOT = Path(__file__).resolve().parents[1]
GOAL_SECONDS = 0.4
"""The goal: ``python -c "import monopoly_lesson"`` within 0.4 s."""
TIMED = (
    "import time\nstarted = time.perf_counter()\nimport {module}\n"
    "print(time.perf_counter() - started)"
)
"""A run's code: import ``module`` and print how long the import took."""


def run_once(module: str, folder: Path, cache: Path, python: str) -> tuple[float, float, float]:
    """One fresh process importing ``module`` from the checkout ``folder``: its wall time,
    the import's own and the process's CPU time, in seconds."""
    env = {**os.environ, "PYTHONPATH": str(folder), "PYTHONPYCACHEPREFIX": str(cache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done, wall, cpu = timed_process(
        [python, "-c", TIMED.format(module=module)], cwd=folder, env=env
    )
    return wall, float(done.stdout.strip()), cpu


def main(argv: list[str] | None = None) -> None:
    """Time the imports, alternating, and print the medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11, help="runs of each (default 11)")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--against-python", default=sys.executable, help="its Python")
    args = parser.parse_args(argv)
    sides = {"import pandas": ("pandas", ROOT, sys.executable)}
    sides["import monopoly_lesson"] = ("monopoly_lesson", ROOT, sys.executable)
    if args.against:
        sides[f"the same from {args.against}"] = (
            "monopoly_lesson",
            args.against.resolve(),
            args.against_python,
        )
    times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in sides}
    with tempfile.TemporaryDirectory() as scratch:
        caches = {name: Path(scratch) / str(k) for k, name in enumerate(sides)}
        for name, (module, folder, python) in sides.items():
            run_once(module, folder, caches[name], python)  # writes the bytecode
        for _ in range(args.repeat):
            for name, (module, folder, python) in sides.items():
                times[name].append(run_once(module, folder, caches[name], python))
    print(f"{machine_line()}; {args.repeat} runs each")
    medians = {}
    for name, kept in times.items():
        whole, own, cpu = (statistics.median(t) for t in zip(*kept, strict=True))
        medians[name] = whole
        print(f"  {name}: {whole:.3f} s (median), the import {own:.3f} s, CPU {cpu:.3f} s")
    ours = medians["import monopoly_lesson"]
    print(
        f"  import monopoly_lesson over import pandas alone: {ours / medians['import pandas']:.2f}"
    )
    met = "met" if ours <= GOAL_SECONDS else "not met"
    print(f"  the goal, the whole process within {GOAL_SECONDS} s: {ours:.3f} s ({met})")
    if args.against:
        theirs = medians[f"the same from {args.against}"]
        print(f"  {args.against} over this checkout: {theirs / ours:.2f}")


if __name__ == "__main__":
    main()
