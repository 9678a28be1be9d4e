"""The shipped paper-scale run is what its recorded command makes: its first generations
are re-run here and must give the same numbers."""

from __future__ import annotations

import shlex

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson.evolution.run import evolve
from monopoly_lesson.evolution.shipped import load_shipped_run


@pytest.fixture(scope="module")
def run():
    return load_shipped_run()


def test_the_run_is_the_paper_scale_and_records_its_command(run):
    p = run.parameters
    assert (p["population"], p["games_per_player"], p["chromosome"]) == (1000, 100, "rga")
    assert p["generations"] >= 300 and len(run.history) == p["generations"]
    words = shlex.split(p["command"])
    assert words[:4] == ["python", "-m", "monopoly_lesson", "evolve"]
    assert words[words.index("--seed") + 1] == str(p["seed"])
    assert run.best_buy.shape == (p["generations"], 4, 40)
    assert (run.history["mean"] == 150).all()  # FINISH_ORDER: 6 points a game, 4 players


def test_its_first_generations_are_reproduced(run):
    p = run.parameters
    again = evolve(p["chromosome"], p["fitness"], population=p["population"],
                   games_per_player=p["games_per_player"], generations=2, seed=p["seed"],
                   benchmark_every=0, max_rounds=p["max_rounds"], progress=False)  # fmt: skip
    pd.testing.assert_frame_equal(again.history, run.history.head(2), check_dtype=False)
    best, _ = np.split(again.best_genomes[1], [160])
    np.testing.assert_allclose(best.reshape(4, 40), run.best_buy[1], rtol=1e-6)


def test_the_best_player_plays(run):
    from monopoly_lesson.game.engine import play_monopoly

    result = play_monopoly([run.best_player(), "heuristic"], seed=1, max_rounds=10)
    assert result.rounds == 10


def test_every_generation_has_its_benchmark(run):
    from monopoly_lesson.evolution.run import benchmark_each

    each = run.benchmark_each
    assert list(each["generation"]) == list(range(1, run.parameters["generations"] + 1))
    assert (each["ci_low"] <= each["win_rate"]).all() and (
        each["win_rate"] <= each["ci_high"]
    ).all()
    last = benchmark_each("rga", run.final_best[None], games=int(each["games"].iloc[-1]),
                          seed=run.parameters["seed"])  # fmt: skip
    assert last["wins"].iloc[0] == each["wins"].iloc[-1]  # the shipped figure is reproduced


def test_its_history_shows_the_collapse_of_diversity(run):
    """The paper's operators: the genes' spread falls from a uniform start's 0.29, and the
    fitness spread becomes the luck of identical players (its share of the variance near 1)."""
    history = run.history.set_index("generation")
    assert abs(history.loc[1, "diversity"] - 12**-0.5) < 0.01
    assert history["diversity"].is_monotonic_decreasing or history.loc[50, "diversity"] < 0.05
    late = history.loc[50:, "luck_share"]
    assert 0.8 < late.median() < 1.2 and history.loc[1, "luck_share"] < 0.7
