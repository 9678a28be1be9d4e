"""The reference rules engine: ``Rules`` (the options) and ``take_turn`` (the answer key).

Each rule of the rules page (``notebooks/rules.md``) is one short function below, named
after what it does. Every landing, whether by dice, by a card or on leaving jail, goes
through the one :func:`resolve_landing`, exactly as the rules say. :func:`play_roll` plays
one roll; the fast and exact engines are built by playing it for every case
(:mod:`monopoly_lesson.roll_table`).
"""

from __future__ import annotations

import contextlib
import inspect
import numbers
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import pandas as pd

from .starter import (
    GO,
    GO_TO_JAIL,
    JAIL,
    NUM_SPACES,
    CardDeck,
    Player,
    PresetDice,
    SpaceTracker,
    chance_deck,
    community_deck,
    standard_chance_deck,
)

__all__ = [
    "CHANCE_SPACES",
    "COMMUNITY_CHEST_SPACES",
    "DOUBLES_TO_JAIL",
    "LESSON_RULES",
    "RAILROADS",
    "TURNS_IN_JAIL",
    "UTILITIES",
    "Deck",
    "Dice",
    "GameHooks",
    "Rules",
    "Seat",
    "Tracker",
    "card_destination",
    "check_rules",
    "check_rules_for",
    "play_roll",
    "play_turn",
    "take_turn",
    "takes_rules",
]

# ---------------------------------------------------------------------------
# The data the rules refer to
# ---------------------------------------------------------------------------

RAILROADS = (6, 16, 26, 36)
UTILITIES = (13, 29)
CHANCE_SPACES = (8, 23, 37)
COMMUNITY_CHEST_SPACES = (3, 18, 34)

# What each moving card does, keyed by the card's text (all other cards do not move).
ADVANCE_TO = {
    "Advance to Go": 1,
    "Advance to Illinois Ave.": 25,
    "Advance to St. Charles Place": 12,
    "Take a ride on the Reading Railroad": 6,
    "Take a walk on the Boardwalk": 40,
}
ADVANCE_TO_NEAREST = {
    "Advance token to nearest Utility": UTILITIES,
    "Advance token to the nearest Railroad": RAILROADS,
}
GO_BACK = {"Go Back 3 Spaces": 3}
SENDS_TO_JAIL = {"Go to Jail"}

# The two limits of the rules, named once: every engine follows them.
DOUBLES_TO_JAIL = 3  # the third doubles in a row in one turn sends the player to jail
TURNS_IN_JAIL = 3  # long stay: the third turn started in jail leaves anyway


# ---------------------------------------------------------------------------
# Rules: the options every engine takes
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The rule options; ``Rules()`` is the lesson's rules (the defaults below).

    - ``dice_sides``: faces on each of the two dice.
    - ``jail``: ``"long"`` (stay until doubles or the third turn) or ``"short"``
      (pay and leave on the next turn, then play a normal turn from Jail).
    - ``chance``: ``"lesson"`` (15 cards) or ``"standard"`` (16, two railroad cards).
    - ``counting``: ``"landings"`` (tally every landing) or ``"end_of_move"`` (count
      the space where the token rests after each dice roll, Project Euler 84's way).
    - ``replacement``: draw cards with replacement instead of dealing a shuffled deck.
    - ``go_to_jail``, ``cards``, ``doubles``: the rules a chapter may not have taught yet
      (False: Go to Jail (31) is a space like any other; no card is drawn; doubles are an
      ordinary roll). Chapter 1 plays without all three (``checker.chapter_checks.CHAPTER_RULES``).
    """

    dice_sides: int = 6
    jail: Literal["long", "short"] = "long"
    chance: Literal["lesson", "standard"] = "lesson"
    counting: Literal["landings", "end_of_move"] = "landings"
    replacement: bool = False
    go_to_jail: bool = True
    cards: bool = True
    doubles: bool = True

    def __post_init__(self) -> None:
        sides = self.dice_sides
        if isinstance(sides, bool) or not isinstance(sides, numbers.Integral):
            raise TypeError(f"dice_sides must be a whole number of at least 2, got {sides!r}.")
        if sides < 2:
            raise ValueError(f"dice_sides must be a whole number of at least 2, got {sides!r}.")
        object.__setattr__(self, "dice_sides", int(sides))  # numpy's integers are welcome too
        _check_choice("jail", self.jail, ("long", "short"))
        _check_choice("chance", self.chance, ("lesson", "standard"))
        _check_choice("counting", self.counting, ("landings", "end_of_move"))
        for name in ("replacement", "go_to_jail", "cards", "doubles"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be True or False, got {getattr(self, name)!r}.")

    @property
    def chance_deck(self) -> pd.DataFrame:
        """The Chance deck table these rules play with."""
        return standard_chance_deck if self.chance == "standard" else chance_deck

    def describe(self) -> str:
        """One line naming every option that differs from the lesson's rules."""
        changed = [
            f"{name}={getattr(self, name)!r}"
            for name in self.__dataclass_fields__
            if getattr(self, name) != getattr(LESSON_RULES, name)
        ]
        return "lesson rules" if not changed else "lesson rules with " + ", ".join(changed)


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        options = " or ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be {options}, got {value!r}.")


LESSON_RULES = Rules()
"""The lesson's rules, the default everywhere."""


def check_rules(rules: object) -> Rules:
    """``rules`` if it is a :class:`Rules` value, else a TypeError saying what to give."""
    if not isinstance(rules, Rules):
        raise TypeError(
            f"rules must be a Rules value such as LESSON_RULES, got {type(rules).__name__}."
        )
    return rules


class Dice(Protocol):
    """Anything with ``roll() -> (d1, d2)``: ``PresetDice`` or ``RandomDice``."""

    def roll(self) -> tuple[int, int]:
        """Roll both dice."""
        ...


# ---------------------------------------------------------------------------
# A seat at the table: what one player's turns are played with
# ---------------------------------------------------------------------------


class Tracker(Protocol):
    """Anything with ``tally(space)``: a ``SpaceTracker``, or a recorder."""

    def tally(self, space: int) -> None:
        """Add one landing on ``space``."""
        ...


class GameHooks(Protocol):
    """What the whole game adds to a turn (:mod:`monopoly_lesson.game.engine`); movement needs none.

    Each hook is called at the one place in the rules below where its event happens.
    """

    def passed_go(self, seat: Seat) -> None:
        """The token passed or landed on Go moving forward (the salary)."""
        ...

    def landed(self, seat: Seat, card: str | None) -> None:
        """The token landed on ``seat.player.pos`` (by the dice, or moved by ``card``)."""
        ...

    def card_drawn(self, seat: Seat, deck: Deck, number: int) -> None:
        """Card ``number`` was drawn from ``deck`` (its money effect, or kept)."""
        ...

    def leave_jail_now(self, seat: Seat) -> bool:
        """Whether the jailed player leaves before rolling (and has paid or used a card)."""
        ...

    def pay_to_leave_jail(self, seat: Seat) -> None:
        """The third failed roll in jail: use a card or pay before moving."""
        ...


class Deck(Protocol):
    """Anything that deals cards like ``CardDeck``: ``draw()`` a number, ``card(n)`` its text."""

    def draw(self) -> int:
        """Deal the next card's number (1-based)."""
        ...

    def card(self, number: int) -> str:
        """The text of card ``number``."""
        ...


@dataclass(slots=True)
class Seat:
    """A player's seat in a game: the token, its tracker, the dice and decks, and the rules.

    The simulation gives each player a seat (the players of a game share its dice and
    decks); scenarios, grading and the tests play preset turns from one.

    >>> seat = Seat.preset(dice=[3, 4], start=24).play()
    >>> seat.player.pos, seat.player.in_jail, seat.tallies
    (11, True, {11: 1})
    """

    player: Player
    tracker: Tracker
    dice: Dice
    chance: Deck
    community: Deck
    rules: Rules = LESSON_RULES
    turns_played: int = 0
    game: GameHooks | None = None  # the whole game's money rules; None for movement only
    last_roll: int = 0  # the dice total of the latest roll (a utility's rent uses it)

    @classmethod
    def preset(
        cls,
        *,
        dice: Sequence[int],
        start: int = GO,
        chance_order: Sequence[int] = (),
        chest_order: Sequence[int] = (),
        rules: Rules = LESSON_RULES,
        seed: int = 0,
        verbose: bool = False,
        jail_turns: int | None = None,
    ) -> Seat:
        """A seat with preset dice faces (two per roll) and the first cards of each deck.

        Cards after the preset ones come from decks shuffled with ``seed`` (Chance) and
        ``seed + 1`` (Community Chest). With ``jail_turns`` the token starts in jail,
        after that many turns there.
        """
        player = Player(start, verbose=verbose)
        if jail_turns is not None:
            player.in_jail, player.pos, player.jail_turns = True, JAIL, jail_turns
        return cls(
            player,
            SpaceTracker(verbose=verbose),
            PresetDice(dice, verbose=verbose, sides=rules.dice_sides),
            CardDeck(
                rules.chance_deck,
                seed=seed,
                order=chance_order,
                verbose=verbose,
                replace=rules.replacement,
            ),
            CardDeck(
                community_deck,
                seed=seed + 1,
                order=chest_order,
                verbose=verbose,
                replace=rules.replacement,
            ),
            rules,
        )

    def play(self, take_turn: Callable[..., None] | None = None, turns: int = 1) -> Seat:
        """Play ``turns`` turns with a student's ``take_turn``, or the reference engine (None).

        A ``take_turn`` that takes a ``rules`` keyword is given the seat's rules. Returns the
        seat itself, so that calls chain: ``Seat.preset(...).play().tallies``.
        """
        extra = {"rules": self.rules} if take_turn is not None and takes_rules(take_turn) else {}
        for _ in range(turns):
            if take_turn is None:
                play_turn(self)
            else:
                take_turn(
                    self.player,
                    self.tracker,
                    dice=self.dice,
                    chance=self.chance,
                    community=self.community,
                    **extra,
                )
            self.turns_played += 1
        return self

    @property
    def tallies(self) -> dict[int, int]:
        """The spaces tallied at least once, as ``{space: tally}`` (a ``SpaceTracker``'s)."""
        counts = self.tracker.counts  # type: ignore[attr-defined]
        return {int(space): int(n) for space, n in counts.items() if n}


_TAKES_RULES: weakref.WeakKeyDictionary[Callable[..., None], bool] = weakref.WeakKeyDictionary()


def takes_rules(take_turn: Callable[..., None]) -> bool:
    """Whether ``take_turn`` takes a ``rules`` keyword (the reference engine does).

    Asked once per function (a simulation asks on every turn, and reading a signature
    costs more than the turn); a redefined function is a new function, asked again."""
    try:
        return _TAKES_RULES[take_turn]
    except (KeyError, TypeError):  # not seen yet, or cannot be remembered
        pass
    try:
        parameters = inspect.signature(take_turn).parameters.values()
    except (TypeError, ValueError):
        return False
    found = any(p.name == "rules" or p.kind is p.VAR_KEYWORD for p in parameters)
    with contextlib.suppress(TypeError):  # e.g. a bound method: asked again next time
        _TAKES_RULES[take_turn] = found
    return found


def check_rules_for(take_turn: Callable[..., None], rules: Rules) -> None:
    """Refuse rule options that a ``take_turn`` without a ``rules`` keyword cannot follow.

    Such a function is given the rules' dice and decks, but its own code decides the jail
    strategy and what is counted.
    """
    if takes_rules(take_turn):
        return
    own = ("jail", "counting", "go_to_jail", "cards", "doubles")
    decided = [
        f"{name}={getattr(rules, name)!r}"
        for name in own
        if getattr(rules, name) != getattr(LESSON_RULES, name)
    ]
    if decided:
        raise ValueError(
            f"your take_turn decides the jail strategy, the counting and which rules it plays "
            f"itself, so {' and '.join(decided)} cannot be applied to it: write that rule into "
            "your take_turn (or give it a rules= keyword) and leave those options at their "
            "defaults."
        )


# ---------------------------------------------------------------------------
# One turn, roll by roll
# ---------------------------------------------------------------------------


def take_turn(
    player: Player,
    tracker: SpaceTracker,
    *,
    dice: Dice,
    chance: CardDeck,
    community: CardDeck,
    rules: Rules = LESSON_RULES,
) -> None:
    """Play one whole turn for ``player`` under ``rules``, tallying into ``tracker``.

    >>> player, tracker = Player(pos=24), SpaceTracker()
    >>> take_turn(player, tracker, dice=PresetDice([3, 4]),
    ...           chance=CardDeck(chance_deck), community=CardDeck(community_deck))
    >>> print(player.pos, player.in_jail, tracker.counts[11])
    11 True 1
    """
    sides = getattr(dice, "sides", rules.dice_sides)
    if sides != rules.dice_sides:
        raise ValueError(f"the dice have {sides} sides but the rules say {rules.dice_sides}.")
    play_turn(Seat(player, tracker, dice, chance, community, rules))


def play_turn(seat: Seat) -> None:
    """One whole turn: roll after roll, for as long as doubles earn another."""
    doubles = play_roll(seat)
    while doubles:
        doubles = play_roll(seat, doubles)


def play_roll(seat: Seat, doubles_so_far: int = 0) -> int:
    """One roll of the dice and everything it leads to.

    Returns the doubles rolled in a row so far when the player rolls again, else 0 (the
    turn is over). Every engine is built from this function: the fast and exact engines
    play it once for every start, dice total and card (:mod:`monopoly_lesson.roll_table`).
    """
    if seat.player.in_jail:  # only a turn's first roll can start in jail
        seat.player.start_jail_turn()
        if seat.rules.jail == "long" and not leaves_jail_now(seat):
            jail_roll(seat)
            return 0
        seat.player.leave_jail()  # short stay: pay, leave, and roll as a free player
    return free_roll(seat, doubles_so_far)


def leaves_jail_now(seat: Seat) -> bool:
    """In the whole game a jailed player may pay (or use a card) and leave before rolling."""
    return seat.game is not None and seat.game.leave_jail_now(seat)


def free_roll(seat: Seat, doubles_so_far: int) -> int:
    """Roll, move and land; the third doubles in a row sends the player to jail instead."""
    d1, d2 = seat.dice.roll()
    seat.last_roll = d1 + d2
    doubles = doubles_so_far + 1 if d1 == d2 and seat.rules.doubles else 0
    if doubles == DOUBLES_TO_JAIL:
        send_to_jail(seat)
    else:
        move_and_land(seat, d1 + d2)
    count_roll_end(seat)
    return doubles if roll_again(seat, d1, d2) else 0


def jail_roll(seat: Seat) -> None:
    """Long stay in jail: leave on doubles or on the last turn allowed, else stay (tally Jail)."""
    d1, d2 = seat.dice.roll()
    seat.last_roll = d1 + d2
    if d1 == d2 or seat.player.jail_turns >= TURNS_IN_JAIL:
        if d1 != d2 and seat.game is not None:
            seat.game.pay_to_leave_jail(seat)  # the whole game: the third failed roll pays
        seat.player.leave_jail()
        move_and_land(seat, d1 + d2)  # no roll again, even after doubles
    else:
        count_landing(seat, JAIL)
    count_roll_end(seat)


def roll_again(seat: Seat, d1: int, d2: int) -> bool:
    """Doubles earn another roll, unless the roll ended with the player sent to jail."""
    return d1 == d2 and seat.rules.doubles and not seat.player.in_jail


def move_and_land(seat: Seat, steps: int) -> None:
    """Move forward by the dice total and resolve the landing."""
    advance(seat, steps)
    resolve_landing(seat)


def advance(seat: Seat, steps: int) -> None:
    """Move forward ``steps`` spaces; in the whole game, passing or landing on Go pays."""
    passes_go = seat.player.pos - 1 + steps >= NUM_SPACES
    seat.player.move_forward(steps)
    if passes_go and seat.game is not None:
        seat.game.passed_go(seat)


def resolve_landing(seat: Seat, card: str | None = None) -> None:
    """The one procedure for every landing: Go to Jail, else tally and maybe draw a card.

    ``card`` is the card that moved the token here, if one did (the whole game's rent
    depends on it).
    """
    space = seat.player.pos
    if space == GO_TO_JAIL and seat.rules.go_to_jail:
        send_to_jail(seat)
        return
    count_landing(seat, space)
    if seat.game is not None:
        seat.game.landed(seat, card)  # rent, buying, taxes: before any card is drawn
    if not seat.rules.cards:
        return
    if space in CHANCE_SPACES:
        draw_card(seat, seat.chance)
    elif space in COMMUNITY_CHEST_SPACES:
        draw_card(seat, seat.community)


def draw_card(seat: Seat, deck: Deck) -> None:
    """Draw a card and follow it: to jail, to a new landing, or nothing at all."""
    number = deck.draw()
    card = deck.card(number)
    if seat.game is not None:
        seat.game.card_drawn(seat, deck, number)
    if card in SENDS_TO_JAIL:
        send_to_jail(seat)
        return
    destination = card_destination(card, seat.player.pos)
    if destination is None:
        return
    if card in GO_BACK:
        seat.player.move_to(destination)
    else:
        advance(seat, (destination - seat.player.pos) % NUM_SPACES)
    resolve_landing(seat, card)  # a card's move is a new landing, resolved the same way


def card_destination(card: str, pos: int) -> int | None:
    """The space a card sends the token to from ``pos``, or None if it does not move it.

    "Nearest" is always the next one forward, passing Go if need be.

    >>> card_destination("Advance token to the nearest Railroad", 37)
    6
    >>> card_destination("Go Back 3 Spaces", 37)
    34
    """
    if card in ADVANCE_TO:
        return ADVANCE_TO[card]
    if card in ADVANCE_TO_NEAREST:
        return min(ADVANCE_TO_NEAREST[card], key=lambda s: (s - pos - 1) % NUM_SPACES)
    if card in GO_BACK:
        return (pos - 1 - GO_BACK[card]) % NUM_SPACES + 1
    return None


def send_to_jail(seat: Seat) -> None:
    """Move the token to Jail, tally Jail once; the player is now in jail."""
    seat.player.go_to_jail()
    count_landing(seat, JAIL)


def count_landing(seat: Seat, space: int) -> None:
    """Tally a landing (the lesson's counting: every landing counts)."""
    if seat.rules.counting == "landings":
        seat.tracker.tally(space)


def count_roll_end(seat: Seat) -> None:
    """Tally where the token rests after a roll (the "end_of_move" counting only)."""
    if seat.rules.counting == "end_of_move":
        seat.tracker.tally(seat.player.pos)
