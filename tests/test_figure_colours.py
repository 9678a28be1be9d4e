"""Colour is never the only signal, and the colours a figure uses together stay apart to a
reader with any of the three colour-vision deficiencies.

Each figure's colours (its bars', markers', lines' and shaded bands', over the white it is
drawn on) are simulated as seen with deuteranopia, protanopia and tritanopia (colorspacious,
Machado et al.'s model at full severity) and compared in CAM02-UCS, a space where a distance
of 1 is about the least difference a reader notices. Every two colours of a figure must be
:data:`MIN_DELTA_E` apart, with normal vision and under each deficiency: the closest pair of
the Okabe-Ito palette, the usual reference for colour-blind-safe categories, is 11.0 apart
(tritanopia), so 10 asks as much as it gives. Colour scales must keep their order of
lightness under each deficiency. Series in a legend also differ by shape, dash, pattern or
fill, so that no reader needs the colour at all.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from colorspacious import cspace_convert
from test_figure_words import COUNTS, FIGURES

from monopoly_lesson import plots
from monopoly_lesson.board_view import TOKEN_COLOURS
from monopoly_lesson.game.lots import GROUPS
from monopoly_lesson.game.plots import GROUP_LINES

MIN_DELTA_E = 10.0
"""The least CAM02-UCS distance between two colours a figure uses together."""
DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
"""colorspacious' names; at severity 100, deuteranopia, protanopia and tritanopia."""
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")


def rgb(colour: str) -> np.ndarray:
    """An sRGB colour (``#rrggbb``, ``rgb()`` or ``rgba()``, its alpha laid over white) as
    three numbers from 0 to 1."""
    if colour.startswith("#") and len(colour) == 7:
        return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    match = re.fullmatch(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)", colour)
    assert match, f"a colour this test cannot read: {colour!r}"
    alpha = float(match[4]) if match[4] else 1.0
    return 1 - alpha * (1 - np.array([float(match[i]) for i in (1, 2, 3)]) / 255)


def contrast_on_white(colour: str) -> float:
    """WCAG's contrast ratio of ``colour`` on white."""
    linear = np.where((c := rgb(colour)) <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return 1.05 / (float(linear @ [0.2126, 0.7152, 0.0722]) + 0.05)


def seen(colours: list[str], deficiency: str | None) -> np.ndarray:
    """The colours in CAM02-UCS, as seen with ``deficiency`` (None: normal vision)."""
    srgb = np.array([rgb(c) for c in colours])
    if deficiency:
        space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
        srgb = np.clip(cspace_convert(srgb, space, "sRGB1"), 0, 1)
    return cspace_convert(srgb, "sRGB1", "CAM02-UCS")


def closest(colours: list[str], deficiency: str | None) -> tuple[float, str, str]:
    """The closest two colours as seen with ``deficiency``: ``(distance, one, other)``."""
    points = dict(zip(colours, seen(colours, deficiency), strict=True))
    return min(
        (float(np.linalg.norm(points[a] - points[b])), a, b)
        for a, b in itertools.combinations(colours, 2)
    )


def too_close(colours: list[str]) -> list[str]:
    """Each vision under which two of the colours are nearer than MIN_DELTA_E, said."""
    found = []
    for deficiency in (None, *DEFICIENCIES):
        distance, a, b = closest(colours, deficiency)
        if distance < MIN_DELTA_E:
            found.append(f"{deficiency or 'normal vision'}: {a} and {b} are {distance:.1f} apart")
    return found


def figure_colours(fig) -> list[str]:
    """The colours a figure's marks are drawn in: bars, markers, visible lines, shaded bands,
    and the lines across it (colour scales aside: see the test of scales)."""
    found = []
    for trace in fig.data:
        marker, line = getattr(trace, "marker", None), getattr(trace, "line", None)
        if marker is not None and isinstance(marker.color, str):
            found.append(marker.color)
        if line is not None and isinstance(line.color, str) and line.width != 0:
            found.append(line.color)
        if getattr(trace, "fill", None) and trace.fillcolor:
            found.append(trace.fillcolor)
    found += [shape.line.color for shape in fig.layout.shapes if shape.type == "line"]
    return list(dict.fromkeys(found))


def drawn(name: str):
    """The figure ``name`` with as many series as it can show: two series of bars, four
    tokens on the board."""
    if name == "bar_chart":
        return plots.bar_chart(COUNTS[1], COUNTS[2], labels=("after", "before"))
    if name == "board_map":
        return plots.board_map(COUNTS[1], tokens={"A": 1, "B": 2, "C": 3, "D": 4})
    return FIGURES[name](1)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_a_figure_s_colours_are_told_apart_with_each_deficiency(name):
    colours = figure_colours(drawn(name))
    if len(colours) > 1:
        assert not too_close(colours), f"{name}: {too_close(colours)}"


def test_the_group_lines_are_told_apart_and_stay_the_board_s_colours():
    streets = [colour for group, colour in GROUP_LINES.items() if GROUPS[group][1]]
    assert not too_close(streets), too_close(streets)
    for group, colour in GROUP_LINES.items():
        board = seen([GROUPS[group][0], colour], None)
        assert np.linalg.norm(board[0] - board[1]) < 5, f"{group} is no longer the board's"


def test_the_board_s_own_street_colours_were_not_told_apart():
    """Why the lines are a shade off: as printed, brown and red are 4.6 apart to a reader
    with protanopia."""
    streets = [colour for colour, house_cost in GROUPS.values() if house_cost]
    assert any(f.startswith("protanomaly: #955436 and #ed1b24 are 4.6") for f in too_close(streets))


def test_the_board_s_token_colours_are_told_apart_and_stand_out_on_white():
    assert not too_close(list(TOKEN_COLOURS)), too_close(list(TOKEN_COLOURS))
    for colour in TOKEN_COLOURS:  # WCAG 1.4.11: a graphic's part at 3:1 to what is around it
        assert contrast_on_white(colour) >= 3, f"{colour}: {contrast_on_white(colour):.1f}:1"


def test_the_old_token_colours_were_not_told_apart():
    """Why the tokens changed colour: plotly's first three, red, orange and green, are 1.6
    apart (orange and green) to a reader with protanopia."""
    found = too_close(["#d62728", "#ff7f0e", "#2ca02c"])
    assert any(f.startswith("protanomaly: #ff7f0e and #2ca02c are 1.6") for f in found), found


def test_the_board_map_s_tokens_are_told_apart():
    assert not too_close(list(plots.TOKEN_MARKS))
    assert TOKEN_COLOURS[: len(plots.TOKEN_MARKS)] == plots.TOKEN_MARKS  # the board view's


def test_the_threshold_is_what_the_okabe_ito_palette_gives():
    distances = [closest(list(OKABE_ITO), d)[0] for d in (None, *DEFICIENCIES)]
    assert MIN_DELTA_E <= min(distances) < MIN_DELTA_E + 2


SCALES = {
    "board_map": lambda fig: fig.data[0].marker.colorscale,
    "heat_map": lambda fig: fig.data[0].colorscale,
}


@pytest.mark.parametrize("name", sorted(SCALES))
def test_a_colour_scale_keeps_its_order_of_lightness_with_each_deficiency(name):
    scale = SCALES[name](FIGURES[name](1))
    colours = [colour for _, colour in scale]
    for deficiency in (None, *DEFICIENCIES):
        lightness = seen(colours, deficiency)[:, 0]
        steps = np.diff(lightness)
        assert (steps > 0).all() or (steps < 0).all(), f"{name}, {deficiency}: {lightness}"
        assert abs(lightness[-1] - lightness[0]) >= 4 * MIN_DELTA_E


def legend_look(trace) -> tuple:
    """What tells a series from another but its colour."""
    marker, line = getattr(trace, "marker", None), getattr(trace, "line", None)
    pattern = getattr(getattr(trace, "fillpattern", None), "shape", None)
    return (
        trace.type,
        getattr(trace, "mode", None),
        getattr(marker, "symbol", None),
        getattr(getattr(marker, "pattern", None), "shape", None),
        getattr(line, "dash", None),
        getattr(trace, "fill", None),
        pattern,
    )


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_series_differ_by_more_than_colour(name):
    fig = drawn(name)
    shown = [t for t in fig.data if t.showlegend is not False and t.name]
    looks = [legend_look(t) for t in shown]
    assert len(set(looks)) == len(looks), f"{name}: series alike but for colour: {looks}"
