"""Games of a population of chromosome players: genomes in, each seat's outcome out.

The genetic algorithm (:mod:`monopoly_lesson.evolution.run`) scores a generation by playing
many four-player games among its genomes. :func:`play_population_games` takes the
genomes as arrays and the seating of every game, and returns what the fitness functions
need, per game and seat, as arrays: from the fast engine (the default, on every
core), or from the reference engine (``engine="reference"``, the readable one).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ..checks import check_max_rounds
from ..game.chromosomes import CHROMOSOME_PLAYERS
from ..game.engine import play_monopoly

if TYPE_CHECKING:
    from ..game.fast import StrategyCodes

__all__ = ["ENGINES", "OUTCOMES", "play_population_games"]

OUTCOMES = ("finish", "lots", "monopolies", "net_worth")
"""The arrays :func:`play_population_games` returns, each of shape (games, seats)."""
ENGINES = ("compiled", "reference")
"""The engines :func:`play_population_games` can play with: numba's, or the readable one."""


def play_population_games(
    chromosome: str,
    buy: np.ndarray,
    jail: np.ndarray,
    tables: np.ndarray,
    seeds: Iterable[int],
    max_rounds: int = 100,
    engine: str = "compiled",
    codes: StrategyCodes | None = None,
    trading: bool = False,
    more: tuple[np.ndarray, ...] = (),
) -> dict[str, np.ndarray]:
    """Play game ``g`` among genomes ``tables[g]`` (seat order) with seed ``seeds[g]``
    (with the rules' trading step if ``trading``).

    ``buy`` has shape (population, 4, 40) and ``jail`` (population, J, J), the genes of
    ``chromosome`` ("rga", "tga", "sga" or "ega"; SGA's as whole numbers 0..63; EGA's bid,
    reserve and trade genes in ``more``, as :func:`~monopoly_lesson.evolution.operators.
    genome_genes` gives them after buy and jail). Returns
    ``finish`` (1 = winner), ``lots``, ``monopolies`` and ``net_worth``, each an int
    array of shape ``tables.shape``. The two engines play the same rules; a seed gives a
    different (but reproducible) game in each, as they draw their numbers differently.
    Playing a generation in parts, give the fast engine ``codes`` made once by
    :func:`~monopoly_lesson.game.fast.genome_codes` ``(chromosome, buy, jail, *more)``: the genes
    are then checked and packed once, not for every part.
    """
    from ..game.fast import (
        CHROMOSOME_KINDS,
        StrategyCodes,
        check_game_seeds,
        check_population,
        check_seating,
        genome_codes,
    )

    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}.")
    max_rounds = check_max_rounds(max_rounds)
    if engine == "reference" and codes is not None:
        raise ValueError("codes are for the fast engine; the reference engine reads the genes.")
    if engine == "reference":
        buy, jail, *more = check_population(chromosome, buy, jail, *more)
    elif codes is None:
        codes = genome_codes(chromosome, buy, jail, *more)
    elif not isinstance(codes, StrategyCodes):
        raise TypeError(f"codes must be genome_codes(...)'s result, got {type(codes).__name__}.")
    elif (
        not isinstance(chromosome, str)
        or chromosome not in CHROMOSOME_KINDS
        or len(codes) != len(buy)
        or (codes.kind != CHROMOSOME_KINDS[chromosome]).any()
    ):
        raise ValueError(
            f"codes must be genome_codes({chromosome!r}, buy, jail) of these {len(buy):,} "
            f"genomes, got codes of {len(codes):,} members."
        )
    tables = check_seating(tables, len(buy))
    if not isinstance(seeds, (np.ndarray, list, tuple)):
        seeds = list(seeds)  # an iterable, as the generations draw them
    seeds = check_game_seeds(seeds, len(tables))
    if engine == "compiled":
        return _compiled_games(codes, tables, seeds, max_rounds, trading)
    return _reference_games(
        CHROMOSOME_PLAYERS[chromosome], (buy, jail, *more), tables, seeds, max_rounds, trading
    )


def _compiled_games(codes, tables, seeds, max_rounds, trading):  # type: ignore[no-untyped-def]
    """The fast engine's games, played in an order that keeps the genes in the cache (games
    sorted by their players, so that neighbouring games share one), returned in table order:
    each game is its own, whatever the order it is played in."""
    from ..game.fast import fast_games

    order = np.lexsort(np.sort(tables, axis=1).T[::-1])
    out = fast_games(
        codes, tables[order], seeds=seeds[order], max_rounds=max_rounds, trading=trading
    )
    back = np.argsort(order)  # row g of the played games is table order[g]
    return {name: out[name][back] for name in OUTCOMES}


def _reference_games(kind, genes, tables, seeds, max_rounds, trading):  # type: ignore[no-untyped-def]
    players = {}
    out = {name: np.zeros(tables.shape, dtype=np.int64) for name in OUTCOMES}
    for g, seed in enumerate(seeds):
        seats = [int(i) for i in tables[g]]
        for i in seats:
            if i not in players:
                players[i] = kind.from_genes(*(table[i] for table in genes))
        result = play_monopoly(
            [players[i] for i in seats], seed=int(seed), max_rounds=max_rounds, trading=trading
        )
        for k, seat in enumerate(result.finish_order):
            out["finish"][g, seat - 1] = k + 1
        out["lots"][g] = result.lots
        out["monopolies"][g] = result.monopolies
        out["net_worth"][g] = result.net_worth
    return out
