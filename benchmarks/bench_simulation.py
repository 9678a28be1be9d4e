"""Benchmark: the lesson's 1000-game simulation, in the package and from the command line.

Run ``make bench`` (or ``python benchmarks/bench_simulation.py --repeat 5``). Prints:

- the best and median wall time of ``simulate()`` (the reference engine) over several
  runs, and its player-turns per second;
- the command line's whole process, ``python -m monopoly_lesson simulate --games 1000
  --turns 150 --players 2``, side by side with an R solution of the same homework
  (``benchmarks/peer/homework.R``: the course's R6 starter classes and a ``take_turn``),
  the two alternating, with each pair's ratio and their median. Without ``Rscript`` and
  the R6 package (Debian: ``apt-get install r-base-core r-cran-r6``) only the command
  line's time is printed, and why.

The R solution's tallies are compared with the exact expected tallies, so that the two
sides are seen to play the same rules.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import machine_line, timed_process

from monopoly_lesson import simulate
from monopoly_lesson.exact import expected_tallies

PEER = Path(__file__).resolve().parent / "peer" / "homework.R"
"""The R solution timed side by side with the command line."""
GOAL_RATIO = 30
"""The goal: the command line at least 30 times as fast as the R solution."""
GAMES, TURNS, PLAYERS = 1000, 150, 2
"""The lesson's simulation."""


def cli_seconds(seed: int) -> float:
    """One whole process of the command line's simulation, in seconds."""
    command = [sys.executable, "-m", "monopoly_lesson", "simulate", "--no-progress"]
    command += ["--games", str(GAMES), "--turns", str(TURNS), "--players", str(PLAYERS)]
    return timed_process([*command, "--seed", str(seed)])[1]


def r_unavailable() -> str | None:
    """Why the R solution cannot run here, or None when it can."""
    if shutil.which("Rscript") is None:
        return "Rscript is not installed (Debian: apt-get install r-base-core r-cran-r6)"
    found = subprocess.run(
        ["Rscript", "-e", "library(R6)"], capture_output=True, text=True, check=False
    )
    if found.returncode != 0:
        return "R's R6 package is not installed (Debian: apt-get install r-cran-r6)"
    return None


def r_run(seed: int) -> tuple[float, list[float]]:
    """One whole process of the R solution: its wall time and its tallies per space."""
    done, seconds, _ = timed_process(
        ["Rscript", str(PEER), str(GAMES), str(TURNS), str(PLAYERS), str(seed)]
    )
    return seconds, [float(count) for count in done.stdout.split("\n")[0].split()]


def largest_deviation(tallies: list[float]) -> float:
    """The largest gap between the R solution's tallies and the exact expected ones, in
    (Poisson) standard errors: a few at most when both play the same rules."""
    expected = expected_tallies(TURNS) * GAMES * PLAYERS
    return max(
        abs(count - mean) / max(mean, 1.0) ** 0.5
        for count, mean in zip(tallies, expected, strict=True)
    )


def side_by_side(repeat: int) -> None:
    """The command line against the R solution, alternating, and the ratios."""
    why = r_unavailable()
    if why:
        cli = statistics.median(cli_seconds(seed) for seed in range(repeat))
        print(f"  command line, whole process: median {cli:.2f} s ({repeat} runs)")
        print(f"  the R solution was not timed: {why}")
        return
    ratios, clis, rs = [], [], []
    for seed in range(repeat):
        cli = cli_seconds(seed)
        r, tallies = r_run(seed)
        clis.append(cli)
        rs.append(r)
        ratios.append(r / cli)
    print(f"  command line, whole process: median {statistics.median(clis):.2f} s")
    print(
        f"  R solution ({PEER.name}), whole process: median {statistics.median(rs):.2f} s; "
        f"its tallies within {largest_deviation(tallies):.1f} standard errors of the exact ones"
    )
    print(
        f"  the command line is {statistics.median(ratios):.1f}x as fast as the R solution "
        f"(median of {repeat} alternating pairs: "
        + ", ".join(f"{ratio:.1f}" for ratio in ratios)
        + f"; goal {GOAL_RATIO}x)"
    )


def main() -> None:
    """Time ``simulate()`` and the command line, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--pairs", type=int, default=3, help="alternating pairs (default 3)")
    args = parser.parse_args()

    print(machine_line())
    simulate(games=10, seed=0, progress=False)  # warm up imports and caches
    times = []
    for k in range(args.repeat):
        start = time.perf_counter()
        result = simulate(games=args.games, seed=k, progress=False)
        times.append(time.perf_counter() - start)
    player_turns = result.games * result.turns * result.players
    best, median = min(times), statistics.median(times)
    print(f"simulate(games={args.games}, turns=150, players=2): {player_turns:,} player-turns")
    print(f"  best   {best:.3f} s   median {median:.3f} s   ({args.repeat} runs)")
    print(f"  {player_turns / median:,.0f} player-turns per second (median)")
    print(f"The command line against an R solution ({GAMES} games, {TURNS} turns, {PLAYERS}):")
    side_by_side(args.pairs)
    print(f"  {machine_line()}")


if __name__ == "__main__":
    main()
