"""What the cards do with money in the whole game, as data beside the deck tables.

Moves are the movement rules' (:mod:`monopoly_lesson.rules`); this table adds the rest
(the game rules page, ``notebooks/game_rules.md``, "The cards"). Each card has one
``effect``:

- ``move``: handled by the movement rules (passing Go pays the salary);
- ``collect`` / ``pay``: ``amount`` from or to the bank;
- ``collect_from_each`` / ``pay_each``: ``amount`` from or to every other player;
- ``repairs``: ``per_house`` for each house and ``per_hotel`` for each hotel, to the bank;
- ``keep``: a Get Out of Jail Free card, kept until used;
- ``jail``: the Go to Jail card (movement rules).

``rent_multiplier`` doubles a railroad's rent ("nearest Railroad"); ``dice_multiplier``
sets a utility's rent to that many times a fresh roll ("nearest Utility").
"""

from __future__ import annotations

import pandas as pd

from ..starter import community_deck, standard_chance_deck

__all__ = ["chance_effects", "community_effects"]

_COLUMNS = ["effect", "amount", "per_house", "per_hotel", "rent_multiplier", "dice_multiplier"]
_DEFAULTS = ("move", 0, 0, 0, 1, 0)  # dice_multiplier 0: the rent uses the mover's own roll


def _table(deck: pd.DataFrame, effects: dict[int, tuple]) -> pd.DataFrame:
    """The deck table with an effect for each card (``move`` unless listed)."""
    rows = [effects.get(number, ("move",)) for number in deck["index"]]
    table = pd.DataFrame([(*row, *_DEFAULTS[len(row) :]) for row in rows], columns=_COLUMNS)
    table.insert(0, "card", deck["card"].to_numpy())
    table.insert(0, "index", deck["index"].to_numpy())
    table.attrs["name"] = deck.attrs["name"]
    return table


chance_effects = _table(
    standard_chance_deck,
    {
        4: ("move", 0, 0, 0, 1, 10),  # nearest Utility: 10 x a fresh roll if owned
        5: ("move", 0, 0, 0, 2),  # nearest Railroad: twice the rent if owned
        6: ("move", 0, 0, 0, 2),
        9: ("jail",),
        11: ("collect", 50),
        12: ("keep",),
        13: ("repairs", 0, 25, 100),
        14: ("pay", 15),
        15: ("pay_each", 50),
        16: ("collect", 150),
    },
)
"""The standard 16-card Chance deck with each card's effect (the whole game plays it)."""

community_effects = _table(
    community_deck,
    {
        2: ("jail",),
        3: ("collect", 200),
        4: ("pay", 50),
        5: ("collect", 45),
        6: ("keep",),
        7: ("collect_from_each", 50),
        8: ("collect", 100),
        9: ("collect", 20),
        10: ("collect", 100),
        11: ("pay", 100),
        12: ("pay", 150),
        13: ("collect", 25),
        14: ("repairs", 0, 40, 115),
        15: ("collect", 10),
        16: ("collect", 100),
    },
)
"""The Community Chest deck with each card's effect."""
