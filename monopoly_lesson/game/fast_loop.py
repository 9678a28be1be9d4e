# ruff: noqa: SIM102, SIM109  (numba compiles plain loops and comparisons, not generators)
"""The fast whole game: the reference engine's money rules, played by numba.

Movement is not written here: every roll plays the events that the game roll table
(:mod:`monopoly_lesson.game.roll_table`) recorded from the movement rules, and this module
adds the money at each event as the reference engine does (:mod:`monopoly_lesson.game.engine`
and the modules it calls), from the same data tables. A game's state is one int64
vector ``s`` with named slots (below), so a game is cheap to start, copy and compare.

Strategies are codes (always, never, random:P, heuristic, and the chromosome players
with their genes); they decide as :mod:`monopoly_lesson.game.strategies` and
:mod:`monopoly_lesson.game.chromosomes` do, drawing uniform numbers in the same order. Random
draws come from pre-drawn streams (to be compared with the reference engine), or from
the game's own generator, seeded per game (for speed: numba's ``np.random`` draws, kept in
the state).

The rules played every turn are inlined: a call between compiled functions costs more than
most of them do. The short ones are inlined by numba (``inline="always"``), which copies
them into each caller before compiling it; the long ones (an auction, the end of a turn,
trading, the next building) are compiled once and inlined by LLVM (``forceinline=True``):
numba's copying grows with the square of a function's length, and made compiling the game
take minutes. (A function first compiled for a ``forceinline`` one would be inlined too,
everywhere, unless it says ``forceinline=False``: :func:`twist`.) Debts that a player's
cash does not cover are rare, and called. Each function is compiled once: numba compiles
one more version for every literal number a function is passed, so such calls pass
``np.int64(...)``. For the same reason as the inlining, each player's lots and complete
groups, the mortgaged lots and the groups with buildings are kept as bits too (OWNED,
COMPLETE, MORTGAGED, BUILT: :func:`set_owner`, :func:`set_mortgaged`, :func:`build`,
:func:`sell_building`), and a game's arrays are passed on uncounted (:func:`uncounted`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.core import cgutils
from numba.extending import intrinsic, overload

from ..roll_table import STATES
from ..starter import NUM_SPACES
from .card_effects import chance_effects, community_effects
from .chromosomes import BGA as BGA_PLAYER
from .chromosomes import (
    BID_GROUPS,
    BID_SCALE,
    BUY_SHAPE,
    NORTH_STREETS,
    RESERVE_SCALE,
    TRADE_ROWS,
    TRADE_SCALE,
    WEST_STREETS,
)
from .chromosomes import EGA as EGA_PLAYER
from .chromosomes import RGA as RGA_PLAYER
from .chromosomes import TGA as TGA_PLAYER
from .dealer import KEEP as DEALER_KEEP
from .dealer import LEAVE_JAIL_WHILE_UNOWNED as DEALER_LEAVE
from .engine import GAME_MOVEMENT, JAIL_FEE, SALARY
from .lots import GROUPS, HOTELS, HOUSES, TAXES
from .money_tables import (
    BASE,
    DEALER_BID,
    FAIR_SWAP,
    GROUP_SIZE,
    HEURISTIC_BUY,
    INTEREST,
    LIFT_COST,
    LOT_DOES,
    OWNERSHIP_STATE,
    RENT,
    SALE_PRICE,
)
from .roll_table import JAIL_CHOICES
from .state import (
    GROUP_SPACES,
    HOTEL,
    HOUSE_COST,
    MAX_PLAYERS,
    MORTGAGE,
    PRICE,
    STARTING_CASH,
)
from .state import (
    STREET_GROUPS as STREET_GROUP_NAMES,
)
from .strategies import BUILD_ORDER, RESERVE, UNOWNED_TO_LEAVE_JAIL
from .trading import MAX_PROPOSALS

# -- the data, as arrays indexed by space (1..40) or group ---------------------------
SPACES = NUM_SPACES + 1  # indexed by space (slot 0 unused)
DECKS, DECK_CARDS = 2, len(chance_effects)  # Chance and Community Chest, 16 cards each
assert len(community_effects) == DECK_CARDS
HELD_CODE = 2 * DECK_CARDS
"""A held Get Out of Jail Free card is written as deck x HELD_CODE + card."""
SIDES = GAME_MOVEMENT.dice_sides
GROUP_NAMES = list(GROUPS)
GROUP_ID = np.full(SPACES, -1, np.int64)
GSPACES = np.zeros((len(GROUPS), GROUP_SIZE), np.int64)
GSIZE = np.zeros(len(GROUPS), np.int64)
for _g, _name in enumerate(GROUP_NAMES):
    GSIZE[_g] = len(GROUP_SPACES[_name])
    for _k, _space in enumerate(GROUP_SPACES[_name]):
        GSPACES[_g, _k] = _space
        GROUP_ID[_space] = _g
GROUP_BITS = np.array([sum(1 << space for space in GROUP_SPACES[n]) for n in GROUP_NAMES])
"""Each group's spaces as the bits of a number (bit ``space``), as OWNED holds them."""
STREET_GROUPS = np.array([g for g, n in enumerate(GROUP_NAMES) if GROUPS[n][1] > 0], np.int64)
IS_STREET_GROUP = np.array([GROUPS[n][1] > 0 for n in GROUP_NAMES])
RAILROAD, UTILITY = GROUP_NAMES.index("railroad"), GROUP_NAMES.index("utility")
ORANGE = GROUP_NAMES.index("orange")
TGA_WEST = np.array([GROUP_NAMES.index("purple"), ORANGE], np.int64)
TGA_NORTH = np.array([GROUP_NAMES.index("red"), GROUP_NAMES.index("yellow")], np.int64)
BUILD_GROUPS = np.array([GROUP_NAMES.index(g) for g in BUILD_ORDER], np.int64)
PRICE_A = np.zeros(SPACES, np.int64)
MORT_A = np.zeros(SPACES, np.int64)
COST_A = np.zeros(SPACES, np.int64)
TAX_A = np.zeros(SPACES, np.int64)
for _space in PRICE:
    PRICE_A[_space], MORT_A[_space] = PRICE[_space], MORTGAGE[_space]
    COST_A[_space] = HOUSE_COST[_space]
for _space, (_, _amount) in TAXES.items():
    TAX_A[_space] = _amount
LOTS = np.array(sorted(PRICE), np.int64)
CHEAPEST_BUILDING = np.array(
    [
        min([int(COST_A[GSPACES[g, 0]]) for g in STREET_GROUPS if groups >> g & 1] or [0])
        for groups in range(1 << len(GROUPS))
    ],
    np.int64,
)
"""For each set of complete groups (bit g), the cheapest building on any of them."""
LOTS_BY_PRICE = np.array(sorted(PRICE, key=lambda s: (PRICE[s], s)), np.int64)
WEST = np.array(WEST_STREETS, np.int64)
NORTH = np.array(NORTH_STREETS, np.int64)
COLLECT, PAY, COLLECT_FROM_EACH, PAY_EACH, REPAIRS, KEEP = range(1, 7)
"""The money effects of the cards table, as codes (0: a card that only moves)."""
EFFECT_CODES = {
    "collect": COLLECT,
    "pay": PAY,
    "collect_from_each": COLLECT_FROM_EACH,
    "pay_each": PAY_EACH,
    "repairs": REPAIRS,
    "keep": KEEP,
}
EFFECT, AMOUNT, PER_HOUSE, PER_HOTEL = range(4)
"""The fields of a card's row in CARD."""
CARD = np.zeros((2, len(chance_effects) + 1, PER_HOTEL + 1), np.int64)  # deck, card (from 1)
for _d, _table in enumerate((chance_effects, community_effects)):
    for _row in _table.itertuples():
        CARD[_d, _row.index] = (
            EFFECT_CODES.get(_row.effect, 0),
            _row.amount,
            _row.per_house,
            _row.per_hotel,
        )
del _g, _name, _k, _space, _amount, _d, _table, _row
ALWAYS, NEVER, RANDOM, HEURISTIC, RGA, TGA, PASSIVE, EGA, DEALER, BGA = range(10)
"""Strategy codes (SGA plays as TGA, its genes read as n/63)."""
BUY_GENES = BUY_SHAPE[0] * BUY_SHAPE[1]
"""A chromosome player's buy genes come first in its genes: ownership state x space."""
JAIL_SIDE = np.zeros(BGA + 1, np.int64)
"""The side of each code's square of jail genes (after its buy genes): RGA, EGA, BGA 64,
TGA 4."""
JAIL_SIDE[RGA], JAIL_SIDE[TGA] = RGA_PLAYER.JAIL_SHAPE[0], TGA_PLAYER.JAIL_SHAPE[0]
JAIL_SIDE[EGA], JAIL_SIDE[BGA] = EGA_PLAYER.JAIL_SHAPE[0], BGA_PLAYER.JAIL_SHAPE[0]
_EGA_AT = np.cumsum([0] + [rows * columns for rows, columns in EGA_PLAYER.gene_tables().values()])
EGA_BID_AT, EGA_RESERVE_AT, EGA_TRADE_AT = (int(_EGA_AT[k]) for k in range(2, 5))
"""Where EGA's bid, reserve and trade genes start in its genes (after buy and jail)."""
assert list(EGA_PLAYER.gene_tables()) == ["buy", "jail", "bid", "reserve", "trade"]
_BGA_AT = np.cumsum([0] + [rows * columns for rows, columns in BGA_PLAYER.gene_tables().values()])
BGA_VALUE_AT, BGA_BUILD_AT, BGA_ASK_AT, BGA_WORTH_AT = (int(_BGA_AT[k]) for k in range(5, 9))
"""Where BGA's value, build, ask and worth genes start in its genes (after EGA's)."""
assert list(BGA_PLAYER.gene_tables())[:5] == list(EGA_PLAYER.gene_tables())
assert list(BGA_PLAYER.gene_tables())[5:] == ["value", "build", "ask", "worth"]
assert BUY_GENES + JAIL_SIDE[EGA] ** 2 == EGA_BID_AT and list(BID_GROUPS) == GROUP_NAMES
BID_COLUMNS, TRADE_COLUMNS = len(BID_GROUPS), len(STREET_GROUP_NAMES)
TRADE_PAY, TRADE_KEEP = TRADE_ROWS.index("pay"), TRADE_ROWS.index("keep")
TRADE_COLUMN = np.array(
    [STREET_GROUP_NAMES.index(n) if n in STREET_GROUP_NAMES else -1 for n in GROUP_NAMES], np.int64
)
"""The column of EGA's trade genes for each group (-1: railroads and utilities)."""
GENE_WIDTHS = np.array(
    [0, 0, 1, 0, *(BUY_GENES + JAIL_SIDE[[RGA, TGA]] ** 2), 1, _EGA_AT[-1], 0, _BGA_AT[-1]],
    np.int64,
)
"""The genes each code reads: random:P its P, RGA and TGA their buy then jail genes, EGA
its buy, jail, bid, reserve and trade genes (as probabilities: the loop reads the dollars
from them as :class:`~monopoly_lesson.game.chromosomes.EGA` does); the dealer none; BGA
EGA's, then its value, build, ask and worth genes."""

# -- the slots of a game's state vector ------------------------------------------------
MAXP = MAX_PLAYERS
_taken = [0]


def _slots(count: int) -> int:
    """The first of ``count`` state slots, after those handed out before (in order)."""
    first = _taken[0]
    _taken[0] += count
    return first


CASH, ST, ALIVE = _slots(MAXP), _slots(MAXP), _slots(MAXP)  # cash, roll state, in the game
OWNER, MORT, BLD = _slots(SPACES), _slots(SPACES), _slots(SPACES)  # owner (-1 bank), ...
HOUSES_LEFT, HOTELS_LEFT = _slots(1), _slots(1)  # the bank's
NCARDS, CARDS = _slots(MAXP), _slots(DECKS * MAXP)  # Get Out of Jail Free cards: one a deck
PILE, PLEN = _slots(DECKS * DECK_CARDS), _slots(DECKS)  # each deck's pile (next card last)
HELD = _slots(DECKS * (DECK_CARDS + 1))  # per deck and card 1..16: held by a player
FACE_PTR, SHUF_PTR, UNI_PTR = _slots(1), _slots(DECKS), _slots(MAXP)  # stream positions
GONE, NGONE, BROUND = _slots(MAXP), _slots(1), _slots(MAXP)  # bankrupt seats, their rounds
LAST_ROLL, ROUND, NPLAYERS, MODE, ERROR = (_slots(1) for _ in range(5))
KIND, GENE_AT = _slots(MAXP), _slots(MAXP)  # per player: strategy code, where its genes start
FACES_AT, NFACES, SHUF_AT, NSHUF, UNI_AT, NUNI = (_slots(1) for _ in range(6))  # streams
TURNS = _slots(1)  # turns played in the game, all players together
TRADING, TRADES = _slots(1), _slots(1)  # 1 if the game trades; the trades made
OWNED, MORTGAGED = _slots(MAXP), _slots(1)  # OWNER and MORT again, as bits (see set_owner)
COMPLETE = _slots(MAXP)  # per player: the complete groups it holds, as bits (bit g)
LAST_MISSING = _slots(MAXP)  # per player: the lots each the only one of a group it lacks
BUILT = _slots(1)  # the lots of the groups with a building on any of their lots, as bits
FIRST = _slots(1)  # the seat (from 0) whose turn starts the first round played (ROUND's)
SIZE = _slots(0)
assert CASH == 0 and HELD + DECKS * (DECK_CARDS + 1) == FACE_PTR and BROUND + MAXP == LAST_ROLL
HOUSES_PER_HOTEL = HOTEL - 1
"""A hotel stands for 4 houses: building one gives them back, selling one takes them."""
# A game's results: SEAT_RESULTS numbers per seat (each a block of n), then GAME_RESULTS.
R_FINISH, R_LOTS, R_MONOPOLIES, R_NET_WORTH, R_CASH, R_BANKRUPT_ROUND = range(6)
SEAT_RESULTS = R_BANKRUPT_ROUND + 1
R_ROUNDS, R_EARLY, R_EXHAUSTED, R_TURNS, R_TRADES = range(5)
GAME_RESULTS = R_TRADES + 1

# The movement tables, packed into one small int32 array ``m`` (fast.pack_movement), so
# that a roll reads them from the cache: a header of sizes and offsets, then the dice
# classes, each leaf's first event (by cards drawn, then roll), the events and the
# jail-choice flags.
M_CLASSES, M_ROLLS, M_DICE, M_LEAF, M_EVENTS, M_ASKS = range(6)
M_HEADER = M_ASKS + 1
EVENT_BITS = 8
"""An event is one word of ``m``: its code, then its three arguments, 8 bits each."""
EVENT_MASK = (1 << EVENT_BITS) - 1
BANK = -1


# ---------------------------------------------------------------------------
# Arrays passed uncounted
# ---------------------------------------------------------------------------


def uncounted(array):
    """``array`` itself; compiled, the same array without a reference count, which numba
    then never counts: a game passes its state, genes and movement to each rule it plays,
    and each count is an atomic add (a fifth of a game's time). Only for an array that
    its caller keeps meanwhile (play_game's are play_many's)."""
    return array


@overload(uncounted)
def _uncounted_compiled(array):  # pragma: no cover  (numba runs it while compiling)
    """Compiled, :func:`uncounted` is :func:`_without_count`."""
    return lambda array: _without_count(array)


@intrinsic
def _without_count(typingctx, array):  # pragma: no cover  (numba runs it while compiling)
    """The array's fields with no meminfo, the block numba counts references in."""

    def codegen(context, builder, signature, args):
        """The machine code: a copy of the array's fields, its meminfo null."""
        value = context.make_array(array)(context, builder, value=args[0])
        value.meminfo = cgutils.get_null_value(value.meminfo.type)
        return value._getvalue()

    return array(array), codegen


# ---------------------------------------------------------------------------
# Random draws: streams (mode 1) or the game's own generator (mode 0)
# ---------------------------------------------------------------------------

MT_WORDS, MT_SHIFT = 624, 397
"""MT19937's state words and twist offset. In mode 0 the game's generator lives in its
state vector after the slots (at SIZE: the words, the next word's index, then room for a
deck's permutation), seeded per game: the draws numba's ``np.random`` makes after
``np.random.seed(seed)``, found without looking up a thread's generator at each draw
(tests/test_fast_generator.py compares them)."""


SEED_BLOCK = 8
"""Games whose generators are seeded together: their 624-step chains side by side, which
the processor steps at once (one chain alone waits on each of its steps)."""


@njit(cache=True)
def seed_words(seeds, words):
    """MT19937's first words for each of ``seeds`` as ``np.random.seed`` makes them (Knuth's
    initialisation): word ``i`` of ``seeds[j]`` in ``words[i, j]``."""
    for j in range(seeds.size):
        words[0, j] = seeds[j] & 0xFFFFFFFF
    for i in range(1, MT_WORDS):
        for j in range(seeds.size):
            word = words[i - 1, j]
            words[i, j] = (1812433253 * (word ^ (word >> 30)) + i) & 0xFFFFFFFF


@njit(cache=True, inline="always")
def start_generator(s, words, j):
    """The game's generator from column ``j`` of :func:`seed_words`' words."""
    for i in range(MT_WORDS):
        s[SIZE + i] = words[i, j]
    s[SIZE + MT_WORDS] = MT_WORDS


@njit(cache=True)
def seed_generator(s, seed):
    """Seed the game's generator as ``np.random.seed(seed)`` does."""
    words = np.empty((MT_WORDS, 1), np.int64)
    seed_words(np.array([seed], np.int64), words)
    start_generator(s, words, 0)


@njit(cache=True, forceinline=False)  # said, else an auction's draws inline it
def twist(s):
    """MT19937's next 624 state words, all at once (in three runs without a branch)."""
    mt = s[SIZE : SIZE + MT_WORDS]
    high, low, odd = 0x80000000, 0x7FFFFFFF, 0x9908B0DF
    for k in range(MT_WORDS - MT_SHIFT):
        y = (mt[k] & high) | (mt[k + 1] & low)
        mt[k] = mt[k + MT_SHIFT] ^ (y >> 1) ^ ((y & 1) * odd)
    for k in range(MT_WORDS - MT_SHIFT, MT_WORDS - 1):
        y = (mt[k] & high) | (mt[k + 1] & low)
        mt[k] = mt[k + MT_SHIFT - MT_WORDS] ^ (y >> 1) ^ ((y & 1) * odd)
    y = (mt[MT_WORDS - 1] & high) | (mt[0] & low)
    mt[MT_WORDS - 1] = mt[MT_SHIFT - 1] ^ (y >> 1) ^ ((y & 1) * odd)
    s[SIZE + MT_WORDS] = 0


@njit(cache=True, inline="always")
def next_word(s):
    """The generator's next 32-bit word."""
    if s[SIZE + MT_WORDS] >= MT_WORDS:
        twist(s)
    k = s[SIZE + MT_WORDS]
    s[SIZE + MT_WORDS] = k + 1
    word = s[SIZE + k]
    word ^= word >> 11
    word ^= (word << 7) & 0x9D2C5680
    word ^= (word << 15) & 0xEFC60000
    return word ^ (word >> 18)


@njit(cache=True, inline="always")
def below(s, n):
    """A whole number from 0 to ``n`` - 1 (``n`` from 2) as ``np.random.randint(0, n)``:
    the next word's low bits, as many as ``n`` - 1 has, drawn again while too large."""
    mask = n - 1
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    while True:
        value = next_word(s) & mask
        if value < n:
            return value


@njit(cache=True, inline="always")
def roll_die(s):
    """One die face: the stream's next, or the generator's."""
    if s[MODE] == 0:
        return below(s, SIDES) + 1
    i = s[FACE_PTR]
    if i >= s[NFACES]:
        s[ERROR] = 1
        return 1
    s[FACE_PTR] = i + 1
    return s[s[FACES_AT] + i]


@njit(cache=True, inline="always")
def uniform(s, f, p):
    """Player ``p``'s next decision draw (from the generator: ``np.random.random()``, 53
    bits from two words)."""
    if s[MODE] == 0:
        high, low = next_word(s) >> 5, next_word(s) >> 6
        return (high * 67108864.0 + low) / 9007199254740992.0
    i = s[UNI_PTR + p]
    if i >= s[NUNI]:
        s[ERROR] = 1
        return 0.0
    s[UNI_PTR + p] = i + 1
    return f[s[UNI_AT] + p * s[NUNI] + i]


@njit(cache=True)
def shuffle(s, d):
    """Shuffle deck ``d`` without its held cards (as CardDeck.shuffle): the generator's
    ``np.random.permutation`` of the whole deck, played on the pile, or the stream's."""
    if s[MODE] == 0:
        at = SIZE + MT_WORDS + 1  # the permutation's place, after the generator
        for k in range(DECK_CARDS):
            s[at + k] = k + 1
        for i in range(DECK_CARDS - 1, 0, -1):  # as numba's np.random.shuffle
            j = below(s, i + 1)
            s[at + i], s[at + j] = s[at + j], s[at + i]
        perm = s[at : at + DECK_CARDS]
    else:
        i = s[SHUF_PTR + d]
        if i >= s[NSHUF]:
            s[ERROR] = 1
            i = 0
        s[SHUF_PTR + d] = i + 1
        at = s[SHUF_AT] + (d * s[NSHUF] + i) * DECK_CARDS
        perm = s[at : at + DECK_CARDS]
    n = 0
    for card in perm:
        if s[HELD + (DECK_CARDS + 1) * d + card] == 0:
            s[PILE + DECK_CARDS * d + n] = card
            n += 1
    s[PLEN + d] = n


@njit(cache=True, inline="always")
def deal(s, d):
    """The next card of deck ``d`` (reshuffled when used up)."""
    if s[PLEN + d] == 0:
        shuffle(s, d)
    n = s[PLEN + d] - 1
    s[PLEN + d] = n
    return s[PILE + DECK_CARDS * d + n]


@njit(cache=True)
def put_back(s, d, card):
    """A held card goes to the bottom of its deck (a used-up deck is shuffled first)."""
    if s[PLEN + d] == 0:
        shuffle(s, d)
    s[HELD + (DECK_CARDS + 1) * d + card] = 0
    n = s[PLEN + d]
    for i in range(n, 0, -1):
        s[PILE + DECK_CARDS * d + i] = s[PILE + DECK_CARDS * d + i - 1]
    s[PILE + DECK_CARDS * d] = card
    s[PLEN + d] = n + 1


# ---------------------------------------------------------------------------
# Who owns what
# ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def set_owner(s, space, owner):
    """Give ``space`` to ``owner`` (-1 the bank), keeping the owners' bits (OWNED) in step:
    bit ``space`` of ``s[OWNED + p]`` is set when ``p`` owns it, so that the questions asked
    every turn (what ``p`` owns, its complete groups, its mortgages, the lots a completion
    swap could give it: LAST_MISSING) take no pass over the board."""
    before, g = s[OWNER + space], GROUP_ID[space]
    if before != BANK:
        s[OWNED + before] &= ~(np.int64(1) << space)
        s[COMPLETE + before] &= ~(np.int64(1) << g)
        if IS_STREET_GROUP[g]:
            recount_missing(s, before, g)
    if owner != BANK:
        s[OWNED + owner] |= np.int64(1) << space
        if IS_STREET_GROUP[g]:
            if s[OWNED + owner] & GROUP_BITS[g] == GROUP_BITS[g]:
                s[COMPLETE + owner] |= np.int64(1) << g
            recount_missing(s, owner, g)
    s[OWNER + space] = owner


@njit(cache=True, inline="always")
def recount_missing(s, p, g):
    """Keep LAST_MISSING of ``p`` in step for colour group ``g``: its one lot ``p`` lacks
    there, if it lacks just one."""
    missing = GROUP_BITS[g] & ~s[OWNED + p]
    kept = s[LAST_MISSING + p] & ~GROUP_BITS[g]
    s[LAST_MISSING + p] = kept | missing if missing & (missing - 1) == 0 else kept


@njit(cache=True, inline="always")
def set_mortgaged(s, space, mortgaged):
    """Mortgage ``space`` (1) or lift its mortgage (0), keeping the bits of the mortgaged
    spaces (MORTGAGED) in step."""
    bit = np.int64(1) << space
    s[MORTGAGED] = s[MORTGAGED] | bit if mortgaged else s[MORTGAGED] & ~bit
    s[MORT + space] = mortgaged


@njit(cache=True)
def recount_bits(s):
    """Set OWNED, MORTGAGED, COMPLETE, LAST_MISSING and BUILT from OWNER, MORT and BLD: for a
    state whose lots were written directly (a scenario's, a test's), before the loop plays it."""
    s[MORTGAGED], s[BUILT] = 0, 0
    for p in range(MAXP):
        s[OWNED + p], s[COMPLETE + p] = 0, 0
    for space in LOTS:
        if s[OWNER + space] != BANK:
            s[OWNED + s[OWNER + space]] |= np.int64(1) << space
        if s[MORT + space]:
            s[MORTGAGED] |= np.int64(1) << space
        if s[BLD + space]:
            s[BUILT] |= GROUP_BITS[GROUP_ID[space]]
    for p in range(MAXP):
        s[LAST_MISSING + p] = 0
        for g in STREET_GROUPS:
            if s[OWNED + p] & GROUP_BITS[g] == GROUP_BITS[g]:
                s[COMPLETE + p] |= np.int64(1) << g
            recount_missing(s, p, g)


@njit(cache=True, inline="always")
def bit_count(bits):
    """How many bits of ``bits`` (a set of spaces, under 2**63) are set."""
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F  # each byte's count, added up:
    bits += bits >> 8
    bits += bits >> 16
    bits += bits >> 32
    return bits & 0x7F


@njit(cache=True, inline="always")
def holds_complete_group(s, p, g):
    """Whether group ``g`` is a complete group of player ``p``'s: a colour group of streets
    every lot of which it owns (GameState.holds_complete_group). Never railroads, utilities."""
    return s[COMPLETE + p] >> g & 1 == 1


@njit(cache=True, inline="always")
def levels(s, g):
    """The fewest and the most buildings on the lots of group ``g``."""
    low, high = HOTEL, 0
    for k in range(GSIZE[g]):
        b = s[BLD + GSPACES[g, k]]
        low, high = min(low, b), max(high, b)
    return low, high


@njit(cache=True, inline="always")
def any_mortgaged(s, g):
    """Whether a lot of group ``g`` is mortgaged."""
    return s[MORTGAGED] & GROUP_BITS[g] != 0


@njit(cache=True)
def net_worth(s, p):
    """Cash, plus each lot's price (mortgage value if mortgaged), plus buildings at cost."""
    worth, owned = s[CASH + p], s[OWNED + p]
    for space in LOTS:
        if owned >> space & 1:
            worth += MORT_A[space] if s[MORT + space] else PRICE_A[space]
            worth += s[BLD + space] * COST_A[space]
    return worth


@njit(cache=True)
def count_lots(s, p):
    """How many lots ``p`` owns."""
    return bit_count(s[OWNED + p])


@njit(cache=True)
def count_monopolies(s, p):
    """How many complete groups ``p`` holds."""
    return bit_count(s[COMPLETE + p])


@njit(cache=True, inline="always")
def transfer(s, payer, payee, amount):
    """Move ``amount`` from ``payer`` to ``payee`` (-1 is the bank)."""
    if amount <= 0:
        return
    if payer != BANK:
        s[CASH + payer] -= amount
    if payee != BANK:
        s[CASH + payee] += amount


# ---------------------------------------------------------------------------
# Buildings and mortgages (buildings.py), and the default build and lift (strategies.py)
# ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def can_build(s, p, space):
    """Whether ``p`` may put its next building on ``space`` now (why_not_build is None), a lot
    with the fewest buildings, short of a hotel, of an unmortgaged complete group of ``p``'s
    (default_build, the only caller, checks those first): the bank has one, ``p`` the cash."""
    b = s[BLD + space]
    if (b == HOTEL - 1 and s[HOTELS_LEFT] == 0) or (b < HOTEL - 1 and s[HOUSES_LEFT] == 0):
        return False
    return s[CASH + p] >= COST_A[space]


@njit(cache=True, inline="always")
def build(s, p, space):
    """Buy the next building on ``space``; a hotel gives back 4 houses."""
    transfer(s, p, BANK, COST_A[space])
    s[BLD + space] += 1
    s[BUILT] |= GROUP_BITS[GROUP_ID[space]]
    if s[BLD + space] == HOTEL:
        s[HOTELS_LEFT] -= 1
        s[HOUSES_LEFT] += HOUSES_PER_HOTEL
    else:
        s[HOUSES_LEFT] -= 1


@njit(cache=True, inline="always")
def default_build(s, p, reserve):
    """The next building in the build order if it keeps ``reserve`` in hand, else 0."""
    complete = s[COMPLETE + p]
    if complete == 0 or s[CASH + p] - CHEAPEST_BUILDING[complete] < reserve:
        return 0  # most turns: no complete group, or no building it could afford
    for g in BUILD_GROUPS:
        if not complete >> g & 1:
            continue
        fewest = levels(s, g)[0]  # only a lot with the fewest buildings may have the next
        if fewest == HOTEL or any_mortgaged(s, g):  # no lot of it may have one (can_build)
            continue
        for k in range(GSIZE[g]):  # in board order
            space = GSPACES[g, k]
            if s[BLD + space] == fewest and can_build(s, p, space):
                return space if s[CASH + p] - COST_A[space] >= reserve else 0
    return 0


@njit(cache=True, forceinline=True)
def next_building(s, p, kind, reserve, level):
    """The next building ``p`` puts up (0: none): the dealer's, BGA's, or the default's."""
    if kind == DEALER:
        return dealer_build(s, p)
    if kind == BGA:
        return bga_build(s, p, reserve, level)
    return default_build(s, p, reserve)


@njit(cache=True, inline="always")
def least_built(s, p, level):
    """The least built lot ``p`` may build on among its groups whose lots have fewer than
    ``level`` buildings (then the cheapest building, then the first space), or 0: where
    BGA and the dealer build (evenly across all their groups)."""
    complete, best, best_key = s[COMPLETE + p], 0, 0
    for g in STREET_GROUPS:
        if not complete >> g & 1:
            continue
        fewest = levels(s, g)[0]  # only a lot with the fewest buildings may have the next
        if fewest >= level or any_mortgaged(s, g):
            continue
        for k in range(GSIZE[g]):
            space = GSPACES[g, k]
            key = (fewest * 1000 + COST_A[space]) * SPACES + space  # (buildings, cost, space)
            if s[BLD + space] != fewest or (best and key >= best_key):
                continue
            if can_build(s, p, space):
                best, best_key = space, key
    return best


@njit(cache=True, inline="always")
def bga_build(s, p, reserve, level):
    """BGA.build: the least built lot of its groups that has fewer than ``level`` buildings,
    if it keeps ``reserve``; with no such lot, the default build."""
    if s[COMPLETE + p] == 0:
        return 0
    best = least_built(s, p, level)
    if best == 0:
        return default_build(s, p, reserve)
    return best if s[CASH + p] - COST_A[best] >= reserve else 0


@njit(cache=True, inline="always")
def dealer_build(s, p):
    """Dealer.build: the least built lot it may build on across its groups, if it leaves
    DEALER_KEEP in hand, else 0."""
    complete = s[COMPLETE + p]
    if complete == 0 or s[CASH + p] - CHEAPEST_BUILDING[complete] < DEALER_KEEP:
        return 0  # most turns: no complete group, or no building it could afford
    best = least_built(s, p, HOTEL)
    return best if best and s[CASH + p] - COST_A[best] >= DEALER_KEEP else 0


@njit(cache=True, inline="always")
def lift_cost(space):
    """The mortgage value plus the interest (buildings.lift_cost, as a table)."""
    return LIFT_COST[space]


@njit(cache=True, inline="always")
def default_lift(s, p):
    """The next mortgage to lift (complete groups, railroads, utilities, others) or 0."""
    held = s[OWNED + p] & s[MORTGAGED]  # p's mortgaged lots (most turns have none)
    if held == 0:
        return 0
    best, best_rank = 0, 9
    for space in LOTS:
        if not held >> space & 1:
            continue
        g = GROUP_ID[space]
        if holds_complete_group(s, p, g):
            rank = 0
        else:
            rank = 1 if g == RAILROAD else 2 if g == UTILITY else 3
        if rank < best_rank:
            best, best_rank = space, rank
    if best and s[CASH + p] - lift_cost(best) >= RESERVE:
        return best
    return 0


@njit(cache=True, forceinline=True)
def end_of_turn(s, f, p):
    """Build, then lift mortgages, as the defaults say (a passive player does neither; EGA
    builds keeping its own reserve, BGA evenly across its groups first, the dealer as it
    builds)."""
    if s[KIND + p] == PASSIVE:
        return
    kind, reserve, level = s[KIND + p], np.int64(RESERVE), np.int64(0)  # (one compiled version)
    if kind == EGA or kind == BGA:  # round(gene * RESERVE_SCALE), as EGA.reserve
        reserve = np.int64(np.rint(f[s[GENE_AT + p] + EGA_RESERVE_AT] * RESERVE_SCALE))
    if kind == BGA:  # round(gene * HOTEL), as BGA.build_to
        level = np.int64(np.rint(f[s[GENE_AT + p] + BGA_BUILD_AT] * HOTEL))
    while True:
        space = next_building(s, p, kind, reserve, level)
        if not space:
            break
        build(s, p, space)
    while True:
        space = default_lift(s, p)
        if not space:
            break
        transfer(s, p, BANK, lift_cost(space))
        set_mortgaged(s, space, 0)


@njit(cache=True, inline="always")
def can_sell(s, p, space):
    """Whether ``p`` may sell a building from ``space`` (evenly: from the most built)."""
    b = s[BLD + space]
    return s[OWNER + space] == p and b > 0 and b == levels(s, GROUP_ID[space])[1]


@njit(cache=True)
def sell_building(s, p, space):
    """Half the cost back; a hotel goes back to 4 houses, or whole if the bank lacks them."""
    b, sold = s[BLD + space], 1
    if b == HOTEL and s[HOUSES_LEFT] < HOUSES_PER_HOTEL:
        sold = HOTEL  # the hotel and the houses it stands for
    elif b == HOTEL:
        s[HOUSES_LEFT] -= HOUSES_PER_HOTEL
    if b == HOTEL:
        s[HOTELS_LEFT] += 1
    else:
        s[HOUSES_LEFT] += 1
    s[BLD + space] = b - sold
    g = GROUP_ID[space]
    if levels(s, g)[1] == 0:  # the group's last building sold
        s[BUILT] &= ~GROUP_BITS[g]
    transfer(s, BANK, p, sold * SALE_PRICE[space])


@njit(cache=True, inline="always")
def unburdened(s, p):
    """``p``'s lots that are unmortgaged, in groups without buildings, as bits: those it
    may mortgage, and the streets among them those it may trade."""
    return s[OWNED + p] & ~s[MORTGAGED] & ~s[BUILT]


@njit(cache=True)
def default_raise_cash(s, p):
    """(1, space) to sell a building, (2, space) to mortgage, (0, 0) when nothing is left."""
    if s[OWNED + p] & s[BUILT]:  # a building to sell can stand only in a built group
        for space in LOTS_BY_PRICE:
            if can_sell(s, p, space):
                return 1, space
    free = unburdened(s, p)  # the lots it may mortgage (no buildings in their groups)
    if free == 0:
        return 0, 0
    first = 0
    for space in LOTS_BY_PRICE:
        if free >> space & 1:
            if not holds_complete_group(s, p, GROUP_ID[space]):
                return 2, space
            if first == 0:
                first = space
    return (2, first) if first else (0, 0)


@njit(cache=True)
def dealer_raise_cash(s, p):
    """Dealer.raise_cash (BGA's too): mortgage a lot outside its complete groups, else sell a
    building, else mortgage any lot, cheapest first: (action, space) as default_raise_cash."""
    free = unburdened(s, p)
    for space in LOTS_BY_PRICE:
        if free >> space & 1 and not holds_complete_group(s, p, GROUP_ID[space]):
            return 2, space
    if s[OWNED + p] & s[BUILT]:
        for space in LOTS_BY_PRICE:
            if can_sell(s, p, space):
                return 1, space
    for space in LOTS_BY_PRICE:
        if free >> space & 1:
            return 2, space
    return 0, 0


@njit(cache=True)
def raise_cash(s, p, owed):
    """Sell and mortgage until ``p`` has ``owed`` or nothing is left."""
    while s[CASH + p] < owed:
        if s[KIND + p] == DEALER or s[KIND + p] == BGA:
            action, space = dealer_raise_cash(s, p)
        else:
            action, space = default_raise_cash(s, p)
        if action == 0:
            return
        if action == 1:
            sell_building(s, p, space)
        else:
            set_mortgaged(s, space, 1)
            transfer(s, BANK, p, MORT_A[space])


# ---------------------------------------------------------------------------
# Decisions (strategies.py, chromosomes.py)
# ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def ownership_pattern(s, p, space):
    """The number of the ownership pattern of ``space``'s group from ``p``'s side
    (:mod:`~monopoly_lesson.game.money_tables`: the bank 0, ``p`` 1, others 2.. as met)."""
    g = GROUP_ID[space]
    number, scale, met = 0, 1, 0
    for k in range(GSIZE[g]):
        o = s[OWNER + GSPACES[g, k]]
        code = 0 if o == BANK else 1 if o == p else 2 + met
        earlier = 1
        for j in range(k):
            if code >= 2 and s[OWNER + GSPACES[g, j]] == o:
                code = number // earlier % BASE  # the code this owner was given
                break
            earlier *= BASE
        met += code == 2 + met
        number += code * scale
        scale *= BASE
    return number


@njit(cache=True, inline="always")
def ownership_state(s, p, space):
    """The row of a chromosome player's buy genes (chromosomes.ownership_state, a table)."""
    return OWNERSHIP_STATE[space, ownership_pattern(s, p, space)]


@njit(cache=True, inline="always")
def heuristic_buy(s, p, space):
    """Whether the heuristic buys (strategies.Heuristic.buy, a table)."""
    return HEURISTIC_BUY[space, ownership_pattern(s, p, space)]


@njit(cache=True, inline="always")
def decide_buy(s, f, p, space):
    """Strategy.buy: always (and the dealer), never, random:P, heuristic, or a chromosome's
    buy gene."""
    kind, at = s[KIND + p], s[GENE_AT + p]
    if kind == ALWAYS or kind == NEVER or kind == DEALER:
        return kind != NEVER
    if kind == PASSIVE:
        return f[at] == 1
    if kind == HEURISTIC:
        return heuristic_buy(s, p, space)
    draw = uniform(s, f, p)  # (one call for both: each call is compiled in again)
    if kind == RANDOM:
        return draw < f[at]
    return draw < f[at + ownership_state(s, p, space) * NUM_SPACES + space - 1]


@njit(cache=True, inline="always")
def decide_bid(s, f, p, space):
    """Strategy.bid: the price (capped at the cash) if it would buy, else 0; EGA's bid gene
    for the ownership state and group times twice the price (capped at the cash); the
    dealer's by what the lot does for it (DEALER_BID, capped at the cash); BGA's value gene
    for a lot that completes or blocks a colour group, else EGA's."""
    if s[KIND + p] == DEALER:
        return min(s[CASH + p], DEALER_BID[space, ownership_pattern(s, p, space)])
    if s[KIND + p] == BGA:
        role = LOT_DOES[space, ownership_pattern(s, p, space)]  # completes 1, blocks 2
        if role:
            at = s[GENE_AT + p] + BGA_VALUE_AT + (role - 1) * TRADE_COLUMNS
            gene = f[at + TRADE_COLUMN[GROUP_ID[space]]]
            return min(s[CASH + p], np.int64(gene * (BID_SCALE * PRICE_A[space])))
    if s[KIND + p] == EGA or s[KIND + p] == BGA:
        row = ownership_state(s, p, space)
        gene = f[s[GENE_AT + p] + EGA_BID_AT + row * BID_COLUMNS + GROUP_ID[space]]
        return min(s[CASH + p], np.int64(gene * (BID_SCALE * PRICE_A[space])))
    if decide_buy(s, f, p, space):
        return min(PRICE_A[space], s[CASH + p])
    return 0


@njit(cache=True, inline="always")
def street_bits(s, p, streets):
    """Bit k set when a player other than ``p`` owns ``streets[k]``."""
    bits = 0
    for k in range(streets.size):
        o = s[OWNER + streets[k]]
        if o != BANK and o != p:
            bits |= 1 << k
    return bits


@njit(cache=True, inline="always")
def monopoly_bits(s, p, groups):
    """Bit k set when one player other than ``p`` holds ``groups[k]`` as a complete group."""
    bits = 0
    for k in range(groups.size):
        o = s[OWNER + GSPACES[groups[k], 0]]
        if o != BANK and o != p and holds_complete_group(s, o, groups[k]):
            bits |= 1 << k
    return bits


@njit(cache=True, inline="always")
def decide_leave(s, f, p):
    """Strategy.leave_jail: no (defaults), the heuristic's and the dealer's rules (while so
    many lots are unowned), or a chromosome's jail gene."""
    kind = s[KIND + p]
    if kind == HEURISTIC or kind == DEALER:
        unowned = 0
        for space in LOTS:
            unowned += s[OWNER + space] == BANK
        return unowned >= (UNOWNED_TO_LEAVE_JAIL if kind == HEURISTIC else DEALER_LEAVE)
    if kind == RGA or kind == EGA or kind == BGA:
        west, north = street_bits(s, p, WEST), street_bits(s, p, NORTH)
    elif kind == TGA:
        west, north = monopoly_bits(s, p, TGA_WEST), monopoly_bits(s, p, TGA_NORTH)
    else:
        return False
    return uniform(s, f, p) < f[s[GENE_AT + p] + BUY_GENES + west * JAIL_SIDE[kind] + north]


# ---------------------------------------------------------------------------
# Debts and bankruptcy (money.py), auctions (buying.py)
# ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def pay(s, f, payer, payee, amount):
    """``payer`` pays ``payee`` (-1 the bank), raising the cash first; False if it went
    bankrupt instead."""
    if s[CASH + payer] >= amount:  # most debts: paid from the cash in hand
        transfer(s, payer, payee, amount)
        return True
    if payee == BANK:  # (np.int64: one compiled version, whatever the caller passes)
        return settle_with_bank(s, f, payer, np.int64(amount))
    return settle_with_player(s, f, payer, np.int64(payee), np.int64(amount))


@njit(cache=True)
def settle_with_bank(s, f, debtor, amount):
    """A debt to the bank that ``debtor``'s cash does not cover: it raises cash, then pays,
    or goes bankrupt to the bank (called rather than inlined: rare, and long)."""
    raise_cash(s, debtor, amount)
    if s[CASH + debtor] < amount:
        leave_game(s, debtor)
        bankrupt_to_bank(s, f, debtor)
        return False
    transfer(s, debtor, BANK, amount)
    return True


@njit(cache=True)
def settle_with_player(s, f, debtor, creditor, amount):
    """A debt to ``creditor`` that ``debtor``'s cash does not cover: it raises cash, then
    pays, or goes bankrupt to the creditor (called rather than inlined: rare, and long; not
    one function with :func:`settle_with_bank`, which the creditor may need in turn: numba
    cannot keep mutually recursive functions in its cache)."""
    raise_cash(s, debtor, amount)
    if s[CASH + debtor] < amount:
        leave_game(s, debtor)
        bankrupt_to_player(s, f, debtor, creditor)
        return False
    transfer(s, debtor, creditor, amount)
    return True


@njit(cache=True, inline="always")
def leave_game(s, debtor):
    """A bankrupt leaves the game (raise_cash has sold all its buildings before it gave up)."""
    s[GONE + s[NGONE]] = debtor
    s[NGONE] += 1
    s[BROUND + debtor] = s[ROUND]
    s[ALIVE + debtor] = 0


@njit(cache=True)
def bankrupt_to_player(s, f, debtor, creditor):
    """Cash, cards and lots to the creditor, who pays 10% on the mortgaged ones."""
    transfer(s, debtor, creditor, s[CASH + debtor])
    for k in range(s[NCARDS + debtor]):
        s[CARDS + DECKS * creditor + s[NCARDS + creditor]] = s[CARDS + DECKS * debtor + k]
        s[NCARDS + creditor] += 1
    s[NCARDS + debtor] = 0
    taken = np.zeros(SPACES, np.bool_)
    for space in LOTS:
        if s[OWNER + space] == debtor:
            set_owner(s, space, creditor)
            taken[space] = True
    for space in LOTS:
        if taken[space] and s[MORT + space]:
            if not pay(s, f, creditor, BANK, INTEREST[space]):
                return


@njit(cache=True)
def bankrupt_to_bank(s, f, debtor):
    """Cash to the bank, cards back to their decks, lots auctioned unmortgaged."""
    transfer(s, debtor, BANK, s[CASH + debtor])
    for k in range(s[NCARDS + debtor]):
        code = s[CARDS + DECKS * debtor + k]
        put_back(s, code // HELD_CODE, code % HELD_CODE)
    s[NCARDS + debtor] = 0
    freed = np.zeros(SPACES, np.bool_)
    for space in LOTS:
        if s[OWNER + space] == debtor:
            set_owner(s, space, BANK)
            set_mortgaged(s, space, 0)
            freed[space] = True
    for space in LOTS:
        if freed[space]:
            auction(s, f, space, (debtor + 1) % s[NPLAYERS])


@njit(cache=True, forceinline=True)
def auction(s, f, space, first):
    """Every player in the game bids from seat ``first`` on; the highest pays the second + 1."""
    n = s[NPLAYERS]
    winner, top, second = BANK, 0, 0
    for k in range(n):
        p = (first + k) % n
        if not s[ALIVE + p]:
            continue
        bid = decide_bid(s, f, p, space)
        if bid > top:
            winner, top, second = p, bid, top
        elif bid > second:
            second = bid
    if top > 0:
        transfer(s, winner, BANK, min(top, second + 1))
        set_owner(s, space, winner)


# ---------------------------------------------------------------------------
# Landing, rent, cards, jail (engine.py, rent.py, cards.py)
# ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def rent_due(s, space, dice, times, dice_times):
    """The rent of ``space`` to its owner (rent.rent_due, its amounts a table)."""
    owner, g = s[OWNER + space], GROUP_ID[space]
    held = bit_count(s[OWNED + owner] & GROUP_BITS[g])
    if g == RAILROAD:
        return RENT[space, held - 1] * times
    if g == UTILITY:
        return (dice_times if dice_times else RENT[space, held - 1]) * dice
    b = s[BLD + space]
    return RENT[space, b + 1 if b else int(held == GSIZE[g])]


@njit(cache=True, inline="always")
def land(s, f, p, space, times, dice_times):
    """A tax, rent, or a lot to buy or auction; False if ``p`` went bankrupt."""
    if TAX_A[space]:
        return pay(s, f, p, BANK, TAX_A[space])
    owner = s[OWNER + space]
    if PRICE_A[space] == 0 or owner == p:
        return True
    if owner == BANK:
        if s[CASH + p] >= PRICE_A[space] and decide_buy(s, f, p, space):
            transfer(s, p, BANK, PRICE_A[space])
            set_owner(s, space, p)
        else:
            auction(s, f, space, p)
        return True
    if s[MORT + space]:
        return True
    dice = s[LAST_ROLL]
    if dice_times:
        dice = roll_die(s)
        dice += roll_die(s)
    return pay(s, f, p, owner, rent_due(s, space, dice, times, dice_times))


@njit(cache=True, inline="always")
def apply_card(s, f, p, d, card):
    """A card's money, or keeping it; False if ``p`` went bankrupt."""
    effect, amount = CARD[d, card, EFFECT], CARD[d, card, AMOUNT]
    if effect == KEEP:
        s[HELD + (DECK_CARDS + 1) * d + card] = 1
        s[CARDS + DECKS * p + s[NCARDS + p]] = d * HELD_CODE + card
        s[NCARDS + p] += 1
    elif effect == COLLECT:
        transfer(s, BANK, p, amount)
    elif effect == PAY:
        return pay(s, f, p, BANK, amount)
    elif effect == COLLECT_FROM_EACH or effect == PAY_EACH:
        return each_other(s, f, p, amount, effect == COLLECT_FROM_EACH)
    elif effect == REPAIRS:
        cost, owned = 0, s[OWNED + p]
        for space in LOTS:
            if owned >> space & 1:
                b = s[BLD + space]
                cost += CARD[d, card, PER_HOTEL] if b == HOTEL else b * CARD[d, card, PER_HOUSE]
        if cost:
            return pay(s, f, p, BANK, cost)
    return True


@njit(cache=True)
def each_other(s, f, p, amount, collect):
    """Every other player pays ``p`` (collect) or is paid by it, in seat order after it."""
    n = s[NPLAYERS]
    for k in range(1, n):
        o = (p + k) % n
        if s[ALIVE + o]:
            if collect:
                pay(s, f, o, p, amount)
            elif not pay(s, f, p, o, amount):
                return False
            if not s[ALIVE + p]:
                return False
    return True


@njit(cache=True, inline="always")
def use_card_or_pay(s, f, p):
    """Leave jail with a held card (back to its deck), else $50; False if bankrupt."""
    if s[NCARDS + p] == 0:
        return pay(s, f, p, BANK, JAIL_FEE)
    code = s[CARDS + DECKS * p]
    s[CARDS + DECKS * p] = s[CARDS + DECKS * p + 1]
    s[NCARDS + p] -= 1
    put_back(s, code // HELD_CODE, code % HELD_CODE)
    return True


# ---------------------------------------------------------------------------
# Rolls, turns and games: the movement is the game roll table's events
# ---------------------------------------------------------------------------

END, GO, LAND, DRAW, LEAVE, FEE = range(6)  # roll_table.OPS, checked by fast.py


@njit(cache=True, inline="always")
def play_roll(s, f, m, p, doubles):
    """One roll of ``p``: the recorded events with the money added. Returns the doubles so
    far if it rolls again, 0 if its turn is over, -1 if it went bankrupt."""
    row = doubles * STATES + s[ST + p]
    leave = 0
    if m[m[M_ASKS] + row] and (s[NCARDS + p] or s[CASH + p] >= JAIL_FEE):
        leave = 1 if decide_leave(s, f, p) else 0
    d1 = roll_die(s)
    d2 = roll_die(s)
    s[LAST_ROLL] = d1 + d2
    cls = m[m[M_DICE] + (d1 - 1) * SIDES + d2 - 1]
    chance = chest = 0  # the cards drawn so far (0-based), to find the roll's leaf
    roll = (row * m[M_CLASSES] + cls) * JAIL_CHOICES + leave
    first = m[m[M_LEAF] + roll]  # the first event of its leaf before any card is drawn
    i = first
    while True:
        word = m[m[M_EVENTS] + i]
        op, a = word & EVENT_MASK, (word >> EVENT_BITS) & EVENT_MASK
        b, c = (word >> 2 * EVENT_BITS) & EVENT_MASK, word >> 3 * EVENT_BITS
        if op == END:
            s[ST + p] = a
            return b
        alive = True
        if op == GO:
            transfer(s, BANK, p, SALARY)
        elif op == LAND:
            alive = land(s, f, p, a, b, c)
        elif op == DRAW:
            card = deal(s, a)
            alive = apply_card(s, f, p, a, card)
            if a == 0:
                chance = card - 1
            else:
                chest = card - 1
            offset = i - first
            first = m[m[M_LEAF] + (chance * DECK_CARDS + chest) * m[M_ROLLS] + roll]
            i = first + offset
        else:  # LEAVE or FEE: a held card, or $50
            alive = use_card_or_pay(s, f, p)
        if not alive:
            return -1
        i += 1


@njit(cache=True, inline="always")
def play_turn(s, f, m, p):
    """A whole turn of ``p``, then its building and lifting."""
    doubles = 0
    while True:
        doubles = play_roll(s, f, m, p, doubles)
        if doubles <= 0:
            break
    if s[ALIVE + p]:
        if s[TRADING]:
            trading_step(s, f, p)
        end_of_turn(s, f, p)


# ---------------------------------------------------------------------------
# Trading (trading.py; the default policy, the completion swap, in strategies.py)
# ---------------------------------------------------------------------------


@njit(cache=True, forceinline=True)
def trading_step(s, f, p):
    """At most MAX_PROPOSALS completion swaps, one to each partner in seat order after
    ``p``; each partner answers as the default does (EGA within its trade limits)."""
    if s[LAST_MISSING + p] == 0:  # most turns early on: no group it lacks one lot of
        return
    n, asked = s[NPLAYERS], 0
    if s[COMPLETE + p] and not any_lenient_partner(s, p):  # every swap it could offer refused
        return
    for _ in range(MAX_PROPOSALS):
        partner, give, take, pay = -1, 0, 0, 0
        for k in range(1, n):
            q = (p + k) % n
            if s[ALIVE + q] and not asked & (1 << q):
                give, take, pay = swap_with(s, f, p, q)
                if take:
                    partner = q
                    break
        if partner < 0:
            return
        asked |= 1 << partner
        if completion_accepts(s, f, partner, p, give, take, pay):
            transfer(s, p, partner, pay)
            transfer(s, partner, p, -pay)
            set_owner(s, give, partner)
            set_owner(s, take, p)
            s[TRADES] += 1


@njit(cache=True, inline="always")
def any_lenient_partner(s, p):
    """Whether a player left in the game besides ``p`` is an EGA, a BGA or a dealer: the
    only partners that may take a completion swap from a player who holds a complete group."""
    for q in range(s[NPLAYERS]):
        kind = s[KIND + q]
        if q != p and s[ALIVE + q] and (kind == EGA or kind == DEALER or kind == BGA):
            return True
    return False


@njit(cache=True, inline="always")
def last_missing(s, p, q):
    """The lots of ``q``'s that are each the only lot of a colour group ``p`` lacks and that
    ``q`` may trade (unmortgaged streets in groups without buildings), as bits: the lots ``p``
    could take from ``q`` in a completion swap (LAST_MISSING, OWNED, MORTGAGED and BUILT,
    kept in step as lots change, so that a turn's search of swaps reads a few numbers)."""
    return s[LAST_MISSING + p] & unburdened(s, q)


@njit(cache=True, inline="always")
def trade_limit(s, f, p, row, space):
    """EGA ``p``'s trade limit (row TRADE_PAY or TRADE_KEEP) for the group of ``space``, in
    dollars: round((2 * gene - 1) * TRADE_SCALE), as EGA.most_to_pay and least_to_keep."""
    gene = f[s[GENE_AT + p] + EGA_TRADE_AT + row * TRADE_COLUMNS + TRADE_COLUMN[GROUP_ID[space]]]
    return np.int64(np.rint((2 * gene - 1) * TRADE_SCALE))


@njit(cache=True, inline="always")
def worth(s, f, p, space):
    """BGA ``p``'s worth gene for the colour group of ``space`` (BGA.worth)."""
    return f[s[GENE_AT + p] + BGA_WORTH_AT + TRADE_COLUMN[GROUP_ID[space]]]


@njit(cache=True, inline="always")
def ask(s, f, p, space):
    """BGA ``p``'s ask gene for the colour group of ``space`` (BGA.ask)."""
    return f[s[GENE_AT + p] + BGA_ASK_AT + TRADE_COLUMN[GROUP_ID[space]]]


@njit(cache=True, inline="always")
def swap_with(s, f, p, q):
    """The first completion swap of ``p`` with ``q`` (for EGA, the first whose cash it pays is
    within its limit; for the dealer, the first that hands over no better group, asking
    ``q`` for its cash above $200): (lot given, lot taken, what ``p`` pays), or a taken lot
    of 0."""
    takes, gives = last_missing(s, p, q), last_missing(s, q, p)
    if takes == 0 or gives == 0:  # most turns: no swap could complete a group of both
        return 0, 0, 0
    while takes:  # the lots in board order, as bits (lowest first)
        take = bit_count((takes & -takes) - 1)
        takes &= takes - 1
        left = gives
        while left:
            give = bit_count((left & -left) - 1)
            left &= left - 1
            if GROUP_ID[give] != GROUP_ID[take]:
                pay = PRICE_A[take] - PRICE_A[give]  # the side taking the dearer lot pays
                if (pay >= 0 and s[CASH + p] >= pay) or (pay < 0 and s[CASH + q] >= -pay):
                    kind = s[KIND + p]
                    if kind == DEALER:  # the first fair one, asking for q's spare cash
                        if FAIR_SWAP[take, give]:
                            return give, take, min(pay, RESERVE - s[CASH + q])
                    elif kind == BGA:  # within its limit, worth it, asking its share
                        if pay <= trade_limit(s, f, p, TRADE_PAY, take) and worth(
                            s, f, p, give
                        ) <= worth(s, f, p, take):
                            spare = max(0, s[CASH + q] + pay - RESERVE)
                            return give, take, pay - np.int64(ask(s, f, p, take) * spare)
                    elif kind != EGA or pay <= trade_limit(s, f, p, TRADE_PAY, take):
                        return give, take, pay
    return 0, 0, 0


@njit(cache=True, inline="always")
def completion_accepts(s, f, q, p, give, take, pay):
    """The default answer of ``q`` to ``p``'s swap: it completes a group of ``q``'s, ``p``
    then holds no more complete groups than ``q`` gains, and ``q`` keeps $200 (or is paid);
    EGA's: it completes a group of its own, for at least its least-to-keep of ``take``'s;
    BGA's: EGA's, if the group it hands over is worth no more to it than the one it gets;
    the dealer's: the group it hands over is no better, and it keeps $150 (or is paid).
    For a completion swap, the only offer the loop makes, that is read off the state: ``q``
    gains just the group of ``give``, ``p`` just the group of ``take``, and neither loses one
    (the other holds the rest of each), so the default takes it when ``p`` holds none yet."""
    if s[KIND + q] == EGA:
        return pay >= trade_limit(s, f, q, TRADE_KEEP, take)
    if s[KIND + q] == BGA:  # EGA's answer, and the group it gives is worth no more
        keeps = pay >= trade_limit(s, f, q, TRADE_KEEP, take)
        return keeps and worth(s, f, q, take) <= worth(s, f, q, give)
    if s[KIND + q] == DEALER:  # p gains one group, as q does: fair, and q keeps its cash
        return FAIR_SWAP[give, take] and (pay > 0 or s[CASH + q] + pay >= DEALER_KEEP)
    return s[COMPLETE + p] == 0 and (pay > 0 or s[CASH + q] + pay >= RESERVE)


@njit(cache=True)
def new_game(players, mode, streams, lengths):
    """The state vector of a game about to start, its streams (mode 1) after the slots."""
    s = np.zeros(SIZE + (streams.size if mode == 1 else MT_WORDS + 1 + DECK_CARDS), np.int64)
    if mode == 1:
        for k in range(streams.size):  # (a loop: a slice assigned compiles its error message)
            s[SIZE + k] = streams[k]
        s[FACES_AT], s[NFACES] = SIZE, lengths[0]
        s[SHUF_AT], s[NSHUF], s[NUNI] = SIZE + lengths[0], lengths[1], lengths[2]
    s[OWNER : OWNER + SPACES] = BANK
    s[HOUSES_LEFT], s[HOTELS_LEFT] = HOUSES, HOTELS
    s[NPLAYERS], s[MODE], s[ROUND] = players, mode, 1
    for p in range(players):
        s[CASH + p], s[ALIVE + p] = STARTING_CASH, 1
    return s


@njit(cache=True)
def start_from(s, start):
    """Make ``s`` the game in progress ``start`` (a state vector made by
    :func:`monopoly_lesson.game.fast.state_vector`, between two turns): the players' cash,
    places, cards and bankruptcies, the lots, the bank, the decks, the round and the seat to
    move; its streams and strategies stay as :func:`new_game` and the caller set them."""
    for k in range(FACE_PTR):  # cash, places, lots, bank, cards and decks
        s[k] = start[k]
    for k in range(GONE, LAST_ROLL):  # who went bankrupt, in order, and when
        s[k] = start[k]
    s[ROUND], s[FIRST] = start[ROUND], start[FIRST]
    recount_bits(s)


@njit(cache=True, inline="always")
def alive_count(s):
    """How many players are still in the game (leave_game counts those who left)."""
    return s[NPLAYERS] - s[NGONE]


@njit(cache=True)
def play_game(s, f, m, max_rounds, trace):
    """Play rounds until one player is left or ``max_rounds``, from round ROUND's turn of
    seat FIRST (a new game: round 1, seat 0); a snapshot per round into ``trace`` (if it
    has rows). Returns the rounds played and 1 if it ended early."""
    s, f, m = uncounted(s), uncounted(f), uncounted(m)
    n, first_round = s[NPLAYERS], s[ROUND]
    for rnd in range(first_round, max_rounds + 1):
        s[ROUND] = rnd
        for p in range(s[FIRST] if rnd == first_round else 0, n):
            if s[ALIVE + p]:
                s[TURNS] += 1
                play_turn(s, f, m, p)
                if alive_count(s) <= 1:
                    snapshot(s, trace, rnd)
                    return rnd, 1
        snapshot(s, trace, rnd)
    return max_rounds, 0


@njit(cache=True, inline="always")
def snapshot(s, trace, rnd):
    """Keep the state after round ``rnd`` (when tracing)."""
    if trace.shape[0] >= rnd:
        for k in range(SIZE):
            trace[rnd - 1, k] = s[k]


@njit(cache=True)
def finish(s, out):
    """Each player's place: in the game by net worth (then monopolies, lots, seat), then
    the bankrupt, the last to go first."""
    n = s[NPLAYERS]
    keys = np.zeros((n, 4), np.int64)
    for p in range(n):  # (slot by slot: a row assigned at once compiles its error message)
        keys[p, 0], keys[p, 1] = -net_worth(s, p), -count_monopolies(s, p)
        keys[p, 2], keys[p, 3] = -count_lots(s, p), p
    place = 1
    for _ in range(n - s[NGONE]):
        best = -1
        for p in range(n):
            if s[ALIVE + p] and out[p] == 0 and (best < 0 or less(keys[p], keys[best])):
                best = p
        out[best] = place
        place += 1
    for k in range(s[NGONE] - 1, -1, -1):
        out[s[GONE + k]] = place
        place += 1


@njit(cache=True)
def less(a, b):
    """Whether key ``a`` sorts before key ``b``."""
    for k in range(a.size):
        if a[k] != b[k]:
            return a[k] < b[k]
    return False


@njit(cache=True, parallel=True, nogil=True)
def play_many(
    m,
    genes,
    at,
    kind,
    who,
    seeds,
    starts,
    streams,
    uniforms,
    lengths,
    mode,
    max_rounds,
    trading,
    results,
    traces,
):
    """Play game ``g`` for every row of ``who`` (the population members in seat order).

    Member ``i`` plays code ``kind[i]`` with its genes from ``genes[at[i]]`` on
    (:data:`GENE_WIDTHS`). ``streams[g]`` holds game ``g``'s die faces then deck shuffles
    and ``uniforms[g]`` its players' decision draws, as counted by ``lengths`` (faces,
    shuffles per deck, uniforms per player); mode 0 draws from the generator seeded
    with ``seeds[g]`` instead; ``trading`` 1 plays with trading. With rows in ``starts``,
    game ``g`` continues the game in progress ``starts[g]`` (:func:`start_from`) rather than
    starting on Go. ``results[g]`` gets, per
    seat: place, lots, monopolies, net worth, cash; then the rounds, 1 if it ended early, 1
    if a stream ran out, the turns and the trades made. It lets go of Python's lock while it
    plays, so that a generation's saving and diversity go on beside its games.
    """
    games = who.shape[0]
    for block in prange((games + SEED_BLOCK - 1) // SEED_BLOCK):
        first = np.int64(block) * SEED_BLOCK  # prange's index may be unsigned: made signed
        last = min(first + SEED_BLOCK, games)
        words = np.empty((MT_WORDS, SEED_BLOCK if mode == 0 else 0), np.int64)
        if mode == 0:
            seed_words(seeds[first:last], words)
        for g in range(first, last):
            s = new_game(who.shape[1], mode, streams[min(g, streams.shape[0] - 1)], lengths)
            if starts.shape[1]:
                start_from(s, starts[g])
            if mode == 0:
                start_generator(s, words, g - first)
                f = genes
            else:  # the game's decision draws after the genes, where uniform() reads them
                f = np.concatenate((genes, uniforms[g]))
            play_one(
                s,
                f,
                m,
                at,
                kind,
                who[g],
                max_rounds,
                trading,
                results[g],
                traces[min(g, traces.shape[0] - 1)],
                genes.size,
            )


@njit(cache=True, inline="always")
def play_one(s, f, m, at, kind, seated, max_rounds, trading, out, trace, uni_at):
    """One game of :func:`play_many`, its state ``s`` started: members ``seated`` in seat
    order, its results into ``out``."""
    n = seated.size
    for p in range(n):
        s[KIND + p], s[GENE_AT + p] = kind[seated[p]], at[seated[p]]
    s[UNI_AT], s[TRADING] = uni_at, trading
    rounds, early = play_game(s, f, m, max_rounds, trace)
    finish(s, out[0:n])
    for p in range(n):
        out[R_LOTS * n + p] = count_lots(s, p)
        out[R_MONOPOLIES * n + p] = count_monopolies(s, p)
        out[R_NET_WORTH * n + p] = net_worth(s, p)
        out[R_CASH * n + p] = s[CASH + p]
        out[R_BANKRUPT_ROUND * n + p] = 0 if s[ALIVE + p] else s[BROUND + p]
    at_end = SEAT_RESULTS * n
    out[at_end + R_ROUNDS], out[at_end + R_EARLY] = rounds, early
    out[at_end + R_EXHAUSTED], out[at_end + R_TURNS] = s[ERROR], s[TURNS]
    out[at_end + R_TRADES] = s[TRADES]
