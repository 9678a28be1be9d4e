"""The command line's exact answers (exact, euler84) and the fast engine (simulate --engine)."""

import subprocess
import sys

import pytest

from monopoly_lesson.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_exact_prints_both_tables(capsys):
    status, out, err = run(capsys, "exact")
    assert status == 0 and err == ""
    assert "Exact expected tallies of one player over 150 turns from Go, lesson rules" in out
    assert "Spaces by frequency:" in out and "Spaces by board order:" in out
    lines = out.splitlines()
    header = lines.index("Spaces by frequency:") + 1
    assert lines[header].split() == ["space", "title", "expected", "rel"]
    first = lines[header + 2].split()
    assert first[:3] == ["1", "11", "Jail"] and first[-1] == "10.96%"


def test_exact_takes_turns_order_and_rule_options(capsys):
    status, out, _ = run(
        capsys, "exact", "--turns", "20", "--order", "board", "--jail", "short", "--sides", "4"
    )
    assert status == 0 and "Spaces by frequency" not in out
    assert "over 20 turns from Go, lesson rules with dice_sides=4, jail='short'" in out
    assert out.count("Boardwalk") == 1


@pytest.mark.parametrize(("sides", "answer"), [("6", "102400"), ("4", "101524")])
def test_euler84_prints_the_modal_string(capsys, sides, answer):
    status, out, err = run(capsys, "euler84", "--sides", sides)
    assert (status, out, err) == (0, answer + "\n", "")


def test_simulate_with_the_fast_engine(capsys):
    status, out, _ = run(capsys, "simulate", "--games", "50", "--seed", "2", "--engine", "fast")
    assert status == 0
    assert "50 games x 150 turns x 2 players, seed 2, fast engine, lesson rules" in out
    again = run(capsys, "simulate", "--games", "50", "--seed", "2", "--engine", "fast")[1]
    assert again == out


def test_simulate_reference_engine_is_the_default(capsys):
    status, out, _ = run(capsys, "simulate", "--games", "3", "--seed", "2", "--order", "board")
    assert status == 0 and "seed 2, lesson rules" in out and "engine" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["exact", "--turns", "0"], "--turns: this option must be at least 1, got 0"),
        (["exact", "--turns", "x"], "must be a whole number, got 'x'"),
        (["exact", "--order", "rank"], "invalid choice: 'rank'"),
        (["exact", "--sides", "1"], "dice_sides must be a whole number of at least 2, got 1"),
        (["euler84", "--sides", "1"], "the number of sides must be at least 2, got 1"),
        (["euler84", "--sides", "six"], "must be a whole number, got 'six'"),
        (["simulate", "--engine", "turbo"], "--engine: invalid choice: 'turbo'"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_help_lists_the_new_commands():
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "exact" in done.stdout and "euler84" in done.stdout


def test_module_entry_point_euler84():
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "euler84", "--sides", "4"],
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "101524\n", "")


@pytest.mark.parametrize("command", ["exact", "rent"])
def test_the_chance_option_is_named_as_rules_names_it(capsys, command):
    """``--chance`` as ``Rules.chance``; the old ``--deck`` still works, unlisted."""
    lesson = run(capsys, command, "--chance", "lesson")[1]
    standard = run(capsys, command, "--chance", "standard")[1]
    assert lesson != standard
    assert "chance='standard'" in standard
    assert run(capsys, command, "--deck", "standard")[1] == standard
    with pytest.raises(SystemExit):
        main([command, "--help"])
    shown = capsys.readouterr().out
    assert "--chance {lesson,standard}" in shown and "--deck" not in shown
