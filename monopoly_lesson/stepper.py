"""The game a turn stepper shows, as a plain object: play turns, start again, read the state.

:class:`StepperState` knows nothing of widgets. It plays any ``take_turn`` (a student's
own) with the starter objects, keeps their narration as the log, and catches a failing
turn so that the game stays usable. The widget in :mod:`monopoly_lesson.widgets` draws it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from .checks import at_the_call, check_seed, check_whole
from .rules import LESSON_RULES, Rules, Seat, check_rules
from .starter import (
    GO,
    JAIL,
    NUM_SPACES,
    CardDeck,
    Player,
    PresetDice,
    RandomDice,
    SpaceTracker,
    community_deck,
    space_name,
)

__all__ = ["LOG_LINES", "StepperSetup", "StepperState"]

LOG_LINES = 400
"""The log keeps the latest lines only, so a long session stays responsive."""


def _whole(value: object, what: str) -> int:
    return check_whole(value, what)


def _card_order(value: object, what: str) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{what} must be a list of card numbers such as [8, 1], got {value!r}.")
    return tuple(_whole(number, f"each card number in {what}") for number in value)


@dataclass(frozen=True)
class StepperSetup:
    """How a stepped game starts: players (1 or 2), seed, dice, start space, cards, rules.

    ``preset=None`` rolls random dice from ``seed``; a list of faces (two per roll) replays
    them. The decks are shuffled with ``seed + 1`` (Chance) and ``seed + 2`` (Community
    Chest), after dealing ``chance_order`` and ``chest_order`` first.
    """

    players: int = 1
    seed: int = 0
    preset: tuple[int, ...] | None = None
    start: int = GO
    chance_order: tuple[int, ...] = ()
    chest_order: tuple[int, ...] = ()
    rules: Rules = LESSON_RULES

    def __post_init__(self) -> None:
        check_rules(self.rules)
        if _whole(self.players, "players") not in (1, 2):
            raise ValueError(f"players must be 1 or 2, got {self.players!r}.")
        check_seed(self.seed, limit=None)
        if not 1 <= _whole(self.start, "start") <= NUM_SPACES:
            raise ValueError(
                f"start must be a space number from 1 to {NUM_SPACES}, got {self.start}."
            )
        # A frozen dataclass sets its normalised fields through object.__setattr__.
        if self.preset is not None:
            faces = PresetDice(self.preset, sides=self.rules.dice_sides).faces  # checks them
            object.__setattr__(self, "preset", tuple(faces))
        object.__setattr__(self, "chance_order", _card_order(self.chance_order, "chance_order"))
        object.__setattr__(self, "chest_order", _card_order(self.chest_order, "chest_order"))
        self.decks()  # checks the card numbers against the decks

    def decks(self) -> tuple[CardDeck, CardDeck]:
        """Fresh Chance and Community Chest decks, narrating what they deal."""
        replace = self.rules.replacement
        chance = CardDeck(
            self.rules.chance_deck,
            seed=self.seed + 1,
            verbose=True,
            order=list(self.chance_order),
            replace=replace,
        )
        community = CardDeck(
            community_deck,
            seed=self.seed + 2,
            verbose=True,
            order=list(self.chest_order),
            replace=replace,
        )
        return chance, community

    def dice(self) -> PresetDice | RandomDice:
        """Fresh dice: the preset faces, or random dice seeded with ``seed``."""
        sides = self.rules.dice_sides
        if self.preset is None:
            return RandomDice(self.seed, sides=sides, verbose=True)
        return PresetDice(self.preset, verbose=True, sides=sides)


def _on_board(pos: object) -> bool:
    return type(pos) is int and 1 <= pos <= NUM_SPACES


def _check_on_board(player: Player) -> None:
    """A take_turn must leave the token on a space 1..40 (a whole number)."""
    if not _on_board(player.pos):
        raise ValueError(
            f"take_turn left the token on {player.pos!r}, which is not a space "
            f"(a whole number from 1 to {NUM_SPACES}); the token was put back where it was"
        )


class StepperState:
    """A game played one turn at a time with any ``take_turn``; no widgets, no drawing.

    ``take_turn`` is called as ``take_turn(player, tracker, dice=..., chance=...,
    community=...)``. Its printed narration becomes the log, under a ``--- Turn N, Player k
    ---`` header per turn. An error it raises is recorded (``error``, and a line in the log)
    and the game stays usable. A ``take_turn`` defined in a notebook (``__main__``) is looked
    up again at every turn, so re-running its cell with a fix takes effect at once.
    """

    def __init__(
        self,
        take_turn: Callable[..., None],
        *,
        players: int = 1,
        seed: int = 0,
        preset: Sequence[int] | None = None,
        start: int = GO,
        chance_order: Sequence[int] = (),
        chest_order: Sequence[int] = (),
        rules: Rules = LESSON_RULES,
    ) -> None:
        with at_the_call():  # a mistake in an argument is shown from here, not from the checks
            if not callable(take_turn):
                raise TypeError(
                    "take_turn must be a function such as monopoly_lesson.take_turn, "
                    f"got {type(take_turn).__name__}."
                )
            self.take_turn = take_turn
            self.setup = StepperSetup(
                players=players,
                seed=seed,
                preset=preset,
                start=start,
                chance_order=chance_order,
                chest_order=chest_order,
                rules=rules,
            )
            self.reset()

    def configure(self, **changes: object) -> None:
        """Change some of the setup (``players=2``, ``seed=5``, ``preset=[3, 4]``...), start again.

        Bad values raise ``ValueError`` or ``TypeError`` and leave the game as it was.
        """
        unknown = sorted(set(changes) - {field.name for field in dataclasses.fields(StepperSetup)})
        if unknown:
            allowed = ", ".join(field.name for field in dataclasses.fields(StepperSetup))
            raise TypeError(f"configure() can change {allowed}; got {', '.join(unknown)}.")
        with at_the_call():  # a mistake in a value is shown from here, not from the checks
            self.setup = dataclasses.replace(self.setup, **changes)
        self.reset()

    def reset(self) -> None:
        """Start again: tokens on the start space, fresh dice, decks and tallies, empty log."""
        setup = self.setup
        self.tracker = SpaceTracker(verbose=True)
        self.dice = setup.dice()
        self.chance, self.community = setup.decks()
        self.seats = [
            Seat(
                Player(setup.start, verbose=True, name=f"Player {i + 1}"),
                self.tracker,
                self.dice,
                self.chance,
                self.community,
                setup.rules,
            )
            for i in range(setup.players)
        ]
        self.turns_played = 0
        self.lines: list[str] = []
        self.error: str | None = None

    def step(self, turns: int = 1) -> None:
        """Play ``turns`` turns, players alternating; stop at the first error."""
        if _whole(turns, "turns") < 0:
            raise ValueError(f"turns must be 0 or more, got {turns}.")
        for _ in range(turns):
            if not self._play_one_turn():
                break
        self.lines = self.lines[-LOG_LINES:]

    def _play_one_turn(self) -> bool:
        seat = self.seats[self.turns_played % len(self.seats)]
        player = seat.player
        number = self.turns_played // len(self.seats) + 1
        self.lines.append(f"--- Turn {number}, {player.name} ---")
        narration, play = io.StringIO(), self.current_take_turn()
        before = player.pos
        try:
            with contextlib.redirect_stdout(narration):
                seat.play(play)
            _check_on_board(player)
        except Exception as problem:  # a student's code may raise anything
            self.lines.extend(narration.getvalue().splitlines())
            if not _on_board(player.pos):
                player.pos = before  # so the board can still be drawn
            self.record_error(
                f"Error in take_turn on turn {number} ({player.name}): "
                f"{type(problem).__name__}: {problem}"
            )
            return False
        self.lines.extend(narration.getvalue().splitlines())
        self.turns_played += 1
        self.error = None
        return True

    def current_take_turn(self) -> Callable[..., None]:
        """The function to play with: the notebook's latest definition of the same name."""
        fn = self.take_turn
        main = sys.modules.get("__main__")
        if getattr(fn, "__module__", None) == "__main__" and main is not None:
            latest = getattr(main, getattr(fn, "__name__", ""), None)
            if callable(latest):
                return latest
        return fn

    def record_error(self, message: str) -> None:
        """Record a problem: it becomes ``error`` and an ``ERROR:`` line in the log."""
        self.error = message
        self.lines.append("ERROR: " + message)

    @property
    def players(self) -> list[Player]:
        """The players, in the order they take turns."""
        return [seat.player for seat in self.seats]

    @property
    def next_player(self) -> Player:
        """The player whose turn is next."""
        return self.players[self.turns_played % len(self.players)]

    @property
    def tokens(self) -> dict[str, int]:
        """Where the tokens are: ``{player name: space}``."""
        return {player.name: player.pos for player in self.players}

    @property
    def tallies(self) -> pd.Series:
        """The tallies so far: 40 ints indexed by space 1..40."""
        return self.tracker.counts

    def where(self) -> list[str]:
        """One line per player, e.g. ``"Player 1 on Jail (11), in jail"`` (or ``", just
        visiting"``: on Jail, not in it)."""
        return [
            f"{player.name} on {space_name(player.pos)}{_jail_words(player)}"
            for player in self.players
        ]


def _jail_words(player: Player) -> str:
    if player.in_jail:
        return ", in jail"
    return ", just visiting" if player.pos == JAIL else ""
