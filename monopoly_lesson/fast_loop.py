"""The fast engine's loop, compiled with numba: games played one after another from tables.

:mod:`monopoly_lesson.fast` turns the rules into lookup tables; this module only plays
them. A roll is one table lookup: (row, dice) gives a situation, plus the face-up cards
gives an outcome, and the outcome gives the next row with flags (roll again, a Chance
card drawn, a Community Chest card drawn). Nothing about Monopoly is written here; the
packed format is :mod:`monopoly_lesson.fast_format`'s, compiled in as constants.

Random numbers come straight from a numpy bit generator, 64 bits at a time, through its
``ctypes`` interface (as numpy's documentation shows for numba), into a pool of bytes.
Dice and cards are drawn from the pool exactly uniformly (multiply-shift with rejection).
Compiled functions are cached on disk, so only the first run on a machine compiles them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .fast_format import (
    AGAIN,
    CARD_MASK,
    CHEST_BITS,
    DREW_CHANCE,
    DREW_CHEST,
    FORMAT,
    STATE_MASK,
)

POOL_BYTES = 4096  # a ring of random bytes, a power of two
RESERVE = 2048  # bytes kept ready before every turn


@njit(cache=True, inline="always")
def random_byte(pool, used):
    """The next byte of the ring ``pool``, ``used`` bytes in, and the new count used.

    The ring must hold it: play_games refills the ring and checks after every turn.
    """
    return np.int64(pool[np.uint64(used & (pool.size - 1))]), used + 1


@njit(cache=True, inline="always")
def below(limit, bits, threshold, pool, used):
    """A uniform whole number from 0 to ``limit - 1``, from ``bits`` (8 or 16) random bits.

    Lemire's multiply-shift: ``value * limit`` shifted right by ``bits`` is the number,
    and the few values whose low part falls below ``threshold`` (``2**bits % limit``)
    are drawn again, so every number is exactly equally likely. Returns it and ``used``.
    """
    mask = (1 << bits) - 1
    while True:
        value, used = random_byte(pool, used)
        if bits == 16:
            low, used = random_byte(pool, used)
            value = (value << 8) | low
        product = value * limit
        if (product & mask) >= threshold:
            return product >> bits, used


@njit(cache=True)
def shuffle(order, pool, used):
    """Shuffle ``order`` in place (Fisher-Yates: every order equally likely); return ``used``."""
    for last in range(order.size - 1, 0, -1):
        pick, used = below(last + 1, 8, 256 % (last + 1), pool, used)
        order[last], order[pick] = order[pick], order[last]
    return used


@njit(cache=True)
def deal(order, cursor, replace, pool, used):
    """The face-up card ``order[cursor]`` was drawn: the cursor of the next one, and ``used``.

    A used-up deck is shuffled afresh. With replacement the deck keeps one random card
    face up at ``order[0]``, replaced after every draw.
    """
    if replace:
        card, used = below(order.size, 8, 256 % order.size, pool, used)
        order[0] = card
        return 0, used
    if cursor + 1 < order.size:
        return cursor + 1, used
    return 0, shuffle(order, pool, used)


@njit(cache=True)
def new_deck(order, replace, pool, used):
    """A game's fresh deck, shuffled (or one random card face up): cursor 0, and ``used``."""
    for card in range(order.size):
        order[card] = card
    return deal(order, order.size - 1, replace, pool, used)  # as after a deck's last card


@njit(cache=True)
def new_game(state, chance, chest, replace, pool, used):
    """Tokens back on Go and fresh decks: both decks' cursors, and ``used``."""
    state[:] = 0
    at_chance, used = new_deck(chance, replace, pool, used)
    at_chest, used = new_deck(chest, replace, pool, used)
    return at_chance, at_chest, used


@njit(cache=True)
def play_games(
    games,
    turns,
    players,
    dice_codes,
    situation,
    next_state,
    chance,
    chest,
    replace,
    outcomes,
    tallies,
    per_game,
    fmt,
    next_word,
    bit_state,
):
    """Play ``games`` games; count each roll's outcome, or each game's tallies.

    ``situation``: (row * dice_codes + dice code) -> situation shifted past the card bits,
    with the card bits set where the face-up cards count. ``next_state``: outcome -> next
    row * dice_codes with its flags. ``fmt``: the format the tables were packed in, which
    must be the one compiled in. ``chance``, ``chest``: one deck
    each, reused game by game. ``outcomes`` counts outcomes, unless ``per_game`` has a
    row per game; then the ``tallies`` of each outcome (40 meaning none) go to its row.

    Random bits come from ``next_word(bit_state)``, a numpy bit generator's
    ``ctypes.next_uint64``. Only this function calls it (numba makes that call quick only
    in the function it was passed to): before every turn it tops up the ring of random
    bytes to hold at least RESERVE. A turn uses at most 126 bytes, plus redraws that each
    happen with a probability of at most 1/2, so the ring never runs dry in practice.
    """
    words = np.zeros(POOL_BYTES // 8, dtype=np.uint64)
    pool = words.view(np.uint8)
    # np.int64(0), not 0, here and for the decks' cursors: numba compiles a function once
    # more for each literal number it is passed.
    used = filled = np.int64(0)  # bytes of the ring used and filled so far
    bits = 8 if dice_codes <= 256 and 16 * (256 % dice_codes) <= 256 else 16
    threshold = (1 << bits) % dice_codes
    state = np.zeros(players, np.int64)
    counting_games = per_game.shape[0] > 0
    at_chance = at_chest = np.int64(0)
    for i in range(len(FORMAT)):  # numba's disk cache does not see fast_format.py change
        if fmt[i] != FORMAT[i]:
            raise RuntimeError("the compiled fast loop is out of date: delete its __pycache__")
    for game in range(games):
        for turn in range(turns):
            for player in range(players):
                if filled - used < RESERVE:  # refill the used part of the ring
                    while filled - used <= POOL_BYTES - 8:
                        words[(filled >> 3) % words.size] = next_word(bit_state)
                        filled += 8
                if turn == 0 and player == 0:
                    at_chance, at_chest, used = new_game(state, chance, chest, replace, pool, used)
                at = state[player]
                while True:
                    dice, used = below(dice_codes, bits, threshold, pool, used)
                    # Indices are made unsigned so that numba skips its negative-index checks.
                    entry = situation[np.uint64(at + dice)]
                    cards = chance[np.uint64(at_chance)] << CHEST_BITS | chest[np.uint64(at_chest)]
                    outcome = np.uint64((entry & ~CARD_MASK) | (entry & cards))
                    if counting_games:  # (written out here: a helper function is 4x slower)
                        for slot in range(tallies.shape[1]):
                            per_game[game, tallies[outcome, slot]] += 1
                    else:
                        outcomes[outcome] += 1
                    flagged = next_state[outcome]
                    if flagged & DREW_CHANCE:
                        at_chance, used = deal(chance, at_chance, replace, pool, used)
                    if flagged & DREW_CHEST:
                        at_chest, used = deal(chest, at_chest, replace, pool, used)
                    at = flagged & STATE_MASK
                    if not flagged & AGAIN:
                        break
                state[player] = at
                if used > filled:  # never seen: a turn used more than RESERVE bytes
                    raise RuntimeError("the fast engine ran out of random bytes in a turn")
