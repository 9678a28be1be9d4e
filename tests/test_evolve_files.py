"""evolve's run folder against kills, damaged and foreign files, impossible sizes: every
kill point resumes exactly, what is read is checked, what cannot fit is refused first."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from monopoly_lesson.evolution import files as run_files
from monopoly_lesson.evolution import run as evolution_run
from monopoly_lesson.evolution.run import evolve, load_evolution, run_bytes

FILES = (
    "parameters.json",
    "history.csv",
    "best.npz",
    "population.npz",
    "benchmark.csv",
    "recent.npz",
)
TINY = dict(
    population=8,
    games_per_player=1,
    max_rounds=8,
    benchmark_every=1,
    benchmark_games=2,
    seed=5,
    progress=False,
)
DEAD_PID = 4_194_305  # above any Linux pid_max: no process has it


def files_of(folder):
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def run_in(folder, monkeypatch, **options):
    """A tiny run in ``folder``/run, given relatively (so parameters.json is the same)."""
    folder.mkdir(exist_ok=True)
    monkeypatch.chdir(folder)
    return evolve(**{"chromosome": "tga", "generations": 2, **TINY, **options}, out="run")


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The files of an uninterrupted tiny run of 2 generations, and the files it wrote."""
    folder = tmp_path_factory.mktemp("whole")
    writes, real = [], run_files._write_atomic

    def write_atomic(path, write):
        writes.append(path.name)
        real(path, write)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(run_files, "_write_atomic", write_atomic)
        run_in(folder, patch)
    return files_of(folder / "run"), writes


def test_a_run_writes_parameters_first_then_each_generation_recent_last(whole):
    """Generation 1 keeps its fitness (recent.npz); the last generation asked for saves
    the whole population and the best genomes too."""
    files, writes = whole
    kept = ["history.csv", "benchmark.csv", "recent.npz"]
    whole_population = ["best.npz", "history.csv", "benchmark.csv", "population.npz", "recent.npz"]
    assert writes == ["parameters.json", *kept, *whole_population]
    assert sorted(files) == sorted(FILES)


@pytest.mark.parametrize("renamed", [False, True], ids=["mid-write", "after-rename"])
@pytest.mark.parametrize("kill_at", range(1, 10))
def test_a_kill_at_any_write_resumes_to_the_same_files(
    tmp_path, monkeypatch, whole, kill_at, renamed
):
    """A kill (SIGKILL: nothing runs after it) at the ``kill_at``-th write, either while
    the temporary file is written (it stays behind) or just after its rename; then the
    same command with resume finishes the very files of an unbroken run."""
    expected, writes = whole
    real = run_files._write_atomic
    count = {"writes": 0}

    def killed(path, write):
        count["writes"] += 1
        if count["writes"] == kill_at:
            if renamed:
                real(path, write)
            else:  # half a file, left under a dead process's name
                leftover = path.with_name(f".{path.name}.{DEAD_PID}.tmp")
                leftover.write_bytes(b"PK\x03\x04 half")
            raise KeyboardInterrupt
        return real(path, write)

    with monkeypatch.context() as patch:
        patch.setattr(run_files, "_write_atomic", killed)
        with pytest.raises(KeyboardInterrupt):
            run_in(tmp_path, monkeypatch)
    run_in(tmp_path, monkeypatch, resume=True)
    assert files_of(tmp_path / "run") == expected, f"killed at {writes[kill_at - 1]}"


def test_a_kill_between_saved_populations_resumes_by_breeding_the_genomes_again(
    tmp_path, monkeypatch
):
    """With the population saved whole every 2 generations (and at the last, 5), a kill at
    any write of generations 3 to 5 leaves generations kept as fitness (recent.npz): the
    resumed run breeds their genomes again and ends with the very files of an unbroken
    run."""
    monkeypatch.setattr(evolution_run, "SAVE_POPULATION_EVERY", 2)
    options = {"generations": 5, "chromosome": "rga"}
    expected = files_of(
        run_in(tmp_path / "whole", monkeypatch, **options) and tmp_path / "whole" / "run"
    )
    real = run_files._write_atomic
    for kill_at in range(10, 23):  # generation 3 starts at the 10th write, 5 ends at the 22nd
        count = {"writes": 0}

        def killed(path, write, kill_at=kill_at, count=count):
            count["writes"] += 1
            if count["writes"] == kill_at:
                raise KeyboardInterrupt
            return real(path, write)

        folder = tmp_path / f"cut{kill_at}"
        with monkeypatch.context() as patch:
            patch.setattr(run_files, "_write_atomic", killed)
            with pytest.raises(KeyboardInterrupt):
                run_in(folder, monkeypatch, **options)
        assert load_evolution(folder / "run").history["generation"].max() >= 2
        run_in(folder, monkeypatch, **options, resume=True)
        assert files_of(folder / "run") == expected, f"killed at write {kill_at}"


def test_recent_generations_that_do_not_follow_the_population_are_refused(folder):
    run_files._write_npz(
        folder / "recent.npz",
        {
            "chromosome": np.array("rga"),
            "generation": np.array([4], dtype=np.int64),
            "fitness": np.ones((1, 8)),
        },
    )
    with pytest.raises(
        ValueError,
        match=r"recent.npz holds generations \[4\] but "
        "population.npz is generation 2",
    ):
        load_evolution(folder)


def test_the_very_first_write_killed_leaves_a_folder_the_same_command_starts_again(
    tmp_path, monkeypatch, whole
):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / f".parameters.json.{DEAD_PID}.tmp").write_text('{"chrom')
    run_in(tmp_path, monkeypatch)  # without resume: the folder holds nothing yet
    assert files_of(folder) == whole[0]


def test_a_running_processs_temporary_file_is_left_alone(tmp_path, monkeypatch):
    run_in(tmp_path, monkeypatch, generations=1)
    folder = tmp_path / "run"
    alive = folder / f".best.npz.{os.getppid()}.tmp"  # the parent of this process runs
    dead = folder / f".history.csv.{DEAD_PID}.tmp"
    mine = folder / "notes.txt"
    for path in (alive, dead, mine):
        path.write_text("x")
    load_evolution(folder)
    assert alive.exists() and mine.exists() and not dead.exists()


# ---------------------------------------------------------------------------
# Files that cannot be read, or are not the run's
# ---------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path, monkeypatch):
    run_in(tmp_path, monkeypatch, chromosome="rga")
    return tmp_path / "run"


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: data[: len(data) // 2], r"population.npz in .* is damaged or not this"),
        (lambda data: b"", "population.npz in .* is damaged"),
        (lambda data: b"\x80\x04garbage" * 10, "population.npz in .* is damaged"),
        (lambda data: data[:-30], "population.npz in .* is damaged"),
    ],
)
def test_a_damaged_population_file_is_refused_with_what_to_do(folder, damage, message):
    path = folder / "population.npz"
    path.write_bytes(damage(path.read_bytes()))
    for read in (
        lambda: load_evolution(folder),
        lambda: evolve("rga", generations=3, out=folder, resume=True, **{**TINY, "seed": 5}),
    ):
        with pytest.raises(ValueError, match=message) as caught:
            read()
        text = str(caught.value)
        assert "start the run again in a new folder" in text
        assert "pickle" not in text and "\n" not in text


def rewrite(folder, name, **arrays):
    """Write ``name`` again with some arrays replaced (as evolve writes it)."""
    with np.load(folder / name) as data:
        kept = {key: data[key] for key in data.files}
    run_files._write_npz(folder / name, {**kept, **arrays})


def genomes_of(folder):
    with np.load(folder / "population.npz") as data:
        return data["genomes"].copy()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda g: {"chromosome": np.array("tga")}, "it holds tga players, the run rga"),
        (lambda g: {"genomes": np.where(g > 0.5, np.nan, g)}, "genes are numbers from 0 to 1"),
        (lambda g: {"genomes": g + 1}, "genes are numbers from 0 to 1"),
        (lambda g: {"genomes": g[:, :176]}, r"shape is \(8, 176\), not \(8, 4256\)"),
        (lambda g: {"genomes": g[:4]}, r"shape is \(4, 4256\), not \(8, 4256\)"),
        (lambda g: {"genomes": (g > 0.5).astype(np.uint8)}, "genes are numbers from 0 to 1"),
        (lambda g: {"fitness": np.full(8, np.nan)}, "fitness must be 8 finite numbers"),
        (lambda g: {"fitness": np.ones(9)}, "fitness must be 8 finite numbers"),
        (lambda g: {"generation": np.array(0)}, "its generation is"),
        (lambda g: {"generation": np.array(7)}, r"history\.csv does not hold its generations"),
    ],
)
def test_a_foreign_population_is_refused_before_any_game(folder, monkeypatch, change, message):
    rewrite(folder, "population.npz", **change(genomes_of(folder)))
    monkeypatch.setattr(evolution_run, "play_population_games", None)  # no game may be played
    with pytest.raises(ValueError, match=message):
        load_evolution(folder)
    with pytest.raises(ValueError, match=message):
        evolve("rga", generations=3, out=folder, resume=True, **TINY)


def test_sga_bits_must_be_bits(tmp_path, monkeypatch):
    run_in(tmp_path, monkeypatch, chromosome="sga", generations=1)
    folder = tmp_path / "run"
    rewrite(folder, "best.npz", genomes=genomes_of(folder)[:1] * 2)
    with pytest.raises(ValueError, match=r"best.npz in .* SGA genomes are bits"):
        load_evolution(folder)


def test_history_that_disagrees_with_the_population_is_refused(folder):
    history = (folder / "history.csv").read_text().replace("\n2,", "\n3,")
    (folder / "history.csv").write_text(history)
    with pytest.raises(ValueError, match=r"history\.csv does not hold its generations 1 to it"):
        load_evolution(folder)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"chromosome": "xga"}, "chromosome must be one of rga, tga, sga"),
        ({"population": 10}, "population must be a multiple of 4"),
        ({"population": "8"}, "population must be a whole number"),
    ],
)
def test_damaged_parameters_are_refused(folder, change, message):
    path = folder / "parameters.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    with pytest.raises(ValueError, match=f"parameters.json in .* is damaged.*{message}"):
        load_evolution(folder)


# ---------------------------------------------------------------------------
# Folders that cannot be a run's, writes that fail
# ---------------------------------------------------------------------------


def test_a_folder_under_a_file_is_refused_before_any_game(tmp_path, monkeypatch):
    (tmp_path / "notes.txt").write_text("mine")
    monkeypatch.setattr(evolution_run, "play_population_games", None)
    with pytest.raises(ValueError, match=r"notes.txt is a file \(and .*run would be inside"):
        evolve("tga", generations=1, out=tmp_path / "notes.txt" / "run", **TINY)
    with pytest.raises(ValueError, match="got an empty one"):
        evolve("tga", generations=1, out="", **TINY)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_folder_that_cannot_be_written_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(ValueError, match="permission denied"):
            evolve("tga", generations=1, out=locked / "run", **TINY)
    finally:
        locked.chmod(0o700)


def test_a_write_that_fails_is_one_plain_error_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    def full(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(run_files.os, "replace", full)
    with pytest.raises(ValueError, match=r"cannot write .*parameters.json \(No space left"):
        evolve("tga", generations=1, out=tmp_path / "run", **TINY)
    assert list((tmp_path / "run").iterdir()) == []


# ---------------------------------------------------------------------------
# Sizes
# ---------------------------------------------------------------------------


def test_a_run_too_big_for_memory_is_refused_with_what_would_fit(tmp_path, monkeypatch):
    monkeypatch.setattr(evolution_run, "available_memory", lambda: 10**9)
    monkeypatch.setattr("monopoly_lesson.checks.available_memory", lambda: 10**9)
    with pytest.raises(ValueError) as caught:
        evolve("rga", population=100_000, out=tmp_path / "run", progress=False)
    message = str(caught.value)
    assert message.startswith(
        "evolving 100,000 rga players (100 games per player per "
        "generation, 100 generations) would need about 17.2 GB"
    )
    fit = int(message.split("at most ")[1].split(" players")[0].replace(",", ""))
    assert fit % 4 == 0 and run_bytes("rga", fit, 100, 100, 200) <= 10**9
    assert run_bytes("rga", fit + 4, 100, 100, 200) > 10**9
    assert not (tmp_path / "run").exists()


MEASURE = """
import sys, tracemalloc
from monopoly_lesson.evolution.run import evolve
chromosome, players = sys.argv[1], int(sys.argv[2])
evolve(chromosome, population=8, games_per_player=1, generations=1, benchmark_every=0,
       progress=False)
tracemalloc.start()
evolve(chromosome, population=players, games_per_player=8, generations=2, benchmark_every=0,
       progress=False)
print(tracemalloc.get_traced_memory()[1])
"""


@pytest.mark.parametrize("chromosome", ["rga", "tga", "sga"])
def test_the_memory_estimate_covers_what_a_run_uses(chromosome):
    """Measured in a fresh interpreter (tracemalloc counts every thread's allocations)."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, chromosome, "4000"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    peak = int(done.stdout)
    assert peak <= run_bytes(chromosome, 4000, 8, 2) <= 2 * peak


def test_seat_tables_too_big_for_memory_are_refused_at_once(monkeypatch):
    monkeypatch.setattr(evolution_run, "available_memory", lambda: 10**6)
    monkeypatch.setattr("monopoly_lesson.checks.available_memory", lambda: 10**6)
    with pytest.raises(
        ValueError,
        match=r"seat tables of 1,000 players x 1,000 games .* "
        r"at most 55,555 seats \(players x games per player\) fit",
    ):
        evolution_run.seat_tables(1000, 1000, np.random.default_rng(0))
    assert evolution_run.seat_tables(100, 10, np.random.default_rng(0)).shape == (250, 4)
