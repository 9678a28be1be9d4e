"""The whole game's figures: what their axes say."""

from __future__ import annotations

import numpy as np
import pandas as pd

from monopoly_lesson.game.plots import diversity_history, log_ticks, payback_chart
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
