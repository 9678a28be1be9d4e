"""The fast engines are compiled ahead of use, and a run that must compile says so."""

from __future__ import annotations

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


def test_an_evolve_that_must_compile_says_so_on_its_bar(monkeypatch, capsys):
    compiled = []
    monkeypatch.setattr(evolution_run, "engines_ready", lambda movement: False)
    monkeypatch.setattr(
        evolution_run, "compile_engines", lambda movement: compiled.append(movement)
    )
    evolve("rga", population=8, games_per_player=4, generations=1, seed=1, progress=True)
    assert compiled == [False]  # the whole game's engine only
    assert engine_cache.COMPILING in capsys.readouterr().err


def test_an_evolve_with_the_engines_ready_does_not_compile(monkeypatch):
    monkeypatch.setattr(evolution_run, "engines_ready", lambda movement: True)
    monkeypatch.setattr(evolution_run, "compile_engines", lambda movement: 1 / 0)
    evolve("rga", population=8, games_per_player=4, generations=1, seed=1, progress=False)
