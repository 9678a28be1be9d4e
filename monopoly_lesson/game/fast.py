"""The fast whole-game engine: many games in one call, on every core.

The movement comes from the game roll table (:mod:`monopoly_lesson.game.roll_table`, the
movement rules enumerated); the money rules are :mod:`monopoly_lesson.game.fast_loop`'s,
compiled with numba. Strategies are the built-in ones (always, never, random:P,
heuristic, RGA, TGA, SGA) with the rules' defaults for the rest. Fed the same pre-drawn
streams (:class:`~monopoly_lesson.game.streams.GameStreams`), it plays exactly the
reference engine's games; with seeds it draws its own numbers, for speed.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numba import parallel_chunksize
from tqdm.auto import tqdm

from .. import engine_cache
from ..checks import (
    SEED_LIMIT,
    at_the_call,
    available_memory,
    check_fits,
    check_flag,
    check_max_rounds,
    check_seed,
)
from ..roll_table import STATES, state_of
from . import fast_loop as loop
from .chromosomes import BGA, BUY_SHAPE, CHROMOSOME_PLAYERS, EGA, GENE_MAX, RGA, SGA, TGA
from .dealer import Dealer
from .engine import GAME_MOVEMENT
from .lots import HOTELS, HOUSES
from .person import You
from .plugins import as_strategy
from .roll_table import EVENT_WIDTH, JAIL_CHOICES, OPS, game_roll_table
from .state import HOTEL, MAX_PLAYERS, MIN_PLAYERS, GameState
from .strategies import AlwaysBuy, Heuristic, NeverBuy, Passive, RandomBuy, Strategy
from .streams import GameStreams, StreamExhausted

__all__ = [
    "FIELDS",
    "TURNS_PER_CHUNK",
    "StrategyCodes",
    "check_game_seeds",
    "check_population",
    "check_seating",
    "fast_games",
    "genome_codes",
    "pack_movement",
    "play_one_tiny_game",
    "state_vector",
    "strategy_codes",
]

TURNS_PER_CHUNK = 2_000_000
"""The most turns one call of the compiled loop may have to play (games x max_rounds x
players, as if no game ended early): about a fifth of a second on one core (10 million
player-turns a second), under a second with trading, so that the progress bar moves and
Ctrl-C is seen within a second, whatever the call; few enough calls that the cores rarely
wait for a call's last games."""
STREAM_CHUNK = 64
"""Games per call of the compiled loop when it is fed streams (each game's own draws)."""
SHARED_BLOCKS = 4
"""The cores take a call's games a few blocks (:data:`~monopoly_lesson.game.fast_loop.
SEED_BLOCK` games each) at a time, as each is free, rather than half each: none waits long
for another's last games (a core the machine lends elsewhere for a moment, a long game)."""
FIELDS = ("finish", "lots", "monopolies", "net_worth", "cash", "bankrupt_round")
"""The per-seat results of :func:`fast_games`, each an array of shape (games, players)."""
assert len(FIELDS) == loop.SEAT_RESULTS
CARD_NUMBERS = np.arange(1, loop.DECK_CARDS + 1)
"""A deck's cards, numbered from 1: a shuffle is a permutation of them."""
CHROMOSOME_KINDS = {
    "rga": loop.RGA,
    "tga": loop.TGA,
    "sga": loop.TGA,
    "ega": loop.EGA,
    "bga": loop.BGA,
}
"""The code each chromosome plays as."""
assert [OPS[k] for k in ("end", "go", "land", "draw", "leave", "fee")] == [
    loop.END,
    loop.GO,
    loop.LAND,
    loop.DRAW,
    loop.LEAVE,
    loop.FEE,
]
assert BUY_SHAPE[0] * BUY_SHAPE[1] == loop.BUY_GENES
assert [loop.JAIL_SIDE[loop.RGA], loop.JAIL_SIDE[loop.TGA], loop.JAIL_SIDE[loop.EGA]] == [
    RGA.JAIL_SHAPE[0],
    TGA.JAIL_SHAPE[0],
    EGA.JAIL_SHAPE[0],
]
assert set(CHROMOSOME_KINDS) == set(CHROMOSOME_PLAYERS)
assert all(
    loop.GENE_WIDTHS[CHROMOSOME_KINDS[name]] == sum(r * c for r, c in kind.gene_tables().values())
    for name, kind in CHROMOSOME_PLAYERS.items()
)


def pack_movement() -> np.ndarray:
    """The game roll table in one int32 array, as the compiled loop reads it (``M_*``
    header): each leaf's first event, by cards drawn then roll (the rolls that draw no
    card together), and each event in one word."""
    table = game_roll_table(GAME_MOVEMENT)
    cards = (loop.DECK_CARDS, loop.DECK_CARDS)
    assert table.leaf.shape[2:] == (JAIL_CHOICES, *cards) and table.events.shape[1] == EVENT_WIDTH
    assert table.events.min() >= 0 and table.events.max() <= loop.EVENT_MASK
    rolls = table.leaf[..., 0, 0].size
    leaf = table.start[table.leaf.reshape(rolls, -1).T]  # (chance card x chest card, roll)
    events = table.events.astype(np.int32) << (loop.EVENT_BITS * np.arange(EVENT_WIDTH))
    parts = [table.dice_class, leaf, events.sum(axis=1), table.asks]
    header = loop.M_HEADER
    offsets = np.cumsum([header] + [part.size for part in parts])[:-1]
    m = np.concatenate([np.zeros(header, np.int32)] + [p.ravel().astype(np.int32) for p in parts])
    m[loop.M_CLASSES], m[loop.M_ROLLS] = table.leaf.shape[1], rolls
    m[[loop.M_DICE, loop.M_LEAF, loop.M_EVENTS, loop.M_ASKS]] = offsets
    return m


class StrategyCodes:
    """Strategies as the compiled loop reads them: a code per member and all their genes
    in one flat array, each member's at its own offset (only as many as its code reads).

    Made by :func:`strategy_codes` or :func:`genome_codes`; ``kind`` and ``genes`` may be
    replaced (e.g. two sets of codes joined by concatenating both), and are checked again.
    """

    def __init__(self, kind: np.ndarray, genes: np.ndarray) -> None:
        self.kind = kind
        self.genes = genes

    @property
    def kind(self) -> np.ndarray:
        """Each member's strategy code (``fast_loop.ALWAYS`` ... ``DEALER``)."""
        return self._kind

    @kind.setter
    def kind(self, kind: np.ndarray) -> None:
        kind = np.asarray(kind)
        if kind.ndim != 1 or kind.dtype.kind not in "iu":
            raise TypeError(
                f"codes' kind must be a 1-D array of whole numbers, got {kind.ndim}-D "
                f"{kind.dtype} values."
            )
        self._kind = np.ascontiguousarray(kind, np.int64)
        self._check_kind()

    def _check_kind(self) -> None:
        """Refuse codes with no members or a code the compiled loop does not have."""
        if not len(self._kind):
            raise ValueError("codes must have at least one member.")
        if self._kind.min() < 0 or self._kind.max() >= len(loop.GENE_WIDTHS):
            raise ValueError(
                f"codes' kind holds strategy codes from 0 to {len(loop.GENE_WIDTHS) - 1}, "
                f"got {self._kind.min()} to {self._kind.max()}."
            )

    @property
    def genes(self) -> np.ndarray:
        """Every member's genes, one after another (``fast_loop.GENE_WIDTHS`` each)."""
        return self._genes

    @genes.setter
    def genes(self, genes: np.ndarray) -> None:
        genes = np.asarray(genes)
        if genes.ndim != 1 or genes.dtype.kind not in "iuf":
            raise TypeError(
                f"codes' genes must be a 1-D array of numbers, got {genes.ndim}-D "
                f"{genes.dtype} values."
            )
        if genes.size and not (genes.min() >= 0 and genes.max() <= 1):  # NaN fails too
            raise ValueError(
                "codes' genes are probabilities and must be from 0 to 1, got "
                f"{genes[~((genes >= 0) & (genes <= 1))][0].item()!r}."
            )
        if genes.dtype != np.float64 or not genes.flags.c_contiguous or not genes.flags.writeable:
            genes = np.array(genes, np.float64)  # one machine-code version of the loop
        self._genes = genes

    @property
    def offsets(self) -> np.ndarray:
        """Where each member's genes start in :attr:`genes`."""
        widths = loop.GENE_WIDTHS[self._kind]
        return np.concatenate([[0], np.cumsum(widths[:-1])]).astype(np.int64)

    def __len__(self) -> int:
        """The number of members."""
        return len(self._kind)

    def check(self) -> None:
        """Refuse codes the compiled loop would misread: a code it does not have, or genes
        that do not match the members (e.g. after a replacement of one but not the other)."""
        self._check_kind()
        need = int(loop.GENE_WIDTHS[self._kind].sum())
        if self._genes.size != need:
            raise ValueError(
                f"codes of {len(self):,} members need {need:,} genes for their strategies, "
                f"got {self._genes.size:,}: join codes by concatenating both kind and genes."
            )


def strategy_codes(strategies: Sequence[object], what: str = "strategies") -> StrategyCodes:
    """The compiled loop's codes for ``strategies``: a list of names, Strategy objects or
    chromosome players, one member each (:func:`fast_games` seats them by index); an error
    names the argument ``what``."""
    if isinstance(strategies, (str, bytes)):
        raise TypeError(
            f"{what} must be a list of strategies (names, Strategy objects or chromosome "
            f"players), got the single string {strategies!r}: write [{strategies!r}]."
        )
    if not isinstance(strategies, (Sequence, np.ndarray)):
        raise TypeError(
            f"{what} must be a list of strategies (names, Strategy objects or chromosome "
            f"players), got {type(strategies).__name__}."
        )
    if not len(strategies):
        raise ValueError(f"{what} must hold at least one strategy, got an empty list.")
    try:
        members = [as_strategy(s) for s in strategies]
        kind = np.array([_kind_of(member) for member in members], np.int64)
    except (TypeError, ValueError) as error:
        raise type(error)(f"{what}: {error}") from None
    genes = [_genes_of(member) for member in members]
    return StrategyCodes(kind, np.concatenate(genes))


def _kind_of(member: Strategy) -> int:
    """The code a built-in strategy plays as, or a plain error for any other."""
    simple = {
        AlwaysBuy: loop.ALWAYS,
        NeverBuy: loop.NEVER,
        Heuristic: loop.HEURISTIC,
        RandomBuy: loop.RANDOM,
        RGA: loop.RGA,
        TGA: loop.TGA,
        SGA: loop.TGA,
        Passive: loop.PASSIVE,
        EGA: loop.EGA,
        BGA: loop.BGA,
        Dealer: loop.DEALER,
    }
    if isinstance(member, You):
        raise ValueError(
            "'you' is a person's seat: the fast engine plays programs only (a person plays in "
            "GameStepperState, GameStepper and play --you)."
        )
    if type(member) not in simple:
        raise ValueError(
            f"the fast engine plays the built-in strategies (always, never, random:P, "
            f"heuristic, dealer, rga, tga, sga, ega, bga, Passive, and the shipped evolved "
            f"players), not "
            f"{member.name!r}: use play_monopoly for it."
        )
    return simple[type(member)]


def _genes_of(member: Strategy) -> np.ndarray:
    """The genes the member's code reads, as probabilities (SGA's n/63)."""
    if type(member) is RandomBuy:
        return np.array([member.p])
    if type(member) is Passive:
        return np.array([float(member.buys)])
    if isinstance(member, RGA):
        scale = float(GENE_MAX) if type(member) is SGA else 1.0
        return np.concatenate([table.ravel() for table in member.gene_arrays()]) / scale
    return np.zeros(0)


def genome_codes(
    chromosome: str, buy: np.ndarray, jail: np.ndarray, *more: np.ndarray
) -> StrategyCodes:
    """The compiled loop's codes for a population of one chromosome (genes as arrays).

    ``buy`` is (population, 4, 40) and ``jail`` (population, J, J), J = 64 for "rga" and
    "ega", 4 for "tga" and "sga": probabilities from 0 to 1, SGA's whole numbers 0..63
    (read as n/63, as :class:`~monopoly_lesson.game.chromosomes.SGA` reads them); EGA's
    bid, reserve and trade genes follow as ``more`` (its ``gene_tables()``). When the
    tables are parts of one float array of genomes side by side (as the genetic algorithm
    cuts them), the codes use its memory and copy nothing: built once per generation, they
    serve every call of :func:`fast_games` for it.
    """
    tables = check_population(chromosome, buy, jail, *more, values=False)
    rows = _genome_rows(tables)
    if chromosome == "sga" or rows is None or not (rows.min() >= 0 and rows.max() <= 1):
        check_population(chromosome, *tables)  # table by table, naming a bad gene's place
    if rows is None:
        n, width = len(buy), sum(table[0].size for table in tables)
        check_fits(
            n * width * 8,
            f"the compiled codes of {n:,} {chromosome} players",
            f"at most {available_memory() // (width * 8):,} players fit",
        )
        rows = np.concatenate([table.reshape(n, -1) for table in tables], axis=1, dtype=float)
        if chromosome == "sga":
            rows /= GENE_MAX
    return StrategyCodes(np.full(len(buy), CHROMOSOME_KINDS[chromosome], np.int64), rows.ravel())


def check_population(
    chromosome: str, buy: np.ndarray, jail: np.ndarray, *more: np.ndarray, values: bool = True
) -> tuple[np.ndarray, ...]:
    """The chromosome's tables of genes (``buy``, ``jail``, then EGA's bid, reserve and
    trade) as arrays, or a plain error: each table's shape, one row per player,
    probabilities 0..1 (SGA: whole numbers 0..63; ``values=False``: the shapes only)."""
    if not isinstance(chromosome, str) or chromosome not in CHROMOSOME_PLAYERS:
        known = ", ".join(repr(name) for name in CHROMOSOME_PLAYERS)
        raise ValueError(f"chromosome must be one of {known}, got {chromosome!r}.")
    shapes = CHROMOSOME_PLAYERS[chromosome].gene_tables()
    given = (buy, jail, *more)
    if len(given) != len(shapes):
        raise ValueError(
            f"{chromosome} genes come in {len(shapes)} tables ({', '.join(shapes)}), got "
            f"{len(given)}."
        )
    tables = tuple(np.asarray(genes) for genes in given)
    for (what, shape), genes in zip(shapes.items(), tables, strict=True):
        if genes.ndim != 3 or genes.shape[1:] != shape or not len(genes):
            raise ValueError(
                f"{chromosome} {what} genes must have shape (population, {shape[0]}, "
                f"{shape[1]}) with at least one player, got shape {genes.shape}."
            )
    if any(len(genes) != len(tables[0]) for genes in tables):
        sizes = " and ".join(f"{len(genes):,}" for genes in tables)
        raise ValueError(
            f"{' and '.join(shapes)} genes must be of the same population, got {sizes} players."
        )
    for what, genes in zip(shapes, tables, strict=True):
        if values:
            _check_gene_values(chromosome, what, genes)
    return tables


def _check_gene_values(chromosome: str, what: str, genes: np.ndarray) -> None:
    """Refuse genes outside the chromosome's values, naming the first one and its place."""
    whole = chromosome == "sga"
    label, high = f"{chromosome} {what} genes", GENE_MAX if whole else 1
    if genes.dtype.kind not in ("iu" if whole else "iuf"):
        allowed = f"whole numbers from 0 to {GENE_MAX}" if whole else "probabilities 0 to 1"
        raise TypeError(f"{label} must be {allowed}, got {genes.dtype} values.")
    if not (genes.min() >= 0 and genes.max() <= high):  # NaN fails too
        where = tuple(int(i) for i in np.argwhere(~((genes >= 0) & (genes <= high)))[0])
        raise ValueError(
            f"{label} must be from 0 to {high}, got {genes[where].item()!r} at {where}."
        )


def _genome_rows(tables: tuple[np.ndarray, ...]) -> np.ndarray | None:
    """The (population, genes) float array the ``tables`` were cut from side by side, if
    they were (as the genetic algorithm cuts its genomes), else None."""
    rows = tables[0].base
    n, width = len(tables[0]), sum(table[0].size for table in tables)
    if not isinstance(rows, np.ndarray) or rows.shape != (n, width):
        return None
    if rows.dtype != np.float64 or not rows.flags.c_contiguous or not rows.flags.writeable:
        return None
    start, cut = rows.__array_interface__["data"][0], 0
    for table in tables:
        if table.base is not rows or table.__array_interface__["data"][0] != start + 8 * cut:
            return None
        steps = (8 * width, 8 * table.shape[2], 8)  # a single row or column may step anyhow
        if any(n > 1 and a != b for n, a, b in zip(table.shape, table.strides, steps, strict=True)):
            return None
        cut += table[0].size
    return rows


def check_seating(who: object, members: int) -> np.ndarray:
    """``who`` as a (games, players) int64 array, or a plain error: 2 to 8 players per
    game, at least one game, every entry a member's index from 0 to ``members - 1``."""
    seats = np.asarray(who)
    if seats.dtype.kind not in "iu" or seats.ndim != 2:
        raise TypeError(
            f"who must be a 2-D array of whole numbers (one row per game, the members' "
            f"indices in seat order), got {seats.ndim}-D {seats.dtype} values."
        )
    games, players = seats.shape
    if not MIN_PLAYERS <= players <= MAX_PLAYERS or not games:
        raise ValueError(
            f"who must have at least one game and {MIN_PLAYERS} to {MAX_PLAYERS} players "
            f"(columns), got shape {seats.shape}."
        )
    if seats.min() < 0 or seats.max() >= members:
        where = tuple(int(i) for i in np.argwhere((seats < 0) | (seats >= members))[0])
        raise ValueError(
            f"who{list(where)} is {seats[where]}, but there are {members:,} members: each "
            f"entry must be a member's index from 0 to {members - 1:,}."
        )
    return np.ascontiguousarray(seats, np.int64)


def check_game_seeds(seeds: object, games: int) -> np.ndarray:
    """``seeds`` as a uint32 array, or a plain error: one whole number from 0 to 2**32 - 1
    per game (:func:`monopoly_lesson.checks.check_seed`, for many at once)."""
    values = np.asarray(seeds)
    if values.dtype == object and values.ndim == 1:
        values = np.array([check_seed(s, "each seed") for s in values.tolist()], np.uint64)
    if values.ndim != 1 or values.dtype.kind not in "iu":
        raise TypeError(
            f"seeds must be a list of whole numbers from 0 to 2**32 - 1, one per game, got "
            f"{values.ndim}-D {values.dtype} values."
        )
    if len(values) != games:
        raise ValueError(
            f"seeds must hold one seed per game: {games:,} games, got {len(values):,}."
        )
    if len(values) and (values.min() < 0 or values.max() >= SEED_LIMIT):
        bad = values[(values < 0) | (values >= SEED_LIMIT)][0]
        raise ValueError(f"each seed must be from 0 to 2**32 - 1 (4,294,967,295), got {bad}.")
    return values.astype(np.uint32)


def fast_games(
    codes: StrategyCodes,
    who: np.ndarray,
    *,
    seeds: Sequence[int] | np.ndarray | None = None,
    streams: Sequence[GameStreams] | None = None,
    starts: np.ndarray | None = None,
    max_rounds: int = 100,
    trace: bool = False,
    progress: bool = False,
    trading: bool = False,
) -> dict[str, np.ndarray]:
    """Play game ``g`` among ``codes``' members ``who[g]`` (seat order), on every core.

    Give ``seeds`` (one whole number from 0 to 2**32 - 1 per game) for the compiled
    engine's own draws, or ``streams`` (one :class:`GameStreams` per game) to play exactly
    the draws the reference engine is given. With ``starts`` (one :func:`state_vector` per
    game, a row each) game ``g`` continues the game in progress ``starts[g]`` instead of
    starting on Go. Returns :data:`FIELDS` (games x players), plus
    ``rounds``, ``ended_early``, ``turns`` (all players' turns), ``trades`` (the trades made;
    ``trading=True`` plays with trading, every strategy by the default policy) and, with
    ``trace=True``,
    ``trace``: the state after every round played (slots named in
    :mod:`monopoly_lesson.game.fast_loop`; an owner or a bankrupt seat numbered as the
    reference engine numbers them, seats from 1 and the bank 0; later rounds all 0).
    Games are played in chunks of at most :data:`TURNS_PER_CHUNK` turns, so Ctrl-C stops
    a call within a second; ``progress=True`` shows a progress bar.
    """
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        if not isinstance(codes, StrategyCodes):
            raise TypeError(
                f"codes must be strategy_codes([...]) or genome_codes(...), got "
                f"{type(codes).__name__}."
            )
        codes.check()
        who = check_seating(who, len(codes))
        max_rounds = check_max_rounds(max_rounds)
        trace, progress = check_flag(trace, "trace"), check_flag(progress, "progress")
        trading = check_flag(trading, "trading")
        games, players = who.shape
        if (seeds is None) == (streams is None):
            raise ValueError(
                "give either seeds (one whole number from 0 to 2**32 - 1 per game) or streams "
                "(one GameStreams per game), not " + ("both." if seeds is not None else "neither.")
            )
        if streams is not None:
            streams = _check_streams(streams, games, players)
            seed_array = np.zeros(games, np.uint32)
        else:
            seed_array = check_game_seeds(seeds, games)
        start_rows = _NO_STARTS if starts is None else _check_starts(starts, games, players)
        out = _results(games, players, max_rounds, trace)
    step = _chunk(players, max_rounds, streams is not None)
    at = codes.offsets
    with tqdm(total=games, unit="game", disable=not progress, mininterval=0.2) as bar:
        for k in range(0, games, step):
            part = slice(k, min(k + step, games))
            draws = _stream_arrays(streams[part], players) if streams else _NO_STREAMS
            with engine_cache.first_call("game"):  # compiled, or waited for, and said so
                _play(
                    codes,
                    at,
                    who[part],
                    seed_array[part],
                    start_rows[part] if starts is not None else _NO_STARTS,
                    draws,
                    (max_rounds, trading),
                    out["trace"][part] if trace else _NO_TRACE,
                    out,
                    part,
                )
            bar.update(part.stop - part.start)
    return out


def play_one_tiny_game() -> None:
    """Two always-buy players for one round: numba compiles the fast whole game (or loads
    it from its cache, or waits for the process compiling it), as little as it plays."""
    fast_games(strategy_codes(["always", "always"]), np.array([[0, 1]]), seeds=[0], max_rounds=1)


def _chunk(players: int, max_rounds: int, streams: bool) -> int:
    """Games per call of the compiled loop: at most :data:`TURNS_PER_CHUNK` turns."""
    games = max(1, TURNS_PER_CHUNK // (players * max_rounds))
    return min(games, STREAM_CHUNK) if streams else games


def _results(games: int, players: int, max_rounds: int, trace: bool) -> dict[str, np.ndarray]:
    """The arrays :func:`fast_games` returns, allocated once its memory is known to fit."""
    per_game = 8 * (len(FIELDS) * players + 3) + 1 + (8 * max_rounds * loop.SIZE if trace else 0)
    fit = available_memory() // per_game
    check_fits(
        games * per_game,
        f"{games:,} games" + (" with trace=True" if trace else ""),
        f"at most {fit:,} fit: play them in parts",
    )
    out = {name: np.zeros((games, players), np.int64) for name in FIELDS}
    out["rounds"], out["turns"] = np.zeros(games, np.int64), np.zeros(games, np.int64)
    out["trades"] = np.zeros(games, np.int64)
    out["ended_early"] = np.zeros(games, bool)
    if trace:
        out["trace"] = np.zeros((games, max_rounds, loop.SIZE), np.int64)
    return out


def _number_seats_from_1(traces: np.ndarray, first: np.ndarray, rounds: np.ndarray) -> None:
    """Renumber, in the rounds played (from round ``first`` to ``rounds``), the slots that
    name a seat (owners, bankrupt seats) from the loop's (seats from 0, the bank -1) to the
    reference engine's (from 1, bank 0)."""
    row = np.arange(traces.shape[1])[None, :]
    played = (row >= first[:, None] - 1) & (row < rounds[:, None])
    owners = loop.OWNER + loop.LOTS
    traces[:, :, owners] += played[:, :, None]
    gone = np.arange(loop.MAXP)[None, None, :] < traces[:, :, loop.NGONE, None]
    traces[:, :, loop.GONE : loop.GONE + loop.MAXP] += gone


_NO_STREAMS = (np.zeros((1, 0), np.int64), np.zeros((1, 0)), np.zeros(3, np.int64))
_NO_STARTS = np.zeros((1, 0), np.int64)
_NO_TRACE = np.zeros((1, 0, loop.SIZE), np.int64)


def state_vector(state: GameState) -> np.ndarray:
    """The compiled loop's state vector of the game in progress ``state`` (a reference
    engine's :class:`~monopoly_lesson.game.state.GameState` between two turns: the round
    played and the seat whose turn comes next), as :func:`fast_games` takes it in ``starts``:
    cash, places and jail, the lots, the bank, the cards held, each deck's cards still to
    deal (in their order) and the bankruptcies so far. The loop adds the rest (the players'
    strategies, the draws)."""
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState (a game's .state), got {type(state).__name__}.")
    if len(state.decks) != loop.DECKS:
        raise ValueError(
            f"state must hold the game's {loop.DECKS} decks (Chance, then Community Chest), "
            f"got {len(state.decks)}."
        )
    s = np.zeros(loop.SIZE, np.int64)
    for p, player in enumerate(state.players):
        s[loop.CASH + p], s[loop.ALIVE + p] = player.cash, int(player.in_game)
        s[loop.ST + p] = state_of(player.token)
        s[loop.NCARDS + p] = len(player.jail_cards)
    s[loop.OWNER : loop.OWNER + loop.SPACES] = loop.BANK
    for space, lot in state.lots.items():
        s[loop.OWNER + space] = loop.BANK if lot.owner is None else lot.owner - 1
        s[loop.MORT + space], s[loop.BLD + space] = int(lot.mortgaged), lot.buildings
    s[loop.HOUSES_LEFT], s[loop.HOTELS_LEFT] = state.bank_houses, state.bank_hotels
    names = list(state.decks)
    for d, deck in enumerate(state.decks.values()):
        pile = list(reversed(deck.to_deal))  # the next card last
        s[loop.PILE + loop.DECK_CARDS * d : loop.PILE + loop.DECK_CARDS * d + len(pile)] = pile
        s[loop.PLEN + d] = len(pile)
        for card in deck.held:
            s[loop.HELD + (loop.DECK_CARDS + 1) * d + card] = 1
    for p, player in enumerate(state.players):
        for k, (name, card) in enumerate(player.jail_cards):
            s[loop.CARDS + loop.DECKS * p + k] = names.index(name) * loop.HELD_CODE + card
    for k, (seat, rnd, _) in enumerate(state.bankruptcies):
        s[loop.GONE + k], s[loop.BROUND + seat - 1] = seat - 1, rnd
    s[loop.NGONE] = len(state.bankruptcies)
    s[loop.ROUND], s[loop.FIRST] = state.round, state.turn - 1
    return s


def _check_starts(starts: object, games: int, players: int) -> np.ndarray:
    """``starts`` as a (games, SIZE) int64 array, or a plain error: one state vector per
    game (:func:`state_vector`), of ``players`` players, each slot the loop reads as an
    index within its bounds."""
    rows = np.asarray(starts)
    if rows.ndim != 2 or rows.dtype.kind not in "iu" or rows.shape[1] != loop.SIZE:
        raise TypeError(
            f"starts must hold one state_vector(game.state) per game, a ({games:,}, "
            f"{loop.SIZE}) array of whole numbers, got a {rows.ndim}-D {rows.dtype} array of "
            f"shape {rows.shape}."
        )
    if len(rows) != games:
        raise ValueError(
            f"starts must hold one state vector per game: {games:,} games, got {len(rows):,}."
        )
    rows = np.ascontiguousarray(rows, np.int64)
    for what, first, count, low, high in _start_bounds(players):
        values = rows[:, first : first + count]
        if not ((values >= low) & (values <= high)).all():
            raise ValueError(
                f"starts: each game's {what} must be from {low} to {high} (a state_vector of "
                f"a game of {players} players), got {values[(values < low) | (values > high)][0]}."
            )
    for what, wrong in _start_lists(rows, players).items():
        if wrong.any():
            raise ValueError(f"starts: a game's {what} are not those of a state_vector.")
    return rows


def _start_lists(rows: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """Where the lists in ``rows`` (the decks' cards to deal, the cards held, the bankrupt
    seats) hold, within their lengths, a value the loop would misread."""
    games, decks, cards = len(rows), loop.DECKS, loop.DECK_CARDS
    deal = rows[:, loop.PILE : loop.PILE + decks * cards].reshape(games, decks, cards)
    dealt = np.arange(cards) < rows[:, loop.PLEN : loop.PLEN + decks, None]
    held = rows[:, loop.CARDS : loop.CARDS + decks * loop.MAXP].reshape(games, loop.MAXP, decks)
    kept = np.arange(decks) < rows[:, loop.NCARDS : loop.NCARDS + loop.MAXP, None]
    card = held % loop.HELD_CODE
    gone = rows[:, loop.GONE : loop.GONE + loop.MAXP]
    went = np.arange(loop.MAXP) < rows[:, loop.NGONE, None]
    return {
        "cards still to deal": ((deal < 1) | (deal > cards)) & dealt,
        "cards held": ((held < 0) | (held >= decks * loop.HELD_CODE) | (card < 1) | (card > cards))
        & kept,
        "bankrupt seats": ((gone < 0) | (gone >= players)) & went,
    }


def _start_bounds(players: int) -> list[tuple[str, int, int, int, int]]:
    """The slots of a start that the loop reads as indices: (what, first slot, slots, lowest,
    highest value)."""
    return [
        ("cash", loop.CASH, players, 0, 2**40),
        ("roll state", loop.ST, players, 0, STATES - 1),
        ("players in the game", loop.ALIVE, players, 0, 1),
        ("players beyond its seats", loop.ALIVE + players, loop.MAXP - players, 0, 0),
        ("owners", loop.OWNER, loop.SPACES, loop.BANK, players - 1),
        ("mortgages", loop.MORT, loop.SPACES, 0, 1),
        ("buildings", loop.BLD, loop.SPACES, 0, HOTEL),
        ("bank's houses", loop.HOUSES_LEFT, 1, 0, HOUSES),
        ("bank's hotels", loop.HOTELS_LEFT, 1, 0, HOTELS),
        ("numbers of cards held", loop.NCARDS, players, 0, loop.DECKS),
        ("numbers of cards to deal", loop.PLEN, loop.DECKS, 0, loop.DECK_CARDS),
        ("held cards", loop.HELD, loop.DECKS * (loop.DECK_CARDS + 1), 0, 1),
        ("number of bankrupt players", loop.NGONE, 1, 0, players),
        ("round", loop.ROUND, 1, 1, 2**40),
        ("seat to move", loop.FIRST, 1, 0, players - 1),
    ]


def _check_streams(streams: object, games: int, players: int) -> list[GameStreams]:
    """``streams`` as a list, or a plain error: one GameStreams per game, all of one length,
    six-sided dice, whole-deck shuffles, uniforms in [0, 1) for every player."""
    if not isinstance(streams, Sequence) or not all(isinstance(s, GameStreams) for s in streams):
        raise TypeError("streams must be a list of GameStreams, one per game.")
    if len(streams) != games:
        raise ValueError(
            f"streams must hold one GameStreams per game: {games:,} games, got {len(streams):,}."
        )
    first = streams[0]
    shape = (first.faces.shape, first.shuffles[0].shape, first.shuffles[1].shape)
    for s in streams:
        if (s.faces.shape, s.shuffles[0].shape, s.shuffles[1].shape) != shape or (
            s.uniforms.shape[1:] != first.uniforms.shape[1:]
        ):
            raise ValueError("streams must all be of one length (draw them alike).")
        if s.uniforms.ndim != 2 or len(s.uniforms) < players:
            raise ValueError(f"each game's streams need uniforms for its {players} players.")
        faces, uniforms = s.faces, s.uniforms[:players]
        if faces.dtype.kind not in "iu" or not 1 <= faces.min() <= faces.max() <= 6:
            raise ValueError("the fast engine rolls six-sided dice: faces must be 1 to 6.")
        for deck in s.shuffles:
            if (
                deck.ndim != 2
                or deck.shape[1] != loop.DECK_CARDS
                or (
                    len(deck) and (np.sort(deck, axis=1) != np.arange(1, loop.DECK_CARDS + 1)).any()
                )
            ):
                raise ValueError(
                    f"each deck shuffle must be a permutation of the cards 1 to {loop.DECK_CARDS}."
                )
        if uniforms.size and not (uniforms.min() >= 0 and uniforms.max() < 1):
            raise ValueError("uniforms must be numbers from 0 to 1 (1 excluded).")
    return list(streams)


def _stream_arrays(
    streams: Sequence[GameStreams], players: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mode 1's arrays: each game's faces then shuffles, its uniforms, and their lengths."""
    ints = np.stack([np.concatenate([s.faces, np.stack(s.shuffles).ravel()]) for s in streams])
    uniforms = np.stack([s.uniforms[:players].ravel() for s in streams]).astype(np.float64)
    first = streams[0]
    lengths = np.array([first.faces.size, first.shuffles[0].shape[0], first.uniforms.shape[1]])
    return ints.astype(np.int64), uniforms, lengths.astype(np.int64)


def _play(codes, at, who, seeds, starts, draws, rules, traces, out, part):  # type: ignore[no-untyped-def]
    """One call of the compiled loop (``rules``: the round limit and 1 for trading); its
    results are copied into ``out[part]``."""
    games, players = who.shape
    max_rounds, trading = rules
    ints, uniforms, lengths = draws
    mode = 0 if ints.shape[1] == 0 else 1
    results = np.zeros((games, loop.SEAT_RESULTS * players + loop.GAME_RESULTS), np.int64)
    with parallel_chunksize(SHARED_BLOCKS):
        loop.play_many(
            _movement(),
            codes.genes,
            at,
            codes.kind,
            who,
            seeds,
            starts,
            ints,
            uniforms,
            lengths,
            mode,
            max_rounds,
            int(trading),
            results,
            traces,
        )
    at_end = loop.SEAT_RESULTS * players
    if results[:, at_end + loop.R_EXHAUSTED].any():
        raise StreamExhausted("a game needed more draws than its streams hold")
    for k, name in enumerate(FIELDS):
        out[name][part] = results[:, k * players : (k + 1) * players]
    out["rounds"][part] = results[:, at_end + loop.R_ROUNDS]
    if traces.shape[1]:
        first = starts[:, loop.ROUND] if starts.shape[1] else np.ones(games, np.int64)
        _number_seats_from_1(traces, first, out["rounds"][part])
    out["ended_early"][part] = results[:, at_end + loop.R_EARLY].astype(bool)
    out["turns"][part] = results[:, at_end + loop.R_TURNS]
    out["trades"][part] = results[:, at_end + loop.R_TRADES]


@functools.lru_cache(maxsize=1)
def _movement() -> np.ndarray:
    return pack_movement()
