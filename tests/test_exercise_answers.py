"""The exercises a check grades (chapters 10 to 12), read without a kernel: what the chapters
and the hints tell a student, which answers count as not given, and the answer key that only
the instructor's package holds."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

from monopoly_lesson.checker import exercise_answers
from monopoly_lesson.checker.answer_key import ANSWERS
from monopoly_lesson.checker.exercise_answers import (
    EXERCISES,
    answer_key,
    chapter_exercises,
    expected_answers,
    grade_answers,
    not_answered,
)
from monopoly_lesson.evolution.operators import FITNESS

ROOT = Path(__file__).resolve().parents[1]
SOLUTION = re.compile(r"^\s*### BEGIN SOLUTION.*?^\s*### END SOLUTION[^\n]*\n?", re.M | re.S)
SCORED = [e for e in EXERCISES if e.name.removesuffix("_mean") in FITNESS]
"""The exercises that ask for a generation's mean fitness under one of the scorings."""


def points_a_game_gives(scoring: str) -> list[int]:
    """The points the package gives out in one game under ``scoring``, those above 0, from
    the winner's down (NUM_WINS: [3])."""
    points = FITNESS[scoring]({"finish": np.array([[1, 2, 3, 4]])})[0]
    return sorted({int(p) for p in points if p}, reverse=True)


def points_stated(text: str, games: int = 100) -> list[int]:
    """The numbers a text states, but for a list item's number, 0 and the number of games."""
    text = re.sub(r"^\s*\d+\.\s", "", text)
    numbers = re.findall(r"(?<![\d.])\d+(?![\d.])", text)
    return [int(n) for n in numbers if int(n) not in (0, games)]


def student_prose(chapter: int) -> list[str]:
    """The chapter's Markdown as the student edition hands it out: solutions taken out."""
    path = next((ROOT / "notebooks").glob(f"{chapter:02d}_*.ipynb"))
    cells = nbformat.read(path, as_version=4).cells
    return [SOLUTION.sub("", cell.source) for cell in cells if cell.cell_type == "markdown"]


@pytest.mark.parametrize("exercise", SCORED, ids=lambda e: e.name)
def test_the_exercise_states_the_points_a_game_gives_as_the_package_scores_them(exercise):
    """The student edition asks for the mean fitness and says, in the exercise itself, what
    one game gives out under that scoring (the answers are taken out of the handout)."""
    scoring = exercise.name.removesuffix("_mean")
    paragraphs = [
        paragraph
        for text in student_prose(exercise.chapter)
        for paragraph in text.split("\n\n")
        if f"`{exercise.name}`" in paragraph
    ]
    assert len(paragraphs) == 1, paragraphs
    assert scoring.upper() in paragraphs[0]
    assert points_stated(paragraphs[0]) == points_a_game_gives(scoring), paragraphs[0]


@pytest.mark.parametrize("exercise", SCORED, ids=lambda e: e.name)
def test_following_the_hint_gives_the_checkers_answer(exercise):
    """The hint's points, shared by a game's four players over 100 games, are the expected
    answer: a student who follows it is not told a wrong answer is right, nor the reverse."""
    scoring = exercise.name.removesuffix("_mean")
    stated = points_stated(exercise.hint)
    assert stated == points_a_game_gives(scoring), exercise.hint
    per_game = sum(stated) / 4  # the points above 0 are all a game gives out
    assert per_game * 100 == pytest.approx(ANSWERS[exercise.name]())


def test_chapter_11_says_what_num_wins_scores_before_its_exercise():
    prose = "\n".join(student_prose(11)).split("## Exercises")[0]
    said = [p for p in prose.split("\n\n") if "NUM_WINS" in p]
    assert said, "chapter 11 never says what NUM_WINS scores before its exercise"
    sentence = next(s for p in said for s in p.split(". ") if "NUM_WINS" in s)
    assert points_stated(sentence) == points_a_game_gives("num_wins"), sentence


# -- what counts as not answered ---------------------------------------------------------


NUM_WINS = chapter_exercises(11)
NOT_GIVEN = not_answered("num_wins_mean")


@pytest.mark.parametrize(
    "given",
    [{}, {"num_wins_mean": None}, {"num_wins_mean": {"other": "ellipsis", "repr": "Ellipsis"}}],
    ids=["absent", "None", "Ellipsis"],
)
def test_an_answer_left_empty_is_not_answered_as_an_absent_one_is(given):
    report = grade_answers(NUM_WINS, {"num_wins_mean": 75.0}, given)
    assert report.failures == (NOT_GIVEN,)
    assert report.missing == ["num_wins_mean"] and report.wrong == [] and not report.passed
    assert "not answered  num_wins_mean: write your answer in the variable" in str(report)


@pytest.mark.parametrize(
    "value",
    [0, 0.0, {"float": "nan"}, "", "75", {"other": "NotImplementedType", "repr": "NotImplemented"}],
)
def test_a_number_or_any_other_value_is_an_answer(value):
    """Only None and ``...`` are left empty: 0, NaN and a text are answers, and wrong here."""
    report = grade_answers(NUM_WINS, {"num_wins_mean": 75.0}, {"num_wins_mean": value})
    assert report.wrong == ["num_wins_mean"] and report.missing == []
    assert report.failures[0].startswith("Wrong answer: num_wins_mean = ")


def test_the_instructors_package_has_an_answer_function_for_each_exercise():
    assert answer_key() is ANSWERS
    assert list(ANSWERS) == [exercise.name for exercise in EXERCISES]
    assert expected_answers(NUM_WINS) == {"num_wins_mean": 75.0}


@pytest.fixture
def no_answer_key(monkeypatch):
    """The package as a student has it: built without its answer key (make release)."""
    monkeypatch.setattr(exercise_answers, "ANSWER_KEY", "monopoly_lesson.checker.no_answer_key")


@pytest.mark.parametrize("value", [75.0, 300, "75"])
def test_without_the_answer_key_an_answer_is_left_to_the_instructor(no_answer_key, value):
    """Right or wrong, an answer given is neither: nothing is compared, no hint given."""
    expected = expected_answers(NUM_WINS)
    assert expected is None
    report = grade_answers(NUM_WINS, expected, {"num_wins_mean": value})
    assert report.failures == () and report.wrong == [] and not report.graded
    assert report.rows[0][1] == "given"
    text = str(report)
    assert "graded by the instructor's checker" in text
    assert "right" not in text and "Hint" not in text
    assert "75" not in text.replace(str(value), ""), "the right answer is given away"


def test_without_the_answer_key_an_answer_not_given_is_still_not_answered(no_answer_key):
    report = grade_answers(NUM_WINS, expected_answers(NUM_WINS), {"num_wins_mean": None})
    assert report.failures == (NOT_GIVEN,)


def test_an_answer_key_that_fails_to_import_is_not_taken_for_an_absent_one(monkeypatch, tmp_path):
    (tmp_path / "broken_answer_key.py").write_text("raise ImportError('no module named numpy')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(exercise_answers, "ANSWER_KEY", "broken_answer_key")
    with pytest.raises(ImportError, match="numpy"):
        expected_answers(NUM_WINS)
