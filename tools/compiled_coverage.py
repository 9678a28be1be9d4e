"""Every line of the compiled money rules, proven run: ``make compiled-coverage``.

The money rules that cannot be tables (debts, auctions, bankruptcy) are written twice:
in the reference engine and, for numba, in ``monopoly_lesson/game/fast_loop.py``. With
numba's JIT disabled the compiled loop runs as plain Python, so coverage.py sees its
lines. This plays the equality games of ``tests/test_fast_game.py`` (the fast engine fed
the reference engine's pre-drawn streams, compared after every round) and the tests of
``tests/test_compiled_coverage.py`` (games that reach the rules random games miss, the
rules' scenarios from Go, streams too short) and of ``tests/test_game_rules.py`` (each
scenario's turns played by both engines from the same mid-game state), under coverage;
prints coverage's report of ``game/fast.py`` (for information), then of
``game/fast_loop.py``, whose ``TOTAL`` line ends the output; and fails, naming the game,
the round and what differed, if the engines disagree, or if a line of the loop never
ran. (The two functions numba runs only while it compiles, never as the game is played,
the compiled form of ``fast_loop.uncounted``, are marked ``pragma: no cover``.)

    python tools/compiled_coverage.py                   # 4,000 games: about 8 minutes
    python tools/compiled_coverage.py --games 500       # a quicker look
    python tools/compiled_coverage.py --search 0 40000  # seeds for the crafted games
"""

from __future__ import annotations

import os

os.environ["NUMBA_DISABLE_JIT"] = "1"  # before numba is imported: the loop runs as Python

import argparse
import sys
import time
from pathlib import Path

import coverage
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
LOOP = ROOT / "monopoly_lesson" / "game" / "fast_loop.py"
BOUNDARY = ROOT / "monopoly_lesson" / "game" / "fast.py"
GAMES = 4000
"""Random equality games: about 6 s a hundred on one core here, under coverage."""
TESTS = [
    "tests/test_compiled_coverage.py",
    # the rules' scenarios, each turn played by both engines from the same state
    "tests/test_game_rules.py",
    # trading: the trading rules' scenarios, and the equality games with trading on
    "tests/test_trading.py",
    "tests/test_fast_game.py::test_the_fast_engine_plays_the_reference_games_with_trading",
    # games in progress (state_vector), continued by both engines
    "tests/test_fast_game.py::test_the_fast_engine_continues_a_game_in_progress_as_the_reference_engine_does",
    # players who never build nor lift (Passive)
    "tests/test_fast_game.py::test_passive_players_play_the_reference_games_round_by_round",
    # the fast engine's own generator (seeds rather than streams)
    "tests/test_fast_game.py::test_seeded_games_are_reproducible_and_differ_by_seed",
    "tests/test_fast_generator.py",
]
SEARCH_POOL = ("always", "never", "random:0.5", "random:0.9", "heuristic")
"""The strategies ``--search`` seats, 2 to 8 of them, chosen from the seed."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=GAMES, help=f"random equality games (default {GAMES:,})"
    )
    parser.add_argument(
        "--search",
        type=int,
        nargs=2,
        metavar=("FIRST", "STOP"),
        help="find stream seeds whose games reach the rare rules, print them, and stop",
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "tests"))
    if args.search:
        search(*args.search)
        return 0
    measured = coverage.Coverage(data_file=None, include=[str(LOOP), str(BOUNDARY)])
    measured.start()  # before the package is imported, so that its definitions count
    started = time.perf_counter()
    failed_tests = pytest.main([*TESTS, "-q", "-p", "no:cacheprovider"])
    disagreements = equality_games(args.games, started)
    measured.stop()
    print(f"\nPlayed in {time.perf_counter() - started:.0f} s.\n")
    print("The boundary (plain Python, never compiled: checks and packing, for information):")
    measured.report(include=[str(BOUNDARY)], show_missing=True)
    print("\nThe compiled money rules (numba), each line required:")
    loop_share = measured.report(include=[str(LOOP)], show_missing=True)
    problems = [f"the engines disagree: {text}" for text in disagreements]
    if failed_tests:
        problems.append("tests failed (above)")
    if loop_share < 100:
        problems.append(
            f"{LOOP.name}: lines never ran (Missing, above): reach them with a "
            "crafted game in tests/test_compiled_coverage.py"
        )
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


def equality_games(games: int, started: float) -> list[str]:
    """Play test_fast_game's round-by-round equality games from 0, in its chunks of 100,
    until ``games`` are played; what the engines first disagree on, in each game they do."""
    from test_compiled_coverage import disagreement
    from test_fast_game import CHUNK, compare_chunk, pool, seating

    from monopoly_lesson.game.streams import GameStreams

    found = []
    for first in range(0, games, CHUNK):
        for game in compare_chunk(first):
            members, who = pool(first), seating(game)
            strategies = [members[i] for i in who]
            where = disagreement(strategies, GameStreams.draw(game, len(who)))
            names = ", ".join(getattr(s, "name", s) for s in strategies)
            found.append(f"game {game} of test_fast_game.py ({names}): {where}")
        if (first + CHUNK) % 1000 == 0 or first + CHUNK >= games:
            print(
                f"{first + CHUNK:,} equality games played ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    return found


def search(first: int, stop: int) -> None:
    """Print, for each rare rule, the first stream seed from ``first`` whose game reaches
    it, with its players (seated from :data:`SEARCH_POOL` by the seed)."""
    from test_compiled_coverage import situations

    from monopoly_lesson.game.streams import GameStreams

    found: dict[str, tuple[int, list[str]]] = {}
    for seed in range(first, stop):
        rng = np.random.default_rng([7, seed])
        players = rng.integers(2, 9)
        strategies = [SEARCH_POOL[i] for i in rng.integers(0, len(SEARCH_POOL), size=players)]
        for rule in situations(strategies, GameStreams.draw(seed, len(strategies))):
            found.setdefault(rule, (seed, strategies))
    for rule, (seed, strategies) in sorted(found.items()):
        print(f"Crafted({rule!r}, {seed}, {tuple(strategies)!r}),")


if __name__ == "__main__":
    sys.exit(main())
