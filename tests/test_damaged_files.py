"""Damaged files get one plain error that names the file, what is wrong and what to do: a
run's history.csv, benchmark.csv and parameters.json (read back or resumed, from Python and
from the command line), and the package's shipped runs, experiment and evolved players."""

from __future__ import annotations

import gzip
import json
import re
import shutil

import pytest

from monopoly_lesson.cli import main
from monopoly_lesson.evolution import shipped
from monopoly_lesson.evolution.run import evolve, load_evolution
from monopoly_lesson.game import plugins

TINY = dict(
    population=8,
    games_per_player=1,
    max_rounds=8,
    benchmark_every=1,
    benchmark_games=2,
    seed=5,
    progress=False,
)
CLI = (
    "evolve",
    "--chromosome",
    "rga",
    "--population",
    "8",
    "--games-per-player",
    "1",
    "--max-rounds",
    "8",
    "--benchmark-every",
    "1",
    "--benchmark-games",
    "2",
    "--seed",
    "5",
    "--no-progress",
    "--generations",
    "3",
    "--resume",
)
ADVICE = r"start the run again in a new folder \(or restore the file from a copy\)\.$"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A tiny run of 2 generations, made once; each test damages a copy."""
    folder = tmp_path_factory.mktemp("made") / "run"
    evolve("rga", generations=2, out=folder, **TINY)
    return folder


@pytest.fixture
def folder(made, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(made, copy)
    return copy


def refused_everywhere(folder, capsys, message):
    """Reading the run, resuming it, and resuming it on the command line: the same one
    plain error (exit status 2, one line, no traceback)."""
    for read in (
        lambda: load_evolution(folder),
        lambda: evolve("rga", generations=3, out=folder, resume=True, **TINY),
    ):
        with pytest.raises(ValueError, match=message) as caught:
            read()
        assert "\n" not in str(caught.value)
    status = main([*CLI, "--out", str(folder)])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("python -m monopoly_lesson evolve: ")
    return str(caught.value)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            lambda text: text[:-25],
            r"history.csv in .* is damaged: it is cut short \(its last "
            r"line, line 3, is incomplete\)",
        ),
        (lambda text: text[:-3], "history.csv in .* is damaged: it is cut short"),
        (lambda text: text + "3,0.5", "history.csv in .* is damaged: it is cut short"),
        (lambda text: "", r"history.csv in .* is damaged: it is empty \(not even its header"),
        (
            lambda text: text.splitlines(keepends=True)[0],
            r"it is at generation 2 but history.csv does not hold its generations 1 to it in "
            r"order \(it holds none\)",
        ),
        (
            lambda text: "a,b\n1,2\n",
            r"history.csv in .* is damaged or not an evolve\(\) run's: "
            r"its columns are \['a', 'b'\], not \['generation'",
        ),
        (
            lambda text: text.replace("\n2,", "\nx,"),
            "history.csv in .* is damaged: on line 3 its generation is 'x', not a whole number",
        ),
        (
            lambda text: text.replace("\n2,", "\n2,,"),
            "history.csv in .* is damaged: line 3 has 12 values, not 11",
        ),
        (lambda text: "\xff\xfe" + text, "history.csv in .* is damaged: it is not text"),
    ],
    ids=[
        "cut mid-row",
        "cut mid-number",
        "a half row added",
        "empty",
        "header only",
        "other columns",
        "not a number",
        "a value too many",
        "not text",
    ],
)
def test_a_damaged_history_is_refused_naming_the_file_and_what_to_do(
    folder, capsys, damage, message
):
    path = folder / "history.csv"
    path.write_bytes(damage(path.read_text()).encode("latin-1"))
    said = refused_everywhere(folder, capsys, message)
    assert said.endswith("start the run again in a new folder (or restore the file from a copy).")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            lambda path: path.write_bytes(path.read_bytes()[:-7]),
            "benchmark.csv in .* is damaged: it is cut short",
        ),
        (lambda path: path.unlink(), "benchmark.csv is missing from "),
    ],
)
def test_a_damaged_benchmark_is_refused_naming_the_file(folder, capsys, damage, message):
    damage(folder / "benchmark.csv")
    refused_everywhere(folder, capsys, message + ".*" + ADVICE)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[1, 2]",
            r"it holds a JSON array \(\[1, 2\]\), not the parameters of an evolve\(\) "
            r"run \(a JSON object\)",
        ),
        ("5", r"it holds a JSON number \(5\), not the parameters"),
        ('"rga"', r"it holds a JSON string \(\"rga\"\), not the parameters"),
        ("null", r"it holds a JSON null \(null\), not the parameters"),
        ('{"chromosome": "rga",', r"it is not valid JSON \(Expecting property name"),
    ],
)
def test_parameters_that_are_not_a_json_object_are_refused_naming_the_file(
    folder, capsys, text, message
):
    (folder / "parameters.json").write_text(text)
    refused_everywhere(folder, capsys, "parameters.json in .* is damaged: " + message)


# -- the package's shipped data -------------------------------------------------------------


def damaged_copy(tmp_path, monkeypatch, name, file, damage):
    """A copy of the shipped data folder ``name`` with ``file`` damaged, read from now on."""
    shutil.copytree(shipped.DATA / name, tmp_path / name)
    damage(tmp_path / name / file)
    monkeypatch.setattr(shipped, "DATA", tmp_path)
    return tmp_path / name


def cut_short(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size * 2 // 3])


def header_only(path):
    path.write_text(path.read_text().splitlines(keepends=True)[0])


def rows_dropped(path):
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:-5]))


def as_list(path):
    path.write_text("[1, 2]")


def not_a_number(path):
    path.write_text(path.read_text().replace(",200,", ",x,", 1))


RESTORE = r"; the package's data is damaged: install monopoly-lesson again"


@pytest.mark.parametrize(
    ("file", "damage", "message"),
    [
        ("run.json", lambda p: p.unlink(), "is missing"),
        ("run.json", cut_short, r"is not valid JSON \(Unterminated string"),
        ("run.json", as_list, "holds a JSON list, not an object of parameters"),
        (
            "run.json",
            lambda p: p.write_text('{"chromosome": "xga"}'),
            "is not what it should be: it has the chromosome 'xga'",
        ),
        ("history.csv", cut_short, r"is cut short \(its last line, line \d+, is incomplete\)"),
        ("history.csv", lambda p: p.unlink(), "is missing"),
        ("history.csv", header_only, r"holds no rows \(only its header line\)"),
        ("history.csv", rows_dropped, "does not hold generations 1 to 300 in order"),
        ("benchmark.csv", cut_short, "is cut short"),
        ("benchmark.csv", not_a_number, "has a value that is not a number in its column games"),
        (
            "benchmark_each.csv",
            lambda p: p.write_text("a,b\n1,2\n"),
            r"has the columns \['a', 'b'\], not \['generation', 'games'",
        ),
        ("genes.npz", cut_short, r"is damaged \(not a complete .npz file\)"),
        ("genes.npz", lambda p: p.unlink(), "is missing"),
    ],
)
def test_a_damaged_shipped_run_is_refused_naming_the_file(
    tmp_path, monkeypatch, file, damage, message
):
    folder = damaged_copy(tmp_path, monkeypatch, "rga_finish_order", file, damage)
    where = f"{file} in {folder}".replace(".", r"\.")
    with pytest.raises(ValueError, match=f"^{where} {message}.*{RESTORE}"):
        shipped.load_shipped_run("rga_finish_order")


def a_gene_of_2(path):
    """A shipped player's file with its first buy gene 1 more (above 1)."""
    text = path.read_text()
    assert '"buy": [\n   [0.' in text
    path.write_text(text.replace('"buy": [\n   [0.', '"buy": [\n   [1.', 1))


def a_jail_row_dropped(path):
    """A shipped player's file without the first row of its jail genes."""
    path.write_text(re.sub(r'("jail": \[\n)   \[.*\],\n', r"\1", path.read_text(), count=1))


def another_players(path):
    """A shipped player's file holding another shipped player's genes."""
    path.write_text((path.parent / "ega_always.json").read_text())


NOT_ITS_GENES = "is not what it should be: not rga_level's chromosome and genes"


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.unlink(), "is missing"),
        (cut_short, r"cannot be read as JSON \(Expecting"),
        (as_list, NOT_ITS_GENES),
        (lambda p: p.write_text(p.read_text().replace('"rga"', '"xga"')), NOT_ITS_GENES),
        (another_players, NOT_ITS_GENES),
        (a_gene_of_2, r"is not .*: RGA buy genes are .* from 0 to 1, got .*1\.\d+.* at \(0, 0\)"),
        (
            a_jail_row_dropped,
            r"is not .*: RGA jail genes must have shape \(64, 64\), got shape \(63, 64\)",
        ),
    ],
)
def test_a_damaged_shipped_player_is_refused_naming_the_file(
    tmp_path, monkeypatch, damage, message
):
    shutil.copytree(plugins.SHIPPED_DATA, tmp_path / "players")
    damage(tmp_path / "players" / "rga_level.json")
    monkeypatch.setattr(plugins, "SHIPPED_DATA", tmp_path / "players")
    where = f"rga_level.json in {tmp_path / 'players'}".replace(".", r"\.")
    with pytest.raises(ValueError, match=f"^{where} {message}.*{RESTORE}"):
        plugins.strategy_named("rga_level")


def drop_genes(path):
    """genes.npz without the first run's final genome."""
    import numpy as np

    with np.load(path) as data:
        kept = {key: data[key] for key in data.files if key != "rga-num_wins-seed1/final"}
    np.savez(path, **kept)


def gzip_rows_dropped(path):
    text = gzip.decompress(path.read_bytes()).decode()
    path.write_bytes(gzip.compress("".join(text.splitlines(keepends=True)[:-3]).encode()))


@pytest.mark.parametrize(
    ("file", "damage", "message"),
    [
        ("runs.json", as_list, "holds a JSON list, not an object of parameters"),
        ("runs.json", lambda p: p.write_text("{oops"), r"is not valid JSON \(Expecting"),
        (
            "runs.json",
            lambda p: p.write_text(json.dumps({"rga-x-seed1": 3})),
            "is not what it should be: its run 'rga-x-seed1' is not an object of parameters",
        ),
        ("history.csv.gz", cut_short, r"cannot be read \(Compressed file ended"),
        (
            "history.csv.gz",
            gzip_rows_dropped,
            "does not hold generations 1 to 1000 in order for the run sga-net_worth-seed1",
        ),
        ("benchmark.csv", cut_short, "is cut short"),
        ("benchmark.csv", not_a_number, "has a value that is not a number in its column games"),
        ("genes.npz", cut_short, r"is damaged \(not a complete .npz file\)"),
        ("genes.npz", drop_genes, r"is damaged \(rga-num_wins-seed1/final is not in it\)"),
    ],
)
def test_a_damaged_shipped_experiment_is_refused_naming_the_file(
    tmp_path, monkeypatch, file, damage, message
):
    folder = damaged_copy(tmp_path, monkeypatch, "experiment_paper", file, damage)
    where = f"{file} in {folder}".replace(".", r"\.")
    with pytest.raises(ValueError, match=f"^{where} {message}.*{RESTORE}"):
        shipped.load_shipped_experiment("paper")


def test_an_undamaged_copy_reads_as_the_shipped_data(tmp_path, monkeypatch):
    """The checks refuse damage only: a faithful copy reads exactly as the package's."""
    whole = shipped.load_shipped_run("rga_level")
    damaged_copy(tmp_path, monkeypatch, "rga_level", "run.json", lambda path: None)
    again = shipped.load_shipped_run("rga_level")
    assert again.parameters == whole.parameters and again.history.equals(whole.history)
    assert (again.final_best == whole.final_best).all()
