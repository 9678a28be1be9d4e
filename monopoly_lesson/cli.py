"""The command line: ``python -m monopoly_lesson simulate|trace|exact|euler84|check ...``,
the whole game: ``play`` (one game) and ``tournament`` (win rates over many),
``evolve`` (the genetic algorithm's players, generation after generation), and
``compile`` (the fast engines, ahead of their first use).

Bad arguments, and every failure (a file that cannot be written, a damaged run folder, a
size that does not fit in memory, a strategy's error), end with exit status 2 and one line
on stderr, never a traceback; targets are checked before the work starts.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shlex
import signal
import sys
import textwrap
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pandas as pd

from .checker.capstone_check import CAPSTONE_GAMES
from .checker.notebook_check import MAX_GAMES, MAX_MEMORY_GB, MAX_TIMEOUT, check_notebook
from .checker.sandbox import process_began
from .checks import MAX_ROUNDS, check_max_rounds, check_seed
from .evolution.experiment import CONNECT_TIMEOUT
from .evolution.operators import (
    CROSSOVERS,
    FITNESS,
    INITS,
    MUTATION_RATE,
    MUTATION_SD,
    SELECTIONS,
    check_fitness,
)
from .evolution.run import BENCHMARK_OPPONENTS, EvolutionResult, evolve, fitness_summary
from .exact import MAX_SIDES, euler84, expected_tallies
from .game.chromosomes import CHROMOSOME_PLAYERS
from .game.engine import MonopolyGame, play_monopoly
from .game.person import PERSON, PLANS, You
from .game.plugins import SHIPPED_PLAYERS, strategy_named
from .game.seat_plan import SeatPlan
from .game.state import MAX_PLAYERS, MIN_PLAYERS
from .game.strategies import StrategyError
from .game.terminal import (
    SEPARATOR,
    LeftTheTable,
    TakeBack,
    Terminal,
    answers_file_text,
    split_answers,
)
from .game.tournament import play_games, win_rates
from .rules import Rules
from .scenarios import play_preset
from .simulation import ENGINES, results_table, simulate, space_table
from .starter import (
    CardDeck,
    DiceUsedUpError,
    PresetDice,
    chance_deck,
    community_deck,
    standard_chance_deck,
)

__all__ = ["main"]

PROG = "python -m monopoly_lesson"
EXACT_SIDES_HELP = f"faces per die, 2 to {MAX_SIDES} (default 6)"


class UsageError(Exception):
    """A problem with the command's arguments, reported in one line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see --help)")


def _whole(text: str, low: int | None = None, what: str = "value") -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}") from None
    if low is not None and value < low:
        raise argparse.ArgumentTypeError(f"{what} must be at least {low}, got {value}")
    return value


def _positive(text: str) -> int:
    return _whole(text, 1, "this option")


def _space(text: str) -> int:
    value = _whole(text, 1, "the space")
    if value > 40:
        raise argparse.ArgumentTypeError(f"the space must be from 1 to 40, got {value}")
    return value


def _sides(text: str) -> int:
    return _whole(text, 2, "the number of sides")


def _seed(text: str) -> int:
    return _whole(text, 0, "the seed")


def _numbers(text: str) -> list[int]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise argparse.ArgumentTypeError("expected comma-separated whole numbers, e.g. 3,4,1,1")
    return [_whole(item, what=f"each number in {text!r}") for item in items]


def _add_rule_options(
    parser: argparse.ArgumentParser, sides_help: str = "faces per die (default 6)"
) -> None:
    group = parser.add_argument_group("rule options (defaults: the lesson's rules)")
    group.add_argument("--sides", type=_positive, default=6, help=sides_help)
    group.add_argument("--jail", choices=("long", "short"), default="long", help="jail stay")
    _add_chance(group, "lesson", "the Chance deck (Rules.chance)")
    group.add_argument(
        "--counting",
        choices=("landings", "end_of_move"),
        default="landings",
        help="tally every landing, or where the token rests after each roll",
    )
    group.add_argument("--replacement", action="store_true", help="draw cards with replacement")


def _add_chance(parser: argparse._ActionsContainer, default: str, help: str) -> None:
    """``--chance lesson|standard``, named as ``Rules.chance``; ``--deck``, its old name,
    still works but is not shown."""
    choices = ("lesson", "standard")
    parser.add_argument("--chance", choices=choices, default=default, help=help)
    parser.add_argument("--deck", dest="chance", choices=choices, help=argparse.SUPPRESS)


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(
        dice_sides=args.sides,
        jail=args.jail,
        chance=args.chance,
        counting=args.counting,
        replacement=args.replacement,
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m monopoly_lesson``: one sub-parser per command."""
    parser = _Parser(
        prog=PROG,
        description="Which Monopoly spaces are landed on most? Simulate, trace a scenario, "
        "or work out the exact answer.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for add in (
        _add_simulate,
        _add_trace,
        _add_exact,
        _add_euler84,
        _add_rent,
        _add_check,
        _add_play,
        _add_tournament,
        _add_evolve,
        _add_experiment,
        _add_compile,
    ):
        add(commands)
    return parser


def _add_compile(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "compile",
        help="compile the fast engines now (make lesson: the movement engine at install, the "
        "whole game in the background)",
        description="Compile the fast engines into numba's cache, so that their first use "
        "later does not wait for it: the movement engine (chapters 1 to 8, seconds) and the "
        "whole-game engine (chapter 9 on, under a minute); each is timed. An engine numba's "
        "cache holds already is loaded; one that another process is compiling is waited for.",
    )
    parser.add_argument(
        "engines",
        nargs="*",
        type=_engine_name,
        metavar="ENGINE",
        help="movement or game (default: both)",
    )
    parser.add_argument(
        "--background",
        action="store_true",
        help="compile them in a process of its own and return at once (its log in numba's "
        "cache folder); a process that needs an engine meanwhile waits for it",
    )


def _engine_name(text: str) -> str:
    """A fast engine's name, as ``compile`` takes it."""
    from .engine_cache import FAST_ENGINES

    if text not in FAST_ENGINES:
        known = ", ".join(repr(name) for name in FAST_ENGINES)
        raise argparse.ArgumentTypeError(f"an engine is one of {known}, got {text!r}")
    return text


def run_compile(args: argparse.Namespace) -> None:
    """Compile (or load) the fast engines, saying how long each took; or start compiling
    them in the background."""
    from .engine_cache import (
        FAST_ENGINES,
        compile_in_background,
        engine_cached,
        expected_seconds,
    )

    engines = list(dict.fromkeys(args.engines)) or list(FAST_ENGINES)
    if args.background:
        for engine in engines:
            print(compile_in_background(engine))
        return
    start = time.perf_counter()
    for engine in engines:
        title, cached = FAST_ENGINES[engine], engine_cached(engine)
        if not cached:
            print(f"Compiling {title} ({expected_seconds(engine)[1]})...", flush=True)
        began = time.perf_counter()
        _play_one_tiny_game(engine)  # numba compiles the engine, or loads it
        took = time.perf_counter() - began
        done = "in numba's cache, loaded" if cached else "compiled"
        print(f"{title.capitalize()}: {done} in {took:.1f} s.", flush=True)
    print(
        f"Ready in {time.perf_counter() - start:.1f} s; later uses load "
        f"{'them' if len(engines) > 1 else 'it'} from numba's cache."
    )


def _play_one_tiny_game(engine: str) -> None:
    """Play ``engine`` as little as it plays, so that numba compiles or loads it (its
    progress bar is shown on a terminal only, not in a log)."""
    from .engine_cache import first_call
    from .game.fast import play_one_tiny_game

    with first_call(engine, progress=sys.stderr.isatty()):
        if engine == "movement":
            simulate(games=1, turns=1, seed=0, engine="fast", progress=False)
        else:
            play_one_tiny_game()


def _add_order(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--order",
        choices=("frequency", "board"),
        default=None,
        help="print only this table (default: both)",
    )


def _add_simulate(commands: argparse._SubParsersAction) -> None:
    sim = commands.add_parser(
        "simulate",
        help="run the lesson's simulation and print the results tables",
        description="Run games of alternating turns and print the tallies per space, "
        "sorted by frequency and in board order.",
    )
    sim.add_argument("--games", type=_positive, default=1000, help="games (default 1000)")
    sim.add_argument("--turns", type=_positive, default=150, help="turns per player (150)")
    sim.add_argument("--players", type=_positive, default=2, help="players per game (2)")
    sim.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    _add_order(sim)
    sim.add_argument(
        "--csv", metavar="FILE", help="also write the table (board order unless --order) as CSV"
    )
    sim.add_argument("--force", action="store_true", help="let --csv write over a file")
    sim.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    sim.add_argument(
        "--engine",
        choices=ENGINES,
        default="reference",
        help="the readable reference engine (default) or the compiled fast one",
    )
    _add_rule_options(sim)


def _add_trace(commands: argparse._SubParsersAction) -> None:
    trace = commands.add_parser(
        "trace",
        help="narrate a scenario with preset dice and cards",
        description="Play turns with preset dice (and optionally preset cards), narrating "
        "every event, then print the tallies. Example: trace --start 24 --dice 3,4",
    )
    trace.add_argument("--start", type=_space, default=1, help="starting space 1..40 (1)")
    trace.add_argument(
        "--dice", type=_numbers, required=True, help="die faces, two per roll: 3,4,1,1"
    )
    trace.add_argument("--chance-order", type=_numbers, default=[], help="Chance cards first")
    trace.add_argument(
        "--chest-order", type=_numbers, default=[], help="Community Chest cards first"
    )
    trace.add_argument(
        "--turns", type=_positive, default=None, help="turns to play (default: until dice run out)"
    )
    trace.add_argument("--seed", type=_seed, default=0, help="seed for cards after the preset")
    _add_rule_options(trace)


def _add_exact(commands: argparse._SubParsersAction) -> None:
    exact = commands.add_parser(
        "exact",
        help="print the exact expected tallies (Markov chain), no simulation",
        description="Work out the exact expected tallies of one player over a number of "
        "turns from Go, as a Markov chain (cards drawn with replacement).",
    )
    exact.add_argument("--turns", type=_positive, default=150, help="turns (default 150)")
    _add_order(exact)
    _add_rule_options(exact, EXACT_SIDES_HELP)


def _add_euler84(commands: argparse._SubParsersAction) -> None:
    euler = commands.add_parser(
        "euler84",
        help="print Project Euler 84's modal string, worked out exactly",
        description="Project Euler 84: the three most popular squares (00-39) as six digits, "
        "with Project Euler's own model (jail is just a square).",
    )
    euler.add_argument("--sides", type=_sides, default=6, help=EXACT_SIDES_HELP)


def _add_rent(commands: argparse._SubParsersAction) -> None:
    rent = commands.add_parser(
        "rent",
        help="print each lot's exact expected rent per opponent turn, at every stage",
        description="The exact long-run rent one opponent pays the owner of each lot per turn "
        "of that opponent (every landing, by the dice or a card), unimproved, in a complete "
        "group, with 1-4 houses or a hotel; railroads by how many are held, utilities too.",
    )
    rent.add_argument("--sides", type=_sides, default=6, help=EXACT_SIDES_HELP)
    rent.add_argument(
        "--jail",
        choices=("long", "short"),
        default="long",
        help="the opponent's jail stay (default long; short: leaves at once)",
    )
    _add_chance(rent, "standard", "the Chance deck (default standard, the whole game's)")


CHECK_DESCRIPTION = (
    "Run a student's notebook in its own kernel (a separate process, with a "
    "time limit), past any cell that fails, then grade what its chapter asks for (the "
    "chapter is the one whose handed-out cells it holds): chapters 1-4 its final "
    "take_turn for the rules chapters 1 to N teach, chapters 5-6 (and 0, 7, 8 if it has "
    "one) against every rule, and its results table against the trends of those rules; "
    "chapter 9 its own strategy (mine), played in "
    "--games games against heuristic, always and always, every answer checked, with its "
    "win rates, and its trade policy (trader); chapters 10 to 12 the exercises' answer "
    "variables; every chapter, that its cells ran. An exercise not answered (the "
    "chapter's starter code or take_turn placeholder unchanged included) fails, as a "
    "wrong answer does, which is "
    "told with a hint (--show-expected: with the right value). The cells that failed are "
    "listed. Exit status: 0 all pass, 1 "
    "something fails (named first), 2 the notebook cannot be graded (not a notebook, no "
    "strategy where the chapter needs one, too slow, too much memory), "
    "with the reason. The grade is computed in this process; the submission's processes "
    "are all killed when the check ends. With bubblewrap (Linux) they run in a sandbox: "
    "no network, no other submission, no file of yours but the notebook's own folder; "
    "without it nothing is isolated (said on stderr): run submissions in a container."
)
"""What ``check --help`` says the command does."""


def _add_check(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser(
        "check",
        help="run a student's notebook and grade what its chapter asks for",
        description=CHECK_DESCRIPTION,
    )
    check.add_argument("notebook", help="the student's .ipynb file")
    check.add_argument(
        "--timeout",
        type=_seconds,
        default=600,
        help=f"seconds allowed for the whole check, at most {MAX_TIMEOUT} (default 600)",
    )
    check.add_argument(
        "--memory",
        type=_gigabytes,
        default=4,
        metavar="GB",
        help="memory the submission may use, in GB (default 4)",
    )
    check.add_argument(
        "--games",
        type=_check_games,
        default=CAPSTONE_GAMES,
        help=f"games a chapter-9 strategy plays, 1 to {MAX_GAMES} (default {CAPSTONE_GAMES})",
    )
    check.add_argument(
        "--show-expected",
        action="store_true",
        help="for graders: show the right value of a wrong answer (by default, a hint)",
    )
    check.add_argument(
        "--student",
        type=_student,
        default=None,
        help="for graders: whose notebook it is (as on the roster of tools/student_edition.py "
        "--roster): the exercises are graded for that student's own numbers",
    )


def _student(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("the student must be named, e.g. --student alice")
    return text.strip()


def _check_games(text: str) -> int:
    value = _whole(text, 1, "the number of games")
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"the number of games must be at most {MAX_GAMES}")
    return value


def _limit(text: str, what: str, most: float) -> float:
    """A positive, finite number no larger than ``most`` (``--timeout``, ``--memory``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > most:
        raise argparse.ArgumentTypeError(
            f"{what} must be more than 0 and at most {most:g}, got {text!r}"
        )
    return value


def _seconds(text: str) -> float:
    return _limit(text, "the time limit in seconds", MAX_TIMEOUT)


def _gigabytes(text: str) -> float:
    return _limit(text, "the memory in GB", MAX_MEMORY_GB)


def _format_table(table: pd.DataFrame) -> str:
    shown = table.assign(rel=table["rel"].map(lambda r: f"{100 * r:6.2f}%"))
    return shown.to_string()


def _check_csv(path: str, force: bool, command: str = "simulate") -> None:
    """Refuse a ``--csv`` target that cannot be written, before the run rather than after."""
    if not path:
        raise UsageError(f"{PROG} {command}: --csv needs a file name, got ''.")
    target = Path(path)
    folder = target.parent
    where = f"{PROG} {command}: --csv {path}"
    if target.is_dir():
        raise UsageError(f"{where} is a folder; give a file name in it.")
    if not folder.is_dir():
        raise UsageError(f"{where}: the folder {folder} does not exist.")
    if target.exists() and not force:
        raise UsageError(f"{where} exists; add --force to write over it.")
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise UsageError(f"{where} cannot be written (permission denied).")
    existed = target.exists()
    try:  # the surest check: open it for writing (nothing is written; a new file is removed)
        with open(target, "ab"):
            pass
        if not existed:
            target.unlink()
    except OSError as error:
        raise UsageError(f"{where} cannot be written ({error.strerror or error}).") from None


def run_simulate(args: argparse.Namespace) -> None:
    """``simulate``: print the tables (and write CSV when asked)."""
    if args.csv is not None:
        _check_csv(args.csv, args.force)
    result = simulate(
        games=args.games,
        turns=args.turns,
        players=args.players,
        seed=args.seed,
        rules=_rules(args),
        progress=False if args.no_progress else None,
        engine=args.engine,
    )
    engine = "" if result.engine == "reference" else f", {result.engine} engine"
    print(
        f"{result.games} games x {result.turns} turns x {result.players} players, "
        f"seed {result.seed}{engine}, {result.rules.describe()}: {result.total} tallies."
    )
    for order in [args.order] if args.order else ["frequency", "board"]:
        print(f"\nSpaces by {'frequency' if order == 'frequency' else 'board order'}:")
        print(_format_table(result.table(order)))
    if args.csv:
        result.table(args.order or "board").to_csv(args.csv, index=False)
        print(f"\nWrote {args.csv}.")


def run_trace(args: argparse.Namespace) -> None:
    """``trace``: narrate preset turns verbosely, then print the tallies."""
    try:
        PresetDice(args.dice, sides=args.sides)
    except ValueError as error:
        raise UsageError(f"{PROG} trace: argument --dice: {error}") from None
    for option, table, order in [
        (
            "--chance-order",
            standard_chance_deck if args.chance == "standard" else chance_deck,
            args.chance_order,
        ),
        ("--chest-order", community_deck, args.chest_order),
    ]:
        try:
            CardDeck(table, order=order)
        except ValueError as error:
            raise UsageError(f"{PROG} trace: argument {option}: {error}") from None
    try:
        run = play_preset(
            dice=args.dice,
            start=args.start,
            chance_order=args.chance_order,
            chest_order=args.chest_order,
            turns=args.turns,
            verbose=True,
            rules=_rules(args),
            seed=args.seed,
        )
    except DiceUsedUpError as error:
        raise UsageError(f"{PROG} trace: {error}") from None
    player = run.player
    state = f"in jail after {player.jail_turns} turn(s)" if player.in_jail else "free"
    print(f"\nAfter {run.turns_played} turn(s): on {player.pos}, {state}.")
    table = results_table(run.tracker.counts, order="board")
    print(table.loc[table["tally"] > 0, ["space", "title", "tally"]].to_string(index=False))


def run_exact(args: argparse.Namespace) -> None:
    """``exact``: print the exact expected tallies of one player."""
    rules = _rules(args)
    expected = expected_tallies(args.turns, rules)
    print(
        f"Exact expected tallies of one player over {args.turns} turns from Go, "
        f"{rules.describe()} (cards drawn with replacement): {expected.sum():.2f} tallies."
    )
    for order in [args.order] if args.order else ["frequency", "board"]:
        print(f"\nSpaces by {'frequency' if order == 'frequency' else 'board order'}:")
        table = space_table(expected, "expected", order)
        print(_format_table(table.assign(expected=table["expected"].map("{:.3f}".format))))


def run_rent(args: argparse.Namespace) -> None:
    """``rent``: print the exact expected rent per opponent turn of every lot."""
    rules = Rules(dice_sides=args.sides, jail=args.jail, chance=args.chance)
    from .rent_value import rent_per_turn  # here: only this command needs it

    table = rent_per_turn(rules)
    print(f"Expected rent per opponent turn ($), {rules.describe()} (cards drawn uniformly):")
    print(table.to_string(float_format="{:.2f}".format, na_rep="-"))


def run_euler84(args: argparse.Namespace) -> None:
    """``euler84``: print Project Euler 84's modal string for n-sided dice."""
    print(euler84(args.sides))


class CheckFailed(Exception):
    """A checked notebook fails what its chapter is graded on: exit status 1 after the report."""


def run_check(args: argparse.Namespace) -> None:
    """``check``: run and grade a student's notebook, print the report (status 2: one line)."""
    outcome = check_notebook(
        args.notebook,
        timeout=args.timeout,
        memory_gb=args.memory,
        games=args.games,
        show_expected=args.show_expected,
        started=args.began,
        student=args.student,
    )
    if outcome.status == 2:
        raise UsageError(f"{PROG} check: {' '.join(outcome.report.split())}")
    print(outcome.report)
    if outcome.status == 1:
        raise CheckFailed


# ---------------------------------------------------------------------------
# The whole game: play one, or a tournament of many
# ---------------------------------------------------------------------------

GENES_HELP = """\
A chromosome player (rga, tga, sga, ega, bga) gets random genes, the same for the same
seed: the k-th player (from 1) is CHROMOSOME_PLAYERS[name].random(seed=1000 * SEED + k),
so different seats and seeds get different genes."""
STRATEGY_NAMES = (
    "always, never, heuristic, dealer, random:P (P from 0 to 1), rga, tga, sga, ega,\nbga; "
    f"the shipped evolved players {', '.join(SHIPPED_PLAYERS)}"
)


def _players(text: str) -> int:
    value = _whole(text, what="the number of players")
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"the number of players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {value}"
        )
    return value


def _strategy_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated strategy names, e.g. heuristic,always, got {text!r}"
        )
    for name in names:
        try:
            strategy_named(name)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error).rstrip(".")) from None
    return names


def _cli_strategy(name: str, seed: int, k: int) -> object:
    """The k-th player's strategy: a chromosome player gets genes seeded ``1000 * seed + k``."""
    if name in CHROMOSOME_PLAYERS:
        return CHROMOSOME_PLAYERS[name].random(seed=1000 * seed + k)
    return name


def _game_seed(text: str) -> int:
    """A whole game's seed: a whole number from 0 to 2**32 - 1."""
    try:
        return check_seed(_whole(text, what="the seed"), "the seed")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).rstrip(".")) from None


def _max_rounds(text: str) -> int:
    """``--max-rounds``: a whole number from 1 to MAX_ROUNDS."""
    try:
        return check_max_rounds(_whole(text, what="max_rounds"))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).rstrip(".")) from None


MAX_ROUNDS_HELP = f"rounds before a game stops, 1 to {MAX_ROUNDS:,} (default 100)"


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed",
        type=_game_seed,
        default=0,
        help="random seed, 0 to 2**32 - 1 (default 0)",
    )
    parser.add_argument("--max-rounds", type=_max_rounds, default=100, help=MAX_ROUNDS_HELP)
    parser.add_argument(
        "--trading", action="store_true", help="play with trading (off in the paper's game)"
    )


def _add_play(commands: argparse._SubParsersAction) -> None:
    play = commands.add_parser(
        "play",
        help="play one whole game of Monopoly and print the standings",
        description="Play one whole game (money, lots, houses, bankruptcy) with the "
        "strategies given, in seat order, and print the winner and the final standings.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"""strategies: {STRATEGY_NAMES}.
One name plays every seat; otherwise give one name per player.
{GENES_HELP}

A person plays too: --you SEAT seats you there (or name you in --strategy), the strategies
fill the other seats in order, and each of your decisions is asked in the terminal, with
the game narrated. Enter takes the default, ? lists the choices, b shows the board, c asks the
coach (each choice's win chance); an illegal answer is asked again, with the rule. Answers may
be piped in. Ctrl-C (exit 130) or Ctrl-D, the end of input (exit 1), stops the game, keeps your
answers in a file, one a line, and prints the command that replays them (--answers @FILE).
You are asked to propose a trade, to build (one plan a turn: 16x2, orange x2) or to lift
mortgages at your turn's end when you ask to (t, build or lift at any question) or something
new is possible; --every-question asks each of them every turn, one step at a time.

examples:
  {PROG} play --strategy heuristic,always,rga,never --seed 1
  {PROG} play --players 3 --strategy heuristic --seed 2 --verbose
  {PROG} play --you 1 --strategy ega_trading,always,heuristic --trading""",
    )
    play.add_argument(
        "--players",
        type=_players,
        default=None,
        help=f"players, {MIN_PLAYERS} to {MAX_PLAYERS} (default: one per name "
        "given, or 4 if one name is given)",
    )
    play.add_argument(
        "--strategy",
        type=_strategy_names,
        default=["always"],
        metavar="NAMES",
        help="comma-separated strategy names, one per seat (default always)",
    )
    _add_game_options(play)
    play.add_argument("--verbose", action="store_true", help="narrate every event of the game")
    _add_person_options(play)


def _add_person_options(play: argparse.ArgumentParser) -> None:
    """``play``'s options for a person at the table: the seat, the questions, the answers."""
    play.add_argument(
        "--you",
        type=_you_seat,
        metavar="SEAT",
        help="play in seat SEAT yourself, answering in the terminal",
    )
    play.add_argument(
        "--every-question",
        action="store_true",
        help="with --you: ask every question the game asks (a trade every turn, each "
        "building), not only those you choose to be asked",
    )
    play.add_argument(
        "--answers",
        metavar="ANSWERS",
        help="your first answers, to replay a game: separated by ';', or "
        "@FILE for a file of them, one a line ('#' starts a note)",
    )


def _add_tournament(commands: argparse._SubParsersAction) -> None:
    tour = commands.add_parser(
        "tournament",
        help="play many games of the same strategies and print their win rates",
        description="Play many whole games of the same strategies, seats rotated from game "
        "to game (each strategy sits in every seat equally often), and print each "
        "strategy's win rate with a 95% confidence interval (Wilson score).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"""strategies: {STRATEGY_NAMES}.
A name given twice is labelled always, always#2.
{GENES_HELP}
Each keeps its genes for the whole tournament.
--csv writes one row per player per game (the table of tournament.play_games).

examples:
  {PROG} tournament --strategy heuristic,always,never,random:0.5 \\
      --games 200 --seed 1
  {PROG} tournament --strategy rga,rga,tga,sga --games 500 --csv games.csv""",
    )
    tour.add_argument(
        "--strategy",
        type=_strategy_names,
        metavar="NAMES",
        default=["heuristic", "always", "never", "random:0.5"],
        help=f"comma-separated strategies, {MIN_PLAYERS} to {MAX_PLAYERS} "
        "(default heuristic,always,never,random:0.5)",
    )
    tour.add_argument("--games", type=_positive, default=100, help="games (default 100)")
    _add_game_options(tour)
    tour.add_argument("--csv", metavar="FILE", help="also write every player's result as CSV")
    tour.add_argument("--force", action="store_true", help="let --csv write over a file")
    tour.add_argument("--no-progress", action="store_true", help="never show a progress bar")


def run_play(args: argparse.Namespace) -> None:
    """``play``: one whole game; print the winner and the standings (narrated if verbose, or
    if a person plays: then each of its questions is asked in the terminal)."""
    names = _seat_names(args)
    seed = args.seed
    seats = [_cli_strategy(name, seed, k) for k, name in enumerate(names, start=1)]
    if PERSON in names:
        result = _play_with_you(args, names, seats)
    else:
        result = play_monopoly(
            seats, seed=seed, max_rounds=args.max_rounds, verbose=args.verbose, trading=args.trading
        )
    if args.verbose or PERSON in names:
        print()
    seat = result.winner
    trading = ", in a game with trading" if args.trading else ""
    print(
        f"Winner: {result.names[seat - 1]} (seat {seat}), "
        f"net worth ${result.net_worth[seat - 1]:,}{trading}."
    )
    print(result)


def _you_seat(text: str) -> int:
    """``--you``: a seat, from 1 (checked against the number of players once it is known)."""
    return _whole(text, 1, "the seat")


def _seat_names(args: argparse.Namespace) -> list[str]:
    """The strategy of each seat, in order: ``--strategy`` (one name for all, or one a
    seat), with ``"you"`` in seat ``--you`` if given."""
    names, players = list(args.strategy), args.players
    if args.you is not None:
        if PERSON in names:
            raise UsageError(
                f"{PROG} play: --you seats you; leave {PERSON} out of --strategy "
                f"(got {','.join(names)})."
            )
        players = players or (len(names) + 1 if len(names) > 1 else 4)
        if len(names) == 1:
            names = names * (players - 1)
        if len(names) != players - 1:
            raise UsageError(
                f"{PROG} play: --strategy names {len(names)} strategies beside "
                f"yours but --players is {players}; give {players - 1} names, or "
                "one for all."
            )
        if not args.you <= players:
            raise UsageError(
                f"{PROG} play: --you must be a seat from 1 to {players} (the "
                f"players), got {args.you}."
            )
        names.insert(args.you - 1, PERSON)
    players = players or (len(names) if len(names) > 1 else 4)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(
            f"{PROG} play: --strategy names {len(names)} strategies but --players "
            f"is {players}; give one name per player, or one for all."
        )
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UsageError(
            f"{PROG} play: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            f"got {players} strategies."
        )
    if names.count(PERSON) > 1:
        raise UsageError(
            f"{PROG} play: one person plays at the terminal, but {PERSON} "
            f"is in {names.count(PERSON)} seats; name it once, or use --you "
            "SEAT."
        )
    if args.every_question and PERSON not in names:
        raise UsageError(f"{PROG} play: --every-question asks a person; add --you SEAT.")
    if args.answers is not None and PERSON not in names:
        raise UsageError(f"{PROG} play: --answers replays a person's answers; add --you SEAT.")
    return names


def _play_with_you(args: argparse.Namespace, names: list[str], seats: list[object]) -> object:
    """The game with a person in the seat of ``"you"``, asked in the terminal; Ctrl-C or
    the end of input stops it with the command that replays the answers given."""
    terminal = Terminal(_answers_to_replay(args.answers))
    try:
        while True:
            game = _game_with_you(args, names, seats, terminal)
            try:
                return game.play()
            except TakeBack:  # played again, quietly, to the question the answer answered
                taken, kept = terminal.taken_back()
                print(f"Taken back: {taken!r}. The game is played again to that question.")
                terminal = Terminal(kept, quiet=True)
    except KeyboardInterrupt:
        terminal.speak()
        stopped = f"stopped in round {terminal.round} (Ctrl-C)"
        print(f"\n{_stopped_with_answers(args, names, terminal, stopped)}", file=sys.stderr)
        raise _Stopped from None
    except LeftTheTable as left:
        terminal.speak()
        if left.status == 2:
            raise UsageError(f"{PROG} play: {left.reason}") from None
        stopped = f"stopped in round {terminal.round}: {left.reason}"
        print(_stopped_with_answers(args, names, terminal, stopped), file=sys.stderr)
        raise _Unfinished from None


def _game_with_you(
    args: argparse.Namespace, names: list[str], seats: list[object], terminal: Terminal
) -> MonopolyGame:
    """The game of ``play --you``, its person's seat asked by ``terminal`` (with the coach)."""
    from .game.coach import coach_text  # here: the coach loads the compiled engine

    seats = list(seats)
    seat = SeatPlan(terminal, plans=not args.every_question)
    seats[names.index(PERSON)] = You(answer=seat)
    game = MonopolyGame(
        seats, seed=args.seed, max_rounds=args.max_rounds, verbose=True, trading=args.trading
    )
    terminal.seat = seat
    terminal.coach = lambda question: coach_text(  # a plan: the game's question behind it
        game, seat.pending if question.decision in PLANS.values() else question, seat.answers
    )
    return game


def _answers_to_replay(answers: str | None) -> list[str]:
    """``--answers``: ``'y;150;n'``, or ``@FILE`` holding them (one a line, or ;-separated)."""
    if answers is None:
        return []
    if answers.startswith("@"):
        return split_answers(Path(answers[1:]).read_text().splitlines())
    return split_answers([answers])


LINE = 100
"""The longest line the stop of ``play --you`` prints (the command is wrapped to fit)."""


def _stopped_with_answers(
    args: argparse.Namespace, names: list[str], terminal: Terminal, stopped: str
) -> str:
    """What a stopped game says: the seed and the answers given, the file that keeps them
    (one a line, each with its number and question) and the short command that replays
    them and plays on, wrapped across lines with a shell's line continuation."""
    command, given = _game_words(args, names), terminal.answers
    said = f"{PROG} play: {stopped}; seed {args.seed}, {len(given)} answer(s) given"
    if given:
        game = " ".join([PROG, *(shlex.join(words) for words in command)])
        try:
            path = _keep_answers(answers_file_text(game, given, terminal.asked), args.seed)
            said += f", kept one a line in {path}"
            command.append(["--answers", f"@{path}"])
        except OSError as error:
            said += f" (not kept in a file: {error.strerror or error})"
            command.append(["--answers", SEPARATOR.join(given)])
    wrapped = textwrap.fill(f"{said}.", LINE, break_long_words=False, break_on_hyphens=False)
    then = "To replay them and play on:" if given else "To play it again:"
    return "\n".join([wrapped, then, *_command_lines(command)])


def _game_words(args: argparse.Namespace, names: list[str]) -> list[list[str]]:
    """``play --you``'s game as the command's words, an option with its value together."""
    others = [name for name in names if name != PERSON]
    words = [
        ["play"],
        ["--you", str(names.index(PERSON) + 1)],
        ["--strategy", ",".join(others)],
        ["--seed", str(args.seed)],
    ]
    words += [["--max-rounds", str(args.max_rounds)]] if args.max_rounds != 100 else []
    words += [["--trading"]] if args.trading else []
    words += [["--every-question"]] if args.every_question else []
    return words


def _command_lines(words: list[list[str]]) -> list[str]:
    """A command on lines of at most :data:`LINE` characters, each but the last ending in
    a shell's line continuation; an option and its value stay on one line."""
    lines, line = [], f"  {PROG}"
    for group in words:
        part = shlex.join(group)
        if len(line) + len(f" {part} \\") > LINE and line.strip():
            lines.append(f"{line} \\")
            line = "   "
        line += f" {part}"
    return [*lines, line]


ANSWERS_FILE = "monopoly-answers-seed{seed}{n}.txt"
"""Where a stopped game keeps its answers, in the current folder (``n``: -2, -3, ...)."""


def _keep_answers(text: str, seed: int) -> Path:
    """Write ``text`` (a file of answers) to a new file, never over another one: the first
    name of :data:`ANSWERS_FILE` free, or already holding exactly ``text``."""
    for n in range(1, 1000):
        path = Path(ANSWERS_FILE.format(seed=seed, n=f"-{n}" if n > 1 else ""))
        try:
            with path.open("x", encoding="utf-8") as file:
                file.write(text)
            return path
        except FileExistsError:
            with contextlib.suppress(OSError, UnicodeDecodeError):
                if path.read_text(encoding="utf-8") == text:
                    return path
    raise FileExistsError(
        f"{ANSWERS_FILE.format(seed=seed, n='')} and the next 998 names are taken"
    )


class _Unfinished(Exception):
    """A game the person left before its end (the input ended): exit status 1, said by
    the command with the answers to replay."""


def run_tournament(args: argparse.Namespace) -> None:
    """``tournament``: many games, seats rotated; print the win rates (and write CSV)."""
    names = args.strategy
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise UsageError(
            f"{PROG} tournament: --strategy must name {MIN_PLAYERS} to "
            f"{MAX_PLAYERS} strategies, got {len(names)}."
        )
    if args.csv is not None:
        _check_csv(args.csv, args.force, "tournament")
    seed = args.seed
    entries = [_cli_strategy(name, seed, k) for k, name in enumerate(names, start=1)]
    try:
        table = play_games(
            entries,
            args.games,
            seed=seed,
            max_rounds=args.max_rounds,
            progress=not args.no_progress,
            trading=args.trading,
        )
    except StrategyError as error:
        raise UsageError(_failed_game(error, args, seed)) from None
    except ValueError as error:
        raise UsageError(f"{PROG} tournament: {error}") from None
    trading = ", with trading" if args.trading else ""
    print(
        f"{args.games} games of {', '.join(names)}, seats rotated, seed {seed}, "
        f"at most {args.max_rounds} rounds each{trading}."
    )
    print(f"Equally good strategies would each win about {1 / len(names):.0%} of the games.")
    print("ci_low to ci_high: a 95% confidence interval for the win rate (Wilson score).\n")
    print(_format_rates(win_rates(table)))
    if args.csv is not None:
        table.to_csv(args.csv, index=False)
        print(f"\nWrote {args.csv}.")


def _failed_game(error: StrategyError, args: argparse.Namespace, seed: int) -> str:
    """One line on a game that failed: which game, its seed, and where the games played
    before it went (written to --csv if one was given, so they are not lost)."""
    game, played = getattr(error, "game", None), getattr(error, "table", None)
    reason = getattr(error, "reason", str(error))
    if game is None or played is None:
        return f"{PROG} tournament: {reason}"
    line = (
        f"{PROG} tournament: game {game} of {args.games} (counted from 0; its seed is "
        f"{error.seed}, the tournament's {seed}) failed: {reason}"
    )
    if args.csv is None:
        return f"{line}; the {game} games before it are not kept (add --csv FILE to keep them)."
    played.to_csv(args.csv, index=False)
    return f"{line}; the {game} games before it are written to {args.csv}."


def _format_rates(rates: pd.DataFrame) -> str:
    percent = "{:.1%}".format
    return rates.assign(
        win_rate=rates["win_rate"].map(percent),
        ci_low=rates["ci_low"].map(percent),
        ci_high=rates["ci_high"].map(percent),
        mean_finish=rates["mean_finish"].map("{:.2f}".format),
        mean_net_worth=rates["mean_net_worth"].map("{:,.0f}".format),
    ).to_string()


# ---------------------------------------------------------------------------
# The genetic algorithm: evolve
# ---------------------------------------------------------------------------


def _population(text: str) -> int:
    value = _whole(text, 4, "the population")
    if value % 4:
        raise argparse.ArgumentTypeError(
            f"the population must be a multiple of 4 (tables of 4 players), got {value}"
        )
    return value


def _add_evolve(commands: argparse._SubParsersAction) -> None:
    evo = commands.add_parser(
        "evolve",
        help="evolve genetic-algorithm players (Mukhar and Kalita), saving every generation",
        description="Evolve a population of chromosome players: each generation every player "
        "plays games of 4, scores a fitness, and the next population is bred (best 10% kept, "
        "30% roulette copies, 30% mutated copies, 30% crossover children).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"""--out gets parameters.json, history.csv, benchmark.csv and recent.npz,
rewritten after every generation, and best.npz and population.npz, every 10 generations
and at the last. After Ctrl-C, run the same command with --resume to continue where it
stopped (the result is the same as an unbroken run).
The benchmark: the best player against {", ".join(BENCHMARK_OPPONENTS)}, seats rotated.

examples:
  {PROG} evolve --chromosome rga --fitness finish_order --out runs/rga-fo --seed 1
  {PROG} evolve --chromosome sga --population 100 --games-per-player 20 \\
      --generations 10 --out runs/small""",
    )
    evo.add_argument(
        "--chromosome",
        type=str.lower,
        choices=tuple(CHROMOSOME_PLAYERS),
        default="rga",
        help="the kind of player, in any case (default rga)",
    )
    evo.add_argument(
        "--fitness",
        type=_fitness,
        default="finish_order",
        metavar="FITNESS",
        help=f"points per game: {', '.join(FITNESS)}, in any case (default "
        "finish_order), "
        "or vs:A,B,C to score against a fixed field of three built-in "
        "strategies (vs:A,B,C:SCORING for another scoring)",
    )
    evo.add_argument("--generations", type=_positive, default=100, help="generations (100)")
    evo.add_argument("--out", required=True, metavar="FOLDER", help="the run's folder")
    evo.add_argument(
        "--seed", type=_game_seed, default=0, help="random seed, 0 to 2**32 - 1 (default 0)"
    )
    evo.add_argument("--resume", action="store_true", help="continue the run in --out")
    _add_run_options(evo)
    _add_operators(evo)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options of a run that ``evolve`` and ``experiment`` share (but the operators)."""
    parser.add_argument(
        "--population",
        type=_population,
        default=1000,
        help="players, a multiple of 4 (default 1000)",
    )
    parser.add_argument(
        "--games-per-player",
        type=_positive,
        default=100,
        help="games each player plays per generation (default 100)",
    )
    parser.add_argument(
        "--benchmark-every",
        type=_nonnegative,
        default=10,
        metavar="N",
        help="benchmark every N generations and the last; 0 never (10)",
    )
    parser.add_argument(
        "--benchmark-games", type=_positive, default=200, help="games per benchmark (default 200)"
    )
    parser.add_argument("--max-rounds", type=_max_rounds, default=100, help=MAX_ROUNDS_HELP)
    parser.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    parser.add_argument(
        "--trading",
        action="store_true",
        help="play every game with the rules' trading step (the paper's have none)",
    )
    parser.add_argument(
        "--league",
        action="append",
        metavar="FIELD",
        help="score each player by its mean points over several fields, one --league each: "
        "self (the population itself) or three players A,B,C (strategy names, shipped runs, "
        "run folders: runs/x for its last best genome, runs/x@50 for generation 50's); "
        "--fitness then names the scoring",
    )
    parser.add_argument(
        "--hall-of-fame",
        type=_nonnegative,
        default=0,
        metavar="K",
        help="the best player of every K-th generation joins a hall of fame, a field of its "
        "own from then on (default 0: none)",
    )


def _add_operators(evo: argparse.ArgumentParser) -> None:
    """``evolve``'s operator options: the first population, selection, crossover, mutation."""
    paper = evo.add_argument_group("operators (the defaults are the paper's)")
    paper.add_argument(
        "--init",
        choices=INITS,
        default="uniform",
        help="the first population: every gene uniform (uniform), a genome's "
        "genes around a level of its own (level), or each of its tables of genes "
        "around one (levels)",
    )
    paper.add_argument(
        "--selection",
        choices=SELECTIONS,
        default="roulette",
        help="how copies and parents are chosen (default roulette)",
    )
    paper.add_argument(
        "--crossover",
        choices=CROSSOVERS,
        default=None,
        help="blend (default for rga, tga), one-point (default for sga) or uniform",
    )
    paper.add_argument(
        "--mutation-rate",
        type=_share,
        default=MUTATION_RATE,
        metavar="P",
        help=f"the chance a gene (sga: a bit) mutates ({MUTATION_RATE})",
    )
    paper.add_argument(
        "--mutation-sd",
        type=_share,
        default=MUTATION_SD,
        metavar="S",
        help=f"the sd of a mutated gene's noise (rga, tga; {MUTATION_SD})",
    )


def _fitness(text: str) -> str:
    try:
        return check_fitness(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).rstrip(".")) from None


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text}")
    return value


def _nonnegative(text: str) -> int:
    return _whole(text, 0, "this option")


def _run_options(args: argparse.Namespace) -> dict[str, object]:
    """The run options (:func:`_add_run_options`, :func:`_add_operators`) as ``evolve``'s
    keyword arguments."""
    names = (
        "population",
        "games_per_player",
        "benchmark_every",
        "benchmark_games",
        "max_rounds",
        "trading",
        "league",
        "hall_of_fame",
        "init",
        "selection",
        "crossover",
        "mutation_rate",
        "mutation_sd",
    )
    return {name: getattr(args, name) for name in names}


def run_evolve(args: argparse.Namespace) -> None:
    """``evolve``: run (or resume) the genetic algorithm; print a summary."""
    with _long_command(
        "evolve",
        f"the completed generations are in {args.out}: run the same "
        "command with --resume to continue.",
    ):
        result = evolve(
            chromosome=args.chromosome,
            fitness=args.fitness,
            generations=args.generations,
            seed=args.seed,
            out=args.out,
            resume=args.resume,
            progress=not args.no_progress,
            **_run_options(args),
        )
    print(_evolve_summary(result, args.out))


@contextlib.contextmanager
def _long_command(command: str, stopped: str) -> Iterator[None]:
    """A long command's errors as one line (exit status 2), and after Ctrl-C a line that
    says where its work is (``stopped``) before the interrupt goes on."""
    try:
        yield
    except (ValueError, TypeError) as error:
        raise UsageError(f"{PROG} {command}: {error}") from None
    except KeyboardInterrupt:
        print(f"\n{PROG} {command}: stopped; {stopped}", file=sys.stderr)
        raise _Stopped from None


class _Stopped(KeyboardInterrupt):
    """Ctrl-C, already reported by the command that was stopped (its one line said)."""


def _in_dollars(parameters: dict, row: pd.Series) -> str:
    """For a NET_WORTH run, its fitness as net worth in dollars a game (else nothing)."""
    if not fitness_summary(parameters, row).startswith("best $"):
        return ""
    return f" (net worth: {fitness_summary(parameters, row)})"


def _evolve_summary(result: EvolutionResult, out: str) -> str:
    """A few lines: what was evolved, how long it took, the last fitness and benchmark."""
    p, history = result.parameters, result.history
    last = history.iloc[-1]
    ran = result.generations_run
    pace = f" ({result.seconds / ran:.2f} s per generation)" if ran else ""
    trading = ", with trading" if p.get("trading") else ""
    lines = [
        f"{p['chromosome']} players, fitness {p['fitness']}, population {p['population']}, "
        f"{p['games_per_player']} games per player per generation, seed {p['seed']}{trading}.",
        f"Generations: {len(history)}, of which {ran} run now{pace}.",
        f"Generation {int(last['generation'])}: best fitness {last['max']:g}, "
        f"mean {last['mean']:g}{_in_dollars(p, last)}.",
    ]
    if not result.benchmark.empty:
        b = result.benchmark.iloc[-1]
        lines.append(
            f"Benchmark at generation {int(b['generation'])}: the best player won "
            f"{b['win_rate']:.1%} of {int(b['games'])} games against "
            f"{', '.join(BENCHMARK_OPPONENTS)}{trading} (95% CI {b['ci_low']:.1%} to "
            f"{b['ci_high']:.1%}); an equal player would win 25%."
        )
    lines.append(f"Saved in {out}.")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# The paper's whole experiment: a grid of evolve runs on Dask workers
# ---------------------------------------------------------------------------


def _add_experiment(commands: argparse._SubParsersAction) -> None:
    exp = commands.add_parser(
        "experiment",
        help="run a grid of evolve runs (chromosomes x fitness x seeds) on Dask workers",
        description="Run the paper's experiment: one evolve run per chromosome, fitness and "
        "seed, each in its folder under --out, spread over the workers of a Dask cluster "
        "(this machine's cores, or a running cluster's), with summary.csv across runs.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"""Run the same command again to resume every run where it stopped: a run's
files are the same whatever worker played it. With --scheduler, the workers need the
package installed and --out at the same path (a shared folder).

examples:
  {PROG} experiment --chromosome rga,tga,sga --fitness all --seeds 1 \\
      --generations 1000 --out runs/paper
  {PROG} experiment --chromosome rga --fitness finish_order --seeds 1,2,3 \\
      --population 100 --games-per-player 20 --generations 10 --out runs/small
  {PROG} experiment ... --scheduler tcp://10.0.0.5:8786""",
    )
    exp.add_argument(
        "--chromosome",
        type=_chromosomes,
        default="rga,tga,sga",
        metavar="NAMES",
        help=f"comma-separated chromosomes: {', '.join(CHROMOSOME_PLAYERS)} (default rga,tga,sga)",
    )
    exp.add_argument(
        "--fitness",
        type=_fitness_list,
        default="all",
        metavar="NAMES",
        help=f"comma-separated fitness functions ({', '.join(FITNESS)}, or "
        "vs:A,B,C written vs:A+B+C), or all: the paper's five (default)",
    )
    exp.add_argument(
        "--seeds",
        type=_seed_list,
        default="1",
        metavar="SEEDS",
        help="comma-separated seeds, one run each (default 1)",
    )
    exp.add_argument(
        "--generations", type=_positive, default=1000, help="generations per run (default 1000)"
    )
    exp.add_argument("--out", required=True, metavar="FOLDER", help="the experiment's folder")
    _add_cluster(exp)
    _add_run_options(exp)
    _add_operators(exp)


def _add_cluster(exp: argparse.ArgumentParser) -> None:
    """Where the runs are played: a cluster on this machine, or a running scheduler."""
    where = exp.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=_positive,
        default=None,
        metavar="N",
        help="worker processes of a cluster on this machine (default: one per core)",
    )
    where.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="the address of a running Dask scheduler (tcp://host:8786); refused if no "
        f"scheduler answers there within {CONNECT_TIMEOUT}",
    )


def _chromosomes(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    for name in names or [""]:
        if name not in CHROMOSOME_PLAYERS:
            raise argparse.ArgumentTypeError(
                f"unknown chromosome {name!r}; choose from {', '.join(CHROMOSOME_PLAYERS)}, "
                "comma-separated"
            )
    return names


def _fitness_list(text: str) -> list[str]:
    if text.strip().lower() == "all":
        return list(FITNESS)
    names = [name.strip().replace("+", ",") for name in text.split(",") if name.strip()]
    return [_fitness(name) for name in names or [""]]


def _seed_list(text: str) -> list[int]:
    return [_game_seed(word.strip()) for word in text.split(",")]


def run_experiment(args: argparse.Namespace) -> None:
    """``experiment``: run (or resume) the grid on Dask workers; print the summary."""
    from .evolution.experiment import (
        ExperimentStopped,
        RunFailed,
        experiment,
        experiment_runs,
        generations_saved,
    )

    options = _run_options(args)
    start = time.perf_counter()
    resume = f"the completed generations are in {args.out}: run the same command to resume them."
    with _long_command("experiment", resume):
        before = generations_saved(
            args.out, experiment_runs(args.chromosome, args.fitness, args.seeds)
        )
        try:
            summary = experiment(
                args.chromosome,
                args.fitness,
                args.seeds,
                args.generations,
                args.out,
                workers=args.workers,
                scheduler=args.scheduler,
                progress=not args.no_progress,
                on_start=lambda link: print(f"Dask dashboard: {link}", flush=True),
                **options,
            )
        except RunFailed as failure:  # the other runs have stopped
            raise ValueError(f"{failure}; {resume}") from None
        except ExperimentStopped as stopped:  # said once the runs have stopped
            if stopped.playing:
                print(
                    f"\n{PROG} experiment: {len(stopped.playing)} runs still end the "
                    f"generation they play on the cluster ({', '.join(stopped.playing)}); "
                    "each stops when it ends.",
                    file=sys.stderr,
                )
            raise
    seconds = time.perf_counter() - start
    played = int(summary["generations"].sum()) - before
    shown = summary[["run", "generations", "min", "max", "mean", "win_rate", "ci_low", "ci_high"]]
    print(shown.to_string(index=False, float_format=lambda x: f"{x:.3g}"))
    pace = f" ({played:,} generations played, {seconds / played:.2f} s each)" if played else ""
    trading = ", every game with trading" if options.get("trading") else ""
    print(
        f"{len(summary)} runs in {seconds:,.0f} s{pace}{trading}; summary in "
        f"{os.path.join(args.out, 'summary.csv')}."
    )


COMMANDS = {
    "simulate": run_simulate,
    "trace": run_trace,
    "exact": run_exact,
    "euler84": run_euler84,
    "rent": run_rent,
    "check": run_check,
    "play": run_play,
    "tournament": run_tournament,
    "evolve": run_evolve,
    "experiment": run_experiment,
    "compile": run_compile,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 a check fails, 2 bad input or a
    failure, said in one line)."""
    command = PROG
    # A command's time limit counts from its start: this process's own when main reads the
    # command line of the process (argv None), else from this call (main run in-process).
    began = process_began() if argv is None else time.monotonic()
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        _load_compiled_engines(args)
        _give_ctrl_c_back()
        args.began = began
        command = f"{PROG} {args.command}"
        COMMANDS[args.command](args)
    except UsageError as error:
        print(_one_line(str(error)), file=sys.stderr)
        return 2
    except (CheckFailed, _Unfinished):
        return 1
    except (ValueError, TypeError, StrategyError) as error:
        print(f"{command}: {_one_line(str(error))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        sys.stdout = None
    except MemoryError:
        print(
            f"{command}: out of memory; ask for fewer games, players or generations.",
            file=sys.stderr,
        )
        return 2
    except OSError as error:  # a file or folder that cannot be read or written
        where = f": {error.filename}" if error.filename else ""
        print(f"{command}: {error.strerror or error}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as error:  # Ctrl-C: one line, no traceback
        if not isinstance(error, _Stopped):  # (a stopped command said where its work is)
            print(f"{PROG}: interrupted.", file=sys.stderr)
        return 130
    return 0


PLAYS_COMPILED = frozenset({"play", "tournament", "evolve", "experiment", "compile"})
"""The commands that play the compiled engines (``simulate`` and ``trace`` with ``--engine
fast`` too)."""


def _load_compiled_engines(args: argparse.Namespace) -> None:
    """Load numba and the compiled engines' module now, for a command that plays them: their
    import (tenths of a second, much of it in C) is no place for a KeyboardInterrupt, which
    would end as an ImportError's traceback. Until :func:`_give_ctrl_c_back`, Ctrl-C gets the
    package's one line instead."""
    if args.command in PLAYS_COMPILED or getattr(args, "engine", None) == "fast":
        from .game import fast  # noqa: F401  (imported for its import's sake)


def _give_ctrl_c_back() -> None:
    """From here on Ctrl-C is a KeyboardInterrupt, which :func:`main` reports, instead of
    the package's handler while it loads (see ``monopoly_lesson/__init__.py``)."""
    from . import _stop_while_starting

    if signal.getsignal(signal.SIGINT) is _stop_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _one_line(text: str) -> str:
    """A message on one line: its lines joined, its spaces single."""
    return " ".join(text.split())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
