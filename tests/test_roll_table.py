"""The roll table: the reference engine's rolls enumerated, which the fast and exact engines
are built from. A rule changed in rules.py must change every engine."""

from __future__ import annotations

import numpy as np
import pytest

from monopoly_lesson import Rules, Seat, exact, expected_tallies, fast, fast_tallies, roll_table
from monopoly_lesson import rules as rules_module
from monopoly_lesson.roll_table import STATES, _Roll, dice_classes
from monopoly_lesson.roll_table import roll_table as table_of

LESSON = Rules()
BACK_3, CHEST_JAIL = 8, 1  # 0-based card numbers: Chance "Go Back 3 Spaces", Chest "Go to Jail"


def leaves(state: int, doubles: int, faces: tuple[int, int], rules: Rules = LESSON):
    table = table_of(rules)
    cls = table.dice_class[(faces[0] - 1) * rules.dice_sides + faces[1] - 1]
    return table.leaves[doubles * STATES + state][cls]


def test_a_chain_of_cards_is_one_leaf():
    """From 30, a 7 lands on Chance 37: Back 3 to Community Chest 34, whose card jails."""
    (leaf,) = [x for x in leaves(29, 0, (3, 4)) if x.cards == (BACK_3, CHEST_JAIL)]
    assert (leaf.next_state, leaf.doubles, leaf.tallies) == (STATES - 3, 0, (37, 34, 11))


def test_a_card_is_chosen_only_when_the_roll_draws_it():
    assert [x.cards for x in leaves(0, 0, (1, 3))] == [(None, None)]  # Income Tax: no card
    assert len(leaves(0, 0, (3, 4))) == 15  # Chance 8: one leaf per Chance card
    chance_37 = leaves(29, 0, (3, 4))
    assert len(chance_37) == 15 - 1 + 16  # Back 3 also draws one of 16 Community Chest cards


def test_doubles_roll_again_and_the_third_sends_to_jail():
    (again,) = leaves(0, 0, (2, 2))
    assert (again.next_state, again.doubles, again.tallies) == (4, 1, (5,))
    (third,) = leaves(0, 2, (2, 2))
    assert (third.next_state, third.doubles, third.tallies) == (STATES - 3, 0, (11,))


def test_jail_rows_follow_the_long_stay():
    jail = STATES - 3  # in jail after 0 turns
    (stay,) = leaves(jail, 0, (1, 2))
    assert (stay.next_state, stay.tallies) == (jail + 1, (11,))
    (leave,) = leaves(jail + 2, 0, (1, 3))  # the third turn in jail leaves anyway
    assert (leave.next_state, leave.doubles, leave.tallies) == (14, 0, (15,))
    assert table_of(LESSON).leaves[STATES + jail] is None, "no roll again from jail"


@pytest.mark.parametrize("rules", [LESSON, Rules(jail="short", counting="end_of_move")])
def test_every_dice_code_plays_like_its_class(rules):
    """The rules read the dice only through their total and doubles; check every code."""
    decks = (list(rules.chance_deck["card"]), list(rules_module.community_deck["card"]))
    faces, of_code, size = dice_classes(rules.dice_sides)
    assert size.sum() == 36 and len(faces) == 6 + 9
    table = table_of(rules)
    for state in range(STATES):
        for code in range(36):
            roll = _Roll(rules, decks, state, 0, (code // 6 + 1, code % 6 + 1))
            assert tuple(roll.leaves()) == table.leaves[state][of_code[code]]


def test_probabilities_of_each_row_sum_to_one():
    table = table_of(Rules(dice_sides=4, chance="standard"))
    for row, rolls in enumerate(table.leaves):
        if rolls is not None:
            assert sum(p for _, p, _ in table.weighted(row)) == pytest.approx(1.0)


def test_a_roll_drawing_twice_from_one_deck_is_refused(monkeypatch, forget_tables):
    monkeypatch.setitem(rules_module.GO_BACK, "Go Back 3 Spaces", 15)  # 23 - 15 = Chance 8
    forget_tables()
    with pytest.raises(ValueError, match="draws twice from the chance deck"):
        fast_tallies(10)


def test_the_engines_hold_no_rule_of_their_own():
    for module in (fast, exact, roll_table):
        for name in ("card_destination", "CHANCE_SPACES", "GO_TO_JAIL", "SENDS_TO_JAIL"):
            assert not hasattr(module, name), f"{module.__name__} uses {name}"


@pytest.fixture
def forget_tables():
    """A function that forgets every table built so far; called again after the test."""

    def forget() -> None:
        for cache in (table_of, fast.tables, exact._roll_chain, exact._chain):
            cache.cache_clear()

    yield forget
    forget()


def test_a_rule_changed_once_changes_every_engine(monkeypatch, forget_tables):
    """'Advance to Go' sends to Free Parking (21) instead: every engine follows rules.py."""
    before_exact = expected_tallies(150)
    before_fast = fast_tallies(4000, seed=3)
    monkeypatch.setitem(rules_module.ADVANCE_TO, "Advance to Go", 21)
    forget_tables()
    seat = Seat.preset(dice=[3, 4], chance_order=[1]).play()
    assert seat.tallies == {8: 1, 21: 1}
    after_exact = expected_tallies(150)
    after_fast = fast_tallies(4000, seed=3)
    for after, before in ((after_exact, before_exact), (after_fast, before_fast)):
        assert after[21] > before[21] * 1.1 and after[1] < before[1] * 0.9
    rel = after_fast / after_fast.sum() - 2 * after_exact / (2 * after_exact).sum()
    assert np.abs(rel).max() < 0.002, "the fast engine agrees with the exact one"
