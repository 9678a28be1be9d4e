"""Grading: check a student's ``take_turn`` against the rules, and a results table against
the course's trends.

A student's function is played side by side with the reference engine on identical dice
and decks, turn by turn, and what the rules define is compared: tallies, position, the
jail state, and the dice and cards used. How the code is organised does not matter.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pandas as pd

from .rules import Seat
from .scenarios import SCENARIOS
from .starter import DiceUsedUpError, PresetDice, RandomDice, _narrate_roll
from .trends import PASS_RATES, check_trends

__all__ = [
    "RULE_CHECKS",
    "CheckResult",
    "GradingReport",
    "ResultsReport",
    "check_results",
    "check_take_turn",
]

TakeTurn = Callable[..., None]


@dataclass(frozen=True)
class RuleCheck:
    """A targeted scenario: the rule it tests and the preset dice and cards it uses."""

    rule: str
    start: int
    dice: tuple[int, ...]
    turns: int
    chance_order: tuple[int, ...] = ()
    chest_order: tuple[int, ...] = ()
    in_jail: bool = False


RULE_CHECKS = (
    RuleCheck("moving forward and passing Go", 38, (2, 3), 1),
    RuleCheck("Go to Jail (31) sends the player to jail", 24, (3, 4), 1),
    RuleCheck("just visiting Jail by dice, then playing on", 5, (3, 3, 1, 2), 1),
    RuleCheck("a Chance card that advances the token (to Go)", 1, (3, 4), 1, chance_order=(1,)),
    RuleCheck("nearest railroad is the next one forward, passing Go", 30, (3, 4), 1,
              chance_order=(5,)),
    RuleCheck("nearest utility from Chance 23", 16, (3, 4), 1, chance_order=(4,)),
    RuleCheck("Go Back 3 from Chance 37 lands on Community Chest 34 and draws", 30, (3, 4), 1,
              chance_order=(9,), chest_order=(1,)),
    RuleCheck("a card that does not move does nothing more", 1, (3, 4), 1, chance_order=(10,)),
    RuleCheck("a Community Chest card sends the player to jail", 15, (1, 2), 1,
              chest_order=(2,)),
    RuleCheck("doubles roll again", 1, (3, 3, 1, 2), 1),
    RuleCheck("being sent to jail during doubles ends the turn", 4, (2, 2, 3, 4), 1,
              chance_order=(8,)),
    RuleCheck("three doubles in a row: jail, without moving", 1, (3, 3, 2, 2, 1, 1, 1, 2), 1),
    RuleCheck("in jail without doubles: stay, and tally Jail", 11, (1, 2, 2, 3), 2, in_jail=True),
    RuleCheck("in jail: doubles leave, move, and no roll again", 11, (6, 6, 1, 2), 1,
              chance_order=(10,), in_jail=True),
    RuleCheck("in jail: the third turn leaves anyway", 11, (1, 2, 1, 2, 3, 4), 3, in_jail=True),
    RuleCheck("leaving jail onto Community Chest draws a card", 11, (1, 2, 1, 2, 3, 4), 3,
              chest_order=(1,), in_jail=True),
)  # fmt: skip
"""One targeted scenario per rule, as in the package's rule tests."""


@dataclass(frozen=True)
class CheckResult:
    """One check: the rule it covers, whether it passed, and what went wrong if not."""

    rule: str
    passed: bool
    message: str = ""
    turn: int | None = None

    def __str__(self) -> str:
        where = f" (turn {self.turn})" if self.turn else ""
        return f"PASS  {self.rule}" if self.passed else f"FAIL  {self.rule}{where}: {self.message}"


@dataclass(frozen=True)
class GradingReport:
    """Every check of a ``take_turn``; ``passed`` only when all of them pass."""

    checks: list[CheckResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when every check passed."""
        return all(check.passed for check in self.checks)

    @property
    def failures(self) -> list[CheckResult]:
        """The checks that failed."""
        return [check for check in self.checks if not check.passed]

    def __str__(self) -> str:
        verdict = "all rules pass" if self.passed else f"{len(self.failures)} check(s) fail"
        return "\n".join([f"take_turn: {verdict}", *map(str, self.checks)])


# -- playing both side by side ---------------------------------------------------------


class _CountingDice:
    """Dice that count the rolls taken, so two players of the same dice can be compared."""

    def __init__(self, dice: PresetDice | RandomDice, verbose: bool = False) -> None:
        self.dice, self.sides, self.rolls, self.verbose = dice, dice.sides, 0, verbose

    def roll(self) -> tuple[int, int]:
        self.rolls += 1
        d1, d2 = self.dice.roll()
        if self.verbose:
            _narrate_roll(d1, d2)
        return d1, d2


def _observe(seat: Seat) -> tuple:
    """What the rules define about a seat: tallies, the token, the dice and cards used."""
    p = seat.player
    return (
        tuple(seat.tracker.counts), p.pos, p.in_jail, p.jail_turns,
        seat.dice.rolls, seat.chance.draws, seat.community.draws,
    )  # fmt: skip


def _seat(start: int, in_jail: bool, dice, chance_order, chest_order, seed: int, verbose: bool):
    seat = Seat.preset(dice=[], start=start, chance_order=chance_order,
                       chest_order=chest_order, seed=seed, verbose=verbose)  # fmt: skip
    seat.player.in_jail = in_jail
    seat.dice = _CountingDice(dice, verbose)
    return seat


def _compare(
    fn: TakeTurn,
    rule: str,
    turns: int,
    make_dice: Callable[[], PresetDice | RandomDice],
    *,
    start: int = 1,
    in_jail: bool = False,
    chance_order: Sequence[int] = (),
    chest_order: Sequence[int] = (),
    seed: int = 0,
) -> CheckResult:
    """Play ``fn`` and the reference side by side; report the first turn that differs."""
    args = (chance_order, chest_order, seed)
    expected = _seat(start, in_jail, make_dice(), *args, verbose=True)
    student = _seat(start, in_jail, make_dice(), *args, verbose=False)
    for turn in range(1, turns + 1):
        before = _observe(expected)
        narration = io.StringIO()
        with contextlib.redirect_stdout(narration):
            expected.play()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                student.play(fn)
        except Exception as error:  # a student's code may raise anything
            message = _explain_error(error, before, _observe(expected), narration)
            return CheckResult(rule, False, message, turn)
        if _observe(student) != _observe(expected):
            message = _explain(before, _observe(student), _observe(expected), narration.getvalue())
            return CheckResult(rule, False, message, turn)
    return CheckResult(rule, True)


# -- explaining a difference in a student's words --------------------------------------


def _situation(before: tuple) -> str:
    _, pos, in_jail, jail_turns, *_ = before
    if in_jail:
        return f"the turn started in jail ({jail_turns} turn(s) served so far)"
    return f"the turn started on space {pos}"


def _extra_roll(before: tuple, want: tuple, narration: str) -> str:
    """What to say when the student's take_turn rolled once more than the rules allow."""
    if before[2] and not want[2] and "doubles" in narration:
        return "after leaving jail with doubles, your take_turn rolled again; the turn should end"
    if want[2]:
        return "after the player was sent to jail, your take_turn rolled again; the turn ends"
    return "your take_turn rolled again; the turn should end"


def _explain_error(error: Exception, before: tuple, want: tuple, narration: io.StringIO) -> str:
    if isinstance(error, DiceUsedUpError):
        what = _extra_roll(before, want, narration.getvalue())
    else:
        what = f"your take_turn raised {type(error).__name__}: {error}"
    return f"{what}; {_situation(before)}. What should happen:\n{_indent(narration.getvalue())}"


def _explain(before: tuple, got: tuple, want: tuple, narration: str) -> str:
    """Say the most important difference, the situation, and what should have happened."""
    counts_got, pos_got, jail_got, jt_got, rolls_got, ch_got, cc_got = got
    counts_want, pos_want, jail_want, jt_want, rolls_want, ch_want, cc_want = want
    rolls_before = before[4]
    if rolls_got > rolls_want:
        what = _extra_roll(before, want, narration)
    elif rolls_got < rolls_want:
        used = rolls_got - rolls_before
        what = f"your take_turn stopped after {used} roll(s); after doubles it should roll again"
    elif counts_got[30] > 0:
        what = "your take_turn tallied Go to Jail (31); it should send the player to jail instead"
    elif (ch_got, cc_got) != (ch_want, cc_want):
        what = (f"your take_turn drew {ch_got - before[5]} Chance and {cc_got - before[6]} "
                f"Community Chest card(s); it should draw {ch_want - before[5]} and "
                f"{cc_want - before[6]}")  # fmt: skip
    elif counts_got != counts_want:
        diff = [(s + 1, g, w) for s, (g, w) in enumerate(zip(counts_got, counts_want, strict=True))
                if g != w]  # fmt: skip
        what = "tallies differ: " + ", ".join(
            f"space {s} has {g}, expected {w}" for s, g, w in diff[:4]
        )
    elif pos_got != pos_want:
        what = f"your token ended on space {pos_got}; it should be on {pos_want}"
    else:
        what = (f"the jail state differs: in_jail={jail_got}, jail_turns={jt_got}; expected "
                f"in_jail={jail_want}, jail_turns={jt_want}")  # fmt: skip
    return f"{what}; {_situation(before)}. What should happen:\n{_indent(narration)}"


def _indent(text: str) -> str:
    return "\n".join("      " + line for line in text.strip().splitlines())


# -- the checks --------------------------------------------------------------------------


def check_take_turn(
    fn: TakeTurn, *, random_games: int = 30, random_turns: int = 200, seed: int = 2026
) -> GradingReport:
    """Check a student's ``take_turn`` against every rule; see :class:`GradingReport`.

    It plays RULES.md's scenarios, one targeted scenario per rule (:data:`RULE_CHECKS`),
    and ``random_games`` random games of ``random_turns`` turns, each side by side with the
    reference engine on identical dice and decks.
    """
    if not callable(fn):
        raise TypeError(f"expected a take_turn function, got {type(fn).__name__}.")
    checks = []
    for s in SCENARIOS.values():
        checks.append(_compare(
            fn, f"RULES.md scenario {s.number}: {s.description}", s.turns,
            lambda s=s: PresetDice(s.dice), start=s.start, chance_order=s.chance_order,
            chest_order=s.chest_order,
        ))  # fmt: skip
    for c in RULE_CHECKS:
        checks.append(_compare(
            fn, c.rule, c.turns, lambda c=c: PresetDice(c.dice), start=c.start,
            in_jail=c.in_jail, chance_order=c.chance_order, chest_order=c.chest_order,
        ))  # fmt: skip
    random_check = CheckResult(f"{random_games} random games of {random_turns} turns", True)
    for game in range(random_games):
        result = _compare(
            fn, random_check.rule, random_turns,
            lambda game=game: RandomDice(seed + game), seed=seed + 1000 + game,
        )  # fmt: skip
        if not result.passed:
            random_check = CheckResult(
                result.rule, False, f"game {game + 1}: {result.message}", result.turn
            )
            break
    checks.append(random_check)
    return GradingReport(checks)


@dataclass(frozen=True)
class ResultsReport:
    """The course's trends in a results table, each with how often a correct run shows it."""

    rows: pd.DataFrame

    @property
    def passed(self) -> bool:
        """False only when a trend that correct runs nearly always show (99%+) is missing."""
        return not bool(self.rows["suspicious"].any())

    def __str__(self) -> str:
        lines = [
            "results: "
            + (
                "consistent with a correct simulation"
                if self.passed
                else "a trend that correct runs nearly always show is missing"
            )
        ]
        for row in self.rows.itertuples():
            mark = "yes" if row.shown else "NO "
            note = ""
            if not row.shown:
                note = (
                    "  <- check your code"
                    if row.suspicious
                    else f"  (a correct run misses this {1 - row.pass_rate:.0%} of the time: noise)"
                )
            lines.append(f"{mark}  {row.trend}  [correct runs: {row.pass_rate:.1%}]{note}")
        return "\n".join(lines)  # fmt: skip


def check_results(results: pd.Series | pd.DataFrame) -> ResultsReport:
    """Check a results table (or counts) against the course's trends, fairly.

    For each trend it says whether it is shown and how often a correct 1000-game simulation
    shows it (:data:`monopoly_lesson.trends.PASS_RATES`); only a missing trend that correct
    runs show 99% of the time or more is flagged.
    """
    shown = check_trends(results)
    rows = pd.DataFrame(
        {"trend": list(shown), "shown": list(shown.values()),
         "pass_rate": [PASS_RATES[name] for name in shown]}
    )  # fmt: skip
    rows["suspicious"] = ~rows["shown"] & (rows["pass_rate"] >= 0.99)
    return ResultsReport(rows)
