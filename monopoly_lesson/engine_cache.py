"""Compile the package's fast engines ahead of use: ``python -m monopoly_lesson compile``.

numba turns the fast movement engine and the fast whole game into machine code the
first time they run, which takes about a minute, and keeps that code in its cache (beside
the package, or in ``NUMBA_CACHE_DIR``); every later process loads it in a second or two.
``make lesson`` and ``make test`` compile them at install, so that a student's first fast
simulation or ``evolve`` does not sit at 0% for a minute; a long run that finds them not
yet compiled says so on its progress bar (and one that loads them, that it loads them).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

__all__ = ["COMPILING", "LOADING", "compile_engines", "engines_cached", "engines_ready"]

COMPILING = "compiling the game engine (once after installing, about a minute)"
"""What a progress bar says while the fast engines are compiled (numba's cache lacks them)."""
LOADING = "loading the game engine"
"""What a progress bar says while the fast engines are loaded from numba's cache (a second)."""


def engines_ready(movement: bool = True) -> bool:
    """Whether this process has the fast whole game's machine code already (compiled
    or loaded from numba's cache), and the fast movement engine's unless ``movement=False``.
    With numba's compiling switched off (``NUMBA_DISABLE_JIT=1``) they are plain Python,
    always ready."""
    return all(getattr(loop, "signatures", True) for loop in _loops(movement))


def engines_cached(movement: bool = True) -> bool:
    """Whether numba's cache holds the fast whole game's machine code (and the movement
    engine's unless ``movement=False``) for this machine and this version of its source, so
    that a new process loads it in a second instead of compiling it for a minute.

    numba's own cache index is read (the key it would look up: the machine's, the source's
    and the numba version's); a cache that cannot be read counts as not holding them.
    """
    try:
        return all(_in_cache(loop) for loop in _loops(movement))
    except Exception:  # numba's cache read through its internals: unknown counts as not held
        return False


def _loops(movement: bool) -> tuple[Any, ...]:
    """The engines' outer compiled functions: the fast whole game's, the movement engine's."""
    from . import fast_loop
    from .game import fast_loop as whole_game_loop

    return (whole_game_loop.play_many, *((fast_loop.play_games,) if movement else ()))


def _in_cache(loop: Any) -> bool:
    """Whether numba's cache index holds ``loop`` compiled for this machine and source."""
    cache = loop._cache
    if not hasattr(cache, "_cache_file"):  # caching off: numba's NullCache
        return False
    wanted = cache._index_key(None, loop.targetctx.codegen())[1:]  # all but the signature
    return any(key[1:] == wanted for key in cache._cache_file._load_index())


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
