"""The packed format of the fast engine's lookup tables, written once.

:mod:`monopoly_lesson.fast` packs the roll table in this format and
:mod:`monopoly_lesson.fast_loop` reads it; numba compiles these numbers into the loop as
constants. An outcome is ``situation << CARD_BITS | cards``, the face-up cards packed as
``chance << CHEST_BITS | chest``; a next state is ``row * dice codes`` with the flags above.
"""

from __future__ import annotations

CHEST_BITS = 4  # a Community Chest card number fits below the Chance card's bits
CARD_BITS = 2 * CHEST_BITS
CARD_SLOTS = 1 << CHEST_BITS  # cards a deck may have
CARD_MASK = (1 << CARD_BITS) - 1
AGAIN = 1 << 24  # the player rolls again from the next state
DREW_CHANCE = AGAIN << 1  # the roll drew a Chance card
DREW_CHEST = AGAIN << 2  # the roll drew a Community Chest card
STATE_MASK = AGAIN - 1
FORMAT = (CHEST_BITS, AGAIN, DREW_CHANCE, DREW_CHEST)
"""The numbers the compiled loop checks it was compiled with (its disk cache would not
notice a change made here)."""
