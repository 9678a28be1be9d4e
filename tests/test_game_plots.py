"""The whole game's figures: what their axes say."""

from __future__ import annotations

import numpy as np

from monopoly_lesson.game.plots import log_ticks, payback_chart
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
