"""The lesson's simulation: many games of alternating turns, tallies summed over games."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from .checks import check_space_counts, seed_or_fresh
from .fast import fast_tallies
from .rules import LESSON_RULES, Rules, Seat, check_rules, check_rules_for
from .starter import (
    NUM_SPACES,
    CardDeck,
    Player,
    RandomDice,
    SpaceTracker,
    _check_positive,
    _child_seeds,
    community_deck,
    gameboard,
)

__all__ = ["SimulationResult", "results_table", "simulate", "space_table"]

TakeTurn = Callable[..., None]
"""A take_turn function: ``fn(player, tracker, *, dice, chance, community)``."""

_PROGRESS_THRESHOLD = 2_000_000  # player-turns; shorter runs finish before a bar helps
ENGINES = ("reference", "fast")
"""The engines :func:`simulate` can play with: the readable reference, or the compiled one."""


@dataclass(frozen=True)
class SimulationResult:
    """What :func:`simulate` returns: the tallies and the parameters that produced them."""

    counts: pd.Series
    games: int
    turns: int
    players: int
    seed: int
    rules: Rules = field(default=LESSON_RULES)
    engine: str = "reference"

    @property
    def total(self) -> int:
        """All tallies added together."""
        return int(self.counts.sum())

    @property
    def rel(self) -> pd.Series:
        """Relative frequency of each space (tally / total tallies)."""
        return self.counts / self.total

    def table(self, order: Literal["frequency", "board"] = "frequency") -> pd.DataFrame:
        """The results table: ``space``, ``title``, ``tally``, ``rel``, in the order asked."""
        return results_table(self.counts, order=order)


def results_table(
    counts: pd.Series, order: Literal["frequency", "board"] = "frequency"
) -> pd.DataFrame:
    """Tabulate counts (a Series indexed 1..40) by frequency (ties by space) or board order.

    Columns ``space``, ``title``, ``tally`` and ``rel``. By frequency the rows are ranked
    1..40; in board order the rows are indexed by space 1..40, so ``.loc[1]`` is Go.

    >>> table = results_table(SpaceTracker().counts + 1, order="board")
    >>> print(table.loc[1, "title"], table.loc[40, "rel"])
    Go 0.025
    """
    return space_table(check_counts(counts), "tally", order)


def check_counts(counts: object) -> pd.Series:
    """The tallies as whole numbers, after checking they are tallies a simulation can give.

    A Series indexed by the spaces 1..40 of whole numbers, none negative or missing, not
    all zero; anything else is refused with what was wrong.
    """
    check_space_counts(counts, NUM_SPACES)
    if not pd.api.types.is_numeric_dtype(counts) or pd.api.types.is_bool_dtype(counts):
        raise TypeError(f"tallies must be numbers, got values of type {counts.dtype}.")
    problems = {
        "missing": counts.isna(),
        "negative": counts < 0,
        "not whole numbers": counts.notna() & (counts % 1 != 0),
    }
    for what, bad in problems.items():
        if bad.any():
            spaces = ", ".join(str(space) for space in counts.index[bad][:5])
            raise ValueError(
                f"tallies must be whole numbers of 0 or more; {what} for space(s) {spaces}."
            )
    if not counts.any():
        raise ValueError("every tally is 0: play some turns before making a results table.")
    return counts.astype("int64")


def space_table(values: pd.Series, column: str, order: str) -> pd.DataFrame:
    """``space``, ``title``, ``values`` as ``column``, and ``rel`` (each value / their sum).

    For any per-space values (exact expected tallies, say); tallies go through
    :func:`results_table`, which checks them first. ``order="frequency"``: largest first
    (ties by space), indexed by rank 1..40; ``order="board"``: indexed by space 1..40.

    >>> from monopoly_lesson import expected_tallies
    >>> space_table(expected_tallies(150), "expected", "frequency").iloc[0]["title"]
    'Jail'
    """
    if order not in ("frequency", "board"):
        raise ValueError(f"order must be 'frequency' or 'board', got {order!r}.")
    total = values.sum()
    table = pd.DataFrame(
        {
            "space": gameboard["space"].to_numpy(),
            "title": gameboard["title"].to_numpy(),
            column: values.to_numpy(),
            "rel": values.to_numpy(dtype="float64") / total if total else 0.0,
        },
        index=pd.RangeIndex(1, NUM_SPACES + 1),
    )
    if order == "frequency":
        table = table.sort_values([column, "space"], ascending=[False, True], kind="stable")
        table.index = pd.RangeIndex(1, NUM_SPACES + 1, name="rank")
    return table


def simulate(
    games: int = 1000,
    turns: int = 150,
    players: int = 2,
    seed: int | None = 0,
    rules: Rules = LESSON_RULES,
    progress: bool | None = None,
    take_turn: TakeTurn | None = None,
    engine: Literal["reference", "fast"] = "reference",
) -> SimulationResult:
    """Play ``games`` games of ``turns`` turns per player and sum the tallies.

    Players alternate turns; each game starts with every token on Go and freshly
    shuffled decks, shared by the players of that game. The same ``seed`` gives the
    same counts in any process (default 0); ``seed=None`` picks one and records it in the result.
    ``take_turn`` plays with a student's own function instead of the reference engine
    (it is called as ``take_turn(player, tracker, dice=..., chance=..., community=...)``,
    with the rules' dice and decks; the jail strategy and counting are its own to decide,
    so those options are refused unless it takes a ``rules=`` keyword too).
    ``progress`` shows a bar; by default only for long runs. ``engine="fast"`` plays the
    same rules from lookup tables with a compiled loop (about 100 times faster; same
    seed, same counts, but not the reference engine's counts; it cannot play a student's
    ``take_turn``).

    >>> result = simulate(games=10, turns=50, seed=1)
    >>> print(result.total >= 10 * 50 * 2, result.counts[31])  # Go to Jail is never tallied
    True 0
    >>> simulate(games=10, turns=50, seed=1).counts.equals(result.counts)  # same seed, same counts
    True
    """
    games = _check_positive(games, "games")
    turns = _check_positive(turns, "turns")
    players = _check_positive(players, "players")
    check_rules(rules)
    if take_turn is not None and not callable(take_turn):
        raise TypeError(f"take_turn must be a function, got {type(take_turn).__name__}.")
    if take_turn is not None:
        check_rules_for(take_turn, rules)
    _check_engine(engine, take_turn)
    seed = seed_or_fresh(seed, limit=None)
    if progress is None:
        progress = games * turns * players >= _PROGRESS_THRESHOLD
    if engine == "fast":
        counts = fast_tallies(games, turns, players, seed, rules, progress=progress)
        return SimulationResult(counts, games, turns, players, seed, rules, "fast")

    tracker = SpaceTracker()
    decks = _deck_templates(rules)
    for game_seed in _progress_bar(_child_seeds(seed, games), games, progress):
        play_game(
            tracker,
            game_seed,
            turns=turns,
            players=players,
            rules=rules,
            take_turn=take_turn,
            decks=decks,
        )
    return SimulationResult(tracker.counts, games, turns, players, seed, rules, "reference")


def play_game(
    tracker: SpaceTracker,
    seed: np.random.SeedSequence | int,
    *,
    turns: int = 150,
    players: int = 2,
    rules: Rules = LESSON_RULES,
    take_turn: TakeTurn | None = None,
    decks: tuple[CardDeck, CardDeck] | None = None,
) -> list[Player]:
    """Play one game from Go with freshly shuffled decks; the players take turns in order.

    With ``take_turn=None`` the reference engine plays. ``decks`` (Chance, Community
    Chest) are templates copied for this game, so many games need not rebuild them.
    """
    rng = np.random.default_rng(seed)  # one stream per game, shared by its dice and decks
    dice = RandomDice(rng, sides=rules.dice_sides)
    chance, community = (deck.fresh(rng) for deck in decks or _deck_templates(rules))
    seats = [
        Seat(Player(name=f"Player {i + 1}"), tracker, dice, chance, community, rules)
        for i in range(players)
    ]
    for _ in range(turns):
        for seat in seats:
            seat.play(take_turn)
    return [seat.player for seat in seats]


def _deck_templates(rules: Rules) -> tuple[CardDeck, CardDeck]:
    return (
        CardDeck(rules.chance_deck, replace=rules.replacement),
        CardDeck(community_deck, replace=rules.replacement),
    )


def _check_engine(engine: object, take_turn: TakeTurn | None) -> None:
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be 'reference' or 'fast', got {engine!r}.")
    if engine == "fast" and take_turn is not None:
        raise ValueError(
            "engine='fast' plays the package's rules only; to play your own take_turn, "
            "use engine='reference'."
        )


def _progress_bar(items: Iterable, total: int, show: bool) -> Iterable:
    if not show:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, total=total, desc="games", unit="game")
