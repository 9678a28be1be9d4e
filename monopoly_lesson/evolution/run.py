"""A run of the genetic algorithm of Mukhar and Kalita: evolve RGA, TGA or SGA Monopoly players.

One generation (:func:`play_generation`): the population is shuffled into tables of 4,
``games_per_player`` times, so each player plays exactly that many games, and a player's
fitness is the sum of its points (:data:`~monopoly_lesson.evolution.operators.FITNESS`)
over its games; then the next population is bred
(:func:`~monopoly_lesson.evolution.operators.next_population`).

:func:`evolve` runs the generations and, given a folder ``out``, keeps every completed
generation there (the files: :mod:`monopoly_lesson.evolution.files`); :func:`load_evolution`
reads a folder back. ``resume=True`` ends with the very files an uninterrupted run writes:
every random draw of generation g comes from ``numpy.random.SeedSequence(seed,
spawn_key=(g, k))``, whatever the process.

>>> run = evolve("tga", population=8, games_per_player=1, generations=2, max_rounds=5,
...              benchmark_every=0, progress=False)
>>> run.history["mean"].tolist()  # finish_order: 3 + 2 + 1 + 0 points a game, 4 players
[1.5, 1.5]
>>> type(run.best_player()).__name__
'TGA'
"""

from __future__ import annotations

import json
import numbers
import os
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..checks import (
    at_the_call,
    available_memory,
    check_fits,
    check_flag,
    check_max_rounds,
    check_seed,
    check_whole,
)
from ..engine_cache import COMPILING, LOADING, engines_cached, engines_ready, expected_seconds
from ..game.chromosomes import RGA
from ..game.tournament import play_games, table_bytes, wilson_interval, win_rates
from .files import (
    BENCHMARK_COLUMNS,
    HISTORY_COLUMNS,
    SAVE_POPULATION_EVERY,
    _frame,
    _open_folder,
    _read_run,
    _Run,
    _save,
    _write_json,
    _write_recent,
)
from .league import (
    SELF,
    check_hall_of_fame,
    check_league,
    field_codes,
    field_rng,
    hall_genomes,
    league_fields,
)
from .operators import (
    FITNESS,
    MUTATION_RATE,
    MUTATION_SD,
    OPERATORS,
    SEATS,
    _check_name,
    _check_population,
    _gene_count,
    check_fitness,
    check_operators,
    diversity,
    fitness_parts,
    generation_genomes,
    genome_genes,
    genome_length,
    genome_player,
    run_rng,
    select_elite,
)
from .population_games import play_population_games

if TYPE_CHECKING:
    from ..game.fast import StrategyCodes

__all__ = [
    "BENCHMARK_OPPONENTS",
    "EvolutionResult",
    "benchmark",
    "benchmark_each",
    "evolve",
    "fitness_summary",
    "load_evolution",
    "play_generation",
    "run_bytes",
    "seat_tables",
    "win_rates_against",
]

BENCHMARK_OPPONENTS = ("heuristic", "always", "heuristic")
"""The fixed opponents of the best genome in :func:`benchmark`."""
_CHUNK_GAMES = 8192  # games per call (whole rounds of tables): a tenth of a second or so
_SEAT_BYTES = 18  # per player and game of a generation: its seat (twice while the tables are
# made) and a quarter of its game's seed, all int64


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
    check_fits(
        _SEAT_BYTES * seats,
        f"seat tables of {population:,} players x {games_per_player:,} games",
        f"at most {available_memory() // _SEAT_BYTES:,} seats (players x games per player) fit",
    )
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
    (the population, the next one as it is bred), its genes as the fast engine's floats
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
    check_fits(
        need,
        f"evolving {players:,} {chromosome} players ({games:,} games per player "
        f"per generation, {generations:,} generation{plural})",
        advice,
    )


def play_generation(
    chromosome: str,
    genomes: np.ndarray,
    fitness: str,
    games_per_player: int,
    rng: np.random.Generator,
    max_rounds: int = 100,
    on_games: Callable[[int, int], None] | None = None,
    trading: bool = False,
) -> np.ndarray:
    """Each player's fitness (summed over its games) after one generation's games (played
    with the rules' trading step if ``trading``).

    The paper's fitness (a name of :data:`~monopoly_lesson.evolution.operators.FITNESS`):
    the players meet each other, the seating (:func:`seat_tables`) and then one seed per
    game from ``rng``. An absolute fitness (``vs:A,B,C``,
    :func:`~monopoly_lesson.evolution.operators.fitness_parts`): each player plays
    ``games_per_player`` games against that fixed field, the same games for every player
    (one seed per game from ``rng``, its seat rotated game by game), so ``population``
    times more games than the paper's. ``on_games(played, total)`` is called as the games
    are played (for a progress bar).
    """
    return _score_generation(
        chromosome, genomes, fitness, games_per_player, rng, max_rounds, on_games, trading
    ).fitness


@dataclass(frozen=True)
class _Scores:
    """A generation's fitness, and the spread luck alone would give players who are all
    alike: the scored games' points' standard deviation times the square root of the
    games per player (NaN for an absolute fitness, whose players share the same games)."""

    fitness: np.ndarray
    luck_sd: float


def _score_generation(
    chromosome: str,
    genomes: np.ndarray,
    fitness: str,
    games_per_player: int,
    rng: np.random.Generator,
    max_rounds: int,
    on_games: Callable[[int, int], None] | None,
    trading: bool = False,
) -> _Scores:
    """:func:`play_generation`, with the luck of its games."""
    scoring, field = fitness_parts(fitness)
    codes = _population_codes(chromosome, genomes)
    if field is not None:
        return _field_scores(
            codes,
            _strategy_codes_of(field),
            np.zeros((games_per_player, SEATS - 1), np.int64) + np.arange(SEATS - 1),
            scoring,
            rng.integers(0, 2**32, size=games_per_player, dtype=np.int64),
            max_rounds,
            on_games,
            trading,
        )
    return _relative_scores(
        chromosome, genomes, codes, scoring, games_per_player, rng, max_rounds, on_games, trading
    )


def _population_codes(chromosome: str, genomes: np.ndarray) -> StrategyCodes:
    """The compiled codes of a generation's genomes: once a generation, not once a chunk."""
    from ..game.fast import genome_codes  # numba loads when games are played, not at import

    return genome_codes(chromosome, *genome_genes(chromosome, genomes))


def _strategy_codes_of(field: Sequence[str]) -> StrategyCodes:
    """The compiled codes of a fixed field's players."""
    from ..game.fast import strategy_codes

    return strategy_codes(list(field))


def _relative_scores(
    chromosome: str,
    genomes: np.ndarray,
    codes: StrategyCodes,
    scoring: str,
    games_per_player: int,
    rng: np.random.Generator,
    max_rounds: int,
    on_games: Callable[[int, int], None] | None,
    trading: bool,
) -> _Scores:
    """The paper's relative fitness: the players in games among themselves."""
    buy, jail, *more = genome_genes(chromosome, genomes)
    population = len(genomes)
    tables = seat_tables(population, games_per_player, rng)
    seeds = rng.integers(0, 2**32, size=len(tables), dtype=np.int64)
    points_of = FITNESS[scoring]
    total, squares = np.zeros(population), 0.0
    step = -(-_CHUNK_GAMES // (population // SEATS)) * (population // SEATS)
    for start in range(0, len(tables), step):
        part = tables[start : start + step]
        outcome = play_population_games(
            chromosome,
            buy,
            jail,
            part,
            seeds[start : start + step],
            max_rounds=max_rounds,
            codes=codes,
            trading=trading,
            more=tuple(more),
        )
        points = np.asarray(points_of(outcome), dtype=float)
        total += np.bincount(part.ravel(), weights=points.ravel(), minlength=population)
        squares += float(np.sum(points**2))
        if on_games is not None:
            on_games(start + len(part), len(tables))
    return _Scores(total, _luck_sd(total, squares, games_per_player))


def _luck_sd(total: np.ndarray, squares: float, games: int) -> float:
    """The sd of a sum of ``games`` points drawn like the scored games' points."""
    count = len(total) * games
    variance = max(0.0, squares / count - (total.sum() / count) ** 2)
    return float(np.sqrt(variance * games))


def _field_scores(
    codes: StrategyCodes,
    field: StrategyCodes,
    opponents: np.ndarray,
    scoring: str,
    seeds: np.ndarray,
    max_rounds: int,
    on_games: Callable[[int, int], None] | None,
    trading: bool,
) -> _Scores:
    """Absolute fitness: every genome's points in the same games, game ``g`` seeded
    ``seeds[g]`` against the members ``opponents[g]`` (3 of ``field``'s), the genome in seat
    ``g % 4 + 1`` and the rest rotated with it."""
    from ..game.fast import fast_games

    count, games = len(codes), len(seeds)
    joined = _joined(codes, field)
    table = np.column_stack([np.full(games, -1), count + opponents])
    turn = np.arange(games)[:, None]
    seating = table[turn, (np.arange(SEATS) - turn % SEATS) % SEATS]
    points_of, total = FITNESS[scoring], np.zeros(count)
    step = max(1, _CHUNK_GAMES // games)  # genomes per call
    for start in range(0, count, step):
        members = np.arange(start, min(count, start + step))
        who = np.concatenate([np.where(seating < 0, i, seating) for i in members])
        outcome = fast_games(
            joined, who, seeds=np.tile(seeds, len(members)), max_rounds=max_rounds, trading=trading
        )
        points = np.asarray(points_of(outcome), dtype=float)[who < count]
        total[members] = points.reshape(len(members), games).sum(axis=1)
        if on_games is not None:
            on_games((members[-1] + 1) * games, count * games)
    return _Scores(total, float("nan"))  # the same games for all: their luck is shared


def _joined(codes: StrategyCodes, field: StrategyCodes) -> StrategyCodes:
    """The genomes' codes followed by the field's."""
    from ..game.fast import StrategyCodes

    return StrategyCodes(
        np.concatenate([codes.kind, field.kind]), np.concatenate([codes.genes, field.genes])
    )


def _with_field(codes: StrategyCodes, field: Sequence[str]) -> tuple[StrategyCodes, list[int]]:
    """The genomes' codes followed by the field's, and one table: -1 (a genome's seat), then
    the field's members."""
    fixed = _strategy_codes_of(field)
    return _joined(codes, fixed), [-1, *range(len(codes), len(codes) + len(fixed))]


def _league_scores(
    chromosome: str,
    genomes: np.ndarray,
    parameters: Mapping[str, Any],
    generation: int,
    hall: np.ndarray | None,
    on_games: Callable[[int, int], None] | None,
) -> _Scores:
    """League fitness (:mod:`~monopoly_lesson.evolution.league`): the mean of each genome's
    points over the league's fields and, once it has a member, the hall of fame; each field
    draws from its own stream (:func:`~monopoly_lesson.evolution.league.field_rng`)."""
    p = parameters
    scoring, _ = fitness_parts(p["fitness"])
    games, rounds, trading = p["games_per_player"], p["max_rounds"], p["trading"]
    fields = league_fields(p)
    codes = _population_codes(chromosome, genomes)
    sizes = [len(genomes) // SEATS if f == SELF else len(genomes) for f in fields]
    if hall is not None:
        sizes.append(len(genomes))
    done, totals, luck = 0, [], 0.0

    def shown() -> Callable[[int, int], None] | None:  # the games of every field, counted
        if on_games is None:
            return None
        return lambda played, _: on_games(done + played, sum(sizes) * games)

    for k, field in enumerate(fields):
        rng = field_rng(p["seed"], generation, k)
        if field == SELF:
            scores = _relative_scores(
                chromosome, genomes, codes, scoring, games, rng, rounds, shown(), trading
            )
            luck += scores.luck_sd**2
        else:
            opponents = np.zeros((games, SEATS - 1), np.int64) + np.arange(SEATS - 1)
            seeds = rng.integers(0, 2**32, size=games, dtype=np.int64)
            scores = _field_scores(
                codes, field_codes(field), opponents, scoring, seeds, rounds, shown(), trading
            )
            luck = float("nan")
        totals.append(scores.fitness)
        done += sizes[k] * games
    if hall is not None:
        rng = field_rng(p["seed"], generation, len(fields))
        seeds = rng.integers(0, 2**32, size=games, dtype=np.int64)
        opponents = rng.integers(0, len(hall), size=(games, SEATS - 1))
        members = _population_codes(chromosome, hall)
        scores = _field_scores(codes, members, opponents, scoring, seeds, rounds, shown(), trading)
        totals.append(scores.fitness)
        luck = float("nan")
    return _Scores(np.mean(totals, axis=0), float(np.sqrt(luck)) / len(totals))


def benchmark(
    player: RGA, games: int = 200, seed: int = 0, max_rounds: int = 100, trading: bool = False
) -> dict:
    """How often ``player`` beats :data:`BENCHMARK_OPPONENTS` (seats rotated, seed fixed,
    trading on if ``trading``): ``games``, ``wins``, ``win_rate`` and its 95% Wilson
    interval ``ci_low``, ``ci_high``. These are ``play_games([player, *BENCHMARK_OPPONENTS],
    games, seed=seed)``'s games; the fast engine plays them, from each game's own draws,
    when it can play ``player``."""
    wins = _benchmark_wins(player, games, seed, max_rounds, trading)
    if wins is None:  # a strategy of the reference engine's only
        table = play_games(
            [player, *BENCHMARK_OPPONENTS], games, seed=seed, max_rounds=max_rounds, trading=trading
        )
        wins = int(win_rates(table).loc[str(player.name), "wins"])
    low, high = wilson_interval(np.array([wins]), np.array([games]))
    return {
        "games": games,
        "wins": wins,
        "win_rate": float(np.float64(wins) / games),
        "ci_low": float(low[0]),
        "ci_high": float(high[0]),
    }


def _benchmark_wins(
    player: RGA, games: int, seed: int, max_rounds: int, trading: bool
) -> int | None:
    """The wins of ``player`` (seated first, then rotated as play_games seats it) in the
    benchmark's games, played by the fast engine from :meth:`GameStreams.of_seed` of each
    game's seed; None if the fast engine cannot play ``player`` or a game outran its draws."""
    from ..game.fast import fast_games, strategy_codes
    from ..game.streams import GameStreams, StreamExhausted
    from ..game.tournament import game_seed

    entries = [player, *BENCHMARK_OPPONENTS]
    try:
        codes = strategy_codes(entries)
    except ValueError:
        return None
    n = len(entries)
    who = np.array([[(seat + g) % n for seat in range(n)] for g in range(games)])
    streams = [GameStreams.of_seed(game_seed(seed, g), n) for g in range(games)]
    try:
        finish = fast_games(codes, who, streams=streams, max_rounds=max_rounds, trading=trading)[
            "finish"
        ]
    except StreamExhausted:
        return None
    return int(((who == 0) & (finish == 1)).sum())


def benchmark_each(
    chromosome: str,
    genomes: np.ndarray,
    games: int = 1000,
    seed: int = 0,
    max_rounds: int = 100,
    opponents: Sequence[str] = BENCHMARK_OPPONENTS,
    trading: bool = False,
) -> pd.DataFrame:
    """:func:`benchmark` for every genome (a row of ``genomes``, e.g. each generation's best),
    with the fast engine: ``games`` games each against ``opponents`` (3 built-in
    strategies, by default :data:`BENCHMARK_OPPONENTS`), seats rotated, the same games for
    every genome. One row per genome, numbered from 1:
    :data:`~monopoly_lesson.evolution.files.BENCHMARK_COLUMNS`."""
    from ..game.fast import genome_codes

    codes = genome_codes(chromosome, *genome_genes(chromosome, genomes))
    wins = _field_wins(codes, opponents, games, seed, max_rounds, trading)
    low, high = wilson_interval(wins, np.full(len(wins), games))
    return pd.DataFrame(
        {
            "generation": np.arange(1, len(wins) + 1),
            "games": games,
            "wins": wins,
            "win_rate": wins / games,
            "ci_low": low,
            "ci_high": high,
        }
    )


def win_rates_against(
    players: Sequence[object],
    opponents: Sequence[str] = BENCHMARK_OPPONENTS,
    games: int = 8000,
    seed: int = 0,
    max_rounds: int = 100,
    trading: bool = False,
) -> pd.DataFrame:
    """Each of ``players`` (strategies the fast engine plays: names, evolved players) in
    ``games`` games against ``opponents``, seats rotated, every player in the same games:
    one row per player (its name), ``games``, ``wins``, ``win_rate`` and its Wilson 95%
    interval ``ci_low``, ``ci_high``. How an evolved player compares with a built-in
    strategy in the same field.

    >>> win_rates_against(["always", "never"], games=8, max_rounds=20)["wins"].tolist()
    [1, 0]
    """
    from ..game.fast import strategy_codes

    with at_the_call():
        codes = strategy_codes(players, "players")
        _check_opponents(opponents)
        games = check_whole(games, "games", 1)
        seed, max_rounds = check_seed(seed), check_max_rounds(max_rounds)
        trading = check_flag(trading, "trading")
    wins = _field_wins(codes, opponents, games, seed, max_rounds, trading)
    low, high = wilson_interval(wins, np.full(len(wins), games))
    names = pd.Index([str(getattr(p, "name", p)) for p in players], name="player")
    return pd.DataFrame(
        {"games": games, "wins": wins, "win_rate": wins / games, "ci_low": low, "ci_high": high},
        index=names,
    )


def _check_opponents(opponents: object) -> None:
    """The fixed field of :func:`win_rates_against`: 1 to 7 strategies the fast engine plays
    (a table holds 2 to 8 players)."""
    from ..game.fast import strategy_codes

    count = len(strategy_codes(opponents, "opponents").kind)
    if count > 7:
        raise ValueError(
            f"opponents must be 1 to 7 strategies (a table holds at most 8 players), got {count}."
        )


def _field_wins(
    codes: StrategyCodes,
    opponents: Sequence[str],
    games: int,
    seed: int,
    max_rounds: int,
    trading: bool,
) -> np.ndarray:
    """The wins of each member of ``codes`` in the same ``games`` games against
    ``opponents``: game ``g`` seats the member in seat ``g % 4 + 1`` (the rest rotated with
    it), seeded from ``SeedSequence(seed)``."""
    from ..game.fast import fast_games

    count = len(codes)
    codes, table = _with_field(codes, opponents)
    seating = np.array([np.roll(table, k) for k in range(len(table))])[
        np.arange(games) % len(table)
    ]
    who = np.concatenate([np.where(seating < 0, i, seating) for i in range(count)])
    seeds = np.tile(np.random.SeedSequence(seed).generate_state(games), count)
    finish = fast_games(codes, who, seeds=seeds, max_rounds=max_rounds, trading=trading)["finish"]
    return ((who < count) & (finish == 1)).sum(axis=1).reshape(count, games).sum(axis=1)


# ---------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class EvolutionResult:
    """What :func:`evolve` returns (and :func:`load_evolution` reads back from a folder)."""

    parameters: dict[str, Any]
    """The run's parameters, as in ``parameters.json``."""
    history: pd.DataFrame
    """One row per generation: :data:`~monopoly_lesson.evolution.files.HISTORY_COLUMNS`."""
    best_genomes: np.ndarray
    """The best genome of each generation, (generations, n): row 0 is generation 1."""
    best_fitness: np.ndarray
    """The fitness of each generation's best genome."""
    population: np.ndarray
    """The genomes of the last generation played, (population, n)."""
    fitness: np.ndarray
    """Their fitness in that generation."""
    benchmark: pd.DataFrame
    """The best genome against fixed opponents:
    :data:`~monopoly_lesson.evolution.files.BENCHMARK_COLUMNS`."""
    generations_run: int = 0
    """Generations played by this call (fewer than in ``history`` when resumed)."""
    seconds: float = 0.0
    """The time those generations took."""

    @property
    def chromosome(self) -> str:
        """The kind of player evolved: "rga", "tga", "sga" or "ega"."""
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
        return (
            f"<EvolutionResult {p['chromosome']} {p['fitness']}: {len(self.history)} "
            f"generations of {p['population']} players{best}>"
        )


def _result(run: _Run, generations_run: int = 0, seconds: float = 0.0) -> EvolutionResult:
    """The run as :func:`evolve` returns it (its tables, the genomes stacked)."""
    n = genome_length(run.parameters["chromosome"])
    dtype = np.uint8 if run.parameters["chromosome"] == "sga" else float
    empty = np.empty((0, n), dtype=dtype)
    return EvolutionResult(
        parameters=dict(run.parameters),
        history=_frame(run.history, HISTORY_COLUMNS),
        best_genomes=np.stack(run.best) if run.best else empty,
        best_fitness=np.array([row["max"] for row in run.history], dtype=float),
        population=run.population if run.population is not None else empty,
        fitness=run.fitness if run.fitness is not None else np.empty(0),
        benchmark=_frame(run.benchmark, BENCHMARK_COLUMNS),
        generations_run=generations_run,
        seconds=seconds,
    )


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
    *,
    init: str = "uniform",
    selection: str = "roulette",
    crossover: str | None = None,
    mutation_rate: float = MUTATION_RATE,
    mutation_sd: float = MUTATION_SD,
    trading: bool = False,
    league: Sequence[object] | None = None,
    hall_of_fame: int = 0,
    stop: Callable[[], bool] | None = None,
) -> EvolutionResult:
    """Evolve ``population`` players of kind ``chromosome`` for ``generations`` generations.

    Each generation every player plays ``games_per_player`` four-player games of at most
    ``max_rounds`` rounds and scores ``FITNESS[fitness]`` (or, with ``fitness="vs:A,B,C"``,
    its points against that fixed field: :func:`play_generation`); then the next
    population is bred (:func:`~monopoly_lesson.evolution.operators.next_population`) with
    the operators chosen: ``init`` the first population, ``selection``, ``crossover``,
    ``mutation_rate`` and ``mutation_sd`` (the defaults are the paper's; see
    :data:`~monopoly_lesson.evolution.operators.OPERATORS`). With ``trading=True`` every
    game (the benchmark's too) is played with the rules' trading step. ``league``, a list
    of fields (``"self"``, or three players ``"A,B,C"``: strategy names, shipped runs, run
    folders), scores each genome by its mean points over them, ``fitness`` saying how a game
    is scored; ``hall_of_fame=k`` adds the best genome of every k-th generation to a field
    of its own (:mod:`~monopoly_lesson.evolution.league`). Every
    ``benchmark_every`` generations and at the last (never if 0) the best genome plays
    ``benchmark_games`` games against fixed opponents (:func:`benchmark`, seeded ``seed``).
    With ``out`` (a folder) every completed generation is saved there (see
    :mod:`~monopoly_lesson.evolution.files`); ``resume=True`` continues the run kept there,
    with the same parameters, up to ``generations``, or starts it if the folder holds none.
    ``progress`` shows a progress bar. ``stop``, a function, is asked before each generation:
    when it answers True the run ends there, as after Ctrl-C (``resume=True`` continues it).

    Everything is checked before any game: ``max_rounds`` from 1 to 10,000, ``seed`` from
    0 to 2**32 - 1, ``out`` a folder that can be written (not ``''``), and the memory the
    run needs (:func:`run_bytes`) free; a run that cannot fit is refused with a
    ``ValueError`` that says what population would.
    """
    operators = {
        "init": init,
        "selection": selection,
        "crossover": crossover,
        "mutation_rate": mutation_rate,
        "mutation_sd": mutation_sd,
    }
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        resume, progress = check_flag(resume, "resume"), check_flag(progress, "progress")
        if stop is not None and not callable(stop):
            raise TypeError(f"stop must be a function that answers True to stop, got {stop!r}.")
        parameters = _parameters(
            chromosome,
            fitness,
            population,
            games_per_player,
            generations,
            seed,
            out,
            benchmark_every,
            benchmark_games,
            max_rounds,
            operators,
            check_flag(trading, "trading"),
            league,
            hall_of_fame,
        )
        folder, run = _open_folder(out, parameters, resume)
    if run.generation > generations:
        raise ValueError(
            f"{out} already holds {run.generation} generations, more than the {generations} "
            f"asked for; ask for {run.generation} or more (load_evolution reads it as it is)."
        )
    if run.generation == generations:
        if folder is not None and run.saved == run.generation:
            _write_recent(folder, run)  # a kill just after population.npz left its old rows
        return _result(run)
    _drop_last_benchmark(run)
    if folder is not None:
        _write_json(folder / "parameters.json", parameters)
    return _run_generations(run, folder, progress, stop)


def _run_generations(
    run: _Run, folder: Path | None, progress: bool, stop: Callable[[], bool] | None = None
) -> EvolutionResult:
    """Play and breed generation after generation, each saved while the next is played;
    Ctrl-C, or ``stop()`` answering True before a generation, stops after the save under way."""
    from tqdm.auto import tqdm

    target = run.parameters["generations"]
    first = run.generation
    started = time.perf_counter()
    summary = ""  # the last generation's best and mean fitness, and its time
    with (
        tqdm(
            total=target,
            initial=first,
            desc=f"evolving {run.parameters['chromosome']}",
            unit="gen",
            disable=not progress,
        ) as bar,
        ThreadPoolExecutor(1, thread_name_prefix="saving") as saver,
        ThreadPoolExecutor(1, thread_name_prefix="diversity") as beside,
    ):

        def show(played: int, total: int) -> None:
            bar.set_postfix_str(f"{summary}game {played}/{total}")

        if run.generation < target and not engines_ready(movement=False):
            # the bar is on screen while the engine is compiled (or, a second, loaded)
            compiling = f"{COMPILING} ({expected_seconds('game')[1]})"
            bar.set_postfix_str(LOADING if engines_cached(movement=False) else compiling)
            from ..game.fast import play_one_tiny_game

            play_one_tiny_game()
        saving: Future[None] | None = None
        while run.generation < target and not (stop is not None and stop()):
            began = time.perf_counter()
            _play_one_generation(run, show, beside)
            if run.generation % SAVE_POPULATION_EVERY == 0 or run.generation == target:
                run.saved, run.recent = run.generation, []
            else:
                run.recent.append(run.fitness)
            if folder is not None:
                if saving is not None:
                    saving.result()  # the files of the generation before (its errors too)
                saving = saver.submit(_save, folder, _snapshot(run))
            summary = (
                f"{fitness_summary(run.parameters, run.history[-1])}, "
                f"{time.perf_counter() - began:.3g} s/gen, "
            )
            bar.set_postfix_str(summary.rstrip(", "), refresh=False)
            bar.update(1)
        if saving is not None:
            saving.result()
    return _result(run, run.generation - first, time.perf_counter() - started)


def fitness_summary(parameters: Mapping[str, Any], row: Mapping[str, Any]) -> str:
    """A generation's best and mean fitness as the progress bar shows them; NET_WORTH's
    (net worth / 100, summed over the games) as dollars of net worth a game.

    >>> fitness_summary({"fitness": "net_worth", "games_per_player": 100},
    ...                {"max": 4210.4, "mean": 2950.0})
    'best $4,210 a game, mean $2,950 a game'
    >>> fitness_summary({"fitness": "finish_order", "games_per_player": 100},
    ...                {"max": 211.0, "mean": 150.0})
    'best 211, mean 150'
    """
    scoring, _ = fitness_parts(parameters["fitness"])
    if scoring != "net_worth":
        return f"best {row['max']:g}, mean {row['mean']:.4g}"
    dollars = 100 / parameters["games_per_player"]  # a point is $100 of one game's net worth
    return f"best ${row['max'] * dollars:,.0f} a game, mean ${row['mean'] * dollars:,.0f} a game"


def _snapshot(run: _Run) -> _Run:
    """The run as it is now, for saving while the next generation changes ``run``: its lists
    copied (the arrays in them are never changed, only replaced)."""
    return _Run(
        run.parameters,
        run.generation,
        run.population,
        run.fitness,
        list(run.history),
        list(run.best),
        list(run.benchmark),
        run.saved,
        list(run.recent),
    )


def _play_one_generation(
    run: _Run, show: Callable[[int, int], None], beside: ThreadPoolExecutor
) -> None:
    """Breed (or draw) the next population, play its games, record the generation; its
    diversity is measured ``beside`` while the games are set up (on the core they leave),
    but SGA's after them: read from its bits, its genes take as much memory as the games'."""
    p = run.parameters
    chromosome, generation = p["chromosome"], run.generation + 1
    genomes = generation_genomes(p, generation, run.population, run.fitness)
    measuring = beside.submit(diversity, chromosome, genomes) if chromosome != "sga" else None
    if p.get("league") or p.get("hall_of_fame"):
        hall = hall_genomes(run.best, p["hall_of_fame"])
        scores = _league_scores(chromosome, genomes, p, generation, hall, show)
    else:
        scores = _score_generation(
            chromosome,
            genomes,
            p["fitness"],
            p["games_per_player"],
            run_rng(p["seed"], generation, 0),
            p["max_rounds"],
            show,
            p["trading"],
        )
    fitness = scores.fitness
    run.generation, run.population, run.fitness = generation, genomes, fitness
    spread = measuring.result() if measuring is not None else diversity(chromosome, genomes)
    run.history.append(_history_row(generation, fitness, spread, scores.luck_sd))
    best = int(select_elite(fitness, 1)[0])
    run.best.append(genomes[best].copy())
    every = p["benchmark_every"]
    if every and (generation % every == 0 or generation == p["generations"]):
        player = genome_player(chromosome, genomes[best])
        row = benchmark(player, p["benchmark_games"], p["seed"], p["max_rounds"], p["trading"])
        run.benchmark.append({"generation": generation, **row})


def _history_row(
    generation: int, fitness: np.ndarray, spread: float, luck_sd: float
) -> dict[str, Any]:
    """A generation's row of ``history.csv``: the fitness distribution, the genetic
    diversity, and how much of the fitness variance luck alone explains (``luck_share``,
    the variance of equal players' fitness over the variance seen; NaN if every player
    scored the same)."""
    q1, median, q3 = np.percentile(fitness, [25, 50, 75])
    sd = float(fitness.std())
    return {
        "generation": generation,
        "min": float(fitness.min()),
        "q1": float(q1),
        "median": float(median),
        "q3": float(q3),
        "max": float(fitness.max()),
        "mean": float(fitness.mean()),
        "sd": sd,
        "diversity": spread,
        "luck_sd": luck_sd,
        "luck_share": luck_sd**2 / sd**2 if sd > 0 else float("nan"),  # NaN if luck_sd is
    }


def _drop_last_benchmark(run: _Run) -> None:
    """Before continuing a run: forget a benchmark made only because its generation was
    the last then (not a multiple of benchmark_every), as an uninterrupted run has none."""
    every = run.parameters["benchmark_every"]
    run.benchmark = [row for row in run.benchmark if every and row["generation"] % every == 0]


def load_evolution(out: str | os.PathLike[str]) -> EvolutionResult:
    """The run kept in the folder ``out``, as far as its last completed generation.

    What is read is checked against ``parameters.json`` (the chromosome, the population,
    the genome's length, genes that are finite and in range, generations that agree): a
    damaged or foreign file is refused with a ``ValueError`` that names it. Temporary files
    left by a run that was killed while writing are removed.
    """
    with at_the_call():
        run = _read_run(out)
    if run.generation == 0:
        raise ValueError(f"{out} holds no completed generation yet.")
    return _result(run)


# ---------------------------------------------------------------------------
# Checking what a user gives
# ---------------------------------------------------------------------------


def _parameters(
    chromosome: object,
    fitness: object,
    population: object,
    games_per_player: object,
    generations: object,
    seed: object,
    out: object,
    benchmark_every: object,
    benchmark_games: object,
    max_rounds: object,
    operators: dict[str, Any],
    trading: bool,
    league: object = None,
    hall_of_fame: object = 0,
) -> dict[str, Any]:
    """The checked parameters, as parameters.json keeps them (a league's run folders pinned
    to a generation, as the run kept in ``out`` pinned them if it is there)."""
    from .. import __version__

    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a folder's path (or None), got {out!r}.")
    if out is not None and not os.fspath(out):
        raise ValueError(
            "out must be a folder's path, got an empty one ('' would be the "
            "current folder); give a folder's name, e.g. 'runs/rga'."
        )
    chromosome = _check_name(chromosome, "chromosome")
    parameters = {
        "chromosome": chromosome,
        "fitness": check_fitness(fitness),
        "population": _check_population(population),
        "games_per_player": check_whole(games_per_player, "games_per_player", 1),
        "generations": check_whole(generations, "generations", 1),
        "seed": check_seed(seed),
        "max_rounds": check_max_rounds(max_rounds),
        "benchmark_every": check_whole(benchmark_every, "benchmark_every", 0),
        "benchmark_games": check_whole(benchmark_games, "benchmark_games", 1),
        "benchmark_opponents": list(BENCHMARK_OPPONENTS),
        **check_operators(chromosome, **operators),
        "trading": trading,
        "league": None,
        "hall_of_fame": 0,
        "version": __version__,
    }
    parameters["hall_of_fame"] = check_hall_of_fame(hall_of_fame, parameters["generations"])
    _, field = fitness_parts(parameters["fitness"])
    if league is not None:
        if field is not None:
            raise ValueError(
                f"give the fixed field in league, not in fitness ({parameters['fitness']!r}): "
                f"with a league, fitness says how a game is scored ({', '.join(FITNESS)})."
            )
        parameters["league"] = check_league(league, _stored_league(out))
    elif field is not None:
        _check_field(field)
    parameters["command"] = _command(parameters, out)
    _check_run_fits(parameters)
    return parameters


def _stored_league(out: object) -> list[str]:
    """The league of the run kept in ``out``, if there is one (else nothing)."""
    if out is None:
        return []
    try:
        stored = json.loads((Path(os.fspath(out)) / "parameters.json").read_text())  # type: ignore[arg-type]
    except (OSError, ValueError):  # none yet, or damaged: _open_folder says so
        return []
    league = stored.get("league") if isinstance(stored, dict) else None
    return [str(field) for field in league] if isinstance(league, list) else []


def _check_field(field: tuple[str, ...]) -> None:
    """An absolute fitness's field: built-in strategies the fast engine plays."""
    from ..game.fast import strategy_codes

    strategy_codes(list(field), what=f"the fitness's field {','.join(field)}")


def _command(parameters: dict[str, Any], out: object) -> str:
    """The command line that runs (or resumes) these parameters."""
    words = ["python", "-m", "monopoly_lesson", "evolve"]
    for key in (
        "chromosome",
        "fitness",
        "population",
        "games_per_player",
        "generations",
        "seed",
        "benchmark_every",
        "benchmark_games",
        "max_rounds",
    ):
        words += [f"--{key.replace('_', '-')}", str(parameters[key])]
    paper = check_operators(parameters["chromosome"])
    for key in OPERATORS:  # the operators that are not the paper's
        if parameters[key] != paper[key]:
            words += [
                f"--{key.replace('_', '-')}",
                f"{parameters[key]:g}"
                if isinstance(parameters[key], float)
                else str(parameters[key]),
            ]
    if parameters.get("trading"):
        words.append("--trading")
    for field in parameters.get("league") or ():
        words += ["--league", field]
    if parameters.get("hall_of_fame"):
        words += ["--hall-of-fame", str(parameters["hall_of_fame"])]
    if out is not None:
        words += ["--out", os.fspath(out)]  # type: ignore[arg-type]
    return shlex.join(words)
