"""Grading: check a student's ``take_turn`` against the rules, and a results table against
the trends of the rules page (``rules.md``, "Trends").

A student's function is played side by side with the reference engine on identical dice
and decks, turn by turn, and what the rules define is compared: tallies, position, the
jail state, and the dice and cards used. How the code is organised does not matter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pandas as pd

from .scenarios import SCENARIOS, compare_turns, preset_seat
from .starter import RandomDice
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


def _compare(fn: TakeTurn, rule: str, turns: int, dice: Callable[[], Sequence[int] | RandomDice],
             *, seed: int = 0, **setup: object) -> CheckResult:  # fmt: skip
    """Play ``fn`` and the reference side by side; report the first turn that differs."""
    expected = preset_seat(dice(), seed=seed, **setup)  # type: ignore[arg-type]
    student = preset_seat(dice(), seed=seed, **setup)  # type: ignore[arg-type]
    difference = compare_turns(fn, expected, student, turns)
    if difference is None:
        return CheckResult(rule, True)
    return CheckResult(rule, False, difference.explain(), difference.turn)


# -- the checks --------------------------------------------------------------------------


def check_take_turn(
    fn: TakeTurn, *, random_games: int = 30, random_turns: int = 200, seed: int = 2026
) -> GradingReport:
    """Check a student's ``take_turn`` against every rule; see :class:`GradingReport`.

    It plays the scenarios of the rules page (``rules.md``), one targeted scenario per rule
    (:data:`RULE_CHECKS`), and ``random_games`` random games of ``random_turns`` turns, each
    side by side with the reference engine on identical dice and decks.
    """
    if not callable(fn):
        raise TypeError(f"expected a take_turn function, got {type(fn).__name__}.")
    checks = [
        _compare(fn, s.name, s.turns, lambda s=s: s.dice, start=s.start,
                 chance_order=s.chance_order, chest_order=s.chest_order)
        for s in SCENARIOS.values()
    ]  # fmt: skip
    for c in RULE_CHECKS:
        checks.append(_compare(
            fn, c.rule, c.turns, lambda c=c: c.dice, start=c.start,
            jail_turns=0 if c.in_jail else None, chance_order=c.chance_order,
            chest_order=c.chest_order,
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
