"""What a lot is worth: the exact long-run rent one opponent pays per turn of its own.

The exact solver's chain gives how often, in the long run, each roll of a turn is played;
the game roll table (:mod:`monopoly_lesson.game.roll_table`, the movement rules enumerated)
gives every landing of every roll, by the dice or by a card, with the card's rent rule.
Together they give each lot's expected landings per opponent turn, and so its rent at
every stage of development (:func:`rent_per_turn`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .exact import _chain, _exact_rules, _roll_chain, _stationary_vector
from .game.engine import GAME_MOVEMENT
from .game.lots import lots
from .game.roll_table import CARD_RENT, OPS, GameRollTable, game_roll_table
from .game.state import GROUP, GROUP_SPACES, HOTEL, PRICE
from .roll_table import STATES, dice_classes, state_label
from .rules import DOUBLES_TO_JAIL, Rules

__all__ = [
    "LEVELS",
    "STAGES",
    "expected_landings",
    "group_costs",
    "group_rent",
    "payback_turns",
    "rent_per_dollar",
    "rent_per_turn",
    "simulated_rent",
]

LEVELS = (
    "unimproved",
    "complete_group",
    "houses_1",
    "houses_2",
    "houses_3",
    "houses_4",
    "hotel",
    "railroads_1",
    "railroads_2",
    "railroads_3",
    "railroads_4",
    "utilities_1",
    "utilities_2",
)
"""The columns of :func:`rent_per_turn`: street stages, railroads held, utilities held."""
ROWS = DOUBLES_TO_JAIL * STATES
(FRESH_TIMES,) = {dice for _, dice in CARD_RENT.values() if dice}
"""The multiple of a fresh roll that the "nearest Utility" card charges (the cards table)."""
_STREET_LEVELS = [("unimproved", False, 0), ("complete_group", True, 0)] + [
    (level, True, buildings) for buildings, level in enumerate(LEVELS[2 : HOTEL + 2], start=1)
]  # a street's columns of LEVELS: complete group or not, and buildings


def _roll_visits(rules: Rules) -> np.ndarray:
    """How often each roll row is played per turn, in the long run (rows of the roll table)."""
    moves, _, labels = _chain(rules)
    pi = np.zeros(ROWS)
    kept = [
        int(i) for i, label in enumerate(state_label(s) for s in range(STATES)) if label in labels
    ]
    pi[kept] = _stationary_vector(moves)
    _, again, _ = _roll_chain(rules)
    visits, rolling = np.zeros(ROWS), pi
    while rolling.any():
        visits += rolling
        rolling = rolling @ again
    return visits


def expected_landings(rules: Rules = GAME_MOVEMENT) -> pd.DataFrame:
    """Per lot, per opponent turn in the long run: plain landings, by the dice or a card
    that leaves the rent as it is (``landings``), the dice total summed over them
    (``dice``), landings by a card that doubles a railroad's rent (``doubled``) and by a
    card that charges 10 x a fresh roll (``fresh_roll``)."""
    rules = _exact_rules(rules)
    table = game_roll_table(replace(rules, replacement=False))
    faces, _, class_size = dice_classes(rules.dice_sides)
    visits = _roll_visits(rules)
    found = np.zeros((41, 4))
    for row in np.flatnonzero(visits):
        for cls, (d1, d2) in enumerate(faces):
            weight = visits[row] * class_size[cls] / rules.dice_sides**2
            leaves, counts = np.unique(table.leaf[row, cls, 0], return_counts=True)
            for leaf, count in zip(leaves, counts, strict=True):
                p = weight * count / table.leaf[row, cls, 0].size  # the cards' chance
                for space, kinds in _lot_landings(table, leaf, d1 + d2):
                    found[space] += p * kinds
    spaces = list(lots.index)
    return pd.DataFrame(
        found[spaces],
        index=pd.Index(spaces, name="space"),
        columns=["landings", "dice", "doubled", "fresh_roll"],
    )


def _lot_landings(table: GameRollTable, leaf: int, total: int):  # type: ignore[no-untyped-def]
    """Each landing on a lot in ``leaf``: its space and [plain, dice total, doubled, fresh]."""
    for op, space, times, fresh in table.events[table.start[leaf] : table.start[leaf + 1]]:
        if op == OPS["land"] and space in PRICE:
            plain = times == 1 and not fresh
            yield space, np.array([plain, plain * total, times == 2, fresh > 0], dtype=float)


def rent_per_turn(rules: Rules = GAME_MOVEMENT) -> pd.DataFrame:
    """The exact long-run rent one opponent pays the owner of each lot, per turn of that
    opponent, at every stage of development (columns :data:`LEVELS`; NaN where a stage
    does not apply).

    Every landing counts, by the dice or by a card, under the movement ``rules`` (cards
    drawn uniformly, as the exact solver assumes). A railroad reached by a "nearest
    Railroad" card charges twice its rent. A utility charges 4 or 10 times the dice total
    of the roll that brought the mover there (the expected total given that landing), or,
    reached by the "nearest Utility" card, 10 times a fresh roll (expected total: sides + 1).
    """
    from .game.money_tables import RENT, rent_stage  # stored tables, read when first needed

    seen = expected_landings(rules)
    sides = _exact_rules(rules).dice_sides
    table = pd.DataFrame(np.nan, index=seen.index, columns=list(LEVELS))
    for space in seen.index:
        n = seen.at[space, "landings"] + seen.at[space, "doubled"] + seen.at[space, "fresh_roll"]
        group, size = GROUP[space], len(GROUP_SPACES[GROUP[space]])
        if group == "railroad":
            paid = seen.at[space, "landings"] + 2 * seen.at[space, "doubled"]
            for k in range(1, size + 1):
                rent = RENT[space, rent_stage(group, k, k == size, 0)]
                table.at[space, f"railroads_{k}"] = rent * paid
        elif group == "utility":
            fresh = FRESH_TIMES * (sides + 1) * seen.at[space, "fresh_roll"]
            for k in range(1, size + 1):
                times = RENT[space, rent_stage(group, k, k == size, 0)]
                table.at[space, f"utilities_{k}"] = times * seen.at[space, "dice"] + fresh
        else:
            for level, complete, buildings in _STREET_LEVELS:
                table.at[space, level] = n * RENT[space, rent_stage(group, 0, complete, buildings)]
    table.insert(0, "group", lots["group"])
    table.insert(0, "title", lots["title"])
    return table


STAGES = ("complete_group", "houses_1", "houses_2", "houses_3", "houses_4", "hotel")
"""A street group's stages of development, each lot alike (buildings 0 to 5)."""


def group_rent(rules: Rules = GAME_MOVEMENT) -> pd.DataFrame:
    """Each street group's rent per opponent turn (its lots together) at every stage."""
    table = rent_per_turn(rules)
    streets = table[~table["group"].isin(["railroad", "utility"])]
    return streets.groupby("group", sort=False)[list(STAGES)].sum()


def group_costs() -> pd.DataFrame:
    """What a street group costs to own at every stage: its lots' prices plus buildings."""
    streets = lots[lots["house_cost"] > 0]
    groups = streets.groupby("group", sort=False)
    price, houses = groups["price"].sum(), groups["house_cost"].first() * groups.size()
    return pd.DataFrame({stage: price + k * houses for k, stage in enumerate(STAGES)})


def payback_turns(rules: Rules = GAME_MOVEMENT) -> pd.DataFrame:
    """Opponent turns for a group's buildings to earn back their cost at each stage: what
    the buildings cost, over the rent they add to the complete group's (doubled) rent."""
    rent, costs = group_rent(rules), group_costs()
    buildings = costs[list(STAGES[1:])].sub(costs["complete_group"], axis=0)
    added = rent[list(STAGES[1:])].sub(rent["complete_group"], axis=0)
    return buildings / added


def rent_per_dollar(rules: Rules = GAME_MOVEMENT) -> pd.DataFrame:
    """Each group's rent per opponent turn for every dollar it cost (lots and buildings);
    the best group at each stage is ``rent_per_dollar().idxmax()``."""
    return group_rent(rules) / group_costs()


def simulated_rent(games: int = 100, seed: int = 0, rounds: int = 300) -> pd.DataFrame:
    """Rent the lots collect in whole games, per turn of the paying player, against
    :func:`rent_per_turn` (the whole game's movement rules).

    In each two-player game one player owns every lot (complete groups, 4 railroads, both
    utilities), never builds and is rich; the other never buys and is rich, and pays. The
    ``collected`` column is the mean over games, with its standard error ``se`` and the
    exact value for that stage, ``exact``.
    """
    from .game.engine import MonopolyGame  # the reference engine, played here only
    from .game.plugins import make_strategy
    from .game.state import BANK, LOT_SPACES

    keeper = make_strategy("keeper", buy=lambda *_: False, build=lambda *_: None)
    per_turn = []
    for game_seed in np.random.SeedSequence(seed).generate_state(games):
        game = MonopolyGame([keeper, "never"], seed=int(game_seed), max_rounds=rounds)
        for space in LOT_SPACES:
            game.state.lots[space].owner = 1
            game.state.player(1).lots.add(space)
        for seat in (1, 2):
            game.state.transfer(BANK, seat, 10**7, "salary")
        game.play()
        per_turn.append([game.state.lots[s].rent_collected / game.turns[1] for s in LOT_SPACES])
    rents = np.array(per_turn)
    table = rent_per_turn()
    exact = table["complete_group"].fillna(table["railroads_4"]).fillna(table["utilities_2"])
    return pd.DataFrame(
        {
            "title": table["title"],
            "collected": rents.mean(axis=0),
            "se": rents.std(axis=0, ddof=1) / np.sqrt(games),
            "exact": exact,
        },
    )
