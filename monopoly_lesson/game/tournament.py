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
from collections.abc import Sequence
from functools import partial
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from ..checks import (
    at_the_call,
    available_memory,
    check_fits,
    check_flag,
    check_max_rounds,
    check_seed,
    check_whole,
)
from .engine import play_monopoly
from .plugins import check_strategies
from .result import GameResult
from .strategies import Strategy, StrategyError

__all__ = [
    "ENDINGS",
    "TABLE_COLUMNS",
    "check_whole",
    "game_seed",
    "games_that_fit",
    "play_games",
    "strategy_labels",
    "table_bytes",
    "wilson_interval",
    "win_rates",
]

TABLE_COLUMNS = (
    "game",
    "seed",
    "seat",
    "strategy",
    "finish",
    "winner",
    "net_worth",
    "cash",
    "lots",
    "monopolies",
    "bankrupt",
    "bankrupt_round",
    "rounds",
    "ended_by",
)
"""The columns of :func:`play_games`'s table, in order."""
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


def play_games(
    strategies: Sequence[object],
    games: int = 100,
    *,
    seed: int = 0,
    max_rounds: int = 100,
    rotate: bool = True,
    progress: bool = False,
    trading: bool = False,
) -> pd.DataFrame:
    """Play ``games`` whole games of ``strategies`` (2 to 8) and return one row per player
    per game.

    A strategy is a name (``"always"``, ``"heuristic"``, ``"random:0.5"``, ``"rga"``, a
    shipped evolved player such as ``"ega_trading"``...), a Strategy or a student's own
    (:mod:`monopoly_lesson.game.plugins`); the same ones play every game. A person's seat,
    ``"you"``, is refused: nobody answers it in a tournament. With ``rotate=True`` game
    ``g`` seats them rotated by ``g % n``: seat 1 gets the ``g % n``-th strategy, and each
    strategy sits in every seat equally often. Game ``g``
    is seeded :func:`game_seed` ``(seed, g)``: the same seed, the same table. When every
    strategy is a built-in one, the fast engine plays the games, fed each game's own draws:
    the same games and table as the readable engine's, many times sooner.

    Columns: ``game`` (from 0), ``seed`` (the game's), ``seat``, ``strategy`` (its name, a
    categorical in the order given; a name given twice is labelled ``always``,
    ``always#2``...), ``finish`` (1 is the winner), ``winner``, ``net_worth``, ``cash``,
    ``lots``, ``monopolies``, ``bankrupt``, ``bankrupt_round`` (missing if it did not go
    bankrupt), ``rounds`` and ``ended_by`` (``"last player"`` or ``"rounds"``). Only the
    table is kept, not the games, in compact arrays while they are played; a tournament
    whose table would not fit in the memory that is free is refused before any game (see
    :func:`table_bytes`). ``progress=True`` shows a progress bar.

    A game that fails (a strategy's :class:`~monopoly_lesson.game.strategies.StrategyError`,
    say) raises an error of the same type whose message gives the game's number and seed,
    so that ``play_monopoly(<the strategies in its seat order>, seed=<seed>,
    max_rounds=max_rounds)`` replays it; the error keeps the games played before it:
    ``error.game``, ``error.seed``, ``error.reason`` (the game's own message) and
    ``error.table`` (this table, for games 0 to ``error.game - 1``).

    >>> table = play_games(["always", "always", "never"], games=3, seed=2, max_rounds=10)
    >>> table.groupby("strategy", observed=True)["seat"].apply(sorted).to_dict()
    {'always': [1, 2, 3], 'always#2': [1, 2, 3], 'never': [1, 2, 3]}
    """
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        entries = check_strategies(strategies)
        labels = strategy_labels(entries)
        games = check_whole(games, "games", 1)
        seed = check_seed(seed)
        max_rounds = check_max_rounds(max_rounds)
        rotate, progress = check_flag(rotate, "rotate"), check_flag(progress, "progress")
        trading = check_flag(trading, "trading")
        n = len(entries)
        check_fits(
            table_bytes(games, n),
            f"a tournament of {games:,} games of {n} players",
            f"at most {games_that_fit(n):,} games of {n} players fit",
        )
    with at_the_call(StrategyError):  # a strategy's error, from here: not the engine's frames
        return _play_all(entries, labels, games, seed, max_rounds, rotate, progress, trading)


def _play_all(
    entries: list[Strategy],
    labels: list[str],
    games: int,
    seed: int,
    max_rounds: int,
    rotate: bool,
    progress: bool,
    trading: bool,
) -> pd.DataFrame:
    """:func:`play_games`, its arguments checked: the games, then their table (played by
    the fast engine when it plays every strategy, game for game the same)."""
    n = len(entries)
    columns = _Columns(games, n)
    if _play_fast(entries, games, seed, max_rounds, rotate, progress, trading, columns):
        return columns.table(games, labels, rotate)
    bar = _progress_bar(games, progress)
    try:
        for g, order in enumerate(seating(games, n, rotate).tolist()):
            game = game_seed(seed, g)
            try:
                result = play_monopoly(
                    [entries[i] for i in order], seed=game, max_rounds=max_rounds, trading=trading
                )
            except Exception as error:
                table = columns.table(g, labels, rotate)
                seats = ", ".join(labels[i] for i in order)
                replay = f"max_rounds={max_rounds}" + (", trading=True" if trading else "")
                _game_failed(error, g, games, game, seats, replay, table)
                raise
            columns.record(g, result)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return columns.table(games, labels, rotate)


def seating(games: int, players: int, rotate: bool) -> np.ndarray:
    """The entry sitting in each seat of each game, shape (games, players): game ``g``
    rotated by ``g % players`` (its seat 1 gets entry ``g % players``), or never.

    >>> seating(3, 3, True).tolist()
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    """
    shift = np.arange(games) % players if rotate else np.zeros(games, np.int64)
    return (shift[:, np.newaxis] + np.arange(players)) % players


def _play_fast(
    entries: list[Strategy],
    games: int,
    seed: int,
    max_rounds: int,
    rotate: bool,
    progress: bool,
    trading: bool,
    columns: _Columns,
) -> bool:
    """Play the tournament on the fast engine, fed each game's own draws
    (:meth:`~monopoly_lesson.game.streams.GameStreams.of_seed`), into ``columns``: the very
    games the readable engine plays, many times faster. False, with nothing kept, when the
    fast engine does not play one of the strategies (a student's, a person's, a built-in
    with a method replaced) or a game needs more draws than its streams hold."""
    from . import fast_loop as loop
    from .fast import fast_games, strategy_codes
    from .streams import GameStreams, StreamExhausted

    if any(
        callable(value) for entry in entries for value in getattr(entry, "__dict__", {}).values()
    ):
        return False  # a method replaced on the object: only the readable engine calls it
    try:
        codes = strategy_codes(entries)
    except ValueError:
        return False
    n = len(entries)
    who = seating(games, n, rotate)
    seeds = [game_seed(seed, g) for g in range(games)]
    # Draws for all but the longest games, which are played again with four times as many
    # (then by the readable engine): a turn's rolls average 1.2, a deck's shuffle lasts 16
    # cards, a player decides about once a lot and once a turn in jail; players that never
    # draw get none.
    draws = not np.isin(codes.kind, [loop.ALWAYS, loop.NEVER, loop.HEURISTIC, loop.PASSIVE]).all()
    size = dict(
        rolls=3 * n * max_rounds // 2 + 50,
        shuffles=3 + n * max_rounds // 100,
        uniforms=40 + max_rounds // 2 if draws else 0,
    )
    game_bytes = 8 * (2 * size["rolls"] + 32 * size["shuffles"] + n * size["uniforms"])
    chunk = min(1000, max(16, table_bytes(games, n) // (16 * game_bytes)))  # a little memory
    bar = _progress_bar(games, progress)
    try:
        for start in range(0, games, chunk):
            part = slice(start, min(start + chunk, games))
            for more in (1, 4):
                bigger = {kind: more * count for kind, count in size.items()}
                streams = [GameStreams.of_seed(s, n, **bigger) for s in seeds[part]]
                try:
                    out = fast_games(
                        codes, who[part], streams=streams, max_rounds=max_rounds, trading=trading
                    )
                    break
                except StreamExhausted:
                    if more > 1:
                        return False
            columns.record_fast(part, seeds[part], out)
            if bar is not None:
                bar.update(part.stop - part.start)
    finally:
        if bar is not None:
            bar.close()
    return True


def strategy_labels(strategies: Sequence[Strategy]) -> list[str]:
    """The strategies' names, a repeated one numbered from its second use: always, always#2.

    Two strategies whose labels would still be the same (one named ``always#2`` and a
    second ``always``) are refused with a ``ValueError``: the table could not tell them
    apart.

    >>> from monopoly_lesson.game.plugins import as_strategy
    >>> strategy_labels([as_strategy("always"), as_strategy("never"), as_strategy("always")])
    ['always', 'never', 'always#2']
    """
    seen: Counter[str] = Counter()
    labels = []
    for strategy in strategies:
        name = str(getattr(strategy, "name", type(strategy).__name__))
        seen[name] += 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    twice = [label for label, count in Counter(labels).items() if count > 1]
    if twice:
        raise ValueError(
            f"two strategies would both be labelled {twice[0]!r} ({', '.join(labels)}): a name "
            "given again is numbered name#2, name#3...; give one of them another name (its "
            "name attribute)."
        )
    return labels


def table_bytes(games: int, players: int) -> int:
    """About the most memory :func:`play_games` needs for ``games`` games of ``players``:
    its compact arrays while the games are played, then the table they become."""
    return _FAST_BYTES + games * (_GAME_BYTES + players * _ROW_BYTES)


def games_that_fit(players: int) -> int:
    """How many games of ``players`` :func:`play_games` could hold in the memory free now."""
    return max(0, available_memory() - _FAST_BYTES) // (_GAME_BYTES + players * _ROW_BYTES)


def win_rates(table: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """One row per strategy: ``games``, ``wins``, ``win_rate``, ``ci_low``, ``ci_high``,
    ``mean_finish``, ``mean_net_worth``, best win rate first.

    ``ci_low`` to ``ci_high`` is a Wilson score interval: the true win rates that these
    results do not rule out at this ``confidence`` (0.95: 95%). Equally good strategies
    would each win about 1 game in n (n players per game). A table that cannot be a
    tournament's (a row without a strategy, a winner that is not True or False or does not
    finish 1st, a place below 1, two winners in one game) is refused with a ``ValueError``.

    >>> rates = win_rates(play_games(["always", "never"], games=6, seed=3, max_rounds=20))
    >>> bool(rates["wins"].sum() == 6), rates.columns.tolist()[:3]
    (True, ['games', 'wins', 'win_rate'])
    """
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
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

_FAST_BYTES = 256 * 1024  # the fast engine's draws for its first chunk of games, and the like
_GAME_BYTES = 48  # per game: seed, rounds and ending while playing, their table columns
_ROW_BYTES = 200  # per player and game: 21 bytes while playing, 85 in the table, the rest
# while the table is built (each column as int64, then pandas' copy into one block). Measured
# peaks: 202 to 213 bytes a row for 2 to 8 players (tests/test_tournament.py checks them).


class _Columns:
    """The table's numbers while the games are played: compact arrays, a row per game."""

    def __init__(self, games: int, players: int) -> None:
        shape = (games, players)
        self.seed = np.empty(games, dtype=np.int64)
        self.rounds = np.empty(games, dtype=np.int16)  # at most MAX_ROUNDS
        self.ending = np.empty(games, dtype=np.int8)  # an index into self.endings
        self.finish = np.empty(shape, dtype=np.int8)
        self.net_worth = np.empty(shape, dtype=np.int64)
        self.cash = np.empty(shape, dtype=np.int64)
        self.lots = np.empty(shape, dtype=np.int8)
        self.monopolies = np.empty(shape, dtype=np.int8)
        self.bankrupt_round = np.empty(shape, dtype=np.int16)  # _NOT_BANKRUPT if it did not
        self.endings: list[str] = list(ENDINGS)

    def record(self, g: int, result: GameResult) -> None:
        """Keep game ``g``'s outcome: one row of each array."""
        went = {seat: rnd for seat, rnd, _ in result.bankruptcies}
        seats = range(1, len(result.net_worth) + 1)
        self.seed[g], self.rounds[g] = result.seed, result.rounds
        if result.ended_by is None:
            self.ending[g] = -1
        else:
            if result.ended_by not in self.endings:
                self.endings.append(result.ended_by)
            self.ending[g] = self.endings.index(result.ended_by)
        for place, seat in enumerate(result.finish_order, start=1):
            self.finish[g, seat - 1] = place
        self.net_worth[g], self.cash[g] = result.net_worth, result.cash
        self.lots[g], self.monopolies[g] = result.lots, result.monopolies
        self.bankrupt_round[g] = [went.get(seat, _NOT_BANKRUPT) for seat in seats]

    def record_fast(self, part: slice, seeds: list[int], out: dict[str, np.ndarray]) -> None:
        """Keep the outcomes of games ``part``, as :func:`~monopoly_lesson.game.fast.
        fast_games` returns them (a bankrupt round of 0: not bankrupt)."""
        self.seed[part], self.rounds[part] = seeds, out["rounds"]
        self.ending[part] = np.where(
            out["ended_early"], ENDINGS.index("last player"), ENDINGS.index("rounds")
        )
        self.finish[part], self.net_worth[part] = out["finish"], out["net_worth"]
        self.cash[part], self.lots[part] = out["cash"], out["lots"]
        self.monopolies[part] = out["monopolies"]
        went = out["bankrupt_round"]
        self.bankrupt_round[part] = np.where(went > 0, went, _NOT_BANKRUPT)

    def table(self, played: int, labels: list[str], rotate: bool) -> pd.DataFrame:
        """The tidy table of the first ``played`` games, in :data:`TABLE_COLUMNS` order."""
        n = len(labels)
        g = np.arange(played, dtype=np.int64)
        entry = seating(played, n, rotate)

        def each_row(column: np.ndarray) -> np.ndarray:
            return column[:played].astype(np.int64).ravel()

        def each_game(column: np.ndarray) -> np.ndarray:
            return np.repeat(column[:played].astype(np.int64), n)

        finish, went = each_row(self.finish), each_row(self.bankrupt_round)
        endings = sorted(self.endings)
        code = np.array([endings.index(name) for name in self.endings] + [-1], dtype=np.int8)
        bankrupt = went != _NOT_BANKRUPT
        data = {
            "game": np.repeat(g, n),
            "seed": each_game(self.seed),
            "seat": np.tile(np.arange(1, n + 1, dtype=np.int64), played),
            "strategy": pd.Categorical.from_codes(entry.ravel(), categories=labels),
            "finish": finish,
            "winner": finish == 1,
            "net_worth": each_row(self.net_worth),
            "cash": each_row(self.cash),
            "lots": each_row(self.lots),
            "monopolies": each_row(self.monopolies),
            "bankrupt": bankrupt,
            "bankrupt_round": pd.arrays.IntegerArray(went, mask=~bankrupt),
            "rounds": each_game(self.rounds),
            "ended_by": pd.Categorical.from_codes(
                np.repeat(code[self.ending[:played]], n), categories=endings
            ),
        }
        return pd.DataFrame(data, columns=list(TABLE_COLUMNS))


def _game_failed(
    error: Exception,
    g: int,
    games: int,
    seed: int,
    seats: str,
    replay: str,
    table: pd.DataFrame,
) -> None:
    """Tell ``error`` which game it ended and keep the games played before it: a
    StrategyError is raised again, of the same type, with the longer message; any other
    error gets the same attributes (and, from Python 3.11, a note)."""
    context = (
        f"game {g:,} of the tournament's {games:,} (counted from 0), seats {seats}, seed "
        f"{seed}: play_monopoly(those strategies in that order, seed={seed}, "
        f"{replay}) replays it; the error's table holds the {g:,} games "
        "played before it"
    )
    found: dict[str, Any] = {"game": g, "seed": seed, "reason": str(error), "table": table}
    if isinstance(error, StrategyError):
        try:  # the same type: a subclass (a strategy that changed the game, say) stays one
            again = type(error)(f"{error} [in {context}]")
        except TypeError:
            again = StrategyError(f"{error} [in {context}]")
        again.__dict__.update({**error.__dict__, **found})
        raise again.with_traceback(error.__traceback__) from error.__cause__
    try:
        error.__dict__.update(found)
    except AttributeError:  # an error without attributes: it goes on as it was
        return
    if hasattr(error, "add_note"):  # Python 3.11 and later
        error.add_note(f"In {context}.")


def _progress_bar(total: int, show: bool) -> Any:
    """A progress bar of ``total`` games, drawn at once (at 0 games), or None."""
    if not show:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="games", unit="game", mininterval=0.5)


# ---------------------------------------------------------------------------
# Checking what a user gives
# ---------------------------------------------------------------------------


def _check_table(table: object) -> None:
    """Refuse what cannot be a tournament's table, naming the first row that shows it."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be play_games()'s DataFrame, got {type(table).__name__}.")
    missing = [c for c in ("strategy", "winner", "finish", "net_worth") if c not in table]
    if missing:
        raise ValueError(
            f"table lacks the column(s) {', '.join(missing)}: give the table play_games() returns."
        )
    if table.empty:
        raise ValueError("table has no rows: play some games first.")
    refuse = partial(_refuse, table)
    refuse(table["strategy"].isna(), "no strategy (not one of the table's)")
    winner, finish, worth = (table[c] for c in ("winner", "finish", "net_worth"))
    if not pd.api.types.is_bool_dtype(winner) or winner.isna().any():
        numeric = pd.api.types.is_numeric_dtype(winner) and not pd.api.types.is_bool_dtype(winner)
        ok = winner.isin([0, 1]) if numeric else winner.map(lambda v: isinstance(v, bool))
        refuse(~ok.to_numpy(dtype=bool), "winner must be True or False, got {w!r}", w=winner)
    if not pd.api.types.is_numeric_dtype(finish) or pd.api.types.is_bool_dtype(finish):
        raise ValueError(
            f"table's finish column must hold places 1, 2, 3..., got {finish.dtype} values."
        )
    places = finish.to_numpy(dtype=float, na_value=np.nan)
    refuse(
        ~(places >= 1) | (places != np.floor(places)),
        "finish must be a place 1, 2, 3... (1: the winner), got {f!r}",
        f=finish,
    )
    won = pd.Series(winner.to_numpy(dtype=bool))
    refuse(
        won != (places == 1),
        "winner is {w} but finish is {f!r} (the winner, and only the winner, finishes 1st)",
        w=won,
        f=finish,
    )
    if not pd.api.types.is_numeric_dtype(worth) or pd.api.types.is_bool_dtype(worth):
        raise ValueError(f"table's net_worth column must hold amounts, got {worth.dtype} values.")
    amounts = worth.to_numpy(dtype=float, na_value=np.nan)
    refuse(~np.isfinite(amounts), "net_worth must be an amount, got {v!r}", v=worth)
    if "game" in table:
        _check_games(table, places)


def _refuse(table: pd.DataFrame, bad: object, what: str, **shown: pd.Series) -> None:
    """Refuse the first row of ``table`` where ``bad`` holds: ``what``, filled with its
    ``shown`` values of that row."""
    bad = np.asarray(bad, dtype=bool)
    if bad.any():
        row = int(np.argmax(bad))
        values = {name: _plain(column.iloc[row]) for name, column in shown.items()}
        raise ValueError(
            f"table row {table.index[row]!r}: {what.format(**values)}; give "
            "the table play_games() returns."
        )


def _check_games(table: pd.DataFrame, places: np.ndarray) -> None:
    """Refuse a game with more than one winner, or a place beyond its number of players."""
    keys = ["game", "seed"] if "seed" in table else ["game"]
    by = table.groupby(keys, sort=False, dropna=False)
    winners, players = by["winner"].transform("sum"), by["winner"].transform("size")
    _refuse(table, winners.to_numpy() > 1, "its game has {w} winners (a game has one)", w=winners)
    _refuse(
        table,
        places > players.to_numpy(),
        "finish {f!r} in a game of {n} players",
        f=table["finish"],
        n=players,
    )


def _plain(value: object) -> object:
    """A numpy number as Python's (``7``, not ``np.int64(7)``), for messages."""
    return value.item() if isinstance(value, np.generic) else value
