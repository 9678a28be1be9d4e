"""The fast whole game's own generator draws what numba's ``np.random`` draws.

Seeded games (mode 0) keep MT19937 in the game's state vector; a game seeded ``s`` must
roll, decide and shuffle exactly as it did with ``np.random.seed(s)``, or every seeded
game, run and shipped figure would change.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from monopoly_lesson.game import fast_loop as fl

DRAWS = 3000  # several twists of the 624 words


@njit
def _numba_draws(seed, kinds):  # type: ignore[no-untyped-def]
    """numba's np.random: for each kind a die face (0), a uniform (1) or a deck's
    permutation's first card (2)."""
    np.random.seed(seed)
    out = np.zeros(len(kinds))
    for i, kind in enumerate(kinds):
        if kind == 0:
            out[i] = np.random.randint(1, 7)
        elif kind == 1:
            out[i] = np.random.random()
        else:
            out[i] = np.random.permutation(fl.DECK_CARDS)[0] + 1
    return out


@njit
def _game_draws(seed, kinds):  # type: ignore[no-untyped-def]
    """The same draws from a seeded game's generator (the permutation from a shuffle of
    deck 0 with no card held: the pile, whose next card is the last)."""
    s = fl.new_game(4, 0, np.zeros(1, np.int64), np.zeros(3, np.int64))
    fl.seed_generator(s, seed)
    f = np.zeros(1)
    out = np.zeros(len(kinds))
    for i, kind in enumerate(kinds):
        if kind == 0:
            out[i] = fl.roll_die(s)
        elif kind == 1:
            out[i] = fl.uniform(s, f, 0)
        else:
            fl.shuffle(s, 0)
            out[i] = s[fl.PILE]
    return out


@pytest.mark.parametrize("seed", [0, 1, 2026, 123_456_789, 2**32 - 1])
def test_the_game_generator_draws_numbas_numbers(seed: int) -> None:
    kinds = np.random.default_rng(seed).integers(0, 3, size=DRAWS)
    assert np.array_equal(_game_draws(seed, kinds), _numba_draws(seed, kinds))


def test_a_shuffle_is_numbas_permutation_without_the_held_cards() -> None:
    @njit
    def both(seed):  # type: ignore[no-untyped-def]
        s = fl.new_game(4, 0, np.zeros(1, np.int64), np.zeros(3, np.int64))
        s[fl.HELD + (fl.DECK_CARDS + 1) + 5] = 1  # card 5 of deck 1 is held
        fl.seed_generator(s, seed)
        fl.shuffle(s, 1)
        np.random.seed(seed)
        return (
            s[fl.PILE + fl.DECK_CARDS : fl.PILE + 2 * fl.DECK_CARDS],
            s[fl.PLEN + 1],
            (np.random.permutation(fl.DECK_CARDS) + 1),
        )

    pile, length, permutation = both(7)
    assert length == fl.DECK_CARDS - 1
    assert list(pile[:length]) == [card for card in permutation if card != 5]
