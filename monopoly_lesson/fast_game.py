"""The compiled whole-game engine: many games in one call, on every core.

The movement comes from the game roll table (:mod:`monopoly_lesson.game_table`, the
movement rules enumerated); the money rules are :mod:`monopoly_lesson.fast_game_loop`'s,
compiled with numba. Strategies are the built-in ones (always, never, random:P,
heuristic, RGA, TGA, SGA) with the rules' defaults for the rest. Fed the same pre-drawn
streams (:class:`~monopoly_lesson.game_streams.GameStreams`), it plays exactly the
reference engine's games; with seeds it draws its own numbers, for speed.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from tqdm.auto import tqdm

from . import fast_game_loop as loop
from .chromosomes import RGA, SGA, TGA
from .game import GAME_MOVEMENT
from .game_streams import GameStreams, StreamExhausted
from .game_table import OPS, game_roll_table
from .plugins import as_strategy
from .strategies import AlwaysBuy, Heuristic, NeverBuy, RandomBuy, Strategy

__all__ = [
    "FIELDS",
    "StrategyCodes",
    "fast_games",
    "genome_codes",
    "pack_movement",
    "strategy_codes",
]

CHUNK = 5000
"""Games per call of the compiled loop: a progress bar moves, and Ctrl-C is seen, between."""
FIELDS = ("finish", "lots", "monopolies", "net_worth", "cash")
"""The per-seat results of :func:`fast_games`, each an array of shape (games, players)."""
assert [OPS[k] for k in ("end", "go", "land", "draw", "leave", "fee")] == [
    loop.END, loop.GO, loop.LAND, loop.DRAW, loop.LEAVE, loop.FEE,
]  # fmt: skip


def pack_movement() -> np.ndarray:
    """The game roll table in one array, as the compiled loop reads it (``M_*`` header)."""
    table = game_roll_table(GAME_MOVEMENT)
    parts = [table.dice_class, table.leaf, table.start, table.events, table.asks]
    header = 6
    offsets = np.cumsum([header] + [part.size for part in parts])[:-1]
    m = np.concatenate([np.zeros(header, np.int64)] + [p.ravel().astype(np.int64) for p in parts])
    m[loop.M_CLASSES] = table.leaf.shape[1]
    m[[loop.M_DICE, loop.M_LEAF, loop.M_START, loop.M_EVENTS, loop.M_ASKS]] = offsets
    assert table.leaf.shape[2:] == (2, 16, 16) and table.events.shape[1] == 4
    return m


class StrategyCodes:
    """Strategies as the compiled loop reads them: a code, a probability and genes each."""

    def __init__(self, strategies: Sequence[object]) -> None:
        members = [as_strategy(s) for s in strategies]
        n = len(members)
        self.kind = np.zeros(n, np.int64)
        self.genes = np.zeros((n, loop.GENE_WIDTH), np.float64)  # p, buy, jail (64 x 64)
        for i, member in enumerate(members):
            self._code(i, member)

    def _code(self, i: int, member: Strategy) -> None:
        simple = {AlwaysBuy: loop.ALWAYS, NeverBuy: loop.NEVER, Heuristic: loop.HEURISTIC}
        if type(member) in simple:
            self.kind[i] = simple[type(member)]
        elif type(member) is RandomBuy:
            self.kind[i], self.genes[i, 0] = loop.RANDOM, member.p
        elif type(member) in (RGA, TGA, SGA):
            self.kind[i] = loop.RGA if type(member) is RGA else loop.TGA
            scale = 63.0 if type(member) is SGA else 1.0  # SGA's genes are read as n/63
            self.genes[i, 1:161] = (member.buy_genes / scale).ravel()
            jail = np.zeros((64, 64))
            genes = member.jail_genes / scale
            jail[: genes.shape[0], : genes.shape[1]] = genes
            self.genes[i, 161:] = jail.ravel()
        else:
            raise ValueError(
                f"the compiled engine plays the built-in strategies (always, never, random:P, "
                f"heuristic, rga, tga, sga), not {member.name!r}: use play_monopoly for it."
            )


def genome_codes(chromosome: str, buy: np.ndarray, jail: np.ndarray) -> StrategyCodes:
    """The compiled loop's codes for a population of one chromosome (genes as arrays).

    ``buy`` is (population, 4, 40) and ``jail`` (population, J, J); SGA's genes are whole
    numbers 0..63, read as n/63 as :class:`~monopoly_lesson.chromosomes.SGA` reads them.
    """
    buy, jail = np.asarray(buy), np.asarray(jail)
    codes = StrategyCodes([])
    scale = 63.0 if chromosome == "sga" else 1.0
    n, j = len(buy), jail.shape[1]
    codes.kind = np.full(n, loop.RGA if chromosome == "rga" else loop.TGA, np.int64)
    codes.genes = np.zeros((n, loop.GENE_WIDTH), np.float64)
    codes.genes[:, 1:161] = buy.reshape(n, 160) / scale
    cells = codes.genes[:, 161:].reshape(n, 64, 64)
    cells[:, :j, :j] = jail / scale
    return codes


def strategy_codes(strategies: Sequence[object]) -> StrategyCodes:
    """The compiled loop's codes for ``strategies`` (names, Strategy objects, genomes)."""
    return StrategyCodes(strategies)


def fast_games(
    codes: StrategyCodes,
    who: np.ndarray,
    *,
    seeds: Sequence[int] | np.ndarray | None = None,
    streams: Sequence[GameStreams] | None = None,
    max_rounds: int = 100,
    trace: bool = False,
    progress: bool = False,
) -> dict[str, np.ndarray]:
    """Play game ``g`` among ``codes``' members ``who[g]`` (seat order), on every core.

    Give ``seeds`` (whole numbers below 2**32, one per game) for the compiled engine's
    own draws, or ``streams`` (one :class:`GameStreams` per game) to play exactly the
    draws the reference engine is given. Returns :data:`FIELDS` (games x players), plus
    ``rounds``, ``ended_early``, ``turns`` (all players' turns) and, with ``trace=True``,
    ``trace``: the state after every round (see :mod:`monopoly_lesson.fast_game_loop`).
    ``progress=True`` shows a progress bar (games are played in chunks of 5,000).
    """
    who = np.ascontiguousarray(who, dtype=np.int64)
    games = who.shape[0]
    if streams is not None:
        chunks = [_play_streams(codes, who[k : k + 64], streams[k : k + 64], max_rounds, trace)
                  for k in range(0, games, 64)]  # fmt: skip
        return {key: np.concatenate([c[key] for c in chunks]) for key in chunks[0]}
    seed_array = np.zeros(games, np.uint32) if seeds is None else np.asarray(seeds, np.uint32)
    no_streams, lengths = np.zeros((1, 0), np.int64), np.zeros(3, np.int64)
    genes = codes.genes.reshape(1, -1)
    chunks = []
    with tqdm(total=games, unit="game", disable=not progress, mininterval=0.2) as bar:
        for k in range(0, games, CHUNK):
            chunks.append(_play(genes, codes.kind, who[k : k + CHUNK], seed_array[k : k + CHUNK],
                                no_streams, lengths, 0, max_rounds, trace))  # fmt: skip
            bar.update(len(who[k : k + CHUNK]))
    return {key: np.concatenate([c[key] for c in chunks]) for key in chunks[0]}


def _play_streams(
    codes: StrategyCodes,
    who: np.ndarray,
    streams: Sequence[GameStreams],
    max_rounds: int,
    trace: bool,
) -> dict[str, np.ndarray]:
    """Mode 1: each game's own streams (in ``s``) and uniforms (after the genes in ``f``)."""
    players = who.shape[1]
    ints = np.stack([np.concatenate([s.faces, np.stack(s.shuffles).ravel()]) for s in streams])
    uniforms = np.stack([s.uniforms[:players].ravel() for s in streams])
    f = np.concatenate([np.broadcast_to(codes.genes.ravel(), (len(streams), codes.genes.size)),
                        uniforms], axis=1)  # fmt: skip
    first = streams[0]
    lengths = np.array([first.faces.size, first.shuffles[0].shape[0], first.uniforms.shape[1]])
    return _play(f, codes.kind, who, np.zeros(len(who), np.uint32), ints.astype(np.int64),
                 lengths, 1, max_rounds, trace)  # fmt: skip


def _play(f, kind, who, seeds, ints, lengths, mode, max_rounds, trace):  # type: ignore[no-untyped-def]
    games, players = who.shape
    results = np.zeros((games, 5 * players + 4), np.int64)
    traces = np.zeros((games, max_rounds, loop.SIZE) if trace else (1, 0, loop.SIZE), np.int64)
    loop.play_many(_movement(), np.ascontiguousarray(f), kind, who, seeds, ints, lengths,
                   mode, max_rounds, results, traces)  # fmt: skip
    if results[:, 5 * players + 2].any():
        raise StreamExhausted("a game needed more draws than its streams hold")
    out = {name: results[:, k * players : (k + 1) * players] for k, name in enumerate(FIELDS)}
    out["rounds"] = results[:, 5 * players]
    out["ended_early"] = results[:, 5 * players + 1].astype(bool)
    out["turns"] = results[:, 5 * players + 3]
    if trace:
        out["trace"] = traces
    return out


@functools.lru_cache(maxsize=1)
def _movement() -> np.ndarray:
    return pack_movement()
