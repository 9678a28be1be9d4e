"""The property of the whole game as data: the 28 lots, their groups, rents and costs.

Figures are the official US board's (the game rules page, ``notebooks/game_rules.md``,
"The lots"). Streets have a rent for each stage (unimproved, 1 to 4 houses, a hotel);
railroads' rent depends on how many railroads the owner holds, utilities' on the dice
and how many utilities the owner holds. Nothing here is behaviour: the whole-game engine
reads these tables.
"""

from __future__ import annotations

import pandas as pd

from ..starter import NUM_SPACES, gameboard

__all__ = [
    "GROUPS",
    "HOTELS",
    "HOUSES",
    "RAILROAD_RENTS",
    "TAXES",
    "UTILITY_MULTIPLIERS",
    "group_of",
    "lots",
]

# group: (band colour as printed on the board, cost of one house or hotel)
GROUPS = {
    "brown": ("#955436", 50),
    "light blue": ("#aae0fa", 50),
    "purple": ("#d93a96", 100),
    "orange": ("#f7941d", 100),
    "red": ("#ed1b24", 150),
    "yellow": ("#fef200", 150),
    "green": ("#1fb25a", 200),
    "dark blue": ("#0072bb", 200),
    "railroad": ("#000000", 0),
    "utility": ("#9e9e9e", 0),
}
"""The ten groups in board order: ``group -> (colour, house cost)``; the last two have no
buildings."""

_STREETS = [  # space, group, price, rent unimproved, with 1, 2, 3, 4 houses, with a hotel
    (2, "brown", 60, 2, 10, 30, 90, 160, 250),
    (4, "brown", 60, 4, 20, 60, 180, 320, 450),
    (7, "light blue", 100, 6, 30, 90, 270, 400, 550),
    (9, "light blue", 100, 6, 30, 90, 270, 400, 550),
    (10, "light blue", 120, 8, 40, 100, 300, 450, 600),
    (12, "purple", 140, 10, 50, 150, 450, 625, 750),
    (14, "purple", 140, 10, 50, 150, 450, 625, 750),
    (15, "purple", 160, 12, 60, 180, 500, 700, 900),
    (17, "orange", 180, 14, 70, 200, 550, 750, 950),
    (19, "orange", 180, 14, 70, 200, 550, 750, 950),
    (20, "orange", 200, 16, 80, 220, 600, 800, 1000),
    (22, "red", 220, 18, 90, 250, 700, 875, 1050),
    (24, "red", 220, 18, 90, 250, 700, 875, 1050),
    (25, "red", 240, 20, 100, 300, 750, 925, 1100),
    (27, "yellow", 260, 22, 110, 330, 800, 975, 1150),
    (28, "yellow", 260, 22, 110, 330, 800, 975, 1150),
    (30, "yellow", 280, 24, 120, 360, 850, 1025, 1200),
    (32, "green", 300, 26, 130, 390, 900, 1100, 1275),
    (33, "green", 300, 26, 130, 390, 900, 1100, 1275),
    (35, "green", 320, 28, 150, 450, 1000, 1200, 1400),
    (38, "dark blue", 350, 35, 175, 500, 1100, 1300, 1500),
    (40, "dark blue", 400, 50, 200, 600, 1400, 1700, 2000),
]
RAILROAD_RENTS = (25, 50, 100, 200)
"""A railroad's rent when its owner holds 1, 2, 3 or 4 railroads."""
UTILITY_MULTIPLIERS = (4, 10)
"""A utility's rent is the dice total times 4 (owner holds one utility) or 10 (both)."""
HOUSES, HOTELS = 32, 12
"""What the bank holds at the start of a game."""
TAXES = {5: ("Income Tax", 200), 39: ("Luxury Tax", 100)}
"""The tax spaces: ``space -> (name, amount paid to the bank)``."""

RENT_COLUMNS = ["rent", "rent_1", "rent_2", "rent_3", "rent_4", "rent_hotel"]


def _lots() -> pd.DataFrame:
    rows = [
        dict(space=s, group=g, price=p, **dict(zip(RENT_COLUMNS, rents, strict=True)))
        for s, g, p, *rents in _STREETS
    ]
    rows += [dict(space=s, group="railroad", price=200) for s in (6, 16, 26, 36)]
    rows += [dict(space=s, group="utility", price=150) for s in (13, 29)]
    table = pd.DataFrame(rows).sort_values("space", ignore_index=True)
    table.insert(1, "title", table["space"].map(gameboard.set_index("space")["title"]))
    table["house_cost"] = table["group"].map(lambda group: GROUPS[group][1])
    table["mortgage"] = table["price"] // 2
    table[RENT_COLUMNS] = table[RENT_COLUMNS].fillna(0).astype("int64")
    return table.set_index(table["space"].rename(None))


lots = _lots()
"""The 28 lots, indexed by space: ``space``, ``title``, ``group``, ``price``, the street
rents ``rent`` (unimproved) to ``rent_hotel`` (0 for railroads and utilities),
``house_cost`` (0 where nothing is built) and ``mortgage`` (half the price)."""


def group_of(space: int) -> str | None:
    """The group of the lot on ``space``, or None for a space that is not a lot.

    >>> group_of(19), group_of(13), group_of(31)
    ('orange', 'utility', None)
    """
    if not 1 <= space <= NUM_SPACES:
        raise ValueError(f"space must be from 1 to {NUM_SPACES}, got {space}.")
    return lots.at[space, "group"] if space in lots.index else None
