"""``python -m monopoly_lesson check NOTEBOOK``: exit 0 pass, 1 a rule fails, 2 cannot be graded.

A notebook is run past the cells that fail (a chapter check that trips on a broken rule is
the most common), graded at the end, and the failed cells are listed.
"""

import contextlib
import io
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

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
    done = check(notebook(tmp_path, GOOD))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("All rules pass.\n\n")
    assert "take_turn: all rules pass" in done.stdout
    assert "results: consistent with a correct simulation" in done.stdout
    assert "(from result)" in done.stdout
    assert "Cells that failed" not in done.stdout


def test_a_broken_rule_exits_1_with_the_report(tmp_path):
    done = check(notebook(tmp_path, NO_ROLL_AGAIN))
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].startswith("Broken rules: ")
    assert "doubles roll again" in done.stdout.splitlines()[0]
    assert "FAIL  doubles roll again" in done.stdout
    assert "no results of your own take_turn found" in done.stdout


def test_a_failing_chapter_check_is_graded_and_its_cell_listed(tmp_path):
    """The issue's submission: send_to_jail does not tally Jail, so the chapter check fails."""
    sources = [
        "md:# Chapter 2",
        "from monopoly_lesson import check_chapter",
        BROKEN_SEND_TO_JAIL,
        "check_chapter(take_turn, 2)",
        RUN_PAST_IT,
    ]
    done = check(notebook(tmp_path, *sources))
    assert done.returncode == 1, done.stderr
    summary = done.stdout.split("\n\n")[0].splitlines()
    assert summary[0] == (  # graded for chapter 2's rules: no cards, no doubles, no jail stay
        "Broken rules: Go to Jail by dice: from Indiana Avenue (24), 3 and 4 (scenario 1 of "
        "the rules); 30 random games of 200 turns"
    )
    assert summary[1:] == [
        "Cells that failed (the notebook was run past them and graded at the end):",
        "  cell 4: AssertionError: Chapter 2: 1 of 3 checks fail; the first: Go to Jail by dice: "
        "from Indiana Avenue (24), 3 and 4 (scenario 1 of the rules), turn 1.",
    ]
    assert (
        "FAIL  Go to Jail by dice: from Indiana Avenue (24), 3 and 4 (scenario 1 of the rules) "
        "(turn 1): your take_turn tallied nothing this turn; the rules tally Jail (11)"
        in done.stdout
    )
    assert "(from result)" in done.stdout, "the cell after the failure ran too"
    assert done.stderr == ""


@pytest.mark.parametrize(
    ("sources", "message"),
    [
        (
            ["import time\ntime.sleep(60)"],
            "student.ipynb cannot be graded: it ran longer than "
            "the time limit of 8 s in the notebook's cells (cell 1 of 1 was running)",
        ),
    ],
)
def test_notebooks_that_cannot_be_graded_exit_2_with_the_reason(tmp_path, sources, message):
    limit = "8" if "sleep" in sources[0] else "60"
    done = check(notebook(tmp_path, *sources), "--timeout", limit)
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


CHAPTER_1 = "md:# 1. Moving around the board"


@pytest.mark.parametrize(
    "sources",
    [
        [CHAPTER_1, PLACEHOLDER],  # the placeholder left in
        [CHAPTER_1, "x = 1"],  # take_turn deleted
        [CHAPTER_1, GOOD.replace("def take_turn(", "def my_take_turn(")],  # another name
        [CHAPTER_1, PLACEHOLDER, "raise RuntimeError('half done')"],
        ["md:# Notes", PLACEHOLDER],  # a notebook of no known chapter
        [CHAPTER_1, PLACEHOLDER.replace("Write this part of take_turn", "To do")],
        [CHAPTER_1, PLACEHOLDER.split("    # YOUR")[0] + "    # YOUR CODE HERE\n    pass\n"],
        [CHAPTER_1, PLACEHOLDER.split("    # YOUR")[0] + "    return None\n"],
    ],
    ids=[
        "placeholder",
        "deleted",
        "misnamed",
        "with-a-failed-cell",
        "no-chapter",
        "its-message-edited",
        "pass",
        "return-none",
    ],
)
def test_every_way_of_leaving_take_turn_unanswered_gets_one_verdict(tmp_path, sources):
    done = check(notebook(tmp_path, *sources))
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

    done = check(notebook(tmp_path, patch, GOOD))
    assert done.returncode == 1, done.stdout + done.stderr
    summary = done.stdout.split("\n\n")[0]
    assert summary == f"{NOT_GRADED}: cell 1 changes a library's own code ({changed})"
    assert "graded: nothing" in done.stdout
    assert "Broken rules" not in done.stdout and "PASS" not in done.stdout


def test_a_check_past_its_time_in_the_graded_games_says_so(tmp_path):
    """The cells run at once; the strategy's games are what take long (45 s leaves a loaded
    machine time to start the kernel and run the cells)."""
    slow = (
        "import time\n\nfrom monopoly_lesson import make_strategy\n\n"
        "mine = make_strategy('mine', buy=lambda game, me, space: "
        "time.sleep(0.5) or True)"
    )
    done = check(notebook(tmp_path, "# 9", slow, name="alice_09.ipynb"), "--timeout", "45")
    assert done.returncode == 2
    assert done.stderr.startswith(
        "python -m monopoly_lesson check: alice_09.ipynb cannot be graded: it ran longer than "
        "the time limit of 45 s in the graded games (strategy mine's 400 games, 0 replayed), "
        "after its cells ran in "
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
