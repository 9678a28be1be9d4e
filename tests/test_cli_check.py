"""``python -m monopoly_lesson check NOTEBOOK``: exit 0 pass, 1 a rule fails, 2 cannot be graded.

A notebook is run past the cells that fail (a chapter check that trips on a broken rule is
the most common), graded at the end, and the failed cells are listed; the chapter's own
handed-out checks that fail fail the check. Submissions start from a real chapter (its
student edition, or as stored with its solutions) with the test's code written where the
student writes (tests/handed_out_notebooks.py): the chapter is the one whose handed-out
cells a notebook holds, and one that holds none is not graded.
"""

import contextlib
import io
import re
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from handed_out_notebooks import answered, edition, new_cell, submission, write

from monopoly_lesson.checker.isolation import NOT_ISOLATED
from monopoly_lesson.cli import main

OWN_TAKE_TURN = """\
CHANCE, CHEST = (8, 23, 37), (3, 18, 34)
ADVANCE = {"Advance to Go": 1, "Advance to Illinois Ave.": 25,
           "Advance to St. Charles Place": 12, "Take a ride on the Reading Railroad": 6,
           "Take a walk on the Boardwalk": 40}
NEAREST = {"Advance token to nearest Utility": (13, 29),
           "Advance token to the nearest Railroad": (6, 16, 26, 36)}


def send_to_jail(player, tracker):
    player.go_to_jail()
    tracker.tally(11)


def land(player, tracker, chance, community):
    if player.pos == 31:
        send_to_jail(player, tracker)
        return True
    tracker.tally(player.pos)
    if player.pos in CHANCE:
        return card(player, tracker, chance, chance, community)
    if player.pos in CHEST:
        return card(player, tracker, community, chance, community)
    return False


def card(player, tracker, deck, chance, community):
    text = deck.card(deck.draw())
    if text == "Go to Jail":
        send_to_jail(player, tracker)
        return True
    if text in ADVANCE:
        player.move_forward((ADVANCE[text] - player.pos) % 40)
    elif text in NEAREST:
        target = min(NEAREST[text], key=lambda s: (s - player.pos - 1) % 40)
        player.move_forward((target - player.pos) % 40)
    elif text == "Go Back 3 Spaces":
        player.move_to(player.pos - 3)
    else:
        return False
    return land(player, tracker, chance, community)


def take_turn(player, tracker, *, dice, chance, community):
    if player.in_jail:
        player.start_jail_turn()
        d1, d2 = dice.roll()
        if d1 == d2 or player.jail_turns >= 3:
            player.leave_jail()
            player.move_forward(d1 + d2)
            land(player, tracker, chance, community)
        else:
            tracker.tally(11)
        return
    for roll in (1, 2, 3):
        d1, d2 = dice.roll()
        if d1 == d2 and roll == 3:
            send_to_jail(player, tracker)
            return
        player.move_forward(d1 + d2)
        if land(player, tracker, chance, community) or d1 != d2:
            return
"""

GOOD = (
    OWN_TAKE_TURN
    + """

from monopoly_lesson import simulate

result = simulate(seed=2026, take_turn=take_turn, progress=False)
"""
)

NO_ROLL_AGAIN = """\
def take_turn(player, tracker, *, dice, chance, community):
    d1, d2 = dice.roll()
    player.move_forward(d1 + d2)
    tracker.tally(player.pos)
"""


BROKEN_SEND_TO_JAIL = """\
def send_to_jail(player, tracker):
    player.move_to(11)  # but Jail is not tallied


def take_turn(player, tracker, *, dice, chance, community):
    d1, d2 = dice.roll()
    player.move_forward(d1 + d2)
    if player.pos == 31:
        send_to_jail(player, tracker)
    else:
        tracker.tally(player.pos)
"""

RUN_PAST_IT = """\
from monopoly_lesson import simulate

result = simulate(games=20, seed=1, take_turn=take_turn, progress=False)
"""


def notebook(tmp_path, *sources, name="student.ipynb"):
    """A notebook of the given cells only ("md:" for Markdown): one of no chapter."""
    book = nbformat.v4.new_notebook()
    book.cells = [
        nbformat.v4.new_markdown_cell(source[3:])
        if source.startswith("md:")
        else nbformat.v4.new_code_cell(source)
        for source in sources
    ]
    path = tmp_path / name
    nbformat.write(book, path)
    return path


def check(path, *extra):
    """``python -m monopoly_lesson check`` as the command line runs it, in this process: the
    exit status and what it printed, as a finished process gives them. (A process of its
    own would load the package again for each check: test_not_a_notebook_or_missing and
    test_check_hostile start them.)"""
    out, err = io.StringIO(), io.StringIO()
    args = ["check", str(path), *extra]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(args)
    return subprocess.CompletedProcess(args, status, out.getvalue(), isolated(err.getvalue()))


def check_process(path, *extra):
    """``check`` in a process of its own, as a grader's shell starts it."""
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "check", str(path), *extra],
        capture_output=True,
        text=True,
        timeout=300,
    )
    done.stderr = isolated(done.stderr)
    return done


def isolated(stderr: str) -> str:
    """A check's stderr without the line that says it isolates nothing (on a machine
    without bubblewrap; test_isolation tests that line)."""
    return stderr.replace(NOT_ISOLATED + "\n", "")


def check_here(capsys, path, *extra):
    """``check`` as the command line runs it, in this process (for what is refused before
    any kernel starts): ``(exit status, stdout, stderr)``."""
    status = main(["check", str(path), *extra])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_correct_notebook_passes(tmp_path):
    done = check(submission(tmp_path, 6, GOOD, RUN_PAST_IT, base="stored"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("All rules pass.\n\n")
    assert "\n\ngraded as chapter 6 (recognised by the 22 cells 06_full_simulation.ipynb " in (
        done.stdout
    )
    assert "take_turn: all rules pass" in done.stdout
    assert "results: consistent with a correct simulation" in done.stdout
    assert "(from result)" in done.stdout
    assert "Cells that failed" not in done.stdout


def test_a_broken_rule_exits_1_with_the_report(tmp_path):
    done = check(submission(tmp_path, 6, NO_ROLL_AGAIN, base="stored"))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Broken rules: ") and "doubles roll again" in lines[0]
    assert "FAIL  doubles roll again" in done.stdout
    summary = done.stdout.split("\n\n")[0].splitlines()
    assert "The chapter's own checks failed: cell 8 (64936f31, check_chapter(take_turn, 6))" in (
        summary
    )
    assert "  cell 8: AssertionError: Chapter 6: " in "\n".join(summary)


def test_a_failing_chapter_check_is_graded_and_fails_the_check(tmp_path):
    """The issue's submission: send_to_jail does not tally Jail, so the chapter's own check
    (handed out) fails, and with it the check."""
    book = submission(tmp_path, 2, BROKEN_SEND_TO_JAIL, base="stored", replace=("02-05",))
    done = check(book)
    assert done.returncode == 1, done.stderr
    summary = done.stdout.split("\n\n")[0].splitlines()
    assert summary[0] == (  # graded for chapter 2's rules: no cards, no doubles, no jail stay
        "Broken rules: Go to Jail by dice: from Indiana Avenue (24), 3 and 4 (scenario 1 of "
        "the rules); 30 random games of 200 turns"
    )
    assert summary[1:] == [
        "The chapter's own checks failed: cell 10 (02-08, check_chapter(take_turn, 2))",
        "Cells that failed (the notebook was run past them and graded at the end):",
        "  cell 10: AssertionError: Chapter 2: 1 of 3 checks fail; the first: Go to Jail by "
        "dice: from Indiana Avenue (24), 3 and 4 (scenario 1 of the rules), turn 1.",
    ]
    assert (
        "FAIL  Go to Jail by dice: from Indiana Avenue (24), 3 and 4 (scenario 1 of the rules) "
        "(turn 1): your take_turn tallied nothing this turn; the rules tally Jail (11)"
        in done.stdout
    )
    assert "(from after)" in done.stdout, "the cells after the failure ran too"
    assert done.stderr == ""


def test_a_take_turn_chapter_fails_on_its_own_failing_check_alone(tmp_path):
    """Every rule passes, but the chapter's own check cell (handed out) fails: the check
    fails, naming it (a failed cell of the student's own is only listed)."""
    sabotage = "def check_chapter(*args, **kwargs):\n    raise AssertionError('not today')"
    book, at = answered(6, GOOD, base="stored")
    book.cells.insert(at, new_cell(sabotage))  # before the chapter's check cell
    book.cells.append(new_cell("raise RuntimeError('a cell of my own')"))
    done = check(write(book, tmp_path, "06_full_simulation.ipynb"))
    assert done.returncode == 1, done.stdout + done.stderr
    summary = done.stdout.split("\n\n")[0].splitlines()
    assert summary[0] == (
        "The chapter's own checks failed: cell 9 (64936f31, check_chapter(take_turn, 6))"
    )
    assert "  cell 9: AssertionError: not today" in summary
    assert any(line.endswith("RuntimeError: a cell of my own") for line in summary)
    assert "take_turn: all rules pass" in done.stdout


@pytest.mark.parametrize(
    ("sources", "message"),
    [
        (
            ["import time\ntime.sleep(60)"],
            "student.ipynb cannot be graded: it ran longer than "
            "the time limit of 8 s in the notebook's cells (cell 4 of 18 was running)",
        ),
    ],
)
def test_notebooks_that_cannot_be_graded_exit_2_with_the_reason(tmp_path, sources, message):
    limit = "8" if "sleep" in sources[0] else "60"
    book, at = answered(1, "x = 1")
    book.cells[at - 1 : at] = [new_cell(source) for source in sources]
    done = check(write(book, tmp_path, "student.ipynb"), "--timeout", limit)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""


PLACEHOLDER = (
    "def take_turn(player, tracker, *, dice, chance, community):\n"
    '    """One whole turn: roll, move, tally."""\n'
    "    # YOUR CODE HERE\n"
    '    raise NotImplementedError("Write this part of take_turn, then run its cell again.")\n'
)  # the student edition's take_turn, as handed out


@pytest.mark.parametrize(
    "sources",
    [
        [PLACEHOLDER],  # the placeholder left in
        ["x = 1"],  # take_turn deleted
        [GOOD.replace("def take_turn(", "def my_take_turn(")],  # another name
        [PLACEHOLDER, "raise RuntimeError('half done')"],
        [PLACEHOLDER.replace("Write this part of take_turn", "To do")],
        [PLACEHOLDER.split("    # YOUR")[0] + "    # YOUR CODE HERE\n    pass\n"],
        [PLACEHOLDER.split("    # YOUR")[0] + "    return None\n"],
    ],
    ids=[
        "placeholder",
        "deleted",
        "misnamed",
        "with-a-failed-cell",
        "its-message-edited",
        "pass",
        "return-none",
    ],
)
def test_every_way_of_leaving_take_turn_unanswered_gets_one_verdict(tmp_path, sources):
    done = check(submission(tmp_path, 1, *sources))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == (
        "Not answered: take_turn (write your own take_turn, in place of the chapter's "
        "placeholders, and run the notebook to its end)"
    )
    assert "take_turn: not graded (not answered)" in done.stdout
    assert "FAIL" not in done.stdout and "Broken rules" not in done.stdout


CHAPTER_1_NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "01_moving_around.ipynb"
FORGETS_TO_ROLL = (
    "def take_turn(player, tracker, *, dice, chance, community):\n"
    '    """Roll two dice, move forward by the total, tally the space landed on."""\n'
    "    player.move_forward(7)  # the dice are never rolled\n"
    "    tracker.tally(player.pos)\n"
)


def chapter_1_with(tmp_path, take_turn):
    """Chapter 1 as a student hands it in, with ``take_turn`` in place of the solution's."""
    book = nbformat.read(CHAPTER_1_NOTEBOOK, as_version=4)
    cells = [cell for cell in book.cells if cell.cell_type == "code"]
    cell = next(cell for cell in cells if "def take_turn(" in cell.source)
    cell.source = take_turn
    path = tmp_path / "alice_01.ipynb"
    nbformat.write(book, path)
    return path, book


@pytest.mark.parametrize(
    ("take_turn", "verdict"),
    [
        (FORGETS_TO_ROLL, "Broken rules: "),
        (PLACEHOLDER.split("    # YOUR")[0] + "    pass\n", "Not answered: take_turn ("),
    ],
    ids=["forgets-to-roll", "pass"],
)
def test_a_take_turn_that_never_rolls_is_graded_not_stopped_by_the_time_limit(
    tmp_path, take_turn, verdict
):
    """Chapter 1 plays its take_turn "until the preset dice are used up": a turn that rolls
    no dice stops that cell at once, with the rule it breaks, and the rest is graded."""
    path, book = chapter_1_with(tmp_path, take_turn)
    done = check(path, "--timeout", "120")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ran longer than the time limit" not in done.stdout + done.stderr
    summary = done.stdout.split("\n\n")[0].splitlines()
    assert summary[0].startswith(verdict), summary
    preset = next(
        n for n, cell in enumerate(book.cells, 1) if "play_preset(take_turn" in cell.source
    )
    assert (
        f"  cell {preset}: NoRollError: turn 1 rolled no dice: every turn starts with a roll of "
        "the dice (take_turn must call dice.roll())."
    ) in summary


@pytest.mark.parametrize(
    ("patch", "changed"),
    [
        (
            "import numpy as np\n\n_rng = np.random.default_rng\n"
            "np.random.default_rng = lambda seed=None: _rng(0)",
            "numpy.random.default_rng",
        ),
        ("import random\n\nsetattr(random, 'seed', lambda *args, **kwargs: None)", "random.seed"),
    ],
    ids=["numpy", "random"],
)
def test_correct_code_that_patches_the_libraries_randomness_is_not_graded(tmp_path, patch, changed):
    """As a patch of the package is: nothing is played, and the library is named as itself."""
    from monopoly_lesson.checker.notebook_check import NOT_GRADED

    book, at = answered(6, patch, GOOD)
    done = check(write(book, tmp_path, "06_full_simulation.ipynb"))
    assert done.returncode == 1, done.stdout + done.stderr
    summary = done.stdout.split("\n\n")[0]
    assert summary == f"{NOT_GRADED}: cell {at} changes a library's own code ({changed})"
    assert "graded: nothing" in done.stdout
    assert "Broken rules" not in done.stdout and "PASS" not in done.stdout


def test_a_check_past_its_time_in_the_graded_games_says_so(tmp_path):
    """The strategy's games are what take long (90 s leaves a loaded machine time to start
    the kernel and run the chapter's cells, 10 to 30 s; the test waits the whole limit)."""
    slow = (
        "import time\n\nfrom monopoly_lesson import make_strategy\n\n"
        "mine = make_strategy('mine', buy=lambda game, me, space: "
        "time.sleep(0.5) or True)"
    )
    book = edition(9)
    book.cells.append(new_cell(slow))  # after the chapter's own games, which play its starter
    done = check(write(book, tmp_path, "alice_09.ipynb"), "--timeout", "90")
    assert done.returncode == 2
    assert re.match(
        r"python -m monopoly_lesson check: alice_09\.ipynb cannot be graded: it ran longer than "
        r"the time limit of 90 s in the graded games \(strategy mine's 400 games, \d+ "
        r"replayed\), after its cells ran in \d+ s\n$",
        done.stderr,
    ), done.stderr


def test_a_check_past_its_time_says_which_part_ran_long():
    from types import SimpleNamespace

    from monopoly_lesson.checker.notebook_check import _too_long

    def session(running, ran_in):
        return SimpleNamespace(running=running, cells_ran_in=ran_in)

    limit = "it ran longer than the time limit of 60 s"
    assert _too_long(60, session(0, None), 5, "") == f"{limit} while its kernel started"
    assert _too_long(60, session(3, None), 5, "") == (
        f"{limit} in the notebook's cells (cell 3 of 5 was running)"
    )
    assert _too_long(60, session(0, 41.6), 5, "the graded games (x)") == (
        f"{limit} in the graded games (x), after its cells ran in 42 s"
    )


@pytest.mark.parametrize("value", ["0", "-5", "nan", "inf", "1e9", "100000", "soon"])
def test_a_bad_time_limit_is_refused_in_one_line(tmp_path, capsys, value):
    started = time.monotonic()
    status, out, err = check_here(capsys, notebook(tmp_path, "x = 1"), f"--timeout={value}")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "argument --timeout" in err
    assert time.monotonic() - started < 30


def test_a_bad_memory_limit_is_refused_in_one_line(tmp_path, capsys):
    status, _, err = check_here(capsys, notebook(tmp_path, "x = 1"), "--memory=-1")
    assert status == 2 and "argument --memory" in err


def test_not_a_notebook_or_missing(tmp_path):
    """Exit 2 and one line, no traceback; the last in a process of its own, as a grader
    runs it."""
    text = tmp_path / "essay.txt"
    text.write_text("take_turn")
    done = check(text)
    assert done.returncode == 2 and "not a notebook" in done.stderr
    missing = check(tmp_path / "nothing.ipynb")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json")
    done = check_process(broken)
    assert done.returncode == 2 and "not a readable notebook" in done.stderr
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("value", ["0", "-3", "many", "100001"])
def test_a_bad_number_of_games_is_refused_in_one_line(tmp_path, capsys, value):
    status, out, err = check_here(capsys, notebook(tmp_path, "x = 1"), f"--games={value}")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "argument --games" in err


# -- the chapter is the one whose handed-out cells the notebook holds ----------------------


def heading(book, text):
    """The notebook with its first cell, the chapter's heading, changed to ``text``."""
    first = book.cells[0].source.split("\n", 1)
    book.cells[0].source = "\n".join([text, *first[1:]]) if text else "\n".join(first[1:])
    return book


def no_code(book):
    book.cells = [cell for cell in book.cells if cell.cell_type != "code"]
    return book


@pytest.mark.parametrize(
    ("chapter", "cheat", "first"),
    [
        (
            3,
            lambda book: heading(book, "# 1. Moving around the board"),
            "cell 1 (772c9a0e, # 3. Chance and Community Chest)",
        ),
        (3, lambda book: heading(book, ""), "cell 1 (772c9a0e, # 3. Chance and Community Chest)"),
        (5, lambda book: heading(no_code(book), "# 8. What if"), "cell 1 (e7a81bf0, # 5. Jail)"),
        (9, lambda book: heading(book, "# 0. Welcome"), "cell 1 (865cb374, # 9. The whole game)"),
        (
            11,
            lambda book: heading(book, "# 7. Exact answers"),
            "cell 1 (70876b79, # 11. Evolving players)",
        ),
    ],
    ids=["ch3-headed-1", "ch3-heading-deleted", "ch5-no-code-headed-8", "ch9-headed-0", "ch11-7"],
)
def test_a_changed_heading_is_a_changed_handed_out_cell_and_is_not_graded(
    tmp_path, chapter, cheat, first
):
    """Editing the heading no longer picks the chapter: the heading is a handed-out cell, so
    the notebook is not graded (and not run), the changed cell named."""
    done = check(write(cheat(edition(chapter)), tmp_path, "student.ipynb"))
    assert done.returncode == 1, done.stdout + done.stderr
    line = done.stdout.splitlines()[0]
    assert line.startswith(f"Not graded: handed-out cells were changed: {first}"), line
    assert f"(chapter {chapter}'s cells must stay as handed out; " in line
    assert "not graded" in done.stdout.split("\n\n")[1]
    if chapter == 5:  # every code cell deleted too, each named by its number as handed out
        assert "; and deleted: handed-out cell 2 (05-01, from monopoly_lesson import " in line
        assert "handed-out cell 16 (05-13, check_chapter(take_turn, 5))" in line


def test_a_changed_and_a_deleted_handed_out_cell_are_named(tmp_path):
    book = edition(5)
    book.cells[15].source = "check_chapter(take_turn, 1)"  # 05-13, the chapter's own check
    del book.cells[1]  # 05-01, the imports
    book.cells.insert(0, new_cell("md:My notes"))  # cells of one's own may go anywhere
    done = check(write(book, tmp_path, "05_jail.ipynb"))
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        "Not graded: handed-out cells were changed: cell 16 (05-13, check_chapter(take_turn, "
        "5)); and deleted: handed-out cell 2 (05-01, from monopoly_lesson import TurnStepper, "
        "chec...) (chapter 5's cells must stay as handed out; cells of your own may go anywhere)"
    )


@pytest.mark.parametrize(
    ("chapter", "name", "claimed", "first"),
    [
        (
            3,
            "01_moving_around.ipynb",
            1,
            "Broken rules: ",  # chapter 1's take_turn, in chapter 3 (cards): graded as 3
        ),
        (11, "alice_07.ipynb", 7, "Not answered: num_wins_mean"),
    ],
    ids=["ch3-as-01", "ch11-as-07"],
)
def test_a_renamed_notebook_with_another_chapter_in_its_metadata_is_graded_as_handed_out(
    tmp_path, chapter, name, claimed, first
):
    """Chapter 9 as handed out, renamed 00_welcome.ipynb and claiming chapter 0, is
    test_check_chapters.py's test_a_chapter_as_handed_out_does_not_pass[9] (one run of the
    whole chapter serves both)."""
    made = {3: [NO_ROLL_AGAIN], 11: ["print('done')"]}  # chapter 1's take_turn; ch. 11's answer
    # deleted (a way of not answering that test_check_chapters.py counts on this run to check)
    book = answered(chapter, *made[chapter])[0]
    book.metadata["monopoly_lesson"] = {"chapter": claimed}
    heading = book.cells[0].source.splitlines()[0]
    done = check(write(book, tmp_path, name))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith(first), done.stdout
    assert f"\n\ngraded as chapter {chapter} (recognised by the " in done.stdout
    assert heading.startswith(f"# {chapter}.")
    if chapter == 3:
        assert "graded for the rules of chapters 1 to 3 (" in done.stdout
    if chapter == 11:
        assert done.stdout.startswith(
            "Not answered: num_wins_mean (write your answer in the variable num_wins_mean)\n"
        )
        assert "All checks pass" not in done.stdout
        assert "not answered  num_wins_mean: write your answer in the variable" in done.stdout


@pytest.mark.parametrize("how", ["written from scratch", "ids stripped"])
def test_a_notebook_holding_no_handed_out_cell_is_not_graded(tmp_path, capsys, how):
    if how == "ids stripped":
        book = answered(6, GOOD, base="stored")[0]
        book.nbformat_minor = 4
        for cell in book.cells:
            del cell["id"]
        path = write(book, tmp_path, "06_full_simulation.ipynb")
    else:
        path = notebook(tmp_path, "md:# 6. The full simulation", GOOD, name="06_mine.ipynb")
    started = time.monotonic()
    status, out, err = check_here(capsys, path)
    assert status == 2 and out == ""
    assert err == (
        f"python -m monopoly_lesson check: {path.name} cannot be graded: it holds none of the "
        "cells a chapter hands out (they are known by their ids); submit the chapter's "
        "notebook as handed out (e.g. 05_jail.ipynb), with your work written in it\n"
    )
    assert time.monotonic() - started < 30, "it was run before it was refused"
