"""The whole game's figures: what their axes say."""

from __future__ import annotations

import numpy as np
import pandas as pd

from monopoly_lesson.game.plots import (
    diversity_history,
    fitness_histograms,
    log_ticks,
    payback_chart,
)
from monopoly_lesson.rent_value import payback_turns


def test_log_ticks_are_one_two_five_around_the_values():
    assert log_ticks(np.array([16.5, 234.7])) == [10.0, 20.0, 50.0, 100.0, 200.0, 500.0]
    assert log_ticks(np.array([[3.0, np.nan], [np.inf, 48.0]])) == [2.0, 5.0, 10.0, 20.0, 50.0]
    assert log_ticks(np.array([np.nan, -1.0])) == []


def test_the_payback_chart_reads_in_plain_numbers():
    payback = payback_turns()
    axis = payback_chart(payback).layout.yaxis
    assert axis.type == "log"
    assert list(axis.ticktext) == [f"{t:,g}" for t in axis.tickvals]
    assert min(axis.tickvals) <= payback.min().min() and max(axis.tickvals) >= payback.max().max()
    assert payback_chart(payback).data[0].x == ("1 house", "2 houses", "3 houses", "4 houses",
                                                "hotel")  # fmt: skip


def test_the_diversity_history_draws_both_measures_rounded_as_a_reader_sees_them():
    history = pd.DataFrame({"generation": [1, 2, 3], "diversity": [0.2887, 0.10049, 0.0251],
                            "luck_share": [0.59512, 0.946, 1.0104]})  # fmt: skip
    fig = diversity_history(history)
    diversity, luck = fig.data
    assert list(diversity.y) == [0.289, 0.1, 0.025] and list(luck.y) == [0.595, 0.946, 1.01]
    assert luck.yaxis == "y2" and fig.layout.yaxis2.overlaying == "y"


def test_fitness_histograms_draw_one_panel_per_population_with_its_mean_and_skewness():
    samples = {"even": np.array([1, 2, 2, 3] * 25), "tailed": np.array([0] * 90 + [50] * 10)}
    fig = fitness_histograms(samples, bins=10)
    assert [trace.y.sum() for trace in fig.data] == [100, 100]
    assert fig.data[0].y.tolist() == [25, 50, 25] and fig.data[1].y.tolist() == [90, 10]
    titles = [a.text for a in fig.layout.annotations]
    assert titles == ["even<br>mean 2.0<br>skew +0.00", "tailed<br>mean 5.0<br>skew +2.71"]
    assert fig.layout.xaxis2.title.text == "fitness" and fig.layout.yaxis.title.text == "players"


def test_a_histogram_s_bars_are_whole_steps_of_the_fitness():
    """NUM_WINS moves in 3s: every bar holds the same number of possible values."""
    wins = 3 * np.random.default_rng(2).binomial(100, 0.25, size=1000)
    bar = fitness_histograms({"num_wins": wins}, bins=30).data[0]
    assert bar.width % 3 == 0 and np.all(np.diff(bar.x) == bar.width)
    assert bar.x[0] - bar.width / 2 < wins.min() and bar.x[-1] + bar.width / 2 > wins.max()
