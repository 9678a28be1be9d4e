"""Games of a population of chromosome players: genomes in, each seat's outcome out.

The genetic algorithm (:mod:`monopoly_lesson.genetic`) scores a generation by playing
many four-player games among its genomes. :func:`play_population_games` takes the
genomes as arrays and the seating of every game, and returns what the fitness functions
need, per game and seat, as arrays.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .chromosomes import CHROMOSOME_PLAYERS
from .game import play_monopoly

__all__ = ["OUTCOMES", "play_population_games"]

OUTCOMES = ("finish", "lots", "monopolies", "net_worth")
"""The arrays :func:`play_population_games` returns, each of shape (games, seats)."""


def play_population_games(
    chromosome: str,
    buy: np.ndarray,
    jail: np.ndarray,
    tables: np.ndarray,
    seeds: Iterable[int],
    max_rounds: int = 100,
) -> dict[str, np.ndarray]:
    """Play game ``g`` among genomes ``tables[g]`` (seat order) with seed ``seeds[g]``.

    ``buy`` has shape (population, 4, 40) and ``jail`` (population, J, J), the genes of
    ``chromosome`` ("rga", "tga" or "sga"). Returns ``finish`` (1 = winner), ``lots``,
    ``monopolies`` and ``net_worth``, each an int array of shape ``tables.shape``.
    """
    if chromosome not in CHROMOSOME_PLAYERS:
        raise ValueError(
            f"chromosome must be one of {', '.join(CHROMOSOME_PLAYERS)}, got {chromosome!r}."
        )
    kind = CHROMOSOME_PLAYERS[chromosome]
    tables = np.asarray(tables)
    players = {}
    out = {name: np.zeros(tables.shape, dtype=np.int64) for name in OUTCOMES}
    for g, seed in enumerate(seeds):
        seats = [int(i) for i in tables[g]]
        for i in seats:
            if i not in players:
                players[i] = kind.from_genes(buy[i], jail[i])
        result = play_monopoly([players[i] for i in seats], seed=int(seed), max_rounds=max_rounds)
        for k, seat in enumerate(result.finish_order):
            out["finish"][g, seat - 1] = k + 1
        out["lots"][g] = result.lots
        out["monopolies"][g] = result.monopolies
        out["net_worth"][g] = result.net_worth
    return out
