"""The money rules' tables: asked of the reference engine, stored, read by the fast engine."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

from monopoly_lesson.game import fast_loop as loop
from monopoly_lesson.game import money_probes, money_tables
from monopoly_lesson.game.buildings import interest, lift_cost, sale_price
from monopoly_lesson.game.chromosomes import ownership_state
from monopoly_lesson.game.lots import lots
from monopoly_lesson.game.money_tables import (
    HEURISTIC_BUY,
    OWNERSHIP_STATE,
    RENT,
    pattern_number,
)
from monopoly_lesson.game.state import GROUP_SPACES, PRICE
from monopoly_lesson.game.strategies import Heuristic

TOOL = Path(__file__).resolve().parents[1] / "tools" / "money_tables.py"


@pytest.mark.parametrize("space", sorted(PRICE))
def test_the_rent_table_is_the_rules_page_rent(space):
    """The probes reach every stage: the lots table's rents, doubled when the group is
    complete, 25-200 by railroads held, 4 and 10 times the dice for utilities."""
    row, group = lots.loc[space], lots.at[space, "group"]
    if group == "railroad":
        assert RENT[space, :4].tolist() == [25, 50, 100, 200]
    elif group == "utility":
        assert RENT[space, :2].tolist() == [4, 10]
    else:
        bare = row["rent"]
        houses = [row[c] for c in ("rent_1", "rent_2", "rent_3", "rent_4", "rent_hotel")]
        assert RENT[space].tolist() == [bare, 2 * bare, *houses]


def test_the_other_money_tables_are_the_reference_functions():
    for space in PRICE:
        assert money_tables.SALE_PRICE[space] == sale_price(space)
        assert money_tables.INTEREST[space] == interest(space)
        assert money_tables.LIFT_COST[space] == lift_cost(space)


def test_one_edit_to_the_reference_rent_changes_the_table(monkeypatch):
    """The table is the reference's answers: change the rule there and it follows."""
    monkeypatch.setattr(money_probes, "rent_due", lambda game, space, dice: 7 * dice)
    table = money_probes._rent_table()
    assert (table[sorted(PRICE)][:, :2] == 7).all()
    assert not (table == RENT).all()


def test_the_stored_tables_are_the_reference_engines_answers():
    """The package reads the tables from a file; they must be what the reference engine
    answers now. A rule changed in the reference engine fails here until they are written
    again."""
    asked = money_probes.asked_tables()
    found = money_probes.differences(money_tables.stored_tables(), asked)
    assert not found, (
        f"{Path(*money_tables.STORED.parts[-4:])} is out of date ({'; '.join(found)}): "
        f"run {money_tables.WRITE_THEM}"
    )
    for name in asked:
        assert getattr(money_tables, name) is money_tables._TABLES[name]


def test_the_stored_file_is_the_tools_own(tmp_path):
    """The file is written by tools/money_tables.py, byte for byte, never by hand: the
    same tables write the same bytes, and they read back the same."""
    spec = importlib.util.spec_from_file_location("money_tables_tool", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    stored = money_tables.stored_tables()
    assert tool.npz_bytes(stored) == money_tables.STORED.read_bytes()
    copy = tmp_path / "tables.npz"
    copy.write_bytes(tool.npz_bytes(stored))
    assert not money_probes.differences(money_tables.stored_tables(copy), stored)


def test_a_changed_rule_is_named_with_its_first_changed_entry():
    stored = {"RENT": RENT, "LEFT_OVER": np.zeros(2)}
    changed = {"RENT": RENT.copy(), "NEW": np.zeros(2)}
    changed["RENT"][1, 0] += 1
    assert money_probes.differences(stored, changed) == [
        "NEW: not stored",
        "LEFT_OVER: stored, but no longer asked for",
        f"RENT: 1 entry differs, the first at [1, 0]: stored {RENT[1, 0]}, "
        f"the reference engine now answers {RENT[1, 0] + 1}",
    ]
    wider = {"RENT": np.zeros((41, 8), np.int64)}
    assert money_probes.differences({"RENT": RENT}, wider) == [
        "RENT: stored as int64 (41, 7), now int64 (41, 8)"
    ]


def test_a_missing_file_says_how_to_write_it(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"run python tools/money_tables\.py"):
        money_tables.stored_tables(tmp_path / "tables.npz")


def canonical(owners: list[int], seat: int) -> list[int]:
    """An ownership pattern written out independently: bank 0, seat 1, others as met."""
    met: dict[int, int] = {}
    codes = []
    for owner in owners:
        if owner == loop.BANK:
            codes.append(0)
        elif owner == seat:
            codes.append(1)
        else:
            codes.append(met.setdefault(owner, 2 + len(met)))
    return codes


def random_board(rng: random.Random, players: int) -> dict[int, int]:
    """Each lot owned by a random seat (0-based, as the fast engine), or the bank."""
    chance = rng.random()
    return {s: rng.randrange(players) if rng.random() < chance else loop.BANK for s in PRICE}


@pytest.mark.parametrize("seed", range(40))
def test_the_compiled_pattern_and_both_rules_agree_with_the_reference(seed):
    """For random boards: the fast engine's pattern number, and the ownership state
    and heuristic answer it reads, are the reference's for the same board."""
    rng = random.Random(seed)
    players = rng.randint(2, 8)
    board = random_board(rng, players)
    s = np.zeros(loop.SIZE, np.int64)
    for space, owner in board.items():
        s[loop.OWNER + space] = owner
    owners = {space: None if owner == loop.BANK else owner + 1 for space, owner in board.items()}
    game = money_probes._owned(owners, seats=max(players, money_tables.BASE))
    for space in PRICE:
        seat = rng.randrange(players)
        owners = [board[lot] for lot in GROUP_SPACES[lots.at[space, "group"]]]
        number = loop.ownership_pattern(s, seat, space)
        assert number == pattern_number(canonical(owners, seat))
        me = game.player(seat + 1)
        assert OWNERSHIP_STATE[space, number] == ownership_state(game, me, space)
        assert HEURISTIC_BUY[space, number] == Heuristic().buy(game, me, space)
