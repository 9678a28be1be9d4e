"""tools/check_submissions.py: one line per submitted notebook with the check's exit status.

The check itself is mostly replaced by a fake command that exits with the status a
notebook's text asks for, so these tests are about the tabulation, not the lesson's rules;
three run the real check (take_turn chapters, chapter-9 strategies, and which chapter a
notebook is, printed on its line).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest
from handed_out_notebooks import answered, edition, submission, write

ROOT = Path(__file__).resolve().parents[1]

FAKE_CHECK = """
import subprocess, sys, time
text = open(sys.argv[1]).read().strip()
name = sys.argv[1].rsplit("/", 1)[-1]
if text == "fail":
    print("Broken rules: doubles roll again")
    print("Cells that failed (...):\\n  cell 4: AssertionError: x")
elif text == "unanswered":
    print("Not answered: num_wins_mean (write your answer in the variable num_wins_mean)")
elif text == "unusable":
    print(f"check: {name} cannot be graded: no take_turn", file=sys.stderr)
print()
print("checked", name)
if text == "slow":  # a check that takes a second, noting when it ran
    started = time.time()
    time.sleep(1)
    open(sys.argv[1] + ".ran", "w").write(f"{started} {time.time()}")
    text = "pass"
if text == "hang":  # a check that hangs, with a child of its own holding the output open
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    time.sleep(60)
if text == "detach":  # a check that leaves a double-forked, detached process running
    import os
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            open(sys.argv[1] + ".pid", "w").write(str(os.getpid()))
            time.sleep(60)
        os._exit(0)
    os.wait()
    while not os.path.exists(sys.argv[1] + ".pid"):
        time.sleep(0.05)
    text = "pass"
print("options:", " ".join(sys.argv[2:]))
sys.exit({"pass": 0, "fail": 1, "unanswered": 1, "unusable": 2, "crash": 3}[text])
"""


def load_tool():
    path = ROOT / "tools" / "check_submissions.py"
    spec = importlib.util.spec_from_file_location("check_submissions", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


tool = load_tool()


@pytest.fixture
def fake(tmp_path) -> list[str]:
    script = tmp_path / "fake_check.py"
    script.write_text(FAKE_CHECK)
    return [sys.executable, str(script)]


def submit(folder: Path, **notebooks: str) -> Path:
    """Write notebooks whose text tells the fake check what to answer."""
    for name, text in notebooks.items():
        path = folder / f"{name.replace('__', '/')}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def test_one_line_per_notebook_with_its_exit_status(tmp_path, fake, capsys):
    folder = submit(tmp_path / "in", alice="pass", bob__ch1="fail", carol="unusable", dave="crash")
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "alice-checkpoint.ipynb").write_text("fail")
    status = tool.main([str(folder)], command=fake)
    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    assert lines == [
        "  0  pass        -           alice.ipynb",
        "  1  fails       -           bob/ch1.ipynb",
        "       Broken rules: doubles roll again",
        "       Cells that failed (...):",
        "         cell 4: AssertionError: x",
        "  2  unusable    -           carol.ipynb",
        "       check: carol.ipynb cannot be graded: no take_turn",
        "  3  error       -           dave.ipynb",
        "",
        "Similarity of the graded code (normalised syntax trees; 1.00: the same code):",
        "       (no take_turn or strategy of their own to compare)",
        "4 submission(s): 1 pass, 1 fails, 1 unusable, 1 error",
    ]


def test_all_passing_exits_0_and_verbose_shows_the_check_output(tmp_path, fake, capsys):
    folder = submit(tmp_path / "in", alice="pass", bob="pass")
    assert tool.main([str(folder), "--verbose"], command=fake) == 0
    out = capsys.readouterr().out
    assert "       checked alice.ipynb" in out and "2 submission(s): 2 pass" in out


def test_a_hanging_check_is_stopped_with_its_children(tmp_path, fake, capsys):
    folder = submit(tmp_path / "in", alice="hang", bob="pass")
    start = time.monotonic()
    assert tool.main([str(folder), "--timeout", "2"], command=fake) == 1
    assert time.monotonic() - start < 20
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "  -  timeout     -           alice.ipynb" and lines[1].endswith("bob.ipynb")


def test_the_number_of_games_is_passed_on_only_when_given(tmp_path, fake, capsys):
    folder = submit(tmp_path / "in", alice="pass")
    assert tool.main([str(folder), "--games", "40", "--verbose"], command=fake) == 0
    assert "options: --timeout 600 --games 40" in capsys.readouterr().out
    assert tool.main([str(folder), "--verbose"], command=fake) == 0
    assert "options: --timeout 600\n" in capsys.readouterr().out


def test_show_expected_is_passed_on_only_when_given(tmp_path, fake, capsys):
    folder = submit(tmp_path / "in", alice="pass")
    assert tool.main([str(folder), "--show-expected", "--verbose"], command=fake) == 0
    assert "options: --timeout 600 --show-expected" in capsys.readouterr().out
    assert tool.main([str(folder), "--verbose"], command=fake) == 0
    assert "--show-expected" not in capsys.readouterr().out


def test_the_summary_counts_the_failures_with_something_not_answered(tmp_path, fake, capsys):
    folder = submit(tmp_path / "in", alice="pass", bob="unanswered", carol="fail", dan="unanswered")
    assert tool.main([str(folder)], command=fake) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:3] == [
        "  1  fails       -           bob.ipynb",
        "       Not answered: num_wins_mean (write your answer in the variable num_wins_mean)",
    ]
    assert lines[-1] == "4 submission(s): 1 pass, 3 fails (2 with something not answered)"


def test_a_passing_checks_notes_are_shown_below_its_line(tmp_path):
    passed = tool.Result(Path("a.ipynb"), 0, "All checks pass.\nmine won 25.0% of 400 games\n\nx")
    assert tool.reasons(passed) == ["All checks pass.", "mine won 25.0% of 400 games"]
    assert tool.reasons(tool.Result(Path("a.ipynb"), 0, "All rules pass.\n\ndetails")) == []


def test_the_time_limit_is_passed_on_and_nothing_is_left_running(tmp_path, fake, capsys):
    import psutil

    folder = submit(tmp_path / "in", alice="detach")
    assert tool.main([str(folder), "--timeout", "30", "--verbose"], command=fake) == 0
    assert "options: --timeout 30" in capsys.readouterr().out
    pid = int((folder / "alice.ipynb.pid").read_text())
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e9", "soon"])
def test_a_bad_time_limit_is_refused_in_one_line(tmp_path, fake, capsys, value):
    folder = submit(tmp_path / "in", alice="pass")
    with pytest.raises(SystemExit) as stopped:
        tool.main([str(folder), f"--timeout={value}"], command=fake)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --timeout: must be" in err and err.splitlines()[-1].count("--timeout") == 1


def test_an_empty_or_missing_folder_exits_2(tmp_path, fake, capsys):
    assert tool.main([str(tmp_path)], command=fake) == 2
    assert tool.main([str(tmp_path / "missing")], command=fake) == 2
    assert "no notebooks" in capsys.readouterr().err


def test_the_real_check_shows_the_broken_rules_failed_cells_and_reasons(tmp_path, capsys):

    broken = (
        "def take_turn(player, tracker, *, dice, chance, community):\n"
        "    d1, d2 = dice.roll()\n"
        "    player.move_forward(d1 + d2)\n"
        "    if player.pos == 31:\n"
        "        player.move_to(11)  # Jail is not tallied\n"
        "    else:\n"
        "        tracker.tally(player.pos)\n"
    )
    submission(tmp_path, 2, broken, name="bob_05.ipynb", base="stored", replace=("02-05",))
    (tmp_path / "carol.ipynb").write_text("{not a notebook")
    assert tool.main([str(tmp_path), "--timeout", "120"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "  1  fails       chapter 2   bob_05.ipynb"  # its cells', not its name
    assert lines[1].startswith("       Broken rules: Go to Jail by dice: from Indiana Avenue (24)")
    assert lines[2] == (
        "       The chapter's own checks failed: cell 10 (02-08, check_chapter(take_turn, 2))"
    )
    assert (
        "       Cells that failed (the notebook was run past them and graded at the end):" in lines
    )
    assert (
        "         cell 10: AssertionError: Chapter 2: 1 of 3 checks fail; the first: Go to "
        "Jail by dice: from Indiana Avenue (24), 3 and 4 (scenario 1 of the rules), turn 1."
        in lines
    )
    at = lines.index("  2  unusable    -           carol.ipynb")
    assert lines[at + 1] == (
        "       python -m monopoly_lesson check: carol.ipynb cannot be graded: it is not a "
        "readable notebook (NotJSONError)"
    )
    assert lines[-1] == "2 submission(s): 1 fails, 1 unusable"


def test_the_real_check_grades_capstone_submissions(tmp_path, capsys):
    """Chapter 9 submissions, renamed as students send them, are graded, not unusable."""

    imports = "from monopoly_lesson import lots, make_strategy"
    good = "mine = make_strategy('mine', buy=lambda game, me, space: me.cash > 400)"
    trader = (
        "trader = make_strategy('trader', buy=lambda game, me, space: me.cash > 400, "
        "accept_trade=lambda game, me, offer: me.cash > 700)"
    )
    broken = "mine = make_strategy('mine', buy=lambda game, me, space: 'yes')"
    starters = ("bd7be85d", "d1f138bf")  # the chapter's starter strategy and trade policy
    for name, strategies in (
        ("alice_09", [good, trader]),
        ("bob_09", [broken, trader]),
        ("carol_09", [good]),
    ):
        book, _ = answered(9, imports, *strategies, replace=starters)
        write(book, tmp_path, f"{name}.ipynb")
    assert tool.main([str(tmp_path), "--timeout", "180", "--games", "12"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["  0  pass        chapter 9   alice_09.ipynb", "       All checks pass."]
    assert lines[2].startswith("       mine won ") and "of 12 games (95% interval" in lines[2]
    assert lines[3].startswith("       trader won ")
    assert lines[4] == "  1  fails       chapter 9   bob_09.ipynb"
    assert lines[5].startswith("       Broken strategy: mine: game 0 of the check's 12 (count")
    assert "mine's buy decision must return True or False, got 'yes'" in lines[5]
    at = lines.index("  1  fails       chapter 9   carol_09.ipynb")
    assert lines[at + 1] == (
        "       Not answered: trader (write your trade policy in the variable trader)"
    )
    assert lines[-1] == "3 submission(s): 1 pass, 2 fails (1 with something not answered)"


def test_the_real_command_is_the_lesson_check_in_this_python():
    python, *command = tool.CHECK
    assert python == sys.executable and command == ["-m", "monopoly_lesson", "check"]


def test_the_chapter_on_each_line_is_the_one_whose_handed_out_cells_it_holds(tmp_path):
    """Read from the notebook as the check reads it, whatever its name, heading or metadata."""
    book = edition(3)
    book.cells[0].source = "# 1. Moving around the board"  # a changed cell: not graded
    book.metadata["monopoly_lesson"] = {"chapter": 1}
    write(book, tmp_path, "01_moving_around.ipynb")
    (tmp_path / "notes.ipynb").write_text("{not a notebook")
    assert tool.chapter_of(tmp_path / "01_moving_around.ipynb") == 3
    assert tool.chapter_of(tmp_path / "notes.ipynb") is None
    result = tool.Result(tmp_path / "01_moving_around.ipynb", 1, "Not graded: ...", 3)
    assert tool.line(result, tmp_path) == "  1  fails       chapter 3   01_moving_around.ipynb"
    result = tool.Result(tmp_path / "a" / "12_x.ipynb", 0, "All checks pass.", 12)
    assert tool.line(result, tmp_path) == "  0  pass        chapter 12  a/12_x.ipynb"


def test_the_real_check_prints_the_chapter_it_graded(tmp_path, capsys):
    book = edition(3)
    book.cells[0].source = "# 1. Moving around the board"
    write(book, tmp_path / "in", "alice_01.ipynb")
    write(edition(1), tmp_path / "in", "bob_03.ipynb")
    assert tool.main([str(tmp_path / "in"), "--timeout", "120"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "  1  fails       chapter 3   alice_01.ipynb"
    assert lines[1].startswith(
        "       Not graded: handed-out cells were changed: cell 1 (772c9a0e, # 3. Chance and "
    )
    at = lines.index("  1  fails       chapter 1   bob_03.ipynb")
    assert lines[at + 1] == (
        "       Not answered: take_turn (write your own take_turn, in place of the chapter's "
        "placeholders, and run the notebook to its end)"
    )


def test_notebooks_are_checked_as_many_at_once_as_asked(tmp_path, fake, capsys):
    """Each check notes when it ran: with two at once the two overlap, one at a time not;
    the lines come in the folder's order either way."""
    for jobs, overlap in (("2", True), ("1", False)):
        folder = submit(tmp_path / jobs, alice="slow", bob="slow")
        assert tool.main([str(folder), "--jobs", jobs], command=fake) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].endswith("alice.ipynb") and lines[1].endswith("bob.ipynb")
        ran = [
            [float(t) for t in (folder / f"{name}.ipynb.ran").read_text().split()]
            for name in ("alice", "bob")
        ]
        (_, first_end), (second_start, _) = sorted(ran)
        assert (second_start < first_end) is overlap, ran


@pytest.mark.parametrize("value", ["0", "two", "-1"])
def test_a_bad_number_of_jobs_is_refused_in_one_line(tmp_path, fake, capsys, value):
    folder = submit(tmp_path / "in", alice="pass")
    with pytest.raises(SystemExit) as stopped:
        tool.main([str(folder), "--jobs", value], command=fake)
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert ": error: argument --jobs: must be " in err and err.count("\n") == 0


def test_the_similarity_report_finds_a_copy_however_it_is_spelt(tmp_path, capsys):
    """A copy of a classmate's take_turn with every name changed, statements swapped and
    take_turn wrapped is paired with it; code written independently is not."""
    from test_cli_check import OWN_TAKE_TURN
    from test_similarity import respelt, solution_text

    from monopoly_lesson.checker.similarity import PAIR_THRESHOLD

    folder = tmp_path / "in"
    write(answered(5, solution_text(), base="stored")[0], folder / "alice", "05_jail.ipynb")
    write(answered(5, respelt(solution_text()))[0], folder / "bob", "05_jail.ipynb")
    write(answered(5, OWN_TAKE_TURN)[0], folder / "carol", "05_jail.ipynb")
    assert tool.main([str(folder)], command=[sys.executable, "-c", "pass"]) == 0
    out = capsys.readouterr().out
    report = out.split("Similarity of the graded code")[1].splitlines()
    alice = next(line for line in report if "alice/05_jail.ipynb" in line)
    assert alice.endswith("stored solution 1.00") and "reference engine 0.0" in alice
    pairs = report[report.index(f"Pairs of one chapter at least {PAIR_THRESHOLD:.2f} alike:") + 1 :]
    assert pairs[0].endswith("alice/05_jail.ipynb ~ bob/05_jail.ipynb")
    assert float(pairs[0].split()[0]) >= 0.9
    assert "carol" not in "\n".join(pairs)


def test_with_a_roster_each_notebook_is_checked_as_its_students(tmp_path, fake, capsys):
    """The student is the notebook's folder (or its file name's start); one not on the
    roster is not checked."""
    folder = submit(tmp_path / "in", alice__ch11="pass", bob_11="pass", zoe__ch11="pass")
    roster = tmp_path / "roster.csv"
    roster.write_text("student,name\nalice,A\nbob,B\n")
    status = tool.main([str(folder), "--roster", str(roster), "--verbose"], command=fake)
    out = capsys.readouterr().out
    assert status == 1
    assert "options: --timeout 600 --student alice" in out
    assert "options: --timeout 600 --student bob" in out
    assert "zoe/ch11.ipynb is nobody's on the roster" in out
    assert out.splitlines()[-1] == "3 submission(s): 2 pass, 1 unusable"
    roster.write_text("name\nalice\n")
    with pytest.raises(SystemExit) as stopped:
        tool.main([str(folder), "--roster", str(roster)], command=fake)
    assert stopped.value.code == 2
    assert "a roster is a CSV file with a 'student' column" in capsys.readouterr().err
