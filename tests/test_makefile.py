"""The Makefile's commands for the lesson's users: what each opens, and what it builds."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not shutil.which("make"), reason="needs make")


def dry_run(*args: str) -> str:
    """What ``make -n`` would run (nothing is run), with the environment taken as installed."""
    done = subprocess.run(
        ["make", "-n", "-o", ".venv/.lesson-installed", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_the_students_command_opens_the_student_edition_built_if_missing(tmp_path):
    missing = tmp_path / "edition"
    commands = dry_run("lesson", f"STUDENT={missing}")
    assert f"tools/student_edition.py --out {missing}" in commands
    assert f"--ServerApp.root_dir={missing}" in commands
    assert "root_dir=notebooks" not in commands


def test_a_students_own_copy_is_never_rebuilt(tmp_path):
    commands = dry_run("lesson", f"STUDENT={tmp_path}")
    assert "student_edition.py" not in commands, "the student's work would be overwritten"
    assert f"--ServerApp.root_dir={tmp_path}" in commands


def test_the_instructors_command_opens_the_solutions():
    commands = dry_run("solutions")
    assert "--ServerApp.root_dir=notebooks" in commands and "student_edition" not in commands


@pytest.mark.parametrize("target", ["lesson", "solutions"])
def test_jupyterlab_says_when_it_runs_as_root_and_opens_no_terminal(target, tmp_path):
    commands = dry_run(target, f"STUDENT={tmp_path}")
    assert "--ServerApp.terminals_enabled=False" in commands
    as_root = os.getuid() == 0
    assert ("--allow-root" in commands) == as_root
    assert ('echo "Running JupyterLab as root' in commands) == as_root


def test_the_test_command_runs_the_suite_in_parallel_one_worker_per_thread():
    commands = dry_run("test")
    assert "-m pytest --nbval -n logical" in commands


def test_the_release_is_written_by_the_release_tool():
    """make release writes what students are given, beside the repository's own lesson."""
    commands = dry_run("release")
    assert "tools/release.py --out _release" in commands
    assert "root_dir" not in commands, "make release only writes the release"


def test_the_lesson_opens_once_the_movement_engine_is_compiled_the_whole_game_in_the_background():
    """Chapters 1 to 8 need only the movement engine (seconds to compile): JupyterLab opens
    after it, while the whole game (chapter 9 on) compiles in a process of its own."""
    install = subprocess.run(
        ["make", "-n", "-B", ".venv/.lesson-installed"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    compiles = [line for line in install.splitlines() if "monopoly_lesson compile" in line]
    assert [line.split("monopoly_lesson ", 1)[1] for line in compiles] == ["compile movement"]
    for target in ("lesson", "solutions"):
        commands = dry_run(target, "STUDENT=_student")
        background = commands.index("monopoly_lesson compile game --background")
        assert background < commands.index("jupyter lab"), target
    kit = (ROOT / "tools" / "student_kit" / "Makefile").read_text()
    assert kit.index("monopoly_lesson compile movement") < kit.index("touch $@")
    lesson = kit[kit.index("\nlesson:") :]
    assert lesson.index("compile game --background") < lesson.index("jupyter lab")
