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

>>> rng = np.random.default_rng(0)
>>> genomes = random_population("tga", 8, rng)
>>> bred = next_population(genomes, np.arange(8.0), rng)
>>> bred.shape, bool((bred[0] == genomes[7]).all())  # the fittest is kept unchanged
((8, 176), True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ..checks import check_whole
from ..game.chromosomes import BUY_SHAPE, CHROMOSOME_PLAYERS, GENE_BITS, RGA

__all__ = [
    "FITNESS",
    "MUTATION_RATE",
    "MUTATION_SD",
    "SEATS",
    "crossover",
    "finish_order",
    "flip_bits",
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
    "roulette",
    "select_elite",
    "split_counts",
]

MUTATION_RATE = 0.01
"""The chance that mutation changes a gene (RGA, TGA) or flips a bit (SGA)."""
MUTATION_SD = 0.1
"""The standard deviation of the Gaussian noise a mutated real gene gets."""
SEATS = 4
"""Players per game in the genetic algorithm."""


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
    """The genomes (P, n) as the arrays
    :func:`~monopoly_lesson.evolution.population_games.play_population_games` takes: buy
    genes (P, 4, 40) and jail genes (P, J, J); for SGA whole numbers 0..63 read from the bits.
    """
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
# Checking the names and sizes a run is given
# ---------------------------------------------------------------------------


def _check_name(value: object, what: str) -> str:
    """A chromosome's or a fitness function's name, checked: one of those known."""
    known = CHROMOSOME_PLAYERS if what == "chromosome" else FITNESS
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a name, one of {', '.join(known)}; got {value!r}.")
    if value not in known:
        raise ValueError(f"{what} must be one of {', '.join(known)}, got {value!r}.")
    return value


def _check_population(value: object) -> int:
    """A population's size, checked: a whole number of players that fill tables of 4."""
    population = check_whole(value, "population", SEATS)
    if population % SEATS:
        raise ValueError(f"population must be a multiple of {SEATS} (the players are shuffled "
                         f"into tables of {SEATS}), got {population}; try "
                         f"{population - population % SEATS}.")  # fmt: skip
    return population
