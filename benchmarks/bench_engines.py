"""Benchmark the three engines: exact solver, fast (compiled) engine, reference engine.

Run ``python benchmarks/bench_engines.py``. Prints the exact solver's time for the lesson's
150-turn answer, the fast engine's player-turns per second on one core and its ratio to
the reference engine's, and the peak memory (RSS) of a 1,000,000-game fast run, played
in a fresh process so that nothing else counts towards its peak.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: no threaded numpy (also in child processes)

from machine import machine_line  # noqa: E402

from monopoly_lesson import expected_tallies, fast_tallies, simulate  # noqa: E402

MILLION_RUN = """
import resource, sys, time
from monopoly_lesson import fast_tallies
games = int(sys.argv[1])
wall, cpu = time.perf_counter(), time.process_time()
fast_tallies(games, turns=150, players=2, seed=1)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(wall, cpu, peak)
"""

BASELINE_RSS = """
import resource
import monopoly_lesson, monopoly_lesson.fast_loop
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def timed(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds of ``repeat`` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def bench_exact() -> None:
    """The 150-turn lesson answer: first call (builds the chain) and cached calls."""
    first, _ = timed(lambda: expected_tallies(150), 1)
    cached, _ = timed(lambda: expected_tallies(150), 50)
    print("Exact solver, expected_tallies(150), lesson rules:")
    print(f"  first call {1e3 * first:.2f} ms (builds the chain)   cached {1e3 * cached:.2f} ms")


def bench_fast(games: int, reference_games: int, repeat: int) -> None:
    """Player-turns per second of the fast and reference engines, and their ratio.

    The two engines are timed turn about (reference, fast, reference, ...) and the best
    run of each is kept, so that a busy spell of the machine hits both alike.
    """
    fast_tallies(1000, seed=0)  # build the lookup tables and load (or compile) the loop
    turns, ref_turns = games * 150 * 2, reference_games * 150 * 2
    fast_runs, ref_runs = [], []
    for _ in range(repeat):
        ref_runs.append(timed(lambda: simulate(games=reference_games, seed=1, progress=False), 1))
        fast_runs.append(timed(lambda: fast_tallies(games, seed=1), 1))
    fast_wall, fast_cpu = (min(run[i] for run in fast_runs) for i in (0, 1))
    ref_wall, ref_cpu = (min(run[i] for run in ref_runs) for i in (0, 1))
    print(f"Fast engine, {games:,} games x 150 turns x 2 players ({turns:,} player-turns):")
    print(f"  wall {fast_wall:.2f} s  cpu {fast_cpu:.2f} s   (best of {repeat})")
    print(f"  {turns / fast_wall:,.0f} player-turns/s wall   {turns / fast_cpu:,.0f} cpu")
    print(f"Reference engine, {reference_games:,} games ({ref_turns:,} player-turns):")
    print(f"  wall {ref_wall:.2f} s  cpu {ref_cpu:.2f} s   (best of {repeat})")
    print(f"  {ref_turns / ref_wall:,.0f} player-turns/s wall   {ref_turns / ref_cpu:,.0f} cpu")
    ratio_wall = (turns / fast_wall) / (ref_turns / ref_wall)
    ratio_cpu = (turns / fast_cpu) / (ref_turns / ref_cpu)
    print(f"  fast / reference: {ratio_wall:.0f}x wall, {ratio_cpu:.0f}x cpu")
    fast_1000, _ = timed(lambda: fast_tallies(1000, seed=1), repeat)
    print(f"Lesson run (1,000 games) with the fast engine: {1e3 * fast_1000:.1f} ms")


def bench_memory(games: int) -> None:
    """Peak RSS of a fast run of ``games`` games, in a fresh process."""
    baseline = float(
        subprocess.run(
            [sys.executable, "-c", BASELINE_RSS], capture_output=True, text=True, check=True
        ).stdout
    )
    done = subprocess.run(
        [sys.executable, "-c", MILLION_RUN, str(games)], capture_output=True, text=True, check=True
    )
    wall, cpu, peak = (float(x) for x in done.stdout.split())
    turns = games * 150 * 2
    print(f"Fast engine, {games:,} games in a fresh process:")
    print(f"  wall {wall:.1f} s  cpu {cpu:.1f} s  ({turns / cpu:,.0f} player-turns/s cpu)")
    print(f"  peak RSS {peak:.0f} MB (before playing, with numba loaded: {baseline:.0f} MB)")


def main() -> None:
    """Run every benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=262_144, help="fast-engine games timed")
    parser.add_argument("--reference-games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs, best kept")
    parser.add_argument("--memory-games", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"{machine_line()}; one core")
    bench_exact()
    bench_fast(args.games, args.reference_games, args.repeat)
    bench_memory(args.memory_games)


if __name__ == "__main__":
    main()
