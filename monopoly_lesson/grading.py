"""Grading: check a student's ``take_turn`` against the rules, and a results table against
the trends of the rules page (``rules.md``, "Trends").

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

from .checker.answers import MalformedAnswer, read_game
from .checker.probe import game_seat, observe, play_game
from .scenarios import SCENARIOS, Difference, explain_difference, turn_state
from .trends import PASS_RATES, check_trends

__all__ = [
    "RULE_CHECKS",
    "CheckResult",
    "Game",
    "GradeBook",
    "GradingReport",
    "ResultsReport",
    "check_results",
    "check_take_turn",
    "grade_game",
    "grade_games",
    "rule_games",
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


# -- the games of the checks, as data ---------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One game of the checks: the rule it covers and its setup as data (see ``probe``).

    ``label`` names one game among several of the same check ("game 3").
    """

    rule: str
    setup: dict
    label: str = ""


def rule_games(random_games: int = 30, random_turns: int = 200, seed: int = 2026) -> list[Game]:
    """The games of :func:`check_take_turn`: the rules' scenarios, one per rule, random games."""
    games = [Game(s.name, {"start": s.start, "dice": list(s.dice), "turns": s.turns,
                           "chance_order": list(s.chance_order),
                           "chest_order": list(s.chest_order)})
             for s in SCENARIOS.values()]  # fmt: skip
    games += [Game(c.rule, {"start": c.start, "dice": list(c.dice), "turns": c.turns,
                            "chance_order": list(c.chance_order),
                            "chest_order": list(c.chest_order),
                            "jail_turns": 0 if c.in_jail else None})
              for c in RULE_CHECKS]  # fmt: skip
    rule = f"{random_games} random games of {random_turns} turns"
    games += [Game(rule, {"start": 1, "dice_seed": seed + game, "seed": seed + 1000 + game,
                          "turns": random_turns}, f"game {game + 1}")
              for game in range(random_games)]  # fmt: skip
    return games


def grade_games(games: Sequence[Game], play: Callable[[Game], object]) -> GradingReport:
    """Play each game with ``play`` (which returns what was observed, as data) and grade it.

    The reference engine plays the same game here; after the first failing game of a check
    the rest of that check's games are not played.
    """
    book = GradeBook()
    for game in games:
        if not book.settled(game):
            book.add(game, play(game))
    return book.report()


class GradeBook:
    """Games graded one at a time, as their answers arrive: each check passes until one of
    its games fails, and the later games of a failed check need not be graded."""

    def __init__(self) -> None:
        self.checks: dict[str, CheckResult] = {}

    def settled(self, game: Game) -> bool:
        """Whether ``game``'s check has failed already (so grading it would change nothing)."""
        return game.rule in self.checks and not self.checks[game.rule].passed

    def add(self, game: Game, observed: object) -> None:
        """Grade one game from what was observed (see :func:`grade_game`)."""
        if not self.settled(game):
            self.checks[game.rule] = grade_game(game, observed)

    def report(self) -> GradingReport:
        """Every check graded so far, in the order of their first game."""
        return GradingReport(list(self.checks.values()))


def grade_game(game: Game, observed: object) -> CheckResult:
    """Compare a game's observed turns with the reference engine's; an unreadable answer fails."""
    prefix = f"{game.label}: " if game.label else ""
    try:
        turns, failed = read_game(observed, game.setup["turns"])
    except MalformedAnswer as error:
        return CheckResult(game.rule, False, f"{prefix}the answer about this game could not be "
                           f"read ({error}), so the check fails")  # fmt: skip
    difference = _first_difference(game, turns, failed)
    if difference is None:
        return CheckResult(game.rule, True)
    return CheckResult(game.rule, False, prefix + difference.explain(), difference.turn)


def _first_difference(game: Game, turns: list[dict], failed: dict | None) -> Difference | None:
    """Play the reference on the game's setup, turn by turn, against the observed turns."""
    seat = game_seat(game.setup)
    for index in range(game.setup["turns"]):
        before = turn_state(observe(seat), jail=True)
        should = io.StringIO()
        with contextlib.redirect_stdout(should):
            seat.play()
        want = turn_state(observe(seat), jail=True)
        if index < len(turns):
            seen, raised = turns[index], None
        else:  # read_game makes sure that the game stopped on an error
            seen, raised = failed["state"], (failed["type"], failed["message"])  # type: ignore[index]
        got = turn_state(seen, jail=True)
        if raised is None and got == want:
            continue
        return explain_difference(index + 1, before, got, want, should.getvalue(),
                                  seen["said"], jail=True, raised=raised)  # fmt: skip
    return None


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
    games = rule_games(random_games, random_turns, seed)
    return grade_games(games, lambda game: play_game(fn, game.setup))


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
