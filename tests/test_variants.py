"""Per-student variants: each student's editions ask for numbers of their own, and the
checker grades each student's answers for that student's numbers."""

import csv
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from monopoly_lesson.checker.exercise_answers import (
    chapter_exercises,
    expected_answers,
    grade_answers,
)
from monopoly_lesson.checker.variants import (
    DEFAULT,
    GAMES_PER_PLAYER,
    Variant,
    notebook_variant,
    variant_for,
)

ROOT = Path(__file__).resolve().parents[1]
CHAPTER_11 = ROOT / "notebooks" / "11_evolving_players.ipynb"
STUDENTS = [f"student{n:02d}" for n in range(30)]


def test_a_students_variant_is_their_own_every_time_and_never_the_solutions():
    variants = [variant_for(student) for student in STUDENTS]
    assert variants == [variant_for(student) for student in STUDENTS]
    assert all(v.games_per_player in GAMES_PER_PLAYER for v in variants)
    assert DEFAULT.games_per_player not in GAMES_PER_PLAYER
    assert len({v.games_per_player for v in variants}) >= 8  # a class is spread out
    for bad in ("", "   ", None, 7):
        with pytest.raises(ValueError, match="a student must be named"):
            variant_for(bad)


@pytest.mark.parametrize("chapter", [11, 12])
def test_each_students_answer_is_graded_for_their_own_numbers(chapter):
    (exercise,) = chapter_exercises(chapter)
    alice, bob = variant_for("alice"), variant_for("bob")
    assert alice.games_per_player != bob.games_per_player
    theirs = {v: expected_answers((exercise,), v)[exercise.name] for v in (DEFAULT, alice, bob)}
    assert theirs[DEFAULT] == {11: 75, 12: 150}[chapter]  # the stored solution's
    assert theirs[alice] == theirs[DEFAULT] * alice.games_per_player / 100
    for given, variant, right in [
        (theirs[alice], alice, True),
        (theirs[bob], alice, False),  # a classmate's number
        (theirs[DEFAULT], alice, False),  # the stored solution's
        (theirs[DEFAULT], DEFAULT, True),
    ]:
        report = grade_answers(
            (exercise,), {exercise.name: theirs[variant]}, {exercise.name: given}, variant=variant
        )
        assert report.passed is right, (given, variant)
    wrong = grade_answers(
        (exercise,), {exercise.name: theirs[alice]}, {exercise.name: 1.0}, variant=alice
    )
    assert f"after its {alice.games_per_player} games" in wrong.failures[0]
    assert str(theirs[alice]) not in wrong.failures[0].split("Hint")[1]


def editions(folder: Path, rows: list[list[str]]) -> subprocess.CompletedProcess:
    """``tools/student_edition.py --roster`` for a roster of ``rows``, for chapter 11."""
    roster = folder / "roster.csv"
    with roster.open("w", newline="") as file:
        csv.writer(file).writerows(rows)
    command = ["tools/student_edition.py", "--roster", str(roster), "--out", str(folder / "out")]
    return subprocess.run(
        [sys.executable, *command, str(CHAPTER_11)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_the_roster_writes_one_edition_per_student_asking_their_numbers(tmp_path):
    chapter = CHAPTER_11
    done = editions(tmp_path, [["student", "name"], ["alice", "A"], ["bob", "B"]])
    assert done.returncode == 0, done.stderr
    for student in ("alice", "bob"):
        book = nbformat.read(tmp_path / "out" / student / chapter.name, as_version=4)
        variant = variant_for(student)
        assert notebook_variant(book) == variant
        [asked] = [c.source for c in book.cells if "`num_wins_mean`" in c.source]
        assert f"with {variant.games_per_player} games per player" in asked
        assert "100 games per player" not in asked
        assert f"{student}: {variant.games_per_player} games per player" in done.stdout
    from monopoly_lesson.checker.notebook_chapter import notebook_chapter

    assert notebook_chapter(book).cells.intact  # the variant touches no handed-out cell


@pytest.mark.parametrize(
    ("rows", "says"),
    [
        ([["name"], ["alice"]], "'student' column"),
        ([["student"], ["a b"]], "line 2"),
        ([["student"], ["al"], ["al"]], "named twice"),
    ],
)
def test_a_bad_roster_is_refused_in_one_line(tmp_path, rows, says):
    done = editions(tmp_path, rows)
    assert done.returncode == 2 and says in done.stderr and done.stderr.count("\n") == 1


def test_a_notebooks_metadata_says_its_variant_or_the_stored_one():
    book = nbformat.v4.new_notebook()
    assert notebook_variant(book) == DEFAULT
    book.metadata["monopoly_lesson"] = {"variant": {"student": "alice", "games_per_player": 130}}
    assert notebook_variant(book) == Variant("alice", 130)
    book.metadata["monopoly_lesson"] = {"variant": {"student": "x", "games_per_player": 7}}
    assert notebook_variant(book) == DEFAULT  # not a variant the lesson makes


def alices_chapter_11(folder: Path, answer: str) -> Path:
    """Chapter 11 as stored, with the metadata of alice's edition and ``answer`` given."""
    book = nbformat.read(CHAPTER_11, as_version=4)
    [cell] = [c for c in book.cells if c.get("id") == "52e766ea"]
    cell.source = f"num_wins_mean = {answer}\nprint(num_wins_mean)"
    book.metadata["monopoly_lesson"] = {"chapter": 11, "variant": variant_for("alice").metadata()}
    path = folder / "11_evolving_players.ipynb"
    nbformat.write(book, path)
    return path


def check(path: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "check", str(path), *extra],
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_another_students_edition_is_not_graded(tmp_path):
    done = check(alices_chapter_11(tmp_path, "75"), "--student", "bob")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith(
        "Not graded: this notebook is the edition handed to alice, not to bob\n"
    )


def test_the_stored_solutions_number_is_wrong_for_a_student_of_other_numbers(tmp_path):
    """The whole chapter is run: the answer is read from its kernel as a student's is."""
    done = check(alices_chapter_11(tmp_path, "75"), "--student", "alice", "--timeout", "800")
    assert done.returncode == 1, done.stdout + done.stderr
    games = variant_for("alice").games_per_player
    assert done.stdout.startswith("Wrong answer: num_wins_mean = 75 is not right. Hint: ")
    assert f"after its {games} games?" in done.stdout.splitlines()[0]
