"""The whole game's figures: what their axes say."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson.game.plots import (
    diversity_history,
    fitness_histograms,
    log_ticks,
    paired_ticks,
    payback_chart,
    round_step,
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
    assert payback_chart(payback).data[0].x == (
        "1 house",
        "2 houses",
        "3 houses",
        "4 houses",
        "hotel",
    )


def test_the_diversity_history_draws_both_measures_rounded_as_a_reader_sees_them():
    history = pd.DataFrame(
        {
            "generation": [1, 2, 3],
            "diversity": [0.2887, 0.10049, 0.0251],
            "luck_share": [0.59512, 0.946, 1.0104],
        }
    )
    fig = diversity_history(history)
    diversity, luck = fig.data
    assert list(diversity.y) == [0.289, 0.1, 0.025] and list(luck.y) == [0.595, 0.946, 1.01]
    assert luck.yaxis == "y2" and fig.layout.yaxis2.overlaying == "y"


def is_round(step: float) -> bool:
    """Whether ``step`` is 1, 2, 2.5 or 5 times a power of ten."""
    mantissa = step / 10 ** np.floor(np.log10(step))
    return any(np.isclose(mantissa, m) for m in (1, 2, 2.5, 5))


def axis_ticks(axis) -> list[float]:
    """The ticks an axis from 0 with a range and a dtick shows."""
    count = round(axis.range[1] / axis.dtick)
    assert np.isclose(count * axis.dtick, axis.range[1]), "the top is not a tick"
    return [k * axis.dtick for k in range(count + 1)]


@pytest.mark.parametrize(
    ("diversity", "luck"),
    [
        ([0.2887, 0.1, 0.0161], [0.57, 1.189, 0.97]),  # the paper's run: 0.198, 0.396... before
        ([0.31, 0.2], [0.4, 0.05]),
        ([0.004, 0.002], [2.7, 1.0]),
        ([0.29, 0.1], [np.nan, np.nan]),  # a vs: fitness has no luck share
    ],
)
def test_the_diversity_history_has_round_ticks_on_both_axes_on_the_same_grid(diversity, luck):
    history = pd.DataFrame(
        {"generation": range(1, len(luck) + 1), "diversity": diversity, "luck_share": luck}
    )
    layout = diversity_history(history).layout
    left, right = axis_ticks(layout.yaxis), axis_ticks(layout.yaxis2)
    assert len(left) == len(right) and 5 <= len(left) <= 7  # one grid line for both
    assert is_round(layout.yaxis.dtick) and is_round(layout.yaxis2.dtick)
    assert layout.yaxis.range[0] == layout.yaxis2.range[0] == 0
    shown = np.nanmax(luck) if np.isfinite(luck).any() else 1.0  # a share's axis: 0 to 1
    for ticks, top in ((left, max(diversity)), (right, shown)):
        assert ticks[-1] / 2 < top <= ticks[-1]  # the data reach past the axis's middle
    assert all(len(f"{tick:.10g}") <= 5 for tick in left + right), (left, right)


def test_round_steps_and_paired_ticks():
    assert [round_step(x) for x in (0.048, 0.05, 0.0501, 0.198, 0.6 / 3, 3, 7.5, 11)] == [
        0.05,
        0.05,
        0.1,
        0.2,
        0.2,
        5.0,
        10.0,
        20.0,
    ]
    assert paired_ticks(0.2887, 1.189) == (6, 0.05, 0.2)
    n, left, right = paired_ticks(0.05, 0.99, intervals=(4,))
    assert (n, left, right) == (4, 0.02, 0.25)
    for bad in (0, -1.0, np.nan, np.inf):
        with pytest.raises(ValueError, match="least must be a positive number"):
            round_step(bad)
        with pytest.raises(ValueError, match="left_top must be a positive number"):
            paired_ticks(bad, 1.0)


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
