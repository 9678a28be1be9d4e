"""The preset scenarios of the rules as data, and a way to play and check them.

A scenario fixes the start space, the dice and the first cards of each deck ("Scenarios"
on the rules page, ``rules.md``). A ``take_turn`` is checked by playing it side by side
with the reference engine on identical dice and decks, turn by turn; where it first
differs, the check says which turn, what the rules expect and what the code did.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .rules import LESSON_RULES, Rules, Seat
from .starter import (
    DiceUsedUpError,
    PresetDice,
    RandomDice,
    _narrate_roll,
    space_name,
    tallies,
)

__all__ = [
    "SCENARIOS",
    "Difference",
    "NoRollError",
    "Scenario",
    "check_scenario",
    "compare_turns",
    "play_preset",
    "play_side_by_side",
]

TakeTurn = Callable[..., None]


class NoRollError(RuntimeError):
    """Raised by :func:`play_preset` when a turn ends without a roll of the dice: every turn
    starts with one, so a take_turn that never rolls would never use the preset dice up."""


@dataclass(frozen=True)
class Scenario:
    """One preset scenario: where the token starts, the dice, the cards, what it must tally."""

    number: int
    description: str
    start: int
    dice: tuple[int, ...]
    turns: int
    tallies: dict[int, int]
    chance_order: tuple[int, ...] = ()
    chest_order: tuple[int, ...] = ()
    rules_needed: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        """How the checks call it, e.g. ``scenario 1 of the rules (dice onto Go to Jail)``."""
        return f"scenario {self.number} of the rules ({self.description})"


SCENARIOS = {
    1: Scenario(
        1,
        "dice onto Go to Jail",
        start=24,
        dice=(3, 4),
        turns=1,
        tallies={11: 1},
        rules_needed=("go to jail",),
    ),
    2: Scenario(
        2,
        "Chance cards, with doubles",
        start=1,
        dice=(3, 4, 3, 4, 1, 1, 3, 4, 5, 3),
        turns=4,
        tallies={1: 1, 6: 1, 8: 3, 16: 1, 23: 1, 29: 1, 37: 1},
        chance_order=(1, 6, 5, 4, 10),
        rules_needed=("cards", "doubles"),
    ),
    3: Scenario(
        3,
        "two doubles, then Community Chest",
        start=1,
        dice=(3, 3, 2, 2, 1, 2, 1, 3),
        turns=2,
        tallies={7: 1, 11: 1, 14: 1, 18: 1},
        chest_order=(3,),
        rules_needed=("cards", "doubles"),
    ),
    4: Scenario(
        4,
        "three doubles, then three turns in jail",
        start=1,
        dice=(3, 3, 3, 3, 1, 1, 1, 2, 4, 5, 5, 6),
        turns=4,
        tallies={7: 1, 11: 3, 13: 1, 22: 1},
        rules_needed=("doubles", "jail"),
    ),
    5: Scenario(
        5,
        "doubles onto Go to Jail, doubles out of jail",
        start=25,
        dice=(3, 3, 1, 2, 3, 3),
        turns=3,
        tallies={11: 2, 17: 1},
        rules_needed=("go to jail", "doubles", "jail"),
    ),
}
"""The five scenarios of the rules page (``rules.md``, "Scenarios"), by number."""


def play_preset(
    take_turn: Callable[..., None] | None = None,
    *,
    dice: Sequence[int],
    start: int = 1,
    chance_order: Sequence[int] = (),
    chest_order: Sequence[int] = (),
    turns: int | None = None,
    verbose: bool = False,
    rules: Rules = LESSON_RULES,
    seed: int = 0,
) -> Seat:
    """Play turns with preset dice and cards; ``take_turn=None`` plays the reference engine.

    ``turns=None`` plays until the preset dice are used up. Cards after the preset ones
    come from decks shuffled with ``seed``. With ``verbose`` every event is narrated.
    Returns the :class:`~monopoly_lesson.rules.Seat` played, with its ``tallies``. A turn
    that rolls no dice is a :class:`NoRollError` at once (every turn starts with a roll).

    >>> play_preset(dice=[1, 3, 2, 3]).tallies  # Go to Income Tax (5), then Connecticut (10)
    {5: 1, 10: 1}
    """
    seat = Seat.preset(
        dice=dice,
        start=start,
        chance_order=chance_order,
        chest_order=chest_order,
        rules=rules,
        seed=seed,
        verbose=verbose,
    )
    while (turns is None and seat.dice.rolls_left) or (turns and seat.turns_played < turns):
        if verbose:
            print(f"--- Turn {seat.turns_played + 1} ---")
        rolled = seat.dice.rolls_used
        try:
            seat.play(take_turn)
        except DiceUsedUpError as error:
            raise DiceUsedUpError(
                f"turn {seat.turns_played + 1} needs more dice: {error}"
            ) from None
        if seat.dice.rolls_used == rolled:
            raise NoRollError(_no_roll(seat.turns_played, take_turn))
    return seat


def _no_roll(turn: int, take_turn: Callable[..., None] | None) -> str:
    """What to tell a student whose turn ``turn`` rolled no dice: the rule, and the fix."""
    name = getattr(take_turn, "__name__", "") if take_turn is not None else ""
    name = name if name.isidentifier() else "take_turn"
    return (
        f"turn {turn} rolled no dice: every turn starts with a roll of the dice "
        f"({name} must call dice.roll())."
    )


# -- playing a take_turn side by side with the rules -------------------------------------


class CountingDice:
    """Dice that count (and narrate) the rolls taken, so two seats' dice can be compared."""

    def __init__(self, dice: PresetDice | RandomDice, verbose: bool = True) -> None:
        self.dice, self.sides, self.rolls, self.verbose = dice, dice.sides, 0, verbose

    def roll(self) -> tuple[int, int]:
        """Roll the dice underneath, counting the roll (a preset roll too many still counts)."""
        self.rolls += 1
        d1, d2 = self.dice.roll()
        if self.verbose:
            _narrate_roll(d1, d2)
        return d1, d2


def preset_seat(
    dice: Sequence[int] | RandomDice,
    *,
    start: int = 1,
    chance_order: Sequence[int] = (),
    chest_order: Sequence[int] = (),
    jail_turns: int | None = None,
    seed: int = 0,
) -> Seat:
    """A narrated seat whose dice count their rolls: one side of a side-by-side game.

    ``dice`` are preset faces (two per roll) or a ``RandomDice``; with ``jail_turns`` the
    token starts in jail after that many turns there.
    """
    seat = Seat.preset(
        dice=[],
        start=start,
        chance_order=chance_order,
        chest_order=chest_order,
        seed=seed,
        verbose=True,
        jail_turns=jail_turns,
    )
    seat.dice = CountingDice(dice if isinstance(dice, RandomDice) else PresetDice(dice))
    return seat


class _State(NamedTuple):
    """What the rules define about a seat after a turn (the jail state only if compared)."""

    counts: tuple[int, ...]
    pos: int
    in_jail: bool | None
    jail_turns: int | None
    rolls: int
    chance: int
    chest: int


def _observe(seat: Seat, jail: bool) -> _State:
    p = seat.player
    counts = tuple(tallies(seat.tracker))
    state = (p.in_jail, p.jail_turns) if jail else (None, None)
    rolls = getattr(seat.dice, "rolls", None)
    return _State(counts, p.pos, *state, rolls, seat.chance.draws, seat.community.draws)


@dataclass(frozen=True)
class Difference:
    """Where a ``take_turn`` first differs from the rules: the turn, and what went wrong."""

    turn: int
    problem: str
    situation: str
    expected: str
    got: str
    should: str
    did: str

    def explain(self) -> str:
        """The problem, then what the rules expect and what the code did, told event by event."""
        return "\n".join(
            [
                f"{self.problem}; {self.situation}.",
                f"  The rules expect: {self.expected}.",
                f"  Your take_turn:   {self.got}.",
                "  What should happen:",
                _indent(self.should),
                "  What your take_turn did:",
                _indent(self.did or "(nothing happened)"),
            ]
        )

    def report(self, name: str) -> str:
        """The explanation headed by the check's name and the turn."""
        return f"{name}, turn {self.turn}: {self.explain()}"


def compare_turns(
    fn: TakeTurn,
    expected: Seat,
    student: Seat,
    turns: int,
    *,
    jail: bool = True,
    catch: bool = True,
    name: str = "",
) -> Difference | None:
    """Play the rules on ``expected`` and ``fn`` on ``student``, turn by turn; the first difference.

    After each turn it compares what the rules define: tallies, the token's space, the dice
    rolled, the cards drawn and, with ``jail``, the jail state. An error that ``fn`` raises
    becomes a difference (``catch``) or is raised again with a note naming ``name`` and the turn.
    """
    for turn in range(1, turns + 1):
        before = _observe(expected, jail)
        should, did = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(should):
            expected.play()
        raised = None
        try:
            with contextlib.redirect_stdout(did):
                student.play(fn)
        except Exception as error:  # a student's code may raise anything
            if not catch and not isinstance(error, DiceUsedUpError):
                _add_note(error, f"(raised by your take_turn in {name}, turn {turn})")
                raise
            raised = (type(error).__name__, str(error))
        got, want = _observe(student, jail), _observe(expected, jail)
        if raised is None and got == want:
            continue
        return explain_difference(
            turn, before, got, want, should.getvalue(), did.getvalue(), jail=jail, raised=raised
        )
    return None


def explain_difference(
    turn: int,
    before: _State,
    got: _State,
    want: _State,
    should: str,
    did: str,
    *,
    jail: bool,
    raised: tuple[str, str] | None = None,
) -> Difference:
    """The :class:`Difference` of a turn: states before and after, both narrations, any error.

    ``raised`` is the (type name, message) of an error the student's turn raised.
    """
    if raised is not None and raised[0] == DiceUsedUpError.__name__:
        problem = _extra_roll(before, should)
    elif raised is not None:
        problem = f"your take_turn raised {raised[0]}: {raised[1]}"
    else:
        problem = _problem(before, got, want, should, did)
    return Difference(
        turn,
        problem,
        _situation(before),
        _summary(before, want, jail),
        _summary(before, got, jail),
        should,
        did,
    )


def turn_state(observed: dict, jail: bool) -> _State:
    """A turn observed as data (see :func:`monopoly_lesson.checker.probe.observe`) as a
    comparable state."""
    state = (observed["in_jail"], observed["jail_turns"]) if jail else (None, None)
    return _State(
        tuple(observed["counts"]),
        observed["pos"],
        *state,
        observed["rolls"],
        observed["chance"],
        observed["chest"],
    )


def play_side_by_side(
    take_turn: TakeTurn,
    *,
    dice: Sequence[int],
    start: int = 1,
    turns: int = 1,
    chance_order: Sequence[int] = (),
    chest_order: Sequence[int] = (),
    jail_turns: int | None = None,
    jail: bool = True,
    name: str = "this game",
) -> Difference | None:
    """Play ``take_turn`` and the rules on the same preset dice and decks; the first difference.

    None when every turn matches. An error raised by ``take_turn`` is raised again, with a
    note naming the game and the turn.

    >>> from monopoly_lesson import take_turn
    >>> play_side_by_side(take_turn, dice=[3, 4], start=24) is None
    True
    """
    if not callable(take_turn):
        raise TypeError(f"expected a take_turn function, got {type(take_turn).__name__}.")
    setup = dict(
        start=start, chance_order=chance_order, chest_order=chest_order, jail_turns=jail_turns
    )
    expected, student = preset_seat(dice, **setup), preset_seat(dice, **setup)
    return compare_turns(take_turn, expected, student, turns, jail=jail, catch=False, name=name)


def check_scenario(take_turn: Callable[..., None], scenario: Scenario | int) -> bool:
    """Play ``take_turn`` through a scenario of the rules, side by side with the rules.

    Prints a line and returns True when every turn matches; otherwise raises an
    ``AssertionError`` that names the turn, what the rules expect and what the code did.

    >>> from monopoly_lesson import take_turn
    >>> check_scenario(take_turn, 1)
    Scenario 1 of the rules (dice onto Go to Jail): passes
    True
    """
    if isinstance(scenario, bool) or not isinstance(scenario, (int, Scenario)):
        raise TypeError(f"scenario must be a Scenario or a number 1 to 5, got {scenario!r}.")
    if isinstance(scenario, int) and scenario not in SCENARIOS:
        raise ValueError(f"the rules have scenarios 1 to {len(SCENARIOS)}, got {scenario}.")
    s = SCENARIOS[scenario] if isinstance(scenario, int) else scenario
    difference = play_side_by_side(
        take_turn,
        dice=s.dice,
        start=s.start,
        turns=s.turns,
        chance_order=s.chance_order,
        chest_order=s.chest_order,
        jail="jail" in s.rules_needed,
        name=s.name,
    )
    if difference is not None:
        raise AssertionError(difference.report(s.name[0].upper() + s.name[1:]))
    print(f"Scenario {s.number} of the rules ({s.description}): passes")
    return True


# -- saying what went wrong, in a student's words ------------------------------------------


def _add_note(error: Exception, note: str) -> None:
    if hasattr(error, "add_note"):  # Python 3.11 and later
        error.add_note(note)


def _where(space: object) -> str:
    try:
        return space_name(space)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return f"{space!r} (not a space of the board)"


def _situation(before: _State) -> str:
    if before.in_jail:
        return f"the turn started in jail ({_many(before.jail_turns, 'turn')} served so far)"
    return f"the turn started on {_where(before.pos)}"


def _tallied(before: _State, after: _State) -> str:
    """The spaces tallied between two states, e.g. ``Chance (8) twice, Go (1)``."""
    pairs = enumerate(zip(before.counts, after.counts, strict=True), 1)
    added = [(space, a - b) for space, (b, a) in pairs if a != b]
    times = {1: "", 2: " twice"}
    return ", ".join(f"{_where(s)}{times.get(n, f' x{n}')}" for s, n in added) or "nothing"


def _summary(before: _State, after: _State, jail: bool) -> str:
    """One turn in a line: what it tallied, rolled and drew, and where the token ends."""
    decks = [
        (after.chance - before.chance, "Chance"),
        (after.chest - before.chest, "Community Chest"),
    ]
    drawn = " and ".join(_many(n, f"{deck} card") for n, deck in decks if n) or "no card"
    rolls = "" if after.rolls is None else _many(after.rolls - before.rolls, "roll") + "; "
    text = f"tallies {_tallied(before, after)}; {rolls}{drawn}; the token ends on "
    text += _where(after.pos)
    if jail:
        served = _many(after.jail_turns, "turn")
        text += f", in jail ({served} served)" if after.in_jail else ", free"
    return text


def _extra_roll(before: _State, narration: str) -> str:
    """What to say when the student's take_turn rolled once more than the rules allow."""
    if before.in_jail and "leaves jail" in narration and "doubles" in narration:
        return "after leaving jail with doubles, your take_turn rolled again; the turn should end"
    if "sent to jail" in narration:
        return "after the player was sent to jail, your take_turn rolled again; the turn ends"
    return "your take_turn rolled again; the turn should end"


def _problem(before: _State, got: _State, want: _State, narration: str, did: str = "") -> str:
    """The most important difference between the student's turn and the rules' turn."""
    if None not in (got.rolls, want.rolls) and got.rolls != want.rolls:
        return _roll_problem(before, got, want, narration, did)
    if got.counts[30] > want.counts[30]:
        return "your take_turn tallied Go to Jail (31); it should send the player to jail instead"
    if (got.chance, got.chest) != (want.chance, want.chest):
        return (
            f"your take_turn drew {got.chance - before.chance} Chance and "
            f"{got.chest - before.chest} Community Chest card(s); it should draw "
            f"{want.chance - before.chance} and {want.chest - before.chest}"
        )
    if got.counts != want.counts:
        return (
            f"your take_turn tallied {_tallied(before, got)} this turn; the rules tally "
            f"{_tallied(before, want)}"
        )
    if got.pos != want.pos:
        return f"your token ended the turn on {_where(got.pos)}; it should be on {_where(want.pos)}"
    state = {True: "in jail", False: "free"}
    return (
        f"after this turn your player is {state[bool(got.in_jail)]} with jail_turns="
        f"{got.jail_turns}; the rules have them {state[bool(want.in_jail)]} with "
        f"jail_turns={want.jail_turns}"
    )


def _roll_problem(before: _State, got: _State, want: _State, narration: str, did: str) -> str:
    """Too many or too few rolls, saying what the student's turn actually did."""
    if got.rolls > want.rolls:  # type: ignore[operator]
        return _extra_roll(before, narration)
    used, needed = got.rolls - before.rolls, want.rolls - before.rolls  # type: ignore[operator]
    if used == 0:
        return f"your take_turn did not roll the dice; the rules roll them {_many(needed, 'time')}"
    rolled = [line for line in did.splitlines() if line.startswith("Rolled ")]
    again = "; after doubles it should roll again" if rolled and "doubles" in rolled[-1] else ""
    return f"your take_turn stopped after {_many(used, 'roll')}; the rules roll {needed}{again}"


def _many(n: object, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _indent(text: str) -> str:
    return "\n".join("      " + line for line in text.strip().splitlines())
