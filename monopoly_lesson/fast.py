"""The same rules as lookup tables, played by a compiled loop: ~100 times the reference engine.

The idea: every dice roll becomes a table lookup. Each game keeps its decks' *next*
cards face up (a Chance card and a Community Chest card), so where a roll leads is
known from a few small numbers: the roll's row (the player's state and the doubles
rolled so far in the turn), the dice, and those two cards. The tables are packed from
:func:`~monopoly_lesson.roll_table.roll_table`, the reference engine's own rolls
enumerated, so they hold no rule of their own.

:mod:`monopoly_lesson.fast_loop` plays them, compiled with numba: game after game, the
players taking turns in order and sharing the game's decks (shuffled per game, shuffled
again when used up, or drawn with replacement). Games are seeded in chunks of
``CHUNK_GAMES`` from the seed, so a seed always gives the same counts. Spaces are
0-based here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from .checks import check_seed
from .fast_format import (
    AGAIN,
    CARD_BITS,
    CARD_MASK,
    CARD_SLOTS,
    CHEST_BITS,
    DREW_CHANCE,
    DREW_CHEST,
    FORMAT,
    STATE_MASK,
)
from .roll_table import STATES, Leaf, RollTable, roll_table
from .rules import DOUBLES_TO_JAIL, LESSON_RULES, Rules, check_rules
from .starter import NUM_SPACES, _check_positive, _child_seeds

__all__ = ["fast_game_tallies", "fast_tallies"]

CHUNK_GAMES = 1 << 17  # games seeded together; fixed, so a seed always gives one result
MAX_SIDES = 256  # dice codes (sides squared) are drawn from at most 16 random bits

NO_TALLY = NUM_SPACES  # an unused tally slot (the counts have a 41st, discarded column)


# ---------------------------------------------------------------------------
# The roll table, packed into lookup tables
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Tables:
    """Lookup tables for one ``Rules``, in the format of :mod:`monopoly_lesson.fast_format`.

    ``situation[row * codes + code]`` is ``situation << CARD_BITS``, plus ``CARD_MASK``
    where the roll draws a card, so the loop adds the face-up cards only there (every
    other situation has one outcome, and the tables stay small enough for the cache).
    """

    dice_codes: int
    situation: np.ndarray
    next_state: np.ndarray  # outcome -> next row * codes, + flags
    tallies: np.ndarray  # outcome -> tallied spaces (0-based; NO_TALLY if unused)
    chance_cards: int
    chest_cards: int


def _packed(leaf: Leaf, codes: int) -> tuple[int, tuple[int, ...]]:
    """A leaf as the loop reads it: the next state with its flags, and its tallies."""
    chance, chest = leaf.cards
    flags = (AGAIN if leaf.doubles else 0) | (DREW_CHANCE if chance is not None else 0)
    flags |= DREW_CHEST if chest is not None else 0
    return flags | (leaf.doubles * STATES + leaf.next_state) * codes, leaf.tallies


def _by_cards(leaves: tuple[Leaf, ...], codes: int) -> tuple:
    """A roll's packed outcome for every pair of face-up cards (one, if it draws none)."""
    if len(leaves) == 1 and leaves[0].cards == (None, None):
        return (_packed(leaves[0], codes),)
    pairs = [_packed(leaves[0], codes)] * (1 << CARD_BITS)
    for leaf in leaves:
        chance, chest = leaf.cards
        for a in range(CARD_SLOTS) if chance is None else (chance,):
            for b in range(CARD_SLOTS) if chest is None else (chest,):
                pairs[a << CHEST_BITS | b] = _packed(leaf, codes)
    return tuple(pairs)


def _pack(table: RollTable) -> Tables:
    """Give each distinct way a roll can go one situation number, and tabulate them."""
    codes = table.rules.dice_sides**2
    situations: dict[tuple, int] = {}
    by_class = np.zeros((len(table.leaves), len(table.class_size)), dtype=np.int64)
    for row, classes in enumerate(table.leaves):
        for cls, leaves in enumerate(classes or ()):
            outcomes = _by_cards(leaves, codes)
            number = situations.setdefault(outcomes, len(situations))
            by_class[row, cls] = number << CARD_BITS | (CARD_MASK if len(outcomes) > 1 else 0)
    widest = max(len(tallies) for outcomes in situations for _, tallies in outcomes)
    next_state = np.zeros((len(situations), 1 << CARD_BITS), dtype=np.int32)
    tallies = np.full((len(situations), 1 << CARD_BITS, widest), NO_TALLY, dtype=np.int32)
    for outcomes, number in situations.items():
        for cards, (state, spaces) in enumerate(outcomes):
            next_state[number, cards] = state
            tallies[number, cards, : len(spaces)] = [s - 1 for s in spaces]
    return Tables(
        codes,
        by_class[:, table.dice_class].astype(np.int32).ravel(),
        next_state.ravel(),
        tallies.reshape(-1, widest),
        *table.deck_sizes,
    )


@lru_cache(maxsize=64)
def tables(rules: Rules) -> Tables:
    """The lookup tables of ``rules`` (cached: ``Rules`` is frozen)."""
    if rules.dice_sides > MAX_SIDES:
        raise ValueError(
            f"the fast engine plays dice of at most {MAX_SIDES} sides, got {rules.dice_sides}; "
            "use engine='reference' for bigger dice."
        )
    table = roll_table(rules)
    if max(table.deck_sizes) > CARD_SLOTS:
        raise ValueError(f"the fast engine plays decks of at most {CARD_SLOTS} cards.")
    if DOUBLES_TO_JAIL * STATES * rules.dice_sides**2 > STATE_MASK:
        raise ValueError("the fast engine's tables cannot number this many rolls.")
    return _pack(table)


# ---------------------------------------------------------------------------
# A chunk of games
# ---------------------------------------------------------------------------


def _play_chunk(
    games: int, turns: int, players: int, rules: Rules, seed: np.random.SeedSequence, per_game: bool
) -> np.ndarray:
    """Play a chunk of games with the compiled loop: tallies per game (games x 40) or summed."""
    from .engine_cache import first_call
    from .fast_loop import play_games  # numba is imported only when the fast engine runs

    t = tables(rules)
    bits = np.random.PCG64DXSM(seed)  # numpy's recommended 64-bit generator for heavy use
    outcomes = np.zeros(len(t.next_state), dtype=np.int64)
    counts = np.zeros((games if per_game else 0, NUM_SPACES + 1), dtype=np.int64)
    with first_call("movement"):  # compiled, or waited for, and said so
        play_games(
            games,
            turns,
            players,
            t.dice_codes,
            t.situation,
            t.next_state,
            np.zeros(t.chance_cards, dtype=np.int64),
            np.zeros(t.chest_cards, dtype=np.int64),
            rules.replacement,
            outcomes,
            t.tallies,
            counts,
            np.array(FORMAT, dtype=np.int64),
            bits.ctypes.next_uint64,
            bits.ctypes.state_address,
        )
    if per_game:
        return counts[:, :NUM_SPACES]
    summed = np.zeros(NUM_SPACES + 1, dtype=np.int64)
    for slot in t.tallies.T:  # each outcome's tallied spaces, times how often it happened
        np.add.at(summed, slot, outcomes)
    return summed[:NUM_SPACES]


# ---------------------------------------------------------------------------
# Many games
# ---------------------------------------------------------------------------


def _check_arguments(
    games: object, turns: object, players: object, seed: object, rules: object
) -> tuple[int, int, int, int]:
    check_rules(rules)
    seed = check_seed(seed, limit=None)
    return (
        _check_positive(games, "games"),
        _check_positive(turns, "turns"),
        _check_positive(players, "players"),
        seed,
    )


def _play(
    games: int, turns: int, players: int, seed: int, rules: Rules, per_game: bool, progress: bool
) -> Iterator[np.ndarray]:
    """Play the games chunk by chunk, yielding each chunk's tallies (memory stays flat)."""
    chunks = -(-games // CHUNK_GAMES)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, desc="games", unit="game")
    try:
        for chunk, chunk_seed in enumerate(_child_seeds(seed, chunks)):
            size = min(CHUNK_GAMES, games - chunk * CHUNK_GAMES)
            yield _play_chunk(size, turns, players, rules, chunk_seed, per_game)
            if bar is not None:
                bar.update(size)
    finally:
        if bar is not None:
            bar.close()


def fast_tallies(
    games: int = 1000,
    turns: int = 150,
    players: int = 2,
    seed: int = 0,
    rules: Rules = LESSON_RULES,
    progress: bool = False,
) -> pd.Series:
    """The tallies of ``games`` games summed, as a Series indexed by space 1..40.

    The same seed always gives the same counts (not those of the reference engine).
    """
    games, turns, players, seed = _check_arguments(games, turns, players, seed, rules)
    counts = np.zeros(NUM_SPACES, dtype=np.int64)
    for chunk in _play(games, turns, players, seed, rules, False, progress):
        counts += chunk
    index = pd.RangeIndex(1, NUM_SPACES + 1, name="space")
    return pd.Series(counts, index=index, name="tally", dtype="int64")


def fast_game_tallies(
    games: int = 1000,
    turns: int = 150,
    players: int = 2,
    seed: int = 0,
    rules: Rules = LESSON_RULES,
) -> np.ndarray:
    """Each game's tallies (all its players together): a (games x 40) array.

    The same games as :func:`fast_tallies` with the same arguments: the columns sum to
    its counts.
    """
    games, turns, players, seed = _check_arguments(games, turns, players, seed, rules)
    return np.concatenate(list(_play(games, turns, players, seed, rules, True, False)))
