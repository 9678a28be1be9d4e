"""The command line's one-line promise under hostile and careless use: every failure (files,
sizes, rounds, damaged runs, a strategy's error, memory) is one line and exit status 2, and
targets are checked before the work."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from monopoly_lesson.cli import main
from monopoly_lesson.game import tournament
from monopoly_lesson.game.strategies import StrategyError
from monopoly_lesson.game.tournament import game_seed

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
EVOLVE = (
    "evolve",
    "--chromosome",
    "tga",
    "--population",
    "8",
    "--games-per-player",
    "1",
    "--generations",
    "1",
    "--max-rounds",
    "8",
    "--benchmark-every",
    "0",
    "--no-progress",
)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err, start="python -m monopoly_lesson"):
    return err.startswith(start) and err.count("\n") == 1 and "Traceback" not in err


@pytest.fixture
def no_games(monkeypatch):
    """No game may be played: any call fails the test."""

    def played(*args, **kwargs):
        raise AssertionError("a game was played")

    for target in (
        "monopoly_lesson.cli.play_games",
        "monopoly_lesson.cli.play_monopoly",
        "monopoly_lesson.evolution.run.play_generation",
    ):
        monkeypatch.setattr(target, played)


def test_evolve_help_shows_percent_signs_once(capsys):
    with pytest.raises(SystemExit):
        main(["evolve", "--help"])
    out = capsys.readouterr().out
    assert "%%" not in out and "best 10% kept" in " ".join(out.split())


@pytest.mark.parametrize("command", [("play",), TOURNAMENT[:1], EVOLVE])
@pytest.mark.parametrize("rounds", ["10001", "1000000000", str(2**63), "0"])
def test_max_rounds_is_bounded_in_every_command(capsys, tmp_path, no_games, command, rounds):
    argv = [*command, "--max-rounds", rounds]
    if command[0] == "evolve":
        argv += ["--out", str(tmp_path / "run")]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and one_line(err)
    assert "--max-rounds: max_rounds must be from 1 to 10,000" in err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", [("play",), TOURNAMENT[:1], EVOLVE])
def test_seeds_past_32_bits_are_refused(capsys, tmp_path, no_games, command):
    status, _, err = run(capsys, *command, "--seed", str(2**32), "--out", str(tmp_path / "r"))
    assert status == 2 and one_line(err) and "the seed must be from 0 to 2**32 - 1" in err


# ---------------------------------------------------------------------------
# tournament
# ---------------------------------------------------------------------------


def test_a_csv_target_that_cannot_be_created_is_refused_before_the_tournament(
    capsys, tmp_path, no_games
):
    link = tmp_path / "games.csv"
    link.symlink_to(tmp_path / "no" / "such" / "folder.csv")  # its folder does not exist
    status, out, err = run(capsys, *TOURNAMENT, "--csv", str(link))
    assert status == 2 and out == "" and one_line(err) and "cannot be written" in err
    assert link.is_symlink() and not link.exists(), "nothing is left behind"


def test_an_empty_csv_name_is_refused_not_ignored(capsys, no_games):
    status, _, err = run(capsys, *TOURNAMENT, "--csv", "")
    assert status == 2 and one_line(err) and "--csv needs a file name" in err


def test_the_csv_check_leaves_no_file_when_the_tournament_then_stops(capsys, tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("monopoly_lesson.cli.play_games", interrupted)
    assert run(capsys, *TOURNAMENT, "--csv", str(tmp_path / "t.csv"))[0] == 130
    assert list(tmp_path.iterdir()) == []


def test_a_tournament_too_big_for_memory_is_one_line_before_any_game(capsys, monkeypatch):
    def played(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(tournament, "play_monopoly", played)
    status, out, err = run(capsys, *TOURNAMENT[:-3], "--games", str(10**15), "--no-progress")
    assert status == 2 and out == "" and one_line(err, "python -m monopoly_lesson tournament:")
    assert "games of 4 players fit" in err


@pytest.fixture
def fails_in_game_5(monkeypatch):
    """The reference engine raises a strategy's error in game 5 (seed 1's)."""
    real = tournament.play_monopoly

    def play(seats, seed, max_rounds, trading):
        if seed == game_seed(1, 5):
            raise StrategyError("P2 always's buy decision raised ZeroDivisionError: oops")
        return real(seats, seed=seed, max_rounds=max_rounds)

    monkeypatch.setattr(tournament, "_play_fast", lambda *args: False)  # play_monopoly plays
    monkeypatch.setattr(tournament, "play_monopoly", play)


def test_a_failing_game_is_one_line_naming_it_and_the_csv_keeps_the_games_before(
    capsys, tmp_path, fails_in_game_5
):
    path = tmp_path / "games.csv"
    status, out, err = run(capsys, *TOURNAMENT, "--csv", str(path))
    assert status == 2 and out == "" and one_line(err)
    assert f"game 5 of 8 (counted from 0; its seed is {game_seed(1, 5)}" in err
    assert "ZeroDivisionError: oops" in err and f"games before it are written to {path}" in err
    table = pd.read_csv(path)
    assert table["game"].unique().tolist() == [0, 1, 2, 3, 4] and len(table) == 5 * 4


def test_a_failing_game_without_csv_says_the_games_are_not_kept(capsys, fails_in_game_5):
    status, _, err = run(capsys, *TOURNAMENT)
    assert status == 2 and one_line(err) and "add --csv FILE to keep them" in err


def test_out_of_memory_and_a_failed_write_are_one_line(capsys, tmp_path, monkeypatch):
    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("monopoly_lesson.cli.play_games", no_memory)
    status, _, err = run(capsys, *TOURNAMENT)
    assert status == 2 and one_line(err) and "out of memory" in err
    monkeypatch.undo()

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / "t.csv"))

    monkeypatch.setattr(pd.DataFrame, "to_csv", disk_full)
    status, _, err = run(capsys, *TOURNAMENT, "--csv", str(tmp_path / "t.csv"))
    assert status == 2 and one_line(err) and "No space left on device" in err


# ---------------------------------------------------------------------------
# evolve
# ---------------------------------------------------------------------------


def test_evolve_out_under_a_file_is_one_line(capsys, tmp_path, no_games):
    (tmp_path / "notes.txt").write_text("mine")
    status, out, err = run(capsys, *EVOLVE, "--out", str(tmp_path / "notes.txt" / "run"))
    assert status == 2 and out == "" and one_line(err, "python -m monopoly_lesson evolve:")
    assert "notes.txt is a file" in err


def test_evolve_out_empty_is_refused_not_the_current_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, *EVOLVE, "--out", "")
    assert status == 2 and one_line(err) and "got an empty one" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--games-per-player", str(10**12)), "games per player fit with 8 players"),
        (("--population", str(4 * 10**9)), "players fit with 1 games per player"),
        (("--benchmark-games", str(10**12)), "would need about"),
    ],
)
def test_evolve_sizes_that_cannot_fit_are_one_line_before_anything(
    capsys, tmp_path, no_games, argv, message
):
    status, _, err = run(capsys, *EVOLVE, *argv, "--out", str(tmp_path / "run"))
    assert status == 2 and one_line(err, "python -m monopoly_lesson evolve:") and message in err
    assert not (tmp_path / "run").exists()


def more_generations(out):
    """The EVOLVE command resumed for a second generation."""
    at = EVOLVE.index("--generations")
    return [*EVOLVE[:at], "--generations", "2", *EVOLVE[at + 2 :], "--out", out, "--resume"]


def test_evolve_resume_of_a_damaged_run_is_one_line(capsys, tmp_path):
    out = str(tmp_path / "run")
    assert run(capsys, *EVOLVE, "--out", out)[0] == 0
    population = tmp_path / "run" / "population.npz"
    population.write_bytes(population.read_bytes()[:100])
    status, _, err = run(capsys, *more_generations(out))
    assert status == 2 and one_line(err, "python -m monopoly_lesson evolve:")
    assert "population.npz in" in err and "is damaged" in err and "pickle" not in err


def test_the_real_command_answers_a_damaged_run_in_one_line(tmp_path):
    folder = tmp_path / "run"
    assert main([*EVOLVE, "--out", str(folder)]) == 0
    (folder / "best.npz").write_bytes(b"not a zip")
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", *more_generations(str(folder))],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and done.stdout == "" and one_line(done.stderr)
    assert "best.npz in" in done.stderr
