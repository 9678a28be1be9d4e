"""Benchmark the fast whole-game engine against the reference engine and the paper's.

Run ``python benchmarks/bench_fast_game.py`` (part of ``make bench``). Prints the games
and player-turns per second of 4 always-buy players with a 100-round limit (without and
with trading, side by side, and the ratio of the two), the time of
one generation of the paper's genetic algorithm (1,000 random RGA players, 100 games
each: 25,000 games; with and without trading) and of the genetic algorithm's whole
generation of RGA and TGA players, the ratios to the reference engine and to the paper's
Java engine (about 790 games per second on this kind of machine), and the peak memory,
each in a fresh process, of a 100,000-game run and of a population of 10,000 RGA players
playing one round of games. Then a whole ``evolve`` generation at the paper's scale: where
its time goes (breeding, the genes checked for the engine, the games, the diversity, which
a run measures while the games are set up, and saving the whole population, which a run
does every 10 generations, beside the next generation's games), and its time in whole
processes (21 generations minus one, over twenty, ``python -m monopoly_lesson evolve``;
the best of ``--repeat``) on every core and on one (``NUMBA_NUM_THREADS=1``): games and
player-turns per second, per core. Last, the two speed goals, each ratio the median of
``--repeat`` runs that alternate with what they are compared to: trading games' speed over
the trade-free speed, and a whole ``evolve`` generation of RGA, TGA, SGA and EGA, and of RGA
with trading, against a generation of the paper's Java program, timed beside them when
``GAMONOPOLY_DIR`` names a built checkout of it (``benchmarks/java_peer.py`` says how),
else its stored figure. The machine and its load are printed first and last;
``--goals-only`` prints the goals alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from java_peer import STORED_FROM, STORED_GENERATION_SECONDS, java_classes, java_generation_seconds
from machine import machine_line

from monopoly_lesson.game.engine import play_monopoly
from monopoly_lesson.game.fast import fast_games, genome_codes, strategy_codes

JAVA_GAMES_PER_SECOND = 790
JAVA_GENERATION_SECONDS = STORED_GENERATION_SECONDS
"""The paper's Java engine: one generation (1,000 players x 100 games) on one core, stored."""
TRADING_GOAL, GENERATION_GOAL = 0.85, 100
"""The speed goals: trading games at 0.85 of the trade-free speed; a paper generation of
``evolve`` 100 times as fast as the Java program's."""
GENERATION_RUNS = {
    "rga": ["--chromosome", "rga"],
    "tga": ["--chromosome", "tga"],
    "sga": ["--chromosome", "sga"],
    "ega": ["--chromosome", "ega"],
    "rga with trading": ["--chromosome", "rga", "--trading"],
}
"""The evolve runs whose whole generation the goals time."""
PEAK_RUN = """
import resource, numpy as np
from monopoly_lesson.game.fast import fast_games, strategy_codes
codes = strategy_codes(["always"] * 4)
for k in range(4):
    fast_games(codes, np.zeros((25_000, 4), np.int64), seeds=np.arange(25_000) + 25_000 * k)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""
PEAK_POPULATION = """
import resource, numpy as np
from monopoly_lesson.game.fast import fast_games, genome_codes
rng = np.random.default_rng(0)
genomes = rng.random((10_000, 160 + 64 * 64))  # as the genetic algorithm holds them
buy, jail = genomes[:, :160].reshape(-1, 4, 40), genomes[:, 160:].reshape(-1, 64, 64)
tables = rng.permutation(10_000).reshape(-1, 4)
fast_games(genome_codes("rga", buy, jail), tables, seeds=np.arange(len(tables)))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def best_of(repeat: int, run) -> float:  # type: ignore[no-untyped-def]
    """The best wall time of ``repeat`` runs of ``run()``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def alternating(repeat: int, *runs) -> list[list[float]]:  # type: ignore[no-untyped-def]
    """The wall times of each of ``runs``, run in turn ``repeat`` times: side by side, so
    that what else runs on the machine weighs on each alike."""
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for run, kept in zip(runs, times, strict=True):
            start = time.perf_counter()
            run()
            kept.append(time.perf_counter() - start)
    return times


def ratios_line(ratios: Sequence[float]) -> str:
    """``ratios`` as printed beside a goal: their median, then each run's."""
    each = ", ".join(f"{ratio:.3g}" for ratio in ratios)
    return f"median {statistics.median(ratios):.3g} (runs {each})"


def peak_megabytes(code: str) -> float:
    """The peak resident memory of ``code`` run in a fresh process, in MB (it prints it)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ}
    )
    return float(done.stdout.strip())


def generation_seconds(chromosome: str, repeat: int) -> float:
    """The best time of one generation of the genetic algorithm (1,000 players, 100 games
    each, finish-order fitness): its seating, games and fitness, as ``evolve`` plays it."""
    from monopoly_lesson.evolution.operators import random_population
    from monopoly_lesson.evolution.run import play_generation

    genomes = random_population(chromosome, 1000, np.random.default_rng(0))
    return best_of(
        repeat,
        lambda: play_generation(chromosome, genomes, "finish_order", 100, np.random.default_rng(1)),
    )


def generation_parts(repeat: int) -> dict[str, float]:
    """The best time of each part of one paper-scale RGA generation as ``evolve`` runs it."""
    from monopoly_lesson.evolution import files
    from monopoly_lesson.evolution.operators import (
        diversity,
        genome_genes,
        next_population,
        random_population,
    )
    from monopoly_lesson.evolution.run import play_generation

    rng = np.random.default_rng(0)
    genomes = random_population("rga", 1000, rng)
    fitness = rng.random(1000) * 300
    run = files._Run(
        {"chromosome": "rga", "population": 1000},
        1,
        genomes,
        fitness,
        [],
        [genomes[0]] * 300,
        [],
        saved=1,
    )  # the population saved whole
    folder = Path(tempfile.mkdtemp())
    return {
        "breeding": best_of(repeat, lambda: next_population(genomes, fitness, rng)),
        "genes checked for the engine": best_of(
            repeat, lambda: genome_codes("rga", *genome_genes("rga", genomes))
        ),
        "games (and fitness)": best_of(
            repeat,
            lambda: play_generation("rga", genomes, "finish_order", 100, np.random.default_rng(1)),
        ),
        "diversity (beside the set-up)": best_of(repeat, lambda: diversity("rga", genomes)),
        "saving the population (every 10th, beside)": best_of(
            repeat, lambda: files._save(folder, run)
        ),
    }


def whole_generation_seconds(
    threads: int | None, repeat: int, options: Sequence[str] = ()
) -> float:
    """One paper-scale generation of ``evolve`` (RGA unless ``options`` say otherwise), in
    whole processes: the time of 21 generations minus the time of one, over twenty (start-up,
    first population and compiling cancel; the population saved whole at generations 10 and
    20 counts), the best of ``repeat``."""
    env = {**os.environ, **({"NUMBA_NUM_THREADS": str(threads)} if threads else {})}

    def run(generations: int) -> float:
        with tempfile.TemporaryDirectory() as folder:
            command = [
                sys.executable,
                "-m",
                "monopoly_lesson",
                "evolve",
                "--generations",
                str(generations),
                "--benchmark-every",
                "0",
                "--no-progress",
                *options,
                "--out",
                str(Path(folder) / "run"),
            ]
            start = time.perf_counter()
            subprocess.run(command, check=True, env=env, capture_output=True)
            return time.perf_counter() - start

    return min((run(21) - run(1)) / 20 for _ in range(repeat))


def main() -> None:
    """Time the engines and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=25_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--java-generations",
        type=int,
        default=2,
        help="the Java program's generations timed, beyond its first (default 2)",
    )
    parser.add_argument("--goals-only", action="store_true", help="print the two goals alone")
    args = parser.parse_args()
    print(f"machine before: {machine_line()}")
    codes = strategy_codes(["always"] * 4)
    who = np.zeros((args.games, 4), np.int64)
    fast_games(codes, who[:10], seeds=np.arange(10))  # compile (or load the cache)
    fast_games(codes, who[:10], seeds=np.arange(10), trading=True)
    trade_free_times, trading_times = alternating(
        args.repeat,
        lambda: fast_games(codes, who, seeds=np.arange(args.games)),
        lambda: fast_games(codes, who, seeds=np.arange(args.games), trading=True),
    )
    trading_ratios = [
        free / traded for free, traded in zip(trade_free_times, trading_times, strict=True)
    ]
    seconds, trading_seconds = (statistics.median(t) for t in (trade_free_times, trading_times))
    if not args.goals_only:
        print_figures(args, codes, who, seconds, trading_seconds)
    print_goals(args.games / seconds, args.games / trading_seconds, trading_ratios, args)
    print(f"machine after: {machine_line()}")


def print_figures(  # type: ignore[no-untyped-def]
    args, codes, who, seconds: float, trading_seconds: float
) -> None:
    """Every figure but the goals: the engines' speeds, memory and where a generation's
    time goes (``seconds`` and ``trading_seconds``: the median time of ``who``'s games)."""
    out = fast_games(codes, who, seeds=np.arange(args.games))
    traded = fast_games(codes, who, seeds=np.arange(args.games), trading=True)
    turns, trading_turns = int(out["turns"].sum()), int(traded["turns"].sum())
    reference = best_of(1, lambda: [play_monopoly(["always"] * 4, seed=s) for s in range(200)])
    rng = np.random.default_rng(0)
    population = genome_codes("rga", rng.random((1000, 4, 40)), rng.random((1000, 64, 64)))
    tables = np.concatenate([rng.permutation(1000).reshape(-1, 4) for _ in range(100)])
    generation = best_of(
        args.repeat, lambda: fast_games(population, tables, seeds=np.arange(25_000))
    )
    generation_turns = int(fast_games(population, tables, seeds=np.arange(25_000))["turns"].sum())
    trading = best_of(
        args.repeat,
        lambda: fast_games(population, tables, seeds=np.arange(25_000), trading=True),
    )
    evolve_seconds = {name: generation_seconds(name, args.repeat) for name in ("rga", "tga")}
    peak, peak_population = peak_megabytes(PEAK_RUN), peak_megabytes(PEAK_POPULATION)
    rate = args.games / seconds
    print(f"fast whole game, 4 always-buy players, max_rounds=100, {args.games:,} games:")
    print(f"  {rate:,.0f} games per second, {turns / seconds:,.0f} player-turns per second")
    print(
        f"  {rate / (200 / reference):.0f}x the reference engine ({200 / reference:,.0f} games/s)"
    )
    print(f"  {rate / JAVA_GAMES_PER_SECOND:.1f}x the paper's Java engine (~790 games/s)")
    print(
        f"  with trading: {args.games / trading_seconds:,.0f} games per second, "
        f"{trading_turns / trading_seconds:,.0f} player-turns per second, "
        f"{seconds / trading_seconds:.2f} of the trade-free speed (medians, side by side)"
    )
    print(
        f"one GA generation (1,000 RGA players x 100 games = 25,000 games): {generation:.2f} s, "
        f"{generation_turns / generation:,.0f} player-turns per second"
    )
    print(f"  {generation * 1000 / 3600:.2f} hours for 1,000 generations of games")
    print(f"  {trading:.2f} s with trading (evolve --trading)")
    print(
        "evolution.run.play_generation (1,000 players x 100 games): "
        + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in evolve_seconds.items())
    )
    print(f"peak memory of 100,000 games in a fresh process: {peak:.0f} MB")
    print(f"peak memory of 10,000 RGA players playing 2,500 games: {peak_population:.0f} MB")
    print("one evolve generation (1,000 RGA players x 100 games), where the time goes:")
    for part, part_seconds in generation_parts(args.repeat).items():
        print(f"  {part:<44}{part_seconds:6.3f} s")
    every, one = whole_generation_seconds(None, args.repeat), whole_generation_seconds(1, 1)
    cores = os.cpu_count() or 1
    print(
        f"  a whole generation in whole processes: {every:.2f} s on {cores} cores "
        f"({25_000 / every:,.0f} games/s, about {generation_turns / every:,.0f} player-turns/s), "
        f"{one:.2f} s on one core ({25_000 / one:,.0f} games/s per core, "
        f"about {generation_turns / one:,.0f} player-turns/s); the paper's Java engine needs "
        f"{JAVA_GENERATION_SECONDS} s on one core ({STORED_FROM}): "
        f"{JAVA_GENERATION_SECONDS / every:.0f}x"
    )


def print_goals(  # type: ignore[no-untyped-def]
    rate: float, trading_rate: float, trading_ratios: Sequence[float], args
) -> None:
    """The two speed goals, each ratio the median of runs that alternate with what they are
    compared to: trading games against trade-free ones (``rate`` and ``trading_rate`` games/s,
    the medians of the runs whose ``trading_ratios`` are given), and a whole evolve generation
    against the Java program's, timed between them when a checkout is at hand."""
    print(
        f"goal 1, trading at full speed (goal {TRADING_GOAL:.2f} of the trade-free speed; "
        f"4 always-buy players, {args.games:,} games, alternating): {rate:,.0f} games/s "
        f"without trading, {trading_rate:,.0f} with: {ratios_line(trading_ratios)}"
    )
    classes = java_classes()
    java_times: list[float] = []
    evolve_times: dict[str, list[float]] = {name: [] for name in GENERATION_RUNS}
    for _ in range(args.repeat):
        if classes is not None:
            java_times.append(java_generation_seconds(classes, args.java_generations))
        for name, options in GENERATION_RUNS.items():
            evolve_times[name].append(whole_generation_seconds(None, 1, options))
    cores = os.cpu_count() or 1
    print(
        f"goal 2, a paper generation in whole evolve processes on {cores} cores "
        f"(1,000 players x 100 games, breeding, saving) at least {GENERATION_GOAL}x "
        "as fast as the Java program's (1,000 RGA players x 100 games, one thread):"
    )
    if classes is None:
        java_times = [JAVA_GENERATION_SECONDS] * args.repeat
        print(
            "  the Java program is not present (GAMONOPOLY_DIR is unset; benchmarks/java_peer.py "
            f"says how to build it): its generation is the stored figure, "
            f"{JAVA_GENERATION_SECONDS} s, {STORED_FROM}"
        )
    else:
        print(
            f"  the Java program, timed here ({args.java_generations + 1} generations minus 1): "
            + ", ".join(f"{seconds:.2f}" for seconds in java_times)
            + f" s per generation, median {statistics.median(java_times):.2f} s"
        )
    for name, times in evolve_times.items():
        ratios = [java / ours for java, ours in zip(java_times, times, strict=True)]
        print(
            f"  {name:<18}{statistics.median(times):6.3f} s per generation (median), "
            f"the Java program's over it: {ratios_line(ratios)}"
        )


if __name__ == "__main__":
    main()
