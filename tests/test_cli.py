"""The command line: tables, traces, and one-line errors with exit status 2."""

import os
import subprocess
import sys

import pandas as pd
import pytest

from monopoly_lesson.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_prints_both_tables(capsys):
    status, out, err = run(capsys, "simulate", "--games", "20", "--seed", "4")
    assert status == 0 and err == ""
    assert "20 games x 150 turns x 2 players, seed 4, lesson rules" in out
    assert "Spaces by frequency:" in out and "Spaces by board order:" in out
    assert out.count("Boardwalk") == 2


def test_simulate_one_order_and_csv(capsys, tmp_path):
    path = tmp_path / "results.csv"
    status, out, _ = run(
        capsys, "simulate", "--games", "10", "--seed", "1", "--order", "board", "--csv", str(path)
    )
    assert status == 0 and "Spaces by frequency" not in out
    table = pd.read_csv(path)
    assert list(table.columns) == ["space", "title", "tally", "rel"]
    assert list(table["space"]) == list(range(1, 41))


def test_simulate_rule_options_are_passed_on(capsys):
    status, out, _ = run(capsys, "simulate", "--games", "5", "--seed", "1", "--jail", "short")
    assert status == 0 and "lesson rules with jail='short'" in out


def test_trace_reproduces_scenario_2(capsys):
    status, out, _ = run(
        capsys,
        "trace",
        "--start",
        "1",
        "--dice",
        "3,4,3,4,1,1,3,4,5,3",
        "--chance-order",
        "1,6,5,4,10",
    )
    assert status == 0
    assert "Chance: drew card 5, 'Advance token to the nearest Railroad'." in out
    assert "--- Turn 4 ---" in out and "--- Turn 5 ---" not in out
    assert "After 4 turn(s): on 37, free." in out
    lines = out.strip().splitlines()
    tallies = {int(line.split()[0]): int(line.split()[-1]) for line in lines[-7:]}
    assert tallies == {1: 1, 6: 1, 8: 3, 16: 1, 23: 1, 29: 1, 37: 1}


def test_trace_counts_turns(capsys):
    status, out, _ = run(capsys, "trace", "--start", "24", "--dice", "3,4", "--turns", "1")
    assert status == 0 and "is sent to jail" in out and "in jail after 0 turn(s)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "required: COMMAND"),
        (["fly"], "invalid choice: 'fly'"),
        (["simulate", "--games", "0"], "--games: this option must be at least 1, got 0"),
        (["simulate", "--games", "many"], "must be a whole number, got 'many'"),
        (["simulate", "--order", "rank"], "invalid choice: 'rank'"),
        (["simulate", "--seed", "-1"], "the seed must be at least 0"),
        (["trace"], "the following arguments are required: --dice"),
        (["trace", "--dice", "3,x"], "got 'x'"),
        (["trace", "--dice", "3,4,5"], "--dice: rolls must list an even number of faces"),
        (["trace", "--dice", "3,9"], "die faces must be from 1 to 6, got 9"),
        (["trace", "--dice", "3,4", "--start", "41"], "the space must be from 1 to 40, got 41"),
        (["trace", "--dice", "3,4", "--chance-order", "16"], "--chance-order: order lists card 16"),
        (["trace", "--dice", "3,4", "--turns", "2"], "turn 2 needs more dice"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_module_entry_point_exits_2_without_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "simulate", "--turns", "x"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_help_lists_the_commands():
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "simulate" in done.stdout and "trace" in done.stdout


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("{tmp}", "is a folder; give a file name in it"),
        ("{tmp}/no/such/folder/t.csv", "does not exist"),
        ("{tmp}/old.csv", "exists; add --force to write over it"),
    ],
)
def test_a_csv_target_that_cannot_be_written_is_refused_before_the_run(
    capsys, tmp_path, monkeypatch, target, message
):
    (tmp_path / "old.csv").write_text("keep me")
    played = []
    monkeypatch.setattr("monopoly_lesson.cli.simulate", lambda **kw: played.append(kw))
    status, _, err = run(capsys, "simulate", "--csv", target.format(tmp=tmp_path))
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
    assert played == [], "refused before any game is played"
    assert (tmp_path / "old.csv").read_text() == "keep me"


def test_force_writes_over_an_existing_csv(capsys, tmp_path):
    path = tmp_path / "old.csv"
    path.write_text("old")
    status, _, _ = run(
        capsys, "simulate", "--games", "2", "--seed", "1", "--csv", str(path), "--force"
    )
    assert status == 0 and pd.read_csv(path)["space"].tolist() == list(range(1, 41))


def test_an_unwritable_csv_target_is_refused(capsys, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        status, _, err = run(capsys, "simulate", "--csv", str(locked / "t.csv"))
    finally:
        locked.chmod(0o700)
    if os.geteuid() == 0:
        pytest.skip("root may write anywhere, so there is no unwritable folder to try")
    assert status == 2 and "cannot be written" in err


def test_exact_dice_have_a_documented_bound(capsys):
    status, _, err = run(capsys, "exact", "--sides", "300")
    assert status == 2 and "at most 256 sides, got 300" in err
    with pytest.raises(SystemExit):
        main(["euler84", "--help"])
    assert "2 to 256" in capsys.readouterr().out


def test_ctrl_c_stops_with_one_line_and_no_traceback(capsys, monkeypatch):
    def interrupted(**kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("monopoly_lesson.cli.simulate", interrupted)
    status, _, err = run(capsys, "simulate", "--games", "10")
    assert status == 130 and err.strip() == "python -m monopoly_lesson: interrupted."
