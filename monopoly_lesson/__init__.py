"""monopoly-lesson: which Monopoly spaces are landed on most? A Monte Carlo lesson.

Everything a notebook needs is importable from here::

    from monopoly_lesson import Player, PresetDice, RandomDice, CardDeck, SpaceTracker
    from monopoly_lesson import gameboard, chance_deck, community_deck, take_turn, simulate
    from monopoly_lesson import expected_tallies, stationary, euler84  # exact answers
    from monopoly_lesson import play_monopoly, play_games, win_rates  # the whole game
    from monopoly_lesson import evolve  # the genetic algorithm (its games compiled)
"""

from .chapter_checks import CHAPTER_CHECKS, check_chapter
from .evolution.run import EvolutionResult, evolve, load_evolution
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
from .game.card_effects import chance_effects, community_effects
from .game.chromosomes import RGA, SGA, TGA
from .game.engine import MonopolyGame, play_monopoly
from .game.lots import lots
from .game.plugins import as_strategy, make_strategy
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
)
from .game.tournament import play_games, win_rates
from .game.trade import Trade
from .rent_value import rent_per_turn
from .rules import LESSON_RULES, Rules, Seat, card_destination, take_turn
from .scenarios import SCENARIOS, Scenario, check_scenario, play_preset
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

__all__ = [
    "CHAPTER_CHECKS",
    "GO",
    "GO_TO_JAIL",
    "JAIL",
    "LESSON_RULES",
    "NARRATION",
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
    "Heuristic",
    "LotState",
    "MonopolyGame",
    "NeverBuy",
    "Passive",
    "Player",
    "PlayerState",
    "PresetDice",
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
    "as_strategy",
    "card_destination",
    "chance_deck",
    "chance_effects",
    "check_chapter",
    "check_scenario",
    "community_deck",
    "community_effects",
    "euler84",
    "euler84_percentages",
    "evolve",
    "expected_frequencies",
    "expected_tallies",
    "fast_game_tallies",
    "fast_tallies",
    "gameboard",
    "load_evolution",
    "lots",
    "make_strategy",
    "play_games",
    "play_monopoly",
    "play_preset",
    "rent_per_turn",
    "results_table",
    "simulate",
    "space_name",
    "space_table",
    "standard_chance_deck",
    "stationary",
    "take_turn",
    "transition_matrix",
    "turn_tallies",
    "win_rates",
]

__version__ = "0.1.0"
