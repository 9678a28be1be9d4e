"""The whole game's pure money rules as tables: the reference engine's answers, as stored.

:mod:`~monopoly_lesson.game.money_probes` asks the reference engine's own functions for
every case, which takes most of a second; ``python tools/money_tables.py`` stores the
answers in the package (``data/money_tables/tables.npz``) and this module reads them, in
a few milliseconds. The compiled engine (:mod:`monopoly_lesson.game.fast_loop`) and the
rent values (:mod:`monopoly_lesson.rent_value`) read these tables, so each rule is written
once, in the reference engine. The file is a cache, never edited by hand:
``tests/test_money_tables.py`` fails while it differs from the reference engine's answers,
and names the command that writes it again.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .money_probes import (
    BASE,
    GROUP_SIZE,
    LOT_ROLES,
    PATTERNS,
    RENT_STAGES,
    SPACES,
    STORED,
    WRITE_THEM,
    pattern_number,
    rent_stage,
)

__all__ = [
    "BASE",
    "DEALER_BID",
    "FAIR_SWAP",
    "GROUP_SIZE",
    "HEURISTIC_BUY",
    "INTEREST",
    "LIFT_COST",
    "LOT_DOES",
    "LOT_ROLES",
    "OWNERSHIP_STATE",
    "PATTERNS",
    "RENT",
    "RENT_STAGES",
    "SALE_PRICE",
    "SPACES",
    "STORED",
    "WRITE_THEM",
    "pattern_number",
    "rent_stage",
    "stored_tables",
]


def stored_tables(path: Path = STORED) -> dict[str, np.ndarray]:
    """The tables kept at ``path``, by name (the names
    :func:`~monopoly_lesson.game.money_probes.asked_tables` gives them)."""
    try:
        with np.load(path) as stored:
            return {name: stored[name] for name in stored.files}
    except FileNotFoundError:
        raise FileNotFoundError(
            f"the whole game's money tables are missing ({path}): run {WRITE_THEM}"
        ) from None


_TABLES = stored_tables()


def _stored(name: str) -> np.ndarray:
    """The stored table ``name``, or an error that says how to write the tables again."""
    if name not in _TABLES:
        raise ImportError(f"{STORED} holds no table {name!r}: run {WRITE_THEM}")
    return _TABLES[name]


RENT = _stored("RENT")
"""Rent by space and :func:`rent_stage` (a utility's: its multiple of the dice)."""
SALE_PRICE = _stored("SALE_PRICE")
"""What the bank pays for one building sold from each space."""
INTEREST = _stored("INTEREST")
"""The interest on each space's mortgage."""
LIFT_COST = _stored("LIFT_COST")
"""What lifting each space's mortgage costs."""
OWNERSHIP_STATE = _stored("OWNERSHIP_STATE")
"""A chromosome player's buy-gene row, by space and ownership pattern (-1 where a number
is no pattern)."""
HEURISTIC_BUY = _stored("HEURISTIC_BUY")
"""Whether the heuristic buys, by space and ownership pattern."""
DEALER_BID = _stored("DEALER_BID")
"""The dealer's most to bid by space and ownership pattern, before the cap at its cash."""
FAIR_SWAP = _stored("FAIR_SWAP")
"""Whether the dealer hands over the lot ``given`` for ``got``: ``FAIR_SWAP[got, given]``."""
LOT_DOES = _stored("LOT_DOES")
"""What a lot does for the player who gets it (0 other, 1 completes, 2 blocks: its
:data:`LOT_ROLES`), by space and ownership pattern."""
