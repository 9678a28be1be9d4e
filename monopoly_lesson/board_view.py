"""The Monopoly board drawn once, as SVG: 40 squares around a centre, for every view.

The squares sit where :func:`monopoly_lesson.plots.board_position` puts them (the one board
geometry), named with ``SHORT_TITLES`` and banded with ``STREET_GROUPS``. The turn stepper
draws tokens and tallies on it; a whole-game view adds owners, mortgages, houses and hotels
through ``extras``, without copying the drawing. The same picture serves the live widget
(:func:`board_html` wraps it), a notebook's stored output and the PDF handouts (Typst
embeds SVG; it cannot render HTML).
"""

from __future__ import annotations

import base64
import html
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from .checks import check_space_counts
from .plots import SHORT_TITLES, STREET_GROUPS, board_position
from .starter import NUM_SPACES, gameboard

__all__ = ["TOKEN_COLOURS", "SpaceExtras", "board_html", "board_svg", "svg_picture"]

BOARD_LABEL = "Monopoly board"
"""The board's name for a screen reader, unless a view names it in more words."""
TOKEN_COLOURS = ("#d62728", "#009E73", "#332288", "#CC79A7", "#9467bd", "#000000")
"""Token colours, one per player in order (the same first two as the plotly board map): any
two stay apart with deuteranopia, protanopia or tritanopia, and each stands 3:1 on white."""

_TITLES = gameboard["title"].tolist()
_GROUP_OF = {space: group for group, (_, spaces) in STREET_GROUPS.items() for space in spaces}
_CORNERS = (1, 11, 21, 31)  # Go, Jail, Free Parking, Go to Jail
_SQUARE, _CORNER, _BAND = 46, 64, 12  # pixels: a square's short side, a corner, a colour band
_SIZE = 2 * _CORNER + 9 * _SQUARE  # the board's width and height
_FONT = "Helvetica, Arial, 'DejaVu Sans', sans-serif"
_SHADE = "#1f4e79"  # tallied squares: this blue, more opaque the more landings
_OWNER_DASHES = "5 3"  # an owner's frame is dashed: no colour band or other line is
_STRIPES = (
    '<defs><pattern id="monopoly-stripes" width="8" height="8" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="3" height="8" fill="black" '
    'fill-opacity="0.2"/></pattern></defs>'
)


@dataclass(frozen=True)
class SpaceExtras:
    """What a game adds to one space: its owner (name, colour, mark), a mortgage, buildings.

    The owner's ``colour`` frames the square in dashes (a colour band is solid), its
    ``mark`` (a short label, such as its seat number) sits in the square, so that the owner
    is never told by colour alone; a mortgage stripes the square, and ``houses`` (0-4) or a
    ``hotel`` sit on the street's colour band; all of it is named on hover.
    """

    owner: str = ""
    colour: str = ""
    mark: str = ""
    mortgaged: bool = False
    houses: int = 0
    hotel: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.houses, bool) or self.houses not in range(5):
            raise ValueError(f"houses must be a whole number from 0 to 4, got {self.houses!r}.")
        if self.hotel and self.houses:
            raise ValueError("a space has a hotel or houses, not both (a hotel replaces 4 houses).")


def board_svg(
    counts: pd.Series | None = None,
    *,
    tokens: Mapping[str, int] | None = None,
    extras: Mapping[int, SpaceExtras] | None = None,
    centre: Sequence[str] = (),
    token_colours: Mapping[str, str] | None = None,
    label: str = BOARD_LABEL,
) -> str:
    """The board as one standalone SVG: short names, colour bands, tallies, tokens, extras.

    ``counts`` (a Series indexed 1..40) shades each square and prints its tally; ``tokens``
    maps player names to spaces, drawn in :data:`TOKEN_COLOURS` in order unless
    ``token_colours`` names a player's colour; ``extras`` maps spaces to
    :class:`SpaceExtras`; ``centre`` adds plain-text lines to the middle of the board.
    Full names appear on hover. The drawing is one picture (``role="img"``) whose name, for
    a screen reader, is ``label``.
    """
    counts = _checked_counts(counts)
    tokens = _checked_tokens(tokens or {})
    extras = _checked_extras(extras or {})
    chosen = token_colours or {}
    colours = {
        name: chosen.get(name, TOKEN_COLOURS[i % len(TOKEN_COLOURS)])
        for i, name in enumerate(tokens)
    }
    top = int(counts.max()) if counts is not None else 0
    squares = "".join(
        _square(
            space,
            None if counts is None else int(counts[space]),
            max(top, 1),
            [(colours[name], name) for name, at in tokens.items() if at == space],
            extras.get(space),
        )
        for space in range(1, NUM_SPACES + 1)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="monopoly-board-svg" role="img" '
        f'aria-label="{html.escape(label)}" width="{_SIZE}" height="{_SIZE}" '
        f'viewBox="-1 -1 {_SIZE + 2} {_SIZE + 2}" font-family="{_FONT}" fill="#111">'
        f'{_STRIPES}<rect x="0" y="0" width="{_SIZE}" height="{_SIZE}" fill="#cde6d0" '
        f'stroke="#222" stroke-width="2"/>{squares}'
        f"{_centre(tokens, colours, centre, counts, top)}</svg>"
    )


def board_html(
    counts: pd.Series | None = None,
    *,
    tokens: Mapping[str, int] | None = None,
    extras: Mapping[int, SpaceExtras] | None = None,
    centre: Sequence[str] = (),
    css_class: str = "",
    token_colours: Mapping[str, str] | None = None,
    label: str = BOARD_LABEL,
) -> str:
    """The board of :func:`board_svg` in an HTML ``<div>`` with ``css_class``, for a page."""
    svg = board_svg(
        counts,
        tokens=tokens,
        extras=extras,
        centre=centre,
        token_colours=token_colours,
        label=label,
    )
    return f'<div class="monopoly-board {html.escape(css_class)}">{svg}</div>'


def _span(index: int) -> tuple[int, int]:
    """Where grid line ``index`` (0..10) starts on the board, and its width, in pixels."""
    if index == 0:
        return 0, _CORNER
    if index == 10:
        return _CORNER + 9 * _SQUARE, _CORNER
    return _CORNER + _SQUARE * (index - 1), _SQUARE


def _square_box(space: int) -> tuple[int, int, int, int]:
    """A space's square as ``(x, y, width, height)`` in the SVG (y grows downwards)."""
    col, row = board_position(space)
    (x, width), (y, height) = _span(col), _span(10 - row)
    return x, y, width, height


def _edge(space: int) -> str:
    col, row = board_position(space)
    return "bottom" if row == 0 else "left" if col == 0 else "top" if row == 10 else "right"


def _split(space: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """A square's body box and its colour band's box (None off streets); bands face inwards."""
    x, y, w, h = _square_box(space)
    if space not in _GROUP_OF:
        return (x, y, w, h), None
    edge, b = _edge(space), _BAND
    if edge == "bottom":
        return (x, y + b, w, h - b), (x, y, w, b)
    if edge == "top":
        return (x, y, w, h - b), (x, y + h - b, w, b)
    if edge == "left":
        return (x, y, w - b, h), (x + w - b, y, b, h)
    return (x + b, y, w - b, h), (x, y, b, h)


def _square(
    space: int,
    count: int | None,
    top: int,
    here: Sequence[tuple[str, str]],
    extra: SpaceExtras | None,
) -> str:
    x, y, w, h = _square_box(space)
    (bx, by, bw, bh), band = _split(space)
    share = (count or 0) / top
    paint = f'<rect x="{bx}" y="{by}" width="{bw}" height="{bh}" fill="#fbfbf3"/>'
    if count:
        opacity = f"{0.1 + 0.75 * share:.2f}"
        paint += f'<rect x="{bx}" y="{by}" width="{bw}" height="{bh}" fill="{_SHADE}" '
        paint += f'fill-opacity="{opacity}" class="monopoly-shade"/>'
    if extra is not None and extra.mortgaged:
        paint += f'<rect x="{bx}" y="{by}" width="{bw}" height="{bh}" '
        paint += 'fill="url(#monopoly-stripes)" class="monopoly-mortgage"/>'
    frame, width, dashes = "#444", 1, ""
    if extra is not None and extra.colour:  # the owner's colour, dashed
        frame, width = html.escape(extra.colour), 3
        dashes = f' stroke-dasharray="{_OWNER_DASHES}" class="monopoly-owner"'
    inset = width / 2
    outline = (
        f'<rect x="{x + inset}" y="{y + inset}" width="{w - width}" height="{h - width}" '
        f'fill="none" stroke="{frame}" stroke-width="{width}"{dashes}/>'
    )
    ink = "white" if share > 0.5 else "#111"
    body = _square_text(space, count, (bx, by, bw, bh), ink) + _token_dots(here, bx, by, bw, bh)
    if extra is not None and extra.mark:
        body += _owner_mark(extra.mark, frame, bx, by, bw, bh)
    return (
        f'<g class="monopoly-space" data-space="{space}"><title>{_hover(space, count, extra)}'
        f"</title>{paint}{_band(space, band, extra)}{body}{outline}</g>"
    )


def _square_text(space: int, count: int | None, box: tuple[int, ...], ink: str) -> str:
    """A square's short name at the top, its number bottom left and its tally bottom right."""
    x, y, w, h = box
    corner = space in _CORNERS
    size, weight = (11, 700) if corner else (9, 400)
    lines = "".join(
        f'<tspan x="{x + 3}" dy="{size if i == 0 else size + 0.5}">{html.escape(part)}</tspan>'
        for i, part in enumerate(SHORT_TITLES[space - 1].split("<br>"))
    )
    tally = (
        f'<text x="{x + w - 3}" y="{y + h - 3}" font-size="10" font-weight="700" '
        f'text-anchor="end" fill="{ink}" class="monopoly-tally">{count}</text>'
        if count
        else ""
    )
    return (
        f'<text y="{y + 1}" font-size="{size}" font-weight="{weight}" fill="{ink}">{lines}</text>'
        f'<text x="{x + 3}" y="{y + h - 3}" font-size="8" fill="{ink}" fill-opacity="0.7">'
        f"{space}</text>{tally}"
    )


def _band(space: int, box: tuple[int, ...] | None, extra: SpaceExtras | None) -> str:
    """A street's colour band, with its houses (green) or hotel (red) drawn on it."""
    if box is None:
        return ""
    group = _GROUP_OF[space]
    x, y, w, h = box
    marks = ""
    if extra is not None and extra.hotel:
        marks = _mark("monopoly-hotel", "#c0392b", x + w / 2, y + h / 2, 16, 8)
    elif extra is not None and extra.houses:
        along = w >= h  # houses in a row along the band
        for i in range(extra.houses):
            offset = (i - (extra.houses - 1) / 2) * 9
            cx, cy = (x + w / 2 + offset, y + h / 2) if along else (x + w / 2, y + h / 2 + offset)
            marks += _mark("monopoly-house", "#1b7a3a", cx, cy, 7, 7)
    return (
        f'<rect class="monopoly-band" data-group="{group}" x="{x}" y="{y}" width="{w}" '
        f'height="{h}" fill="{STREET_GROUPS[group][0]}"/>{marks}'
    )


def _mark(css: str, colour: str, cx: float, cy: float, w: int, h: int) -> str:
    return (
        f'<rect class="{css}" x="{cx - w / 2:g}" y="{cy - h / 2:g}" width="{w}" height="{h}" '
        f'fill="{colour}" stroke="white"/>'
    )


def _owner_mark(mark: str, colour: str, x: int, y: int, w: int, h: int) -> str:
    """The owner's mark in a white tag edged in its colour, at the right of the square's
    middle (between its name above and the tokens below)."""
    width = 7 + 6 * len(mark)
    left, top = x + w - width - 3, y + h / 2 - 6
    return (
        f'<g class="monopoly-owner-mark"><rect x="{left:g}" y="{top:g}" width="{width}" '
        f'height="12" rx="2" fill="white" stroke="{colour}" stroke-width="1.5"/>'
        f'<text x="{left + width / 2:g}" y="{top + 9.5:g}" font-size="10" font-weight="700" '
        f'text-anchor="middle" fill="#111">{html.escape(mark)}</text></g>'
    )


def _token_dots(names: Sequence[tuple[str, str]], x: int, y: int, w: int, h: int) -> str:
    """A coloured dot per ``(colour, name)`` at the bottom middle of a square's body."""
    return "".join(
        _dot(colour, name, x + w / 2 + (i - (len(names) - 1) / 2) * 12, y + h - 8)
        for i, (colour, name) in enumerate(names)
    )


def _dot(colour: str, name: str, cx: float, cy: float) -> str:
    colour = html.escape(colour)
    return (
        f'<circle class="monopoly-token" cx="{cx:g}" cy="{cy:g}" r="5.5" fill="{colour}" '
        f'stroke="black"><title>{html.escape(name)}</title></circle>'
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
    tokens: Mapping[str, int],
    colours: Mapping[str, str],
    lines: Sequence[str],
    counts: pd.Series | None,
    top: int,
) -> str:
    """The middle of the board: the MONOPOLY banner, where each token is, notes, the key."""
    rows = [
        (14, f"{name} on {_TITLES[space - 1]} ({space})", colours[name])
        for name, space in tokens.items()
    ]
    rows += [(14, line, None) for line in lines]
    if counts is not None:
        rows += [
            (11, "A number at the bottom right of a square is its tally;", None),
            (11, f"the darker the square, the more landings (most: {top}).", None),
        ]
    middle = _SIZE / 2
    y = middle + 20 - 9 * len(rows)
    drawn = ""
    for size, text, colour in rows:
        y += size + 5
        ink = "#333" if size == 11 else "#111"
        x = middle
        if colour is not None:  # a token's dot before the line, the two centred together
            x += 8
            left = x - 0.27 * size * len(text)
            drawn += _dot(colour, text.split(" on ")[0], left - 10, y - 4)
        drawn += (
            f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="middle" fill="{ink}">'
            f"{html.escape(text)}</text>"
        )
    return (
        f'<g class="monopoly-centre"><g transform="rotate(-8 {middle} {middle - 60})">'
        f'<rect x="{middle - 118}" y="{middle - 86}" width="236" height="50" fill="#c8102e" '
        f'stroke="#111" stroke-width="3"/><text x="{middle}" y="{middle - 49}" '
        f'font-size="34" font-weight="800" letter-spacing="3" fill="white" '
        f'text-anchor="middle">MONOPOLY</text></g>{drawn}</g>'
    )


def svg_picture(svg: str, *, alt: str, css_class: str = "") -> str:
    """An SVG drawing as an HTML ``<img>`` (a data URI): a picture wherever HTML shows, even
    where inline SVG is stripped (a notebook opened untrusted shows its text run together)."""
    data = base64.b64encode(svg.encode()).decode()
    return (
        f'<img class="{html.escape(css_class)}" src="data:image/svg+xml;base64,{data}" '
        f'alt="{html.escape(alt)}"/>'
    )


def _checked_counts(counts: object) -> pd.Series | None:
    return None if counts is None else check_space_counts(counts, NUM_SPACES)


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
