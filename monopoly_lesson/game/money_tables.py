"""The whole game's pure money rules as tables, asked of the reference engine.

A rule that answers from a lot and the state of its group (the rent at each stage, the
price of a building sold, a mortgage's interest, a chromosome player's ownership state,
the heuristic's buy rule) is put to the reference engine's own functions for every case,
with small probe games, as the game roll table plays the movement rules. The compiled
engine (:mod:`monopoly_lesson.game.fast_loop`) and the rent values
(:mod:`monopoly_lesson.rent_value`) read these tables, so each rule is written once: in
the reference engine.

An *ownership pattern* names who owns each lot of a group, in the group's order (its
lots by space), from one player's side: 0 the bank, 1 that player, 2 the first other
owner met, 3 the second, and so on; the pattern's number is ``sum(code[k] * BASE**k)``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ..starter import NUM_SPACES, Player
from .buildings import interest, lift_cost, sale_price
from .chromosomes import ownership_state
from .dealer import Dealer, fair_swap, what_it_does
from .lots import GROUPS
from .rent import rent_due
from .state import GROUP, GROUP_SPACES, HOTEL, PRICE, GameState, LotState, PlayerState
from .strategies import Heuristic

__all__ = [
    "BASE",
    "DEALER_BID",
    "FAIR_SWAP",
    "HEURISTIC_BUY",
    "INTEREST",
    "LIFT_COST",
    "LOT_DOES",
    "OWNERSHIP_STATE",
    "PATTERNS",
    "RENT",
    "RENT_STAGES",
    "SALE_PRICE",
    "pattern_number",
    "rent_stage",
]

SPACES = NUM_SPACES + 1  # tables are indexed by space, 1..40 (row 0 unused)
GROUP_SIZE = max(len(spaces) for spaces in GROUP_SPACES.values())
BASE = GROUP_SIZE + 2
"""The bank, the player, and up to one other owner per lot of the largest group."""
PATTERNS = BASE**GROUP_SIZE
"""How many pattern numbers there are (not all of them patterns a group can show)."""
RENT_STAGES = HOTEL + 2
"""A street's stages: unimproved, unimproved in a complete group, 1-4 houses, a hotel.
A railroad's stage is how many railroads its owner holds, less one; a utility's likewise."""


def rent_stage(group: str, held: int, complete: bool, buildings: int) -> int:
    """The column of :data:`RENT` for a lot of ``group`` whose owner holds ``held`` lots
    of it (all of them if ``complete``), with ``buildings`` on it."""
    if group in ("railroad", "utility"):
        return held - 1
    return buildings + 1 if buildings else int(complete)


def _probe_game(seats: int) -> GameState:
    """A game of ``seats`` players, nothing owned: a probe for the reference's rules."""
    players = [
        PlayerState(seat, f"P{seat}", None, Player(), random.Random(0))
        for seat in range(1, seats + 1)
    ]
    return GameState(players)


def _owned(
    owners: dict[int, int | None], buildings: int = 0, space: int = 0, seats: int = BASE
) -> GameState:
    """A probe game of ``seats`` players in which each space of ``owners`` belongs to that
    seat (None: the bank), with ``buildings`` on ``space`` and the other lots of its group."""
    game = _probe_game(seats)
    for lot_space, seat in owners.items():
        game.lots[lot_space] = LotState(lot_space, owner=seat)
        if seat is not None:
            game.player(seat).lots.add(lot_space)
    if buildings:
        for lot_space in GROUP_SPACES[GROUP[space]]:
            game.lots[lot_space].buildings = buildings
    return game


def _rent_table() -> np.ndarray:
    """Rent by space and stage, from :func:`~monopoly_lesson.game.rent.rent_due` (a
    utility's entry is its multiple of the dice: the rent of a roll of 1)."""
    table = np.zeros((SPACES, RENT_STAGES), np.int64)
    for space in PRICE:
        group = GROUP_SPACES[GROUP[space]]
        others = [s for s in group if s != space]
        for held in range(1, len(group) + 1):
            owners = {space: 1, **dict.fromkeys(others[: held - 1], 1)}
            stage = rent_stage(GROUP[space], held, held == len(group), 0)
            table[space, stage] = rent_due(_owned(owners), space, dice=1)
        if GROUPS[GROUP[space]][1]:  # a street group: build on it
            for buildings in range(1, HOTEL + 1):
                game = _owned(dict.fromkeys(group, 1), buildings, space)
                table[space, rent_stage(GROUP[space], len(group), True, buildings)] = rent_due(
                    game, space, dice=1
                )
    return table


def pattern_number(codes: Sequence[int]) -> int:
    """The number of an ownership pattern given as one code per lot of the group."""
    return sum(code * BASE**k for k, code in enumerate(codes))


def _patterns(size: int) -> Iterator[tuple[int, ...]]:
    """Every ownership pattern of a group of ``size`` lots (others numbered as met)."""
    for codes in itertools.product(range(BASE), repeat=size):
        met = [code for code in codes if code >= 2]
        if all(code <= 2 + len(set(met[:k])) for k, code in enumerate(met)):
            yield codes


def _owners(space: int, codes: Sequence[int]) -> dict[int, int | None]:
    """The owners a pattern of ``space``'s group stands for: the player is seat 1."""
    group = GROUP_SPACES[GROUP[space]]
    return {s: (None if code == 0 else code) for s, code in zip(group, codes, strict=True)}


def _pattern_tables() -> tuple[np.ndarray, np.ndarray]:
    """The chromosome players' ownership state and the heuristic's buy rule, by space and
    pattern, from :func:`~monopoly_lesson.game.chromosomes.ownership_state` and
    :meth:`Heuristic.buy <monopoly_lesson.game.strategies.Heuristic.buy>` (-1 and False
    where a number is no pattern)."""
    state = np.full((SPACES, PATTERNS), -1, np.int8)
    buys = np.zeros((SPACES, PATTERNS), np.bool_)
    heuristic = Heuristic()
    for space in PRICE:
        for codes in _patterns(len(GROUP_SPACES[GROUP[space]])):
            game = _owned(_owners(space, codes))
            me, number = game.player(1), pattern_number(codes)
            state[space, number] = ownership_state(game, me, space)
            buys[space, number] = heuristic.buy(game, me, space)  # type: ignore[arg-type]
    return state, buys


def _dealer_bids() -> np.ndarray:
    """The dealer's most to bid by space and pattern, with cash to spare
    (:meth:`Dealer.bid <monopoly_lesson.game.dealer.Dealer.bid>`; the loop caps it at the
    cash); 0 where a number is no pattern."""
    bids = np.zeros((SPACES, PATTERNS), np.int64)
    dealer = Dealer()
    for space in PRICE:
        for codes in _patterns(len(GROUP_SPACES[GROUP[space]])):
            game = _owned(_owners(space, codes))
            me = game.player(1)
            me.cash = 10 * max(PRICE.values())  # more than any bid
            bids[space, pattern_number(codes)] = dealer.bid(game, me, space)  # type: ignore[arg-type]
    return bids


LOT_ROLES = ("other", "completes", "blocks")
"""What a lot does for the player who gets it (:data:`LOT_DOES`' codes, in this order)."""


def _lot_does() -> np.ndarray:
    """What each lot does for the player who gets it, by space and pattern: 0 nothing
    special, 1 it completes one of its colour groups, 2 it completes another player's
    (:func:`~monopoly_lesson.game.dealer.what_it_does`)."""
    table = np.zeros((SPACES, PATTERNS), np.int8)
    for space in PRICE:
        for codes in _patterns(len(GROUP_SPACES[GROUP[space]])):
            game = _owned(_owners(space, codes))
            table[space, pattern_number(codes)] = LOT_ROLES.index(what_it_does(game, 1, space))
    return table


def _fair_swaps() -> np.ndarray:
    """Whether the dealer gives the lot ``given`` for ``got``, by (got, given)
    (:func:`~monopoly_lesson.game.dealer.fair_swap`)."""
    table = np.zeros((SPACES, SPACES), np.bool_)
    for got in PRICE:
        for given in PRICE:
            table[got, given] = fair_swap(got, given)
    return table


def _by_space(rule: Callable[[int], int]) -> np.ndarray:
    """``rule(space)`` for every lot, as an array indexed by space (0 elsewhere)."""
    table = np.zeros(SPACES, np.int64)
    for space in PRICE:
        table[space] = rule(space)
    return table


RENT = _rent_table()
"""Rent by space and :func:`rent_stage` (a utility's: its multiple of the dice)."""
SALE_PRICE = _by_space(sale_price)
"""What the bank pays for one building sold from each space."""
INTEREST = _by_space(interest)
"""The interest on each space's mortgage."""
LIFT_COST = _by_space(lift_cost)
"""What lifting each space's mortgage costs."""
OWNERSHIP_STATE, HEURISTIC_BUY = _pattern_tables()
"""A chromosome player's buy-gene row, and whether the heuristic buys, by space and
ownership pattern."""
DEALER_BID = _dealer_bids()
"""The dealer's most to bid by space and ownership pattern, before the cap at its cash."""
FAIR_SWAP = _fair_swaps()
"""Whether the dealer hands over the lot ``given`` for ``got``: ``FAIR_SWAP[got, given]``."""
LOT_DOES = _lot_does()
"""What a lot does for the player who gets it (0 other, 1 completes, 2 blocks: its
:data:`LOT_ROLES`), by space and ownership pattern."""
