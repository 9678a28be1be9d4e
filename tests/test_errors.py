"""Bad input is refused with a message that says what was wrong and what is allowed, from
the student's own call (not from deep inside the package)."""

import traceback
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import monopoly_lesson
from monopoly_lesson import (
    RGA,
    CardDeck,
    Player,
    PresetDice,
    RandomDice,
    Rules,
    SpaceTracker,
    chance_deck,
    community_deck,
    play_monopoly,
    take_turn,
)
from monopoly_lesson.evolution.experiment import experiment
from monopoly_lesson.evolution.run import evolve, win_rates_against
from monopoly_lesson.evolution.shipped import load_shipped_experiment, load_shipped_run
from monopoly_lesson.game.fast import fast_games, strategy_codes
from monopoly_lesson.game.plugins import make_strategy
from monopoly_lesson.game.stepper import GameStepperState
from monopoly_lesson.game.strategies import StrategyError
from monopoly_lesson.game.tournament import play_games, win_rates
from monopoly_lesson.game.widget import GameStepper
from monopoly_lesson.plots import (
    bar_chart,
    board_map,
    diversity_history,
    error_chart,
    fitness_fan,
    fitness_histograms,
    genes_by_group,
    heat_map,
    payback_chart,
    rounds_histogram,
    win_rate_chart,
    win_rate_history,
)
from monopoly_lesson.starter import DiceUsedUpError
from monopoly_lesson.stepper import StepperState
from monopoly_lesson.widgets import TurnStepper

CASES = [
    # (callable, error, message fragment)
    (lambda: PresetDice([3, 7]), ValueError, "die faces must be from 1 to 6, got 7"),
    (lambda: PresetDice([0, 1]), ValueError, "die faces must be from 1 to 6, got 0"),
    (lambda: PresetDice([3, 4, 5]), ValueError, "even number of faces (two dice per roll), got 3"),
    (lambda: PresetDice([3, 2.5]), TypeError, "each die face must be a whole number, got 2.5"),
    (lambda: PresetDice(["3", 4]), TypeError, "each die face must be a whole number, got '3'"),
    (lambda: PresetDice([True, 1]), TypeError, "each die face must be a whole number, got True"),
    (lambda: PresetDice("3,4"), TypeError, "rolls must be a list of die faces"),
    (lambda: PresetDice([4, 4], sides=3), ValueError, "die faces must be from 1 to 3, got 4"),
    (lambda: RandomDice(sides=1), ValueError, "sides must be at least 2, got 1"),
    (lambda: RandomDice(sides=6.0), TypeError, "sides must be a whole number, got 6.0"),
    (lambda: RandomDice(seed=-1), ValueError, "seed must be 0 or more"),
    (lambda: Player(0), ValueError, "pos must be a space number from 1 to 40, got 0"),
    (lambda: Player(41), ValueError, "pos must be a space number from 1 to 40, got 41"),
    (lambda: Player("Go"), TypeError, "pos must be a whole number, got 'Go'"),
    (lambda: Player().move_to(44), ValueError, "space must be a space number from 1 to 40"),
    (lambda: Player().move_forward(-2), ValueError, "steps must be 0 or more"),
    (lambda: Player().start_jail_turn(), ValueError, "is not in jail"),
    (lambda: SpaceTracker().tally(0), ValueError, "space must be a space number from 1 to 40"),
    (lambda: SpaceTracker().tally(3.0), TypeError, "space must be a whole number, got 3.0"),
    (
        lambda: CardDeck(chance_deck, order=[16]),
        ValueError,
        "order lists card 16, but the Chance deck has cards 1 to 15",
    ),
    (lambda: CardDeck(community_deck, order=[0]), ValueError, "Community Chest deck has cards 1"),
    (lambda: CardDeck(chance_deck, order=3), TypeError, "order must be a list of card numbers"),
    (lambda: CardDeck(["Go"]), TypeError, "deck must be a pandas DataFrame"),
    (
        lambda: CardDeck(chance_deck.rename(columns={"card": "text"})),
        ValueError,
        "deck must have the columns 'index' and 'card'; missing ['card']",
    ),
    (
        lambda: CardDeck(pd.DataFrame({"index": [2, 1], "card": ["a", "b"]})),
        ValueError,
        "deck 'index' must number the cards 1, 2, 3",
    ),
    (lambda: CardDeck(chance_deck).card(0), ValueError, "card number must be from 1 to 15"),
    (lambda: Rules(dice_sides=1), ValueError, "dice_sides must be a whole number of at least 2"),
    (lambda: Rules(jail="forever"), ValueError, "jail must be 'long' or 'short', got 'forever'"),
    (lambda: Rules(chance="big"), ValueError, "chance must be 'lesson' or 'standard'"),
    (lambda: Rules(counting="rolls"), ValueError, "counting must be 'landings' or 'end_of_move'"),
    (lambda: Rules(replacement="yes"), TypeError, "replacement must be True or False"),
    (
        lambda: play_monopoly(["always", "never"], verbose="no"),
        TypeError,
        "verbose must be True or False, got 'no'",
    ),
    (
        lambda: play_monopoly(["always", "never"], verbose=1),
        TypeError,
        "verbose must be True or False, got 1",
    ),
    (
        lambda: play_monopoly(["always", "never"], max_rounds=10**9),
        ValueError,
        "max_rounds must be from 1 to 10,000 (a game is stopped after at most 10,000 rounds), "
        "got 1000000000",
    ),
    (
        lambda: play_monopoly(["always", "never"], max_rounds=0),
        ValueError,
        "max_rounds must be from 1 to 10,000",
    ),
    (
        lambda: play_monopoly(["always", "never"], max_rounds=50.0),
        TypeError,
        "max_rounds must be a whole number, got 50.0",
    ),
    (
        lambda: play_monopoly(["always", "never"], seed=-1),
        ValueError,
        "seed must be 0 or more, got -1",
    ),
    (
        lambda: play_monopoly(["always", "never"], seed=1.5),
        TypeError,
        "seed must be a whole number 0 or more, got 1.5",
    ),
]


@pytest.mark.parametrize(("make", "error", "message"), CASES)
def test_bad_input_is_refused_with_a_clear_message(make, error, message):
    with pytest.raises(error) as raised:
        make()
    assert message in str(raised.value)


def test_used_up_preset_dice_say_how_many_were_preset():
    dice = PresetDice([1, 2, 3, 4])
    dice.roll(), dice.roll()
    with pytest.raises(DiceUsedUpError, match="used up: 2 rolls were preset"):
        dice.roll()
    with pytest.raises(RuntimeError, match="1 roll was preset"):
        one = PresetDice([1, 2])
        one.roll(), one.roll()


def test_dice_must_match_the_rules():
    with pytest.raises(ValueError, match="the dice have 4 sides but the rules say 6"):
        take_turn(
            Player(),
            SpaceTracker(),
            dice=PresetDice([1, 2], sides=4),
            chance=CardDeck(chance_deck),
            community=CardDeck(community_deck),
        )


def test_rules_are_immutable():
    with pytest.raises(AttributeError):
        Rules().jail = "short"


def test_numpy_booleans_and_integers_are_options_too(capsys):
    result = play_monopoly(["always", "never"], seed=1, max_rounds=np.int64(2), verbose=np.True_)
    assert result.rounds == 2
    assert "Round 2, P1 always" in capsys.readouterr().out


# ---------------------------------------------------------------------------
# Argument mistakes are refused at the student's call: one frame of the package
# ---------------------------------------------------------------------------

PACKAGE = Path(monopoly_lesson.__file__).resolve().parent
TINY = dict(
    population=8, games_per_player=1, generations=1, benchmark_every=0, max_rounds=5, progress=False
)


def _take_turn(*args, **kwargs):
    """A take_turn for the steppers (never called: their arguments are refused first)."""


def _bad_buy(game, me, space):
    return "yes"  # not True or False


COUNTS = pd.Series(1.0, index=range(1, 41))  # counts by space, as a simulation gives them
TABLE = pd.DataFrame({"game": [0, 0], "rounds": [12, 12]})  # play_games' table, in short
NUMBERS = pd.DataFrame({"a": [1.0, 2.0]})
FIGURES = [
    # (call, error, message): a figure's argument mistakes, what a student plausibly gets wrong
    (
        lambda: bar_chart([1, 2, 3]),
        TypeError,
        "counts must be a pandas Series of numbers indexed by the spaces 1..40 (a simulation's "
        ".counts), got list.",
    ),
    (lambda: bar_chart(SpaceTracker()), TypeError, "got SpaceTracker: pass its .counts."),
    (
        lambda: bar_chart(pd.Series(1, index=range(40))),
        ValueError,
        "counts must be a pandas Series of numbers indexed by the spaces 1..40 (a simulation's "
        ".counts), got one indexed 0..39 (40 entries).",
    ),
    (lambda: bar_chart(COUNTS.astype(str)), ValueError, ".counts), got one of "),
    (
        lambda: bar_chart(COUNTS, [1] * 40),
        TypeError,
        "compare must be a pandas Series of numbers indexed by the spaces 1..40",
    ),
    (
        lambda: bar_chart(COUNTS, COUNTS, labels="mine"),
        TypeError,
        "labels must be two names, this simulation's and compare's, e.g. ('after', 'before'), got "
        "'mine'.",
    ),
    (
        lambda: bar_chart(COUNTS, title=5),
        TypeError,
        "title must be a string (or None: no title), got 5.",
    ),
    (
        lambda: board_map(COUNTS, tokens=[11, 25]),
        TypeError,
        "tokens must be a dict of players' names and the spaces they are on, e.g. {'P1': 11}, got "
        "[11, 25].",
    ),
    (
        lambda: board_map(COUNTS, tokens={"P1": 41}),
        ValueError,
        "tokens['P1'] must be at most 40, got 41.",
    ),
    (
        lambda: error_chart(100, 0.5),
        TypeError,
        "games must be a list of positive numbers (a log axis), got 100.",
    ),
    (
        lambda: error_chart([0, 100], [1.0, 0.3]),
        ValueError,
        "games must be a list of positive numbers (a log axis), got 0 in it.",
    ),
    (
        lambda: error_chart([10, 100], [1.0]),
        ValueError,
        "games and errors must be two lists of the same length (2 or more), got 2 and 1.",
    ),
    (
        lambda: error_chart([10, 100], [1.0, 0.3], error_label=["error"]),
        TypeError,
        "error_label must be a string",
    ),
    (
        lambda: rounds_histogram([12, 30]),
        TypeError,
        "table must be play_games()'s table (a DataFrame with columns game, rounds), got list.",
    ),
    (lambda: rounds_histogram(TABLE, title=("How long",)), TypeError, "title must be a string"),
    (
        lambda: win_rate_chart(TABLE),
        ValueError,
        "rates must be win_rates(table)'s or win_rates_against()'s table (a DataFrame with columns "
        "win_rate, ci_low, ci_high); its columns are game, rounds.",
    ),
    (
        lambda: heat_map(NUMBERS["a"], "A title"),
        TypeError,
        "frame must be a pandas DataFrame of numbers, got Series: make it a table with "
        ".to_frame().",
    ),
    (
        lambda: heat_map(pd.DataFrame({"title": ["Go"], "x": [1.0]}), "A title"),
        ValueError,
        "frame must hold only numbers; its column 'title' does not (drop it: "
        "frame.drop(columns=['title'])).",
    ),
    (
        lambda: heat_map(NUMBERS, "A title", value="%.2f"),
        ValueError,
        "value must be a format for one number such as '{:.2f}' (or None: no numbers, a colour "
        "scale), got '%.2f'.",
    ),
    (
        lambda: heat_map(NUMBERS, "A title", value="{:d}"),
        ValueError,
        "value must be a format for one number such as '{:.2f}'",
    ),
    (
        lambda: payback_chart(pd.DataFrame({"hotel": [3.0]}, index=["pink"])),
        ValueError,
        "payback must be payback_turns()'s table (a DataFrame with a row per street group); 'pink' "
        "is no group",
    ),
    (
        lambda: fitness_fan(SimpleNamespace(history=TABLE)),
        TypeError,
        "history must be an evolve run's history (a DataFrame with columns generation, min, q1, "
        "median, q3, max), got SimpleNamespace: pass its .history.",
    ),
    (
        lambda: diversity_history(TABLE),
        ValueError,
        "history must be an evolve run's history (a DataFrame with columns generation, diversity, "
        "luck_share); its columns are game, rounds.",
    ),
    (
        lambda: win_rate_history(SimpleNamespace(benchmark_each=TABLE)),
        TypeError,
        "got SimpleNamespace: pass its .benchmark_each.",
    ),
    (
        lambda: fitness_histograms(np.array([3, 6])),
        TypeError,
        "samples must be a dict of populations, a name for each list of fitness values, e.g. "
        "{'num_wins': fitness}, got ndarray.",
    ),
    (
        lambda: fitness_histograms({"num_wins": []}),
        ValueError,
        "samples['num_wins'] is not a list of numbers (at least one): [].",
    ),
    (
        lambda: fitness_histograms({"num_wins": [3, 6]}, bins=0),
        ValueError,
        "bins must be at least 1, got 0.",
    ),
    (
        lambda: genes_by_group(RGA.random(seed=0)),
        TypeError,
        "buy must be buy genes, an array of numbers of shape (4, 40), got RGA: pass its "
        ".buy_genes.",
    ),
    (
        lambda: genes_by_group(np.zeros((40, 4))),
        ValueError,
        "buy must be buy genes, an array of numbers of shape (4, 40), got shape (40, 4).",
    ),
]

AT_THE_CALL = [
    # (call, error, message): the words that name the argument and what is allowed
    (
        lambda: evolve(fitness="NET_WORTHY", **TINY),
        ValueError,
        "fitness must be one of num_wins, num_properties, num_monopolies, finish_order, "
        "net_worth (in any case: NET_WORTH is net_worth), or 'vs:A,B,C'",
    ),
    (
        lambda: evolve(**{**TINY, "population": 150}),
        ValueError,
        "population must be a multiple of 4 (the players are shuffled into tables of 4), got "
        "150; try 148.",
    ),
    (
        lambda: evolve("xga", **TINY),
        ValueError,
        "chromosome must be one of rga, tga, sga, ega, bga, got 'xga'.",
    ),
    (lambda: evolve(**{**TINY, "generations": 0}), ValueError, "generations must be at least 1"),
    (lambda: evolve(**TINY, trading="yes"), TypeError, "trading must be True or False"),
    (
        lambda: evolve(**TINY, selection="best"),
        ValueError,
        "selection must be one of roulette, tournament, rank, got 'best'.",
    ),
    (lambda: evolve(**TINY, out=""), ValueError, "out must be a folder's path"),
    (
        lambda: experiment("rga", "num_wins", seeds=2, out="never-made"),
        TypeError,
        "seeds must be a list of whole numbers, for example [2]",
    ),
    (
        lambda: experiment("rga", "num_wins", seeds=[1.5], out="never-made"),
        TypeError,
        "each seed must be a whole number",
    ),
    (
        lambda: experiment(7, "num_wins", out="never-made"),
        TypeError,
        "chromosomes must be a list of names or one comma-separated string",
    ),
    (
        lambda: experiment("rga", 7, out="never-made"),
        TypeError,
        "fitness must be a name, 'all' or a list of names",
    ),
    (lambda: experiment("rga", "wins", out="never-made"), ValueError, "fitness must be one of"),
    (
        lambda: experiment("rga", "num_wins", generations=0, out="never-made"),
        ValueError,
        "generations must be at least 1",
    ),
    (
        lambda: win_rates_against("always"),
        TypeError,
        "players must be a list of strategies (names, Strategy objects or chromosome players), "
        "got the single string 'always': write ['always'].",
    ),
    (
        lambda: win_rates_against(["always"], ["best"]),
        ValueError,
        "opponents: unknown strategy 'best'",
    ),
    (
        lambda: win_rates_against(["always"], ["always"] * 8),
        ValueError,
        "opponents must be 1 to 7 strategies",
    ),
    (lambda: win_rates_against(["always"], games=0), ValueError, "games must be at least 1"),
    (lambda: win_rates_against(["always"], trading=1), TypeError, "trading must be True or False"),
    (
        lambda: play_games(["always", "best"]),
        ValueError,
        "strategies: unknown strategy 'best'; the built-in ones are always, never, heuristic, "
        "dealer, random:P, rga, tga, sga, ega, bga; the shipped evolved players league, "
        "ega_trading, ega_always, rga_level, rga_finish_order; and you (a person's seat).",
    ),
    (
        lambda: play_games(["always", "never"], games=2.5),
        TypeError,
        "games must be a whole number, got 2.5.",
    ),
    (
        lambda: play_games(["always", "never"], trading="yes"),
        TypeError,
        "trading must be True or False",
    ),
    (
        lambda: play_monopoly(["always"]),
        ValueError,
        "strategies must be 2 to 8 strategies (one per player), got 1.",
    ),
    (
        lambda: play_monopoly(["always", 5]),
        TypeError,
        "strategies: a strategy must be a name, a Strategy, a buy function or an object with a "
        "buy(game, me, space) method; got int",
    ),
    (lambda: play_monopoly(["always", "never"], seed=-1), ValueError, "seed must be 0 or more"),
    (lambda: win_rates("table"), TypeError, "table must be play_games()'s DataFrame, got str."),
    (
        lambda: fast_games("always", np.array([[0, 1]]), seeds=[0]),
        TypeError,
        "codes must be strategy_codes([...]) or genome_codes(...)",
    ),
    (
        lambda: strategy_codes(["always", "best"]),
        ValueError,
        "strategies: unknown strategy 'best'; the built-in ones are",
    ),
    (
        lambda: fast_games(
            strategy_codes(["always", "never"]), np.array([[0, 1]]), seeds=[0], max_rounds=0
        ),
        ValueError,
        "max_rounds must be from 1 to 10,000",
    ),
    (
        lambda: load_shipped_run("rga_best"),
        ValueError,
        "name (of a shipped run) must be one of rga_finish_order, rga_level, ega_always, "
        "ega_trading, league, got 'rga_best'.",
    ),
    (
        lambda: load_shipped_experiment("papers"),
        ValueError,
        "name (of a shipped experiment) must be one of paper, got 'papers'.",
    ),
    (lambda: GameStepper(["always"] * 9), ValueError, "strategies"),
    (lambda: GameStepper(["always", "best"]), ValueError, "strategies: unknown strategy 'best'"),
    (lambda: GameStepper(seed=2**31), ValueError, "seed must be from 0 to 2**31 - 1"),
    (
        lambda: GameStepperState(["always", "never"], max_rounds=0),
        ValueError,
        "max_rounds must be from 1 to 10,000",
    ),
    (lambda: TurnStepper(5), TypeError, "take_turn must be a function"),
    (lambda: TurnStepper(_take_turn, players=3), ValueError, "players must be 1 or 2, got 3."),
    (
        lambda: StepperState(_take_turn, start=41),
        ValueError,
        "start must be a space number from 1 to 40, got 41.",
    ),
    *FIGURES,
]


def package_frames(raised: pytest.ExceptionInfo) -> list[traceback.FrameSummary]:
    """The traceback's frames inside the package (the test's own frame is not)."""
    return [
        frame
        for frame in traceback.extract_tb(raised.tb)
        if Path(frame.filename).resolve().is_relative_to(PACKAGE)
    ]


@pytest.mark.parametrize(("call", "error", "message"), AT_THE_CALL)
def test_an_argument_mistake_is_refused_at_the_call_naming_the_argument(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert message in str(raised.value)
    frames = package_frames(raised)
    assert len(frames) <= 1, [f"{frame.name} ({frame.filename})" for frame in frames]
    assert raised.value.__cause__ is None


def test_a_strategys_bad_answer_in_a_tournament_is_one_frame_of_the_package():
    mine = make_strategy("mine", buy=_bad_buy)
    for play in (
        lambda: play_games([mine, "always"], games=3, seed=1),
        lambda: play_monopoly([mine, "always"], seed=1),
    ):
        with pytest.raises(StrategyError, match="mine's buy decision must return True or Fa"):
            play()
        with pytest.raises(StrategyError) as raised:
            play()
        assert len(package_frames(raised)) <= 1
