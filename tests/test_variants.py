"""Per-student variants: each student's editions ask for numbers of their own, and the
checker grades each student's answers for that student's numbers."""

import csv
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from handed_out_notebooks import answered, edition, write

from monopoly_lesson.checker.exercise_answers import (
    chapter_exercises,
    expected_answers,
    grade_answers,
)
from monopoly_lesson.checker.variants import (
    DEFAULT,
    GAMES_PER_PLAYER,
    HOUSES,
    LOTS,
    REWRITES,
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
    assert all(v.lot in LOTS and v.houses in HOUSES for v in variants)
    assert DEFAULT.lot not in LOTS and DEFAULT.houses not in HOUSES
    assert len({v.lot for v in variants}) >= 6 and {v.houses for v in variants} == set(HOUSES)
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
    old = notebook_variant(book)  # written before chapter 10 had variants: its stored ones
    assert old == Variant("alice", 130) and (old.lot, old.houses) == (40, 1)
    book.metadata["monopoly_lesson"] = {"variant": variant_for("bob").metadata()}
    assert notebook_variant(book) == variant_for("bob")
    for bad in [
        {"games_per_player": 7},
        {"lot": 36},
        {"lot": 32.0},
        {"houses": 2},
        {"houses": True},
    ]:
        said = {"student": "x", "games_per_player": 130, "lot": 32, "houses": 3, **bad}
        book.metadata["monopoly_lesson"] = {"variant": said}
        assert notebook_variant(book) == DEFAULT, bad  # not a variant the lesson makes


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


# Chapter 10: the street whose hotel is asked about, and the houses of the best group.

CHAPTER_10 = ROOT / "notebooks" / "10_property_values.ipynb"
ALL_OF_CHAPTER_10 = [Variant("x", 100, lot, houses) for lot in LOTS for houses in HOUSES]
STORED_WORDS = re.compile(
    r"Boardwalk|space\s+40\b|per dollar with one house|one-house|not\s+orange"
)
"""What chapter 10's exercises say of the stored lot and houses, which a variant says otherwise."""


def shown(exercise, value):
    """An answer as the chapter shows it (a group's name as it is)."""
    return value if exercise.digits is None else round(value, exercise.digits)


def test_chapter_10s_answers_are_read_from_the_chapters_tables():
    """The stored answers are today's; a street's hotel costs five of its buildings."""
    from monopoly_lesson import lots, rent_per_dollar, rent_per_turn

    table, best = rent_per_turn(), rent_per_dollar().idxmax()
    for variant in [DEFAULT, *ALL_OF_CHAPTER_10]:
        hotel, group = table.at[variant.lot, "hotel"], table.at[variant.lot, "complete_group"]
        assert expected_answers(chapter_exercises(10), variant) == {
            "boardwalk_hotel": hotel,
            "hotel_payback": 5 * lots.at[variant.lot, "house_cost"] / (hotel - group),
            "best_one_house": best[f"houses_{variant.houses}"],
        }
    assert {lots.at[lot, "house_cost"] for lot in LOTS} == {150, 200}


def test_each_chapter_10_variant_has_answers_of_its_own():
    """At the digits the chapter shows, no street's answers are Boardwalk's or another
    street's, and each number of houses has a best group other than one house's."""
    from monopoly_lesson.checker.answer_key import best_one_house

    hotel, payback, best = chapter_exercises(10)
    answers = {
        v: expected_answers((hotel, payback, best), v) for v in [DEFAULT, *ALL_OF_CHAPTER_10]
    }

    def passes(exercise, right, given):
        expected = {exercise.name: answers[right][exercise.name]}
        given = {exercise.name: shown(exercise, answers[given][exercise.name])}
        return grade_answers((exercise,), expected, given).passed

    for exercise in (hotel, payback):
        for right in answers:
            for given in answers:
                assert passes(exercise, right, given) is (right.lot == given.lot), (right, given)
    for variant in ALL_OF_CHAPTER_10:
        assert not passes(best, variant, DEFAULT) and not passes(best, DEFAULT, variant)
    assert best_one_house(2) == best_one_house(1)  # why two houses makes no variant


def chapter_10_texts(book) -> list[str]:
    """What chapter 10's exercises say: their Markdown cells after ``## Exercises``."""
    start = next(i for i, cell in enumerate(book.cells) if "## Exercises" in cell.source)
    return [cell.source for cell in book.cells[start:-1] if cell.cell_type == "markdown"]


def test_every_rewrite_of_chapter_10_finds_its_stored_phrase():
    """A chapter reworded so that a rewrite finds nothing fails here, not in a student's hands."""
    stored = nbformat.read(CHAPTER_10, as_version=4)
    texts = chapter_10_texts(stored) + [t for e in chapter_exercises(10) for t in (e.what, e.hint)]
    for chapters, _, phrase, _ in REWRITES:
        if 10 in chapters:
            assert any(re.search(phrase, text) for text in texts), phrase
    assert all(DEFAULT.say(text, 10) == text for text in texts)


@pytest.mark.parametrize("variant", ALL_OF_CHAPTER_10, ids=lambda v: f"{v.lot}-{v.houses}")
def test_a_chapter_10_edition_names_the_students_street_and_houses(variant):
    from monopoly_lesson import lots
    from monopoly_lesson.checker.notebook_chapter import notebook_chapter

    plain, theirs = edition(10), edition(10, variant)
    one, two, three = chapter_10_texts(theirs)
    title, cost = lots.at[variant.lot, "title"], lots.at[variant.lot, "house_cost"]
    houses = {3: "three", 4: "four"}[variant.houses]
    assert f"How much does {title} (space {variant.lot}) with a hotel" in one
    assert f"(five buildings at <span>\\${cost}</span>)" in one
    assert f"the best per dollar with {houses} houses?" in two
    assert three == chapter_10_texts(plain)[2]  # the jail rule's question asks no number
    hotel, payback, best = (
        [variant.say(text, 10) for text in (e.what, e.hint)] for e in chapter_exercises(10)
    )
    assert hotel == [
        f"{title}'s rent per opponent turn with a hotel",
        f"read {title}'s (space {variant.lot}) hotel rent in the chapter's table of rent per "
        "opponent turn.",
    ]
    assert payback[0] == f"opponent turns to pay back {title}'s hotel"
    assert f"(five buildings at ${cost})" in payback[1]
    assert best[0] == f"the best group per dollar with {houses} houses"
    assert f"in the {houses}-house column" in best[1]
    for text in [one, two, *hotel, *payback, *best]:
        assert not STORED_WORDS.search(text), text
        assert cost == 200 or "$200" not in text, text
    assert notebook_variant(theirs) == variant and notebook_chapter(theirs).cells.intact
    changed = [n for n, (a, b) in enumerate(zip(plain.cells, theirs.cells, strict=True)) if a != b]
    assert [theirs.cells[n].source for n in changed] == [one, two]  # and nothing else


def test_chapter_10_is_graded_for_the_students_own_street_and_houses():
    exercises = chapter_exercises(10)
    alice, classmate = variant_for("alice"), classmate_of_alice()
    right = expected_answers(exercises, alice)
    for given, wrong in [
        (right, set()),
        (expected_answers(exercises, classmate), {"boardwalk_hotel", "hotel_payback"}),
        (expected_answers(exercises), {"boardwalk_hotel", "hotel_payback", "best_one_house"}),
    ]:
        shown_given = {e.name: shown(e, given[e.name]) for e in exercises}
        assert set(grade_answers(exercises, right, shown_given, variant=alice).wrong) == wrong
    # Every variant's best group is orange: the classmate's passes, the stored one does not.
    assert expected_answers(exercises, classmate)["best_one_house"] == right["best_one_house"]


def classmate_of_alice() -> Variant:
    """The variant of the first student of the class whose street is not alice's."""
    return next(variant_for(s) for s in STUDENTS if variant_for(s).lot != variant_for("alice").lot)


def alices_chapter_10(folder: Path, *sources: str) -> Path:
    """Alice's edition of chapter 10, as the roster writes it, answered with ``sources``."""
    book, _ = answered(10, *sources, variant=variant_for("alice"))
    return write(book, folder, CHAPTER_10.name)


def computed_for(variant: Variant) -> list[str]:
    """The answers as a student of ``variant`` computes them, from the chapter's tables."""
    from monopoly_lesson import lots

    lot, cost = variant.lot, 5 * lots.at[variant.lot, "house_cost"]
    return [
        f'boardwalk_hotel = table.at[{lot}, "hotel"]',
        f'hotel_payback = {cost} / (table.at[{lot}, "hotel"] - table.at[{lot}, "complete_group"])',
        f'best_one_house = per_dollar.idxmax()["houses_{variant.houses}"]',
    ]


STORED_SOLUTION = [
    "boardwalk_hotel = 57.97",
    "hotel_payback = 18.2",
    "best_one_house = 'dark blue'",
]


def test_a_chapter_10_edition_passes_for_its_student_with_their_own_numbers(tmp_path):
    """The whole chapter is run: the answers are read from its kernel as a student's are."""
    from test_cli_check import check as check_here

    done = check_here(
        alices_chapter_10(tmp_path, *computed_for(variant_for("alice"))), "--student", "alice"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("All checks pass.\n")
    assert "exercises: 3 of 3 answered right" in done.stdout


@pytest.mark.parametrize(
    ("whose", "wrong"),
    [
        ("stored", ["boardwalk_hotel", "hotel_payback", "best_one_house"]),
        ("classmate's", ["boardwalk_hotel", "hotel_payback"]),
    ],
)
def test_a_chapter_10_edition_fails_its_student_with_numbers_not_their_own(tmp_path, whose, wrong):
    from test_cli_check import check as check_here

    from monopoly_lesson import lots

    sources = STORED_SOLUTION if whose == "stored" else computed_for(classmate_of_alice())
    done = check_here(alices_chapter_10(tmp_path, *sources), "--student", "alice")
    assert done.returncode == 1, done.stdout + done.stderr
    failures = done.stdout.split("\n\n")[0].splitlines()
    assert [line.split(" = ")[0] for line in failures] == [f"Wrong answer: {n}" for n in wrong]
    alice = variant_for("alice")
    title = lots.at[alice.lot, "title"]
    assert f"Hint: read {title}'s (space {alice.lot}) hotel rent" in failures[0]
