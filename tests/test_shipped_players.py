"""The shipped evolved players are data: tools/shipped_players.py writes each one's
chromosome and genes from its shipped run, and the game reads that file when the player is
named."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from monopoly_lesson.evolution.shipped import load_shipped_run
from monopoly_lesson.game import plugins
from monopoly_lesson.game.engine import play_monopoly
from monopoly_lesson.game.plugins import SHIPPED_DATA, SHIPPED_PLAYERS, strategy_named
from monopoly_lesson.game.tournament import play_games

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "shipped_players.py"


def the_tool():
    """tools/shipped_players.py, loaded as a module."""
    spec = importlib.util.spec_from_file_location("shipped_players", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_data_files_are_the_shipped_runs_players():
    done = subprocess.run(
        [sys.executable, str(TOOL), "--check"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert sorted(path.stem for path in SHIPPED_DATA.glob("*.json")) == sorted(SHIPPED_PLAYERS)


def test_the_check_names_a_file_out_of_step_and_one_of_no_player(tmp_path, monkeypatch, capsys):
    tool = the_tool()
    monkeypatch.setattr(tool, "SHIPPED_DATA", tmp_path)
    assert tool.main([]) == 0
    (tmp_path / "ega_always.json").write_text("{}")
    (tmp_path / "ega_best.json").write_text("{}")
    assert tool.main(["--check"]) == 1
    said = capsys.readouterr().err
    assert "ega_always.json is out of date: run python tools/shipped_players.py" in said
    assert "ega_best.json is no shipped player's" in said
    assert tool.main([]) == 0 and tool.main(["--check"]) == 0
    assert not (tmp_path / "ega_best.json").exists()


@pytest.mark.parametrize("name", SHIPPED_PLAYERS)
def test_a_stored_player_is_its_shipped_runs_best_player(name):
    """Same class, same genes (dtype, shape, every value), same name."""
    stored, best = strategy_named(name), load_shipped_run(name).best_player()
    assert type(stored) is type(best) and stored.name == name
    for mine, runs in zip(stored.gene_arrays(), best.gene_arrays(), strict=True):
        assert mine.dtype == runs.dtype and mine.shape == runs.shape
        assert (mine == runs).all()


@pytest.mark.parametrize("name", SHIPPED_PLAYERS)
def test_a_stored_player_plays_as_its_shipped_runs_best_player(name, capsys):
    """The same games, every event of them, in the readable engine and in a tournament."""
    best = load_shipped_run(name).best_player()
    best.name = name
    played = {}
    for player in (strategy_named(name), best):
        for seed in (1, 2):
            play_monopoly([player, "heuristic", "dealer"], seed=seed, trading=True, verbose=True)
        table = play_games([player, "always", "heuristic"], games=6, seed=3, trading=True)
        played[player is best] = capsys.readouterr().out, table
    (stored_events, stored_table), (runs_events, runs_table) = played[False], played[True]
    assert stored_events == runs_events and f"P1 {name} buys" in stored_events
    assert stored_table.equals(runs_table)


def test_the_rules_engine_plays_a_shipped_player_without_the_genetic_algorithm():
    """The game reads a shipped player as data: the genetic algorithm is not loaded (the
    package's front door, which re-exports it, left out: the game's modules alone)."""
    code = (
        "import sys, types\n"
        "package = types.ModuleType('monopoly_lesson')\n"
        f"package.__path__ = [{str(ROOT / 'monopoly_lesson')!r}]\n"
        "sys.modules['monopoly_lesson'] = package\n"
        "from monopoly_lesson.game.engine import play_monopoly\n"
        "play_monopoly(['league', 'rga_level', 'always'], seed=1, max_rounds=30)\n"
        "print(sorted(m for m in sys.modules if m.startswith('monopoly_lesson.evolution')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_shipped_players_file_is_read_only_when_it_is_asked_for(tmp_path, monkeypatch):
    monkeypatch.setattr(plugins, "SHIPPED_DATA", tmp_path)
    assert strategy_named("always").name == "always"
    with pytest.raises(ValueError, match=r"league\.json in .* is missing"):
        strategy_named("league")
