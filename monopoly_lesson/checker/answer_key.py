"""The answer key of chapters 10 to 12: each exercise's right answer, computed from the package.

The instructor's checker grades a chapter's exercises against these values
(:mod:`monopoly_lesson.checker.exercise_answers` finds this module). The package a student is
given (``make release``) is built without this module, so a student's environment holds no
answer key; there ``check`` says that the exercises are graded by the instructor's checker.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = [
    "ANSWERS",
    "best_one_house",
    "boardwalk_hotel",
    "finish_order_mean",
    "hotel_payback",
    "num_wins_mean",
]


def boardwalk_hotel(lot: int = 40) -> float:
    """The rent per opponent turn of the street at space ``lot`` (Boardwalk) with a hotel."""
    from ..rent_value import rent_per_turn

    return float(rent_per_turn().at[lot, "hotel"])


def hotel_payback(lot: int = 40) -> float:
    """Opponent turns for the hotel of the street at ``lot`` (five buildings, at $200 each on
    Boardwalk) to pay back its cost from what it adds to the complete group's double rent."""
    from ..game.lots import lots
    from ..rent_value import rent_per_turn

    rent = rent_per_turn()
    cost = 5 * int(lots.at[lot, "house_cost"])
    return cost / float(rent.at[lot, "hotel"] - rent.at[lot, "complete_group"])


def best_one_house(houses: int = 1) -> str:
    """The group that earns the most rent per dollar with ``houses`` houses on each lot."""
    from ..rent_value import rent_per_dollar

    return str(rent_per_dollar().idxmax()[f"houses_{houses}"])


def num_wins_mean(games_per_player: int = 100) -> float:
    """The mean fitness of a generation under NUM_WINS: a game's points shared by its seats."""
    from ..evolution.operators import FITNESS

    points = FITNESS["num_wins"]({"finish": np.array([[1, 2, 3, 4]])})
    return float(points.mean() * games_per_player)


def finish_order_mean(games_per_player: int = 100) -> float:
    """The mean fitness of a generation under FINISH_ORDER: 3, 2, 1 and 0 points a game."""
    from ..evolution.operators import FITNESS

    points = FITNESS["finish_order"]({"finish": np.array([[1, 2, 3, 4]])})
    return float(points.mean() * games_per_player)


ANSWERS: dict[str, Callable[..., float | str]] = {
    "boardwalk_hotel": boardwalk_hotel,
    "hotel_payback": hotel_payback,
    "best_one_house": best_one_house,
    "num_wins_mean": num_wins_mean,
    "finish_order_mean": finish_order_mean,
}
"""Each exercise's answer function, by the name of the variable that holds its answer."""
