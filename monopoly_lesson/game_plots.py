"""plotly figures for the whole game: game lengths, win rates, what lots are worth, and
how a genetic algorithm's players evolve.

Each function takes a table the package already returns (``play_games``, ``win_rates``,
``rent_per_dollar``, ``payback_turns``, an evolve ``history`` or ``benchmark``, a genome's
buy genes) and draws it, in the style of :mod:`monopoly_lesson.plots`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .chromosomes import OWNERSHIP_STATES
from .lots import GROUPS, lots

__all__ = [
    "fitness_fan",
    "genes_by_group",
    "heat_map",
    "payback_chart",
    "rounds_histogram",
    "win_rate_chart",
    "win_rate_history",
]

_STYLE = dict(template="plotly_white", height=420)


def rounds_histogram(table: pd.DataFrame, title: str = "How long games last") -> go.Figure:
    """The rounds each game lasted (``play_games``' table: one row per player per game)."""
    games = table.drop_duplicates("game")
    fig = go.Figure(go.Histogram(x=games["rounds"], xbins=dict(size=5), marker_color="#1f4e79"))
    fig.update_layout(title=title, xaxis_title="rounds played", yaxis_title="games", **_STYLE)
    return fig


def win_rate_chart(rates: pd.DataFrame, title: str = "Win rates (95% intervals)") -> go.Figure:
    """Each strategy's win rate with its confidence interval (``win_rates``' table)."""
    fig = go.Figure(go.Bar(
        x=rates.index.astype(str), y=100 * rates["win_rate"], marker_color="#1f4e79",
        error_y=dict(type="data", symmetric=False,
                     array=100 * (rates["ci_high"] - rates["win_rate"]),
                     arrayminus=100 * (rates["win_rate"] - rates["ci_low"])),
    ))  # fmt: skip
    fig.update_layout(title=title, yaxis_title="games won (%)", **_STYLE)
    return fig


def heat_map(frame: pd.DataFrame, title: str, value: str | None = "{:.2f}") -> go.Figure:
    """A table of numbers as a heat map, rows and columns labelled, each cell printed in the
    format ``value`` (None: no numbers, a colour scale instead, for big tables)."""
    text = [[value.format(v) for v in row] for row in frame.to_numpy()] if value else None
    fig = go.Figure(go.Heatmap(
        z=frame.to_numpy(), x=[str(c) for c in frame.columns], y=[str(i) for i in frame.index],
        text=text, texttemplate="%{text}" if value else None, colorscale="Blues",
        showscale=value is None,
    ))  # fmt: skip
    fig.update_layout(title=title, yaxis_autorange="reversed", **_STYLE)
    return fig


def payback_chart(payback: pd.DataFrame, title: str = "Payback of buildings") -> go.Figure:
    """Opponent turns for each group's buildings to pay for themselves, stage by stage."""
    fig = go.Figure()
    for group, row in payback.iterrows():
        fig.add_trace(go.Scatter(x=list(payback.columns), y=row.to_numpy(), mode="lines+markers",
                                 name=str(group), line=dict(color=GROUPS[group][0])))  # fmt: skip
    fig.update_layout(title=title, yaxis_title="opponent turns", yaxis_type="log", **_STYLE)
    return fig


def fitness_fan(history: pd.DataFrame, title: str = "Fitness by generation") -> go.Figure:
    """The fitness's range (min to max), middle half (q1 to q3) and median per generation."""
    x = history["generation"]
    fig = go.Figure()
    for low, high, shade, name in (("min", "max", 0.15, "min to max"),
                                   ("q1", "q3", 0.35, "middle half")):  # fmt: skip
        fig.add_trace(go.Scatter(x=x, y=history[high], line=dict(width=0), showlegend=False))
        fig.add_trace(go.Scatter(x=x, y=history[low], fill="tonexty", line=dict(width=0),
                                 fillcolor=f"rgba(31,78,121,{shade})", name=name))  # fmt: skip
    fig.add_trace(go.Scatter(x=x, y=history["median"], line=dict(color="#1f4e79"), name="median"))
    fig.update_layout(title=title, xaxis_title="generation", yaxis_title="fitness", **_STYLE)
    return fig


def win_rate_history(
    benchmark: pd.DataFrame, title: str = "The best genome's win rate"
) -> go.Figure:
    """The benchmark win rate by generation with its 95% interval, and an equal share (25%)."""
    x = benchmark["generation"]
    fig = go.Figure([
        go.Scatter(x=x, y=100 * benchmark["ci_high"], line=dict(width=0), showlegend=False),
        go.Scatter(x=x, y=100 * benchmark["ci_low"], fill="tonexty", line=dict(width=0),
                   fillcolor="rgba(31,78,121,0.25)", name="95% interval"),
        go.Scatter(x=x, y=100 * benchmark["win_rate"], line=dict(color="#1f4e79"),
                   name="win rate"),
    ])  # fmt: skip
    fig.add_hline(y=25, line_dash="dot", annotation_text="an equal player: 25%")
    fig.update_layout(title=title, xaxis_title="generation", yaxis_title="games won (%)", **_STYLE)
    return fig


def genes_by_group(buy: np.ndarray) -> pd.DataFrame:
    """Buy genes (4, 40) averaged over each group's lots: groups x ownership states."""
    table = pd.DataFrame(np.asarray(buy)[:, lots.index - 1].T, index=lots.index,
                         columns=list(OWNERSHIP_STATES))  # fmt: skip
    return table.groupby(lots["group"], sort=False).mean()
