"""The same rules as lookup tables, played by a compiled loop: ~100 times the reference engine.

The idea: every dice roll becomes a table lookup. Each game keeps its decks' *next*
cards face up (a Chance card and a Community Chest card), so where a roll leads is
known from three small numbers: the player's state (free on a space, or in jail after
k turns), the dice, and those two cards. A roll draws at most one card from each deck
(checked when the tables are built), so tables indexed by (situation, next cards) give
the next state, the tallies and which decks were drawn from. The tables are built once
per ``Rules`` with numpy from the rules' own data (:func:`card_destination`, the decks).

:mod:`monopoly_lesson.fast_loop` plays them, compiled with numba: game after game, the
players taking turns in order and sharing the game's decks (shuffled per game, shuffled
again when used up, or drawn with replacement). Games are seeded in chunks of
``CHUNK_GAMES`` from the seed, so a seed always gives the same counts. Spaces are
0-based here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from .rules import (
    CHANCE_SPACES,
    COMMUNITY_CHEST_SPACES,
    LESSON_RULES,
    SENDS_TO_JAIL,
    Rules,
    card_destination,
)
from .starter import GO_TO_JAIL, JAIL, NUM_SPACES, _check_int, _check_positive, community_deck

__all__ = ["fast_game_tallies", "fast_tallies"]

CHUNK_GAMES = 1 << 17  # games seeded together; fixed, so a seed always gives one result
MAX_SIDES = 256  # dice codes (sides squared) are drawn from at most 16 random bits

# Start-of-roll states: free on a space (0..39), or in jail after k turns (JAIL_STATE + k).
JAIL_STATE = NUM_SPACES
JAIL_SPACE = JAIL - 1

# Situations: what a roll did before any card is read.
STOPS = 0  # + space: landed there, and the turn ends unless a card says otherwise
ROLLS_AGAIN = NUM_SPACES  # + space: landed there by doubles, roll again unless sent to jail
STAYS = 2 * NUM_SPACES  # + k: stayed in jail after k turns (long stay)
THIRD_DOUBLES = STAYS + 2  # sent to jail by the third doubles
SITUATIONS = THIRD_DOUBLES + 1
CARD_SLOTS = 16  # upcoming cards are packed as chance * 16 + chest
CARD_PAIRS = CARD_SLOTS * CARD_SLOTS
AGAIN = 1 << 24  # flags on a next state: the player rolls again from there,
DREW_CHANCE = 1 << 25  # the roll drew a Chance card,
DREW_CHEST = 1 << 26  # the roll drew a Community Chest card
STATE_BITS = AGAIN - 1
NO_TALLY = NUM_SPACES  # an unused tally slot (the counts have a 41st, discarded column)
MAX_TALLIES = 3  # tallies one roll can make: e.g. Chance 37, Back 3 to Chest 34, Jail


# ---------------------------------------------------------------------------
# The rules as lookup tables
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Landing:
    """Where a landing ends, once a known Chance card and Chest card are followed."""

    rest: int  # 1-based space the token rests on (Jail when sent)
    sent: bool  # sent to jail
    tallies: tuple[int, ...]  # 1-based spaces tallied, landing by landing
    drew_chance: bool
    drew_chest: bool


def follow_landing(space: int, chance_card: str, chest_card: str) -> Landing:
    """Resolve a landing on ``space`` (1-based) as RULES.md says, with these next cards."""
    tallies: list[int] = []
    drew = {"chance": False, "chest": False}
    while True:
        if space == GO_TO_JAIL:
            return Landing(JAIL, True, (*tallies, JAIL), drew["chance"], drew["chest"])
        tallies.append(space)
        if space in CHANCE_SPACES:
            deck, card = "chance", chance_card
        elif space in COMMUNITY_CHEST_SPACES:
            deck, card = "chest", chest_card
        else:
            break
        if drew[deck]:
            raise RuntimeError("a roll drew twice from one deck; the fast engine cannot play it")
        drew[deck] = True
        if card in SENDS_TO_JAIL:
            return Landing(JAIL, True, (*tallies, JAIL), drew["chance"], drew["chest"])
        destination = card_destination(card, space)
        if destination is None:
            break
        space = destination
    return Landing(space, False, tuple(tallies), drew["chance"], drew["chest"])


@dataclass(frozen=True)
class Tables:
    """Lookup tables for one ``Rules``; an outcome is ``situation * 256 + next cards``.

    The next cards count only where the roll lands on Chance or Community Chest; see
    :func:`_card_masked`.
    """

    dice_codes: int  # n * n: a roll is coded (d1 - 1) * n + (d2 - 1)
    situation: np.ndarray  # [state * n*n + code] for rolls 1 and 2, then the same for roll 3
    next_state: np.ndarray  # outcome -> next state * n*n, + flags AGAIN, DREW_...
    tallies: np.ndarray  # outcome -> up to 3 tallied spaces (0-based; NO_TALLY if unused)
    chance_cards: int
    chest_cards: int


def _landings_table(rules: Rules) -> list[list[list[Landing]]]:
    """``[space][chance card][chest card]`` -> Landing, for every 0-based space."""
    chance = list(rules.chance_deck["card"])
    chest = list(community_deck["card"])
    table = []
    for space in range(1, NUM_SPACES + 1):
        if space not in CHANCE_SPACES + COMMUNITY_CHEST_SPACES + (GO_TO_JAIL,):
            plain = follow_landing(space, chance[0], chest[0])
            table.append([[plain] * len(chest)] * len(chance))
        else:
            table.append([[follow_landing(space, a, b) for b in chest] for a in chance])
    return table


def _outcome_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """For every outcome: the next state with its flags, and the tallied spaces."""
    codes = rules.dice_sides**2
    next_state = np.zeros((SITUATIONS, CARD_PAIRS), dtype=np.int32)
    tallies = np.full((SITUATIONS, CARD_PAIRS, MAX_TALLIES), NO_TALLY, dtype=np.int32)
    landings = _landings_table(rules)
    counting_rest = rules.counting == "end_of_move"
    for space in range(NUM_SPACES):
        for a, row in enumerate(landings[space]):
            for b, landing in enumerate(row):
                pair = a * CARD_SLOTS + b
                rest = landing.rest - 1
                stop = JAIL_STATE if landing.sent else rest
                drawn = DREW_CHANCE * landing.drew_chance + DREW_CHEST * landing.drew_chest
                again = AGAIN + rest * codes  # doubles roll again, unless sent to jail
                next_state[STOPS + space, pair] = drawn + stop * codes
                next_state[ROLLS_AGAIN + space, pair] = drawn + (
                    stop * codes if landing.sent else again
                )
                counted = (rest,) if counting_rest else [s - 1 for s in landing.tallies]
                tallies[[STOPS + space, ROLLS_AGAIN + space], pair, : len(counted)] = counted
    for served in range(2):  # a stay in jail: Jail tallied (or counted) once, one more turn
        next_state[STAYS + served] = (JAIL_STATE + served + 1) * codes
        tallies[STAYS + served, :, 0] = JAIL_SPACE
    next_state[THIRD_DOUBLES] = JAIL_STATE * codes
    tallies[THIRD_DOUBLES, :, 0] = JAIL_SPACE
    return next_state.ravel(), tallies.reshape(-1, MAX_TALLIES)


def _situation_table(rules: Rules) -> np.ndarray:
    """[state * n*n + code] -> situation * 256 (card-masked): rolls 1 and 2, then roll 3.

    Roll 3's rows are the second half, so the loop finds them at ``situation.size // 2``.
    """
    n = rules.dice_sides
    d1, d2 = np.divmod(np.arange(n * n), n)
    totals, doubles = d1 + d2 + 2, d1 == d2
    first = np.zeros((NUM_SPACES + 3, n * n), dtype=np.int32)
    third = np.zeros_like(first)  # its jail rows stay unused: only free players roll again
    for space in range(NUM_SPACES):
        landed = (space + totals) % NUM_SPACES
        first[space] = np.where(doubles, ROLLS_AGAIN, STOPS) + landed
        third[space] = np.where(doubles, THIRD_DOUBLES, STOPS + landed)
    from_jail = (JAIL_SPACE + totals) % NUM_SPACES
    for served in range(3):
        if rules.jail == "short":  # pay, leave, and play a normal free turn from Jail
            first[JAIL_STATE + served] = first[JAIL_SPACE]
        elif served < 2:  # long stay: doubles leave (no roll again), else stay
            first[JAIL_STATE + served] = np.where(doubles, STOPS + from_jail, STAYS + served)
        else:  # the third turn in jail: leave anyway
            first[JAIL_STATE + served] = STOPS + from_jail
    return _card_masked(np.concatenate((first, third)).ravel())


def _card_masked(situations: np.ndarray) -> np.ndarray:
    """situation * 256, plus 255 where the roll lands on Chance or Community Chest.

    The loop adds ``entry & cards``: the face-up cards count only where a card is read,
    so every other situation uses a single outcome (small tables that stay in cache).
    """
    landed = situations % NUM_SPACES  # STOPS and ROLLS_AGAIN: the space landed on
    card_space = np.isin(landed + 1, CHANCE_SPACES + COMMUNITY_CHEST_SPACES)
    reads = (situations < STAYS) & card_space
    return situations * CARD_PAIRS + np.where(reads, CARD_PAIRS - 1, 0)


@lru_cache(maxsize=64)
def tables(rules: Rules) -> Tables:
    """The lookup tables of ``rules`` (cached: ``Rules`` is frozen)."""
    chance_cards, chest_cards = len(rules.chance_deck), len(community_deck)
    if max(chance_cards, chest_cards) > CARD_SLOTS:
        raise ValueError(f"the fast engine plays decks of at most {CARD_SLOTS} cards.")
    if rules.dice_sides > MAX_SIDES:
        raise ValueError(
            f"the fast engine plays dice of at most {MAX_SIDES} sides, got {rules.dice_sides}; "
            "use engine='reference' for bigger dice."
        )
    next_state, tallies = _outcome_tables(rules)
    return Tables(
        rules.dice_sides**2,
        _situation_table(rules),
        next_state,
        tallies,
        chance_cards,
        chest_cards,
    )


# ---------------------------------------------------------------------------
# A chunk of games
# ---------------------------------------------------------------------------


def _play_chunk(
    games: int, turns: int, players: int, rules: Rules, seed: np.random.SeedSequence, per_game: bool
) -> np.ndarray:
    """Play a chunk of games with the compiled loop: tallies per game (games x 40) or summed."""
    from .fast_loop import play_games  # numba is imported only when the fast engine runs

    t = tables(rules)
    bits = np.random.PCG64DXSM(seed)  # numpy's recommended 64-bit generator for heavy use
    outcomes = np.zeros(len(t.next_state), dtype=np.int64)
    counts = np.zeros((games if per_game else 0, NUM_SPACES + 1), dtype=np.int64)
    play_games(
        games, turns, players, t.dice_codes, t.situation, t.next_state,
        np.zeros(t.chance_cards, dtype=np.int64), np.zeros(t.chest_cards, dtype=np.int64),
        rules.replacement, outcomes, t.tallies, counts,
        bits.ctypes.next_uint64, bits.ctypes.state_address,
    )  # fmt: skip
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
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, got {type(rules).__name__}.")
    seed = _check_int(seed, "seed")
    if seed < 0:
        raise ValueError(f"seed must be 0 or a positive whole number, got {seed}.")
    return (
        _check_positive(games, "games"),
        _check_positive(turns, "turns"),
        _check_positive(players, "players"),
        seed,
    )


def _play(
    games: int, turns: int, players: int, seed: int, rules: Rules, per_game: bool, progress: bool
) -> list[np.ndarray]:
    """Play every chunk of games; return each chunk's tallies."""
    sizes = [min(CHUNK_GAMES, games - start) for start in range(0, games, CHUNK_GAMES)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    chunks = zip(sizes, seeds, strict=True)
    if progress:
        from tqdm.auto import tqdm

        chunks = tqdm(chunks, total=len(sizes), desc="chunks of games", unit="chunk")
    return [_play_chunk(size, turns, players, rules, s, per_game) for size, s in chunks]


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
    counts = sum(_play(games, turns, players, seed, rules, False, progress))
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
    return np.concatenate(_play(games, turns, players, seed, rules, True, False))
