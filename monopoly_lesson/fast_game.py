"""The compiled whole-game engine: many games in one call, on every core.

The movement comes from the game roll table (:mod:`monopoly_lesson.game_table`, the
movement rules enumerated); the money rules are :mod:`monopoly_lesson.fast_game_loop`'s,
compiled with numba. Strategies are the built-in ones (always, never, random:P,
heuristic, RGA, TGA, SGA) with the rules' defaults for the rest. Fed the same pre-drawn
streams (:class:`~monopoly_lesson.game_streams.GameStreams`), it plays exactly the
reference engine's games; with seeds it draws its own numbers, for speed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import fast_game_loop as loop
from .chromosomes import RGA, SGA, TGA
from .game import GAME_MOVEMENT
from .game_streams import GameStreams, StreamExhausted
from .game_table import OPS, game_roll_table
from .plugins import as_strategy
from .strategies import AlwaysBuy, Heuristic, NeverBuy, RandomBuy, Strategy

__all__ = ["FIELDS", "StrategyCodes", "fast_games", "movement_tables", "strategy_codes"]

FIELDS = ("finish", "lots", "monopolies", "net_worth", "cash")
"""The per-seat results of :func:`fast_games`, each an array of shape (games, players)."""
assert [OPS[k] for k in ("end", "go", "land", "draw", "leave", "fee")] == [
    loop.END, loop.GO, loop.LAND, loop.DRAW, loop.LEAVE, loop.FEE,
]  # fmt: skip


def movement_tables() -> tuple[np.ndarray, ...]:
    """The game roll table's arrays, as the compiled loop reads them."""
    table = game_roll_table(GAME_MOVEMENT)
    return table.dice_class, table.leaf, table.start, table.events, table.asks


class StrategyCodes:
    """Strategies as the compiled loop reads them: a code, a probability and genes each."""

    def __init__(self, strategies: Sequence[object]) -> None:
        members = [as_strategy(s) for s in strategies]
        n = len(members)
        self.kind = np.zeros(n, np.int64)
        self.prob = np.zeros(n, np.float64)
        self.buy = np.zeros((n, 4, 40), np.float64)
        self.jail = np.zeros((n, 64, 64), np.float64)
        for i, member in enumerate(members):
            self._code(i, member)

    def _code(self, i: int, member: Strategy) -> None:
        simple = {AlwaysBuy: loop.ALWAYS, NeverBuy: loop.NEVER, Heuristic: loop.HEURISTIC}
        if type(member) in simple:
            self.kind[i] = simple[type(member)]
        elif type(member) is RandomBuy:
            self.kind[i], self.prob[i] = loop.RANDOM, member.p
        elif type(member) in (RGA, TGA, SGA):
            self.kind[i] = loop.RGA if type(member) is RGA else loop.TGA
            scale = 63.0 if type(member) is SGA else 1.0
            self.buy[i] = member.buy_genes / scale
            jail = member.jail_genes / scale
            self.jail[i, : jail.shape[0], : jail.shape[1]] = jail
        else:
            raise ValueError(
                f"the compiled engine plays the built-in strategies (always, never, random:P, "
                f"heuristic, rga, tga, sga), not {member.name!r}: use play_monopoly for it."
            )


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
) -> dict[str, np.ndarray]:
    """Play game ``g`` among ``codes``' members ``who[g]`` (seat order), on every core.

    Give ``seeds`` (whole numbers below 2**32, one per game) for the compiled engine's
    own draws, or ``streams`` (one :class:`GameStreams` per game) to play exactly the
    draws the reference engine is given. Returns :data:`FIELDS` (games x players), plus
    ``rounds``, ``ended_early`` and, with ``trace=True``, ``trace``: the state after every
    round (see :mod:`monopoly_lesson.fast_game_loop` for its slots).
    """
    who = np.ascontiguousarray(who, dtype=np.int64)
    games, players = who.shape
    mode = 1 if streams is not None else 0
    faces, shuffles, uniforms = _stream_arrays(streams, players) if mode else _no_streams(players)
    seed_array = np.zeros(games, np.uint32) if seeds is None else np.asarray(seeds, np.uint32)
    results = np.zeros((games, 5 * players + 3), np.int64)
    traces = np.zeros((games, max_rounds, loop.SIZE) if trace else (1, 0, loop.SIZE), np.int64)
    loop.play_many(movement_tables(), codes.kind, codes.prob, codes.buy, codes.jail, who,
                   seed_array, faces, shuffles, uniforms, mode, max_rounds, results,
                   traces)  # fmt: skip
    if results[:, 5 * players + 2].any():
        raise StreamExhausted("a game needed more draws than its streams hold")
    out = {name: results[:, k * players : (k + 1) * players] for k, name in enumerate(FIELDS)}
    out["rounds"] = results[:, 5 * players]
    out["ended_early"] = results[:, 5 * players + 1].astype(bool)
    if trace:
        out["trace"] = traces
    return out


def _stream_arrays(
    streams: Sequence[GameStreams], players: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    faces = np.stack([s.faces for s in streams]).astype(np.int64)
    shuffles = np.stack([np.stack(s.shuffles) for s in streams]).astype(np.int64)
    uniforms = np.stack([s.uniforms[:players] for s in streams]).astype(np.float64)
    return faces, shuffles, uniforms


def _no_streams(players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (np.zeros((1, 0), np.int64), np.zeros((1, 2, 0, 16), np.int64),
            np.zeros((1, players, 0), np.float64))  # fmt: skip
