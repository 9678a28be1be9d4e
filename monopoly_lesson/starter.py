"""The starter classes: the board, the two decks, and the objects a turn is played with.

These are the classes a student starts from. Read it top to bottom: the data
first (``gameboard``, ``chance_deck``, ``community_deck``), then ``Player``,
``PresetDice``, ``RandomDice``, ``CardDeck`` and ``SpaceTracker``.

Every object takes ``verbose=True`` to narrate what it does, one plain line per
event. The wording is part of the lesson (stored notebook outputs and graders use
it) and is listed in :data:`NARRATION`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Sequence

import numpy as np
import pandas as pd

from .checks import check_seed, check_whole

__all__ = [
    "GO",
    "GO_TO_JAIL",
    "JAIL",
    "NARRATION",
    "NUM_SPACES",
    "CardDeck",
    "DiceUsedUpError",
    "Player",
    "PresetDice",
    "RandomDice",
    "SpaceTracker",
    "chance_deck",
    "community_deck",
    "gameboard",
    "space_name",
    "standard_chance_deck",
]

# ---------------------------------------------------------------------------
# The data: the board and the decks (the rules page, "The board" and "The decks")
# ---------------------------------------------------------------------------

NUM_SPACES = 40
GO = 1
JAIL = 11
GO_TO_JAIL = 31

gameboard = pd.DataFrame(
    {
        "space": range(1, NUM_SPACES + 1),
        "title": [
            "Go",
            "Mediterranean Avenue",
            "Community Chest",
            "Baltic Avenue",
            "Income Tax",
            "Reading Railroad",
            "Oriental Avenue",
            "Chance",
            "Vermont Avenue",
            "Connecticut Avenue",
            "Jail",
            "St. Charles Place",
            "Electric Company",
            "States Avenue",
            "Virginia Avenue",
            "Pennsylvania Railroad",
            "St. James Place",
            "Community Chest",
            "Tennessee Avenue",
            "New York Avenue",
            "Free Parking",
            "Kentucky Avenue",
            "Chance",
            "Indiana Avenue",
            "Illinois Avenue",
            "B & O Railroad",
            "Atlantic Avenue",
            "Ventnor Avenue",
            "Water Works",
            "Marvin Gardens",
            "Go to Jail",
            "Pacific Avenue",
            "North Carolina Avenue",
            "Community Chest",
            "Pennsylvania Avenue",
            "Short Line Railroad",
            "Chance",
            "Park Place",
            "Luxury Tax",
            "Boardwalk",
        ],
    }
)
"""The 40 spaces: ``space`` (1 = Go ... 40 = Boardwalk) and ``title``."""

chance_deck = pd.DataFrame(
    {
        "index": range(1, 16),
        "card": [
            "Advance to Go",
            "Advance to Illinois Ave.",
            "Advance to St. Charles Place",
            "Advance token to nearest Utility",
            "Advance token to the nearest Railroad",
            "Take a ride on the Reading Railroad",
            "Take a walk on the Boardwalk",
            "Go to Jail",
            "Go Back 3 Spaces",
            "Bank pays you dividend of $50",
            "Get out of Jail Free",
            "Make general repairs on all your property",
            "Pay poor tax of $15",
            "You have been elected Chairman of the Board",
            "Your building loan matures",
        ],
    }
)
"""The lesson's Chance deck: 15 cards, ``index`` 1..15 and ``card``; cards 1-9 move."""
chance_deck.attrs["name"] = "Chance"

community_deck = pd.DataFrame(
    {
        "index": range(1, 17),
        "card": [
            "Advance to Go",
            "Go to Jail",
            "Bank error in your favor. Collect $200",
            "Doctor's fees Pay $50",
            "From sale of stock you get $45",
            "Get Out of Jail Free",
            "Grand Opera Night Opening",
            "Xmas Fund matures",
            "Income tax refund",
            "Life insurance matures. Collect $100",
            "Pay hospital fees of $100",
            "Pay school tax of $150",
            "Receive for services $25",
            "You are assessed for street repairs",
            "You have won second prize in a beauty contest",
            "You inherit $100",
        ],
    }
)
"""The Community Chest deck: 16 cards, ``index`` 1..16 and ``card``; cards 1-2 move."""
community_deck.attrs["name"] = "Community Chest"

standard_chance_deck = pd.DataFrame(
    {
        "index": range(1, 17),
        "card": [
            *chance_deck["card"].iloc[:5],
            "Advance token to the nearest Railroad",
            *chance_deck["card"].iloc[5:],
        ],
    }
)
"""The standard 16-card Chance deck (a variant): the lesson deck plus a second
"nearest Railroad" card, so 10 cards move the token."""
standard_chance_deck.attrs["name"] = "Chance"

_TITLES = ["", *gameboard["title"]]


def space_name(space: int) -> str:
    """Return ``"Title (N)"`` for a 1-based space number, as used in narration."""
    return f"{_TITLES[_check_space(space, 'space')]} ({space})"


NARRATION = {
    "roll": "Rolled {d1} and {d2} (total {total}){doubles}.",
    "move": "{who} moves from {origin} to {target}.",
    "just_visiting": "{who} moves from {origin} to {target}, just visiting.",
    "pass_go": "{who} passes Go.",
    "tally": "Tally: {space}, now {count}.",
    "draw": "{deck}: drew card {number}, {card!r}.",
    "shuffle": "{deck} deck shuffled ({cards} cards).",
    "sent_to_jail": "{who} is sent to jail.",
    "jail_turn": "{who} starts turn {turn} in jail.",
    "leave_jail": "{who} leaves jail.",
}
"""The narration templates of ``verbose=True``, one line per event (a stable wording)."""


def _say(event: str, **fields: object) -> None:
    print(NARRATION[event].format(**fields))


# ---------------------------------------------------------------------------
# Validation helpers: clear messages, nothing silently clamped
# ---------------------------------------------------------------------------


def _check_int(value: object, what: str) -> int:
    return check_whole(value, what)


def _check_positive(value: object, what: str) -> int:
    return check_whole(value, what, 1)


def _check_space(value: object, what: str) -> int:
    space = _check_int(value, what)
    if not 1 <= space <= NUM_SPACES:
        raise ValueError(f"{what} must be a space number from 1 to {NUM_SPACES}, got {space}.")
    return space


def _check_sides(sides: object) -> int:
    sides = _check_int(sides, "sides")
    if sides < 2:
        raise ValueError(f"sides must be at least 2, got {sides}.")
    return sides


# ---------------------------------------------------------------------------
# Player
# ---------------------------------------------------------------------------


class Player:
    """A token on the board: its space ``pos`` (1-based), ``in_jail`` and ``jail_turns``.

    ``jail_turns`` counts the turns started in jail since the player was sent there
    (0 when free), so the long-stay rule can release them on the third.

    >>> player = Player(pos=38, verbose=True)
    >>> player.move_forward(6)
    Player passes Go.
    Player moves from Park Place (38) to Baltic Avenue (4).
    >>> player.pos
    4
    """

    def __init__(self, pos: int = GO, verbose: bool = False, name: str = "Player") -> None:
        self.pos = _check_space(pos, "pos")
        self.in_jail = False
        self.jail_turns = 0
        self.verbose = bool(verbose)
        self.name = str(name)

    def __repr__(self) -> str:
        jail = f", in_jail=True, jail_turns={self.jail_turns}" if self.in_jail else ""
        return f"Player(name={self.name!r}, pos={self.pos}{jail})"

    def move_forward(self, steps: int) -> None:
        """Move ``steps`` spaces forward, wrapping from 40 to 1 (passing Go)."""
        steps = _check_int(steps, "steps")
        if steps < 0:
            raise ValueError(
                f"steps must be 0 or more (the token only moves forward), got {steps}."
            )
        origin = self.pos
        self.pos = (origin - 1 + steps) % NUM_SPACES + 1
        if self.verbose:
            if origin + steps > NUM_SPACES + 1:
                _say("pass_go", who=self.name)
            event = "just_visiting" if self.pos == JAIL else "move"  # walked there: not sent
            _say(event, who=self.name, origin=space_name(origin), target=space_name(self.pos))

    def move_to(self, space: int) -> None:
        """Put the token straight on ``space`` (no passing Go), e.g. "Go Back 3 Spaces"."""
        space = _check_space(space, "space")
        origin, self.pos = self.pos, space
        if self.verbose:
            _say("move", who=self.name, origin=space_name(origin), target=space_name(space))

    def go_to_jail(self) -> None:
        """Put the token in jail (space 11); the jail-turn count starts again at 0."""
        if self.verbose:
            _say("sent_to_jail", who=self.name)
        self.move_to(JAIL)
        self.in_jail = True
        self.jail_turns = 0

    def start_jail_turn(self) -> None:
        """Count one more turn started in jail (at most three under the lesson's rules)."""
        if not self.in_jail:
            raise ValueError(f"{self.name} is not in jail, so cannot start a turn in jail.")
        self.jail_turns += 1
        if self.verbose:
            _say("jail_turn", who=self.name, turn=self.jail_turns)

    def leave_jail(self) -> None:
        """Set the player free (still on space 11); ``jail_turns`` goes back to 0."""
        self.in_jail = False
        self.jail_turns = 0
        if self.verbose:
            _say("leave_jail", who=self.name)


# ---------------------------------------------------------------------------
# Dice
# ---------------------------------------------------------------------------


class DiceUsedUpError(RuntimeError):
    """Raised by ``PresetDice.roll()`` when every preset roll has been used."""


def _narrate_roll(d1: int, d2: int) -> None:
    _say("roll", d1=d1, d2=d2, total=d1 + d2, doubles=", doubles" if d1 == d2 else "")


class PresetDice:
    """Dice that replay a given list of faces, two per roll, for scenarios and tests.

    ``PresetDice([3, 4, 1, 1])`` rolls (3, 4) and then (1, 1); a further roll is an error.

    >>> dice = PresetDice([3, 4, 1, 1], verbose=True)
    >>> dice.roll()
    Rolled 3 and 4 (total 7).
    (3, 4)
    >>> dice.roll()
    Rolled 1 and 1 (total 2), doubles.
    (1, 1)
    >>> dice.rolls_left
    0
    """

    def __init__(self, rolls: Iterable[int], verbose: bool = False, sides: int = 6) -> None:
        if isinstance(rolls, (str, bytes)) or not isinstance(rolls, Iterable):
            raise TypeError(f"rolls must be a list of die faces, got {rolls!r}.")
        self.sides = _check_sides(sides)
        faces = [_check_int(face, "each die face") for face in rolls]
        if len(faces) % 2:
            raise ValueError(
                f"rolls must list an even number of faces (two dice per roll), got {len(faces)}."
            )
        bad = [face for face in faces if not 1 <= face <= self.sides]
        if bad:
            raise ValueError(f"die faces must be from 1 to {self.sides}, got {bad[0]}.")
        self.faces = faces
        self.rolls_used = 0
        self.verbose = bool(verbose)

    @property
    def rolls_left(self) -> int:
        """How many preset rolls have not been used yet."""
        return len(self.faces) // 2 - self.rolls_used

    def roll(self) -> tuple[int, int]:
        """Return the next preset roll as ``(d1, d2)``."""
        i = 2 * self.rolls_used
        if i >= len(self.faces):
            preset = len(self.faces) // 2
            raise DiceUsedUpError(
                f"The preset dice are used up: {preset} roll{'s were' if preset != 1 else ' was'} "
                "preset and all of them have been rolled."
            )
        self.rolls_used += 1
        d1, d2 = self.faces[i], self.faces[i + 1]
        if self.verbose:
            _narrate_roll(d1, d2)
        return d1, d2


class RandomDice:
    """Two fair dice with ``sides`` faces each, drawn from a seeded numpy ``Generator``.

    ``seed`` may be an int, a ``numpy.random.SeedSequence`` or a ``Generator``; the same
    seed always gives the same rolls.

    >>> RandomDice(seed=1).roll() == RandomDice(seed=1).roll()  # same seed, same rolls
    True
    >>> all(1 <= face <= 4 for face in RandomDice(seed=2, sides=4).roll())
    True
    """

    _BLOCK = 1024  # faces drawn from numpy at a time: one call per block, not per roll

    def __init__(
        self,
        seed: int | np.random.SeedSequence | np.random.Generator | None = 0,
        sides: int = 6,
        verbose: bool = False,
    ) -> None:
        self.sides = _check_sides(sides)
        self.rng = _generator(seed)
        self.verbose = bool(verbose)
        self._faces: list[int] = []

    def roll(self) -> tuple[int, int]:
        """Roll both dice and return ``(d1, d2)``."""
        faces = self._faces
        if len(faces) < 2:
            faces.extend(self.rng.integers(1, self.sides + 1, size=self._BLOCK).tolist())
            faces.reverse()  # pop() from the end yields the faces in drawing order
        d1, d2 = faces.pop(), faces.pop()
        if self.verbose:
            _narrate_roll(d1, d2)
        return d1, d2


def _child_seeds(seed: int, count: int) -> Iterator[np.random.SeedSequence]:
    """The children of ``SeedSequence(seed)``, one by one: ``spawn(count)``'s, without a list.

    Memory does not grow with ``count``, and child ``i`` is the same as ``spawn``'s.
    """
    for i in range(count):
        yield np.random.SeedSequence(seed, spawn_key=(i,))


def _generator(seed: object) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    return np.random.default_rng(check_seed(seed, limit=None))


# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------


class CardDeck:
    """A shuffled deck of cards: ``draw()`` deals the next card's number (1-based).

    When every card has been dealt the deck is shuffled again. ``order`` lists card
    numbers to deal first (for scenarios and tests); after them the deck deals
    shuffled cards. With ``replace=True`` every draw is an independent uniformly
    random card instead (the "draws with replacement" variant).

    >>> deck = CardDeck(chance_deck, seed=1, order=[5])
    >>> deck.card(deck.draw())
    'Advance token to the nearest Railroad'
    >>> sorted(deck.draw() for _ in range(15))  # then a whole shuffled deck
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    """

    def __init__(
        self,
        deck: pd.DataFrame,
        seed: int | np.random.SeedSequence | np.random.Generator | None = 0,
        order: Sequence[int] | None = None,
        verbose: bool = False,
        replace: bool = False,
        name: str | None = None,
    ) -> None:
        if not isinstance(deck, pd.DataFrame):
            raise TypeError(
                f"deck must be a pandas DataFrame such as chance_deck, got {type(deck).__name__}."
            )
        missing = [column for column in ("index", "card") if column not in deck.columns]
        if missing:
            raise ValueError(
                f"deck must have the columns 'index' and 'card'; missing {missing}, "
                f"found {list(deck.columns)}."
            )
        numbers_ = [_check_int(n, "each deck 'index'") for n in deck["index"]]
        if numbers_ != list(range(1, len(numbers_) + 1)):
            raise ValueError("deck 'index' must number the cards 1, 2, 3, ... in order.")
        if not numbers_:
            raise ValueError("deck must have at least one card.")
        self.cards = [str(card) for card in deck["card"]]
        self.name = str(name if name is not None else deck.attrs.get("name", "Deck"))
        self.rng = _generator(seed)
        self.replace = bool(replace)
        self.verbose = bool(verbose)
        if order is None:
            order = []
        if isinstance(order, (str, bytes)) or not isinstance(order, Iterable):
            raise TypeError(f"order must be a list of card numbers, got {order!r}.")
        preset = [_check_int(n, "each card number in order") for n in order]
        for n in preset:
            if not 1 <= n <= len(self.cards):
                raise ValueError(
                    f"order lists card {n}, but the {self.name} deck has cards 1 to "
                    f"{len(self.cards)}."
                )
        self._preset = preset[::-1]  # pop() from the end deals them in the given order
        self._pile: list[int] = []  # the shuffled cards still to deal, next card last
        self.held: set[int] = set()  # cards kept by players (the whole game), out of the deck
        self.draws = 0

    def __len__(self) -> int:
        return len(self.cards)

    def fresh(
        self, seed: int | np.random.SeedSequence | np.random.Generator | None = 0
    ) -> CardDeck:
        """A new deck with the same cards and options, not yet shuffled (for a new game)."""
        deck = copy.copy(self)
        deck.rng = _generator(seed)
        deck._preset, deck._pile, deck.draws, deck.held = [], [], 0, set()
        return deck

    @property
    def to_deal(self) -> tuple[int, ...]:
        """The cards still to deal before the next shuffle, the next one first."""
        return (*reversed(self._preset), *reversed(self._pile))

    def restack(self, to_deal: Sequence[int]) -> None:
        """Deal ``to_deal`` (the next card first) before the next shuffle: the cards still to
        deal, in another order (a game carried on with its unseen cards shuffled anew)."""
        cards = [self._known(n) for n in to_deal]
        if sorted(cards) != sorted(self.to_deal):
            raise ValueError(
                f"restack takes the cards still to deal, {sorted(self.to_deal)}, in any "
                f"order; got {cards}."
            )
        self._preset, self._pile = [], cards[::-1]

    def card(self, number: int) -> str:
        """Return the text of card ``number`` (1-based)."""
        return self.cards[self._known(number) - 1]

    def shuffle(self) -> None:
        """Shuffle the whole deck, except cards held by players; the next draws deal it."""
        pile = (self.rng.permutation(len(self.cards)) + 1).tolist()
        self._pile = [n for n in pile if n not in self.held] if self.held else pile
        if self.verbose:
            _say("shuffle", deck=self.name, cards=len(self._pile))

    def hold(self, number: int) -> None:
        """A player keeps card ``number`` just drawn: it is out of the deck until put back."""
        self.held.add(self._known(number))

    def put_back(self, number: int) -> None:
        """A held card goes back to the bottom of the deck (dealt after every card now in it).

        A used-up deck is shuffled first (without the card), so the card comes up last.
        """
        number = self._known(number)
        if number not in self.held:
            raise ValueError(f"card {number} of the {self.name} deck is not held by a player.")
        if not self._pile and not self.replace:
            self.shuffle()
        self.held.remove(number)
        self._pile.insert(0, number)

    def _known(self, number: int) -> int:
        number = _check_int(number, "card number")
        if not 1 <= number <= len(self.cards):
            raise ValueError(
                f"card number must be from 1 to {len(self.cards)} in the {self.name} deck, "
                f"got {number}."
            )
        return number

    def draw(self) -> int:
        """Deal the next card and return its number (1-based)."""
        if self._preset:
            number = self._preset.pop()
        elif self.replace:
            number = int(self.rng.integers(1, len(self.cards) + 1))
        else:
            if not self._pile:
                self.shuffle()
            number = self._pile.pop()
        self.draws += 1
        if self.verbose:
            _say("draw", deck=self.name, number=number, card=self.cards[number - 1])
        return number


# ---------------------------------------------------------------------------
# Tallies
# ---------------------------------------------------------------------------


class SpaceTracker:
    """Counts how often each space is landed on; ``counts`` is a Series indexed 1..40.

    >>> tracker = SpaceTracker()
    >>> tracker.tally(11)
    >>> tracker.tally(11)
    >>> print(tracker.counts[11], tracker.total)
    2 2
    """

    def __init__(self, verbose: bool = False) -> None:
        self.verbose = bool(verbose)
        self._counts = [0] * (NUM_SPACES + 1)  # slot 0 unused, so slot n is space n

    def tally(self, space: int) -> None:
        """Add one landing on ``space``."""
        if type(space) is not int or not 1 <= space <= NUM_SPACES:
            space = _check_space(space, "space")
        self._counts[space] += 1
        if self.verbose:
            _say("tally", space=space_name(space), count=self._counts[space])

    @property
    def counts(self) -> pd.Series:
        """The tallies so far: 40 ints indexed by space 1..40."""
        index = pd.RangeIndex(1, NUM_SPACES + 1, name="space")
        return pd.Series(self._counts[1:], index=index, name="tally", dtype="int64")

    @property
    def total(self) -> int:
        """All tallies added together."""
        return sum(self._counts)

    def reset(self) -> None:
        """Set every tally back to 0."""
        self._counts = [0] * (NUM_SPACES + 1)


def tallies(tracker: object) -> list[int]:
    """A tracker's 40 tallies as ints, for the checks that compare turns one by one: a
    SpaceTracker's read from its list (its ``counts`` Series costs 0.1 ms each time),
    anything else's from its ``counts``."""
    if type(tracker) is SpaceTracker:
        return [int(n) for n in tracker._counts[1:]]
    return [int(n) for n in tracker.counts]  # type: ignore[attr-defined]
