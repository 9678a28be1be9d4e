"""How alike two submissions' graded code is: names, order and wrappers do not hide a copy."""

import inspect
import re
from pathlib import Path

import nbformat
from test_cli_check import OWN_TAKE_TURN

from monopoly_lesson import rules
from monopoly_lesson.checker.similarity import (
    PAIR_THRESHOLD,
    graded_code,
    notebook_code,
    reference_code,
    similarity,
)
from monopoly_lesson.checker.submission_code import read_code

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
RENAMES = [
    ("player", "pl"),
    ("tracker", "tr"),
    ("free_turn", "go"),
    ("jail_turn", "stuck"),
    ("follow_card", "card_it"),
    ("land", "arrive"),
    ("send_to_jail", "lock_up"),
    ("nearest", "closest"),
]


def solution_text(name="05_jail"):
    book = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    return "\n\n".join(c.source for c in book.cells if c.cell_type == "code")


def code_of(text):
    return graded_code(read_code([(1, text)]))


def respelt(text):
    """The same code with every name changed, two statements swapped and take_turn wrapped."""
    for old, new in RENAMES:
        text = re.sub(rf"\b{old}\b", new, text)
    swapped = "    tr.tally(JAIL)\n    pl.go_to_jail()"
    text = text.replace("    pl.go_to_jail()\n    tr.tally(JAIL)", swapped)
    assert swapped in text
    wrapper = (
        "\n\ndef take_turn(pl, tr, *, dice, chance, community):\n"
        "    return my_turn(pl, tr, dice=dice, chance=chance, community=community)\n"
    )
    return text.replace("def take_turn(", "def my_turn(") + wrapper


def test_a_copy_is_as_alike_as_the_original_whatever_its_names_order_and_wrappers():
    solution = code_of(solution_text())
    copy = code_of(respelt(solution_text()))
    assert "my_turn" in copy.functions and "stuck" in copy.functions
    assert similarity(solution, copy) >= 0.9
    assert similarity(solution, solution) == 1.0


def test_code_written_independently_is_below_the_pairs_threshold():
    solution, own = code_of(solution_text()), code_of(OWN_TAKE_TURN)
    assert own.functions == ("card", "land", "send_to_jail", "take_turn")
    assert 0 < similarity(solution, own) < PAIR_THRESHOLD
    assert similarity(reference_code(), solution) < 0.2


def test_the_reference_engine_pasted_in_is_the_reference_engine():
    pasted = inspect.getsource(rules).replace("def take_turn(", "def the_engine(")
    pasted += (
        "\n\ndef take_turn(player, tracker, **kw):\n    return the_engine(player, tracker, **kw)\n"
    )
    assert similarity(reference_code(), code_of(pasted)) >= 0.9


def test_a_strategy_is_compared_by_the_functions_it_is_made_of():
    chapter = notebook_code(NOTEBOOKS / "09_whole_game.ipynb")
    assert chapter.functions == ("my_answer", "my_buy", "my_offer")
    text = solution_text("09_whole_game").replace("my_buy", "buy_rule")
    assert similarity(chapter, code_of(text)) == 1.0
    assert not notebook_code(NOTEBOOKS / "rules.md")  # not a notebook: nothing to compare
