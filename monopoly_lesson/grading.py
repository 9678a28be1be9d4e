"""Grading: check a student's ``take_turn`` against the rules, and a results table against
the trends of the rules page (``rules.md``, "Trends").

A student's function is played side by side with the reference engine on identical dice
and decks, turn by turn, and what the rules define is compared: tallies, position, the
jail state, and the dice and cards used. How the code is organised does not matter.

A take_turn chapter (1 to 4) is graded for the rules chapters 1 to N teach
(:data:`~monopoly_lesson.checker.chapter_checks.CHAPTER_RULES`): its own checks and the random games
are played by the reference engine with the later chapters' rules switched off, and its
results are held to the trends those rules make true. A take_turn that also follows later
chapters' rules (written early) passes if it follows them exactly. Chapters 5 and 6, and a
take_turn of no known chapter, are graded against every rule.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .checker.answers import MalformedAnswer, read_game
from .checker.chapter_checks import CHAPTER_RULES, chapter_games, rules_taught
from .checker.probe import game_seat, observe, play_game
from .rules import LESSON_RULES, Rules
from .scenarios import SCENARIOS, Difference, explain_difference, turn_state
from .trends import check_trends, trend_pass_rates

__all__ = [
    "GRADED_CHAPTERS",
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
NOT_A_TREND = 0.5  # a trend that most correct runs under the rules miss is not checked
GRADED_CHAPTERS = (1, 2, 3, 4)
"""The chapters graded for their own rules; every other take_turn is graded for every rule."""


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
    RuleCheck(
        "nearest railroad is the next one forward, passing Go", 30, (3, 4), 1, chance_order=(5,)
    ),
    RuleCheck("nearest utility from Chance 23", 16, (3, 4), 1, chance_order=(4,)),
    RuleCheck(
        "Go Back 3 from Chance 37 lands on Community Chest 34 and draws",
        30,
        (3, 4),
        1,
        chance_order=(9,),
        chest_order=(1,),
    ),
    RuleCheck("a card that does not move does nothing more", 1, (3, 4), 1, chance_order=(10,)),
    RuleCheck("a Community Chest card sends the player to jail", 15, (1, 2), 1, chest_order=(2,)),
    RuleCheck("doubles roll again", 1, (3, 3, 1, 2), 1),
    RuleCheck(
        "being sent to jail during doubles ends the turn", 4, (2, 2, 3, 4), 1, chance_order=(8,)
    ),
    RuleCheck("three doubles in a row: jail, without moving", 1, (3, 3, 2, 2, 1, 1, 1, 2), 1),
    RuleCheck("in jail without doubles: stay, and tally Jail", 11, (1, 2, 2, 3), 2, in_jail=True),
    RuleCheck(
        "in jail: doubles leave, move, and no roll again",
        11,
        (6, 6, 1, 2),
        1,
        chance_order=(10,),
        in_jail=True,
    ),
    RuleCheck("in jail: the third turn leaves anyway", 11, (1, 2, 1, 2, 3, 4), 3, in_jail=True),
    RuleCheck(
        "leaving jail onto Community Chest draws a card",
        11,
        (1, 2, 1, 2, 3, 4),
        3,
        chest_order=(1,),
        in_jail=True,
    ),
)
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
    """Every check of a ``take_turn``; ``passed`` only when all of them pass.

    ``chapter`` is the chapter whose rules were asked for (None: every rule); ``graded_as``
    the chapter whose rules the checks were passed under, when take_turn follows a later
    chapter's rules too (written early).
    """

    checks: list[CheckResult] = field(default_factory=list)
    chapter: int | None = None
    graded_as: int | None = None

    @property
    def rules(self) -> Rules:
        """The rules take_turn was graded under (what its results are held to)."""
        return rules_of(self.graded_as or self.chapter)

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
        head = f"take_turn: {verdict}"
        if self.chapter in GRADED_CHAPTERS:
            head += f", graded for {rules_taught(self.chapter)}"
        if self.graded_as:
            head += (
                f"; it also follows {rules_taught(self.graded_as)}, written early, and "
                "passes under them"
            )
        return "\n".join([head, *map(str, self.checks)])


def rules_of(chapter: int | None) -> Rules:
    """The rules a chapter's take_turn is graded for: chapters 1 to 4 their own, else every rule."""
    return CHAPTER_RULES[chapter] if chapter in GRADED_CHAPTERS else LESSON_RULES


# -- the games of the checks, as data ---------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One game of the checks: the rule it covers and its setup as data (see ``probe``).

    ``label`` names one game among several of the same check ("game 3").
    """

    rule: str
    setup: dict
    label: str = ""


def _preset(case: Any) -> dict[str, Any]:
    """A scenario's or check's start, dice, turns and card orders, as a game's settings."""
    return {
        "start": case.start,
        "dice": list(case.dice),
        "turns": case.turns,
        "chance_order": list(case.chance_order),
        "chest_order": list(case.chest_order),
    }


def rule_games(
    random_games: int = 30, random_turns: int = 200, seed: int = 2026, chapter: int | None = None
) -> list[Game]:
    """The games of :func:`check_take_turn`: the rules' scenarios, one per rule, and random
    games; for a chapter 1 to 4, the checks of chapters 1 to N instead of the scenarios."""
    if chapter in GRADED_CHAPTERS:
        games = [
            Game(c.name, {**_preset(c), "jail_turns": c.jail_turns}) for c in chapter_games(chapter)
        ]
    else:
        games = [Game(s.name, _preset(s)) for s in SCENARIOS.values()]
        games += [
            Game(c.rule, {**_preset(c), "jail_turns": 0 if c.in_jail else None})
            for c in RULE_CHECKS
        ]
    rule = f"{random_games} random games of {random_turns} turns"
    games += [
        Game(
            rule,
            {
                "start": 1,
                "dice_seed": seed + game,
                "seed": seed + 1000 + game,
                "turns": random_turns,
            },
            f"game {game + 1}",
        )
        for game in range(random_games)
    ]
    return games


def grade_games(
    games: Sequence[Game], play: Callable[[Game], object], chapter: int | None = None
) -> GradingReport:
    """Play each game with ``play`` (which returns what was observed, as data) and grade it
    for ``chapter``'s rules (None: every rule).

    The reference engine plays the same game here; after the first failing game of a check
    the rest of that check's games are not played, unless a later chapter's rules may still
    be tried on them.
    """
    book = GradeBook(chapter)
    for game in games:
        if not book.settled(game):
            book.add(game, play(game))
    return book.report()


class GradeBook:
    """Games graded one at a time, as their answers arrive, for ``chapter``'s rules: each
    check passes until one of its games fails.

    For a chapter 1 to 4 every answer is kept: a take_turn that fails its chapter's rules is
    graded again, on the same answers, for each later chapter's rules, and passes if it
    follows one of them exactly (later rules written early)."""

    def __init__(self, chapter: int | None = None) -> None:
        self.chapter = chapter
        self.rules = rules_of(chapter)
        self.later = _later_chapters(chapter)
        self.checks: dict[str, CheckResult] = {}
        self.answers: list[tuple[Game, object]] = []

    def settled(self, game: Game) -> bool:
        """Whether grading ``game`` can change nothing (its check failed, no later rules)."""
        failed = game.rule in self.checks and not self.checks[game.rule].passed
        return failed and not self.later

    def add(self, game: Game, observed: object) -> None:
        """Grade one game from what was observed (see :func:`grade_game`)."""
        if self.later:
            self.answers.append((game, observed))
        if not (game.rule in self.checks and not self.checks[game.rule].passed):
            self.checks[game.rule] = grade_game(game, observed, self.rules)

    def report(self) -> GradingReport:
        """Every check graded so far, in the order of their first game; if they fail, the
        same games under the first later chapter's rules that take_turn follows exactly."""
        own = GradingReport(list(self.checks.values()), self.chapter)
        if own.passed:
            return own
        for later in self.later:
            checks = _all_pass(self.answers, rules_of(later))
            if checks is not None:
                return GradingReport(checks, self.chapter, graded_as=later)
        return own


def _later_chapters(chapter: int | None) -> list[int]:
    """The later chapters whose rules differ, each rule set once (chapter 5 for 5 and 6)."""
    if chapter not in GRADED_CHAPTERS:
        return []
    later: dict[Rules, int] = {}
    for number in range(chapter + 1, max(CHAPTER_RULES) + 1):
        later.setdefault(rules_of(number), number)
    later.pop(rules_of(chapter), None)
    return list(later.values())


def _all_pass(answers: list[tuple[Game, object]], rules: Rules) -> list[CheckResult] | None:
    """Every check passed under ``rules`` (None as soon as one game fails)."""
    checks: dict[str, CheckResult] = {}
    for game, observed in answers:
        result = grade_game(game, observed, rules)
        if not result.passed:
            return None
        checks[game.rule] = result
    return list(checks.values())


def grade_game(game: Game, observed: object, rules: Rules = LESSON_RULES) -> CheckResult:
    """Compare a game's observed turns with the reference engine's under ``rules`` (the
    jail state only where the rules hold players in jail); an unreadable answer fails."""
    prefix = f"{game.label}: " if game.label else ""
    try:
        turns, failed = read_game(observed, game.setup["turns"])
    except MalformedAnswer as error:
        return CheckResult(
            game.rule,
            False,
            f"{prefix}the answer about this game could not be read ({error}), so the check fails",
        )
    difference = _first_difference(game, turns, failed, rules)
    if difference is None:
        return CheckResult(game.rule, True)
    return CheckResult(game.rule, False, prefix + difference.explain(), difference.turn)


def _first_difference(
    game: Game, turns: list[dict], failed: dict | None, rules: Rules
) -> Difference | None:
    """Play the reference on the game's setup, turn by turn, against the observed turns."""
    seat = game_seat(game.setup, rules=rules)
    jail = rules.jail == "long"  # before chapter 5, jail is only a place
    for index in range(game.setup["turns"]):
        before = turn_state(observe(seat), jail=jail)
        should = io.StringIO()
        with contextlib.redirect_stdout(should):
            seat.play()
        want = turn_state(observe(seat), jail=jail)
        if index < len(turns):
            seen, raised = turns[index], None
        else:  # read_game makes sure that the game stopped on an error
            seen, raised = failed["state"], (failed["type"], failed["message"])  # type: ignore[index]
        got = turn_state(seen, jail=jail)
        if raised is None and got == want:
            continue
        return explain_difference(
            index + 1, before, got, want, should.getvalue(), seen["said"], jail=jail, raised=raised
        )
    return None


# -- the checks --------------------------------------------------------------------------


def check_take_turn(
    fn: TakeTurn,
    *,
    chapter: int | None = None,
    random_games: int = 30,
    random_turns: int = 200,
    seed: int = 2026,
) -> GradingReport:
    """Check a student's ``take_turn`` against every rule, or for the rules of chapters 1
    to ``chapter`` (1 to 4); see :class:`GradingReport`.

    It plays the scenarios of the rules page (``rules.md``), one targeted scenario per rule
    (:data:`RULE_CHECKS`) (for a chapter: the checks of chapters 1 to N), and
    ``random_games`` random games of ``random_turns`` turns, each side by side with the
    reference engine on identical dice and decks.
    """
    if not callable(fn):
        raise TypeError(f"expected a take_turn function, got {type(fn).__name__}.")
    _check_chapter_number(chapter)
    games = rule_games(random_games, random_turns, seed, chapter)
    return grade_games(games, lambda game: play_game(fn, game.setup), chapter)


def _check_chapter_number(chapter: object) -> None:
    if chapter is None:
        return
    if isinstance(chapter, bool) or not isinstance(chapter, int):
        raise TypeError(f"chapter must be a whole number 1 to 6 or None, got {chapter!r}.")
    if not 1 <= chapter <= max(CHAPTER_RULES):
        raise ValueError(f"chapter must be 1 to 6 (a take_turn chapter) or None, got {chapter}.")


@dataclass(frozen=True)
class ResultsReport:
    """The course's trends in a results table, each with how often a correct run shows it."""

    rows: pd.DataFrame
    rules_text: str = ""  # the rules of a chapter, in words ("": the lesson's rules)

    @property
    def passed(self) -> bool:
        """False only when a trend that correct runs nearly always show (99%+) is missing."""
        return not bool(self.rows["suspicious"].any())

    def __str__(self) -> str:
        verdict = (
            "consistent with a correct simulation"
            if self.passed
            else "a trend that correct runs nearly always show is missing"
        )
        held = f", held to the trends of {self.rules_text}" if self.rules_text else ""
        lines = [f"results{held}: {verdict}"]
        for row in self.rows.itertuples():
            mark = "yes" if row.shown else "NO "
            note = ""
            if row.pass_rate < NOT_A_TREND:
                mark, note = "-- ", "  (not a trend of these rules: not checked)"
            elif not row.shown:
                note = (
                    "  <- check your code"
                    if row.suspicious
                    else f"  (a correct run misses this {1 - row.pass_rate:.0%} of the time: noise)"
                )
            lines.append(f"{mark}  {row.trend}  [correct runs: {row.pass_rate:.1%}]{note}")
        return "\n".join(lines)


def check_results(results: pd.Series | pd.DataFrame, chapter: int | None = None) -> ResultsReport:
    """Check a results table (or counts) against the course's trends, fairly.

    For each trend it says whether it is shown and how often a correct 1000-game simulation
    under the rules shows it (the lesson's rules: :data:`monopoly_lesson.trends.PASS_RATES`;
    chapters 1 to 4: their own rules, measured by
    :func:`~monopoly_lesson.trends.trend_pass_rates`); only a missing trend that correct runs
    show 99% of the time or more is flagged.
    """
    _check_chapter_number(chapter)
    shown = check_trends(results)
    rates = trend_pass_rates(rules_of(chapter))
    rows = pd.DataFrame(
        {
            "trend": list(shown),
            "shown": list(shown.values()),
            "pass_rate": [rates[name] for name in shown],
        }
    )
    rows["suspicious"] = ~rows["shown"] & (rows["pass_rate"] >= 0.99)
    return ResultsReport(rows, rules_taught(chapter) if chapter in GRADED_CHAPTERS else "")
