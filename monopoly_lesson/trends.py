"""The established trends of the rules page (``rules.md``, "Trends") as data, and how often a
correct run shows them.

A trend is statistical: a perfectly correct 1000-game simulation misses some of them now
and then. :data:`PASS_RATES` says how often, so nobody is failed for noise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from .rules import LESSON_RULES, Rules
from .simulation import check_counts, results_table, simulate
from .starter import NUM_SPACES, gameboard

__all__ = [
    "PASS_RATES",
    "TRENDS",
    "Trend",
    "check_trends",
    "pass_rates",
    "ranks",
    "trend_pass_rates",
]

_SPACE = {
    title: int(space) for space, title in zip(gameboard["space"], gameboard["title"], strict=True)
}


def ranks(counts: pd.Series) -> pd.Series:
    """Rank of every space by tally (1 = most), ties broken by space number, Go to Jail 40th."""
    table = results_table(counts, order="frequency")
    return pd.Series(table.index.to_numpy(), index=table["space"].to_numpy()).sort_index()


@dataclass(frozen=True)
class Trend:
    """One trend of the course: its wording and the check that decides it from counts."""

    name: str
    check: Callable[[pd.Series, Callable[[str], int]], bool]


def _jail_first(counts: pd.Series, rank: Callable[[str], int]) -> bool:
    share = counts[11] / counts.sum()
    return rank("Jail") == 1 and 0.10 <= share <= 0.13


TRENDS = (
    Trend("Jail is the most frequent space, with 10% to 13% of all tallies", _jail_first),
    Trend(
        "Places 2 and 3 are Illinois Avenue and Go",
        lambda c, rank: {rank("Illinois Avenue"), rank("Go")} == {2, 3},
    ),
    Trend(
        "New York Avenue and Tennessee Avenue are in the top 10",
        lambda c, rank: max(rank("New York Avenue"), rank("Tennessee Avenue")) <= 10,
    ),
    Trend(
        "Reading Railroad and B & O Railroad are in the top 10",
        lambda c, rank: max(rank("Reading Railroad"), rank("B & O Railroad")) <= 10,
    ),
    Trend(
        "Mediterranean Avenue and Baltic Avenue are in the bottom 5",
        lambda c, rank: min(rank("Mediterranean Avenue"), rank("Baltic Avenue")) >= 36,
    ),
    Trend("Park Place is in the bottom 10", lambda c, rank: rank("Park Place") >= 31),
    Trend("Go to Jail is landed on 0 times", lambda c, rank: int(c[31]) == 0),
)
"""The trends of the rules page (``rules.md``), in its order."""


def _counts(results: pd.Series | pd.DataFrame) -> pd.Series:
    """Counts (Series 1..40) from counts or from a results table with space and tally."""
    if isinstance(results, pd.DataFrame):
        missing = {"space", "tally"} - set(results.columns)
        if missing:
            raise ValueError(
                f"a results table needs the columns 'space' and 'tally'; missing {sorted(missing)}."
            )
        counts = results.set_index("space")["tally"].sort_index()
    elif isinstance(results, pd.Series):
        counts = results.sort_index()
    else:
        raise TypeError(
            f"expected counts (a Series) or a results table, got {type(results).__name__}."
        )
    if list(counts.index) != list(range(1, NUM_SPACES + 1)):
        raise ValueError("the results must have exactly one tally for each space 1..40.")
    return check_counts(counts)


def check_trends(results: pd.Series | pd.DataFrame) -> dict[str, bool]:
    """Which trends these results show: ``{trend name: True/False}``."""
    counts = _counts(results)
    by_space = ranks(counts)

    def rank(title: str) -> int:
        return int(by_space[_SPACE[title]])

    return {trend.name: bool(trend.check(counts, rank)) for trend in TRENDS}


def pass_rates(
    replicates: int = 200, games: int = 1000, seed: int = 0, rules: Rules = LESSON_RULES
) -> pd.Series:
    """How often correct simulations of ``games`` games show each trend (fast engine)."""
    seeds = np.random.SeedSequence(seed).generate_state(replicates)
    shown = [
        check_trends(simulate(games=games, seed=int(s), rules=rules, engine="fast").counts)
        for s in seeds
    ]
    return pd.DataFrame(shown).mean().rename("pass rate")


PASS_RATES = {
    TRENDS[0].name: 1.0,
    TRENDS[1].name: 0.977,
    TRENDS[2].name: 1.0,
    TRENDS[3].name: 0.9434,
    TRENDS[4].name: 0.5031,
    TRENDS[5].name: 1.0,
    TRENDS[6].name: 1.0,
}
"""How often a correct 1000-game run (150 turns, 2 players) shows each trend, measured by
``pass_rates(10_000, seed=2026)``: 10,000 runs of the fast engine (1.0 means all did;
tests/test_trends.py measures again and compares)."""


@lru_cache(maxsize=8)
def trend_pass_rates(rules: Rules = LESSON_RULES) -> dict[str, float]:
    """How often a correct 1000-game run under ``rules`` shows each trend: :data:`PASS_RATES`
    for the lesson's rules, else measured here (200 runs of the fast engine, seed 2026,
    about 3 s; a chapter's rules make some trends true and not others)."""
    if rules == LESSON_RULES:
        return dict(PASS_RATES)
    return {name: float(rate) for name, rate in pass_rates(200, seed=2026, rules=rules).items()}
