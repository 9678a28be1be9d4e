"""The fast engines are compiled ahead of use, and a run that must compile says so: the
movement engine at install, the whole game in the background, one process at a time."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from contextlib import contextmanager

import numpy as np
import pytest

from monopoly_lesson import engine_cache, evolve
from monopoly_lesson.cli import main
from monopoly_lesson.evolution import run as evolution_run
from monopoly_lesson.game import fast as game_fast
from monopoly_lesson.game.fast import fast_games, strategy_codes

VERSIONS = """
import json
from numba.core.registry import CPUDispatcher
from monopoly_lesson import fast_loop
from monopoly_lesson.game import fast_loop as whole_game
versions = {}
for module in (fast_loop, whole_game):
    for name, function in vars(module).items():
        if isinstance(function, CPUDispatcher):
            index = function._cache._cache_file._load_index()
            versions[f"{module.__name__}.{name}"] = len(index)
print(json.dumps(versions))
"""
"""Prints how many compiled versions numba's cache holds of each function of the engines."""
HOLD_THE_LOCK = """
import fcntl, sys, time
lock = open(sys.argv[1], "a+")
fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
lock.write(f"{time.time()}\\n")
lock.flush()
print("locked", flush=True)
sys.stdin.readline()
"""
"""Holds an engine's compile lock, as a compiling process does, until told to stop."""
needs_locks = pytest.mark.skipif(os.name != "posix", reason="file locks (fcntl) are POSIX's")


def test_compiling_makes_the_engines_ready():
    assert main(["compile"]) == 0
    assert engine_cache.engines_ready()


def test_the_compile_command_says_how_long_each_engine_took(capsys):
    assert main(["compile"]) == 0
    out = capsys.readouterr().out
    for title in ("The movement engine: ", "The whole-game engine: "):
        assert re.search(rf"^{title}(compiled|in numba's cache, loaded) in [\d.]+ s\.$", out, re.M)
    assert "Ready in " in out


def test_the_compile_command_names_its_engines_plainly(capsys):
    assert main(["compile", "movment"]) == 2
    err = capsys.readouterr().err
    assert "an engine is one of 'movement', 'game', got 'movment'" in err


def test_the_lessons_install_compiles_the_movement_engine_alone_and_each_function_once(tmp_path):
    """make lesson compiles the movement engine before JupyterLab opens, and nothing of the
    whole game (which compiles in the background); then the whole game. numba compiles a
    function once more for every literal number or type it is passed: one version each."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def compile_and_count(*engines: str) -> dict[str, int]:
        done = subprocess.run(
            [sys.executable, "-m", "monopoly_lesson", "compile", *engines],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert re.search(r"compiled in [\d.]+ s\.", done.stdout), done.stdout
        counted = subprocess.run(
            [sys.executable, "-c", VERSIONS], env=env, capture_output=True, text=True, check=True
        )
        return json.loads(counted.stdout)

    versions = compile_and_count("movement")
    movement = {name for name in versions if name.startswith("monopoly_lesson.fast_loop.")}
    assert {name for name in movement if versions[name]} >= {
        "monopoly_lesson.fast_loop.play_games",
        "monopoly_lesson.fast_loop.deal",
    }
    assert not {name: n for name, n in versions.items() if name not in movement and n}
    versions = compile_and_count("game")
    assert versions["monopoly_lesson.game.fast_loop.play_many"] == 1
    assert not {name: n for name, n in versions.items() if n > 1}, "compiled more than once"


@pytest.mark.parametrize(
    ("cached", "said", "not_said"),
    [
        (False, engine_cache.COMPILING, engine_cache.LOADING),
        (True, engine_cache.LOADING, engine_cache.COMPILING),
    ],
)
def test_an_evolve_says_compiling_only_when_numbas_cache_lacks_the_engine(
    monkeypatch, capsys, cached, said, not_said
):
    compiled = []
    monkeypatch.setattr(evolution_run, "engines_ready", lambda movement: False)
    monkeypatch.setattr(evolution_run, "engines_cached", lambda movement: cached)
    monkeypatch.setattr(game_fast, "play_one_tiny_game", lambda: compiled.append("game"))
    evolve("rga", population=8, games_per_player=4, generations=1, seed=1, progress=True)
    assert compiled == ["game"]  # the whole game's engine only
    err = capsys.readouterr().err
    assert said in err and not_said not in err


def test_the_cache_holds_the_engines_once_compiled_and_an_empty_cache_does_not(tmp_path):
    assert main(["compile"]) == 0
    assert engine_cache.engines_cached()
    empty = subprocess.run(
        [
            sys.executable,
            "-c",
            "from monopoly_lesson.engine_cache import engines_cached\n"
            "print(engines_cached(), engines_cached(movement=False))",
        ],
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert empty.stdout.split() == ["False", "False"]


def test_net_worth_progress_reads_as_dollars_a_game(capsys):
    evolve(
        "tga",
        "NET_WORTH",
        population=8,
        games_per_player=2,
        generations=1,
        seed=1,
        benchmark_every=0,
        max_rounds=20,
        progress=True,
    )
    bar = capsys.readouterr().err.rsplit("\r", 1)[-1]
    assert re.search(r"best \$[\d,]+ a game, mean \$[\d,]+ a game", bar), bar


def test_an_evolve_with_the_engines_ready_does_not_compile(monkeypatch):
    monkeypatch.setattr(evolution_run, "engines_ready", lambda movement: True)
    monkeypatch.setattr(game_fast, "play_one_tiny_game", lambda: 1 / 0)
    evolve("rga", population=8, games_per_player=4, generations=1, seed=1, progress=False)


def test_with_compiling_switched_off_the_engines_are_plain_python_and_ready():
    """NUMBA_DISABLE_JIT=1 (how the compiled coverage runs them): nothing to compile, so an
    evolve's progress bar asks nothing of numba's dispatchers (before, an AttributeError)."""
    plain = subprocess.run(
        [
            sys.executable,
            "-c",
            "from monopoly_lesson.engine_cache import engines_ready\n"
            "print(engines_ready(), engines_ready(movement=False))",
        ],
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert plain.stdout.split() == ["True", "True"]


@pytest.fixture
def engine_files(monkeypatch, tmp_path):
    """The engines' lock and files in ``tmp_path``, and the whole game neither ready in this
    process nor (until told) in numba's cache."""
    cached = []
    monkeypatch.setattr(engine_cache, "_cache_file", lambda e, suffix: tmp_path / f"{e}{suffix}")
    monkeypatch.setattr(engine_cache, "engine_ready", lambda engine: False)
    monkeypatch.setattr(engine_cache, "engine_cached", lambda engine: bool(cached))
    return cached


@needs_locks
def test_a_process_that_needs_an_engine_another_is_compiling_waits_and_compiles_nothing(
    engine_files, monkeypatch, tmp_path, capsys
):
    """A kernel at chapter 9 while make lesson's background compile runs: it waits for the
    lock, saying so, then finds the engine in numba's cache (two compilers would only slow
    each other down, and write the same cache files at once)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_LOCK, str(tmp_path / "game.lock")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "locked\n"
    refused = threading.Event()
    try_lock = engine_cache._try_lock

    def watched(handle):  # type: ignore[no-untyped-def]
        taken = try_lock(handle)
        if not taken:
            refused.set()
        return taken

    monkeypatch.setattr(engine_cache, "_try_lock", watched)
    played = []

    def first_game() -> None:
        with engine_cache.first_call("game"):
            played.append(engine_cache.engine_cached("game"))

    waiter = threading.Thread(target=first_game)
    waiter.start()
    assert refused.wait(timeout=120), "the lock was not asked for"
    assert waiter.is_alive() and not played, "it played while the other process compiled"
    engine_files.append(True)  # the other process has put the engine in numba's cache
    holder.communicate("done\n")
    waiter.join(timeout=120)
    assert played == [True], "it played, loading the engine from the cache"
    err = capsys.readouterr().err
    assert "Waiting for the whole-game engine, compiled by another process" in err
    assert "Compiling" not in err


@needs_locks
def test_an_engine_missing_from_the_cache_is_compiled_under_its_lock_and_its_time_kept(
    engine_files, tmp_path, capsys
):
    def lock_is() -> str:
        """What another process finds the whole game's compile lock: busy or free."""
        other = subprocess.run(
            [sys.executable, "-c", TRY_THE_LOCK, str(tmp_path / "game.lock")],
            capture_output=True,
            text=True,
            check=True,
        )
        return other.stdout.strip()

    assert engine_cache.expected_seconds("game")[1] == "about 60 s the first time"
    with engine_cache.first_call("game"):  # numba would compile here
        during = lock_is()
        with engine_cache.first_call("game"):  # a first call within it does not wait
            pass
    assert (during, lock_is()) == ("busy", "free")
    seconds = float((tmp_path / "game.seconds").read_text())
    err = capsys.readouterr().err
    assert "Compiling the whole-game engine, once (about 60 s the first time)" in err
    assert f"Compiled the whole-game engine in {seconds:.0f} s" in err
    assert engine_cache.expected_seconds("game")[1] == f"{seconds:.0f} s last time"


TRY_THE_LOCK = """
import fcntl, sys
with open(sys.argv[1], "a+") as lock:
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print("busy")
    else:
        print("free")
"""
"""Says whether another process holds an engine's compile lock."""


@needs_locks
def test_the_background_compile_starts_one_process_of_its_own_and_only_when_needed(
    engine_files, monkeypatch, tmp_path
):
    started = []

    class Recorded:
        def __init__(self, command, **options):  # type: ignore[no-untyped-def]
            started.append((command, options))

    monkeypatch.setattr(engine_cache.subprocess, "Popen", Recorded)
    said = engine_cache.compile_in_background("game")
    assert said.startswith("Compiling the whole-game engine in the background")
    [(command, options)] = started
    assert command[1:] == ["-m", "monopoly_lesson", "compile", "game"]
    assert options["start_new_session"] and options["stdin"] == subprocess.DEVNULL
    assert options["stdout"].name == str(tmp_path / "game.log") in said
    with open(tmp_path / "game.lock", "a+") as lock:  # another compiler holds the lock
        import fcntl

        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        said = engine_cache.compile_in_background("game")
    assert said == "The whole-game engine is being compiled by another process already."
    engine_files.append(True)
    said = engine_cache.compile_in_background("game")
    assert said == "The whole-game engine is compiled (numba's cache holds it)."
    assert len(started) == 1


def test_the_fast_whole_game_plays_its_calls_through_its_engines_first_call(monkeypatch):
    calls = []

    @contextmanager
    def recorded(engine: str):  # type: ignore[no-untyped-def]
        calls.append(engine)
        yield

    monkeypatch.setattr(engine_cache, "first_call", recorded)
    fast_games(strategy_codes(["always", "always"]), np.array([[0, 1]]), seeds=[0], max_rounds=1)
    assert calls == ["game"]
