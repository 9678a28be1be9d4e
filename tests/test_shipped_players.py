"""The shipped evolved players are data: tools/shipped_players.py writes each one's
chromosome and genes from its shipped run, and the game reads that file when the player is
named."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from monopoly_lesson.game.plugins import SHIPPED_DATA, SHIPPED_PLAYERS

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
