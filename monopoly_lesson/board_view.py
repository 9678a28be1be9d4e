"""The Monopoly board drawn as plain HTML: 40 squares around a centre, for any view.

The squares sit where :func:`monopoly_lesson.plots.board_position` puts them (the one board
geometry), named with ``SHORT_TITLES`` and banded with ``STREET_GROUPS``. The turn stepper
draws tokens and tallies on it; a whole-game view adds owners, mortgages, houses and hotels
through ``extras``, without copying the drawing.
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from .plots import SHORT_TITLES, STREET_GROUPS, board_position
from .starter import NUM_SPACES, gameboard

__all__ = ["TOKEN_COLOURS", "SpaceExtras", "board_html"]

TOKEN_COLOURS = ("#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#17becf")
"""Token colours, one per player in order (the same first two as the plotly board map)."""

_TITLES = gameboard["title"].tolist()
_GROUP_OF = {space: group for group, (_, spaces) in STREET_GROUPS.items() for space in spaces}
_CORNERS = (1, 11, 21, 31)  # Go, Jail, Free Parking, Go to Jail
_SQUARE, _CORNER, _BAND = 46, 64, 12  # pixels: a square's short side, a corner, a colour band
# The board edge a square is on -> how its colour band and body are laid out (band first).
_FLOW = {"bottom": "column", "left": "row-reverse", "top": "column-reverse", "right": "row"}
_HOUSE = (
    '<span class="monopoly-house" style="width:7px;height:7px;background:#1b7a3a;'
    'border:1px solid #fff"></span>'
)
_HOTEL = (
    '<span class="monopoly-hotel" style="width:16px;height:8px;background:#c0392b;'
    'border:1px solid #fff"></span>'
)


@dataclass(frozen=True)
class SpaceExtras:
    """What a game adds to one space: its owner (name and colour), a mortgage, buildings.

    The owner's ``colour`` frames the square, a mortgage stripes it, and ``houses`` (0-4)
    or a ``hotel`` sit on the street's colour band; all of it is named on hover.
    """

    owner: str = ""
    colour: str = ""
    mortgaged: bool = False
    houses: int = 0
    hotel: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.houses, bool) or self.houses not in range(5):
            raise ValueError(f"houses must be a whole number from 0 to 4, got {self.houses!r}.")
        if self.hotel and self.houses:
            raise ValueError("a space has a hotel or houses, not both (a hotel replaces 4 houses).")


def board_html(
    counts: pd.Series | None = None,
    *,
    tokens: Mapping[str, int] | None = None,
    extras: Mapping[int, SpaceExtras] | None = None,
    centre: Sequence[str] = (),
    css_class: str = "",
) -> str:
    """The board as one HTML ``<div>``: short names, colour bands, tallies, tokens, extras.

    ``counts`` (a Series indexed 1..40) shades each square and prints its tally; ``tokens``
    maps player names to spaces; ``extras`` maps spaces to :class:`SpaceExtras`; ``centre``
    adds plain-text lines to the middle of the board. Full names appear on hover.
    """
    counts = _checked_counts(counts)
    tokens = _checked_tokens(tokens or {})
    extras = _checked_extras(extras or {})
    top = int(counts.max()) if counts is not None else 0
    squares = "".join(
        _square(space, None if counts is None else int(counts[space]), max(top, 1),
                [(i, name) for i, (name, at) in enumerate(tokens.items()) if at == space],
                extras.get(space))
        for space in range(1, NUM_SPACES + 1)
    )  # fmt: skip
    track = f"{_CORNER}px repeat(9,{_SQUARE}px) {_CORNER}px"
    return (
        f'<div class="monopoly-board {html.escape(css_class)}" aria-label="Monopoly board" '
        f'style="display:grid;grid-template-columns:{track};'
        f"grid-template-rows:{track};width:max-content;background:#cde6d0;"
        "border:2px solid #222;font-family:Helvetica,Arial,sans-serif;color:#111;"
        f'line-height:1.05">{squares}{_centre(tokens, centre, counts, top)}</div>'
    )


def _edge(space: int) -> str:
    col, row = board_position(space)
    return "bottom" if row == 0 else "left" if col == 0 else "top" if row == 10 else "right"


def _square(
    space: int,
    count: int | None,
    top: int,
    here: Sequence[tuple[int, str]],
    extra: SpaceExtras | None,
) -> str:
    col, row = board_position(space)
    share = (count or 0) / top
    shade = f"rgba(31,78,121,{0.1 + 0.75 * share:.2f})" if count else "#fbfbf3"
    if extra is not None and extra.mortgaged:
        shade = f"repeating-linear-gradient(135deg,#0003 0 3px,#0000 3px 8px),{shade}"
    ink = "white" if share > 0.5 else "#111"
    frame = "1px solid #444"
    if extra is not None and extra.colour:
        frame = f"3px solid {html.escape(extra.colour)}"  # the owner's colour
    corner = space in _CORNERS
    name = "<br>".join(html.escape(part) for part in SHORT_TITLES[space - 1].split("<br>"))
    tally = f"<b>{count}</b>" if count else ""
    body = (
        f'<div style="flex:1;display:flex;flex-direction:column;justify-content:space-between;'
        f'padding:2px;min-width:0;background:{shade};color:{ink}">'
        f'<div style="font-size:{11 if corner else 9}px;font-weight:{700 if corner else 400}">'
        f'{name}</div><div style="display:flex;justify-content:space-between;'
        f'align-items:center;font-size:8px"><span style="opacity:.7">{space}</span>'
        f'{_token_dots(here)}<span style="font-size:10px">{tally}</span></div></div>'
    )
    return (
        f'<div class="monopoly-space" data-space="{space}" title="{_hover(space, count, extra)}" '
        f'style="grid-row:{11 - row};grid-column:{col + 1};display:flex;'
        f'flex-direction:{_FLOW[_edge(space)]};border:{frame};overflow:hidden">'
        f"{_band(space, extra)}{body}</div>"
    )


def _band(space: int, extra: SpaceExtras | None) -> str:
    """A street's colour band, with its houses (green) or hotel (red) drawn on it."""
    group = _GROUP_OF.get(space)
    if group is None:
        return ""
    colour, _ = STREET_GROUPS[group]
    across = _FLOW[_edge(space)].startswith("column")  # the band runs along the square's width
    size = f"height:{_BAND}px" if across else f"width:{_BAND}px"
    marks = ""
    if extra is not None:
        marks = _HOTEL if extra.hotel else _HOUSE * extra.houses
    return (
        f'<div class="monopoly-band" data-group="{group}" style="flex:none;{size};'
        f"background:{colour};display:flex;flex-direction:{'row' if across else 'column'};"
        f'align-items:center;justify-content:center;gap:1px">{marks}</div>'
    )


def _token_dots(names: Sequence[tuple[int, str]]) -> str:
    """A coloured dot per ``(player index, name)``; the index picks the colour."""
    return "".join(
        f'<span class="monopoly-token" title="{html.escape(name)}" style="display:inline-block;'
        f"width:11px;height:11px;border-radius:50%;border:1px solid #000;"
        f'background:{TOKEN_COLOURS[index % len(TOKEN_COLOURS)]}"></span>'
        for index, name in names
    )


def _hover(space: int, count: int | None, extra: SpaceExtras | None) -> str:
    text = f"{_TITLES[space - 1]} ({space})"
    if space in _GROUP_OF:
        text += f", {_GROUP_OF[space]} street"
    if count is not None:
        text += f": tally {count}"
    if extra is not None:
        details = (
            f"owned by {extra.owner}" if extra.owner else "",
            "mortgaged" if extra.mortgaged else "",
            f"{extra.houses} house(s)" if extra.houses else "",
            "a hotel" if extra.hotel else "",
        )
        text += "".join(f"; {detail}" for detail in details if detail)
    return html.escape(text)


def _centre(
    tokens: Mapping[str, int], lines: Sequence[str], counts: pd.Series | None, top: int
) -> str:
    legend = "".join(
        f"<div>{_token_dots([(index, name)])} {html.escape(name)} on "
        f"{html.escape(_TITLES[space - 1])} ({space})</div>"
        for index, (name, space) in enumerate(tokens.items())
    )
    notes = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
    key = (
        f'<div style="font-size:11px;color:#333">A number at the bottom right of a square is its '
        f"tally; the darker the square, the more landings (most: {top}).</div>"
        if counts is not None
        else ""
    )
    return (
        '<div class="monopoly-centre" style="grid-row:2/11;grid-column:2/11;display:flex;'
        "flex-direction:column;align-items:center;justify-content:center;gap:10px;"
        'padding:24px;text-align:center;font-size:13px">'
        '<div style="background:#c8102e;color:white;font-weight:800;font-size:34px;'
        "letter-spacing:3px;padding:4px 18px;border:3px solid #111;transform:rotate(-8deg);"
        f'margin-bottom:14px">MONOPOLY</div>{legend}{notes}{key}</div>'
    )


def _checked_counts(counts: object) -> pd.Series | None:
    if counts is None:
        return None
    if not isinstance(counts, pd.Series) or list(counts.index) != list(range(1, NUM_SPACES + 1)):
        raise ValueError(
            "counts must be a pandas Series indexed by the spaces 1..40 (as SpaceTracker.counts "
            f"gives), got {type(counts).__name__}."
        )
    return counts


def _checked_tokens(tokens: Mapping[str, int]) -> dict[str, int]:
    for name, space in tokens.items():
        if not isinstance(space, numbers.Integral) or not 1 <= space <= NUM_SPACES:
            raise ValueError(f"tokens must map names to spaces 1 to 40; {name!r} is on {space!r}.")
    return {str(name): int(space) for name, space in tokens.items()}


def _checked_extras(extras: Mapping[int, SpaceExtras]) -> dict[int, SpaceExtras]:
    for space, extra in extras.items():
        if not isinstance(space, numbers.Integral) or not 1 <= space <= NUM_SPACES:
            raise ValueError(f"extras must be keyed by spaces 1 to 40, got {space!r}.")
        if not isinstance(extra, SpaceExtras):
            raise TypeError(
                f"extras[{space}] must be a SpaceExtras(...), got {type(extra).__name__}."
            )
    return {int(space): extra for space, extra in extras.items()}
