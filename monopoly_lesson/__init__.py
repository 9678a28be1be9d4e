"""monopoly-lesson: which Monopoly spaces are landed on most? A Monte Carlo lesson.

Everything a notebook needs is importable from here (its figures from
:mod:`monopoly_lesson.plots`)::

    from monopoly_lesson import Player, PresetDice, RandomDice, CardDeck, SpaceTracker
    from monopoly_lesson import gameboard, chance_deck, community_deck, take_turn, simulate
    from monopoly_lesson import expected_tallies, stationary, euler84  # exact answers
    from monopoly_lesson import play_monopoly, play_games, win_rates  # the whole game
    from monopoly_lesson import rent_per_turn, payback_turns  # what lots are worth
    from monopoly_lesson import evolve, experiment  # the genetic algorithm (its games compiled)
    from monopoly_lesson import TurnStepper, GameStepper  # widgets
    from monopoly_lesson import check_results  # the grader's checks
    from monopoly_lesson.plots import bar_chart, board_map, win_rate_chart  # figures

``import monopoly_lesson`` loads the movement lesson (the starter, the rules, the engines,
the chapters' checks); the whole game, what lots are worth, the genetic algorithm, the
widgets and the grader's checks load when one of their names is first used.
"""

import importlib
import itertools as _itertools
import os as _os
import signal as _signal
import sys as _sys
from typing import TYPE_CHECKING


def _stop_while_starting(signum: int, frame: object) -> None:
    """Ctrl-C while the command line is still loading the package: one line, exit 130."""
    words = [word for word in _sys.argv[1:] if not word.startswith("-")][:1]
    command = " ".join(["python -m monopoly_lesson", *words])
    print(f"\n{command}: stopped before it began; nothing was written.", file=_sys.stderr)
    _sys.stderr.flush()
    # Not SystemExit: raised inside an extension module's import (numpy's, loading datetime)
    # it becomes that import's ImportError and a traceback. Nothing is open to close yet.
    _os._exit(130)


def _started_as_the_command() -> bool:
    """Is this process ``python -m monopoly_lesson`` (or ``monopoly-lesson``), loading it?"""
    argv, started = getattr(_sys, "argv", []), getattr(_sys, "orig_argv", [])
    if argv[:1] == ["-m"]:  # python -m ...: runpy is still importing the package
        return ("-m", __name__) in _itertools.pairwise(started)
    return bool(argv) and _sys.argv[0].endswith("monopoly-lesson")


# python -m monopoly_lesson: Ctrl-C at any moment gets one line, not a traceback; cli.main
# gives Ctrl-C back to Python (KeyboardInterrupt) once it can say where the work is itself.
# This comes before the imports below, which take a few tenths of a second.
# ruff: noqa: E402
if _started_as_the_command():
    _signal.signal(_signal.SIGINT, _stop_while_starting)

from .checker.chapter_checks import CHAPTER_CHECKS, check_chapter
from .exact import (
    euler84,
    euler84_percentages,
    expected_frequencies,
    expected_tallies,
    stationary,
    transition_matrix,
    turn_tallies,
)
from .fast import fast_game_tallies, fast_tallies
from .rules import LESSON_RULES, Rules, Seat, card_destination, take_turn
from .scenarios import SCENARIOS, NoRollError, Scenario, check_scenario, play_preset
from .simulation import SimulationResult, results_table, simulate, space_table
from .starter import (
    GO,
    GO_TO_JAIL,
    JAIL,
    NARRATION,
    CardDeck,
    DiceUsedUpError,
    Player,
    PresetDice,
    RandomDice,
    SpaceTracker,
    chance_deck,
    community_deck,
    gameboard,
    space_name,
    standard_chance_deck,
)
from .trends import PASS_RATES, pass_rates

if TYPE_CHECKING:  # imported when first used (see __getattr__), named here for editors
    from .evolution.experiment import dashboard_link, experiment
    from .evolution.operators import crossover, mutate, roulette
    from .evolution.run import EvolutionResult, evolve, load_evolution, win_rates_against
    from .evolution.shipped import experiment_summary, load_shipped_experiment, load_shipped_run
    from .game.card_effects import chance_effects, community_effects
    from .game.chromosomes import RGA, SGA, TGA
    from .game.engine import MonopolyGame, play_monopoly
    from .game.lots import lots
    from .game.person import Question, You
    from .game.plugins import as_strategy, make_strategy
    from .game.rent import rent_due
    from .game.result import GameResult
    from .game.state import GameState, LotState, PlayerState
    from .game.strategies import (
        AlwaysBuy,
        Heuristic,
        NeverBuy,
        Passive,
        RandomBuy,
        Strategy,
        StrategyError,
        completion_accepts,
        completion_refusal,
        completion_swap,
        completion_swaps,
    )
    from .game.tournament import play_games, win_rates
    from .game.trade import Trade
    from .game.widget import GameStepper
    from .grading import check_results, check_take_turn
    from .rent_value import (
        expected_landings,
        group_costs,
        group_rent,
        payback_turns,
        rent_per_dollar,
        rent_per_turn,
        simulated_rent,
    )
    from .widgets import TurnStepper

_WHEN_USED = {
    ".evolution.experiment": ("dashboard_link", "experiment"),
    ".evolution.operators": ("crossover", "mutate", "roulette"),
    ".evolution.run": ("EvolutionResult", "evolve", "load_evolution", "win_rates_against"),
    ".evolution.shipped": ("experiment_summary", "load_shipped_experiment", "load_shipped_run"),
    ".game.card_effects": ("chance_effects", "community_effects"),
    ".game.chromosomes": ("RGA", "SGA", "TGA"),
    ".game.engine": ("MonopolyGame", "play_monopoly"),
    ".game.lots": ("lots",),
    ".game.person": ("Question", "You"),
    ".game.plugins": ("as_strategy", "make_strategy"),
    ".game.rent": ("rent_due",),
    ".game.result": ("GameResult",),
    ".game.state": ("GameState", "LotState", "PlayerState"),
    ".game.strategies": (
        "AlwaysBuy",
        "Heuristic",
        "NeverBuy",
        "Passive",
        "RandomBuy",
        "Strategy",
        "StrategyError",
        "completion_accepts",
        "completion_refusal",
        "completion_swap",
        "completion_swaps",
    ),
    ".game.tournament": ("play_games", "win_rates"),
    ".game.trade": ("Trade",),
    ".game.widget": ("GameStepper",),
    ".grading": ("check_results", "check_take_turn"),
    ".rent_value": (
        "expected_landings",
        "group_costs",
        "group_rent",
        "payback_turns",
        "rent_per_dollar",
        "rent_per_turn",
        "simulated_rent",
    ),
    ".widgets": ("TurnStepper",),
}
"""The modules whose names are imported when first used, and those names: the whole game,
the rent values, the genetic algorithm, the widgets (ipywidgets and plotly) and the grader's
checks. A chapter on the movement rules needs none of them, and ``import monopoly_lesson``
(every kernel start, command and test worker) stays quick without them."""
_MODULE_OF = {name: module for module, names in _WHEN_USED.items() for name in names}

__all__ = [
    "CHAPTER_CHECKS",
    "GO",
    "GO_TO_JAIL",
    "JAIL",
    "LESSON_RULES",
    "NARRATION",
    "PASS_RATES",
    "RGA",
    "SCENARIOS",
    "SGA",
    "TGA",
    "AlwaysBuy",
    "CardDeck",
    "DiceUsedUpError",
    "EvolutionResult",
    "GameResult",
    "GameState",
    "GameStepper",
    "Heuristic",
    "LotState",
    "MonopolyGame",
    "NeverBuy",
    "NoRollError",
    "Passive",
    "Player",
    "PlayerState",
    "PresetDice",
    "Question",
    "RandomBuy",
    "RandomDice",
    "Rules",
    "Scenario",
    "Seat",
    "SimulationResult",
    "SpaceTracker",
    "Strategy",
    "StrategyError",
    "Trade",
    "TurnStepper",
    "You",
    "as_strategy",
    "card_destination",
    "chance_deck",
    "chance_effects",
    "check_chapter",
    "check_results",
    "check_scenario",
    "check_take_turn",
    "community_deck",
    "community_effects",
    "completion_accepts",
    "completion_refusal",
    "completion_swap",
    "completion_swaps",
    "crossover",
    "dashboard_link",
    "euler84",
    "euler84_percentages",
    "evolve",
    "expected_frequencies",
    "expected_landings",
    "expected_tallies",
    "experiment",
    "experiment_summary",
    "fast_game_tallies",
    "fast_tallies",
    "gameboard",
    "group_costs",
    "group_rent",
    "load_evolution",
    "load_shipped_experiment",
    "load_shipped_run",
    "lots",
    "make_strategy",
    "mutate",
    "pass_rates",
    "payback_turns",
    "play_games",
    "play_monopoly",
    "play_preset",
    "rent_due",
    "rent_per_dollar",
    "rent_per_turn",
    "results_table",
    "roulette",
    "simulate",
    "simulated_rent",
    "space_name",
    "space_table",
    "standard_chance_deck",
    "stationary",
    "take_turn",
    "transition_matrix",
    "turn_tallies",
    "win_rates",
    "win_rates_against",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """A name of :data:`_WHEN_USED`, imported from its module when first asked for."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULE_OF[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, those imported when used too (for tab completion)."""
    return sorted({*globals(), *__all__})
