"""The fast engines are compiled ahead of use, and a run that must compile says so."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from monopoly_lesson import engine_cache, evolve
from monopoly_lesson.cli import main
from monopoly_lesson.evolution import run as evolution_run


def test_compiling_makes_the_engines_ready():
    engine_cache.compile_engines()
    assert engine_cache.engines_ready()


def test_the_compile_command(capsys):
    assert main(["compile"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Compiling the fast engines") and "Ready in " in out


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
    monkeypatch.setattr(
        evolution_run, "compile_engines", lambda movement: compiled.append(movement)
    )
    evolve("rga", population=8, games_per_player=4, generations=1, seed=1, progress=True)
    assert compiled == [False]  # the whole game's engine only
    err = capsys.readouterr().err
    assert said in err and not_said not in err


def test_the_cache_holds_the_engines_once_compiled_and_an_empty_cache_does_not(tmp_path):
    engine_cache.compile_engines()
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
    monkeypatch.setattr(evolution_run, "compile_engines", lambda movement: 1 / 0)
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
