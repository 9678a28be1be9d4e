"""plotly figures: a bar chart of relative frequencies and a board map.

Both take counts in the one shape every engine returns (a Series indexed 1..40).
:func:`setup_figures` chooses how notebooks show them: interactive in JupyterLab, plus a
static PNG for print only where notebooks are executed to be stored (:data:`PNG_ENV`).
Every figure carries its words, written from its data (:mod:`monopoly_lesson.figure_words`),
and is shown with them under it.

The whole game's figures (:mod:`monopoly_lesson.game.plots`) are re-exported here, so
every figure a chapter draws is imported from this one module.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import numbers
import os
import shutil
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.colors import sample_colorscale
from plotly.io.base_renderers import ExternalRenderer, MimetypeRenderer
from plotly.offline import get_plotlyjs_version

from .checks import at_the_call, check_whole, is_list
from .figure_words import figure_words, listing, number, plain, sentence, titled, with_words
from .game.lots import GROUPS, lots
from .game.plots import (
    check_title,
    diversity_history,
    fitness_fan,
    fitness_histograms,
    genes_by_group,
    heat_map,
    payback_chart,
    rounds_histogram,
    win_rate_chart,
    win_rate_history,
)
from .starter import NUM_SPACES, gameboard

__all__ = [
    "COLORSCALE",
    "PNG_ENV",
    "PNG_WIDTH",
    "PRINT_WIDTH",
    "SHORT_TITLES",
    "SIGNIFICANT_DIGITS",
    "STREET_GROUPS",
    "WORDS_CLASS",
    "LessonRenderer",
    "WordsRenderer",
    "bar_chart",
    "board_map",
    "board_position",
    "diversity_history",
    "error_chart",
    "figure_words",
    "fitness_fan",
    "fitness_histograms",
    "genes_by_group",
    "heat_map",
    "payback_chart",
    "png_requested",
    "print_pngs",
    "rounded",
    "rounds_histogram",
    "setup_figures",
    "win_rate_chart",
    "win_rate_history",
    "words_bundle",
]

COLORSCALE = "Cividis"
"""A colour-blind-safe sequential scale (blue to yellow) for frequencies."""

SHORT_TITLES = [
    "Go",
    "Mediterr.",
    "Chest",
    "Baltic",
    "Income<br>Tax",
    "Reading<br>RR",
    "Oriental",
    "Chance",
    "Vermont",
    "Connect.",
    "Jail",
    "St.<br>Charles",
    "Electric",
    "States",
    "Virginia",
    "Penn.<br>RR",
    "St.<br>James",
    "Chest",
    "Tenn.",
    "New<br>York",
    "Free<br>Parking",
    "Kentucky",
    "Chance",
    "Indiana",
    "Illinois",
    "B&O<br>RR",
    "Atlantic",
    "Ventnor",
    "Water<br>Works",
    "Marvin<br>Gardens",
    "Go to<br>Jail",
    "Pacific",
    "N.<br>Carolina",
    "Chest",
    "Penn.<br>Ave",
    "Short<br>Line",
    "Chance",
    "Park<br>Place",
    "Luxury<br>Tax",
    "Boardwalk",
]
"""Short names that fit on the board map's squares (full names appear on hover)."""

STREET_GROUPS = {
    group: (colour, tuple(int(space) for space in lots.index[lots["group"] == group]))
    for group, (colour, house_cost) in GROUPS.items()
    if house_cost
}
"""The street colour groups: ``group -> (band colour, spaces)``, from the lot table."""

_TITLES = gameboard["title"].tolist()
_UNIFORM = 100 / NUM_SPACES  # percent


def _check_counts(counts: object, what: str = "counts") -> None:
    """Refuse what is not counts by space: a Series of numbers indexed 1..40 (for an object
    that holds them, a simulation or a tracker, say to pass its ``.counts``)."""
    wanted = (
        f"{what} must be a pandas Series of numbers indexed by the spaces 1..40 (a "
        "simulation's .counts)"
    )
    if not isinstance(counts, pd.Series):
        held = isinstance(getattr(counts, "counts", None), pd.Series)
        hint = ": pass its .counts" if held else ""
        raise TypeError(f"{wanted}, got {type(counts).__name__}{hint}.")
    if list(counts.index) != list(range(1, NUM_SPACES + 1)):
        index = counts.index
        got = f"{index[0]}..{index[-1]}" if len(index) else "nothing"
        raise ValueError(f"{wanted}, got one indexed {got} ({len(index)} entries).")
    if not pd.api.types.is_numeric_dtype(counts):
        raise ValueError(f"{wanted}, got one of {counts.dtype} values.")


def _percentages(counts: pd.Series) -> pd.Series:
    total = counts.sum()
    return 100 * counts / total if total else counts * 0.0


def bar_chart(
    counts: pd.Series,
    compare: pd.Series | None = None,
    *,
    labels: Sequence[str] = ("this simulation", "before"),
    title: str = "How often each space is landed on",
) -> go.Figure:
    """Bars of relative frequency (percent) in board order, with the uniform 2.5% line.

    ``compare`` adds a second series (for example the distribution before a new rule), in
    hatched grey bars; ``labels`` names the two series in the legend.
    """
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        _check_counts(counts)
        if compare is not None:
            _check_counts(compare, "compare")
        if not is_list(labels) or len(labels) != 2 or not all(isinstance(n, str) for n in labels):
            raise TypeError(
                f"labels must be two names, this simulation's and compare's, e.g. "
                f"('after', 'before'), got {labels!r}."
            )
        check_title(title)
    pct = _percentages(counts)
    hover = "%{customdata}<br>space %{x}: %{y:.2f}%<extra>%{fullData.name}</extra>"
    fig = go.Figure()
    if compare is not None:
        fig.add_bar(
            x=pct.index.tolist(),
            y=_percentages(compare).round(4).tolist(),
            name=labels[1],
            marker=dict(color="#bbbbbb", pattern_shape="/", pattern_fgcolor="#595959"),
            customdata=_TITLES,
            hovertemplate=hover,
        )
    fig.add_bar(
        x=pct.index.tolist(),
        y=pct.round(4).tolist(),
        name=labels[0],
        marker_color="#1f4e79",
        customdata=_TITLES,
        hovertemplate=hover,
    )
    fig.add_hline(
        y=_UNIFORM,
        line_dash="dash",
        line_color="#c0392b",
        annotation_text="uniform 2.5%",
        annotation_position="top right",
    )
    _bar_layout(fig, title, legend=compare is not None)
    before = None if compare is None else _percentages(compare)
    return with_words(fig, *_bar_words(pct, before, labels, title))


def _space(space: int) -> str:
    return f"{_TITLES[space - 1]} ({space})"


def _extremes(pct: pd.Series, decimals: int, count: int = 3) -> str:
    """The spaces landed on most and least, with their percentages."""
    ordered = pct.sort_values(ascending=False, kind="stable")

    def named(spaces: pd.Series) -> str:
        return listing(f"{_space(int(s))} {p:.{decimals}f}%" for s, p in spaces.items())

    return f"most landed on: {named(ordered[:count])}; least: {named(ordered[::-1][:count])}"


def _bar_words(
    pct: pd.Series, before: pd.Series | None, labels: Sequence[str], title: str | None
) -> tuple[str, str]:
    """A bar chart's words: what it shows, then every bar's percentage."""
    beside = f", beside {plain(labels[1])}" if before is not None else ""
    alt = (
        f"{titled('Bar chart', title)}: how often each of the 40 spaces is landed on, in "
        f"percent ({plain(labels[0])}{beside}), with a line at the uniform 2.5%."
    )
    above = int((pct.round(2) > _UNIFORM).sum())
    parts = [
        f"{sentence(plain(labels[0]))}: {_extremes(pct, 2)}; {above} of 40 spaces "
        "are above the uniform 2.5%."
    ]
    if before is not None:
        parts.append(f"{sentence(plain(labels[1]))}: {_extremes(before, 2)}.")
    each = [
        f"{_space(space)} {p:.2f}%" + ("" if before is None else f" ({before[space]:.2f}%)")
        for space, p in pct.items()
    ]
    then = "" if before is None else f", {plain(labels[1])} in brackets"
    parts.append(f"Every space in board order{then}: {'; '.join(each)}.")
    return alt, " ".join(parts)


def _bar_layout(fig: go.Figure, title: str, *, legend: bool) -> None:
    """The bar chart's axes (every space numbered), title and legend (two series only)."""
    fig.update_layout(
        title=title,
        barmode="group",
        bargap=0.15,
        height=420,
        template="plotly_white",
        xaxis=dict(
            title="space (1 = Go, 11 = Jail, 31 = Go to Jail, 40 = Boardwalk)",
            tickmode="linear",
            dtick=1,
            tickangle=0,
            tickfont=dict(size=9),
            range=[0.4, NUM_SPACES + 0.6],
        ),
        yaxis=dict(title="relative frequency (%)", ticksuffix="%"),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0),
        showlegend=legend,
        margin=dict(l=60, r=20, t=70, b=60),
    )


def error_chart(
    games: Sequence[int],
    errors: Sequence[float],
    *,
    title: str = "Monte Carlo error shrinks like 1 / sqrt(games)",
    error_label: str = "error (percentage points)",
) -> go.Figure:
    """Error against the number of games on log axes, with a 1/sqrt(games) reference line.

    ``errors`` are in percentage points, e.g. the root-mean-square gap to the exact answer.
    """
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        for values, what in ((games, "games"), (errors, "errors")):
            _check_positive(values, what)
        if len(games) != len(errors) or len(games) < 2:
            raise ValueError(
                f"games and errors must be two lists of the same length (2 or "
                f"more), got {len(games)} and {len(errors)}."
            )
        check_title(title)
        check_title(error_label, "error_label")
    first_games, first_error = games[0], errors[0]
    reference = [first_error * (first_games / g) ** 0.5 for g in games]
    fig = go.Figure()
    fig.add_scatter(
        x=list(games),
        y=list(errors),
        mode="lines+markers",
        name="simulation",
        marker=dict(size=9, color="#1f4e79"),
    )
    fig.add_scatter(
        x=list(games),
        y=reference,
        mode="lines",
        name="1 / sqrt(games)",
        line=dict(dash="dash", color="#c0392b"),
    )
    fig.update_layout(
        title=title,
        template="plotly_white",
        height=420,
        xaxis=dict(title="games simulated", type="log"),
        yaxis=dict(title=error_label, type="log"),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0),
    )
    label = plain(error_label)
    alt = (
        f"{titled('Line chart on log axes', title)}: the simulation's {label} against the "
        "number of games simulated, beside a line falling like 1 / sqrt(games)."
    )
    points = listing(
        f"{number(g)} games {number(e, 2)}" for g, e in zip(games, errors, strict=True)
    )
    description = (
        f"The simulation's {label}: {points}. The 1 / sqrt(games) line falls from "
        f"{number(reference[0], 2)} to {number(reference[-1], 2)}."
    )
    return with_words(fig, alt, description)


def _check_positive(values: object, what: str) -> None:
    """Refuse what is not a list of positive numbers (drawn on a log axis)."""
    wanted = f"{what} must be a list of positive numbers (a log axis)"
    if not is_list(values):
        raise TypeError(f"{wanted}, got {values!r}.")
    for value in values:  # type: ignore[attr-defined]
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{wanted}, got {value!r} in it.")
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{wanted}, got {value!r} in it.")


def board_position(space: int) -> tuple[int, int]:
    """Grid cell ``(column, row)`` of a space on an 11 x 11 board, Go at bottom right.

    Row 0 is the bottom edge; play runs right to left along the bottom, then up the left.
    """
    k = space - 1
    if k <= 10:
        return 10 - k, 0
    if k <= 20:
        return 0, k - 10
    if k <= 30:
        return k - 20, 10
    return 10, 40 - k


def _check_tokens(tokens: object) -> None:
    """``tokens`` is None or a dict of players' names and the spaces 1..40 they are on."""
    if tokens is not None and not isinstance(tokens, Mapping):
        raise TypeError(
            f"tokens must be a dict of players' names and the spaces they are "
            f"on, e.g. {{'P1': 11}}, got {tokens!r}."
        )
    for name, space in (tokens or {}).items():
        check_whole(space, f"tokens[{name!r}]", 1, NUM_SPACES)


def board_map(
    counts: pd.Series,
    *,
    tokens: Mapping[str, int] | None = None,
    title: str = "The board, coloured by how often each space is landed on",
) -> go.Figure:
    """The 40 squares around the board, coloured by relative frequency (``COLORSCALE``).

    ``tokens`` maps player names to the spaces their tokens are on, to draw them.
    """
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        _check_counts(counts)
        _check_tokens(tokens)
        check_title(title)
    pct = _percentages(counts)
    low, high, note = _colour_range(pct)
    scaled = [min(max((p - low) / (high - low), 0.0), 1.0) if high > low else 0.5 for p in pct]
    colours = sample_colorscale(COLORSCALE, scaled)
    fig = go.Figure()
    _draw_squares(fig, pct, colours, scaled)
    centres = [board_position(s) for s in range(1, NUM_SPACES + 1)]
    fig.add_scatter(
        x=[c + 0.5 for c, _ in centres],
        y=[r + 0.5 for _, r in centres],
        mode="markers",
        marker=dict(
            size=1,
            color=pct.round(4).tolist(),
            colorscale=COLORSCALE,
            cmin=low,
            cmax=high,
            colorbar=dict(title="landed<br>on (%)", ticksuffix="%"),
        ),
        customdata=list(zip(range(1, NUM_SPACES + 1), _TITLES, strict=True)),
        hovertemplate="%{customdata[1]} (%{customdata[0]}): %{marker.color:.2f}%<extra></extra>",
        showlegend=False,
    )
    _draw_tokens(fig, tokens or {})
    fig.add_annotation(
        x=5.5,
        y=5.5,
        showarrow=False,
        font=dict(size=13),
        text=f"colours from {low:.1f}% to {high:.1f}%{note}<br>uniform would be 2.5% everywhere",
    )
    axis = dict(range=[0, 11], visible=False, fixedrange=True)
    fig.update_layout(
        title=title,
        width=700,
        height=660,
        template="plotly_white",
        xaxis=axis,
        yaxis=dict(axis, scaleanchor="x"),
        showlegend=bool(tokens),
        legend=dict(orientation="h", y=-0.02),
        margin=dict(l=10, r=10, t=60, b=10),
    )
    return with_words(fig, *_board_words(pct, low, high, note, tokens or {}, title))


def _board_words(
    pct: pd.Series,
    low: float,
    high: float,
    note: str,
    tokens: Mapping[str, int],
    title: str | None,
) -> tuple[str, str]:
    """A board map's words: what it shows, then every square's percentage."""
    alt = (
        f"{titled('Map of the board', title)}: its 40 squares coloured by how often each is "
        f"landed on, from {low:.1f}% (dark blue) to {high:.1f}% (yellow)."
    )
    parts = [f"{sentence(_extremes(pct, 1))}."]
    if note:
        parts.append(f"{plain(note).strip('()')}: it has the top colour.")
    if tokens:
        parts.append(f"Tokens: {listing(f'{plain(n)} on {_space(s)}' for n, s in tokens.items())}.")
    each = "; ".join(f"{_space(space)} {p:.1f}%" for space, p in pct.items())
    parts.append(f"Every square, around the board from Go: {each}.")
    return alt, " ".join(parts)


def _draw_squares(fig: go.Figure, pct: pd.Series, colours: list[str], scaled: list[float]) -> None:
    """Each space's square in its colour, with its short name and percentage."""
    for space, colour, share in zip(range(1, NUM_SPACES + 1), colours, scaled, strict=True):
        col, row = board_position(space)
        fig.add_shape(
            type="rect",
            x0=col,
            x1=col + 1,
            y0=row,
            y1=row + 1,
            fillcolor=colour,
            line=dict(color="white", width=2),
            layer="below",
        )
        text_colour = "black" if share > 0.55 else "white"
        fig.add_annotation(
            x=col + 0.5,
            y=row + 0.5,
            showarrow=False,
            font=dict(size=9, color=text_colour),
            text=f"{SHORT_TITLES[space - 1]}<br>{pct[space]:.1f}%",
        )


def _draw_tokens(fig: go.Figure, tokens: Mapping[str, int]) -> None:
    """Each player's token on its space, side by side when two share one, each in a shape
    of its own (:data:`TOKEN_SYMBOLS`)."""
    for i, (name, space) in enumerate(tokens.items()):
        col, row = board_position(space)
        fig.add_scatter(
            x=[col + 0.25 + 0.5 * (i % 2)],
            y=[row + 0.8],
            mode="markers",
            name=name,
            marker=dict(
                size=14,
                symbol=TOKEN_SYMBOLS[i % len(TOKEN_SYMBOLS)],
                color=TOKEN_MARKS[i % len(TOKEN_MARKS)],
                line=dict(color="black", width=1),
            ),
            hovertemplate=f"{name} on {_TITLES[space - 1]} ({space})<extra></extra>",
        )


TOKEN_MARKS = ("#d62728", "#009E73")
"""The board map's token colours, in turn (the board view's first two): told apart under
each of the three colour-vision deficiencies (tests/test_figure_colours.py)."""
TOKEN_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "star", "hexagon")
"""The board map's token shapes, one per player in order: tokens differ by more than colour."""


def _colour_range(pct: pd.Series) -> tuple[float, float, str]:
    """Colour limits; a space far above all others (Jail) is shown at the top colour, said."""
    ordered = pct.sort_values(ascending=False)
    landed = pct[pct > 0]
    low = float(landed.min()) if len(landed) else 0.0
    top, second = float(ordered.iloc[0]), float(ordered.iloc[1])
    if second > 0 and top > 2 * second:
        title = _TITLES[int(ordered.index[0]) - 1]
        return low, second, f"<br>({title}, {top:.1f}%, is above the scale)"
    return low, top, ""


def _chrome_available() -> bool:
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
    return any(shutil.which(name) for name in names)


_FIGURE_HTML = """<div id="{id}" class="plotly-graph-div monopoly-figure"{named} \
style="height:{height}px; width:100%;"></div>
<script type="text/javascript">
(function () {{
  var id = "{id}", figure = {figure};
  function draw(Plotly) {{ Plotly.newPlot(id, figure.data, figure.layout, {{responsive: true}}); }}
  if (window.Plotly) {{ draw(window.Plotly); return; }}
  var url = window.MONOPOLY_PLOTLY_URL || "{cdn}";
  if (typeof window.define === "function" && window.define.amd && window.require) {{
    window.require.config({{paths: {{plotly: url.replace(/\\.js$/, "")}}}});
    window.require(["plotly"], draw);
    return;
  }}
  var script = document.querySelector("script[data-monopoly-plotly]");
  if (!script) {{
    script = document.createElement("script");
    script.src = url;
    script.setAttribute("data-monopoly-plotly", "");
    document.head.appendChild(script);
  }}
  script.addEventListener("load", function () {{ draw(window.Plotly); }});
}})();
</script>"""


SIGNIFICANT_DIGITS = 6
"""Digits kept of every number a stored figure holds: more than a reader sees, fewer than
the last bits that differ between processors (OpenBLAS picks its kernel by processor)."""


def rounded(figure: object) -> object:
    """``figure`` (plotly's JSON) with every number rounded to :data:`SIGNIFICANT_DIGITS`
    and every typed array (``{"dtype", "bdata"}``) written out as a plain list.

    Stored notebook outputs are then the same bytes on every processor, and smaller.
    """
    if isinstance(figure, dict):
        if isinstance(figure.get("bdata"), str) and isinstance(figure.get("dtype"), str):
            return rounded(_typed_array(figure))
        return {key: rounded(value) for key, value in figure.items()}
    if isinstance(figure, list):
        return [rounded(value) for value in figure]
    if isinstance(figure, float) and math.isfinite(figure):
        return float(f"{figure:.{SIGNIFICANT_DIGITS}g}")
    return figure


def _typed_array(spec: dict) -> list:
    """A plotly typed array (base64 ``bdata`` of ``dtype``, maybe ``shape``) as nested lists."""
    values = np.frombuffer(base64.b64decode(spec["bdata"]), dtype=np.dtype(spec["dtype"]))
    shape = spec.get("shape")
    if isinstance(shape, str):  # plotly writes "rows, columns"
        shape = [int(size) for size in shape.split(",")]
    return (values.reshape(shape) if shape else values).tolist()


PNG_WIDTH = 700
"""The widest a figure's PNG is, in pixels. JupyterLab's plotly renderer shows a stored PNG
at its pixel size in place of the figure until the mouse enters it (then it draws the
interactive figure), and scales it to nothing: a wider PNG is cut off at the output area's
edge (about 850 px in a window 1280 px wide with the file browser open)."""


def _png(figure: Mapping, width: int = PNG_WIDTH) -> bytes:
    """The figure's PNG, laid out at its layout's width (else plotly's default, 700 px) and
    scaled down to ``width`` pixels if it is wider (up to it, if ``width`` is larger)."""
    laid_out = figure.get("layout", {}).get("width") or pio.defaults.default_width
    scale = width / laid_out if width > PNG_WIDTH else min(1.0, width / laid_out)
    return pio.to_image(figure, format="png", scale=scale)


PRINT_WIDTH = 2 * PNG_WIDTH
"""A figure's width in pixels on paper (:func:`print_pngs`): about 200 pixels an inch
across a page's text."""


def print_pngs() -> Callable[[Mapping], bytes | None] | None:
    """For print (the handouts): a function that makes a stored figure's PNG
    :data:`PRINT_WIDTH` pixels wide, twice the stored one's (None, warned, if the exporter
    fails on it); None where no Chromium is on PATH or (warned) it does not start, so that
    the stored PNGs are printed instead."""
    if not (_chrome_available() and _start_exporter()):
        return None
    return lambda figure: _png_or_none(lambda: _png(figure, PRINT_WIDTH))


class LessonRenderer(MimetypeRenderer):
    """Each figure as plotly JSON (JupyterLab), HTML (books, web pages) and maybe PNG (print).

    The HTML draws with plotly.js when the page has it, and otherwise loads it (from
    ``window.MONOPOLY_PLOTLY_URL`` if set, else the CDN). The PNG is at most
    :data:`PNG_WIDTH` pixels wide, so a reopened notebook shows it whole. Element ids are
    derived from the figure, so the stored outputs are the same on every run.
    """

    def __init__(self, png: bool = False) -> None:
        self.png = png

    def to_mimebundle(self, fig_dict: dict) -> dict:
        """The figure's outputs, keyed by MIME type."""
        figure = rounded(json.loads(pio.to_json(fig_dict, validate=False)))
        text = json.dumps(figure, sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha1(text.encode()).hexdigest()[:12]
        words = figure_words(figure)
        named = f' role="figure" aria-label="{html.escape(words["alt"])}"' if words else ""
        bundle = {
            "application/vnd.plotly.v1+json": figure,
            "text/html": _FIGURE_HTML.format(
                id=f"monopoly-figure-{digest}",
                named=named,
                height=figure.get("layout", {}).get("height", 450),
                figure=text.replace("</", "<\\/"),
                cdn=f"https://cdn.plot.ly/plotly-{get_plotlyjs_version()}.min.js",
            ),
        }
        if self.png:
            image = _png_or_none(lambda: _png(figure))
            if image is None:
                self.png = False  # one warning, then interactive figures only
            else:
                bundle["image/png"] = base64.b64encode(image).decode()
        return bundle


WORDS_CLASS = "monopoly-figure-words"
"""The class of the output that shows a figure's words under it (:class:`WordsRenderer`)."""
WORDS_HTML = (
    '<details class="{cls}"><summary>In words: {alt}</summary><p>{description}</p></details>'
)


def words_bundle(words: Mapping[str, str]) -> dict[str, str]:
    """A figure's words (:func:`~monopoly_lesson.figure_words.figure_words`) as an output:
    in HTML, the alternative text always shown and the description a click (or Enter)
    away; in plain text, both."""
    return {
        "text/html": WORDS_HTML.format(
            cls=WORDS_CLASS,
            alt=html.escape(words["alt"]),
            description=html.escape(words["description"]),
        ),
        "text/plain": f"In words: {words['alt']}\n{words['description']}",
    }


class WordsRenderer(ExternalRenderer):
    """Shows a figure's words under it, as an output of their own: JupyterLab draws the
    figure from its JSON, so words in the figure's own HTML would never reach its reader."""

    def render(self, fig_dict: dict) -> None:
        """Display the figure's words, if it has any."""
        from IPython.display import display

        words = figure_words(fig_dict)
        if words:
            display(words_bundle(words), raw=True)


PNG_SECONDS = 60.0
"""How long the image exporter may take (to start, or for one PNG) before it is given up."""


def _within(seconds: float, work: Callable[[], object]) -> object:
    """``work()``, run in a daemon thread so that a hung exporter cannot hang the caller."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except Exception as error:  # handed back to the caller below
            box["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {seconds:g} s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]


def _png_or_none(work: Callable[[], bytes]) -> bytes | None:
    """A PNG from ``work``, or None with one warning when the exporter fails or hangs."""
    try:
        return _within(PNG_SECONDS, work)  # type: ignore[return-value]
    except Exception as error:
        warnings.warn(
            f"PNG export is off ({type(error).__name__}: {error}): the browser behind it did "
            "not answer, so figures are interactive only.",
            stacklevel=3,
        )
        return None


PNG_ENV = "MONOPOLY_LESSON_PNG"
"""The environment variable that asks :func:`setup_figures` for PNGs (``"1"``; ``"0"`` or
unset: none). ``tools/execute_notebooks.py`` (``make notebooks``) sets it in the kernels
that execute the notebooks to be stored, so that the stored figures carry a PNG for print
(the PDFs); a student's or instructor's own kernel makes none, and starts no browser."""


def png_requested() -> bool:
    """Whether this process is asked for PNG figures (:data:`PNG_ENV` is ``"1"``)."""
    value = os.environ.get(PNG_ENV, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{PNG_ENV} must be 1 (figures with a PNG) or 0 (none), not {value!r}.")
    return value == "1"


def setup_figures(png: bool | None = None) -> str:
    """Show figures interactively, as HTML for books, and as a PNG for print where asked;
    each followed by its words (its alternative text and description, :class:`WordsRenderer`).

    ``png=None`` adds the PNG only where notebooks are executed to be stored
    (:data:`PNG_ENV` set to ``"1"``, as ``make notebooks`` does) and a Chromium browser is
    on PATH: in a lesson kernel the image exporter's browser would hold about half a
    gigabyte beside it, for images JupyterLab does not need. ``png=True`` asks for them
    here, ``png=False`` never. ``png=None`` adds none in a kernel the grader's check runs
    (:data:`~monopoly_lesson.checker.checked_kernel.CHECKED_ENV` set): images would only slow
    the check (there plotly's renderers are also imported without a slow optional module,
    see :func:`~monopoly_lesson.checker.checked_kernel.import_quickly`). The image exporter is
    started once and kept running, rather than starting a browser per figure. If the browser
    does not start or answer (within ``PNG_SECONDS``), figures are interactive only, with
    one warning. Returns the renderer's name.
    """
    from .checker.checked_kernel import import_quickly, is_checked

    if png is not None and not isinstance(png, bool):
        raise TypeError(f"png must be True, False or None (PNGs where {PNG_ENV}=1), not {png!r}.")
    if is_checked():
        import_quickly("plotly.io._renderers")
    if png is None:
        png = png_requested() and _chrome_available() and not is_checked()
    if png:
        png = _start_exporter()
    name = "monopoly_png" if png else "monopoly"
    pio.renderers[name] = LessonRenderer(png=png)
    pio.renderers[WORDS_RENDERER] = WordsRenderer()
    pio.renderers.default = f"{name}+{WORDS_RENDERER}"
    return name


WORDS_RENDERER = "monopoly_words"
"""The name of the renderer that shows a figure's words under it (:class:`WordsRenderer`)."""


def _start_exporter() -> bool:
    """Start kaleido's image exporter and make one small PNG; False (warned) if it fails."""
    import kaleido

    def start_and_try() -> bytes:
        kaleido.start_sync_server(silence_warnings=True)
        return pio.to_image(go.Figure(), format="png", width=10, height=10)

    # plotly warns that per-call options are unused once a server runs; none are passed.
    warnings.filterwarnings("ignore", message="The kopts argument is ignored")
    return _png_or_none(start_and_try) is not None
