"""Tournaments: many whole games of the same strategies, and who wins how often.

:func:`play_games` plays the games (seats rotated, so no strategy keeps the advantage of
moving first) and returns one tidy row per player per game; :func:`win_rates` sums that
table up per strategy, with a confidence interval for each win rate.

>>> table = play_games(["always", "never"], games=4, seed=1, max_rounds=20)
>>> table.shape
(8, 14)
>>> win_rates(table)["games"].tolist()
[4, 4]
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Iterable, Sequence
from statistics import NormalDist

import numpy as np
import pandas as pd

from .game import MAX_PLAYERS, MIN_PLAYERS, play_monopoly
from .game_result import GameResult
from .plugins import as_strategy, shows_strategy_errors
from .strategies import Strategy

__all__ = [
    "ENDINGS",
    "TABLE_COLUMNS",
    "check_whole",
    "game_seed",
    "play_games",
    "strategy_labels",
    "wilson_interval",
    "win_rates",
]

TABLE_COLUMNS = (
    "game", "seed", "seat", "strategy", "finish", "winner", "net_worth", "cash", "lots",
    "monopolies", "bankrupt", "bankrupt_round", "rounds", "ended_by",
)  # fmt: skip
"""The columns of :func:`play_games`'s table, in order."""
_FILLED = ("game", "seed", "seat", "finish", "net_worth", "cash", "lots", "monopolies",
           "bankrupt_round", "rounds")  # fmt: skip
ENDINGS = ("last player", "rounds")
"""How a game ends (``ended_by``): one player left, or the last round played."""
_NOT_BANKRUPT = -1  # bankrupt_round while filling the table: -1 is "never went bankrupt"


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` (from 0) of a run seeded ``seed``.

    A child of ``numpy.random.SeedSequence(seed)`` turned into a whole number below 2**63:
    the same in any process and whatever the number of games, so a 10-game run plays the
    first 10 games of a 100-game run. ``play_monopoly(seats, seed=game_seed(seed, g))``
    replays game ``g``.

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    child = np.random.SeedSequence(seed, spawn_key=(game,))
    return int(child.generate_state(1, np.uint64)[0] >> np.uint64(1))


@shows_strategy_errors
def play_games(
    strategies: Sequence[object],
    games: int = 100,
    *,
    seed: int = 0,
    max_rounds: int = 100,
    rotate: bool = True,
    progress: bool = False,
) -> pd.DataFrame:
    """Play ``games`` whole games of ``strategies`` (2 to 8) and return one row per player
    per game.

    A strategy is a name (``"always"``, ``"heuristic"``, ``"random:0.5"``, ``"rga"``...), a
    Strategy or a student's own (:mod:`monopoly_lesson.plugins`); the same ones play every
    game. With ``rotate=True`` game ``g`` seats them rotated by ``g % n``: seat 1 gets the
    ``g % n``-th strategy, and each strategy sits in every seat equally often. Game ``g``
    is seeded :func:`game_seed` ``(seed, g)``: the same seed, the same table.

    Columns: ``game`` (from 0), ``seed`` (the game's), ``seat``, ``strategy`` (its name, a
    categorical in the order given; a name given twice is labelled ``always``,
    ``always#2``...), ``finish`` (1 is the winner), ``winner``, ``net_worth``, ``cash``,
    ``lots``, ``monopolies``, ``bankrupt``, ``bankrupt_round`` (missing if it did not go
    bankrupt), ``rounds`` and ``ended_by`` (``"last player"`` or ``"rounds"``). Only the
    table is kept, not the games, so memory grows with the table alone. ``progress=True``
    shows a progress bar.

    >>> table = play_games(["always", "always", "never"], games=3, seed=2, max_rounds=10)
    >>> table.groupby("strategy", observed=True)["seat"].apply(sorted).to_dict()
    {'always': [1, 2, 3], 'always#2': [1, 2, 3], 'never': [1, 2, 3]}
    """
    entries = _check_strategies(strategies)
    games = check_whole(games, "games", 1)
    seed = check_whole(seed, "seed", 0)
    max_rounds = check_whole(max_rounds, "max_rounds", 1)
    for flag, name in ((rotate, "rotate"), (progress, "progress")):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}.")
    n = len(entries)
    columns = {name: np.empty(games * n, dtype=np.int64) for name in _FILLED}
    columns["strategy"] = np.empty(games * n, dtype=np.int64)
    columns["ended_by"] = np.empty(games * n, dtype=object)
    for g in _progress_bar(range(games), games, progress):
        shift = g % n if rotate else 0
        order = [*range(shift, n), *range(shift)]  # the entry sitting in each seat
        result = play_monopoly([entries[i] for i in order], seed=game_seed(seed, g),
                               max_rounds=max_rounds)  # fmt: skip
        _record(columns, g * n, g, order, result)
    return _table(columns, strategy_labels(entries))


def strategy_labels(strategies: Sequence[Strategy]) -> list[str]:
    """The strategies' names, a repeated one numbered from its second use: always, always#2.

    >>> strategy_labels([as_strategy("always"), as_strategy("never"), as_strategy("always")])
    ['always', 'never', 'always#2']
    """
    seen: Counter[str] = Counter()
    labels = []
    for strategy in strategies:
        name = str(getattr(strategy, "name", type(strategy).__name__))
        seen[name] += 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return labels


def win_rates(table: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """One row per strategy: ``games``, ``wins``, ``win_rate``, ``ci_low``, ``ci_high``,
    ``mean_finish``, ``mean_net_worth``, best win rate first.

    ``ci_low`` to ``ci_high`` is a Wilson score interval: the true win rates that these
    results do not rule out at this ``confidence`` (0.95: 95%). Equally good strategies
    would each win about 1 game in n (n players per game).

    >>> rates = win_rates(play_games(["always", "never"], games=6, seed=3, max_rounds=20))
    >>> bool(rates["wins"].sum() == 6), rates.columns.tolist()[:3]
    (True, ['games', 'wins', 'win_rate'])
    """
    _check_table(table)
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"confidence must be a number between 0 and 1, got {confidence!r}.")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1 (e.g. 0.95), got {confidence}.")
    by = table.groupby("strategy", observed=True, sort=False)
    rates = pd.DataFrame(
        {
            "games": by.size(),
            "wins": by["winner"].sum().astype("int64"),
            "mean_finish": by["finish"].mean(),
            "mean_net_worth": by["net_worth"].mean(),
        }
    )
    rates.insert(2, "win_rate", rates["wins"] / rates["games"])
    low, high = wilson_interval(rates["wins"].to_numpy(), rates["games"].to_numpy(), confidence)
    rates.insert(3, "ci_low", low)
    rates.insert(4, "ci_high", high)
    rates.index = pd.Index([str(label) for label in rates.index], name="strategy")
    return rates.sort_values("win_rate", ascending=False, kind="stable")


def wilson_interval(
    wins: np.ndarray, games: np.ndarray, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval for win rates ``wins / games``, as (low, high) arrays.

    >>> low, high = wilson_interval(np.array([5]), np.array([10]))
    >>> round(float(low[0]), 3), round(float(high[0]), 3)
    (0.237, 0.763)
    """
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    n = np.asarray(games, dtype=float)
    rate = np.asarray(wins, dtype=float) / n
    shrink = 1 + z**2 / n
    centre = (rate + z**2 / (2 * n)) / shrink
    half = z * np.sqrt(rate * (1 - rate) / n + z**2 / (4 * n**2)) / shrink
    low = np.where(rate == 0, 0.0, np.clip(centre - half, 0.0, 1.0))  # exact at the ends,
    high = np.where(rate == 1, 1.0, np.clip(centre + half, 0.0, 1.0))  # not 1e-17 off
    return low, high


# ---------------------------------------------------------------------------
# Filling the table
# ---------------------------------------------------------------------------


def _record(
    columns: dict[str, np.ndarray], start: int, g: int, order: list[int], result: GameResult
) -> None:
    """Write one game's rows (one per seat) into the table's columns from row ``start``."""
    went = {seat: rnd for seat, rnd, _ in result.bankruptcies}
    finish = {seat: place for place, seat in enumerate(result.finish_order, start=1)}
    for seat, entry in enumerate(order, start=1):
        row = start + seat - 1
        values = {
            "game": g,
            "seed": result.seed,
            "seat": seat,
            "strategy": entry,
            "finish": finish[seat],
            "net_worth": result.net_worth[seat - 1],
            "cash": result.cash[seat - 1],
            "lots": result.lots[seat - 1],
            "monopolies": result.monopolies[seat - 1],
            "bankrupt_round": went.get(seat, _NOT_BANKRUPT),
            "rounds": result.rounds,
            "ended_by": result.ended_by,
        }
        for name, value in values.items():
            columns[name][row] = value


def _table(columns: dict[str, np.ndarray], labels: list[str]) -> pd.DataFrame:
    """The filled columns as the tidy table, in :data:`TABLE_COLUMNS` order."""
    went = columns["bankrupt_round"]
    data = dict(columns)
    data["strategy"] = pd.Categorical.from_codes(columns["strategy"], categories=labels)
    endings = sorted({*ENDINGS, *pd.unique(columns["ended_by"])})
    data["ended_by"] = pd.Categorical(columns["ended_by"], categories=endings)
    data["winner"] = columns["finish"] == 1
    data["bankrupt"] = went != _NOT_BANKRUPT
    data["bankrupt_round"] = pd.arrays.IntegerArray(went, mask=~data["bankrupt"])
    return pd.DataFrame({name: data[name] for name in TABLE_COLUMNS})


def _progress_bar(items: Iterable[int], total: int, show: bool) -> Iterable[int]:
    """``items``, with a progress bar that is drawn at once (at 0 games) when ``show``."""
    if not show:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, total=total, desc="games", unit="game", mininterval=0.5)


# ---------------------------------------------------------------------------
# Checking what a user gives
# ---------------------------------------------------------------------------


def _check_strategies(strategies: object) -> list[Strategy]:
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence):
        raise TypeError(
            f"strategies must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} strategies (one per "
            f"player), e.g. ['always', 'never'], got {strategies!r}."
        )
    if not MIN_PLAYERS <= len(strategies) <= MAX_PLAYERS:
        raise ValueError(
            f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(strategies)} strategies."
        )
    return [as_strategy(strategy) for strategy in strategies]


def check_whole(value: object, what: str, low: int) -> int:
    """``value`` as an int, or a plain error: a whole number of at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be a whole number, got {value!r}.")
    if value < low:
        raise ValueError(f"{what} must be at least {low}, got {value}.")
    return int(value)


def _check_table(table: object) -> None:
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be play_games()'s DataFrame, got {type(table).__name__}.")
    missing = [c for c in ("strategy", "winner", "finish", "net_worth") if c not in table]
    if missing:
        raise ValueError(
            f"table lacks the column(s) {', '.join(missing)}: give the table play_games() returns."
        )
    if table.empty:
        raise ValueError("table has no rows: play some games first.")
