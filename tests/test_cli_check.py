"""``python -m monopoly_lesson check NOTEBOOK``: exit 0 pass, 1 a rule fails, 2 unusable."""

import subprocess
import sys

import nbformat
import pytest

GOOD = """\
from monopoly_lesson import simulate
from monopoly_lesson import take_turn as reference


def take_turn(player, tracker, *, dice, chance, community):
    reference(player, tracker, dice=dice, chance=chance, community=community)


result = simulate(seed=2026, engine="fast", progress=False)
"""

NO_ROLL_AGAIN = """\
def take_turn(player, tracker, *, dice, chance, community):
    d1, d2 = dice.roll()
    player.move_forward(d1 + d2)
    tracker.tally(player.pos)
"""


def notebook(tmp_path, *sources, name="student.ipynb"):
    book = nbformat.v4.new_notebook()
    book.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    path = tmp_path / name
    nbformat.write(book, path)
    return path


def check(path, *extra):
    return subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "check", str(path), *extra],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_correct_notebook_passes(tmp_path):
    done = check(notebook(tmp_path, GOOD))
    assert done.returncode == 0, done.stderr
    assert "take_turn: all rules pass" in done.stdout
    assert "results: consistent with a correct simulation" in done.stdout


def test_a_broken_rule_exits_1_with_the_report(tmp_path):
    done = check(notebook(tmp_path, NO_ROLL_AGAIN))
    assert done.returncode == 1
    assert "FAIL  doubles roll again" in done.stdout
    assert "no results table found" in done.stdout


@pytest.mark.parametrize(
    ("sources", "message"),
    [
        (["x = 1"], "no take_turn function was found"),
        (["raise RuntimeError('half done')"], "raises RuntimeError when run: half done"),
        (["import time\ntime.sleep(60)"], "ran longer than"),
    ],
)
def test_unusable_notebooks_exit_2(tmp_path, sources, message):
    limit = "8" if "sleep" in sources[0] else "60"
    done = check(notebook(tmp_path, *sources), "--timeout", limit)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_not_a_notebook_or_missing(tmp_path):
    text = tmp_path / "essay.txt"
    text.write_text("take_turn")
    assert check(text).returncode == 2
    assert "not a notebook" in check(text).stderr
    missing = check(tmp_path / "nothing.ipynb")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json")
    done = check(broken)
    assert done.returncode == 2 and "not a readable notebook" in done.stderr
