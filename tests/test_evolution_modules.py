"""The genetic algorithm's three modules: operators (genomes), files (the run's folder) and
run (the generations); each name in one of them, the folder read and written without a game."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import numpy as np
import pytest

from monopoly_lesson.evolution import files, operators

EVOLUTION = Path(__file__).resolve().parent.parent / "monopoly_lesson" / "evolution"
PUBLIC = {
    "operators": [
        "CROSSOVERS",
        "FIELD",
        "FITNESS",
        "INITS",
        "LEVEL_RANGE",
        "LEVEL_SD",
        "MUTATION_RATE",
        "MUTATION_SD",
        "OPERATORS",
        "SEATS",
        "SELECTIONS",
        "TOURNAMENT_SIZE",
        "check_fitness",
        "check_operators",
        "crossover",
        "diversity",
        "finish_order",
        "fitness_parts",
        "flip_bits",
        "generation_genomes",
        "genome_genes",
        "genome_length",
        "genome_player",
        "mutate",
        "net_worth",
        "next_population",
        "num_monopolies",
        "num_properties",
        "num_wins",
        "one_point_crossover",
        "random_population",
        "rank_selection",
        "roulette",
        "run_rng",
        "select_elite",
        "split_counts",
        "tournament",
        "uniform_crossover",
        "used_genes",
    ],
    "files": ["BENCHMARK_COLUMNS", "HISTORY_COLUMNS", "SAVE_POPULATION_EVERY"],
    "experiment": [
        "CONNECT_TIMEOUT",
        "LOCAL_STOP_SECONDS",
        "POLL_SECONDS",
        "STOP_SECONDS",
        "SUMMARY_COLUMNS",
        "ExperimentRun",
        "ExperimentStopped",
        "RunFailed",
        "dashboard_link",
        "experiment",
        "experiment_runs",
        "generations_saved",
        "read_summary",
        "summary_row",
    ],
    "league": [
        "SELF",
        "check_hall_of_fame",
        "check_league",
        "field_codes",
        "field_rng",
        "hall_genomes",
        "league_fields",
        "member_player",
    ],
    "run": [
        "BENCHMARK_OPPONENTS",
        "EvolutionResult",
        "benchmark",
        "benchmark_each",
        "evolve",
        "fitness_summary",
        "load_evolution",
        "play_generation",
        "run_bytes",
        "seat_tables",
        "win_rates_against",
    ],
}


def evolution_imports(module: str) -> set[str]:
    """The modules of the evolution folder that ``module`` imports (``from .x import``)."""
    tree = ast.parse((EVOLUTION / f"{module}.py").read_text())
    return {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
    }


def test_operators_know_no_run_and_files_know_no_game():
    """Genomes need neither a run nor its folder; the folder's files need no game played."""
    assert evolution_imports("operators") == set()
    assert evolution_imports("files") == {"operators"}
    assert evolution_imports("league") == {"files", "operators"}
    assert evolution_imports("run") == {"files", "league", "operators", "population_games"}


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_each_public_name_lives_in_one_module_with_a_docstring(module):
    found = importlib.import_module(f"monopoly_lesson.evolution.{module}")
    assert sorted(found.__all__) == sorted(PUBLIC[module])
    for name in found.__all__:
        value = getattr(found, name)
        if callable(value):
            assert value.__module__ == found.__name__, f"{name} is defined elsewhere"
            assert (value.__doc__ or "").strip(), f"{module}.{name} has no docstring"
    assert not (EVOLUTION / "genetic.py").exists()


def small_run(rng: np.random.Generator) -> files._Run:
    """A run of 2 generations of 8 TGA players, made by hand: no game is played."""
    parameters = {
        "chromosome": "tga",
        "fitness": "finish_order",
        "population": 8,
        "generations": 2,
        **operators.check_operators("tga"),
        "trading": False,
        "league": None,
        "hall_of_fame": 0,
    }
    run = files._Run(parameters, generation=2, saved=2)  # the population saved whole
    run.population = operators.random_population("tga", 8, rng)
    run.fitness = rng.integers(0, 10, size=8).astype(float)
    run.best = [run.population[0].copy(), run.population[1].copy()]
    run.history = [
        {
            "generation": g,
            "min": 0.0,
            "q1": 1.0,
            "median": 2.0,
            "q3": 3.0,
            "max": 4.0 + g,
            "mean": 2.0,
            "sd": 1.5,
            "diversity": 0.25,
            "luck_sd": 1.0,
            "luck_share": 0.5,
        }
        for g in (1, 2)
    ]
    run.benchmark = [
        {"generation": 2, "games": 4, "wins": 1, "win_rate": 0.25, "ci_low": 0.05, "ci_high": 0.7}
    ]
    return run


def test_the_folder_is_written_and_read_back_by_files_alone(tmp_path):
    run = small_run(np.random.default_rng(3))
    files._write_json(tmp_path / "parameters.json", run.parameters)
    files._save(tmp_path, run)
    (tmp_path / ".history.csv.4194305.tmp").write_text("a killed run's leftover")
    read = files._read_run(tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(files._FILES)
    assert (read.parameters, read.generation) == (run.parameters, 2)
    np.testing.assert_array_equal(read.population, run.population)
    np.testing.assert_array_equal(read.fitness, run.fitness)
    np.testing.assert_array_equal(np.stack(read.best), np.stack(run.best))
    assert read.history == run.history and read.benchmark == run.benchmark


def test_a_folder_without_parameters_is_no_run(tmp_path):
    with pytest.raises(ValueError, match="holds no run"):
        files._read_run(tmp_path)
    with pytest.raises(TypeError, match="out must be the path of an evolve"):
        files._read_run("")
