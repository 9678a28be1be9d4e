"""The genetic algorithm of Mukhar and Kalita: evolve RGA, TGA or SGA Monopoly players.

A *genome* is one player's genes as one row of numbers: the buy genes (4 x 40) row by
row, then the jail genes (64 x 64 for RGA, 4 x 4 for TGA) row by row, as floats from 0 to
1; for SGA the same 176 genes as one string of 0/1 bits (6 bits a gene, most significant
first, the layout of :attr:`~monopoly_lesson.game.chromosomes.SGA.bits`). A population is a
(P, n) array of genomes.

One generation (:func:`play_generation`): the population is shuffled into tables of 4,
``games_per_player`` times, so each player plays exactly that many games, and a player's
fitness is the sum of its points (:data:`FITNESS`) over its games. The next population
(:func:`next_population`): the best 10% unchanged, 30% roulette copies, 30% roulette
copies mutated, 30% children of roulette-chosen pairs (:func:`split_counts` rounds).

:func:`evolve` runs the generations and, given a folder ``out``, keeps there:

- ``parameters.json``: the parameters, the package version and the equivalent command;
- ``history.csv``: one row per generation, ``generation`` (from 1), ``min``, ``q1``,
  ``median``, ``q3``, ``max``, ``mean``, ``sd`` (ddof 0) of the players' fitness;
- ``best.npz``: ``generation`` (G,), ``fitness`` (G,) and ``genomes`` (G, n), the best
  genome of each generation (the first best if tied), and ``chromosome`` (a string);
- ``population.npz``: ``genomes`` (P, n) and ``fitness`` (P,) of the last generation
  played, its number ``generation`` and ``chromosome``: what a resumed run starts from;
- ``benchmark.csv``: ``generation``, ``games``, ``wins``, ``win_rate``, ``ci_low``,
  ``ci_high``: the best genome against :data:`BENCHMARK_OPPONENTS` (:func:`benchmark`).

Every file is replaced whole (written to a temporary file, then renamed), population.npz
last, so Ctrl-C, or a kill at any moment, leaves the last completed generation on disk, and
``resume=True`` ends with the very files an uninterrupted run writes: every random draw of
generation g comes from ``numpy.random.SeedSequence(seed, spawn_key=(g, k))``, whatever the
process. A temporary file a killed run left behind is removed when the folder is opened
again, and what is read back is checked against ``parameters.json`` first.

>>> run = evolve("tga", population=8, games_per_player=1, generations=2, max_rounds=5,
...              benchmark_every=0, progress=False)
>>> run.history["mean"].tolist()  # finish_order: 3 + 2 + 1 + 0 points a game, 4 players
[1.5, 1.5]
>>> type(run.best_player()).__name__
'TGA'
"""

from __future__ import annotations

import contextlib
import csv
import json
import numbers
import os
import re
import shlex
import time
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from ..engine_cache import COMPILING, compile_engines, engines_ready
from ..game.chromosomes import BUY_SHAPE, CHROMOSOME_PLAYERS, GENE_BITS, RGA
from ..game.limits import available_memory, check_fits, check_max_rounds, check_seed, check_whole
from ..game.tournament import play_games, table_bytes, wilson_interval, win_rates
from .population_games import play_population_games

__all__ = [
    "BENCHMARK_COLUMNS",
    "BENCHMARK_OPPONENTS",
    "FITNESS",
    "HISTORY_COLUMNS",
    "MUTATION_RATE",
    "MUTATION_SD",
    "EvolutionResult",
    "benchmark",
    "benchmark_each",
    "crossover",
    "evolve",
    "finish_order",
    "flip_bits",
    "genome_genes",
    "genome_length",
    "genome_player",
    "load_evolution",
    "mutate",
    "net_worth",
    "next_population",
    "num_monopolies",
    "num_properties",
    "num_wins",
    "one_point_crossover",
    "play_generation",
    "random_population",
    "roulette",
    "run_bytes",
    "seat_tables",
    "select_elite",
    "split_counts",
]

MUTATION_RATE = 0.01
"""The chance that mutation changes a gene (RGA, TGA) or flips a bit (SGA)."""
MUTATION_SD = 0.1
"""The standard deviation of the Gaussian noise a mutated real gene gets."""
SEATS = 4
"""Players per game in the genetic algorithm."""
BENCHMARK_OPPONENTS = ("heuristic", "always", "heuristic")
"""The fixed opponents of the best genome in :func:`benchmark`."""
HISTORY_COLUMNS = ("generation", "min", "q1", "median", "q3", "max", "mean", "sd")
"""The columns of ``history.csv`` and :attr:`EvolutionResult.history`."""
BENCHMARK_COLUMNS = ("generation", "games", "wins", "win_rate", "ci_low", "ci_high")
"""The columns of ``benchmark.csv`` and :attr:`EvolutionResult.benchmark`."""
_INTEGER_COLUMNS = ("generation", "games", "wins")
_FILES = ("parameters.json", "history.csv", "best.npz", "population.npz", "benchmark.csv")
# What _write_atomic leaves behind when killed mid-write: .<file>.<pid>.tmp
_LEFTOVER = re.compile(r"\.(" + "|".join(map(re.escape, _FILES)) + r")\.(\d+)\.tmp")
_CHUNK_GAMES = 256  # play at least this many games per call (whole rounds of tables)
_SEAT_BYTES = 18  # per player and game of a generation: its seat (twice while the tables are
# made) and a quarter of its game's seed, all int64
# Parameters that must agree for a folder's run to be resumed (not generations).
_SAME_RUN = ("chromosome", "fitness", "population", "games_per_player", "seed", "max_rounds",
             "benchmark_every", "benchmark_games", "benchmark_opponents")  # fmt: skip


# ---------------------------------------------------------------------------
# Fitness: points per game and seat, from play_population_games' outcome arrays
# ---------------------------------------------------------------------------


def num_wins(outcome: Mapping[str, np.ndarray]) -> np.ndarray:
    """NUM_WINS: 3 points to the winner of each game, 0 to the others."""
    return np.where(np.asarray(outcome["finish"]) == 1, 3, 0)


def num_properties(outcome: Mapping[str, np.ndarray]) -> np.ndarray:
    """NUM_PROPERTIES: 1 point per lot held at the end of the game."""
    return np.asarray(outcome["lots"])


def num_monopolies(outcome: Mapping[str, np.ndarray]) -> np.ndarray:
    """NUM_MONOPOLIES: 1 point per complete group held at the end of the game."""
    return np.asarray(outcome["monopolies"])


def finish_order(outcome: Mapping[str, np.ndarray]) -> np.ndarray:
    """FINISH_ORDER: 3, 2, 1, 0 points for finishing first, second, third, fourth.

    >>> finish_order({"finish": np.array([[2, 1, 4, 3]])}).tolist()
    [[2, 3, 0, 1]]
    """
    return SEATS - np.asarray(outcome["finish"])


def net_worth(outcome: Mapping[str, np.ndarray]) -> np.ndarray:
    """NET_WORTH: the net worth at the end of the game / 100 (a float)."""
    return np.asarray(outcome["net_worth"]) / 100


FITNESS: dict[str, Callable[[Mapping[str, np.ndarray]], np.ndarray]] = {
    "num_wins": num_wins,
    "num_properties": num_properties,
    "num_monopolies": num_monopolies,
    "finish_order": finish_order,
    "net_worth": net_worth,
}
"""The fitness functions by name: outcome arrays (games, 4) -> points (games, 4)."""


# ---------------------------------------------------------------------------
# Genomes: rows of numbers, and the players they are
# ---------------------------------------------------------------------------


def _gene_count(chromosome: str) -> int:
    rows, columns = CHROMOSOME_PLAYERS[_check_name(chromosome, "chromosome")].JAIL_SHAPE
    return BUY_SHAPE[0] * BUY_SHAPE[1] + rows * columns


def genome_length(chromosome: str) -> int:
    """The length of one genome: genes for RGA (4256) and TGA (176), bits for SGA (1056).

    >>> [genome_length(name) for name in ("rga", "tga", "sga")]
    [4256, 176, 1056]
    """
    return _gene_count(chromosome) * (GENE_BITS if chromosome == "sga" else 1)


def random_population(chromosome: str, population: int, rng: np.random.Generator) -> np.ndarray:
    """``population`` random genomes: uniform floats from 0 to 1, or random bits for SGA."""
    shape = (population, genome_length(chromosome))
    if chromosome == "sga":
        return rng.integers(0, 2, size=shape, dtype=np.uint8)
    return rng.random(shape)


def genome_genes(chromosome: str, genomes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The genomes (P, n) as the arrays :func:`play_population_games` takes: buy genes
    (P, 4, 40) and jail genes (P, J, J); for SGA whole numbers 0..63 read from the bits."""
    genomes = np.asarray(genomes)
    if chromosome == "sga":
        weights = 1 << np.arange(GENE_BITS - 1, -1, -1)
        genomes = genomes.reshape(len(genomes), -1, GENE_BITS).astype(np.int64) @ weights
    rows, columns = CHROMOSOME_PLAYERS[chromosome].JAIL_SHAPE
    cut = BUY_SHAPE[0] * BUY_SHAPE[1]
    buy = genomes[:, :cut].reshape(len(genomes), *BUY_SHAPE)
    return buy, genomes[:, cut:].reshape(len(genomes), rows, columns)


def genome_player(chromosome: str, genome: np.ndarray) -> RGA:
    """The RGA, TGA or SGA player whose genome is ``genome`` (one row).

    >>> genome_player("sga", np.ones(1056, dtype=np.uint8)).bits == "1" * 1056
    True
    """
    buy, jail = genome_genes(chromosome, np.asarray(genome)[np.newaxis])
    return CHROMOSOME_PLAYERS[chromosome].from_genes(buy[0], jail[0])


# ---------------------------------------------------------------------------
# The operators of the next generation
# ---------------------------------------------------------------------------


def split_counts(population: int) -> tuple[int, int, int, int]:
    """How many of the next ``population`` are (elite, copies, mutants, children).

    10% elite, at least 1, and 30% copies and 30% mutants, each rounded to the nearest
    whole number (halves up); the children are the rest, so the four always sum to the
    population.

    >>> split_counts(1000), split_counts(16)
    ((100, 300, 300, 300), (2, 5, 5, 4))
    """
    population = check_whole(population, "population", SEATS)
    elite = max(1, (population + 5) // 10)
    copies = (3 * population + 5) // 10
    return elite, copies, copies, population - elite - 2 * copies


def select_elite(fitness: np.ndarray, count: int) -> np.ndarray:
    """The indices of the ``count`` fittest players, fittest first (ties: lower index)."""
    return np.argsort(-np.asarray(fitness, dtype=float), kind="stable")[:count]


def roulette(fitness: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` indices drawn with replacement, each with chance proportional to its
    fitness (uniform if every fitness is 0)."""
    fitness = np.asarray(fitness, dtype=float)
    if not np.all(np.isfinite(fitness)) or np.any(fitness < 0):
        raise ValueError("roulette needs finite fitness values of 0 or more.")
    total = fitness.sum()
    if total == 0:
        return rng.integers(0, len(fitness), size=count)
    return rng.choice(len(fitness), size=count, p=fitness / total)


def mutate(
    genomes: np.ndarray,
    rng: np.random.Generator,
    rate: float = MUTATION_RATE,
    sd: float = MUTATION_SD,
) -> np.ndarray:
    """Real genomes mutated (a copy): each gene, with chance ``rate``, gets Gaussian noise
    of standard deviation ``sd``, then is clipped to 0..1."""
    mutated = np.array(genomes, dtype=float)
    hit = rng.random(mutated.shape) < rate
    mutated[hit] += rng.normal(0.0, sd, size=int(hit.sum()))
    return np.clip(mutated, 0.0, 1.0, out=mutated)


def flip_bits(
    bits: np.ndarray, rng: np.random.Generator, rate: float = MUTATION_RATE
) -> np.ndarray:
    """SGA genomes mutated (a copy): each bit flips with chance ``rate``."""
    bits = np.asarray(bits, dtype=np.uint8)
    return bits ^ (rng.random(bits.shape) < rate).astype(np.uint8)


def crossover(
    first: np.ndarray, second: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Blend crossover of real genomes, pair by pair (row i of ``first`` and ``second``):
    child 1 = a x parent 1 + (1 - a) x parent 2, child 2 the reverse, ``a`` uniform in 0..1
    per pair. Both children lie between their parents and sum to the parents' sum."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    a = rng.random((len(first), 1))
    child1 = np.clip(a * first + (1 - a) * second, 0.0, 1.0)  # clip: rounding, not genes
    child2 = np.clip((1 - a) * first + a * second, 0.0, 1.0)
    return child1, child2


def one_point_crossover(
    first: np.ndarray, second: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """One-point crossover of bit strings, pair by pair: a cut uniform in 1..n-1 per pair;
    child 1 is parent 1 before the cut and parent 2 after it, child 2 the reverse."""
    first, second = np.asarray(first), np.asarray(second)
    cut = rng.integers(1, first.shape[1], size=(len(first), 1))
    head = np.arange(first.shape[1]) < cut
    return np.where(head, first, second), np.where(head, second, first)


def next_population(
    genomes: np.ndarray, fitness: np.ndarray, rng: np.random.Generator, *, bits: bool = False
) -> np.ndarray:
    """The next generation's genomes, in order: the elite (unchanged), roulette copies,
    mutated roulette copies, children of roulette pairs (the two parents drawn
    independently; an odd number of children drops the last pair's second child).
    ``bits=True`` for SGA: bit flips and one-point crossover."""
    genomes = np.asarray(genomes)
    elite, copies, mutants, children = split_counts(len(genomes))
    pairs = (children + 1) // 2
    first = genomes[roulette(fitness, pairs, rng)]
    second = genomes[roulette(fitness, pairs, rng)]
    child1, child2 = (one_point_crossover if bits else crossover)(first, second, rng)
    chosen = genomes[roulette(fitness, mutants, rng)]
    return np.concatenate(
        [
            genomes[select_elite(fitness, elite)],
            genomes[roulette(fitness, copies, rng)],
            flip_bits(chosen, rng) if bits else mutate(chosen, rng),
            np.stack([child1, child2], axis=1).reshape(2 * pairs, -1)[:children],
        ]
    ).astype(genomes.dtype, copy=False)


# ---------------------------------------------------------------------------
# Playing a generation
# ---------------------------------------------------------------------------


def seat_tables(population: int, games_per_player: int, rng: np.random.Generator) -> np.ndarray:
    """The seating of a generation: the players shuffled into tables of 4,
    ``games_per_player`` times; shape (population * games_per_player / 4, 4).

    >>> tables = seat_tables(8, 3, np.random.default_rng(0))
    >>> tables.shape, np.bincount(tables.ravel()).tolist()
    ((6, 4), [3, 3, 3, 3, 3, 3, 3, 3])
    """
    seats = population * games_per_player
    check_fits(_SEAT_BYTES * seats, f"seat tables of {population:,} players x "
               f"{games_per_player:,} games", f"at most {available_memory() // _SEAT_BYTES:,} "
               "seats (players x games per player) fit")  # fmt: skip
    rounds = [rng.permutation(population).reshape(-1, SEATS) for _ in range(games_per_player)]
    return np.concatenate(rounds)


def run_bytes(
    chromosome: str,
    population: int,
    games_per_player: int,
    generations: int = 1,
    benchmark_games: int = 0,
) -> int:
    """About the most memory an :func:`evolve` run needs: per player its genome four times
    (the population, the next one as it is bred), its genes as the compiled engine's floats
    (SGA's bits also as whole numbers), its seats and games' seeds; each generation's best
    genome kept; a benchmark's table.

    >>> run_bytes("rga", 100_000, 100) / 1e9  # doctest: +ELLIPSIS
    17...
    """
    genome = genome_length(chromosome) * (1 if chromosome == "sga" else 8)
    per_player = 4 * genome + 8 * (_gene_count(chromosome) + 1)
    if chromosome == "sga":
        per_player += 8 * genome_length(chromosome)  # the bits as int64 while read as genes
    per_player += _SEAT_BYTES * games_per_player
    kept = 2 * generations * genome  # the best genomes, and their stack as they are saved
    return population * per_player + kept + table_bytes(benchmark_games, SEATS)


def _check_run_fits(parameters: Mapping[str, Any]) -> None:
    """Refuse, before anything is spent, a run that cannot fit in the memory that is free;
    one line says what population, or how many games per player, would fit."""
    chromosome, players = parameters["chromosome"], parameters["population"]
    games, generations = parameters["games_per_player"], parameters["generations"]
    bench = parameters["benchmark_games"]
    need = run_bytes(chromosome, players, games, generations, bench)
    free = available_memory()
    if need <= free:
        return
    fixed = run_bytes(chromosome, 0, games, generations, bench)  # not per player
    each = run_bytes(chromosome, 1, 0) - run_bytes(chromosome, 0, 0)  # per player, no games
    fit = max(0, (free - fixed) // (each + _SEAT_BYTES * games)) // SEATS * SEATS
    games_fit = max(0, ((free - fixed) // players - each) // _SEAT_BYTES)
    ways = []
    if fit >= SEATS:
        ways.append(f"at most {fit:,} players fit with {games:,} games per player")
    if games_fit >= 1:
        ways.append(f"at most {games_fit:,} games per player fit with {players:,} players")
    advice = " or ".join(ways) or f"ask for fewer than {generations:,} generations"
    plural = "s" if generations != 1 else ""
    check_fits(need, f"evolving {players:,} {chromosome} players ({games:,} games per player "
               f"per generation, {generations:,} generation{plural})", advice)  # fmt: skip


def play_generation(
    chromosome: str,
    genomes: np.ndarray,
    fitness: str,
    games_per_player: int,
    rng: np.random.Generator,
    max_rounds: int = 100,
    on_games: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Each player's fitness (summed over its games) after one generation's games.

    The seating (:func:`seat_tables`) and then one seed per game come from ``rng``;
    ``on_games(played, total)`` is called as the games are played (for a progress bar).
    """
    population = len(genomes)
    tables = seat_tables(population, games_per_player, rng)
    seeds = rng.integers(0, 2**32, size=len(tables), dtype=np.int64)
    buy, jail = genome_genes(chromosome, genomes)
    from ..game.fast import genome_codes  # numba loads when games are played, not at import

    codes = genome_codes(chromosome, buy, jail)  # once a generation, not once a chunk
    points_of = FITNESS[fitness]
    total = np.zeros(population)
    step = -(-_CHUNK_GAMES // (population // SEATS)) * (population // SEATS)
    for start in range(0, len(tables), step):
        part = tables[start : start + step]
        outcome = play_population_games(chromosome, buy, jail, part, seeds[start : start + step],
                                        max_rounds=max_rounds, codes=codes)  # fmt: skip
        points = np.asarray(points_of(outcome), dtype=float)
        total += np.bincount(part.ravel(), weights=points.ravel(), minlength=population)
        if on_games is not None:
            on_games(start + len(part), len(tables))
    return total


def benchmark(player: RGA, games: int = 200, seed: int = 0, max_rounds: int = 100) -> dict:
    """How often ``player`` beats :data:`BENCHMARK_OPPONENTS` (seats rotated, seed fixed):
    ``games``, ``wins``, ``win_rate`` and its 95% Wilson interval ``ci_low``, ``ci_high``."""
    table = play_games([player, *BENCHMARK_OPPONENTS], games, seed=seed, max_rounds=max_rounds)
    rates = win_rates(table)
    row = rates.loc[str(player.name)]
    return {
        "games": int(row["games"]),
        "wins": int(row["wins"]),
        **{name: float(row[name]) for name in ("win_rate", "ci_low", "ci_high")},
    }


def benchmark_each(
    chromosome: str, genomes: np.ndarray, games: int = 1000, seed: int = 0, max_rounds: int = 100
) -> pd.DataFrame:
    """:func:`benchmark` for every genome (a row of ``genomes``, e.g. each generation's best),
    with the compiled engine: ``games`` games each against :data:`BENCHMARK_OPPONENTS`,
    seats rotated. One row per genome, numbered from 1: :data:`BENCHMARK_COLUMNS`."""
    from ..game.fast import fast_games, genome_codes, strategy_codes

    buy, jail = genome_genes(chromosome, genomes)
    codes = genome_codes(chromosome, buy, jail)
    fixed = strategy_codes(list(BENCHMARK_OPPONENTS))
    codes.kind = np.concatenate([codes.kind, fixed.kind])
    codes.genes = np.concatenate([codes.genes, fixed.genes])
    count = len(genomes)
    table = [-1, *range(count, count + len(BENCHMARK_OPPONENTS))]  # -1: the genome's seat
    seating = np.array([np.roll(table, k) for k in range(len(table))])[
        np.arange(games) % len(table)
    ]
    who = np.concatenate([np.where(seating < 0, i, seating) for i in range(count)])
    seeds = np.tile(np.random.SeedSequence(seed).generate_state(games), count)
    finish = fast_games(codes, who, seeds=seeds, max_rounds=max_rounds)["finish"]
    wins = ((who < count) & (finish == 1)).sum(axis=1).reshape(count, games).sum(axis=1)
    low, high = wilson_interval(wins, np.full(count, games))
    return pd.DataFrame({"generation": np.arange(1, count + 1), "games": games, "wins": wins,
                         "win_rate": wins / games, "ci_low": low, "ci_high": high})  # fmt: skip


# ---------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class EvolutionResult:
    """What :func:`evolve` returns (and :func:`load_evolution` reads back from a folder)."""

    parameters: dict[str, Any]
    """The run's parameters, as in ``parameters.json``."""
    history: pd.DataFrame
    """One row per generation: :data:`HISTORY_COLUMNS`."""
    best_genomes: np.ndarray
    """The best genome of each generation, (generations, n): row 0 is generation 1."""
    best_fitness: np.ndarray
    """The fitness of each generation's best genome."""
    population: np.ndarray
    """The genomes of the last generation played, (population, n)."""
    fitness: np.ndarray
    """Their fitness in that generation."""
    benchmark: pd.DataFrame
    """The best genome against fixed opponents: :data:`BENCHMARK_COLUMNS`."""
    generations_run: int = 0
    """Generations played by this call (fewer than in ``history`` when resumed)."""
    seconds: float = 0.0
    """The time those generations took."""

    @property
    def chromosome(self) -> str:
        """The kind of player evolved: "rga", "tga" or "sga"."""
        return str(self.parameters["chromosome"])

    def best_player(self, generation: int | None = None) -> RGA:
        """The best player of ``generation`` (from 1; default the last) as an RGA, TGA or
        SGA object, ready for :func:`~monopoly_lesson.game.tournament.play_games`."""
        played = len(self.best_genomes)
        if generation is None:
            generation = played
        if isinstance(generation, bool) or not isinstance(generation, numbers.Integral):
            raise TypeError(f"generation must be a whole number, got {generation!r}.")
        if not 1 <= generation <= played:
            raise ValueError(f"generation must be from 1 to {played}, got {generation}.")
        return genome_player(self.chromosome, self.best_genomes[generation - 1])

    def __repr__(self) -> str:
        p = self.parameters
        best = f", best fitness {self.best_fitness[-1]:g}" if len(self.best_fitness) else ""
        return (f"<EvolutionResult {p['chromosome']} {p['fitness']}: {len(self.history)} "
                f"generations of {p['population']} players{best}>")  # fmt: skip


@dataclass
class _Run:
    """A run in progress: what is kept between generations (and written to the folder)."""

    parameters: dict[str, Any]
    generation: int = 0
    population: np.ndarray | None = None  # the last generation played
    fitness: np.ndarray | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    best: list[np.ndarray] = field(default_factory=list)
    benchmark: list[dict[str, Any]] = field(default_factory=list)

    def result(self, generations_run: int = 0, seconds: float = 0.0) -> EvolutionResult:
        n = genome_length(self.parameters["chromosome"])
        dtype = np.uint8 if self.parameters["chromosome"] == "sga" else float
        empty = np.empty((0, n), dtype=dtype)
        return EvolutionResult(
            parameters=dict(self.parameters),
            history=_frame(self.history, HISTORY_COLUMNS),
            best_genomes=np.stack(self.best) if self.best else empty,
            best_fitness=np.array([row["max"] for row in self.history], dtype=float),
            population=self.population if self.population is not None else empty,
            fitness=self.fitness if self.fitness is not None else np.empty(0),
            benchmark=_frame(self.benchmark, BENCHMARK_COLUMNS),
            generations_run=generations_run,
            seconds=seconds,
        )


def _frame(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> pd.DataFrame:
    """Rows as a table of these columns: whole numbers int64, the rest float64."""
    table = pd.DataFrame(rows, columns=list(columns))
    return table.astype({c: "int64" if c in _INTEGER_COLUMNS else "float64" for c in columns})


# ---------------------------------------------------------------------------
# Evolving
# ---------------------------------------------------------------------------


def evolve(
    chromosome: str = "rga",
    fitness: str = "finish_order",
    population: int = 1000,
    games_per_player: int = 100,
    generations: int = 100,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    benchmark_every: int = 10,
    benchmark_games: int = 200,
    max_rounds: int = 100,
    progress: bool = True,
) -> EvolutionResult:
    """Evolve ``population`` players of kind ``chromosome`` for ``generations`` generations.

    Each generation every player plays ``games_per_player`` four-player games of at most
    ``max_rounds`` rounds and scores ``FITNESS[fitness]``; then the next population is bred
    (:func:`next_population`). Every ``benchmark_every`` generations and at the last (never
    if 0) the best genome plays ``benchmark_games`` games against fixed opponents
    (:func:`benchmark`, seeded ``seed``). With ``out`` (a folder) every completed generation
    is saved there (see the module's docstring); ``resume=True`` continues the run kept
    there, with the same parameters, up to ``generations``, or starts it if the folder
    holds none. ``progress`` shows a progress bar.

    Everything is checked before any game: ``max_rounds`` from 1 to 10,000, ``seed`` from
    0 to 2**32 - 1, ``out`` a folder that can be written (not ``''``), and the memory the
    run needs (:func:`run_bytes`) free; a run that cannot fit is refused with a
    ``ValueError`` that says what population would.
    """
    parameters = _parameters(
        chromosome, fitness, population, games_per_player, generations, seed, out,
        benchmark_every, benchmark_games, max_rounds,
    )  # fmt: skip
    for flag, name in ((resume, "resume"), (progress, "progress")):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}.")
    folder, run = _open_folder(out, parameters, resume)
    if run.generation > generations:
        raise ValueError(
            f"{out} already holds {run.generation} generations, more than the {generations} "
            f"asked for; ask for {run.generation} or more (load_evolution reads it as it is)."
        )
    if run.generation == generations:
        return run.result()
    _drop_last_benchmark(run)
    if folder is not None:
        _write_json(folder / "parameters.json", parameters)
    return _run_generations(run, folder, progress)


def _run_generations(run: _Run, folder: Path | None, progress: bool) -> EvolutionResult:
    """Play and breed generation after generation, saving each; Ctrl-C stops between saves."""
    from tqdm.auto import tqdm

    target = run.parameters["generations"]
    first = run.generation
    started = time.perf_counter()
    summary = ""  # the last generation's best and mean fitness, and its time
    with tqdm(total=target, initial=first, desc=f"evolving {run.parameters['chromosome']}",
              unit="gen", disable=not progress) as bar:  # fmt: skip

        def show(played: int, total: int) -> None:
            bar.set_postfix_str(f"{summary}game {played}/{total}")

        if run.generation < target and not engines_ready(movement=False):
            bar.set_postfix_str(COMPILING)  # the bar is on screen while the engine compiles
            compile_engines(movement=False)
        while run.generation < target:
            began = time.perf_counter()
            _play_one_generation(run, show)
            if folder is not None:
                _save(folder, run)
            row = run.history[-1]
            summary = (f"best {row['max']:g}, mean {row['mean']:.4g}, "
                       f"{time.perf_counter() - began:.3g} s/gen, ")  # fmt: skip
            bar.set_postfix_str(summary.rstrip(", "), refresh=False)
            bar.update(1)
    return run.result(target - first, time.perf_counter() - started)


def _play_one_generation(run: _Run, show: Callable[[int, int], None]) -> None:
    """Breed (or draw) the next population, play its games, record the generation."""
    p = run.parameters
    chromosome, generation = p["chromosome"], run.generation + 1
    if run.population is None:
        genomes = random_population(chromosome, p["population"], _rng(p["seed"], 0, 0))
    else:
        breeding = _rng(p["seed"], run.generation, 1)
        genomes = next_population(run.population, run.fitness, breeding, bits=chromosome == "sga")
    fitness = play_generation(chromosome, genomes, p["fitness"], p["games_per_player"],
                              _rng(p["seed"], generation, 0), p["max_rounds"], show)  # fmt: skip
    run.generation, run.population, run.fitness = generation, genomes, fitness
    run.history.append(_history_row(generation, fitness))
    best = int(select_elite(fitness, 1)[0])
    run.best.append(genomes[best].copy())
    every = p["benchmark_every"]
    if every and (generation % every == 0 or generation == p["generations"]):
        player = genome_player(chromosome, genomes[best])
        row = benchmark(player, p["benchmark_games"], p["seed"], p["max_rounds"])
        run.benchmark.append({"generation": generation, **row})


def _rng(seed: int, generation: int, purpose: int) -> np.random.Generator:
    """The random numbers of ``generation`` for one purpose: 0 games (generation 0: the first
    population), 1 breeding the next population."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(generation, purpose)))


def _history_row(generation: int, fitness: np.ndarray) -> dict[str, Any]:
    q1, median, q3 = np.percentile(fitness, [25, 50, 75])
    return {
        "generation": generation, "min": float(fitness.min()), "q1": float(q1),
        "median": float(median), "q3": float(q3), "max": float(fitness.max()),
        "mean": float(fitness.mean()), "sd": float(fitness.std()),
    }  # fmt: skip


def _drop_last_benchmark(run: _Run) -> None:
    """Before continuing a run: forget a benchmark made only because its generation was
    the last then (not a multiple of benchmark_every), as an uninterrupted run has none."""
    every = run.parameters["benchmark_every"]
    run.benchmark = [row for row in run.benchmark if every and row["generation"] % every == 0]


# ---------------------------------------------------------------------------
# The run's folder
# ---------------------------------------------------------------------------


def _open_folder(
    out: str | os.PathLike[str] | None, parameters: dict[str, Any], resume: bool
) -> tuple[Path | None, _Run]:
    """The folder of the run and the run to continue there (a fresh one if none)."""
    if out is None:
        if resume:
            raise ValueError("resume=True needs out, the folder of the run to continue.")
        return None, _Run(parameters)
    folder = Path(out)
    _check_folder(folder)
    if folder.is_dir():
        _clean_leftovers(folder)
    if not (folder / "parameters.json").exists():
        if folder.is_dir() and any(folder.iterdir()):
            raise ValueError(f"{out} holds other files but no run (no parameters.json); "
                             "give a new or empty folder.")  # fmt: skip
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(f"cannot make the folder {out}: {error.strerror or error}; give "
                             "a folder you may write in.") from None  # fmt: skip
        return folder, _Run(parameters)
    stored = _read_json(folder / "parameters.json")
    different = [key for key in _SAME_RUN if stored.get(key) != parameters[key]]
    if different:
        what = "; ".join(f"{key} {stored.get(key)!r} there, {parameters[key]!r} here"
                         for key in different)  # fmt: skip
        raise ValueError(f"{out} holds a different run ({what}); give another folder, or the "
                         "same parameters to resume it.")  # fmt: skip
    if not resume:
        raise ValueError(f"{out} already holds this run; pass resume=True (--resume on the "
                         "command line) to continue it, or give another folder.")  # fmt: skip
    return folder, _load_run(folder, parameters)


def _check_folder(folder: Path) -> None:
    """Refuse a run's folder that is a file, lies under a file, or cannot be written."""
    for place in (folder, *folder.parents):
        if place.exists():
            if not place.is_dir():
                inside = "" if place == folder else f" (and {folder} would be inside it)"
                raise ValueError(f"out must be a folder, but {place} is a file{inside}; give "
                                 "a folder's name.")  # fmt: skip
            if not os.access(place, os.W_OK | os.X_OK):
                raise ValueError(f"cannot write in the folder {place} (permission denied); "
                                 "give a folder you may write in.")  # fmt: skip
            return


def _clean_leftovers(folder: Path) -> None:
    """Remove the temporary files a killed run left (``.best.npz.<pid>.tmp``), unless the
    process that writes one is still running."""
    for path in folder.iterdir():
        match = _LEFTOVER.fullmatch(path.name)
        if match and not _running(int(match.group(2))):
            with contextlib.suppress(OSError):
                path.unlink()


def _running(pid: int) -> bool:
    """Is another process ``pid`` running (whose temporary file must be left alone)?"""
    if pid == os.getpid():
        return False
    try:
        import psutil

        return bool(psutil.pid_exists(pid))
    except (OverflowError, ValueError):  # not a process id
        return False
    except ImportError:
        pass
    if os.name != "posix":  # no safe way to ask: leave the file
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:  # another user's process
        return True
    return True


def load_evolution(out: str | os.PathLike[str]) -> EvolutionResult:
    """The run kept in the folder ``out``, as far as its last completed generation.

    What is read is checked against ``parameters.json`` (the chromosome, the population,
    the genome's length, genes that are finite and in range, generations that agree): a
    damaged or foreign file is refused with a ``ValueError`` that names it. Temporary files
    left by a run that was killed while writing are removed.
    """
    if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
        raise TypeError(f"out must be the path of an evolve() folder, got {out!r}.")
    folder = Path(out)
    if not (folder / "parameters.json").is_file():
        raise ValueError(f"{out} holds no run (no parameters.json): give an evolve() folder.")
    _clean_leftovers(folder)
    parameters = _read_json(folder / "parameters.json")
    _check_stored(folder, parameters)
    run = _load_run(folder, parameters)
    if run.generation == 0:
        raise ValueError(f"{out} holds no completed generation yet.")
    return run.result()


def _load_run(folder: Path, parameters: dict[str, Any]) -> _Run:
    """The run in ``folder`` as of population.npz's generation (later rows are dropped),
    each file checked against ``parameters``."""
    run = _Run(parameters)
    if not (folder / "population.npz").exists():
        return run
    chromosome, players = parameters["chromosome"], parameters["population"]
    population = _read_npz(folder / "population.npz", chromosome, ("genomes", "fitness"))
    run.generation = _whole_number(population["generation"], folder / "population.npz")
    run.population = _genomes(population["genomes"], chromosome, folder / "population.npz",
                              rows=players)  # fmt: skip
    run.fitness = _fitness(population["fitness"], players, folder / "population.npz")
    best = _read_npz(folder / "best.npz", chromosome, ("genomes",))
    run.best = list(_genomes(best["genomes"], chromosome, folder / "best.npz")[: run.generation])
    try:
        history = _read_csv(folder / "history.csv", HISTORY_COLUMNS)
        benchmark = _read_csv(folder / "benchmark.csv", BENCHMARK_COLUMNS)
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"cannot read the run in {folder}: {error}") from None
    run.history = history[history["generation"] <= run.generation].to_dict("records")
    run.benchmark = benchmark[benchmark["generation"] <= run.generation].to_dict("records")
    numbered = [row["generation"] for row in run.history]
    if numbered != list(range(1, run.generation + 1)) or len(run.best) != run.generation:
        raise ValueError(f"the run in {folder} is damaged: population.npz is generation "
                         f"{run.generation} but history.csv or best.npz do not hold its "
                         "generations 1 to it in order; start the run again in a new "
                         "folder.")  # fmt: skip
    return run


def _read_npz(path: Path, chromosome: str, arrays: tuple[str, ...]) -> dict[str, np.ndarray]:
    """An .npz file the run wrote, read whole; a damaged or foreign one is refused."""
    names = ("chromosome", "generation", *arrays)
    damaged = f"{path.name} in {path.parent} is damaged or not this run's"
    advice = "start the run again in a new folder (or restore the file from a copy)"
    if not path.is_file():
        raise ValueError(f"{path.name} is missing from {path.parent}: {advice}.")
    try:
        if not zipfile.is_zipfile(path):
            raise ValueError("not a complete .npz file")
        with np.load(path, allow_pickle=False) as data:
            read = {name: np.asarray(data[name]) for name in names}
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as error:
        detail = str(error).split(". ")[0].strip(" .'\"")  # not numpy's advice on pickles
        raise ValueError(f"{damaged} ({detail}): {advice}.") from None
    except Exception as error:  # zlib's, struct's: anything else a damaged file gives
        raise ValueError(f"{damaged} ({type(error).__name__}): {advice}.") from None
    if read["chromosome"].shape != () or str(read["chromosome"]) != chromosome:
        raise ValueError(f"{damaged}: it holds {read['chromosome']!s} players, the run "
                         f"{chromosome}; {advice}.")  # fmt: skip
    return read


def _whole_number(value: np.ndarray, path: Path) -> int:
    """population.npz's generation: a whole number of at least 1."""
    if value.shape != () or value.dtype.kind not in "iu" or int(value) < 1:
        raise ValueError(f"{path.name} in {path.parent} is damaged: its generation is "
                         f"{value!r}, not a whole number from 1.")  # fmt: skip
    return int(value)


def _genomes(genomes: np.ndarray, chromosome: str, path: Path, rows: int | None = None
             ) -> np.ndarray:  # fmt: skip
    """Genomes read from ``path``, checked: their shape, type and values are the run's."""
    length = genome_length(chromosome)
    where = f"{path.name} in {path.parent} does not hold {chromosome} genomes"
    if genomes.ndim != 2 or genomes.shape[1] != length or (rows and len(genomes) != rows):
        want = f"({rows if rows else 'generations'}, {length})"
        raise ValueError(f"{where}: their shape is {genomes.shape}, not {want}.")
    if chromosome == "sga":
        if genomes.dtype != np.uint8 or np.any(genomes > 1):
            raise ValueError(f"{where}: SGA genomes are bits, 0 or 1 (uint8).")
    elif genomes.dtype.kind != "f" or not np.all((genomes >= 0) & (genomes <= 1)):
        raise ValueError(f"{where}: genes are numbers from 0 to 1 (not NaN).")
    return genomes.astype(np.uint8 if chromosome == "sga" else float, copy=False)


def _fitness(fitness: np.ndarray, players: int, path: Path) -> np.ndarray:
    """The last generation's fitness read from ``path``: one finite number of 0 or more
    per player."""
    if (fitness.shape != (players,) or fitness.dtype.kind not in "fiu"
            or not np.all(np.isfinite(fitness)) or np.any(fitness < 0)):  # fmt: skip
        raise ValueError(f"{path.name} in {path.parent} is damaged: its fitness must be "
                         f"{players} finite numbers of 0 or more.")  # fmt: skip
    return fitness.astype(float, copy=False)


def _check_stored(folder: Path, parameters: dict[str, Any]) -> None:
    """The parameters.json of a folder holds what reading its run needs, or a plain error."""
    try:
        _check_name(parameters.get("chromosome"), "chromosome")
        _check_name(parameters.get("fitness"), "fitness")
        _check_population(parameters.get("population"))
        check_whole(parameters.get("generations"), "generations", 1)
    except (TypeError, ValueError) as error:
        raise ValueError(f"parameters.json in {folder} is damaged or not evolve()'s: "
                         f"{error}") from None  # fmt: skip


def _save(folder: Path, run: _Run) -> None:
    """Write the run's files, population.npz (the resume point) last."""
    chromosome = np.array(run.parameters["chromosome"])
    _write_npz(folder / "best.npz", {
        "chromosome": chromosome,
        "generation": np.array([row["generation"] for row in run.history], dtype=np.int64),
        "fitness": np.array([row["max"] for row in run.history], dtype=float),
        "genomes": np.stack(run.best),
    })  # fmt: skip
    _write_csv(folder / "history.csv", _frame(run.history, HISTORY_COLUMNS))
    _write_csv(folder / "benchmark.csv", _frame(run.benchmark, BENCHMARK_COLUMNS))
    _write_npz(folder / "population.npz", {
        "chromosome": chromosome, "generation": np.array(run.generation, dtype=np.int64),
        "genomes": run.population, "fitness": run.fitness,
    })  # fmt: skip


def _write_atomic(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write ``path`` whole or not at all: a temporary file in its folder, then a rename."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):  # a full disk, a folder made read-only...
            raise ValueError(f"cannot write {path} ({error.strerror or error}); what was "
                             "saved before is kept: make room (or give a folder you may "
                             "write in) and resume.") from None  # fmt: skip
        raise


def _write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """An .npz file (``numpy.load`` reads it) with fixed timestamps: same run, same bytes."""
    import zipfile

    def write(file: IO[bytes]) -> None:
        with zipfile.ZipFile(file, "w", zipfile.ZIP_STORED) as archive:
            for name, array in arrays.items():
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                with archive.open(info, "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)

    _write_atomic(path, write)


def _write_csv(path: Path, table: pd.DataFrame) -> None:
    text = table.to_csv(index=False, lineterminator="\n")
    _write_atomic(path, lambda file: file.write(text.encode()))


def _read_csv(path: Path, columns: tuple[str, ...]) -> pd.DataFrame:
    """A table _write_csv wrote, its numbers read back exactly (Python's int and float)."""
    with open(path, newline="") as file:
        rows = list(csv.DictReader(file))
    if rows and set(rows[0]) != set(columns):
        raise ValueError(f"{path.name} has the columns {list(rows[0])}, not {list(columns)}")
    number = {c: int if c in _INTEGER_COLUMNS else float for c in columns}
    return _frame([{c: number[c](row[c]) for c in columns} for row in rows], columns)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    text = json.dumps(data, indent=2) + "\n"
    _write_atomic(path, lambda file: file.write(text.encode()))


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"cannot read {path}: not the parameters of a run.")
    return data


# ---------------------------------------------------------------------------
# Checking what a user gives
# ---------------------------------------------------------------------------


def _parameters(
    chromosome: object, fitness: object, population: object, games_per_player: object,
    generations: object, seed: object, out: object, benchmark_every: object,
    benchmark_games: object, max_rounds: object,
) -> dict[str, Any]:  # fmt: skip
    """The checked parameters, as parameters.json keeps them."""
    from .. import __version__

    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a folder's path (or None), got {out!r}.")
    if out is not None and not os.fspath(out):
        raise ValueError("out must be a folder's path, got an empty one ('' would be the "
                         "current folder); give a folder's name, e.g. 'runs/rga'.")  # fmt: skip
    parameters = {
        "chromosome": _check_name(chromosome, "chromosome"),
        "fitness": _check_name(fitness, "fitness"),
        "population": _check_population(population),
        "games_per_player": check_whole(games_per_player, "games_per_player", 1),
        "generations": check_whole(generations, "generations", 1),
        "seed": check_seed(seed),
        "max_rounds": check_max_rounds(max_rounds),
        "benchmark_every": check_whole(benchmark_every, "benchmark_every", 0),
        "benchmark_games": check_whole(benchmark_games, "benchmark_games", 1),
        "benchmark_opponents": list(BENCHMARK_OPPONENTS),
        "version": __version__,
    }
    parameters["command"] = _command(parameters, out)
    _check_run_fits(parameters)
    return parameters


def _command(parameters: dict[str, Any], out: object) -> str:
    """The command line that runs (or resumes) these parameters."""
    words = ["python", "-m", "monopoly_lesson", "evolve"]
    for key in ("chromosome", "fitness", "population", "games_per_player", "generations",
                "seed", "benchmark_every", "benchmark_games", "max_rounds"):  # fmt: skip
        words += [f"--{key.replace('_', '-')}", str(parameters[key])]
    if out is not None:
        words += ["--out", os.fspath(out)]  # type: ignore[arg-type]
    return shlex.join(words)


def _check_name(value: object, what: str) -> str:
    known = CHROMOSOME_PLAYERS if what == "chromosome" else FITNESS
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a name, one of {', '.join(known)}; got {value!r}.")
    if value not in known:
        raise ValueError(f"{what} must be one of {', '.join(known)}, got {value!r}.")
    return value


def _check_population(value: object) -> int:
    population = check_whole(value, "population", SEATS)
    if population % SEATS:
        raise ValueError(f"population must be a multiple of {SEATS} (the players are shuffled "
                         f"into tables of {SEATS}), got {population}; try "
                         f"{population - population % SEATS}.")  # fmt: skip
    return population
