"""The whole game's pure money rules, asked of the reference engine for every case.

A rule that answers from a lot and the state of its group (the rent at each stage, the
price of a building sold, a mortgage's interest, a chromosome player's ownership state,
the heuristic's buy rule) is put to the reference engine's own functions for every case,
with small probe games, as the game roll table plays the movement rules. Asking takes
most of a second, so it is done once: ``python tools/money_tables.py`` stores the answers
in the package (:data:`STORED`), and :mod:`monopoly_lesson.game.money_tables` reads them
for the compiled engine (:mod:`monopoly_lesson.game.fast_loop`) and the rent values
(:mod:`monopoly_lesson.rent_value`). Each rule is written once: in the reference engine.

An *ownership pattern* names who owns each lot of a group, in the group's order (its
lots by space), from one player's side: 0 the bank, 1 that player, 2 the first other
owner met, 3 the second, and so on; the pattern's number is ``sum(code[k] * BASE**k)``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

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
    "GROUP_SIZE",
    "LOT_ROLES",
    "PATTERNS",
    "RENT_STAGES",
    "SPACES",
    "STORED",
    "WRITE_THEM",
    "asked_tables",
    "differences",
    "pattern_number",
    "rent_stage",
]

STORED = Path(__file__).resolve().parent.parent / "data" / "money_tables" / "tables.npz"
"""Where the package keeps the answers (numpy's ``.npz``: one array per table, by name)."""
WRITE_THEM = "python tools/money_tables.py"
"""The command that asks the reference engine again and writes :data:`STORED`."""
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
    """The column of the rent table (:data:`~monopoly_lesson.game.money_tables.RENT`) for
    a lot of ``group`` whose owner holds ``held`` lots of it (all of them if ``complete``),
    with ``buildings`` on it."""
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
"""What a lot does for the player who gets it (the codes of
:data:`~monopoly_lesson.game.money_tables.LOT_DOES`, in this order)."""


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


def asked_tables() -> dict[str, np.ndarray]:
    """Every table, by the name :mod:`~monopoly_lesson.game.money_tables` gives it, asked
    of the reference engine now (most of a second): what ``python tools/money_tables.py``
    stores, and what the test of the stored tables compares them with."""
    ownership, heuristic_buy = _pattern_tables()
    return {
        "RENT": _rent_table(),
        "SALE_PRICE": _by_space(sale_price),
        "INTEREST": _by_space(interest),
        "LIFT_COST": _by_space(lift_cost),
        "OWNERSHIP_STATE": ownership,
        "HEURISTIC_BUY": heuristic_buy,
        "DEALER_BID": _dealer_bids(),
        "FAIR_SWAP": _fair_swaps(),
        "LOT_DOES": _lot_does(),
    }


def differences(stored: dict[str, np.ndarray], asked: dict[str, np.ndarray]) -> list[str]:
    """How ``stored`` tables differ from ``asked`` ones (the reference engine's answers), a
    line each: a table missing or left over, of another shape or type, or its entries that
    differ (how many, and the first). Empty when they are the same."""
    found = [f"{name}: not stored" for name in asked if name not in stored]
    found += [f"{name}: stored, but no longer asked for" for name in stored if name not in asked]
    for name in (name for name in asked if name in stored):
        old, new = stored[name], asked[name]
        if (old.shape, old.dtype) != (new.shape, new.dtype):
            found.append(f"{name}: stored as {old.dtype} {old.shape}, now {new.dtype} {new.shape}")
        elif not np.array_equal(old, new):
            where = np.argwhere(old != new)
            at = tuple(int(i) for i in where[0])
            differ = "1 entry differs" if len(where) == 1 else f"{len(where):,} entries differ"
            found.append(
                f"{name}: {differ}, the first at {list(at)}: stored "
                f"{old[at].item()!r}, the reference engine now answers {new[at].item()!r}"
            )
    return found
