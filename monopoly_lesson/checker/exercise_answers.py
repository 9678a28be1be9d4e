"""The exercises of chapters 10 to 12 that a check can grade: named variables and their answers.

A chapter's checkable exercise assigns its answer to a variable of a fixed name in a code
cell (``boardwalk_hotel = ...``). The checker reads those variables from the student's
kernel as data and compares them with the values it computes itself, from the package, in
its own process. A variable the notebook does not define is "not answered" (not a failure);
a number is right when it is the exact value rounded to the digits the chapter shows, or
closer; a group's name is right whatever its capitals and spacing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["EXERCISES", "AnswersReport", "Exercise", "chapter_exercises", "grade_answers"]


def boardwalk_hotel() -> float:
    """Boardwalk's rent per opponent turn with a hotel."""
    from ..rent_value import rent_per_turn

    return float(rent_per_turn().at[40, "hotel"])


def hotel_payback() -> float:
    """Opponent turns for Boardwalk's hotel (5 buildings at $200) to pay back its cost."""
    from ..rent_value import rent_per_turn

    rent = rent_per_turn()
    return 1000 / float(rent.at[40, "hotel"] - rent.at[40, "complete_group"])


def best_one_house() -> str:
    """The group that earns the most rent per dollar with one house on each lot."""
    from ..rent_value import rent_per_dollar

    return str(rent_per_dollar().idxmax()["houses_1"])


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


@dataclass(frozen=True)
class Exercise:
    """A checkable exercise: the variable that holds its answer and how to compute it.

    ``digits``: the decimals the chapter shows (a number within half a unit of the last one
    is right); None for an answer in words.
    """

    chapter: int
    name: str
    what: str
    expected: Callable[[], float | str]
    digits: int | None = None


EXERCISES = (
    Exercise(10, "boardwalk_hotel", "Boardwalk's rent per opponent turn with a hotel",
             boardwalk_hotel, 2),
    Exercise(10, "hotel_payback", "opponent turns to pay back Boardwalk's hotel",
             hotel_payback, 1),
    Exercise(10, "best_one_house", "the best group per dollar with one house", best_one_house),
    Exercise(11, "num_wins_mean", "the mean fitness of a generation under NUM_WINS, 100 games "
             "per player", num_wins_mean, 0),
    Exercise(12, "finish_order_mean", "the mean fitness of a generation under FINISH_ORDER, "
             "100 games per player", finish_order_mean, 0),
)  # fmt: skip
"""Every checkable exercise, by chapter."""


def chapter_exercises(chapter: int | None) -> tuple[Exercise, ...]:
    """The checkable exercises of ``chapter``."""
    return tuple(exercise for exercise in EXERCISES if exercise.chapter == chapter)


def _shown(exercise: Exercise, value: float | str) -> str:
    if exercise.digits is None:
        return repr(value)
    return f"{value:.{exercise.digits}f}"


def _given(value: object) -> str:
    if isinstance(value, dict) and "repr" in value:
        return f"{value['repr']} (a {value['other']})"
    if isinstance(value, dict) and "float" in value:
        return value["float"]
    return repr(value)


def _verdict(exercise: Exercise, expected: float | str, value: object) -> tuple[bool, str]:
    """Whether ``value`` (an encoded answer) is right, and what was expected if not."""
    if exercise.digits is None:
        right = isinstance(value, str) and " ".join(value.lower().split()) == str(expected)
        return right, f"expected {_shown(exercise, expected)}"
    tolerance = 0.5 * 10 ** (-exercise.digits)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    right = number and math.isclose(value, expected, rel_tol=1e-12, abs_tol=tolerance)  # type: ignore[arg-type]
    return bool(right), f"expected {_shown(exercise, expected)} (within {tolerance:g})"


@dataclass(frozen=True)
class AnswersReport:
    """Each checkable exercise of a chapter: right, wrong (with what was expected) or not
    answered."""

    rows: tuple[tuple[str, str, str], ...]

    @property
    def wrong(self) -> list[str]:
        """The wrong answers, one line each: the variable, what was expected, what was given."""
        return [f"{name} ({note})" for name, verdict, note in self.rows if verdict == "WRONG"]

    @property
    def missing(self) -> list[str]:
        """The variables the notebook does not define."""
        return [name for name, verdict, _ in self.rows if verdict == "not answered"]

    @property
    def passed(self) -> bool:
        """True when no answer is wrong (a missing one is not)."""
        return not self.wrong

    def __str__(self) -> str:
        right = sum(verdict == "right" for _, verdict, _ in self.rows)
        lines = [f"exercises: {right} of {len(self.rows)} answered right"]
        lines += [f"{verdict:<13} {name}: {note}" for name, verdict, note in self.rows]
        return "\n".join(lines)


def grade_answers(exercises: tuple[Exercise, ...], expected: dict[str, float | str],
                  given: dict[str, object]) -> AnswersReport:  # fmt: skip
    """Grade the variables the notebook defines (``given``, encoded answers read strictly)
    against the ``expected`` values computed here."""
    rows = []
    for exercise in exercises:
        if exercise.name not in given:
            rows.append((exercise.name, "not answered", f"{exercise.what}; no variable "
                         f"{exercise.name} in the notebook"))  # fmt: skip
            continue
        value = given[exercise.name]
        right, note = _verdict(exercise, expected[exercise.name], value)
        shown = f"{_given(value)}, {exercise.what}"
        rows.append((exercise.name, "right" if right else "WRONG",
                     shown if right else f"{note}, got {_given(value)}"))  # fmt: skip
    return AnswersReport(tuple(rows))
