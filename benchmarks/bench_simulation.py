"""Benchmark: how long the lesson's 1000-game simulation takes with the reference engine.

Run ``make bench`` (or ``python benchmarks/bench_simulation.py --repeat 5``). Prints the
best and median wall time over several runs and the player-turns per second.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from monopoly_lesson import simulate

R_REFERENCE_SECONDS = 30.0  # an R solution of the same homework, on this kind of machine


def main() -> None:
    """Time ``simulate()`` with the lesson's defaults and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()

    simulate(games=10, seed=0, progress=False)  # warm up imports and caches
    times = []
    for k in range(args.repeat):
        start = time.perf_counter()
        result = simulate(games=args.games, seed=k, progress=False)
        times.append(time.perf_counter() - start)
    player_turns = result.games * result.turns * result.players
    best, median = min(times), statistics.median(times)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(f"simulate(games={args.games}, turns=150, players=2): {player_turns:,} player-turns")
    print(f"  best   {best:.3f} s   median {median:.3f} s   ({args.repeat} runs)")
    print(f"  {player_turns / median:,.0f} player-turns per second (median)")
    print(f"  {R_REFERENCE_SECONDS / median:.0f}x faster than an R solution (~30 s)")


if __name__ == "__main__":
    main()
