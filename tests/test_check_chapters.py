"""``python -m monopoly_lesson check`` grades what each chapter asks for.

Chapter 9: the student's own strategy (``mine``) plays the checker's games in its kernel,
and the checker replays every game from the answers it reported: a good strategy passes
with its win rates, a broken one fails with the reason and its line, a notebook without
one cannot be graded (told from its code, before it runs), and a kernel that reports other
answers than its games got is caught. The trade policy (``trader``) is played the same way
with trading on; a notebook without one fails as not answered, and so does the chapter's
starter left unchanged.
Chapters 10 to 12: the exercises' answer variables, right, wrong (told with a hint, or
with the right value for a grader) or not answered, however that came about.
Chapters 0, 7 and 8 without a take_turn: their cells. Each submission is its chapter as
handed out with the test's code written where the student writes (in place of the
chapter's starter or solution cells, tests/handed_out_notebooks.py), since the chapter is
the one whose handed-out cells a notebook holds; each test starts a kernel that runs the
whole chapter, and the strategy plays few games. The slow ones check chapters 9 to 12 as
stored in notebooks/ (they pass) and as the student edition hands them out (they do not).
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from handed_out_notebooks import answered, edition, new_cell, stored, write
from test_capstone_check import my_answer, my_offer  # the chapter's starter trade policy
from test_cli_check import check as check_in_process

GAMES = "24"  # few games: each is played in the kernel and replayed by the checker

ROOT = Path(__file__).resolve().parents[1]
IMPORTS = "from monopoly_lesson import lots, make_strategy, play_games, win_rates"
STARTER_BUY = '''\
def my_buy(game, me, space):
    """Buy while $300 stays in hand; past that, only orange and red lots."""
    if me.cash - lots.at[space, "price"] >= 300:
        return True
    return lots.at[space, "group"] in ("orange", "red")
'''
MY_BUY = STARTER_BUY.replace(">= 300", ">= 200")  # a student's change of the starter
MINE = 'mine = make_strategy("mine", buy=my_buy)'
NO_BOARDWALK = """\
def my_buy(game, me, space):
    if space == 40:
        raise ValueError("no Boardwalk for me")
    return True
"""
TOO_HIGH = 'mine = make_strategy("mine", buy=my_buy, bid=lambda game, me, space: me.cash + 1)'
TRADE_POLICY = "\n\n".join(
    [
        "from monopoly_lesson.game.strategies import completion_accepts, completion_swap",
        inspect.getsource(my_offer),
        inspect.getsource(my_answer),
        'trader = make_strategy("trader", buy=my_buy, propose_trade=my_offer, '
        "accept_trade=my_answer)",
    ]
)
OWN_TRADE_POLICY = TRADE_POLICY.replace(
    '    """The chapter\'s starter: the default answer, but never give up orange or red."""\n',
    '    """The starter\'s answer, but never pay cash for a trade."""\n'
    "    if offer.cash < 0:\n        return False\n",
)  # the chapter's own solution: the starter trade policy with a change of the student's
GRABBER = """\
def grab(game, me):
    from monopoly_lesson import Trade

    return Trade(partner=me.seat % len(game.players) + 1, take=(40,))


trader = make_strategy("trader", buy=my_buy, propose_trade=grab)
"""
NO_TRADER = "Not answered: trader (write your trade policy in the variable trader)"
LIAR = """\
import monopoly_lesson.checker.strategy_probe as probe_module

honest = probe_module.play_recorded


def lying(value, games):
    records = honest(value, games)
    for game, record in zip(games, records):
        if LIE == "bought":
            record["answers"] = [[d, True if d == "buy" else v] for d, v in record["answers"]]
        else:  # it won every game
            seat = game["seats"].index(None) + 1
            record["finish"] = [seat, *[s for s in record["finish"] if s != seat]]
    return records


exec("probe_module.play_recorded = lying")  # hidden from the checker's reading of the code
"""


def check(path: Path, *extra: str) -> subprocess.CompletedProcess:
    """``python -m monopoly_lesson check`` with a time limit of 200 s, run in this process."""
    return check_in_process(path, "--timeout", "200", *extra)


def summary(done: subprocess.CompletedProcess) -> list[str]:
    return done.stdout.split("\n\n")[0].splitlines()


STRATEGY_CELL, TRADE_POLICY_CELL = "bd7be85d", "d1f138bf"  # chapter 9's starter cells


def chapter_9(tmp_path: Path, *sources: str, trading: bool = False, name: str = "") -> tuple:
    """Chapter 9 as handed out, the student's cells in place of its starter strategy (and,
    if ``trading``, of its starter trade policy too): the file, and the number of the first
    of the student's cells."""
    replace = (STRATEGY_CELL, TRADE_POLICY_CELL) if trading else (STRATEGY_CELL,)
    book, at = answered(9, *sources, replace=replace)
    return write(book, tmp_path, name or "09_whole_game.ipynb"), at


def appended(tmp_path: Path, chapter: int, *sources: str, name: str = "student.ipynb") -> Path:
    """The chapter as handed out, with the student's cells added at its end."""
    book = edition(chapter)
    book.cells += [new_cell(source) for source in sources]
    return write(book, tmp_path, name)


def solved(tmp_path: Path, chapter: int, *sources: str, name: str = "student.ipynb") -> Path:
    """The chapter as handed out, the student's cells in place of its solution code cells."""
    return write(answered(chapter, *sources)[0], tmp_path, name)


def test_chapter_9_plays_the_students_strategy_and_trade_policy_with_their_win_rates(tmp_path):
    book, _ = chapter_9(tmp_path, IMPORTS, MY_BUY, MINE, OWN_TRADE_POLICY, trading=True)
    done = check(book, "--games", GAMES)
    assert done.returncode == 0, done.stdout + done.stderr
    first = summary(done)
    assert first[0] == "All checks pass."
    assert first[1].startswith("mine won ") and f"of {GAMES} games (95% interval " in first[1]
    assert "the heuristic player" in first[1]
    assert first[2].startswith("trader won ")
    assert f"of {GAMES} games (95% interval " in first[2] and "the heuristic player" in first[2]
    assert "graded as chapter 9 (recognised by the 42 cells 09_whole_game.ipynb hands out" in (
        done.stdout
    )
    assert f"all {GAMES} games played, every answer legal" in done.stdout
    head = "trade policy: trader (named 'trader') against heuristic, always, always, trading on"
    assert f"{head}, seats rotated, seed 2026: all {GAMES} games played" in done.stdout
    for row in ("mine", "trader", "heuristic", "always", "always#2"):
        assert f"\n  {row} " in done.stdout
    assert "take_turn" not in done.stdout


def test_chapter_9_the_chapters_starter_unchanged_is_not_answered(tmp_path):
    """The starter strategy and trade policy as the student edition hands them out (their
    docstrings aside): not the student's work, so not played."""
    offer = inspect.getsource(my_offer).replace(
        "    return trade if trade is not None and trade.cash <= 100 else None",
        "    if trade is not None and trade.cash <= 100:\n        return trade\n    return None",
    )  # as the chapter writes it
    policy = TRADE_POLICY.replace(inspect.getsource(my_offer), offer)
    book, _ = chapter_9(tmp_path, IMPORTS, STARTER_BUY, MINE, policy, trading=True)
    done = check(book, "--games", GAMES)
    assert done.returncode == 1, done.stdout + done.stderr
    assert summary(done) == [
        "Not answered: mine (the chapter's starter my_buy, unchanged: write your own "
        "strategy in the variable mine)",
        "Not answered: trader (the chapter's starter my_offer and my_answer, unchanged: "
        "write your own trade policy in the variable trader)",
    ]
    assert "games played" not in done.stdout


@pytest.mark.parametrize(
    ("strategy", "said", "line"),
    [
        (
            NO_BOARDWALK,
            "decision raised ValueError: no Boardwalk for me",
            '(cell {buy}, line 3: raise ValueError("no Boardwalk for me"))',
        ),
        (
            TOO_HIGH,
            "mine's bid decision bid $",
            '(cell {mine}, line 1: mine = make_strategy("mine", buy=my_buy, bid=lambda game',
        ),
    ],
    ids=["raises", "illegal answer"],
)
def test_chapter_9_a_broken_strategy_fails_with_the_reason_and_the_line(
    tmp_path, strategy, said, line
):
    mine = strategy if strategy.startswith("mine") else MINE
    buy = strategy if strategy.startswith("def") else MY_BUY
    book, at = chapter_9(tmp_path, IMPORTS, buy, mine)
    done = check(book, "--games", GAMES)
    assert done.returncode == 1, done.stdout + done.stderr
    first = summary(done)[0]
    assert first.startswith("Broken strategy: mine: game "), first
    assert said in first and line.format(buy=at + 1, mine=at + 2) in first
    assert "FAIL  game " in done.stdout


BAD_BID = """\
def my_bid(game, me, space):
    \"\"\"Bid more than I have for the orange lots.\"\"\"
    if lots.at[space, "group"] != "orange":
        return 0
    return me.cash + 1


mine = make_strategy("mine", buy=my_buy, bid=my_bid)
"""


def test_chapter_9_an_illegal_answer_points_at_the_return_that_gave_it(tmp_path):
    """The line shown is the ``return`` that gave the refused answer, not the ``def``; the
    game is counted from 0, as play_games counts the games of its error."""
    book, at = chapter_9(tmp_path, IMPORTS, MY_BUY, BAD_BID)
    done = check(book, "--games", GAMES)
    assert done.returncode == 1, done.stdout + done.stderr
    first = summary(done)[0]
    assert first.startswith("Broken strategy: mine: game "), first
    assert f" of the check's {GAMES} (counted from 0, as play_games counts), seed " in first
    assert "mine's bid decision bid $" in first
    assert first.endswith(f"(cell {at + 2}, line 5: return me.cash + 1)"), first
    assert f"the line: cell {at + 2}, line 5: return me.cash + 1" in done.stdout


@pytest.mark.parametrize(
    ("sources", "reason"),
    [
        (
            [IMPORTS, MY_BUY],
            'no strategy named mine (the chapter\'s mine = make_strategy("mine", buy=my_buy))',
        ),
        (
            [
                IMPORTS,
                MY_BUY,
                'bold = make_strategy("bold", buy=my_buy)',
                'careful = make_strategy("careful", buy=lambda game, me, space: False)',
            ],
            "several strategies (bold, careful) and none named mine: name the one to grade mine",
        ),
    ],
    ids=["blank", "several"],
)
def test_chapter_9_without_a_strategy_cannot_be_graded(tmp_path, sources, reason):
    """Renamed as submissions are: the chapter comes from its handed-out cells. Told from the
    code, before the cells run (this one would take a minute)."""
    slow = "import time\n\ntime.sleep(60)"
    started = time.monotonic()
    book, _ = chapter_9(tmp_path, slow, *sources, trading=True, name="alice.ipynb")
    done = check(book, "--games", GAMES)
    assert time.monotonic() - started < 40, "the notebook was run before it was refused"
    assert done.returncode == 2
    assert (
        done.stderr == f"python -m monopoly_lesson check: alice.ipynb cannot be graded: {reason}\n"
    )
    assert done.stdout == ""


def test_chapter_9_the_packages_strategy_is_not_the_students_own(tmp_path):
    book, _ = chapter_9(tmp_path, IMPORTS, "mine = 'heuristic'", trading=True)
    done = check(book, "--games", GAMES)
    assert done.returncode == 1
    assert summary(done)[:2] == [
        "Not the student's own work: mine plays the package's heuristic strategy, not the "
        "student's own.",
        NO_TRADER,
    ]


def test_chapter_9_an_illegal_proposal_fails_with_the_rule_and_the_line(tmp_path):
    book, at = chapter_9(tmp_path, IMPORTS, MY_BUY, MINE, GRABBER, trading=True)
    done = check(book, "--games", GAMES)
    assert done.returncode == 1, done.stdout + done.stderr
    first = summary(done)
    assert first[0].startswith("Broken trade policy: trader: game "), first
    assert "trader's propose_trade decision proposed Trade(partner=" in first[0]
    assert "is not a lot of seat" in first[0]
    assert first[0].endswith(
        f"(cell {at + 3}, line 4: return Trade(partner=me.seat % len(game.players) + 1, "
        "take=(40,)))"
    )  # the return that proposed it, not the def
    assert any(line.startswith("mine won ") for line in first)  # graded all the same


def test_chapter_9_without_a_trade_policy_it_is_not_answered_and_fails(tmp_path):
    book, _ = chapter_9(tmp_path, IMPORTS, MY_BUY, MINE, trading=True)
    done = check(book, "--games", GAMES)
    assert done.returncode == 1, done.stdout + done.stderr
    first = summary(done)
    assert first[0] == NO_TRADER and any(line.startswith("mine won ") for line in first)
    assert "trade policy: not played (write your trade policy in the variable trader)" in (
        done.stdout
    )


def test_chapter_10_an_answer_missing_is_not_answered_and_fails(tmp_path):
    sources = [
        "from monopoly_lesson import rent_per_turn\n\n"
        "boardwalk_hotel = rent_per_turn().at[40, 'hotel']",
        "hotel_payback = 18.2  # rounded as the chapter shows it",
    ]
    done = check(solved(tmp_path, 10, *sources))
    assert done.returncode == 1, done.stdout + done.stderr
    assert summary(done) == [
        "Not answered: best_one_house (write your answer in the variable best_one_house)"
    ]
    assert "exercises: 2 of 3 answered right" in done.stdout
    assert "right         boardwalk_hotel: 57.97" in done.stdout


WRONG = [
    "boardwalk_hotel = 58",
    "hotel_payback = '18.2'",
    "best_one_house = 'Orange'",
]


def test_chapter_10_wrong_answers_get_a_hint_not_the_answer(tmp_path):
    from monopoly_lesson.checker.exercise_answers import chapter_exercises

    done = check(solved(tmp_path, 10, *WRONG))
    assert done.returncode == 1
    hints = [exercise.hint for exercise in chapter_exercises(10)]
    assert summary(done) == [
        f"Wrong answer: boardwalk_hotel = 58 is not right. Hint: {hints[0]}",
        f"Wrong answer: hotel_payback = '18.2' is not a number. Hint: {hints[1]}",
        f"Wrong answer: best_one_house = 'Orange' is not right. Hint: {hints[2]}",
    ]
    for expected in ("57.9", "18.1", "18.2 (", "dark blue", "expected"):
        assert expected not in done.stdout.lower()


def test_chapter_10_a_grader_may_see_the_expected_answers(tmp_path):
    done = check(solved(tmp_path, 10, *WRONG), "--show-expected")
    assert done.returncode == 1
    assert summary(done) == [
        "Wrong answer: boardwalk_hotel = 58 is not right. Expected 57.97 (within 0.005).",
        "Wrong answer: hotel_payback = '18.2' is not a number. Expected 18.2 (within 0.05).",
        "Wrong answer: best_one_house = 'Orange' is not right. Expected 'dark blue', whatever "
        "its capitals.",
    ]


def not_answered_num_wins_mean(done: subprocess.CompletedProcess) -> None:
    """Chapter 11's one verdict for an answer not given, however that came about."""
    assert done.returncode == 1, done.stdout + done.stderr
    assert summary(done)[0] == (
        "Not answered: num_wins_mean (write your answer in the variable num_wins_mean)"
    )
    assert "All checks pass" not in done.stdout
    assert "not answered  num_wins_mean: write your answer in the variable" in done.stdout


@pytest.mark.parametrize(
    "answer",
    [
        "num_wins = 75",
        "# YOUR CODE HERE\nnum_wins_mean = None\nprint(num_wins_mean)",
        "num_wins_mean = ...  # to do\nprint(num_wins_mean)",
    ],
    ids=["misnamed", "None", "Ellipsis"],
)
def test_chapter_11_every_way_of_not_answering_gets_one_verdict(tmp_path, answer):
    """Each run is the whole chapter, so two ways share a run made for another test: the
    placeholder kept is the chapter as handed out (test_a_chapter_as_handed_out_does_not_pass),
    and the answer deleted is test_cli_check.py's renamed notebook claiming chapter 7."""
    not_answered_num_wins_mean(check(solved(tmp_path, 11, answer)))


def test_chapter_11_whatever_its_file_name(tmp_path):
    done = check(solved(tmp_path, 11, "num_wins_mean = 3 * 100 / 4", name="bob_ch3.ipynb"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert summary(done) == ["All checks pass."]
    assert "\n\ngraded as chapter 11 (" in done.stdout
    assert "right         num_wins_mean: 75.0" in done.stdout


def test_the_checked_kernel_draws_no_png_even_with_chromium_installed(tmp_path):
    """Chapter 0 has no take_turn: its cells are what is graded."""
    figures = (
        "from monopoly_lesson.plots import setup_figures\n\n"
        "renderer = setup_figures()\n"
        "assert renderer == 'monopoly', f'the checked kernel draws with {renderer}'"
    )
    done = check(appended(tmp_path, 0, figures), "--timeout", "120")
    assert done.returncode == 0, done.stdout + done.stderr
    assert summary(done) == ["All checks pass."]
    assert "cells: every cell ran" in done.stdout


def test_a_chapter_without_take_turn_fails_on_a_failed_cell(tmp_path):
    sources = ["x = 1", "assert x == 2, 'the exact answer differs'"]
    done = check(appended(tmp_path, 7, *sources))
    assert done.returncode == 1
    assert summary(done) == [
        "Cells that failed (the notebook was run past them and each failed cell fails):",
        "  cell 20: AssertionError: the exact answer differs",
    ]


# -- the chapters themselves: as stored (they pass) and as handed out (they do not) ---------

CAPSTONES = {
    9: "09_whole_game",
    10: "10_property_values",
    11: "11_evolving_players",
    12: "12_the_papers_experiment",
}


@pytest.fixture(scope="module")
def student_edition(tmp_path_factory):
    """The student edition of chapters 9 to 12, written once as ``make student`` writes it."""
    pytest.importorskip("nbgrader", reason="the student edition needs nbgrader")
    out = tmp_path_factory.mktemp("student")
    paths = [str(ROOT / "notebooks" / f"{name}.ipynb") for name in CAPSTONES.values()]
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "student_edition.py"), "--out", str(out), *paths],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out


@pytest.mark.slow
@pytest.mark.parametrize("chapter", sorted(CAPSTONES))
def test_a_chapter_as_handed_out_does_not_pass(student_edition, tmp_path, chapter):
    """Chapter 9 is sent renamed as chapter 0's file, its metadata claiming chapter 0: it is
    graded as handed out all the same, by its cells (this run makes the assertions of
    test_cli_check's renamed notebooks for chapter 9: one run of the whole chapter fewer)."""
    path = student_edition / f"{CAPSTONES[chapter]}.ipynb"
    if chapter == 9:
        book = nbformat.read(path, as_version=4)
        book.metadata["monopoly_lesson"] = {"chapter": 0}
        path = write(book, tmp_path, "00_welcome.ipynb")
    done = check(path, "--timeout", "400")
    assert done.returncode == 1, done.stdout + done.stderr
    first = summary(done)
    assert first[0].startswith("Not answered: "), first
    assert f"\n\ngraded as chapter {chapter} (recognised by the " in done.stdout
    if chapter == 9:  # the starter runs: nothing fails but what is not answered
        assert first == [
            "Not answered: mine (the chapter's starter my_buy, unchanged: write your own "
            "strategy in the variable mine)",
            "Not answered: trader (the chapter's starter my_offer and my_answer, unchanged: "
            "write your own trade policy in the variable trader)",
        ]
        return
    if chapter == 11:  # its placeholder kept: one way of not answering (see above)
        not_answered_num_wins_mean(done)
    # The run the student edition's tests would make again: the cells up to the first
    # placeholder run, and the first to fail is a placeholder's (the cells are counted from 1).
    cells = nbformat.read(student_edition / f"{CAPSTONES[chapter]}.ipynb", as_version=4).cells
    placeholder = next(i for i, cell in enumerate(cells) if "# YOUR CODE HERE" in cell.source)
    failed = [line.strip() for line in first if line.startswith("  cell ")]
    assert failed, "no cell called the unwritten code: is a check missing?"
    number, error = failed[0].removeprefix("cell ").split(": ", 1)
    assert int(number) > placeholder, f"cell {number} failed before the first placeholder"
    assert error.startswith(
        ("NotImplementedError: Write this part", "NotImplementedError: Paste your chapter-")
    ), error


@pytest.mark.slow
@pytest.mark.parametrize("chapter", range(9))
def test_the_chapters_before_the_capstones_as_handed_out(tmp_path, chapter):
    """Chapters 1 to 6 hand out take_turn's placeholders: not answered. Chapters 0, 7 and 8
    ask only for written answers, which a grader reads: their cells run, so they pass."""
    done = check(write(edition(chapter), tmp_path, "student.ipynb"))
    assert f"\n\ngraded as chapter {chapter} (recognised by the " in done.stdout
    if chapter in (0, 7, 8):
        assert done.returncode == 0, done.stdout + done.stderr
        assert summary(done) == ["All checks pass."]
        return
    assert done.returncode == 1, done.stdout + done.stderr
    assert summary(done)[0] == (
        "Not answered: take_turn (write your own take_turn, in place of the chapter's "
        "placeholders, and run the notebook to its end)"
    )


@pytest.mark.slow
@pytest.mark.parametrize("chapter", sorted(CAPSTONES))
def test_a_chapter_as_stored_passes(chapter):
    done = check(
        ROOT / "notebooks" / f"{CAPSTONES[chapter]}.ipynb", "--timeout", "400", "--games", GAMES
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert summary(done)[0] == "All checks pass."
    assert f"\n\ngraded as chapter {chapter} (recognised by the " in done.stdout


# -- without a kernel: which chapter, and the exercises' grading ---------------------------


def test_the_chapter_is_the_one_whose_handed_out_cells_the_notebook_holds():
    """Not its heading, file name or metadata: the cells it was handed, by their ids."""
    from monopoly_lesson.checker.notebook_chapter import notebook_chapter

    for chapter in (0, 3, 9, 12):
        for book in (edition(chapter), stored(chapter)):
            book.cells[0].source = "# 1. Moving around the board"
            book.metadata["monopoly_lesson"] = {"chapter": 1}
            found = notebook_chapter(book)
            assert found.number == chapter
            assert found.cells.changed == (
                f"cell 1 ({book.cells[0].id}, {stored(chapter).cells[0].source.splitlines()[0]})",
            )
    book = edition(5)
    book.cells = [new_cell("md:# 5. Jail"), *book.cells[1:3], new_cell("x = 1")]
    found = notebook_chapter(book)
    assert (found.number, found.cells.held, found.cells.total) == (5, 2, 17)
    assert len(found.cells.deleted) == 15 and not found.cells.intact


def test_a_notebook_of_no_chapter_or_of_two_alike_is_not_recognised():
    from monopoly_lesson.checker.notebook_chapter import notebook_chapter, unrecognised

    book = nbformat.v4.new_notebook(cells=[new_cell("md:# 9. The whole game"), new_cell("x")])
    assert notebook_chapter(book).number is None
    assert "holds none of the cells a chapter hands out" in unrecognised(
        notebook_chapter(book).cells, "a.ipynb"
    )
    one, three = edition(1), edition(3)
    book.cells = one.cells[:2] + three.cells[:2]
    found = notebook_chapter(book)
    assert found.number is None and found.cells.tied == (1, 3)
    assert unrecognised(found.cells, "a.ipynb").startswith(
        "a.ipynb cannot be graded: it holds as many handed-out cells of chapters 1 and 3; "
    )
    book.cells.append(three.cells[2])
    assert notebook_chapter(book).number == 3


def test_what_each_chapter_grades():
    from monopoly_lesson.checker.notebook_chapter import chapter_named

    assert [chapter_named(n).take_turn for n in (None, 0, 1, 6, 7, 8, 9, 10, 11, 12)] == [
        "required",
        "optional",
        "required",
        "required",
        "optional",
        "optional",
        "none",
        "none",
        "none",
        "none",
    ]
    assert chapter_named(9).strategies == ("mine", "trader") and not chapter_named(10).strategies
    assert [e.name for e in chapter_named(10).exercises] == [
        "boardwalk_hotel",
        "hotel_payback",
        "best_one_house",
    ]
    assert [e.name for e in chapter_named(11).exercises] == ["num_wins_mean"]
    assert [e.name for e in chapter_named(12).exercises] == ["finish_order_mean"]


def test_the_expected_answers_are_the_packages():
    from monopoly_lesson.checker.exercise_answers import EXERCISES, expected_answers
    from monopoly_lesson.rent_value import rent_per_turn

    expected = expected_answers(EXERCISES)
    rent = rent_per_turn()
    assert expected["boardwalk_hotel"] == pytest.approx(rent.at[40, "hotel"])
    assert round(expected["boardwalk_hotel"], 2) == 57.97
    assert round(expected["hotel_payback"], 1) == 18.2
    assert expected["best_one_house"] == "dark blue"
    assert expected["num_wins_mean"] == 75
    assert expected["finish_order_mean"] == 150


@pytest.mark.parametrize(
    ("given", "verdict"),
    [
        ({"boardwalk_hotel": 57.97}, "right"),
        ({"boardwalk_hotel": 57.971171}, "right"),
        ({"boardwalk_hotel": 57.98}, "WRONG"),
        ({"boardwalk_hotel": 58}, "WRONG"),
        ({"boardwalk_hotel": True}, "WRONG"),
        ({"boardwalk_hotel": {"float": "nan"}}, "WRONG"),
        ({"boardwalk_hotel": {"other": "Series", "repr": "40    57.97"}}, "WRONG"),
        ({}, "not answered"),
    ],
)
def test_a_number_is_right_rounded_to_the_digits_shown(given, verdict):
    from monopoly_lesson.checker.exercise_answers import chapter_exercises, grade_answers

    exercises = chapter_exercises(10)[:1]
    report = grade_answers(exercises, {"boardwalk_hotel": 57.971171366827754}, given)
    assert report.rows[0][1] == verdict
    assert report.passed == (verdict == "right")
    assert len(report.failures) == (verdict != "right")


@pytest.mark.parametrize("show_expected", [False, True])
def test_a_wrong_answer_says_so_with_its_hint_or_for_a_grader_the_answer(show_expected):
    from monopoly_lesson.checker.exercise_answers import chapter_exercises, grade_answers

    exercise = chapter_exercises(11)[0]
    report = grade_answers(
        (exercise,), {"num_wins_mean": 75.0}, {"num_wins_mean": 300}, show_expected
    )
    assert not report.passed and report.wrong == ["num_wins_mean"]
    told = "Expected 75 (within 0.5)." if show_expected else f"Hint: {exercise.hint}"
    assert report.failures == (f"Wrong answer: num_wins_mean = 300 is not right. {told}",)
    assert ("75" in str(report)) == show_expected
    assert "75" not in exercise.hint


def test_every_exercise_has_a_hint_that_does_not_give_its_answer():
    from monopoly_lesson.checker.exercise_answers import EXERCISES, expected_answers

    for exercise, expected in zip(EXERCISES, expected_answers(EXERCISES).values(), strict=True):
        shown = expected if isinstance(expected, str) else f"{expected:.{exercise.digits}f}"
        assert exercise.hint.endswith((".", "?")) and len(exercise.hint) > 40
        assert shown.lower() not in exercise.hint.lower(), exercise.name


def test_an_answer_not_given_has_one_verdict():
    from monopoly_lesson.checker.exercise_answers import chapter_exercises, grade_answers

    report = grade_answers(chapter_exercises(12), {"finish_order_mean": 150.0}, {})
    assert report.failures == (
        "Not answered: finish_order_mean (write your answer in the variable finish_order_mean)",
    )
    assert report.missing == ["finish_order_mean"] and not report.passed


@pytest.mark.parametrize(
    ("given", "right"),
    [("dark blue", True), ("Dark  Blue ", True), ("darkblue", False), ("orange", False)],
)
def test_a_group_is_right_whatever_its_capitals_and_spaces(given, right):
    from monopoly_lesson.checker.exercise_answers import chapter_exercises, grade_answers

    exercises = chapter_exercises(10)[2:]
    report = grade_answers(exercises, {"best_one_house": "dark blue"}, {"best_one_house": given})
    assert report.passed == right


@pytest.mark.parametrize("chapter", [1, 2, 3, 4])
def test_the_stored_solutions_of_chapters_1_to_4_pass_for_their_own_rules(chapter):
    """Each chapter's take_turn is graded for the rules chapters 1 to N teach, and its
    results for the trends those rules make true (about 25 to 40 s each: a real kernel)."""
    path = next((Path(__file__).resolve().parents[1] / "notebooks").glob(f"0{chapter}_*.ipynb"))
    done = check(path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert summary(done) == ["All rules pass."]
    assert f"\n\ngraded as chapter {chapter} (recognised by the " in done.stdout
    span = "chapter 1" if chapter == 1 else f"chapters 1 to {chapter}"
    assert f"take_turn: all rules pass, graded for the rules of {span} (" in done.stdout
    assert f"results, held to the trends of the rules of {span} (" in done.stdout
    assert "consistent with a correct simulation" in done.stdout


@pytest.mark.parametrize("chapter", [0, 5, 6, 7, 8])
def test_the_stored_solutions_of_the_other_chapters_pass(chapter):
    """Chapters 5 and 6 are graded against every rule, 0, 7 and 8 on their cells (chapters
    1 to 4 and 9 to 12 have tests of their own, above)."""
    path = next((Path(__file__).resolve().parents[1] / "notebooks").glob(f"0{chapter}_*.ipynb"))
    done = check(path)
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = "All rules pass." if chapter in (5, 6) else "All checks pass."
    assert summary(done) == [verdict]
    assert f"\n\ngraded as chapter {chapter} (recognised by the " in done.stdout
