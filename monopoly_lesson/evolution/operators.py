"""The genomes of the genetic algorithm of Mukhar and Kalita, and what it does to them.

A *genome* is one player's genes as one row of numbers: the buy genes (4 x 40) row by
row, then the jail genes (64 x 64 for RGA, 4 x 4 for TGA) row by row, as floats from 0 to
1; for SGA the same 176 genes as one string of 0/1 bits (6 bits a gene, most significant
first, the layout of :attr:`~monopoly_lesson.game.chromosomes.SGA.bits`). A population is a
(P, n) array of genomes.

A player's fitness is the sum of its points (:data:`FITNESS`) over a generation's games.
The next population (:func:`next_population`): the best 10% unchanged, 30% roulette
copies, 30% roulette copies mutated, 30% children of roulette-chosen pairs
(:func:`split_counts` rounds). Every random draw comes from the numpy Generator given, so
a seeded run (:mod:`monopoly_lesson.evolution.run`) breeds the same genomes every time.

The paper's operators are the defaults; each has alternatives one argument away
(:data:`OPERATORS`): the first population (:data:`INITS`), the selection
(:data:`SELECTIONS`), the crossover (:data:`CROSSOVERS`) and the mutation's rate and size.
:func:`diversity` measures what the operators leave of the population's variation.

>>> rng = np.random.default_rng(0)
>>> genomes = random_population("tga", 8, rng)
>>> bred = next_population(genomes, np.arange(8.0), rng)
>>> bred.shape, bool((bred[0] == genomes[7]).all())  # the fittest is kept unchanged
((8, 176), True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..checks import check_name, check_whole
from ..game.chromosomes import BUY_SHAPE, CHROMOSOME_PLAYERS, GENE_BITS, GENE_MAX, RGA
from ..game.state import PRICE

__all__ = [
    "CROSSOVERS",
    "FIELD",
    "FITNESS",
    "INITS",
    "LEVEL_RANGE",
    "LEVEL_SD",
    "MUTATION_RATE",
    "MUTATION_SD",
    "OPERATORS",
    "SEATS",
    "SELECTIONS",
    "TOURNAMENT_SIZE",
    "check_fitness",
    "check_operators",
    "crossover",
    "diversity",
    "finish_order",
    "fitness_parts",
    "flip_bits",
    "generation_genomes",
    "genome_genes",
    "genome_length",
    "genome_player",
    "mutate",
    "net_worth",
    "next_population",
    "num_monopolies",
    "num_properties",
    "num_wins",
    "one_point_crossover",
    "random_population",
    "rank_selection",
    "roulette",
    "run_rng",
    "select_elite",
    "split_counts",
    "tournament",
    "uniform_crossover",
    "used_genes",
]

MUTATION_RATE = 0.01
"""The chance that mutation changes a gene (RGA, TGA) or flips a bit (SGA)."""
MUTATION_SD = 0.1
"""The standard deviation of the Gaussian noise a mutated real gene gets."""
SEATS = 4
"""Players per game in the genetic algorithm."""
INITS = ("uniform", "level", "levels")
"""The first population: every gene uniform from 0 to 1 (the paper); all of a genome's genes
around one level of its own (``level``: genomes differ in how much they buy, and leave jail
as readily as they buy); or each table of a genome's genes around a level of its own
(``levels``: for EGA, whose bids, reserve and trade limits mean other things than its buy
genes). See :func:`random_population`."""
LEVEL_SD = 0.1
"""The spread (standard deviation) of genes around their level (``init="level"``, ``"levels"``)."""
LEVEL_RANGE = (-2 * LEVEL_SD, 1 + 2 * LEVEL_SD)
"""The levels of ``init="level"`` and ``"levels"``: uniform over this range, a little wider
than 0 to 1, so that the first population holds genes nearly all 0 or all 1."""
SELECTIONS = ("roulette", "tournament", "rank")
"""How parents and copies are chosen: by fitness (the paper), the fitter of
:data:`TOURNAMENT_SIZE` drawn at random, or by rank."""
TOURNAMENT_SIZE = 2
"""Players drawn for each choice of tournament selection."""
CROSSOVERS = ("blend", "one-point", "uniform")
"""How two parents make two children: blend (the paper's, for real genes), one cut (the
paper's for SGA's bits), or each gene from either parent."""


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
FIELD = "vs:"
"""How an absolute fitness begins: ``vs:heuristic,always,heuristic`` scores each player's
finish points (:func:`finish_order`) in games against that fixed field of 3 built-in
strategies; ``vs:heuristic,always,heuristic:num_wins`` scores with another of
:data:`FITNESS`."""


def fitness_parts(spec: str) -> tuple[str, tuple[str, ...] | None]:
    """A fitness as (the scoring, one of :data:`FITNESS`; the fixed field, or None for the
    paper's relative fitness, the players scored in games among themselves).

    >>> fitness_parts("net_worth"), fitness_parts("vs:heuristic,always,heuristic:num_wins")
    (('net_worth', None), ('num_wins', ('heuristic', 'always', 'heuristic')))
    """
    allowed = (
        f"one of {', '.join(FITNESS)} (in any case: NET_WORTH is net_worth), or "
        f"'{FIELD}A,B,C' (against a fixed field)"
    )
    if not isinstance(spec, str):
        raise TypeError(f"fitness must be a name, {allowed}; got {spec!r}.")
    if not spec.lower().startswith(FIELD):
        if spec.strip().lower() not in FITNESS:
            raise ValueError(f"fitness must be {allowed}; got {spec!r}.")
        return spec.strip().lower(), None
    names, _, scoring = spec[len(FIELD) :].partition(":")
    field = tuple(name.strip() for name in names.split(","))
    if len(field) != SEATS - 1 or not all(field):
        raise ValueError(
            f"an absolute fitness names the {SEATS - 1} strategies of its fixed "
            f"field, e.g. '{FIELD}heuristic,always,heuristic'; got {spec!r}."
        )
    scoring = scoring.strip().lower()
    if scoring and scoring not in FITNESS:
        raise ValueError(
            f"the scoring after the field must be one of {', '.join(FITNESS)}; got {scoring!r}."
        )
    return scoring or "finish_order", field


def check_fitness(spec: object) -> str:
    """A fitness, checked (:func:`fitness_parts`), as a run records it: a name of
    :data:`FITNESS`, or ``vs:A,B,C`` (finish points) or ``vs:A,B,C:scoring``."""
    scoring, field = fitness_parts(spec)  # type: ignore[arg-type]
    if field is None:
        return scoring
    return FIELD + ",".join(field) + ("" if scoring == "finish_order" else f":{scoring}")


# ---------------------------------------------------------------------------
# Genomes: rows of numbers, and the players they are
# ---------------------------------------------------------------------------


def _gene_count(chromosome: str) -> int:
    tables = CHROMOSOME_PLAYERS[_check_name(chromosome, "chromosome")].gene_tables()
    return sum(rows * columns for rows, columns in tables.values())


def genome_length(chromosome: str) -> int:
    """The length of one genome: genes for RGA (4256) and TGA (176), bits for SGA (1056).

    >>> [genome_length(name) for name in ("rga", "tga", "sga")]
    [4256, 176, 1056]
    """
    return _gene_count(chromosome) * (GENE_BITS if chromosome == "sga" else 1)


def random_population(
    chromosome: str, population: int, rng: np.random.Generator, init: str = "uniform"
) -> np.ndarray:
    """``population`` random genomes: uniform floats from 0 to 1, or random bits for SGA
    (``init="uniform"``, the paper); or all of a genome's genes (``init="level"``), or each of
    its tables of genes (``init="levels"``: buy, jail, and EGA's bid, reserve and trade, as
    ``gene_tables()`` lists them), drawn around a level of its own (uniform over
    :data:`LEVEL_RANGE`) with standard deviation :data:`LEVEL_SD`, kept within 0 to 1 (for
    SGA, each gene then rounded to n/63 and written as its bits)."""
    shape = (population, genome_length(chromosome))
    if init == "uniform":
        if chromosome == "sga":
            return rng.integers(0, 2, size=shape, dtype=np.uint8)
        return rng.random(shape)
    tables = CHROMOSOME_PLAYERS[chromosome].gene_tables().values()
    sizes = [rows * columns for rows, columns in tables]
    if init == "level":  # one level for the whole genome
        sizes = [sum(sizes)]
    levels = np.repeat(rng.uniform(*LEVEL_RANGE, size=(population, len(sizes))), sizes, axis=1)
    genes = np.clip(levels + rng.normal(0.0, LEVEL_SD, levels.shape), 0.0, 1.0)
    if chromosome != "sga":
        return genes
    numbers = np.rint(genes * GENE_MAX).astype(np.uint8)[:, :, np.newaxis]
    return np.unpackbits(numbers, axis=2)[:, :, 8 - GENE_BITS :].reshape(shape)


def used_genes(chromosome: str) -> np.ndarray:
    """Which of a genome's genes a player ever reads (True): the buy genes of the 28 lots in
    each ownership state, and every jail gene (the buy genes of the other spaces are never
    read)."""
    lots = np.zeros(BUY_SHAPE[1], dtype=bool)
    lots[[space - 1 for space in PRICE]] = True
    others = _gene_count(chromosome) - lots.size * BUY_SHAPE[0]  # jail (and EGA's) genes
    return np.concatenate([np.tile(lots, BUY_SHAPE[0]), np.ones(others, dtype=bool)])


_DIVERSITY_BLOCK = 512  # genes whose spread is taken at once: 1,000 players' fit the cache


def diversity(chromosome: str, genomes: np.ndarray) -> float:
    """The population's genetic diversity: the mean over the genes players read
    (:func:`used_genes`) of the genes' standard deviation across the genomes (SGA's genes
    read as n/63). A uniform random start gives about 0.29; a population of copies, 0.

    >>> diversity("tga", np.full((4, 176), 0.5))
    0.0
    """
    genes = np.asarray(genomes)  # a genome is its genes in used_genes' order
    if chromosome == "sga":
        buy, jail = genome_genes(chromosome, genes)
        flat = np.concatenate([buy.reshape(len(buy), -1), jail.reshape(len(jail), -1)], axis=1)
        genes = flat / GENE_MAX
    # in blocks of genes whose work fits the cache: the same sums, in the same order
    spread = np.concatenate(
        [
            np.std(genes[:, k : k + _DIVERSITY_BLOCK], axis=0)
            for k in range(0, genes.shape[1], _DIVERSITY_BLOCK)
        ]
    )
    return float(spread[used_genes(chromosome)].mean())


def genome_genes(chromosome: str, genomes: np.ndarray) -> tuple[np.ndarray, ...]:
    """The genomes (P, n) as the player's tables of genes, each (P, rows, columns), in the
    order of its ``gene_tables()``: buy genes (P, 4, 40) and jail genes (P, J, J) (EGA's bid,
    reserve and trade genes after them), the arrays
    :func:`~monopoly_lesson.evolution.population_games.play_population_games` takes; for
    SGA whole numbers 0..63 read from the bits.
    """
    genomes = np.asarray(genomes)
    if chromosome == "sga":
        weights = 1 << np.arange(GENE_BITS - 1, -1, -1)
        genomes = genomes.reshape(len(genomes), -1, GENE_BITS).astype(np.int64) @ weights
    tables, start = [], 0
    for rows, columns in CHROMOSOME_PLAYERS[chromosome].gene_tables().values():
        tables.append(genomes[:, start : start + rows * columns].reshape(-1, rows, columns))
        start += rows * columns
    return tuple(tables)


def genome_player(chromosome: str, genome: np.ndarray) -> RGA:
    """The RGA, TGA, SGA or EGA player whose genome is ``genome`` (one row).

    >>> genome_player("sga", np.ones(1056, dtype=np.uint8)).bits == "1" * 1056
    True
    """
    tables = genome_genes(chromosome, np.asarray(genome)[np.newaxis])
    return CHROMOSOME_PLAYERS[chromosome].from_genes(*(table[0] for table in tables))


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


def tournament(fitness: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` indices, each the fittest of :data:`TOURNAMENT_SIZE` players drawn at random
    with replacement (ties: the first drawn)."""
    fitness = np.asarray(fitness, dtype=float)
    drawn = rng.integers(0, len(fitness), size=(count, TOURNAMENT_SIZE))
    return drawn[np.arange(count), np.argmax(fitness[drawn], axis=1)]


def rank_selection(fitness: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` indices drawn with replacement, each with chance proportional to its rank
    (1 for the least fit, P for the fittest; tied players share the mean of their ranks):
    selection that does not depend on how far apart the fitness values are."""
    fitness = np.asarray(fitness, dtype=float)
    order = np.argsort(fitness, kind="stable")
    ranks = np.empty(len(fitness))
    ranks[order] = np.arange(1, len(fitness) + 1)
    _, groups = np.unique(fitness, return_inverse=True)
    ranks = (np.bincount(groups, weights=ranks) / np.bincount(groups))[groups]
    return rng.choice(len(fitness), size=count, p=ranks / ranks.sum())


def mutate(
    genomes: np.ndarray,
    rng: np.random.Generator,
    rate: float = MUTATION_RATE,
    sd: float = MUTATION_SD,
) -> np.ndarray:
    """Real genomes mutated (a copy): each gene, with chance ``rate``, gets Gaussian noise
    of standard deviation ``sd``, then is clipped to 0..1."""
    return _mutate_in_place(np.array(genomes, dtype=float), rng, rate, sd)


def _mutate_in_place(
    genomes: np.ndarray, rng: np.random.Generator, rate: float, sd: float
) -> np.ndarray:
    """:func:`mutate` on ``genomes`` themselves (a C-ordered float array), which it returns."""
    hit = np.flatnonzero(rng.random(genomes.shape) < rate)  # in C order, as a mask picks them
    flat = genomes.reshape(-1)
    flat[hit] += rng.normal(0.0, sd, size=len(hit))
    return np.clip(genomes, 0.0, 1.0, out=genomes)


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


def uniform_crossover(
    first: np.ndarray, second: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Uniform crossover, pair by pair: each gene (or bit) of child 1 comes from either
    parent with chance 1/2, and child 2 takes the other parent's."""
    first, second = np.asarray(first), np.asarray(second)
    mine = rng.random(first.shape) < 0.5
    return np.where(mine, first, second), np.where(mine, second, first)


SELECTION: dict[str, Callable[[np.ndarray, int, np.random.Generator], np.ndarray]] = {
    "roulette": roulette,
    "tournament": tournament,
    "rank": rank_selection,
}
CROSSOVER: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {
    "blend": crossover,
    "one-point": one_point_crossover,
    "uniform": uniform_crossover,
}
OPERATORS = {
    "init": "uniform",
    "selection": "roulette",
    "crossover": None,
    "mutation_rate": MUTATION_RATE,
    "mutation_sd": MUTATION_SD,
}
"""The operator options of a run and their defaults, the paper's (``crossover`` None: blend
for real genes, one-point for SGA's bits)."""


def next_population(
    genomes: np.ndarray,
    fitness: np.ndarray,
    rng: np.random.Generator,
    *,
    bits: bool = False,
    selection: str = "roulette",
    crossover: str | None = None,
    mutation_rate: float = MUTATION_RATE,
    mutation_sd: float = MUTATION_SD,
) -> np.ndarray:
    """The next generation's genomes, in order: the elite (unchanged), copies, mutated
    copies, children of pairs (the two parents drawn independently; an odd number of
    children drops the last pair's second child), each chosen by ``selection``
    (:data:`SELECTIONS`). ``bits=True`` for SGA: bit flips. ``crossover`` (:data:`CROSSOVERS`)
    defaults to blend, or one-point for bits; mutation changes a gene with chance
    ``mutation_rate`` by Gaussian noise of sd ``mutation_sd`` (SGA: flips a bit)."""
    genomes = np.asarray(genomes)
    choose = SELECTION[selection]
    cross = CROSSOVER[crossover or ("one-point" if bits else "blend")]
    elite, copies, mutants, children = split_counts(len(genomes))
    pairs = (children + 1) // 2
    first = genomes[choose(fitness, pairs, rng)]
    second = genomes[choose(fitness, pairs, rng)]
    child1, child2 = cross(first, second, rng)
    chosen = choose(fitness, mutants, rng)
    copied = choose(fitness, copies, rng)  # drawn before the mutation's draws
    # each part written once into its place (a 34 MB population is not copied again whole;
    # the indices are the selection's own, all in range: "clip" only spares take a buffer)
    bred = np.empty_like(genomes)
    np.take(genomes, select_elite(fitness, elite), axis=0, out=bred[:elite], mode="clip")
    np.take(genomes, copied, axis=0, out=bred[elite : elite + copies], mode="clip")
    at = elite + copies
    mutated = bred[at : at + mutants]
    if bits:
        mutated[:] = flip_bits(genomes[chosen], rng, mutation_rate)
    else:  # the chosen copied into place, then mutated there
        np.take(genomes, chosen, axis=0, out=mutated, mode="clip")
        _mutate_in_place(mutated, rng, mutation_rate, mutation_sd)
    at += mutants
    bred[at::2] = child1
    bred[at + 1 :: 2] = child2[: children // 2]  # odd: the last pair's second child dropped
    return bred


def run_rng(seed: int, generation: int, purpose: int) -> np.random.Generator:
    """A run's random numbers for ``generation`` and one purpose: 0 its games (generation
    0: the first population), 1 breeding the next population from it."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(generation, purpose)))


def generation_genomes(
    parameters: dict[str, Any],
    generation: int,
    previous: np.ndarray | None,
    fitness: np.ndarray | None,
) -> np.ndarray:
    """The genomes of a run's ``generation`` (its ``parameters`` as ``evolve`` keeps them):
    the first population for generation 1, else bred from the generation before (its
    genomes ``previous`` and their ``fitness``) with the run's operators. A run plays
    them, and a resumed run replays them from its last saved population."""
    p = parameters
    if generation == 1:
        return random_population(
            p["chromosome"], p["population"], run_rng(p["seed"], 0, 0), p["init"]
        )
    options = {key: p[key] for key in OPERATORS if key != "init"}
    return next_population(
        previous,
        fitness,
        run_rng(p["seed"], generation - 1, 1),
        bits=p["chromosome"] == "sga",
        **options,
    )


def check_operators(chromosome: str, **options: object) -> dict[str, object]:
    """The operator options of a run (:data:`OPERATORS`), checked and completed with the
    defaults (``crossover`` resolved for the chromosome): a ``TypeError`` or
    ``ValueError`` that says what is allowed."""
    unknown = sorted(set(options) - set(OPERATORS))
    if unknown:
        raise TypeError(
            f"unknown operator option {unknown[0]!r}; the options are {', '.join(OPERATORS)}."
        )
    chosen = {**OPERATORS, **options}
    bits = chromosome == "sga"
    for key, allowed in (("init", INITS), ("selection", SELECTIONS)):
        _check_choice(chosen[key], key, allowed)
    if chosen["crossover"] is None:
        chosen["crossover"] = "one-point" if bits else "blend"
    _check_choice(chosen["crossover"], "crossover", CROSSOVERS)
    if bits and chosen["crossover"] == "blend":
        raise ValueError(
            "crossover 'blend' averages real genes; SGA's genes are bits: use "
            "'one-point' (the paper's) or 'uniform'."
        )
    for key, most in (("mutation_rate", 1.0), ("mutation_sd", 1.0)):
        value = chosen[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{key} must be a number, got {value!r}.")
        if not 0 <= value <= most:
            raise ValueError(f"{key} must be from 0 to {most:g}, got {value!r}.")
        chosen[key] = float(value)
    if bits and chosen["mutation_sd"] != MUTATION_SD:
        raise ValueError(
            "mutation_sd is the size of the noise added to a real gene; SGA's "
            "mutation flips bits (set mutation_rate, the chance a bit flips)."
        )
    return chosen


def _check_choice(value: object, what: str, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(allowed)}, got {value!r}.")


# ---------------------------------------------------------------------------
# Checking the names and sizes a run is given
# ---------------------------------------------------------------------------


def _check_name(value: object, what: str) -> str:
    """A chromosome's or a fitness function's name, checked: one of those known, in any case
    (``RGA`` is ``rga``), returned as the API spells it."""
    return check_name(value, what, CHROMOSOME_PLAYERS if what == "chromosome" else FITNESS)


def _check_population(value: object) -> int:
    """A population's size, checked: a whole number of players that fill tables of 4."""
    population = check_whole(value, "population", SEATS)
    if population % SEATS:
        raise ValueError(
            f"population must be a multiple of {SEATS} (the players are shuffled "
            f"into tables of {SEATS}), got {population}; try "
            f"{population - population % SEATS}."
        )
    return population
