"""Every figure has words: a short alternative text (what it shows) and a description with
its numbers, written by the figure function from its data, stored in the figure, shown
under it in a notebook and on a web page, and kept by every stored figure in notebooks/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from monopoly_lesson import plots, simulate
from monopoly_lesson.figure_words import figure_words, number, spread
from monopoly_lesson.rent_value import payback_turns

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PLOTLY = "application/vnd.plotly.v1+json"
NUMBER = re.compile(r"\d")


def history(shift: float) -> pd.DataFrame:
    """An evolve run's history and benchmark, in one table, 12 generations."""
    g = np.arange(1, 13)
    return pd.DataFrame(
        {
            "generation": g,
            "min": 10 + shift + g,
            "q1": 20 + shift + g,
            "median": 25 + shift + g,
            "q3": 30 + shift + g,
            "max": 50 + shift + g,
            "diversity": 0.3 / g + shift / 100,
            "luck_share": np.linspace(0.5, 1.0, 12) - shift / 100,
            "win_rate": np.linspace(0.2, 0.3, 12) + shift / 100,
            "ci_low": np.linspace(0.18, 0.28, 12) + shift / 100,
            "ci_high": np.linspace(0.22, 0.32, 12) + shift / 100,
        }
    )


def rates(shift: float) -> pd.DataFrame:
    rate = np.array([0.31, 0.25, 0.44]) + shift / 100
    return pd.DataFrame(
        {"win_rate": rate, "ci_low": rate - 0.04, "ci_high": rate + 0.05},
        index=["AlwaysBuy", "NeverBuy", "Heuristic"],
    )


def games(shift: float) -> pd.DataFrame:
    rounds = np.random.default_rng(int(shift)).integers(20, 120, size=50)
    return pd.DataFrame({"game": np.repeat(np.arange(50), 4), "rounds": np.repeat(rounds, 4)})


COUNTS = {shift: simulate(games=30, seed=shift, progress=False).counts for shift in (1, 2)}
FIGURES = {
    "bar_chart": lambda s: plots.bar_chart(COUNTS[s]),
    "board_map": lambda s: plots.board_map(COUNTS[s], tokens={"Player 1": 11 + s}),
    "error_chart": lambda s: plots.error_chart([100, 1000, 10000], [0.5 * s, 0.16, 0.05]),
    "rounds_histogram": lambda s: plots.rounds_histogram(games(s)),
    "win_rate_chart": lambda s: plots.win_rate_chart(rates(s)),
    "heat_map": lambda s: plots.heat_map(pd.DataFrame([[0.1, 0.2], [0.3, 0.4 * s]]), "A table"),
    "payback_chart": lambda s: plots.payback_chart(payback_turns() * s),
    "fitness_fan": lambda s: plots.fitness_fan(history(s)),
    "fitness_histograms": lambda s: plots.fitness_histograms(
        {"a": np.arange(50.0) * s, "b": np.array([0.0] * 40 + [50.0 * s] * 10)}
    ),
    "diversity_history": lambda s: plots.diversity_history(history(s)),
    "win_rate_history": lambda s: plots.win_rate_history(history(s)),
}
"""Each figure function the package has, drawing from data varied by ``s`` (1 or 2)."""


def test_every_figure_function_is_checked_here():
    functions = [
        name
        for name in plots.__all__
        if callable(getattr(plots, name))
        and getattr(getattr(plots, name), "__annotations__", {}).get("return") == "go.Figure"
    ]
    assert sorted(functions) == sorted(FIGURES)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_the_figure_writes_its_words_from_its_data(name):
    words, other = (figure_words(FIGURES[name](s)) for s in (1, 2))
    assert words is not None, f"{name} draws a figure without words"
    assert 20 < len(words["alt"]) < 300, words["alt"]  # a sentence
    assert NUMBER.search(words["description"]), "a description without numbers"
    assert len(words["description"]) > len(words["alt"]) / 2
    assert words["description"] != other["description"], "the words do not follow the data"


def test_the_bar_chart_says_every_bar_as_its_hover_says_it():
    counts = COUNTS[1]
    words = figure_words(plots.bar_chart(counts, counts.iloc[::-1].set_axis(counts.index)))
    percent = 100 * counts / counts.sum()
    for space in (1, 11, 40):
        assert f"({space}) {percent[space]:.2f}%" in words["description"]
    assert "Jail (11)" in words["description"].split(";")[0]  # the most landed on, first
    assert "before in brackets" in words["description"] and "beside before" in words["alt"]


def test_the_win_rate_chart_gives_each_interval():
    words = figure_words(plots.win_rate_chart(rates(0)))["description"]
    assert "AlwaysBuy 31.0% (27.0% to 36.0%)" in words and "Heuristic 44.0%" in words


def test_a_heat_map_lists_its_cells_in_its_own_format_or_sums_up_a_big_one():
    small = figure_words(plots.heat_map(pd.DataFrame({"x": [0.125]}, index=["r"]), "T", "{:.1%}"))
    assert "r: x 12.5%" in small["description"]
    big = pd.DataFrame(np.arange(200.0).reshape(50, 4))
    words = figure_words(plots.heat_map(big, "Big", None))["description"]
    assert words.startswith("Highest: 199 (49, 3); lowest: 0 (0, 0).")


def test_titles_read_as_words():
    fig = plots.bar_chart(COUNTS[1], title="Two<br>lines <b>bold</b>")
    assert "\u201cTwo lines bold\u201d" in figure_words(fig)["alt"]
    assert "\u201c" not in figure_words(plots.heat_map(pd.DataFrame([[1]]), None))["alt"]


def test_numbers_read_as_a_reader_writes_them():
    assert [number(v) for v in (1234.5, 17.89, 0.025134, 3.0, 0.5, 0)] == [
        "1,230",
        "17.9",
        "0.0251",
        "3",
        "0.5",
        "0",
    ]
    assert number(float("inf")) == "infinite" and number(float("nan")) == "none"
    assert spread(300) == [0, 60, 120, 179, 239, 299] and spread(3) == [0, 1, 2]


def test_a_figure_without_words_has_none():
    assert figure_words(go.Figure()) is None
    assert figure_words({"layout": {"meta": {"alt": "a chart", "description": " "}}}) is None


def test_the_words_are_shown_under_the_figure(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda *a, **k: shown.append((a, k)))
    monkeypatch.setattr(pio.renderers, "default", pio.renderers.default)
    monkeypatch.setattr("shutil.which", lambda name: None)  # no browser: no PNG
    plots.setup_figures()
    fig = plots.bar_chart(COUNTS[1])
    pio.show(fig)
    (figure, _), (words, keywords) = shown
    (bundle,) = figure
    (output,) = words
    assert PLOTLY in bundle and keywords == {"raw": True}
    alt = figure_words(fig)["alt"]
    assert re.search(
        r'<div id="monopoly-figure-\w+" class="[^"]*" role="figure" aria-label=',
        (bundle["text/html"]),
    )
    assert output["text/html"].startswith('<details class="monopoly-figure-words"><summary>')
    assert "Jail (11)" in output["text/html"] and output["text/plain"].startswith(
        f"In words: {alt}\n"
    )


def test_words_are_escaped_in_html():
    output = plots.words_bundle({"alt": 'a < b & "c"', "description": "<script>1</script>"})
    assert "a &lt; b &amp; &quot;c&quot;" in output["text/html"]
    assert "<script>" not in output["text/html"]


def stored_figures(path: Path) -> list[tuple[dict, list[dict]]]:
    """Each stored figure of a notebook, with the outputs of its cell after it."""
    found = []
    for cell in json.loads(path.read_text())["cells"]:
        outputs = cell.get("outputs", [])
        for k, output in enumerate(outputs):
            if PLOTLY in output.get("data", {}):
                found.append((output["data"], outputs[k + 1 :]))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_stored_figure_has_its_words_and_shows_them(path):
    for data, after in stored_figures(path):
        words = figure_words(data[PLOTLY])
        title = data[PLOTLY]["layout"].get("title", {}).get("text")
        assert words, f"{path.name}: the figure {title!r} has no words"
        assert NUMBER.search(words["description"]), f"{path.name}: {title!r}: no numbers"
        assert 'role="figure" aria-label="' in "".join(data["text/html"])
        shown = "".join(after[0]["data"]["text/html"]) if after else ""
        assert plots.WORDS_CLASS in shown, f"{path.name}: {title!r}: no words shown under it"
