"""One home for each check: every entry point refuses the same thing with the same words."""

from __future__ import annotations

import pandas as pd
import pytest

from monopoly_lesson import (
    RandomDice,
    expected_tallies,
    fast_tallies,
    play_games,
    play_monopoly,
    results_table,
    simulate,
    stationary,
)
from monopoly_lesson.board_view import board_svg
from monopoly_lesson.checks import SEED_LIMIT, check_seed, check_whole, seed_or_fresh
from monopoly_lesson.evolution.run import evolve
from monopoly_lesson.game.fast import fast_games, strategy_codes
from monopoly_lesson.stepper import StepperSetup

ANY_SEED = [
    lambda seed: RandomDice(seed=seed),
    lambda seed: simulate(games=1, turns=1, seed=seed),
    lambda seed: simulate(games=1, turns=1, seed=seed, engine="fast"),
    lambda seed: fast_tallies(1, 1, seed=seed),
    lambda seed: play_monopoly(["always", "never"], seed=seed, max_rounds=1),
    lambda seed: StepperSetup(seed=seed),
]
"""Entry points seeded through numpy's SeedSequence: any whole number of 0 or more."""
SEED_BELOW_2_32 = [
    lambda seed: play_games(["always", "never"], games=1, seed=seed),
    lambda seed: fast_games(strategy_codes(["always"] * 2), [[0, 1]], seeds=[seed]),
    lambda seed: evolve(
        "tga",
        population=8,
        games_per_player=1,
        generations=1,
        seed=seed,
        benchmark_every=0,
        progress=False,
    ),
]
"""Entry points whose games the fast engine may play (its generator takes 32 bits)."""


@pytest.mark.parametrize("entry", range(len(ANY_SEED)))
@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [
        (-1, ValueError, "seed must be 0 or more, got -1."),
        (1.5, TypeError, "seed must be a whole number 0 or more, got 1.5."),
        (True, TypeError, "seed must be a whole number 0 or more, got True."),
    ],
)
def test_every_seed_of_the_movement_and_the_reference_game_is_checked_alike(
    entry, seed, error, message
):
    with pytest.raises(error) as raised:
        ANY_SEED[entry](seed)
    assert message in str(raised.value)


@pytest.mark.parametrize("entry", range(len(SEED_BELOW_2_32)))
@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [
        (-1, ValueError, "must be from 0 to 2**32 - 1 (4,294,967,295), got -1."),
        (2**32, ValueError, "must be from 0 to 2**32 - 1 (4,294,967,295), got 4294967296."),
        (1.5, TypeError, "whole number"),
    ],
)
def test_every_seed_the_fast_engine_may_use_is_checked_alike(entry, seed, error, message):
    with pytest.raises(error) as raised:
        SEED_BELOW_2_32[entry](seed)
    assert message in str(raised.value) and "from 0 to 2**32 - 1" in str(raised.value)


def test_a_fresh_seed_is_one_every_entry_point_takes_back():
    """seed=None picks a seed the result records; given back, it replays the same game."""
    fresh = seed_or_fresh(None)
    assert 0 <= fresh < SEED_LIMIT == 2**32
    assert check_seed(fresh) == fresh
    game = play_monopoly(["always", "heuristic"], seed=None, max_rounds=5)
    assert 0 <= game.seed < SEED_LIMIT
    again = play_monopoly(["always", "heuristic"], seed=game.seed, max_rounds=5)
    assert again.net_worth == game.net_worth
    run = simulate(games=2, turns=5, seed=None)
    assert simulate(games=2, turns=5, seed=run.seed).counts.equals(run.counts)


@pytest.mark.parametrize(
    "entry",
    [
        lambda: simulate(games=1, turns=1, rules="standard"),
        lambda: fast_tallies(1, 1, rules="standard"),
        lambda: expected_tallies(10, rules="standard"),
        lambda: stationary("standard"),
        lambda: StepperSetup(rules="standard"),
    ],
)
def test_every_rules_argument_is_checked_alike(entry):
    message = r"^rules must be a Rules value such as LESSON_RULES, got str\.$"
    with pytest.raises(TypeError, match=message):
        entry()


@pytest.mark.parametrize("entry", [play_monopoly, play_games])
@pytest.mark.parametrize(
    ("strategies", "error", "message"),
    [
        ("always", TypeError, "strategies must be a list of 2 to 8 strategies (one per player)"),
        (["always"], ValueError, "strategies must be 2 to 8 strategies (one per player), got 1."),
        (["always"] * 9, ValueError, "strategies must be 2 to 8 strategies (one per pl"),
        (["always"] * 9, ValueError, "(one per player), got 9."),
    ],
)
def test_every_list_of_strategies_is_checked_alike(entry, strategies, error, message):
    with pytest.raises(error) as raised:
        entry(strategies)
    assert message in str(raised.value)


@pytest.mark.parametrize("entry", [results_table, lambda counts: board_svg(counts)])
def test_every_tally_by_space_is_checked_alike(entry):
    wrong = pd.Series(1, index=range(0, 40))
    with pytest.raises(ValueError, match=r"^counts must be a pandas Series indexed by the spac"):
        entry(wrong)


def test_a_whole_number_is_checked_once():
    assert check_whole(3, "games") == 3
    with pytest.raises(TypeError, match=r"games must be a whole number, got 3\.0"):
        check_whole(3.0, "games")
    with pytest.raises(ValueError, match="games must be at least 1, got 0"):
        check_whole(0, "games", 1)
    with pytest.raises(TypeError, match=r"turns must be a whole number, got 1\.5"):
        fast_tallies(1, 1.5)


def public_callables():
    """Every public function and class of the package, its folders' modules included."""
    import importlib
    import inspect
    import pkgutil

    import monopoly_lesson

    found = {}
    for info in pkgutil.walk_packages(monopoly_lesson.__path__, "monopoly_lesson."):
        if info.name.endswith(("__main__", "kernel_launcher")):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if callable(obj) and getattr(obj, "__module__", "").startswith("monopoly_lesson"):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
                for method in vars(obj).values() if isinstance(obj, type) else ():
                    if inspect.isfunction(method) or isinstance(method, classmethod):
                        method = getattr(method, "__func__", method)
                        found[f"{obj.__module__}.{method.__qualname__}"] = method
    return found


CHOSEN_GAMES = {
    "monopoly_lesson.grading.check_take_turn": "the checker's own random games",
    "monopoly_lesson.grading.rule_games": "the same games",
    "monopoly_lesson.checker.capstone_check.capstone_games": "chapter 9's graded games",
    "monopoly_lesson.game.stepper.GameStepperState.reset": "None: a new game, same seed",
}
"""Seeds that are not a draw's default but a fixed choice (the grader's games), or None
meaning "as before"."""


def test_every_seed_defaults_to_0():
    """One default: the same call gives the same answer; pass seed= for another draw."""
    import inspect

    defaults = {}
    for name, obj in public_callables().items():
        try:
            parameters = inspect.signature(obj).parameters
        except (TypeError, ValueError):
            continue
        seed = parameters.get("seed")
        if seed is not None and seed.default is not inspect.Parameter.empty:
            defaults[name] = seed.default
    assert len(defaults) >= 15, sorted(defaults)
    others = {
        name: default
        for name, default in defaults.items()
        if default != 0 and name not in CHOSEN_GAMES
    }
    assert not others, f"seeds that do not default to 0: {others}"
