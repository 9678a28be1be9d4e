"""``python -m monopoly_lesson evolve``: a run, its summary, refusals, Ctrl-C and --resume."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from test_evolve_files import FILES

from monopoly_lesson.cli import main
from monopoly_lesson.evolution import run as evolution_run

SMALL = (
    "evolve",
    "--chromosome",
    "tga",
    "--fitness",
    "finish_order",
    "--population",
    "16",
    "--games-per-player",
    "2",
    "--max-rounds",
    "10",
    "--benchmark-every",
    "2",
    "--benchmark-games",
    "4",
    "--seed",
    "1",
    "--no-progress",
)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err):
    return err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err


def test_evolve_writes_the_run_and_prints_a_summary(capsys, tmp_path):
    out = tmp_path / "run"
    status, printed, err = run(capsys, *SMALL, "--generations", "3", "--out", str(out))
    assert status == 0 and err == ""
    assert sorted(path.name for path in out.iterdir()) == sorted(FILES)
    lines = printed.splitlines()
    assert lines[0].startswith("tga players, fitness finish_order, population 16")
    assert (
        lines[1].startswith("Generations: 3, of which 3 run now (")
        and "s per generation" in lines[1]
    )
    assert lines[2] == "Generation 3: best fitness " + lines[2].split("best fitness ")[1]
    assert "mean 3." in lines[2]  # finish_order: 1.5 points a game, 2 games each
    assert lines[3].startswith("Benchmark at generation 3: the best player won ")
    assert f"Saved in {out}." in printed
    assert pd.read_csv(out / "history.csv")["generation"].tolist() == [1, 2, 3]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--population", "18"), "the population must be a multiple of 4"),
        (("--population", "many"), "the population must be a whole number"),
        (("--chromosome", "xga"), "invalid choice: 'xga'"),
        (("--fitness", "wins"), "fitness must be one of num_wins, num_properties"),
        (("--generations", "0"), "must be at least 1"),
        (("--benchmark-every", "-1"), "must be at least 0"),
        (("--seed", "-2"), "the seed must be from 0 to 2**32 - 1"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, tmp_path, argv, message):
    status, printed, err = run(capsys, "evolve", "--out", str(tmp_path / "run"), *argv)
    assert status == 2 and printed == "" and one_line(err)
    assert err.startswith("python -m monopoly_lesson evolve: ") and message in err
    assert not (tmp_path / "run").exists()


def test_out_is_required(capsys):
    status, _, err = run(capsys, "evolve", "--chromosome", "rga")
    assert status == 2 and one_line(err) and "--out" in err


def test_a_folder_holding_a_run_is_refused_with_one_line(capsys, tmp_path):
    out = str(tmp_path / "run")
    assert run(capsys, *SMALL, "--generations", "1", "--out", out)[0] == 0
    status, printed, err = run(capsys, *SMALL, "--generations", "1", "--out", out)
    assert status == 2 and printed == "" and one_line(err) and "--resume" in err
    status, printed, err = run(capsys, *SMALL, "--population", "20", "--out", out, "--resume")
    assert status == 2 and one_line(err) and "holds a different run" in err
    assert "population 16 there, 20 here" in err


def files_of(folder):
    return {name: (folder / name).read_bytes() for name in FILES}


def test_ctrl_c_exits_130_and_resume_finishes_the_same_run(capsys, tmp_path, monkeypatch):
    for name in ("a", "b"):  # the same relative --out: the same command in parameters.json
        (tmp_path / name).mkdir()
    monkeypatch.chdir(tmp_path / "a")
    assert run(capsys, *SMALL, "--generations", "3", "--out", "run")[0] == 0
    monkeypatch.chdir(tmp_path / "b")
    real = evolution_run.play_population_games
    calls = []

    def play(*args, **kwargs):  # Ctrl-C during the second generation's games
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(evolution_run, "play_population_games", play)
    status, printed, err = run(capsys, *SMALL, "--generations", "3", "--out", "run")
    assert status == 130 and printed == "" and "--resume" in err and "Traceback" not in err
    assert len(pd.read_csv(tmp_path / "b" / "run" / "history.csv")) == 1
    monkeypatch.setattr(evolution_run, "play_population_games", real)
    status, printed, _ = run(capsys, *SMALL, "--generations", "3", "--out", "run", "--resume")
    assert status == 0 and "Generations: 3, of which 2 run now" in printed
    assert files_of(tmp_path / "b" / "run") == files_of(tmp_path / "a" / "run")


def test_the_real_command_prints_no_traceback(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "monopoly_lesson",
            "evolve",
            "--population",
            "10",
            "--out",
            str(tmp_path / "run"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == "" and one_line(done.stderr)
    assert "multiple of 4" in done.stderr


def test_the_chapters_capitals_are_taken_and_net_worth_is_summed_up_in_dollars(capsys, tmp_path):
    words = [word for word in SMALL if word not in ("tga", "finish_order")]
    words[words.index("--chromosome") + 1 : words.index("--chromosome") + 1] = ["TGA"]
    words[words.index("--fitness") + 1 : words.index("--fitness") + 1] = ["NET_WORTH"]
    out = tmp_path / "run"
    status, printed, err = run(capsys, *words, "--generations", "1", "--out", str(out))
    assert status == 0 and err == ""
    assert printed.startswith("tga players, fitness net_worth, population 16")
    best = printed.split("best fitness ")[1].split(",")[0]
    dollars = f"${float(best) * 100 / 2:,.0f} a game"  # net worth / 100 summed over 2 games
    assert f"(net worth: best {dollars}, mean $" in printed
    assert json.loads((out / "parameters.json").read_text())["fitness"] == "net_worth"


# -- Ctrl-C from outside, at any moment ----------------------------------------------------


def command(*argv):
    """``python -m monopoly_lesson`` with these arguments, as a person types it."""
    return [sys.executable, "-m", "monopoly_lesson", *argv]


def interrupt(argv, cwd, when):
    """Start the command, press Ctrl-C (SIGINT) once ``when(process)`` is true; its exit
    status and stderr."""
    started = subprocess.Popen(
        command(*argv), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        while not when(started):
            time.sleep(0.01)
        started.send_signal(signal.SIGINT)
        _, err = started.communicate(timeout=120)
    finally:
        started.kill()
    return started.returncode, err


def loading(process, start: float) -> bool:
    """Has ``process`` begun loading the package (numpy, imported after its Ctrl-C handler, is
    mapped)? Where /proc is missing: once Python has had 0.3 s since ``start`` to start."""
    if not Path("/proc/self/maps").exists():
        return time.monotonic() - start >= 0.3
    try:
        return "numpy" in Path(f"/proc/{process.pid}/maps").read_text()
    except (FileNotFoundError, ProcessLookupError):  # it ended: Ctrl-C now changes nothing
        return True


@pytest.mark.parametrize("seconds", [0.0, 0.2, 0.4])
def test_ctrl_c_while_the_command_starts_is_one_line_and_exit_130(tmp_path, seconds):
    """While the command is still loading the package (from its first import of numpy on),
    Ctrl-C says so in one line (no traceback), and the same command afterwards runs whole.
    Before that Python itself is starting, and nothing of the package's runs yet. On a
    machine that loads the package sooner than ``seconds``, Ctrl-C finds the run begun: its
    one line says to go on with --resume, which then runs it whole."""
    argv = (*SMALL, "--generations", "2", "--out", "run")
    start, began = time.monotonic(), []

    def when(process) -> bool:
        if not began and loading(process, start):
            began.append(time.monotonic())
        return bool(began) and time.monotonic() - began[0] >= seconds

    status, err = interrupt(argv, tmp_path, when)
    assert status == 130 and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1 and "python -m monopoly_lesson" in err, err
    assert "stopped" in err or "interrupted" in err, err
    if (tmp_path / "run" / "parameters.json").exists():  # the run had begun
        assert "run the same command with --resume to continue" in err, err
        argv = (*argv, "--resume")
    done = subprocess.run(command(*argv), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert pd.read_csv(tmp_path / "run" / "history.csv")["generation"].tolist() == [1, 2]


def test_ctrl_c_during_the_generations_is_one_line_and_resumes_to_the_same_files(tmp_path):
    """Ctrl-C pressed while generations are played and saved: one line saying where the run
    is and how to go on; --resume then ends with the files of a run never stopped."""
    for name in ("stopped", "whole"):  # the same relative --out: the same parameters.json
        (tmp_path / name).mkdir()
    history = tmp_path / "stopped" / "run" / "history.csv"
    status, err = interrupt(
        (*SMALL, "--generations", "500", "--out", "run"),
        tmp_path / "stopped",
        lambda _: history.exists(),
    )
    assert status == 130 and "Traceback" not in err, err
    assert err.strip().splitlines() == [
        "python -m monopoly_lesson evolve: stopped; the completed generations are in run: "
        "run the same command with --resume to continue."
    ]
    saved = len(pd.read_csv(history))
    assert 1 <= saved < 500
    generations = ("--generations", str(saved + 2), "--out", "run")
    for name, more in (("stopped", ("--resume",)), ("whole", ())):
        done = subprocess.run(
            command(*SMALL, *generations, *more),
            cwd=tmp_path / name,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
    assert files_of(tmp_path / "stopped" / "run") == files_of(tmp_path / "whole" / "run")
