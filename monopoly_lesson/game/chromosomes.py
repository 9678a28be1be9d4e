"""The genetic-algorithm players of Mukhar and Kalita: strategies whose decisions are genes.

A chromosome player answers three questions from tables of numbers, its genes (the game
rules page, ``notebooks/game_rules.md``, "The genetic-algorithm players"); the other
decisions are the rules' defaults.

- **buy** genes: a 4 x 40 array of probabilities. The row is the *ownership state* of the
  lot's group (:func:`ownership_state`): nobody owns a lot of it, only the player does,
  exactly one other player does, two or more others do. The column is the space (space 1
  is column 0); columns of spaces that are not lots are never read. The same gene
  decides the auction: bid the price (capped at the cash) or nothing.
- **jail** genes: the probability of leaving jail at once (card or $50). :class:`RGA`
  indexes a 64 x 64 array by which west and which north streets others own
  (:func:`jail_index`); :class:`TGA` and :class:`SGA` a 4 x 4 array by which of the
  purple, orange, red and yellow monopolies another player holds
  (:func:`monopoly_jail_index`).

A gene is used as a probability, drawn afresh each time: ``me.rng.random() < gene``.
:class:`SGA` stores each gene as a 6-bit whole number 0..63 (read as n/63), and its whole
genome is one bit string (:attr:`SGA.bits`), which the genetic algorithm mutates and
crosses over bit by bit.

>>> player = TGA.random(seed=1)
>>> player.buy_genes.shape, player.jail_genes.shape
((4, 40), (4, 4))
>>> SGA.from_bits(SGA.random(seed=2).bits).bits == SGA.random(seed=2).bits
True
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..checks import at_the_call, seed_or_fresh
from ..starter import NUM_SPACES, space_name
from .buildings import why_not_build
from .dealer import Dealer, what_it_does
from .lots import GROUPS, lots
from .state import (
    GROUP,
    GROUP_SPACES,
    HOTEL,
    HOUSE_COST,
    LOT_SPACES,
    PRICE,
    STREET_GROUPS,
    GameView,
    OwnView,
    PlayerState,
    PlayerView,
    ReadableGame,
)
from .strategies import (
    COMPLETES_ONE,
    RESERVE,
    Strategy,
    completion_swaps,
    default_build,
    groups_gained,
    partners_to_ask,
)
from .trade import Trade

__all__ = [
    "BGA",
    "BID_GROUPS",
    "BID_SCALE",
    "BUY_SHAPE",
    "CHROMOSOME_PLAYERS",
    "EGA",
    "GENE_BITS",
    "GENE_MAX",
    "NORTH_STREETS",
    "OWNERSHIP_STATES",
    "RESERVE_SCALE",
    "RGA",
    "SGA",
    "TGA",
    "TRADE_ROWS",
    "TRADE_SCALE",
    "VALUE_ROWS",
    "WEST_STREETS",
    "held_by_another",
    "jail_index",
    "monopoly_jail_index",
    "ownership_state",
]

OWNERSHIP_STATES = ("nobody", "only_me", "one_other", "two_or_more")
"""The four ownership states of a lot's group, the rows of the buy genes (0 to 3)."""
BUY_SHAPE = (len(OWNERSHIP_STATES), NUM_SPACES)
"""The buy genes' shape: one row per ownership state, one column per space (space - 1)."""
WEST_STREETS = (12, 14, 15, 17, 19, 20)
"""The purple and orange streets: bit k of RGA's west jail index is the k-th of them."""
NORTH_STREETS = (22, 24, 25, 27, 28, 30)
"""The red and yellow streets: bit k of RGA's north jail index is the k-th of them."""
GENE_BITS = 6
"""Bits in one SGA gene."""
GENE_MAX = 2**GENE_BITS - 1
"""The largest SGA gene, 63: a gene ``n`` is the probability ``n / 63``."""
BID_GROUPS = tuple(GROUPS)
"""The columns of EGA's bid genes: the eight colour groups, then railroad and utility."""
BID_SCALE = 2
"""EGA's largest bid, as a multiple of the lot's price (a bid gene of 1)."""
RESERVE_SCALE = 1000
"""EGA's largest build reserve, in dollars (a reserve gene of 1)."""
TRADE_SCALE = 500
"""EGA's trade genes run from -$500 (a gene of 0) to +$500 (a gene of 1)."""
VALUE_ROWS = ("completes", "blocks")
"""The rows of BGA's value genes: a lot that completes a colour group of its own, one that
completes another player's."""
TRADE_ROWS = ("pay", "keep")
"""The rows of EGA's trade genes, one column per colour group (:data:`~monopoly_lesson.
game.state.STREET_GROUPS`): the most cash it pays in a trade that completes that group, and
the least net cash it takes to give up a lot of that group."""

_P = TypeVar("_P", bound="RGA")


# ---------------------------------------------------------------------------
# What the genes are indexed by
# ---------------------------------------------------------------------------


def ownership_state(game: ReadableGame, me: PlayerState | PlayerView, space: int) -> int:
    """The row of the buy genes for the lot on ``space``: 0 nobody owns a lot of its group,
    1 only ``me`` does, 2 exactly one other player does (``me`` may own some too), 3 two or
    more other players do."""
    others = set()
    mine = False
    for lot_space in GROUP_SPACES[GROUP[space]]:
        owner = game.lots[lot_space].owner
        if owner == me.seat:
            mine = True
        elif owner is not None:
            others.add(owner)
    if len(others) >= 2:
        return 3
    if others:
        return 2
    return 1 if mine else 0


def jail_index(game: ReadableGame, me: PlayerState | PlayerView) -> tuple[int, int]:
    """RGA's jail cell ``(west, north)``: bit k of ``west`` is set when another player owns
    the k-th street of :data:`WEST_STREETS` (bit 0 the least significant), and likewise
    ``north`` for :data:`NORTH_STREETS`."""
    return _owned_by_others(game, me, WEST_STREETS), _owned_by_others(game, me, NORTH_STREETS)


def _owned_by_others(
    game: ReadableGame, me: PlayerState | PlayerView, spaces: tuple[int, ...]
) -> int:
    """A number whose bit k is set when a player other than ``me`` owns ``spaces[k]``."""
    bits = 0
    for bit, space in enumerate(spaces):
        owner = game.lots[space].owner
        if owner is not None and owner != me.seat:
            bits |= 1 << bit
    return bits


def held_by_another(game: ReadableGame, me: PlayerState | PlayerView, group: str) -> bool:
    """Whether one player other than ``me`` holds ``group`` as a complete group (a monopoly)."""
    owner = game.lots[GROUP_SPACES[group][0]].owner
    return owner is not None and owner != me.seat and game.holds_complete_group(owner, group)


def monopoly_jail_index(game: ReadableGame, me: PlayerState | PlayerView) -> tuple[int, int]:
    """TGA's and SGA's jail cell ``(west, north)``: ``west`` has bit 0 set when another
    player holds the purple monopoly, bit 1 the orange; ``north`` bit 0 red, bit 1 yellow."""
    west = held_by_another(game, me, "purple") + 2 * held_by_another(game, me, "orange")
    north = held_by_another(game, me, "red") + 2 * held_by_another(game, me, "yellow")
    return west, north


# ---------------------------------------------------------------------------
# The players
# ---------------------------------------------------------------------------


def _read_only(array: np.ndarray) -> np.ndarray:
    array = array.copy()
    array.setflags(write=False)
    return array


def _as_array(values: ArrayLike, what: str, shape: tuple[int, int]) -> np.ndarray:
    """``values`` as a numpy array of ``shape``; a plain error naming ``what`` if not."""
    try:
        array = np.asarray(values)
    except ValueError:
        raise ValueError(
            f"{what} must be a table of shape {shape}, but its rows have different lengths."
        ) from None
    if array.shape != shape:
        raise ValueError(f"{what} must have shape {shape}, got shape {array.shape}.")
    return array


class RGA(Strategy):
    """Real-valued genes: buy by ownership state (4 x 40), leave jail by which west and
    north streets others own (64 x 64), each a probability from 0 to 1."""

    name = "rga"
    JAIL_SHAPE: tuple[int, int] = (2 ** len(WEST_STREETS), 2 ** len(NORTH_STREETS))
    """The jail genes' shape: west index x north index."""
    JAIL_LABELS: tuple[tuple[object, ...], tuple[object, ...]] = (
        tuple(range(JAIL_SHAPE[0])),
        tuple(range(JAIL_SHAPE[1])),
    )
    """The labels of the jail genes' rows (west) and columns (north) in :meth:`genes`."""

    @classmethod
    def gene_tables(cls) -> dict[str, tuple[int, int]]:
        """The player's tables of genes, in genome order (:meth:`from_genes`'s), by shape."""
        return {"buy": BUY_SHAPE, "jail": cls.JAIL_SHAPE}

    def __init__(self, buy: ArrayLike, jail: ArrayLike) -> None:
        self.buy_genes = _read_only(self._checked(buy, "buy", BUY_SHAPE))
        """The buy genes as stored (read-only): row ownership state, column space - 1."""
        self.jail_genes = _read_only(self._checked(jail, "jail", self.JAIL_SHAPE))
        """The jail genes as stored (read-only): row west index, column north index."""
        # What the decisions read, as plain nested tuples: faster than numpy one at a time.
        self._buy = tuple(map(tuple, self._probabilities(self.buy_genes).tolist()))
        self._jail = tuple(map(tuple, self._probabilities(self.jail_genes).tolist()))

    def gene_arrays(self) -> tuple[np.ndarray, ...]:
        """Its genes as stored, one array per table of :meth:`gene_tables`, in that order."""
        return self.buy_genes, self.jail_genes

    # -- making one ------------------------------------------------------------------

    @classmethod
    def from_genes(cls: type[_P], buy: ArrayLike, jail: ArrayLike) -> _P:
        """A player with these genes (checked: shapes and values; see the class docstring)."""
        return cls(buy, jail)

    @classmethod
    def random(cls: type[_P], seed: int | None = 0) -> _P:
        """A player with uniform random genes; the same ``seed`` (a whole number of 0 or more;
        None: fresh genes) gives the same genes.

        >>> np.array_equal(RGA.random(seed=3).buy_genes, RGA.random(seed=3).buy_genes)
        True
        """
        with at_the_call():
            rng = np.random.default_rng(seed_or_fresh(seed, limit=None))
        return cls(cls._random_genes(rng, BUY_SHAPE), cls._random_genes(rng, cls.JAIL_SHAPE))

    @classmethod
    def _random_genes(cls, rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
        return rng.random(shape)

    @classmethod
    def _checked(cls, values: ArrayLike, what: str, shape: tuple[int, int]) -> np.ndarray:
        """The genes as a float array, or a plain error: numbers from 0 to 1, right shape."""
        label = f"{cls.__name__} {what} genes"
        array = _as_array(values, label, shape)
        if array.dtype.kind not in "iuf":
            raise TypeError(
                f"{label} must be numbers (probabilities from 0 to 1), got {array.dtype} values."
            )
        bad = np.argwhere(~((array >= 0) & (array <= 1)))
        if len(bad):
            where = tuple(int(i) for i in bad[0])
            raise ValueError(
                f"{label} are probabilities and must be from 0 to 1, "
                f"got {array[where]!r} at {where}."
            )
        return array.astype(float)

    @staticmethod
    def _probabilities(genes: np.ndarray) -> np.ndarray:
        """The genes as probabilities (real-valued genes are probabilities already)."""
        return genes

    # -- the decisions ---------------------------------------------------------------

    def jail_cell(self, game: GameView, me: OwnView) -> tuple[int, int]:
        """The cell of the jail genes that applies now (:func:`jail_index` for RGA)."""
        return jail_index(game, me)

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """A fresh draw from the buy gene of the group's ownership state and this space."""
        return me.rng.random() < self._buy[ownership_state(game, me, space)][space - 1]

    def bid(self, game: GameView, me: OwnView, space: int) -> int:
        """The price (capped at the cash) if a fresh draw from the same buy gene says buy."""
        return min(PRICE[space], me.cash) if self.buy(game, me, space) else 0

    def leave_jail(self, game: GameView, me: OwnView) -> bool:
        """A fresh draw from the jail gene of the board's present state: leave at once?"""
        west, north = self.jail_cell(game, me)
        return me.rng.random() < self._jail[west][north]

    # -- reading the genes -----------------------------------------------------------

    def genes(self) -> dict[str, pd.DataFrame]:
        """The genes as probabilities in two readable tables, ``"buy"`` and ``"jail"``.

        >>> RGA.random(seed=0).genes()["buy"].columns.tolist()
        ['title', 'group', 'nobody', 'only_me', 'one_other', 'two_or_more']
        """
        columns = [space - 1 for space in LOT_SPACES]
        buy = pd.DataFrame(
            self._probabilities(self.buy_genes)[:, columns].T,
            index=pd.Index(LOT_SPACES, name="space"),
            columns=list(OWNERSHIP_STATES),
        )
        buy.insert(0, "group", [GROUP[space] for space in LOT_SPACES])
        buy.insert(0, "title", lots.loc[list(LOT_SPACES), "title"].to_numpy())
        west, north = self.JAIL_LABELS
        jail = pd.DataFrame(
            self._probabilities(self.jail_genes),
            index=pd.Index(west, name="west"),
            columns=pd.Index(north, name="north"),
        )
        return {"buy": buy, "jail": jail}

    def __repr__(self) -> str:
        mean = self._probabilities(self.buy_genes)[:, [s - 1 for s in LOT_SPACES]].mean()
        return (
            f"<{self.name} chromosome player: buy genes {BUY_SHAPE}, jail genes "
            f"{self.JAIL_SHAPE}, mean buy probability {mean:.2f}>"
        )


class TGA(RGA):
    """As :class:`RGA`, but leave jail by which of the purple, orange (west), red and
    yellow (north) monopolies another player holds: 4 x 4 jail genes."""

    name = "tga"
    JAIL_LABELS = (
        ("none", "purple", "orange", "purple+orange"),
        ("none", "red", "yellow", "red+yellow"),
    )
    JAIL_SHAPE = (len(JAIL_LABELS[0]), len(JAIL_LABELS[1]))

    def jail_cell(self, game: GameView, me: OwnView) -> tuple[int, int]:
        """The cell of the jail genes that applies now (:func:`monopoly_jail_index`)."""
        return monopoly_jail_index(game, me)


class SGA(TGA):
    """As :class:`TGA`, but each gene is a 6-bit whole number 0..63 (read as n/63) and the
    whole genome is one bit string, :attr:`bits`."""

    name = "sga"

    @classmethod
    def _random_genes(cls, rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
        return rng.integers(0, GENE_MAX + 1, size=shape)

    @classmethod
    def _checked(cls, values: ArrayLike, what: str, shape: tuple[int, int]) -> np.ndarray:
        """The genes as an integer array, or a plain error: whole numbers 0..63, right shape."""
        label = f"SGA {what} genes"
        array = _as_array(values, label, shape)
        if array.dtype.kind not in "iu":
            raise TypeError(
                f"{label} must be whole numbers from 0 to {GENE_MAX} (an integer array), got "
                f"{array.dtype} values; from probabilities p use np.rint(p * 63).astype(int)."
            )
        bad = np.argwhere((array < 0) | (array > GENE_MAX))
        if len(bad):
            where = tuple(int(i) for i in bad[0])
            raise ValueError(
                f"{label} must be from 0 to {GENE_MAX} ({GENE_BITS} bits), "
                f"got {array[where]!r} at {where}."
            )
        return array.astype(np.int64)

    @staticmethod
    def _probabilities(genes: np.ndarray) -> np.ndarray:
        """The genes read as probabilities, n / 63."""
        return genes / GENE_MAX

    @property
    def bits(self) -> str:
        """The whole genome as one string of '0' and '1': the buy genes row by row, then the
        jail genes row by row, each gene 6 bits, most significant first."""
        genes = np.concatenate([self.buy_genes.ravel(), self.jail_genes.ravel()])
        return "".join(format(int(n), f"0{GENE_BITS}b") for n in genes)

    @classmethod
    def from_bits(cls, bits: str) -> SGA:
        """The player whose genome is ``bits`` (as :attr:`bits` writes it).

        >>> float(SGA.from_bits("111111" * 176).genes()["jail"].loc["none", "none"])
        1.0
        """
        size = BUY_SHAPE[0] * BUY_SHAPE[1] + cls.JAIL_SHAPE[0] * cls.JAIL_SHAPE[1]
        if not isinstance(bits, str):
            raise TypeError(f"SGA bits must be a string of '0' and '1', got {type(bits).__name__}.")
        if len(bits) != size * GENE_BITS:
            raise ValueError(
                f"SGA bits must be {size * GENE_BITS} characters long ({size} genes of "
                f"{GENE_BITS} bits), got {len(bits)}."
            )
        if set(bits) - {"0", "1"}:
            raise ValueError(
                f"SGA bits must contain only '0' and '1', got {sorted(set(bits) - {'0', '1'})}."
            )
        genes = [int(bits[i : i + GENE_BITS], 2) for i in range(0, len(bits), GENE_BITS)]
        buy_size = BUY_SHAPE[0] * BUY_SHAPE[1]
        buy = np.array(genes[:buy_size]).reshape(BUY_SHAPE)
        return cls(buy, np.array(genes[buy_size:]).reshape(cls.JAIL_SHAPE))


class EGA(RGA):
    """The richer chromosome: :class:`RGA`'s buy and jail genes, plus what the paper's
    players cannot express: the most to bid in an auction (a multiple of the price, by
    ownership state and group), the cash kept when building, and, with trading on, what
    trades to offer and accept. Every gene is a number from 0 to 1.

    - **bid** (4 x 10, :data:`BID_GROUPS`): bid ``int(gene * 2 * price)``, capped at the
      cash (a gene of 0.5 bids the price);
    - **reserve** (1 x 1): build while ``round(gene * 1000)`` dollars stay in hand (the
      rules' default build order);
    - **trade** (2 x 8, :data:`TRADE_ROWS` by colour group): propose the completion swaps
      of the rules' default, but only those whose cash it pays is at most
      ``round((2 * pay - 1) * 500)`` for the group it completes; accept a trade that
      completes a group of its own when the net cash it receives is at least
      ``round((2 * keep - 1) * 500)`` for the group of every lot it gives.
    """

    name = "ega"
    BID_SHAPE = (len(OWNERSHIP_STATES), len(BID_GROUPS))
    """The bid genes' shape: ownership state x group."""
    RESERVE_SHAPE = (1, 1)
    """The reserve gene's shape."""
    TRADE_SHAPE = (len(TRADE_ROWS), len(STREET_GROUPS))
    """The trade genes' shape: pay and keep x colour group."""

    @classmethod
    def gene_tables(cls) -> dict[str, tuple[int, int]]:
        """RGA's tables, then the bid, reserve and trade genes."""
        return {
            **super().gene_tables(),
            "bid": cls.BID_SHAPE,
            "reserve": cls.RESERVE_SHAPE,
            "trade": cls.TRADE_SHAPE,
        }

    def __init__(
        self, buy: ArrayLike, jail: ArrayLike, bid: ArrayLike, reserve: ArrayLike, trade: ArrayLike
    ) -> None:
        super().__init__(buy, jail)
        self.bid_genes = _read_only(self._checked(bid, "bid", self.BID_SHAPE))
        """The bid genes (read-only): row ownership state, column :data:`BID_GROUPS`."""
        self.reserve_gene = _read_only(self._checked(reserve, "reserve", self.RESERVE_SHAPE))
        """The reserve gene, as a 1 x 1 table (read-only)."""
        self.trade_genes = _read_only(self._checked(trade, "trade", self.TRADE_SHAPE))
        """The trade genes (read-only): rows pay and keep, column colour group."""
        self._bid = tuple(map(tuple, self.bid_genes.tolist()))
        self.reserve = round(float(self.reserve_gene[0, 0]) * RESERVE_SCALE)
        """The cash it keeps in hand when building, in dollars."""
        pay, keep = (
            [round((2 * gene - 1) * TRADE_SCALE) for gene in row]
            for row in self.trade_genes.tolist()
        )
        self.most_to_pay = dict(zip(STREET_GROUPS, pay, strict=True))
        """The most cash it pays in a trade that completes each colour group, in dollars."""
        self.least_to_keep = dict(zip(STREET_GROUPS, keep, strict=True))
        """The least net cash it takes to give up a lot of each colour group, in dollars."""

    def gene_arrays(self) -> tuple[np.ndarray, ...]:
        """Its genes as stored: RGA's, then the bid, reserve and trade genes."""
        return (*super().gene_arrays(), self.bid_genes, self.reserve_gene, self.trade_genes)

    @classmethod
    def from_genes(
        cls,
        buy: ArrayLike,
        jail: ArrayLike,
        bid: ArrayLike = None,  # type: ignore[override]
        reserve: ArrayLike = None,
        trade: ArrayLike = None,
    ) -> EGA:
        """A player with these genes (checked: shapes and values; see the class docstring)."""
        return cls(buy, jail, bid, reserve, trade)

    @classmethod
    def random(cls, seed: int | None = 0) -> EGA:  # type: ignore[override]
        """A player with uniform random genes; the same ``seed`` (a whole number of 0 or more;
        None: fresh genes) gives the same genes."""
        with at_the_call():
            rng = np.random.default_rng(seed_or_fresh(seed, limit=None))
        return cls(*(rng.random(shape) for shape in cls.gene_tables().values()))

    # -- the decisions it adds ---------------------------------------------------------

    def bid(self, game: GameView, me: OwnView, space: int) -> int:
        """Its bid gene for the group's ownership state and group, times twice the price,
        in whole dollars, capped at its cash."""
        gene = self._bid[ownership_state(game, me, space)][BID_GROUPS.index(GROUP[space])]
        return min(me.cash, int(gene * (BID_SCALE * PRICE[space])))

    def build(self, game: GameView, me: OwnView) -> int | None:
        """The rules' default build order, keeping its own reserve in hand."""
        return default_build(game, me, self.reserve)

    def propose_trade(self, game: GameView, me: OwnView) -> Trade | None:
        """To each partner in turn (as the default), the first completion swap whose cash it
        pays is at most what it pays to complete that group."""
        for partner in partners_to_ask(game, me):
            for trade in completion_swaps(game, me.seat, partner):
                if trade.cash <= self.most_to_pay[GROUP[trade.take[0]]]:
                    return trade
        return None

    accepts = (
        "only a trade that completes one of its colour groups and pays it, for each colour "
        "group it gives a lot of, at least its gene for what it keeps of that group, in cash"
    )

    def accept_trade(self, game: GameView, me: OwnView, offer: Trade) -> bool:
        """Yes when the trade completes a group of its own and the net cash it receives is
        at least its least-to-keep of every colour group it gives a lot of (a railroad or a
        utility it gives has no limit: its genes are the colour groups')."""
        return not self.trade_refusal(game, me, offer)

    def trade_refusal(self, game: ReadableGame, me: PlayerState | OwnView, offer: Trade) -> str:
        """Why it refuses ``offer``, in its terms ('' when it accepts)."""
        mine, _ = groups_gained(game, me, offer)
        if mine <= 0:
            return COMPLETES_ONE
        for space in offer.take:
            group = GROUP[space]
            if group in STREET_GROUPS and offer.cash < self.least_to_keep[group]:
                return (
                    f"it gives {space_name(space)} only for at least "
                    f"${self.least_to_keep[group]:,} in cash (its least to keep for {group})"
                )
        return ""

    def genes(self) -> dict[str, pd.DataFrame]:
        """The genes as tables: RGA's ``"buy"`` and ``"jail"``, the ``"bid"`` multiples of
        the price, and ``"money"``: the reserve and each colour group's trade limits, in
        dollars."""
        tables = super().genes()
        tables["bid"] = pd.DataFrame(
            self.bid_genes * BID_SCALE,
            index=pd.Index(OWNERSHIP_STATES, name="ownership"),
            columns=pd.Index(BID_GROUPS, name="group"),
        )
        money = pd.DataFrame({"most_to_pay": self.most_to_pay, "least_to_keep": self.least_to_keep})
        money.index.name = "group"
        money.attrs["reserve"] = self.reserve
        tables["money"] = money
        return tables

    def __repr__(self) -> str:
        return (
            f"{super().__repr__()[:-1]}, bids {BID_SCALE * self.bid_genes.mean():.2f} x "
            f"price on average, build reserve ${self.reserve}>"
        )


class BGA(EGA):
    """The chromosome that bargains: :class:`EGA`'s genes, plus what the dealer does by hand
    (:mod:`~monopoly_lesson.game.dealer`), each a number from 0 to 1 to evolve:

    - **value** (2 x 8, :data:`VALUE_ROWS` by colour group): the most to bid for a lot that
      completes one of its groups, or that blocks another player's (its bid genes' rule,
      ``int(gene * 2 * price)``; any other lot is bid for as EGA bids);
    - **build** (1 x 1): every complete group is built evenly to ``round(gene * 5)``
      buildings, the least built lot first, before any goes further (then the rules' build
      order), keeping its reserve;
    - **ask** (1 x 8, by colour group): in a completion swap it proposes, the share of what
      the partner would have above $200 after the swap that it asks for beyond the price
      difference, for the group it completes;
    - **worth** (1 x 8, by colour group): what a group is worth in a swap: it hands over no
      lot of a group worth more than the one it gets (proposing or accepting; railroads
      and utilities have no worth gene and no such limit).

    It raises cash as the dealer does, with no gene: it mortgages the lots outside its
    complete groups before it sells a building (worth about 4 points of the dealer's win
    rate against the heuristic, always-buy and the heuristic; the rules' order sells first).
    """

    name = "bga"
    VALUE_SHAPE = (len(VALUE_ROWS), len(STREET_GROUPS))
    """The value genes' shape: completes and blocks x colour group."""
    BUILD_SHAPE = (1, 1)
    """The build gene's shape."""
    ASK_SHAPE = WORTH_SHAPE = (1, len(STREET_GROUPS))
    """The ask and worth genes' shape: one per colour group."""

    @classmethod
    def gene_tables(cls) -> dict[str, tuple[int, int]]:
        """EGA's tables, then the value, build, ask and worth genes."""
        return {
            **super().gene_tables(),
            "value": cls.VALUE_SHAPE,
            "build": cls.BUILD_SHAPE,
            "ask": cls.ASK_SHAPE,
            "worth": cls.WORTH_SHAPE,
        }

    def __init__(
        self,
        buy: ArrayLike,
        jail: ArrayLike,
        bid: ArrayLike,
        reserve: ArrayLike,
        trade: ArrayLike,
        value: ArrayLike,
        build: ArrayLike,
        ask: ArrayLike,
        worth: ArrayLike,
    ) -> None:
        super().__init__(buy, jail, bid, reserve, trade)
        self.value_genes = _read_only(self._checked(value, "value", self.VALUE_SHAPE))
        """The value genes (read-only): rows completes and blocks, column colour group."""
        self.build_gene = _read_only(self._checked(build, "build", self.BUILD_SHAPE))
        """The build gene, as a 1 x 1 table (read-only)."""
        self.ask_genes = _read_only(self._checked(ask, "ask", self.ASK_SHAPE))
        """The ask genes, 1 x 8 (read-only): a share of the partner's spare cash, by group."""
        self.worth_genes = _read_only(self._checked(worth, "worth", self.WORTH_SHAPE))
        """The worth genes, 1 x 8 (read-only): what each colour group is worth in a swap."""
        self.build_to = round(float(self.build_gene[0, 0]) * HOTEL)
        """The buildings every complete group gets before any gets more."""
        rows = zip(VALUE_ROWS, self.value_genes.tolist(), strict=True)
        self._value = {row: dict(zip(STREET_GROUPS, genes, strict=True)) for row, genes in rows}
        self.ask = dict(zip(STREET_GROUPS, self.ask_genes[0].tolist(), strict=True))
        """The share of the partner's spare cash it asks for, by the group it completes."""
        self.worth = dict(zip(STREET_GROUPS, self.worth_genes[0].tolist(), strict=True))
        """What each colour group is worth to it in a swap."""

    def gene_arrays(self) -> tuple[np.ndarray, ...]:
        """Its genes as stored: EGA's, then the value, build, ask and worth genes."""
        return (
            *super().gene_arrays(),
            self.value_genes,
            self.build_gene,
            self.ask_genes,
            self.worth_genes,
        )

    @classmethod
    def from_genes(  # type: ignore[override]
        cls,
        buy: ArrayLike,
        jail: ArrayLike,
        bid: ArrayLike = None,
        reserve: ArrayLike = None,
        trade: ArrayLike = None,
        value: ArrayLike = None,
        build: ArrayLike = None,
        ask: ArrayLike = None,
        worth: ArrayLike = None,
    ) -> BGA:
        """A player with these genes (checked: shapes and values; see the class docstring)."""
        return cls(buy, jail, bid, reserve, trade, value, build, ask, worth)

    # -- the decisions it changes --------------------------------------------------------

    def bid(self, game: GameView, me: OwnView, space: int) -> int:
        """Its value gene for a lot that completes or blocks a colour group, else EGA's bid
        gene; times twice the price, in whole dollars, capped at its cash."""
        what = what_it_does(game, me.seat, space)
        if what == "other":
            return super().bid(game, me, space)
        gene = self._value[what][GROUP[space]]
        return min(me.cash, int(gene * (BID_SCALE * PRICE[space])))

    def build(self, game: GameView, me: OwnView) -> int | None:
        """The least built lot of its groups while it has fewer than :attr:`build_to`
        buildings (then the cheapest building, then the first space), else the rules' build
        order; either keeping its reserve."""
        allowed = [
            s
            for group in game.monopolies(me.seat)
            for s in GROUP_SPACES[group]
            if why_not_build(game, me.seat, s) is None
        ]
        low = [s for s in allowed if game.lots[s].buildings < self.build_to]
        if not low:
            return default_build(game, me, self.reserve)
        space = min(low, key=lambda s: (game.lots[s].buildings, HOUSE_COST[s], s))
        return space if me.cash - HOUSE_COST[space] >= self.reserve else None

    raise_cash = Dealer.raise_cash

    def propose_trade(self, game: GameView, me: OwnView) -> Trade | None:
        """EGA's proposal among the swaps that hand over no group worth more than the one it
        gets, asking for its ask gene's share of what the partner would keep above $200."""
        for partner in partners_to_ask(game, me):
            for trade in completion_swaps(game, me.seat, partner):
                got, given = GROUP[trade.take[0]], GROUP[trade.give[0]]
                if trade.cash <= self.most_to_pay[got] and self.worth[given] <= self.worth[got]:
                    spare = max(0, game.player(partner).cash + trade.cash - RESERVE)
                    extra = int(self.ask[got] * spare)
                    return Trade(partner, trade.give, trade.take, trade.cash - extra)
        return None

    accepts = (
        "EGA's trades (one that completes one of its colour groups and pays it its least to "
        "keep for each group it gives), and only if it gives no colour group it values more "
        "than one it gets"
    )

    def accept_trade(self, game: GameView, me: OwnView, offer: Trade) -> bool:
        """EGA's answer, and no colour group it gives a lot of is worth more than one it gets."""
        return not self.trade_refusal(game, me, offer)

    def trade_refusal(self, game: ReadableGame, me: PlayerState | OwnView, offer: Trade) -> str:
        """Why it refuses ``offer``: EGA's reason, or that it values a group it would give
        more than one it would get ('' when it accepts)."""
        refusal = super().trade_refusal(game, me, offer)
        if refusal:
            return refusal
        gets = [self.worth[GROUP[s]] for s in offer.give if GROUP[s] in STREET_GROUPS]
        gives = [self.worth[GROUP[s]] for s in offer.take if GROUP[s] in STREET_GROUPS]
        if gets and gives and max(gives) > min(gets):
            return "it values a colour group it would give more than one it would get"
        return ""

    def genes(self) -> dict[str, pd.DataFrame]:
        """EGA's tables, ``"value"`` (multiples of the price), and ``"swaps"``: each colour
        group's ask share and worth; the build level in ``money.attrs["build_to"]``."""
        tables = super().genes()
        tables["value"] = pd.DataFrame(
            self.value_genes * BID_SCALE,
            index=pd.Index(VALUE_ROWS, name="lot"),
            columns=pd.Index(STREET_GROUPS, name="group"),
        )
        swaps = pd.DataFrame({"ask": self.ask, "worth": self.worth})
        swaps.index.name = "group"
        tables["swaps"] = swaps
        tables["money"].attrs["build_to"] = self.build_to
        return tables


CHROMOSOME_PLAYERS: dict[str, type[RGA]] = {
    "rga": RGA,
    "tga": TGA,
    "sga": SGA,
    "ega": EGA,
    "bga": BGA,
}
"""The chromosome players by name, as the command line and :mod:`plugins` know them."""
