"""The paper's experiment as one command: a grid of evolve runs on Dask workers, each run's
files the same as when it is run alone, whatever the workers; resumable; bad input refused."""

from __future__ import annotations

import json
import shutil
import socket

import pandas as pd
import pytest

from monopoly_lesson import cli
from monopoly_lesson.evolution import experiment as experiment_module
from monopoly_lesson.evolution.experiment import (
    SUMMARY_COLUMNS,
    experiment,
    experiment_runs,
    read_summary,
)
from monopoly_lesson.evolution.run import evolve

SMALL = dict(population=8, games_per_player=2, max_rounds=20, benchmark_every=1, benchmark_games=4)
GRID = (["rga", "sga"], ["finish_order", "vs:heuristic,always,heuristic"], [3, 4])


def files_of(folder):
    """Every file under ``folder`` (relative path -> bytes), the summary's too."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def one_by_one(tmp_path_factory):
    """The grid's runs played one after another by evolve itself, in ``grid``/<run>."""
    folder = tmp_path_factory.mktemp("alone") / "grid"
    for run in experiment_runs(*GRID):
        evolve(
            run.chromosome,
            run.fitness,
            generations=3,
            seed=run.seed,
            out=folder / run.name,
            progress=False,
            **SMALL,
        )
    return folder


def test_a_local_cluster_of_two_workers_writes_each_run_as_evolve_alone(one_by_one):
    """The same grid on a local cluster of two worker processes, written where the runs
    alone were (the folder moved aside): every run's files are the same bytes."""
    alone = one_by_one.with_name("alone-grid")
    one_by_one.rename(alone)
    try:
        links = []
        summary = experiment(
            *GRID,
            generations=3,
            out=one_by_one,
            workers=2,
            progress=False,
            on_start=links.append,
            **SMALL,
        )
        on_cluster = files_of(one_by_one)
    finally:
        shutil.move(one_by_one, one_by_one.with_name("cluster-grid"))
        alone.rename(one_by_one)
    expected = files_of(one_by_one)
    assert links and links[0].startswith("http")
    assert sorted(on_cluster) == sorted([*expected, "experiment.json", "summary.csv"])
    assert all(on_cluster[name] == data for name, data in expected.items())
    assert list(summary.columns) == list(SUMMARY_COLUMNS) and len(summary) == 8
    assert summary["run"].tolist() == [run.name for run in experiment_runs(*GRID)]
    assert (summary["generations"] == 3).all() and (summary["benchmark_generation"] == 3).all()
    assert summary["ci_low"].le(summary["win_rate"]).all()


def test_a_running_cluster_given_by_its_address_plays_the_same_runs(tmp_path, one_by_one):
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster:
        experiment(
            *GRID,
            generations=3,
            out=tmp_path / "grid",
            scheduler=cluster.scheduler_address,
            progress=False,
            **SMALL,
        )
    for run in experiment_runs(*GRID):
        ours, theirs = files_of(tmp_path / "grid" / run.name), files_of(one_by_one / run.name)
        assert {k: v for k, v in ours.items() if k != "parameters.json"} == {
            k: v for k, v in theirs.items() if k != "parameters.json"
        }
        stored = json.loads(ours["parameters.json"])
        assert stored["seed"] == run.seed and stored["generations"] == 3


def test_an_experiment_run_again_resumes_every_run_where_it_stopped(tmp_path, one_by_one):
    """Two generations, then the same grid asked for three: the runs continue, and end
    as the runs played to three at once (the same bytes but for the recorded command)."""
    out = tmp_path / "grid"
    experiment(*GRID, generations=2, out=out, workers=1, progress=False, **SMALL)
    assert (read_summary(out)["generations"] == 2).all()
    experiment(*GRID, generations=3, out=out, workers=1, progress=False, **SMALL)
    assert (read_summary(out)["generations"] == 3).all()
    for run in experiment_runs(*GRID):
        ours, theirs = files_of(out / run.name), files_of(one_by_one / run.name)
        assert {k: v for k, v in ours.items() if k != "parameters.json"} == {
            k: v for k, v in theirs.items() if k != "parameters.json"
        }
    assert json.loads((out / "experiment.json").read_text())["generations"] == 3


def test_the_grid_is_chromosome_then_fitness_then_seed_and_all_is_the_papers_five():
    runs = experiment_runs(["rga", "tga", "sga"], "all", [1])
    assert len(runs) == 15
    assert runs[0].name == "rga-num_wins-seed1" and runs[-1].name == "sga-net_worth-seed1"
    assert experiment_runs("ega", ["vs:heuristic,always,heuristic"], [7])[0].name == (
        "ega-vs-heuristic-always-heuristic-seed7"
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"chromosomes": ["xga"]}, "chromosome must be one of"),
        ({"fitness": ["wins"]}, "fitness"),
        ({"seeds": []}, "seeds must hold at least one seed"),
        ({"seeds": 2}, r"seeds must be a list of whole numbers, for example \[2\]"),
        ({"seeds": "1,2"}, "seeds must be a list of whole numbers"),
        ({"seeds": [1.0]}, "each seed must be a whole number"),
        ({"fitness": 3}, "fitness must be a name, 'all' or a list of names"),
        ({"seeds": [-1]}, "seed must be"),
        ({"chromosomes": ["rga", "rga"]}, "names a run twice"),
        ({"workers": 0}, "workers must be at least 1"),
        ({"workers": 1, "scheduler": "tcp://127.0.0.1:1"}, "not both"),
        ({"population": 10}, "population must be a multiple of 4"),
        ({"trading": "yes"}, "trading must be True or False"),
        ({"speed": 2}, "unknown option 'speed'"),
    ],
)
def test_bad_arguments_are_refused_before_any_worker_starts(tmp_path, arguments, message):
    given = {"chromosomes": ["rga"], "fitness": ["num_wins"], "seeds": [1], **arguments}
    with pytest.raises((ValueError, TypeError), match=message):
        experiment(
            given.pop("chromosomes"),
            given.pop("fitness"),
            given.pop("seeds"),
            generations=1,
            out=tmp_path / "x",
            progress=False,
            **given,
        )
    assert not (tmp_path / "x").exists()


def free_port() -> int:
    """A port nothing listens on (just released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_cli(capsys, *words):
    status = cli.main(["experiment", *words])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_command_refuses_bad_input_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(experiment_module, "CONNECT_TIMEOUT", "1s")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    cases = [
        (["--chromosome", "rga,xga"], "unknown chromosome 'xga'"),
        (["--fitness", "wins"], "--fitness"),
        (["--seeds", "1,x"], "--seeds"),
        (["--scheduler", f"tcp://127.0.0.1:{free_port()}"], "no Dask scheduler answered"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not allowed with"),
    ]
    for words, message in cases:
        status, _, err = run_cli(capsys, *words, "--out", str(tmp_path / "x"), "--no-progress")
        assert status == 2 and message in err and len(err.strip().splitlines()) == 1, err
    status, _, err = run_cli(capsys, "--out", str(tmp_path / "other"), "--no-progress")
    assert status == 2 and "holds no experiment" in err and len(err.strip().splitlines()) == 1
    (tmp_path / "listed").mkdir()
    (tmp_path / "listed" / "experiment.json").write_text('["rga", "sga"]\n')
    status, _, err = run_cli(capsys, "--out", str(tmp_path / "listed"), "--no-progress")
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "holds a damaged experiment.json (a JSON list, not the grid's object)" in err


def test_the_command_runs_a_grid_and_a_different_grid_in_its_folder_is_refused(tmp_path, capsys):
    words = [
        "--chromosome",
        "tga",
        "--fitness",
        "num_wins,vs:heuristic+always+heuristic",
        "--seeds",
        "1",
        "--generations",
        "1",
        "--population",
        "8",
        "--games-per-player",
        "1",
        "--benchmark-every",
        "0",
        "--workers",
        "1",
        "--no-progress",
        "--trading",
        "--out",
        str(tmp_path / "grid"),
    ]
    status, out, err = run_cli(capsys, *words)
    assert status == 0, err
    assert "Dask dashboard: http" in out and "2 runs in" in out
    assert ", every game with trading; summary in" in out
    assert "(2 generations played," in out
    summary = pd.read_csv(tmp_path / "grid" / "summary.csv")
    assert summary["fitness"].tolist() == ["num_wins", "vs:heuristic,always,heuristic"]
    status, _, err = run_cli(capsys, *[w if w != "tga" else "rga" for w in words])
    assert status == 2 and "holds another experiment (chromosomes ['tga'] there" in err


def test_the_dashboard_link_shows_while_the_grid_runs_and_is_not_kept(tmp_path):
    """In a kernel: the link shown by on_start, then (the cluster closed) replaced in place
    by a line without any address, so a saved notebook holds the same bytes every run."""
    import nbformat
    from nbclient import NotebookClient

    cell = (
        "from monopoly_lesson.evolution.experiment import dashboard_link\n"
        "with dashboard_link() as show:\n"
        "    show('http://127.0.0.1:40001/status')\n"
        "    print('running')\n"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    NotebookClient(notebook, kernel_name="python3", timeout=120).execute()
    outputs = notebook.cells[0].outputs
    shown = [output for output in outputs if output.output_type == "display_data"]
    assert len(shown) == 1 and "running" in "".join(o.get("text", "") for o in outputs)
    assert shown[0].data["text/html"] == "The Dask dashboard closed with the grid's cluster."
    assert "40001" not in json.dumps(outputs)


def test_the_summary_row_is_the_last_generation_and_the_last_benchmark():
    history = pd.DataFrame(
        {
            "generation": [1, 2],
            "min": [1.0, 2.0],
            "median": [3.0, 4.0],
            "max": [5.0, 6.0],
            "mean": [3.0, 4.0],
            "sd": [1.0, 1.5],
            "diversity": [0.3, 0.2],
        }
    )
    bench = pd.DataFrame({"generation": [2], "win_rate": [0.25], "ci_low": [0.2], "ci_high": [0.3]})
    row = experiment_module.summary_row("r", "rga", "num_wins", 7, history, bench)
    assert list(row) == list(SUMMARY_COLUMNS)
    assert (row["generations"], row["max"], row["diversity"], row["win_rate"]) == (
        2,
        6.0,
        0.2,
        0.25,
    )
    empty = experiment_module.summary_row("r", "rga", "num_wins", 7, history, bench.iloc[:0])
    assert empty["benchmark_generation"] == 0 and pd.isna(empty["ci_high"])


def test_the_chapters_capitals_name_the_same_runs_as_the_apis_spelling():
    capitals = experiment_runs(
        "RGA,SGA", ["NET_WORTH", "vs:heuristic,always,heuristic:NUM_WINS"], [1]
    )
    api = experiment_runs("rga,sga", ["net_worth", "vs:heuristic,always,heuristic:num_wins"], [1])
    assert capitals == api
    assert capitals[0].name == "rga-net_worth-seed1"
    assert experiment_runs(["tga"], "ALL", [1]) == experiment_runs(["tga"], "all", [1])
    assert [run.fitness for run in experiment_runs("tga", "Finish_Order", [1])] == ["finish_order"]
