"""The whole game on the command line: ``play`` one game, a ``tournament`` of many."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson.cli import main
from monopoly_lesson.game.chromosomes import CHROMOSOME_PLAYERS
from monopoly_lesson.game.tournament import TABLE_COLUMNS


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


PLAY = ("play", "--strategy", "heuristic,always,rga,never", "--seed", "1", "--max-rounds", "40")


def test_play_prints_the_winner_then_the_standings(capsys):
    status, out, err = run(capsys, *PLAY)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Winner: P") and "(seat " in lines[0]
    assert lines[1].startswith("Game of ") and "seed 1" in lines[1]
    for name in ("P1 heuristic", "P2 always", "P3 rga", "P4 never"):
        assert name in out
    winner = lines[0].removeprefix("Winner: ").split(" (seat")[0]
    first_row = lines[4]  # the heading, the table's two header lines, then the winner's row
    assert winner in first_row
    assert "Round 1," not in out, "no narration without --verbose"


def test_the_same_seed_prints_the_same_game(capsys):
    first = run(capsys, *PLAY)
    second = run(capsys, *PLAY)
    assert first == second
    other = run(
        capsys,
        "play",
        "--strategy",
        "heuristic,always,rga,never",
        "--seed",
        "2",
        "--max-rounds",
        "40",
    )
    assert other[1] != first[1]


def test_verbose_narrates_the_game(capsys):
    status, out, _ = run(
        capsys,
        "play",
        "--strategy",
        "always",
        "--players",
        "2",
        "--seed",
        "3",
        "--max-rounds",
        "5",
        "--verbose",
    )
    assert status == 0
    assert "Round 1, P1 always: $1500, on Go (1)." in out
    assert " buys " in out
    assert "\nWinner: " in out and "Game of 5 rounds (round limit), seed 3" in out


def test_one_name_plays_every_seat(capsys):
    status, out, _ = run(
        capsys, "play", "--players", "3", "--strategy", "never", "--seed", "1", "--max-rounds", "5"
    )
    assert status == 0
    assert all(f"P{k} never" in out for k in (1, 2, 3)) and "P4" not in out
    status, out, _ = run(capsys, "play", "--seed", "1", "--max-rounds", "5")
    assert status == 0 and all(f"P{k} always" in out for k in (1, 2, 3, 4))


def test_several_names_give_one_player_each(capsys):
    status, out, _ = run(
        capsys, "play", "--strategy", "always,never,random:0.5", "--seed", "1", "--max-rounds", "5"
    )
    assert status == 0 and "P3 random:0.5" in out and "P4" not in out


def test_chromosome_players_get_genes_from_the_seed_and_seat(capsys, monkeypatch):
    seen = []

    def record(seats, **kwargs):
        seen.append(seats)
        raise KeyboardInterrupt  # stop before playing: only the seats are wanted

    monkeypatch.setattr("monopoly_lesson.cli.play_monopoly", record)
    run(capsys, "play", "--strategy", "rga,tga,always", "--seed", "7")
    rga, tga, always = seen[0]
    assert np.array_equal(rga.buy_genes, CHROMOSOME_PLAYERS["rga"].random(seed=7001).buy_genes)
    assert np.array_equal(tga.buy_genes, CHROMOSOME_PLAYERS["tga"].random(seed=7002).buy_genes)
    assert always == "always"
    run(capsys, "play", "--strategy", "rga", "--players", "2", "--seed", "7")
    first, second = seen[1]
    assert not np.array_equal(first.buy_genes, second.buy_genes)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--strategy", "greedy"], "unknown strategy 'greedy'"),
        (["play", "--strategy", "random:1.5"], "probability P from 0 to 1, got 'random:1.5'"),
        (["play", "--strategy", "always,,never"], "comma-separated strategy names"),
        (["play", "--players", "1"], "the number of players must be from 2 to 8, got 1"),
        (["play", "--players", "9"], "the number of players must be from 2 to 8, got 9"),
        (
            ["play", "--players", "3", "--strategy", "always,never"],
            "--strategy names 2 strategies but --players is 3",
        ),
        (["play", "--strategy", ",".join(["never"] * 9)], "2 to 8 players, got 9"),
        (["play", "--seed", "-1"], "the seed must be from 0 to 2**32 - 1 (4,294,967,295), got -1"),
        (["play", "--max-rounds", "0"], "max_rounds must be from 1 to 10,000"),
        (["tournament", "--games", "0"], "--games: this option must be at least 1, got 0"),
        (["tournament", "--seed", "-3"], "the seed must be from 0 to 2**32 - 1"),
        (["tournament", "--strategy", "always"], "must name 2 to 8 strategies, got 1"),
        (["tournament", "--strategy", "always,random:x"], "probability P from 0 to 1"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_module_entry_point_refuses_a_bad_strategy_without_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "play", "--strategy", "greedy"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


TOURNAMENT = (
    "tournament",
    "--strategy",
    "heuristic,always,never,random:0.5",
    "--games",
    "8",
    "--seed",
    "1",
    "--max-rounds",
    "20",
    "--no-progress",
)


def test_tournament_prints_each_strategys_win_rate(capsys):
    status, out, err = run(capsys, *TOURNAMENT)
    assert status == 0 and err == ""
    assert "8 games of heuristic, always, never, random:0.5, seats rotated, seed 1" in out
    assert "about 25% of the games" in out
    header = next(line for line in out.splitlines() if "win_rate" in line)
    assert header.split() == [
        "games",
        "wins",
        "win_rate",
        "ci_low",
        "ci_high",
        "mean_finish",
        "mean_net_worth",
    ]
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line[:1].isalpha()}
    for name in ("heuristic", "always", "never", "random:0.5"):
        assert rows[name][1] == "8", "every strategy plays every game"
    assert sum(int(rows[name][2]) for name in ("heuristic", "always", "never", "random:0.5")) == 8


def test_tournament_shows_a_progress_bar_unless_told_not_to(capsys):
    status, _, err = run(capsys, *TOURNAMENT[:-1])
    assert status == 0 and "8/8" in err


def test_tournament_writes_the_games_table_as_csv(capsys, tmp_path):
    path = tmp_path / "games.csv"
    status, out, _ = run(capsys, *TOURNAMENT, "--csv", str(path))
    assert status == 0 and f"Wrote {path}." in out
    table = pd.read_csv(path)
    assert list(table.columns) == list(TABLE_COLUMNS)
    assert len(table) == 8 * 4 and table.groupby("game")["winner"].sum().eq(1).all()


def test_tournament_will_not_write_over_a_csv_without_force(capsys, tmp_path, monkeypatch):
    path = tmp_path / "old.csv"
    path.write_text("keep me")
    played = []
    monkeypatch.setattr("monopoly_lesson.cli.play_games", lambda *a, **kw: played.append(kw))
    status, _, err = run(capsys, *TOURNAMENT, "--csv", str(path))
    assert status == 2 and "tournament: --csv" in err and "add --force" in err
    assert err.count("\n") == 1 and played == [] and path.read_text() == "keep me"
    monkeypatch.undo()
    status, _, _ = run(capsys, *TOURNAMENT, "--csv", str(path), "--force")
    assert status == 0 and len(pd.read_csv(path)) == 8 * 4


def test_ctrl_c_during_a_tournament_stops_with_one_line(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("monopoly_lesson.cli.play_games", interrupted)
    status, _, err = run(capsys, *TOURNAMENT)
    assert status == 130 and err.strip() == "python -m monopoly_lesson: interrupted."


def test_help_lists_and_explains_the_game_commands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "play" in out and "tournament" in out
    for command in ("play", "tournament"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert "examples:" in out and "random(seed=1000 * SEED + k)" in out


@pytest.mark.parametrize("trading", [[], ["--trading"]])
def test_ega_plays_a_game_and_a_tournament(capsys, trading):
    """The richer chromosome is a strategy name like the others, with and without trading."""
    status, out, _ = run(
        capsys, "play", "--strategy", "ega,always,heuristic", "--seed", "3", *trading
    )
    assert status == 0 and "P1 ega" in out
    status, out, _ = run(
        capsys,
        "tournament",
        "--strategy",
        "ega,always",
        "--games",
        "20",
        "--seed",
        "3",
        "--no-progress",
        *trading,
    )
    assert status == 0 and "ega" in out and "always" in out
