"""Benchmark the whole game's reference engine: games per second, and how games end.

Run ``python benchmarks/bench_game.py`` (part of ``make bench``). Plays games of 4
always-buy players with a 100-round limit and prints the games per second (best and
median of several runs), the share of games that end before the round limit (one player
left) and the mean number of rounds, with a note of two reference speeds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from machine import machine_line

from monopoly_lesson.game.engine import play_monopoly

PYTHON_PEER_GAMES_PER_SECOND = 150  # a Python engine of the same game, on this kind of machine
JAVA_GAMES_PER_SECOND = 790  # the paper's Java engine, on this kind of machine


def play(games: int, first_seed: int) -> tuple[float, list]:
    """Play ``games`` games from consecutive seeds; return the seconds and the results."""
    start = time.perf_counter()
    results = [
        play_monopoly(["always"] * 4, seed=first_seed + k, max_rounds=100) for k in range(games)
    ]
    return time.perf_counter() - start, results


def main() -> None:
    """Time the reference engine and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500, help="games per timed run (500)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (default 3)")
    args = parser.parse_args()

    play(5, 10**6)  # warm up imports and caches
    times, results = [], []
    for k in range(args.repeat):
        seconds, batch = play(args.games, k * args.games)
        times.append(seconds)
        results += batch
    rates = [args.games / t for t in times]
    early = sum(r.ended_by == "last player" for r in results) / len(results)
    rounds = statistics.fmean(r.rounds for r in results)
    median = statistics.median(rates)
    print(machine_line())
    print(f"whole game, 4 always-buy players, max_rounds=100: {args.games} games x {args.repeat}")
    print(f"  {median:,.0f} games per second (median), best {max(rates):,.0f}")
    print(f"  {median / PYTHON_PEER_GAMES_PER_SECOND:.1f}x a Python peer engine (~150 games/s),")
    print(f"  {median / JAVA_GAMES_PER_SECOND:.2f}x the paper's Java engine (~790 games/s)")
    print(
        f"  {len(results)} games: {early:.1%} end before the round limit; mean {rounds:.1f} rounds"
    )


if __name__ == "__main__":
    main()
