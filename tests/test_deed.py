"""A lot's deed and a trade's effect in words, as a person reads them before deciding."""

from __future__ import annotations

import io

from game_scenarios import give, new_game, passive

from monopoly_lesson.cli import main
from monopoly_lesson.game.deed import deed, trade_effect
from monopoly_lesson.game.trade import Trade


def test_a_streets_deed_has_every_rent_and_cost_from_the_lots_table():
    g = new_game(passive(), passive())
    said = deed(g.state, 17, seat=1)
    assert said.startswith("St. James Place (17), orange: price $180; rent $14 ($28 with the")
    assert "with 1 to 4 houses $70, $200, $550, $750, with a hotel $950" in said
    assert "houses $100 each; mortgage $90. It is owned by nobody yet." in said
    assert "Tennessee Avenue (19) is owned by nobody yet" in said


def test_a_deed_says_who_owns_the_lot_its_buildings_and_its_rent_now():
    g = new_game(passive(), passive())
    give(g, 2, 17, 19, 20, buildings=2)
    said = deed(g.state, 19, seat=1)
    assert "It is owned by P2 passive, 2 houses, its rent now $200." in said
    assert deed(g.state, 19, seat=2).count("yours") == 1 + 2  # the lot and the rest
    give(g, 1, 6, mortgaged=True)
    assert "It is yours, mortgaged, its rent now $0." in deed(g.state, 6, seat=1)


def test_railroads_utilities_and_other_spaces():
    g = new_game(passive(), passive())
    assert "rent $25, $50, $100, $200 as its owner holds 1 to 4 railroads" in deed(g.state, 6)
    assert "rent 4 times the dice, or 10 times with both utilities" in deed(g.state, 13)
    give(g, 1, 13)
    assert "its rent now $28 (on a roll of 7)" in deed(g.state, 13, seat=1)
    assert deed(g.state, 1) == "Go (1) is not a lot: nobody owns it."


def test_a_trade_says_what_it_would_complete_for_each_side():
    g = new_game(passive(), passive())
    give(g, 1, 2, 7, 9)
    give(g, 2, 4, 10)
    swap = Trade(partner=2, give=(2,), take=(10,), cash=60)
    assert trade_effect(g.state, swap, seat=1) == (
        "It completes light blue for you (its rents then $12, $12, $16) and brown for "
        "P2 passive (its rents then $4, $8)."
    )
    assert trade_effect(g.state, Trade(partner=2, give=(7,)), seat=1) == (
        "It completes no group for either side."
    )


def test_the_terminal_shows_the_deed_under_a_buy_and_d_shows_any(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("d boardwalk\nd nowhere\n"))
    main(["play", "--you", "1", "--strategy", "always", "--seed", "3"])
    out = capsys.readouterr().out
    assert "\n  Vermont Avenue (9), light blue: price $100; rent $6 ($12 with" in out
    assert "> d boardwalk\nBoardwalk (40), dark blue: price $400; rent $50" in out
    assert "> d nowhere\nNot a space: 'nowhere' is not a space's number or name." in out
