"""Compile the package's fast engines ahead of use: ``python -m monopoly_lesson compile``.

numba turns the fast movement engine and the fast whole game into machine code the
first time they run, which takes about a minute, and keeps that code in its cache (beside
the package, or in ``NUMBA_CACHE_DIR``); every later process loads it in a second or two.
``make lesson`` and ``make test`` compile them at install, so that a student's first fast
simulation or ``evolve`` does not sit at 0% for a minute; a long run that finds them not
yet compiled says so on its progress bar.
"""

from __future__ import annotations

import time

import numpy as np

__all__ = ["COMPILING", "compile_engines", "engines_ready"]

COMPILING = "compiling the game engine (once after installing, about a minute)"
"""What a progress bar says while the fast engines are compiled or loaded."""


def engines_ready(movement: bool = True) -> bool:
    """Whether this process has the fast whole game's machine code already (compiled
    or loaded from numba's cache), and the fast movement engine's unless ``movement=False``."""
    from . import fast_loop
    from .game import fast_loop as whole_game_loop

    loops = (whole_game_loop.play_many, *((fast_loop.play_games,) if movement else ()))
    return all(loop.signatures for loop in loops)


def compile_engines(movement: bool = True) -> float:
    """Compile (or load from numba's cache) the fast whole game, and the fast movement
    engine unless ``movement=False``, by playing one tiny game; the seconds it took."""
    from .game.fast import fast_games, strategy_codes
    from .simulation import simulate

    start = time.perf_counter()
    if movement:
        simulate(games=1, turns=1, seed=0, engine="fast", progress=False)
    fast_games(strategy_codes(["always", "always"]), np.array([[0, 1]]), seeds=[0], max_rounds=1)
    return time.perf_counter() - start
