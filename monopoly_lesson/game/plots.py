"""plotly figures for the whole game: game lengths, win rates, what lots are worth, and
how a genetic algorithm's players evolve.

Each function takes a table the package already returns (``play_games``, ``win_rates``,
``rent_per_dollar``, ``payback_turns``, an evolve ``history`` or ``benchmark``, a genome's
buy genes) and draws it, in the style of :mod:`monopoly_lesson.plots`. Each checks its
arguments first: a wrong table is refused at the student's call, saying which one to pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..checks import at_the_call, check_whole, is_list
from ..figure_words import listing, number, plain, spread, titled, with_words
from .chromosomes import OWNERSHIP_STATES
from .lots import GROUPS, lots

__all__ = [
    "check_table",
    "check_title",
    "diversity_history",
    "fitness_fan",
    "fitness_histograms",
    "genes_by_group",
    "heat_map",
    "log_ticks",
    "paired_ticks",
    "payback_chart",
    "round_step",
    "rounds_histogram",
    "win_rate_chart",
    "win_rate_history",
]

_STYLE = dict(template="plotly_white", height=420)


def check_title(title: object, what: str = "title") -> str | None:
    """``title`` if it is a string (or None, no title), else a plain TypeError."""
    if title is not None and not isinstance(title, str):
        raise TypeError(f"{what} must be a string (or None: no title), got {title!r}.")
    return title


def check_table(
    table: object, what: str, source: str, columns: Sequence[str], held_as: Sequence[str] = ()
) -> pd.DataFrame:
    """``table`` if it is a DataFrame with ``columns``, else a plain error that names ``what``
    and the table to pass (``source``); for an object that holds that table (a run, say) as
    one of the attributes ``held_as``, the error says to pass that attribute."""
    wanted = f"{source} (a DataFrame with columns {', '.join(columns)})"
    if not isinstance(table, pd.DataFrame):
        held = [name for name in held_as if isinstance(getattr(table, name, None), pd.DataFrame)]
        hint = f": pass its .{held[0]}" if held else ""
        raise TypeError(f"{what} must be {wanted}, got {type(table).__name__}{hint}.")
    missing = [column for column in columns if column not in table.columns]
    if missing:
        has = ", ".join(map(str, table.columns)) or "none"
        raise ValueError(f"{what} must be {wanted}; its columns are {has}.")
    return table


def _check_numbers(frame: pd.DataFrame, what: str) -> None:
    """Refuse a table with a column that does not hold numbers (a heat map's colours)."""
    words = [str(c) for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    if words:
        raise ValueError(
            f"{what} must hold only numbers; its column {words[0]!r} does not "
            f"(drop it: {what}.drop(columns=[{words[0]!r}]))."
        )


def rounds_histogram(table: pd.DataFrame, title: str = "How long games last") -> go.Figure:
    """The rounds each game lasted (``play_games``' table: one row per player per game)."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        check_table(table, "table", "play_games()'s table", ("game", "rounds"))
        check_title(title)
    rounds = table.drop_duplicates("game")["rounds"]
    start = ROUNDS_BIN * (int(rounds.min()) // ROUNDS_BIN) if len(rounds) else 0
    fig = go.Figure(
        go.Histogram(x=rounds, xbins=dict(start=start, size=ROUNDS_BIN), marker_color="#1f4e79")
    )
    fig.update_layout(title=title, xaxis_title="rounds played", yaxis_title="games", **_STYLE)
    return with_words(fig, *_rounds_words(rounds, title))


ROUNDS_BIN = 5
"""The rounds one bar of :func:`rounds_histogram` holds: 0 to 4, 5 to 9, ..."""


def _rounds_words(rounds: pd.Series, title: str | None) -> tuple[str, str]:
    """A histogram of game lengths in words: its quartiles and its tallest bar."""
    alt = f"{titled('Histogram', title)}: how many rounds each of {len(rounds):,} games lasted."
    if not len(rounds):
        return alt, "No games were played."
    low, q1, median, q3, high = (number(q) for q in rounds.quantile([0, 0.25, 0.5, 0.75, 1]))
    bars = (rounds // ROUNDS_BIN).value_counts().sort_index()
    tallest = int(bars.idxmax()) * ROUNDS_BIN
    return alt, (
        f"{len(rounds):,} games. The shortest lasted {low} rounds, a quarter of them "
        f"{q1} or fewer, half {median} or fewer, three quarters {q3} or fewer, and the "
        f"longest {high}. The tallest bar, {tallest} to {tallest + ROUNDS_BIN - 1} rounds, "
        f"holds {int(bars.max()):,} games."
    )


def win_rate_chart(rates: pd.DataFrame, title: str = "Win rates (95% intervals)") -> go.Figure:
    """Each strategy's win rate with its confidence interval (``win_rates``' table)."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        check_table(
            rates,
            "rates",
            "win_rates(table)'s or win_rates_against()'s table",
            ("win_rate", "ci_low", "ci_high"),
        )
        check_title(title)
    fig = go.Figure(
        go.Bar(
            x=rates.index.astype(str),
            y=100 * rates["win_rate"],
            marker_color="#1f4e79",
            error_y=dict(
                type="data",
                symmetric=False,
                array=100 * (rates["ci_high"] - rates["win_rate"]),
                arrayminus=100 * (rates["win_rate"] - rates["ci_low"]),
            ),
        )
    )
    fig.update_layout(title=title, yaxis_title="games won (%)", **_STYLE)
    alt = (
        f"{titled('Bar chart', title)}: the share of games each of {len(rates)} players "
        "won, in percent, each with its interval."
    )
    each = "; ".join(
        f"{plain(name)} {100 * row.win_rate:.1f}% ({100 * row.ci_low:.1f}% to "
        f"{100 * row.ci_high:.1f}%)"
        for name, row in rates.iterrows()
    )
    return with_words(fig, alt, f"Games won, with each interval in brackets: {each}.")


def heat_map(frame: pd.DataFrame, title: str, value: str | None = "{:.2f}") -> go.Figure:
    """A table of numbers as a heat map, rows and columns labelled, each cell printed in the
    format ``value`` (None: no numbers, a colour scale instead, for big tables)."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        _check_heat_map(frame, title, value)
    text = [[value.format(v) for v in row] for row in frame.to_numpy()] if value else None
    fig = go.Figure(
        go.Heatmap(
            z=frame.to_numpy(),
            x=[str(c) for c in frame.columns],
            y=[str(i) for i in frame.index],
            text=text,
            texttemplate="%{text}" if value else None,
            colorscale="Blues",
            showscale=value is None,
        )
    )
    fig.update_layout(title=title, yaxis_autorange="reversed", **_STYLE)
    return with_words(fig, *_heat_map_words(frame, title, value))


HEAT_MAP_CELLS = 120
"""The most cells a heat map's description lists one by one (a bigger table: its extremes
and its rows' means)."""


def _heat_map_words(frame: pd.DataFrame, title: str | None, value: str | None) -> tuple[str, str]:
    """A heat map's words: its rows and columns, then its cells (or, for a big table, where
    it is highest and lowest, and each row's mean)."""
    rows, columns = [plain(i) for i in frame.index], [plain(c) for c in frame.columns]
    alt = (
        f"{titled('Heat map', title)}: a table of {len(rows)} rows by {len(columns)} columns, "
        "each cell shaded by its number, darker for larger."
    )
    shown = value or "{:.3g}"
    table = frame.to_numpy(dtype=float)
    if not table.size:
        return alt, "The table is empty."
    if table.size <= HEAT_MAP_CELLS:
        lines = [
            f"{row}: "
            + ", ".join(f"{c} {shown.format(v)}" for c, v in zip(columns, values, strict=True))
            for row, values in zip(rows, table, strict=True)
        ]
        return alt, f"Each row, its columns' numbers: {'; '.join(lines)}."
    high, low = (
        np.unravel_index(np.nanargmax(table), table.shape),
        np.unravel_index(np.nanargmin(table), table.shape),
    )
    means = "; ".join(
        f"{row} {number(m)}" for row, m in zip(rows, np.nanmean(table, axis=1), strict=True)
    )
    return alt, (
        f"Highest: {shown.format(table[high])} ({rows[high[0]]}, {columns[high[1]]}); lowest: "
        f"{shown.format(table[low])} ({rows[low[0]]}, {columns[low[1]]}). Each row's mean: "
        f"{means}."
    )


def _check_heat_map(frame: object, title: object, value: object) -> None:
    """:func:`heat_map`'s arguments: a table of numbers, a title, a number format or None."""
    if not isinstance(frame, pd.DataFrame):
        kind = type(frame).__name__
        hint = {
            "Series": ": make it a table with .to_frame()",
            "ndarray": ": make it a table with pd.DataFrame(...)",
        }.get(kind, "")
        raise TypeError(f"frame must be a pandas DataFrame of numbers, got {kind}{hint}.")
    _check_numbers(frame, "frame")
    check_title(title)
    if value is None:
        return
    wanted = "value must be a format for one number such as '{:.2f}' (or None: no numbers"
    if not isinstance(value, str):
        raise TypeError(f"{wanted}, a colour scale), got {value!r}.")
    first = frame.to_numpy().flat[0] if frame.size else 0.5
    try:
        if "{" not in value:
            raise ValueError
        value.format(first)
    except (ValueError, IndexError, KeyError, TypeError):
        raise ValueError(f"{wanted}, a colour scale), got {value!r}.") from None


STAGE_LABELS = {
    "houses_1": "1 house",
    "houses_2": "2 houses",
    "houses_3": "3 houses",
    "houses_4": "4 houses",
    "hotel": "hotel",
}
"""How the stages of development read on an axis."""


GROUP_LINES = {
    "brown": "#925643",
    "light blue": "#aae0fa",
    "purple": "#d8348d",
    "orange": "#f7941d",
    "red": "#ed1817",
    "yellow": "#fef200",
    "green": "#18b362",
    "dark blue": "#0174c1",
    "railroad": "#000000",
    "utility": "#9e9e9e",
}
"""The groups' colours as lines: the board's (:data:`~monopoly_lesson.game.lots.GROUPS`),
brown, purple, red, green and dark blue a shade off, so that every two street groups stay
told apart under each of the three colour-vision deficiencies (tests/test_figure_colours.py)."""
GROUP_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "triangle-down", "cross", "x")
GROUP_SYMBOLS += ("star",)
"""Marker shapes, one per group in order: lines differ by more than colour."""
LINE_DASHES = ("solid", "dash", "dot", "dashdot")
"""Line styles, in turn: with :data:`GROUP_SYMBOLS`, no two lines look alike but for colour."""


def payback_chart(payback: pd.DataFrame, title: str = "Payback of buildings") -> go.Figure:
    """Opponent turns for each group's buildings to pay for themselves, stage by stage, on a
    log scale labelled 1, 2, 5, 10, 20, 50... in plain numbers; each group's line in its
    colour, shape and dash."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        _check_payback(payback)
        check_title(title)
    fig = go.Figure()
    stages = [STAGE_LABELS.get(str(stage), str(stage)) for stage in payback.columns]
    for k, (group, row) in enumerate(payback.iterrows()):
        fig.add_trace(
            go.Scatter(
                x=stages,
                y=row.to_numpy(),
                mode="lines+markers",
                name=str(group),
                line=dict(color=GROUP_LINES[group], dash=LINE_DASHES[k % len(LINE_DASHES)]),
                marker=dict(
                    symbol=GROUP_SYMBOLS[k % len(GROUP_SYMBOLS)],
                    size=9,
                    line=dict(color="#333333", width=1),
                ),
            )
        )
    ticks = log_ticks(payback.to_numpy())
    fig.update_layout(title=title, yaxis_title="opponent turns", **_STYLE)
    fig.update_yaxes(type="log", tickvals=ticks, ticktext=[f"{t:,g}" for t in ticks])
    alt = (
        f"{titled('Line chart on a log scale', title)}: for each street group, the opponent "
        f"turns its buildings take to pay for themselves, stage by stage ({listing(stages)})."
    )
    each = "; ".join(
        f"{plain(group)} " + ", ".join(number(v) for v in row.to_numpy(dtype=float))
        for group, row in payback.iterrows()
    )
    description = f"Opponent turns at {listing(stages)}, group by group: {each}."
    return with_words(fig, alt, description)


def _check_payback(payback: object) -> None:
    """:func:`payback_chart`'s table: a row per street group, numbers by stage."""
    wanted = "payback_turns()'s table (a DataFrame with a row per street group)"
    if not isinstance(payback, pd.DataFrame):
        raise TypeError(f"payback must be {wanted}, got {type(payback).__name__}.")
    strange = [str(group) for group in payback.index if group not in GROUPS]
    if strange:
        raise ValueError(
            f"payback must be {wanted}; {strange[0]!r} is no group (the groups "
            f"are {', '.join(GROUPS)})."
        )
    _check_numbers(payback, "payback")


def log_ticks(values: np.ndarray) -> list[float]:
    """Ticks 1, 2, 5 times a power of ten, from just below the smallest positive value to
    just above the largest: few enough to read on a log axis."""
    shown = values[np.isfinite(values) & (values > 0)]
    if shown.size == 0:
        return []
    low, high = int(np.floor(np.log10(shown.min()))), int(np.ceil(np.log10(shown.max())))
    ticks = [m * 10.0**e for e in range(low, high + 1) for m in (1, 2, 5)]
    below = max([t for t in ticks if t <= shown.min()], default=ticks[0])
    above = min([t for t in ticks if t >= shown.max()], default=ticks[-1])
    return [t for t in ticks if below <= t <= above]


def fitness_fan(history: pd.DataFrame, title: str = "Fitness by generation") -> go.Figure:
    """The fitness's range (min to max, dotted), middle half (q1 to q3) and median per
    generation."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        check_table(
            history,
            "history",
            "an evolve run's history",
            ("generation", "min", "q1", "median", "q3", "max"),
            ("history",),
        )
        check_title(title)
    x = history["generation"]
    fig = go.Figure()
    for low, high, shade, pattern, name in (
        ("min", "max", 0.15, ".", "min to max"),
        ("q1", "q3", 0.35, "", "middle half"),
    ):
        fig.add_trace(
            go.Scatter(x=x, y=history[high], mode="lines", line=dict(width=0), showlegend=False)
        )
        fig.add_trace(
            go.Scatter(
                x=x,
                y=history[low],
                fill="tonexty",
                mode="lines",
                line=dict(width=0),
                fillcolor=f"rgba(31,78,121,{shade})",
                fillpattern=dict(shape=pattern, fgcolor="rgba(31,78,121,0.5)", solidity=0.1),
                name=name,
            )
        )
    fig.add_trace(
        go.Scatter(
            x=x, y=history["median"], mode="lines", line=dict(color="#1f4e79"), name="median"
        )
    )
    fig.update_layout(title=title, xaxis_title="generation", yaxis_title="fitness", **_STYLE)
    alt = (
        f"{titled('Fan chart', title)}: the players' fitness in each of {len(history)} "
        "generations: its range, its middle half and its median."
    )
    rows = history.iloc[spread(len(history))]
    each = "; ".join(
        f"generation {int(r.generation)}: median {number(r['median'])}, middle half "
        f"{number(r.q1)} to {number(r.q3)}, range {number(r['min'])} to {number(r['max'])}"
        for _, r in rows.iterrows()
    )
    return with_words(fig, alt, f"Fitness by generation, {each}." if each else "No generations.")


def fitness_histograms(
    samples: Mapping[str, np.ndarray], title: str = "Fitness of a generation", bins: int = 30
) -> go.Figure:
    """Populations' fitness side by side: one histogram per name (about ``bins`` bars, each
    as wide as a whole number of the fitness's steps, so that no bar catches more of the
    possible values than its neighbours), titled with its mean and its skewness (pandas'
    ``Series.skew``: 0 when symmetric, positive with a long right tail)."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        _check_samples(samples)
        check_title(title)
        check_whole(bins, "bins", 1)
    from plotly.subplots import make_subplots

    titles = [
        f"{name}<br>mean {np.mean(v):.1f}<br>skew {pd.Series(v).skew():+.2f}"
        for name, v in samples.items()
    ]
    fig = make_subplots(rows=1, cols=len(samples), subplot_titles=titles)
    for column, values in enumerate(samples.values(), start=1):
        values = np.asarray(values, dtype=float)
        width = _bar_width(values, bins)
        edges = np.arange(values.min() - width / 2, values.max() + width, width)
        counts, _ = np.histogram(values, bins=edges)
        fig.add_trace(
            go.Bar(
                x=((edges[:-1] + edges[1:]) / 2).round(2),
                y=counts,
                width=round(width, 2),
                marker_color="#1f4e79",
                showlegend=False,
            ),
            row=1,
            col=column,
        )
        fig.update_xaxes(
            title_text="fitness", nticks=4, tickangle=0, tickformat="~s", row=1, col=column
        )
    fig.update_yaxes(title_text="players", row=1, col=1)
    fig.update_annotations(font_size=12)
    fig.update_layout(title=title, bargap=0, margin=dict(t=130), **{**_STYLE, "height": 400})
    return with_words(fig, *_histograms_words(samples, fig, title))


def _histograms_words(
    samples: Mapping[str, np.ndarray], fig: go.Figure, title: str | None
) -> tuple[str, str]:
    """Histograms side by side in words: each population's spread and tallest bar."""
    names = [plain(name) for name in samples]
    alt = f"{titled('Histograms side by side', title)}: the fitness of {listing(names)}."
    each = []
    for name, values, bars in zip(names, samples.values(), fig.data, strict=True):
        values = np.asarray(values, dtype=float)
        tallest = int(np.argmax(bars.y))
        each.append(
            f"{name}: {len(values):,} players, fitness {number(values.min())} to "
            f"{number(values.max())}, mean {np.mean(values):.1f}, skew "
            f"{pd.Series(values).skew():+.2f}; the tallest bar, {int(bars.y[tallest]):,} "
            f"players, at {number(bars.x[tallest])}"
        )
    return alt, f"{'. '.join(each)}."


def _check_samples(samples: object) -> None:
    """:func:`fitness_histograms`' populations: names to lists of numbers, at least one each."""
    wanted = (
        "samples must be a dict of populations, a name for each list of fitness values, "
        "e.g. {'num_wins': fitness}"
    )
    if not isinstance(samples, Mapping) or not samples:
        got = "an empty dict" if isinstance(samples, Mapping) else type(samples).__name__
        raise TypeError(f"{wanted}, got {got}.")
    for name, values in samples.items():
        array = np.asarray(values) if is_list(values) else None
        if (
            array is None
            or array.ndim != 1
            or not array.size
            or not (np.issubdtype(array.dtype, np.number) and np.isfinite(array).all())
        ):
            raise ValueError(
                f"{wanted}; samples[{name!r}] is not a list of numbers (at least "
                f"one): {_short(values)}."
            )


def _short(value: object) -> str:
    """``value`` as a reader sees it, cut to a line."""
    text = repr(value) if not isinstance(value, np.ndarray) else f"array of shape {value.shape}"
    return text if len(text) <= 60 else text[:57] + "..."


def _bar_width(values: np.ndarray, bins: int) -> float:
    """A bar width for about ``bins`` bars: a whole number of the values' step (the least
    gap between two of them), for fitness that moves in steps (NUM_WINS in 3s)."""
    gaps = np.diff(np.unique(values))
    spread = float(np.ptp(values)) or 1.0
    step = float(gaps.min()) if gaps.size else 1.0
    return step * max(1.0, np.ceil(spread / bins / step))


def diversity_history(
    history: pd.DataFrame, title: str = "Genetic diversity and the share of luck"
) -> go.Figure:
    """A run's genetic diversity by generation (the genes' spread across the population) and,
    on the right axis, the share of the fitness variance that luck alone explains; each
    rounded to the 3 decimals a reader can see. Both axes start at 0 and have round ticks
    on the same grid lines (:func:`paired_ticks`)."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        check_table(
            history,
            "history",
            "an evolve run's history",
            ("generation", "diversity", "luck_share"),
            ("history",),
        )
        check_title(title)
    x = history["generation"]
    diversity, luck = history["diversity"].round(3), history["luck_share"].round(3)
    intervals, left, right = paired_ticks(_top(diversity), _top(luck))
    fig = go.Figure(
        [
            go.Scatter(x=x, y=diversity, line=dict(color="#1f4e79"), name="diversity (left)"),
            go.Scatter(
                x=x,
                y=luck,
                line=dict(color="#c0504d", dash="dot"),
                name="luck's share of the spread (right)",
                yaxis="y2",
            ),
        ]
    )
    fig.update_layout(
        title=title,
        xaxis_title="generation",
        yaxis_title="diversity (gene sd)",
        yaxis=_ticked_axis(intervals, left),
        yaxis2=dict(
            title="luck's share",
            overlaying="y",
            side="right",
            showgrid=False,
            **_ticked_axis(intervals, right),
        ),
        legend=dict(x=0.45, y=0.95),
        **_STYLE,
    )
    alt = (
        f"{titled('Line chart with two axes', title)}: genetic diversity (left axis) and "
        f"luck's share of the fitness's spread (right axis), over {len(history)} generations."
    )
    each = "; ".join(
        f"generation {int(x.iloc[i])}: diversity {diversity.iloc[i]:.3f}, luck's share "
        + ("none" if pd.isna(luck.iloc[i]) else f"{luck.iloc[i]:.3f}")
        for i in spread(len(history))
    )
    return with_words(fig, alt, f"By generation, {each}." if each else "No generations.")


_ROUND_STEPS = (1.0, 2.0, 2.5, 5.0)  # round tick steps: these times a power of ten


def round_step(least: float) -> float:
    """The smallest round step (1, 2, 2.5 or 5 times a power of ten) of at least ``least``
    (a positive number).

    >>> round_step(0.048), round_step(0.198), round_step(3)
    (0.05, 0.2, 5.0)
    """
    if not (np.isfinite(least) and least > 0):
        raise ValueError(f"least must be a positive number, got {least!r}.")
    power = 10.0 ** np.floor(np.log10(least))
    steps = (round(float(m * power), 12) for m in (*_ROUND_STEPS, 10.0))
    return next(step for step in steps if step >= least * (1 - 1e-9))  # 0.6 / 3 is 0.2


def paired_ticks(
    left_top: float, right_top: float, intervals: tuple[int, ...] = (4, 5, 6)
) -> tuple[int, float, float]:
    """Ticks for two y axes from 0 that share their grid lines: ``(n, left_step,
    right_step)``, each axis ``n`` round steps high and reaching its top value; of the
    ``intervals`` allowed, the ``n`` that leaves the least empty space above the data."""
    for top, name in ((left_top, "left_top"), (right_top, "right_top")):
        if not (np.isfinite(top) and top > 0):
            raise ValueError(f"{name} must be a positive number, got {top!r}.")

    def empty(n: int) -> float:
        return sum(1 - top / (n * round_step(top / n)) for top in (left_top, right_top))

    n = min(intervals, key=empty)
    return n, round_step(left_top / n), round_step(right_top / n)


def _top(values: pd.Series) -> float:
    """The largest value shown (1 when there is none above 0, as a share's axis)."""
    top = values.max()
    return float(top) if np.isfinite(top) and top > 0 else 1.0


def _ticked_axis(intervals: int, step: float) -> dict:
    """A y axis from 0, ``intervals`` ticks of ``step`` high."""
    return dict(range=[0, round(intervals * step, 12)], tick0=0, dtick=step)


def win_rate_history(
    benchmark: pd.DataFrame, title: str = "The best genome's win rate"
) -> go.Figure:
    """The benchmark win rate by generation with its 95% interval, and an equal share (25%)."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        check_table(
            benchmark,
            "benchmark",
            "an evolve run's benchmark",
            ("generation", "win_rate", "ci_low", "ci_high"),
            ("benchmark_each", "benchmark"),
        )
        check_title(title)
    x = benchmark["generation"]
    fig = go.Figure(
        [
            go.Scatter(
                x=x,
                y=100 * benchmark["ci_high"],
                mode="lines",
                line=dict(width=0),
                showlegend=False,
            ),
            go.Scatter(
                x=x,
                y=100 * benchmark["ci_low"],
                fill="tonexty",
                mode="lines",
                line=dict(width=0),
                fillcolor="rgba(31,78,121,0.25)",
                name="95% interval",
            ),
            go.Scatter(
                x=x, y=100 * benchmark["win_rate"], line=dict(color="#1f4e79"), name="win rate"
            ),
        ]
    )
    fig.add_hline(
        y=25, line_dash="dot", line_color="#444444", annotation_text="an equal player: 25%"
    )
    fig.update_layout(title=title, xaxis_title="generation", yaxis_title="games won (%)", **_STYLE)
    return _win_rate_words(fig, benchmark, title)


def _win_rate_words(fig: go.Figure, benchmark: pd.DataFrame, title: str) -> go.Figure:
    """:func:`win_rate_history`'s words: each sampled generation's rate and interval, and
    the highest."""
    alt = (
        f"{titled('Line chart', title)}: the share of games won, in percent, in each of "
        f"{len(benchmark)} generations, with its 95% interval, beside a line at an equal "
        "player's 25%."
    )
    rows = benchmark.iloc[spread(len(benchmark))]
    each = "; ".join(
        f"generation {int(r.generation)}: {100 * r.win_rate:.1f}% ({100 * r.ci_low:.1f}% to "
        f"{100 * r.ci_high:.1f}%)"
        for _, r in rows.iterrows()
    )
    best = benchmark.loc[benchmark["win_rate"].idxmax()] if len(benchmark) else None
    top = (
        f" The highest, {100 * best.win_rate:.1f}%, at generation {int(best.generation)}."
        if best is not None
        else ""
    )
    return with_words(fig, alt, f"Games won, with the interval in brackets: {each}.{top}")


def genes_by_group(buy: np.ndarray) -> pd.DataFrame:
    """Buy genes (4, 40) averaged over each group's lots: groups x ownership states."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        _check_buy(buy)
    table = pd.DataFrame(
        np.asarray(buy)[:, lots.index - 1].T, index=lots.index, columns=list(OWNERSHIP_STATES)
    )
    return table.groupby(lots["group"], sort=False).mean()


def _check_buy(buy: object) -> None:
    """:func:`genes_by_group`'s genes: numbers, 4 ownership states by 40 spaces."""
    wanted = "buy must be buy genes, an array of numbers of shape (4, 40)"
    if isinstance(getattr(buy, "buy_genes", None), np.ndarray):
        raise TypeError(f"{wanted}, got {type(buy).__name__}: pass its .buy_genes.")
    array = np.asarray(buy) if is_list(buy) else None
    if array is None or not np.issubdtype(array.dtype, np.number):
        raise TypeError(f"{wanted}, got {type(buy).__name__}.")
    if array.shape != (4, 40):
        raise ValueError(f"{wanted}, got shape {array.shape}.")
