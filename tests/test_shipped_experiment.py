"""The shipped paper experiment is what its recorded commands make: each run's first
generations are re-run here and give the same numbers, and its last benchmark is played
again by its exact last best genome."""

from __future__ import annotations

import shlex

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson.evolution.experiment import SUMMARY_COLUMNS, experiment_runs
from monopoly_lesson.evolution.operators import OPERATORS, genome_length
from monopoly_lesson.evolution.run import benchmark, evolve
from monopoly_lesson.evolution.shipped import (
    GENE_STEPS,
    SHIPPED_EXPERIMENTS,
    experiment_summary,
    load_shipped_experiment,
)

RUNS = load_shipped_experiment()
PAPER_GRID = {run.name for run in experiment_runs(["rga", "tga", "sga"], "all", [1])}


@pytest.fixture(scope="module", params=sorted(RUNS))
def shipped(request):
    return request.param, RUNS[request.param]


def test_the_whole_papers_grid_ships_at_the_papers_scale():
    assert SHIPPED_EXPERIMENTS == ("paper",) and set(RUNS) == PAPER_GRID and len(RUNS) == 15
    for name, run in RUNS.items():
        p = run.parameters
        assert (p["population"], p["games_per_player"], p["generations"]) == (1000, 100, 1000)
        assert name == f"{p['chromosome']}-{p['fitness']}-seed{p['seed']}"
        assert all(p[key] == value for key, value in OPERATORS.items() if key != "crossover")
        words = shlex.split(p["command"])
        assert words[:4] == ["python", "-m", "monopoly_lesson", "evolve"]
        assert words[-2:] == ["--out", f"runs/{name}"]


def test_each_run_keeps_every_generation_and_every_tenth_best_genome(shipped):
    _, run = shipped
    p = run.parameters
    assert run.history["generation"].tolist() == list(range(1, p["generations"] + 1))
    assert run.benchmark["generation"].tolist() == list(range(10, p["generations"] + 1, 10))
    assert run.best_generations.tolist() == list(range(10, p["generations"] + 1, 10))
    length = genome_length(p["chromosome"])
    assert run.best_genomes.shape == (p["generations"] // 10, length)
    assert run.final_best.shape == (length,)
    np.testing.assert_allclose(run.best_genomes[-1], run.final_best, atol=0.5 / GENE_STEPS)


def test_each_run_s_first_generations_are_reproduced(shipped, tmp_path):
    _, run = shipped
    p = run.parameters
    options = {key: p[key] for key in OPERATORS}

    def made(generations: int):  # type: ignore[no-untyped-def]
        return evolve(
            p["chromosome"],
            p["fitness"],
            population=p["population"],
            games_per_player=p["games_per_player"],
            generations=generations,
            seed=p["seed"],
            out=tmp_path / "run",
            resume=True,
            benchmark_every=0,
            max_rounds=p["max_rounds"],
            progress=False,
            trading=p["trading"],
            **options,
        )

    first = made(1)
    if 1 in run.fitness:
        np.testing.assert_array_equal(first.fitness, run.fitness[1])
    pd.testing.assert_frame_equal(made(2).history, run.history.head(2), check_dtype=False)


def test_each_kept_fitness_is_its_generation_s_row_of_the_history(shipped):
    _, run = shipped
    assert run.parameters["generations"] in run.fitness  # the last generation's, always
    for generation, fitness in run.fitness.items():
        row = run.history.iloc[generation - 1]
        assert fitness.shape == (run.parameters["population"],)
        assert (fitness.min(), fitness.max()) == (row["min"], row["max"])
        assert fitness.mean() == pytest.approx(row["mean"], rel=1e-12)


def test_each_run_s_last_benchmark_is_played_again_by_its_last_best_genome(shipped):
    name, run = shipped
    p = run.parameters
    again = benchmark(
        run.best_player(), p["benchmark_games"], p["seed"], p["max_rounds"], p["trading"]
    )
    last = run.benchmark.iloc[-1]
    assert (again["games"], again["wins"]) == (last["games"], last["wins"]), name


def test_the_summary_has_a_row_per_run_with_its_last_generation_and_benchmark():
    table = experiment_summary(RUNS)
    assert table.index.tolist() == list(RUNS) and list(table.columns) == list(SUMMARY_COLUMNS[1:])
    for name, run in RUNS.items():
        last, bench = run.history.iloc[-1], run.benchmark.iloc[-1]
        row = table.loc[name]
        assert (row["generations"], row["min"], row["max"]) == (
            last["generation"],
            last["min"],
            last["max"],
        )
        assert (row["benchmark_generation"], row["win_rate"], row["ci_high"]) == (
            bench["generation"],
            bench["win_rate"],
            bench["ci_high"],
        )
        assert row["fitness"] == run.parameters["fitness"]


def test_the_shipping_tool_reads_generations_for_every_run_or_one_chromosome():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    from ship_experiment import fitness_generations

    assert fitness_generations("1, 100,sga:289") == [("", 1), ("", 100), ("sga", 289)]
    assert fitness_generations("") == []
    shipped = {name: sorted(run.fitness) for name, run in RUNS.items()}
    for name, generations in shipped.items():  # what the shipped data was made with
        expected = [1, 289, 1000] if name.startswith("sga-") else [1, 1000]
        assert generations == expected, name
