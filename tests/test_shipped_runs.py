"""The shipped paper-scale runs are what their recorded commands make: the first
generations of each are re-run here and must give the same numbers."""

from __future__ import annotations

import shlex

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson.evolution.operators import OPERATORS, genome_length
from monopoly_lesson.evolution.run import evolve
from monopoly_lesson.evolution.shipped import SHIPPED_RUNS, load_shipped_run


@pytest.fixture(scope="module")
def run():
    return load_shipped_run()


@pytest.fixture(scope="module", params=SHIPPED_RUNS)
def each_run(request):
    return load_shipped_run(request.param)


def again(p: dict, generations: int):
    """The run of parameters ``p`` (as run.json records them) for its first generations (a
    hall of fame plays from its first member on, so before it the run is one without)."""
    options = {name: p[name] for name in OPERATORS if name in p}
    return evolve(
        p["chromosome"],
        p["fitness"],
        population=p["population"],
        games_per_player=p["games_per_player"],
        generations=generations,
        seed=p["seed"],
        benchmark_every=0,
        max_rounds=p["max_rounds"],
        progress=False,
        trading=p.get("trading", False),
        league=p.get("league"),
        hall_of_fame=hall if (hall := p.get("hall_of_fame", 0)) < generations else 0,
        **options,
    )


def test_the_run_is_the_paper_scale_and_records_its_command(run):
    p = run.parameters
    assert (p["population"], p["games_per_player"], p["chromosome"]) == (1000, 100, "rga")
    assert p["generations"] >= 300 and len(run.history) == p["generations"]
    words = shlex.split(p["command"])
    assert words[:4] == ["python", "-m", "monopoly_lesson", "evolve"]
    assert words[words.index("--seed") + 1] == str(p["seed"])
    assert run.best_buy.shape == (p["generations"], 4, 40)
    assert (run.history["mean"] == 150).all()  # FINISH_ORDER: 6 points a game, 4 players


def test_its_first_generations_are_reproduced(each_run):
    """Every shipped run: its recorded options give its first two generations again."""
    p = each_run.parameters
    made = again(p, 2)
    pd.testing.assert_frame_equal(made.history, each_run.history.head(2), check_dtype=False)
    best = made.best_genomes[1][:160]
    np.testing.assert_allclose(best.reshape(4, 40), each_run.best_buy[1], rtol=1e-6)
    assert each_run.final_best.shape == (genome_length(p["chromosome"]),)
    words = shlex.split(p["command"])
    assert words[words.index("--chromosome") + 1] == p["chromosome"]
    assert ("--trading" in words) == p.get("trading", False)


def test_each_run_s_last_benchmark_is_reproduced(each_run):
    from monopoly_lesson.evolution.run import benchmark_each

    p, each = each_run.parameters, each_run.benchmark_each
    assert list(each["generation"]) == list(range(1, p["generations"] + 1))
    last = benchmark_each(
        p["chromosome"],
        each_run.final_best[None],
        games=int(each["games"].iloc[-1]),
        seed=p["seed"],
        max_rounds=p["max_rounds"],
        opponents=p["benchmark_opponents"],
        trading=p.get("trading", False),
    )
    assert last["wins"].iloc[0] == each["wins"].iloc[-1]


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
    last = benchmark_each(
        "rga", run.final_best[None], games=int(each["games"].iloc[-1]), seed=run.parameters["seed"]
    )
    assert last["wins"].iloc[0] == each["wins"].iloc[-1]  # the shipped figure is reproduced


def test_its_history_shows_the_collapse_of_diversity(run):
    """The paper's operators: the genes' spread falls from a uniform start's 0.29, and the
    fitness spread becomes the luck of identical players (its share of the variance near 1)."""
    history = run.history.set_index("generation")
    assert abs(history.loc[1, "diversity"] - 12**-0.5) < 0.01
    assert history["diversity"].is_monotonic_decreasing or history.loc[50, "diversity"] < 0.05
    late = history.loc[50:, "luck_share"]
    assert 0.8 < late.median() < 1.2 and history.loc[1, "luck_share"] < 0.7
