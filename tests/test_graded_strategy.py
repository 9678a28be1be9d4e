"""Chapter 9's strategies played where the whole game is given but not the checker.

After the notebook's kernel is gone the checker runs its code cells again in a graded
process started with ``--game``: the package is there, all but ``monopoly_lesson.checker``
and ``grading``, whose modules are withheld and whose files cannot be read; what plays many
games is withheld while the cells run. The process plays the check's games with the
strategy the cells made and records its answers; the checker replays them.
"""

from pathlib import Path

import pytest
from test_check_chapters import GAMES, IMPORTS, LIAR, MINE, MY_BUY, chapter_9, check, summary

from monopoly_lesson.checker.graded_session import GradedProcess, not_own, read_reached

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
BUY = "def my_buy(game, me, space):\n    return me.cash > 300\n"


@pytest.fixture
def room():
    """A graded process for chapter 9, closed after the test."""
    process = GradedProcess(2**31, None, game=True)
    yield process
    process.close()


def ask(room: GradedProcess, request: dict) -> object:
    room.send(request)
    return room.receive()


def load(room: GradedProcess, *sources: str) -> dict:
    return ask(room, {"kind": "load", "cells": list(enumerate(sources, 1))})


def test_the_game_is_given_and_the_checker_is_withheld(room):
    modules = (
        "import sys\n"
        "from monopoly_lesson import make_strategy, lots\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('monopoly_lesson.'))\n"
        "assert 'monopoly_lesson.game.engine' in loaded\n"
        "assert not [m for m in loaded if m.startswith(('monopoly_lesson.checker', "
        "'monopoly_lesson.grading'))], loaded\n"
    )
    withheld = (
        "import monopoly_lesson.checker.capstone_check as cc\ncc.replay_game(None, None, 'mine')\n"
    )
    answer = load(room, modules, withheld, "from monopoly_lesson import check_results\nkey = 1")
    assert answer["failed_cells"][0].startswith(
        "cell 2: WithheldError: monopoly_lesson.checker.capstone_check.replay_game is not "
        "available where the strategy is graded (the whole game, without the checker)"
    ), answer
    assert len(answer["failed_cells"]) == 1, answer  # check_results is only named, not used


def test_a_cell_that_plays_a_tournament_still_defines_what_follows_it(room):
    cell = (
        IMPORTS
        + "\n"
        + BUY
        + "table = play_games([make_strategy('x', buy=my_buy), 'always'], games=400)\n"
        + MINE
        + "\n"
    )
    answer = load(room, cell)
    assert answer["failed_cells"] == [
        "cell 1: WithheldError: monopoly_lesson.play_games is not played where the strategy "
        "is graded: the check plays its own games"
    ]
    found = ask(room, {"kind": "strategy", "variable": "mine"})
    assert found["variable"] == "mine" and found["where"] == {"buy": {"cell": 1, "line": 2}}


def test_reaching_the_checker_from_a_decision_is_named(room):
    reaching = (
        "from monopoly_lesson import make_strategy\n"
        "def my_buy(game, me, space):\n"
        "    import importlib\n"
        "    key = importlib.import_module('monopoly_lesson.checker.answer_key')\n"
        "    return bool(key.ANSWERS)\n"
        "mine = make_strategy('mine', buy=my_buy)\n"
    )
    load(room, reaching)
    game = {"game": 0, "seed": 1, "seats": [None, "always"], "max_rounds": 5, "trading": False}
    records = ask(room, {"kind": "strategy_games", "variable": "mine", "games": [game]})
    assert records[0]["answers"][0][1]["raised"][0] == "WithheldError"
    reached = read_reached(ask(room, {"kind": "reached"}))
    assert not_own(reached, "the strategy") == (
        "the strategy uses monopoly_lesson.checker.answer_key.ANSWERS"
    )


def test_the_checkers_files_and_the_stored_solutions_cannot_be_read(room):
    package = Path(__file__).resolve().parent.parent / "monopoly_lesson"
    reads = (
        f"open({str(package / 'game' / 'engine.py')!r}).read()\n",  # the game: given
        f"open({str(package / 'checker' / 'answer_key.py')!r}).read()\n",
        f"open({str(NOTEBOOKS / '09_whole_game.ipynb')!r}).read()\n",
    )
    answer = load(room, *reads)
    assert [cell.split(":")[0] for cell in answer["failed_cells"]] == ["cell 2", "cell 3"]
    reached = read_reached(ask(room, {"kind": "reached"}))
    assert not_own(reached, "the strategy") == (
        "the notebook's code reads monopoly_lesson/checker/answer_key.py; "
        f"the notebook's code reads {NOTEBOOKS / '09_whole_game.ipynb'}"
    )


def test_a_strategy_that_never_answers_fails_its_game_quickly(room):
    load(
        room,
        "from monopoly_lesson import make_strategy\n"
        "def stuck(game, me, space):\n    while True:\n        pass\n"
        "mine = make_strategy('mine', buy=stuck)\n",
    )
    game = {"game": 0, "seed": 1, "seats": [None, "always"], "max_rounds": 5, "trading": False}
    records = ask(room, {"kind": "strategy_games", "variable": "mine", "games": [game]})
    raised = records[0]["answers"][-1][1]
    assert raised["raised"][0] == "GameTooSlow" and raised["place"]["line"] in (3, 4)


def test_a_notebook_that_rewrites_the_recorder_changes_nothing(tmp_path):
    """Its kernel is not asked, and the recorder cannot be imported where it is graded."""
    honest, _ = chapter_9(tmp_path, IMPORTS, MY_BUY, MINE, name="honest.ipynb")
    lying, _ = chapter_9(tmp_path, IMPORTS, MY_BUY, MINE, "LIE = 'won'", LIAR)
    done, lied = check(honest, "--games", GAMES), check(lying, "--games", GAMES)
    assert lied.returncode == done.returncode, lied.stdout + lied.stderr
    assert summary(lied) == summary(done)
    assert any(line.startswith("mine won ") for line in summary(lied))


def test_a_strategy_that_reaches_the_checker_is_not_the_students_own(tmp_path):
    reaching = (
        "def my_buy(game, me, space):\n"
        "    import importlib\n"
        "    capstone = importlib.import_module('monopoly_' + 'lesson.checker.capstone_check')\n"
        "    return len(capstone.OPPONENTS) > 0\n"
    )
    book, _ = chapter_9(tmp_path, IMPORTS, reaching, MINE)
    done = check(book, "--games", GAMES)
    assert done.returncode == 1, done.stdout + done.stderr
    assert summary(done)[0] == (
        "Not the student's own work: the strategy uses "
        "monopoly_lesson.checker.capstone_check.OPPONENTS."
    )
