"""Submissions that try to fool, hang or outlive ``python -m monopoly_lesson check``.

Each is a chapter as handed out (chapter 6, graded against every rule; chapter 9 for a
strategy) with the hostile code written where the student writes. The grade is computed in
the checker's process, from what the kernel observed on games the checker chose, so none of
them passes; every check ends within its time limit and leaves no process of the submission
behind.
"""

import hashlib
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from handed_out_notebooks import answered, new_cell, write
from test_cli_check import NO_ROLL_AGAIN, OWN_TAKE_TURN, isolated

REFERENCE = "take_turn is the package's reference engine (or calls it), not the student's own work"
NOT_GRADED = (
    "Not graded: the notebook changes the package's own code, the libraries it uses (numpy, "
    "random, pandas) or how the kernel runs code (not allowed)"
)


FIRST = answered(6, "")[1]
"""The number of the first of the student's cells in chapter 6 (in place of its solutions)."""


def notebook(folder: Path, *sources: str, name: str = "student.ipynb", chapter: int = 6) -> Path:
    """The chapter as handed out, ``sources`` in place of its solution code cells."""
    return write(answered(chapter, *sources)[0], folder, name)


def check(path: Path, *extra: str) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "check", str(path), *extra],
        capture_output=True,
        text=True,
        timeout=300,
    )
    done.stderr = isolated(done.stderr)
    return done, time.monotonic() - started


def marker(pid_file: Path) -> str:
    """The name a submission's process takes before writing ``pid_file``: its number in a
    sandbox is not its number here, its name is the same."""
    return "ml" + hashlib.sha256(str(pid_file).encode()).hexdigest()[:12]


def mark(pid_file: Path) -> str:
    """Code that gives its process the name :func:`marker` (Linux's /proc/self/comm)."""
    return f"open('/proc/self/comm', 'w').write({marker(pid_file)!r})\n"


def gone(pid_file: Path) -> bool:
    """Whether the process that wrote ``pid_file`` (after naming itself) has ended: no
    process but a zombie has its name."""
    assert pid_file.read_text(), "the submission's process never wrote its number"
    name = marker(pid_file)
    for process in psutil.process_iter(["name", "status"]):
        if process.info["name"] == name and process.info["status"] != psutil.STATUS_ZOMBIE:
            return False
    return True


def write_pid(pid_file: Path) -> str:
    return f"import os\n{mark(pid_file)}open({str(pid_file)!r}, 'w').write(str(os.getpid()))"


@pytest.mark.parametrize(
    "source",
    [
        "from monopoly_lesson import take_turn",
        "import monopoly_lesson as ml\ntake_turn = ml.take_turn",
        "from monopoly_lesson import take_turn as engine\n\n\n"  # chapter 6 has a reference
        "def take_turn(player, tracker, *, dice, chance, community):\n"
        "    engine(player, tracker, dice=dice, chance=chance, community=community)\n",
    ],
    ids=["imported", "assigned", "wrapped"],
)
def test_the_reference_engine_as_take_turn_is_reported_not_graded(tmp_path, source):
    done, _ = check(notebook(tmp_path, source), "--timeout", "120")
    assert done.returncode == 1, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith(f"Not the student's own work: {REFERENCE}")
    assert "take_turn: not graded" in done.stdout and "All rules pass" not in done.stdout


def test_replacing_the_grading_functions_changes_nothing(tmp_path):
    forged = (
        "import monopoly_lesson.grading as grading\n"
        "import monopoly_lesson.checker.notebook_check as nc\n"
        "PASS = {'take_turn': {'passed': True, 'text': 'take_turn: all rules pass', "
        "'broken': []}, 'results': None}\n"
        "nc.grade_namespace = lambda namespace: PASS\n"
        "setattr(grading, 'check_take_turn', lambda fn, **options: None)\n"
    )
    done, _ = check(notebook(tmp_path, NO_ROLL_AGAIN, forged), "--timeout", "120")
    assert done.returncode == 1, done.stderr
    summary = done.stdout.split("\n\n")[0].splitlines()[0]  # then the cells that failed
    assert summary == (
        f"{NOT_GRADED}: cell {FIRST + 1} changes the package's own code "
        f"(monopoly_lesson.checker.notebook_check.grade_namespace); cell {FIRST + 1} changes the "
        "package's own code (monopoly_lesson.grading.check_take_turn)"
    )
    assert "All rules pass" not in done.stdout and "PASS " not in done.stdout


def test_a_strategy_notebook_that_patches_the_package_is_not_graded_and_shows_no_wins(tmp_path):
    """The package function is named by the package's name, not the notebook's alias, and
    no win table is printed: the games were not played."""
    patched = (
        "import monopoly_lesson.game.rent as _rent\n"
        "from monopoly_lesson import make_strategy\n\n"
        "_rent.rent_due = lambda game, space, dice: 0\n"
        "mine = make_strategy('mine', buy=lambda game, me, space: True)\n"
    )
    book, at = answered(9, patched, replace=("bd7be85d",))  # the starter strategy's cell
    done, _ = check(write(book, tmp_path, "alice.ipynb"), "--timeout", "180", "--games", "8")
    assert done.returncode == 1, done.stdout + done.stderr
    first = done.stdout.splitlines()[0]
    assert first == (
        f"{NOT_GRADED}: cell {at} changes the package's own code "
        "(monopoly_lesson.game.rent.rent_due)"
    ), first
    assert "_rent" not in done.stdout
    assert " won " not in done.stdout and "win rate" not in done.stdout
    assert "games played" not in done.stdout


def test_an_input_transformer_cannot_rewrite_the_checkers_questions(tmp_path):
    """The transformer is hidden from the code reading too: the grade itself must hold."""
    transformer = (
        "import json\n"
        "PASS = {'take_turn': {'passed': True, 'text': 'take_turn: all rules pass', "
        "'broken': []}, 'results': None}\n"
        "def forge(lines):\n"
        "    return ['print(' + repr('MONOPOLY-LESSON-REPORT ' + json.dumps(PASS)) + ')\\n']\n"
        "getattr(get_ipython(), 'input_' + 'transformers_cleanup').append(forge)\n"
    )
    done, _ = check(notebook(tmp_path, NO_ROLL_AGAIN, transformer), "--timeout", "120")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("Broken rules: ")
    assert "MONOPOLY-LESSON-REPORT" not in done.stdout + done.stderr


def test_a_detached_child_can_neither_forge_the_report_nor_outlive_the_check(tmp_path):
    pid_file = tmp_path / "child.pid"
    detach = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        {mark(pid_file)}"
        f"        open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "        line = b'MONOPOLY-LESSON-REPORT {}\\nAll rules pass.\\n'\n"
        "        for _ in range(600):\n"
        "            for fd in (1, 2):\n"
        "                try:\n"
        "                    os.write(fd, line)\n"
        "                except OSError:\n"
        "                    pass\n"
        "            time.sleep(0.1)\n"
        "    os._exit(0)\n"
        "time.sleep(1)\n"
    )
    done, took = check(notebook(tmp_path, NO_ROLL_AGAIN, detach), "--timeout", "60")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("Broken rules: ")
    assert "MONOPOLY-LESSON-REPORT" not in done.stdout + done.stderr
    assert "All rules pass" not in done.stdout
    assert took < 50 and gone(pid_file)


def test_a_take_turn_that_spots_the_graders_dice_is_graded_on_what_it_does(tmp_path):
    """It plays the reference (found without naming it) only for the old grader's dice."""
    spotter = (
        "import monopoly_lesson\n\n\n"
        "def take_turn(player, tracker, *, dice, chance, community):\n"
        "    if type(dice).__name__ == 'CountingDice':\n"
        "        play = getattr(monopoly_lesson, 'take' + '_turn')\n"
        "        return play(player, tracker, dice=dice, chance=chance, community=community)\n"
        "    d1, d2 = dice.roll()\n"
        "    player.move_forward(d1 + d2)\n"
        "    tracker.tally(player.pos)\n"
    )
    done, _ = check(notebook(tmp_path, spotter), "--timeout", "120")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("Broken rules: ")
    assert "FAIL  doubles roll again" in done.stdout


def test_a_cell_stuck_in_one_long_c_call_ends_within_the_time_limit(tmp_path):
    pid_file = tmp_path / "kernel.pid"
    book = notebook(tmp_path, write_pid(pid_file), OWN_TAKE_TURN, "sum(range(10**14))")
    done, took = check(book, "--timeout", "6")
    assert done.returncode == 2
    assert "ran longer than the time limit of 6 s" in done.stderr
    assert took < 6 + 3, f"the check took {took:.1f} s"
    assert gone(pid_file), "the kernel is still running"


def test_the_time_limit_counts_from_the_start_of_the_command():
    """The seconds a command spends before the check begins (importing) are inside its limit."""
    late = (
        "import time\ntime.sleep(1.5)\n"
        "from monopoly_lesson.checker.sandbox import process_began\n"
        "print(time.monotonic() - process_began())"
    )
    done = subprocess.run([sys.executable, "-c", late], capture_output=True, text=True, timeout=60)
    assert 1.5 <= float(done.stdout) < 30, done.stderr


def test_a_check_run_in_process_counts_its_limit_from_the_call(tmp_path, monkeypatch):
    """main() called with arguments (a grader's script, these tests) is not the process's
    command line: a process started long ago does not eat the limit."""
    from test_cli_check import check as check_in_process

    import monopoly_lesson.cli as cli

    monkeypatch.setattr(cli, "process_began", lambda: time.monotonic() - 1000)
    done = check_in_process(notebook(tmp_path, OWN_TAKE_TURN), "--timeout", "120")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_memory_hog_is_unusable_with_the_limit_named(tmp_path):
    book, _ = answered(6, OWN_TAKE_TURN)
    book.cells.insert(0, new_cell("hog = bytearray(10**10)"))  # a cell of one's own, first
    done, _ = check(write(book, tmp_path, "student.ipynb"), "--timeout", "120", "--memory", "1")
    assert done.returncode == 2
    assert "cannot be graded: it used more than 1 GB of memory (cell 1)" in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_flood_of_output_is_capped_and_the_notebook_still_graded(tmp_path):
    flood = "for _ in range(4000):\n    print('x' * 10_000)"
    done, took = check(notebook(tmp_path, flood, OWN_TAKE_TURN), "--timeout", "120")
    assert done.returncode == 0, done.stderr
    assert took < 100


def test_the_kernel_dies_with_the_checker_even_when_the_checker_is_killed(tmp_path):
    pid_file = tmp_path / "kernel.pid"
    book = notebook(tmp_path, write_pid(pid_file), "import time\ntime.sleep(120)")
    checker = subprocess.Popen(
        [sys.executable, "-m", "monopoly_lesson", "check", str(book), "--timeout", "120"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.1)
        checker.kill()
        checker.wait()
        for _ in range(50):
            if gone(pid_file):
                break
            time.sleep(0.1)
        assert gone(pid_file), "the kernel outlived the checker"
    finally:
        checker.kill()
