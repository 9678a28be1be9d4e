"""The exercises of chapters 10 to 12 that a check can grade: named variables and their answers.

A chapter's checkable exercise assigns its answer to a variable of a fixed name in a code
cell (``boardwalk_hotel = ...``). The checker reads those variables from the student's
kernel as data and compares them with the values it computes itself, from the package, in
its own process. A variable the notebook does not define, or left empty (None or ``...``),
is not answered, which fails as a wrong answer does, with one message however it came about
(the placeholder left in, the answer deleted, left empty or written under another name); a
number, NaN included, is an answer. A number is right when it is the exact value
rounded to the digits the chapter shows, or closer; a group's name is right whatever its
capitals and spacing. A wrong answer is told with the exercise's hint, not the right value
(graders may ask for it).

The right answers come from the answer key, :mod:`monopoly_lesson.checker.answer_key`, which
only the instructor's package holds: the package a student is given (``make release``) is
built without it, and there the answers given are reported as graded by the instructor's
checker (an answer not given is still told as not answered).
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from .variants import DEFAULT, Variant

__all__ = [
    "ANSWER_KEY",
    "EMPTY",
    "EXERCISES",
    "INSTRUCTORS_CHECKER",
    "NOT_ANSWERED",
    "AnswersReport",
    "Exercise",
    "answer_key",
    "chapter_exercises",
    "expected_answers",
    "grade_answers",
    "not_answered",
]

ANSWER_KEY = f"{__package__}.answer_key"
"""The module of the answer functions: in the instructor's package, not in a student's."""
INSTRUCTORS_CHECKER = (
    "Exercises not graded here: {names} {are} graded by the instructor's checker "
    "(this copy of the package has no answer key)."
)
"""What a check says of a chapter's exercises where the package has no answer key."""


@dataclass(frozen=True)
class Exercise:
    """A checkable exercise: the variable that holds its answer and what it asks for (its
    right answer is the answer key's, :func:`expected_answers`).

    ``digits``: the decimals the chapter shows (a number within half a unit of the last one
    is right); None for an answer in words. ``hint``: what to compute, shown with a wrong
    answer (never the value).
    """

    chapter: int
    name: str
    what: str
    digits: int | None = None
    hint: str = ""
    parameters: tuple[str, ...] = ()  # what of a student's variant its answer depends on


EXERCISES = (
    Exercise(
        10,
        "boardwalk_hotel",
        "Boardwalk's rent per opponent turn with a hotel",
        2,
        "read Boardwalk's (space 40) hotel rent in the chapter's table of rent per opponent turn.",
        ("lot",),
    ),
    Exercise(
        10,
        "hotel_payback",
        "opponent turns to pay back Boardwalk's hotel",
        1,
        "divide the hotel's cost (five buildings at $200) by what the "
        "hotel adds per opponent turn to the complete group's double rent.",
        ("lot",),
    ),
    Exercise(
        10,
        "best_one_house",
        "the best group per dollar with one house",
        hint="find the group with the most rent per dollar in the one-house column of "
        "the chapter's rent-per-dollar table, and give its name as text.",
        parameters=("houses",),
    ),
    Exercise(
        11,
        "num_wins_mean",
        "the mean fitness of a generation under NUM_WINS, 100 games per player",
        0,
        "each game gives 3 points to its winner and none to its other three "
        "players: how many points does a player have on average after its 100 games?",
        ("games_per_player",),
    ),
    Exercise(
        12,
        "finish_order_mean",
        "the mean fitness of a generation under FINISH_ORDER, 100 games per player",
        0,
        "each game gives 3, 2, 1 and 0 "
        "points to its four players: how many points does a player have on average "
        "after its 100 games?",
        ("games_per_player",),
    ),
)
"""Every checkable exercise, by chapter."""


def chapter_exercises(chapter: int | None) -> tuple[Exercise, ...]:
    """The checkable exercises of ``chapter``."""
    return tuple(exercise for exercise in EXERCISES if exercise.chapter == chapter)


def answer_key() -> dict[str, Callable[..., float | str]] | None:
    """The answer functions by exercise name, or None where the package was built without
    its answer key (a student's, written by ``make release``).

    Only the module's absence counts as no key: an answer key that is there but fails to
    import raises its error.
    """
    if importlib.util.find_spec(ANSWER_KEY) is None:
        return None
    return importlib.import_module(ANSWER_KEY).ANSWERS


def expected_answers(
    exercises: tuple[Exercise, ...], variant: Variant = DEFAULT
) -> dict[str, float | str] | None:
    """The right answers of ``exercises`` for a student's ``variant``, computed from the
    package; None without the answer key (the exercises are then graded by the instructor's
    checker only)."""
    key = answer_key()
    if key is None:
        return None
    parameters = variant.parameters()
    return {
        exercise.name: key[exercise.name](**{p: parameters[p] for p in exercise.parameters})
        for exercise in exercises
    }


NOT_ANSWERED = "Not answered: {name} ({how})"
"""The verdict of a required piece the notebook does not answer (the same whether the
placeholder is left in, the answer deleted or written under another name)."""


def not_answered(name: str, how: str = "") -> str:
    """The one line that says ``name`` is not answered, and how to answer it."""
    return NOT_ANSWERED.format(name=name, how=how or f"write your answer in the variable {name}")


EMPTY = (None, {"other": "ellipsis", "repr": "Ellipsis"})
"""The encoded answers that give nothing (``name = None``, ``name = ...``): not answered."""


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
    """Whether ``value`` (an encoded answer) is right, and what is wrong with it if not
    (its kind, when it is not a number or a text as the exercise asks)."""
    if exercise.digits is None:
        right = isinstance(value, str) and " ".join(value.lower().split()) == str(expected)
        return right, "is not right" if isinstance(value, str) else "is not a text"
    tolerance = 0.5 * 10 ** (-exercise.digits)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    right = number and math.isclose(value, expected, rel_tol=1e-12, abs_tol=tolerance)  # type: ignore[arg-type]
    return bool(right), "is not right" if number else "is not a number"


def _expected_text(exercise: Exercise, expected: float | str) -> str:
    """The right answer as the grader sees it (``--show-expected``): the value and its margin."""
    if exercise.digits is None:
        return f"Expected {_shown(exercise, expected)}, whatever its capitals."
    tolerance = 0.5 * 10 ** (-exercise.digits)
    return f"Expected {_shown(exercise, expected)} (within {tolerance:g})."


@dataclass(frozen=True)
class AnswersReport:
    """Each checkable exercise of a chapter: right, wrong or not answered, one row each
    (variable, verdict, note), and the summary line of each that does not pass.

    Without the answer key (``graded`` False) an answer given is neither right nor wrong:
    its verdict is ``given``, and it is left to the instructor's checker.
    """

    rows: tuple[tuple[str, str, str], ...]
    failures: tuple[str, ...] = ()
    graded: bool = True

    @property
    def wrong(self) -> list[str]:
        """The variables whose answers are wrong."""
        return [name for name, verdict, _ in self.rows if verdict == "WRONG"]

    @property
    def missing(self) -> list[str]:
        """The variables the notebook does not define (not answered)."""
        return [name for name, verdict, _ in self.rows if verdict == "not answered"]

    @property
    def passed(self) -> bool:
        """True only when every answer is given and right."""
        return all(verdict == "right" for _, verdict, _ in self.rows)

    def __str__(self) -> str:
        right = sum(verdict == "right" for _, verdict, _ in self.rows)
        lines = [f"exercises: {right} of {len(self.rows)} answered right"]
        if not self.graded:
            given = sum(verdict == "given" for _, verdict, _ in self.rows)
            lines = [
                f"exercises: {given} of {len(self.rows)} answered, not graded here "
                "(graded by the instructor's checker: this copy of the package has no answer key)"
            ]
        lines += [f"{verdict:<13} {name}: {note}" for name, verdict, note in self.rows]
        return "\n".join(lines)


def grade_answers(
    exercises: tuple[Exercise, ...],
    expected: dict[str, float | str] | None,
    given: dict[str, object],
    show_expected: bool = False,
    variant: Variant = DEFAULT,
) -> AnswersReport:
    """Grade the variables the notebook defines (``given``, encoded answers read strictly)
    against the ``expected`` values computed here (None: no answer key, see
    :func:`expected_answers`; an answer given is then left to the instructor's checker).

    A variable not defined, or left empty (:data:`EMPTY`), is not answered. A wrong answer's
    note gives the exercise's hint, not the right value, unless ``show_expected`` (for graders).
    What the exercise asks and its hint are said with the student's ``variant``'s numbers.
    """
    rows, failures = [], []
    for stored in exercises:
        what, hint = (variant.say(text, stored.chapter) for text in (stored.what, stored.hint))
        exercise = replace(stored, what=what, hint=hint)
        name = exercise.name
        if given.get(name) in EMPTY:
            failures.append(not_answered(name))
            rows.append((name, "not answered", f"write your answer in the variable {name}"))
            continue
        value = given[name]
        if expected is None:
            rows.append((name, "given", f"{_given(value)}, graded by the instructor's checker"))
            continue
        right, what = _verdict(exercise, expected[name], value)
        if right:
            rows.append((name, "right", f"{_given(value)}, {exercise.what}"))
            continue
        help_text = (
            _expected_text(exercise, expected[name]) if show_expected else f"Hint: {exercise.hint}"
        )
        failures.append(f"Wrong answer: {name} = {_given(value)} {what}. {help_text}")
        rows.append((name, "WRONG", f"{_given(value)} {what} ({exercise.what}). {help_text}"))
    return AnswersReport(tuple(rows), tuple(failures), graded=expected is not None)
