"""Words for figures: what a figure shows (its alternative text) and its numbers (its
description), written by the function that draws it, from the same data.

A reader who cannot see the picture (a screen reader's user, say) reads them instead. They
are kept in the figure, as ``fig.layout.meta = {"alt": ..., "description": ...}``, and go
wherever it goes: :mod:`monopoly_lesson.plots` shows them under the figure in a notebook and
on a web page, and the PDF handouts carry them as the printed image's alternative text.
Numbers are written as a reader sees them on the figure (its labels, its hover text), so
that the stored words are the same on every processor.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "figure_words",
    "listing",
    "number",
    "plain",
    "sentence",
    "spread",
    "titled",
    "with_words",
]

WORDS = ("alt", "description")
"""The keys of a figure's words in its ``layout.meta``."""


def with_words(fig: Any, alt: str, description: str) -> Any:
    """``fig`` with its words: ``alt`` says in a sentence what it shows, ``description``
    gives its numbers."""
    fig.update_layout(meta={"alt": alt, "description": description})
    return fig


def figure_words(figure: Any) -> dict[str, str] | None:
    """A figure's words (``{"alt": ..., "description": ...}``), from a plotly figure or its
    JSON; None when it has none."""
    layout = figure.get("layout", {}) if isinstance(figure, Mapping) else figure.layout
    meta = layout.get("meta") if isinstance(layout, Mapping) else layout.meta
    if not isinstance(meta, Mapping):
        return None
    words = {key: meta.get(key) for key in WORDS}
    if not all(isinstance(text, str) and text.strip() for text in words.values()):
        return None
    return words  # type: ignore[return-value]


def plain(text: object) -> str:
    """A title or label as words: plotly's line breaks as spaces, no other markup."""
    text = re.sub(r"<br\s*/?>", " ", str(text))
    return " ".join(re.sub(r"<[^>]+>", "", text).split())


def sentence(text: str) -> str:
    """``text`` with its first letter a capital (the rest as it is: names keep theirs)."""
    return text[:1].upper() + text[1:]


def titled(kind: str, title: str | None) -> str:
    """The start of a figure's alternative text: its kind ("Bar chart"), then its title."""
    return f"{kind} \u201c{plain(title)}\u201d" if title else kind


def number(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, as a reader writes it: 1,230, 17.9, 0.0251,
    0.5 (no trailing zeros)."""
    if not math.isfinite(value):
        return "infinite" if value > 0 else ("minus infinite" if value < 0 else "none")
    if value == 0:
        return "0"
    shown = float(f"{value:.{digits}g}")
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(shown))))
    text = f"{shown:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def listing(items: Iterable[str]) -> str:
    """Items as a list in a sentence: "a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def spread(count: int, most: int = 6) -> list[int]:
    """At most ``most`` positions of ``count``, evenly spread, the first and the last among
    them: the rows a description names of a long series."""
    if count <= most:
        return list(range(count))
    return sorted({round(k * (count - 1) / (most - 1)) for k in range(most)})
