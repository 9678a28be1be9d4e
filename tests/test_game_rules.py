"""The whole game's money and property rules, one scenario per rule (notebooks/game_rules.md).

Each test sets up a game by hand (tests/game_scenarios.py), plays one preset turn and
checks the exact dollars, owners and positions worked out from the game rules page,
notebooks/game_rules.md (the arithmetic is in the comments). Every player starts with
$1,500; seat 0 is the bank. Unless a test says otherwise the players are passive: they
decline to buy, bid nothing, never build nor lift mortgages, and stay in jail. A quiet
turn is 17 + (1, 3) = Free Parking (21), where nothing happens.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import re
from pathlib import Path

import nbformat
import pytest
from game_scenarios import (
    BOTH_ENGINES,
    CHANCE,
    CHEST,
    JAIL,
    bids,
    cash,
    choices,
    compiled_twin,
    compiled_view,
    give,
    hold_card,
    new_game,
    no_choice,
    on_both_engines,
    passive,
    play,
    play_compiled,
    player,
    put_in_jail,
    reference_view,
    set_cash,
)

import monopoly_lesson
from monopoly_lesson.cli import build_parser
from monopoly_lesson.game import fast_loop as loop
from monopoly_lesson.game.buildings import build, sell_building, why_not_build, why_not_sell
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.plugins import make_strategy
from monopoly_lesson.game.state import GROUP_SPACES, HOUSE_COST
from monopoly_lesson.game.strategies import BUILD_ORDER, NeverBuy, StrategyError

QUIET = dict(start=17)  # with dice (1, 3): Free Parking
QUIET_DICE = [1, 3]
TO_BALTIC = [1, 2]  # from Go: 1 + 3 = Baltic Avenue (4), price $60
TO_CHANCE_8 = [3, 4]  # from Go: 1 + 7 = Chance (8)
TO_CHEST_18 = [2, 3]  # from Electric Company (13): 13 + 5 = Community Chest (18)
TO_INCOME_TAX = [1, 3]  # from Go: 1 + 4 = Income Tax (5)


@pytest.fixture(autouse=True)
def both_engines(monkeypatch):
    """Every turn a scenario plays, the fast whole game plays too when it can (its
    strategies are built-ins and its dice preset), from the same state, with the same
    outcome required."""
    monkeypatch.setattr(MonopolyGame, "play_turn", on_both_engines(MonopolyGame.play_turn))


def default_strategy():
    """Declines to buy; every other decision is the rules' default (build, lift, raise):
    the built-in ``never``, which the fast whole game plays too."""
    return NeverBuy()


# ---------------------------------------------------------------------------
# Buying and auctions
# ---------------------------------------------------------------------------


def test_buying_pays_the_price_to_the_bank():
    g = new_game(passive(buy=True), dice=TO_BALTIC)
    play(g, 1, start=1)
    assert g.state.lots[4].owner == 1 and player(g, 1).lots == {4}
    assert cash(g) == [1440, 1500]  # 1500 - 60
    g.state.check()


def test_a_declined_lot_is_auctioned_at_once(capsys):
    g = new_game(passive(), passive(bid=bids(50)), dice=TO_BALTIC, verbose=True)
    play(g, 1, start=1)
    out = capsys.readouterr().out
    assert "P1 passive declines to buy Baltic Avenue (4)." in out
    assert (
        "P2 passive wins the auction for Baltic Avenue (4) for $1 "
        "(bids: P1 passive $0, P2 passive $50)." in out
    )
    assert g.state.lots[4].owner == 2
    g.state.check()


def test_auction_winner_pays_the_second_highest_maximum_plus_one():
    g = new_game(
        passive(bid=bids(30)),
        passive(bid=bids(50)),
        passive(bid=bids(40)),
        players=3,
        dice=TO_BALTIC,
    )
    play(g, 1, start=1)
    assert g.state.lots[4].owner == 2
    assert cash(g) == [1500, 1459, 1500]  # 1500 - (40 + 1)
    g.state.check()


def test_a_lone_bidder_pays_one_dollar():
    g = new_game(passive(), passive(bid=bids(60)), dice=TO_BALTIC)
    play(g, 1, start=1)
    assert g.state.lots[4].owner == 2
    assert cash(g) == [1500, 1499]  # the only bid: $1
    g.state.check()


@pytest.mark.parametrize(
    ("mover", "winner"),
    [(1, 1), (2, 3), (3, 3)],  # seat order from the mover: 1 2 3 / 2 3 1 / 3 1 2
)
def test_auction_tie_goes_to_the_first_tied_seat_from_the_mover(mover, winner):
    g = new_game(
        passive(bid=bids(70)),
        passive(bid=bids(50)),
        passive(bid=bids(70)),
        players=3,
        dice=TO_BALTIC,
    )
    play(g, mover, start=1)
    assert g.state.lots[4].owner == winner
    expected = [1500, 1500, 1500]
    expected[winner - 1] -= 70  # second maximum 70 + 1, capped at its own maximum 70
    assert cash(g) == expected
    g.state.check()


def test_with_no_bid_the_lot_stays_with_the_bank(capsys):
    g = new_game(dice=TO_BALTIC, verbose=True)
    play(g, 1, start=1)
    assert "No bids for Baltic Avenue (4)" in capsys.readouterr().out
    assert g.state.lots[4].owner is None
    assert cash(g) == [1500, 1500]
    g.state.check()


def test_a_player_short_of_the_price_is_not_asked_and_the_lot_is_auctioned():
    asked = []

    def buy(game, me, space):
        asked.append(space)
        return True

    short = make_strategy("short", buy=buy, bid=bids(0), build=no_choice, lift=no_choice)
    g = new_game(short, passive(bid=bids(10)), dice=TO_BALTIC)
    set_cash(g, 1, 59)  # Baltic costs $60
    play(g, 1, start=1)
    assert asked == []
    assert g.state.lots[4].owner == 2
    assert cash(g) == [59, 1499]  # P2 the only bidder: $1
    g.state.check()


def test_default_bid_is_the_price_capped_at_the_cash_if_it_would_buy():
    # Default bids: P1 (declines) 0, P2 (would buy) 60, P3 (would buy, $40) 40: P2 pays 41.
    g = new_game(passive(), passive(buy=True), passive(buy=True), players=3, dice=TO_BALTIC)
    set_cash(g, 3, 40)
    play(g, 1, start=1)
    assert g.state.lots[4].owner == 2
    assert cash(g) == [1500, 1459, 40]
    g.state.check()


def test_a_bid_above_the_cash_is_a_strategy_error():
    g = new_game(passive(), passive(bid=bids(1501)), dice=TO_BALTIC)
    with pytest.raises(StrategyError, match=r"P2 passive's bid decision bid \$1501"):
        play(g, 1, start=1)


# ---------------------------------------------------------------------------
# Complete groups
# ---------------------------------------------------------------------------


def test_a_complete_group_is_a_colour_group_of_streets_held_whole():
    # P1: brown whole, two of the three light blues, both utilities, the four railroads.
    # P2: purple whole, one of its lots mortgaged. Only brown and purple are complete.
    g = new_game()
    give(g, 1, 2, 4, 7, 9, 13, 29, 6, 16, 26, 36)
    give(g, 2, 12, 14)
    give(g, 2, 15, mortgaged=True)
    complete = {
        seat: [group for group in GROUP_SPACES if g.state.holds_complete_group(seat, group)]
        for seat in (1, 2)
    }
    assert complete == {1: ["brown"], 2: ["purple"]}
    assert g.state.monopolies(1) == ["brown"] and g.state.monopolies(2) == ["purple"]
    assert not g.state.holds_complete_group(1, "purple")


# ---------------------------------------------------------------------------
# Rent
# ---------------------------------------------------------------------------


def rent_paid(setup, *, start=1, dice=TO_BALTIC, chance=(), chest=()):
    """P1 moves after ``setup(g)``; what P1 paid and what P2 (the owner) received."""
    g = new_game(dice=dice, chance=chance, chest=chest)
    setup(g)
    play(g, 1, start=start)
    g.state.check()
    return 1500 - player(g, 1).cash, player(g, 2).cash - 1500


def test_rent_of_an_unimproved_lot():
    assert rent_paid(lambda g: give(g, 2, 4)) == (4, 4)  # Baltic: $4


def test_a_complete_group_doubles_the_unimproved_rent():
    assert rent_paid(lambda g: give(g, 2, 2, 4)) == (8, 8)  # 2 x 4


def test_a_mortgaged_lot_still_completes_the_group():
    def setup(g):
        give(g, 2, 4)
        give(g, 2, 2, mortgaged=True)

    assert rent_paid(setup) == (8, 8)  # Mediterranean mortgaged: Baltic still 2 x 4


def test_a_mortgaged_lot_charges_no_rent():
    def setup(g):
        give(g, 2, 2)
        give(g, 2, 4, mortgaged=True)

    assert rent_paid(setup) == (0, 0)


@pytest.mark.parametrize(
    ("buildings", "rent"), [(1, 20), (2, 60), (3, 180), (4, 320), (5, 450)]
)  # Baltic with 1-4 houses, a hotel
def test_rent_with_houses_and_a_hotel(buildings, rent):
    assert rent_paid(lambda g: give(g, 2, 2, 4, buildings=buildings)) == (rent, rent)


@pytest.mark.parametrize(("held", "rent"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_railroad_rent_counts_every_railroad_held_mortgaged_ones_included(held, rent):
    def setup(g):
        give(g, 2, 6)
        give(g, 2, *(16, 26, 36)[: held - 1], mortgaged=True)

    assert rent_paid(setup, dice=[2, 3]) == (rent, rent)  # 1 + 5 = Reading Railroad (6)


@pytest.mark.parametrize(
    ("other_utility", "rent"),
    [(None, 16), ("owned", 40), ("mortgaged", 40)],  # 4 x 4; 10 x 4 (both held)
)
def test_utility_rent_is_4_or_10_times_the_dice_that_brought_the_mover(other_utility, rent):
    def setup(g):
        give(g, 2, 13)
        if other_utility:
            give(g, 2, 29, mortgaged=other_utility == "mortgaged")

    assert rent_paid(setup, start=9, dice=[1, 3]) == (rent, rent)  # 9 + 4 = 13


def test_chance_nearest_utility_charges_10_times_a_fresh_roll():
    # 1 + 7 = Chance (8), card 4: Electric Company (13), owner holds one utility.
    # The fresh roll is (2, 3) = 5: 10 x 5 = 50 (not 4 x 7 = 28 nor 10 x 7 = 70).
    g = new_game(dice=[*TO_CHANCE_8, 2, 3], chance=[4])
    give(g, 2, 13)
    play(g, 1, start=1)
    assert player(g, 1).token.pos == 13
    assert cash(g) == [1450, 1550]
    assert g.seats[0].dice.rolls_left == 0
    g.state.check()


@pytest.mark.parametrize("card", [5, 6])
def test_chance_nearest_railroad_charges_twice_the_rent(card):
    # 1 + 7 = Chance (8), nearest railroad: 16; one railroad held: 2 x 25 = 50.
    assert rent_paid(lambda g: give(g, 2, 16), dice=TO_CHANCE_8, chance=[card]) == (50, 50)


def test_the_reading_railroad_card_charges_the_normal_rent():
    # Chance 23, card 7: Reading Railroad (6), passing Go: +200, rent 25 (not doubled).
    g = new_game(dice=[2, 4], chance=[7])
    give(g, 2, 6)
    play(g, 1, start=17)
    assert cash(g) == [1675, 1525]
    g.state.check()


def test_an_unowned_utility_reached_by_a_card_may_be_bought():
    g = new_game(passive(buy=True), dice=TO_CHANCE_8, chance=[4])
    play(g, 1, start=1)
    assert g.state.lots[13].owner == 1
    assert cash(g) == [1350, 1500]  # 1500 - 150; no fresh roll for an unowned utility
    g.state.check()


def test_no_rent_is_owed_to_oneself():
    g = new_game(dice=TO_BALTIC)
    give(g, 1, 4)
    play(g, 1, start=1)
    assert cash(g) == [1500, 1500]
    g.state.check()


def test_rent_is_still_owed_to_an_owner_in_jail():
    def setup(g):
        give(g, 2, 4)
        put_in_jail(g, 2)

    assert rent_paid(setup) == (4, 4)


# ---------------------------------------------------------------------------
# Go salary
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "dice", "end"),
    [(38, [1, 3], 2), (38, [1, 2], 1)],  # 38 + 4 = 42 -> 2 (passes Go); 38 + 3 -> Go
)
def test_go_salary_by_dice_passing_or_landing_on_go(start, dice, end):
    g = new_game(dice=dice)
    play(g, 1, start=start)
    assert player(g, 1).token.pos == end
    assert cash(g) == [1700, 1500]  # once, not twice on landing
    g.state.check()


@pytest.mark.parametrize(
    ("start", "dice", "chance", "chest"),
    [(1, TO_CHANCE_8, [1], []), (13, TO_CHEST_18, [], [1])],
)
def test_go_salary_by_an_advance_to_go_card(start, dice, chance, chest):
    g = new_game(dice=dice, chance=chance, chest=chest)
    play(g, 1, start=start)
    assert player(g, 1).token.pos == 1
    assert cash(g) == [1700, 1500]
    g.state.check()


@pytest.mark.parametrize(
    ("start", "dice", "card", "end", "money"),
    [
        (1, [3, 4], 2, 25, 1500),  # Chance 8 -> Illinois: forward, Go not passed
        (30, [3, 4], 2, 25, 1700),  # Chance 37 -> Illinois passes Go
        (1, [3, 4], 3, 12, 1500),  # Chance 8 -> St. Charles
        (30, [3, 4], 3, 12, 1700),  # Chance 37 -> St. Charles passes Go
        (17, [2, 4], 3, 12, 1700),  # Chance 23 -> St. Charles passes Go
        (17, [2, 4], 7, 6, 1700),  # Chance 23 -> Reading Railroad passes Go
        (30, [3, 4], 8, 40, 1500),  # Chance 37 -> Boardwalk
        (30, [3, 4], 5, 6, 1700),  # Chance 37 -> nearest railroad 6 passes Go
    ],
)
def test_go_salary_by_an_advance_card_only_when_it_passes_go(start, dice, card, end, money):
    g = new_game(dice=dice, chance=[card])
    play(g, 1, start=start)
    assert player(g, 1).token.pos == end
    assert cash(g) == [money, 1500]
    g.state.check()


@pytest.mark.parametrize(
    ("start", "dice", "chance", "chest"),
    [
        (24, [3, 4], [], []),  # 24 + 7 = Go to Jail (31), jail is "forward" past Go
        (30, [3, 4], [9], []),  # Chance 37, Go to Jail card
        (30, [1, 3], [], [2]),  # Community Chest 34, Go to Jail card
        (21, [2, 2, 2, 2, 3, 3], [], []),  # 25, 29, then the third doubles
    ],
)
def test_no_go_salary_when_sent_to_jail(start, dice, chance, chest):
    g = new_game(dice=dice, chance=chance, chest=chest)
    play(g, 1, start=start)
    token = player(g, 1).token
    assert (token.pos, token.in_jail) == (JAIL, True)
    assert cash(g) == [1500, 1500]
    g.state.check()


def test_the_narration_tells_a_visit_to_jail_from_being_in_jail(capsys):
    """Walked onto Jail: "just visiting", on the move and at the next turn; sent there (by
    Go to Jail or a card): "is sent to jail", and the next turn starts "in jail"."""
    g = new_game(dice=[3, 4, *QUIET_DICE], verbose=True)
    play(g, 1, start=4)  # 4 + 7 = Jail (11) by dice
    play(g, 1)
    out = capsys.readouterr().out
    assert "P1 passive moves from Baltic Avenue (4) to Jail (11), just visiting.\n" in out
    assert "Round 1, P1 passive: $1500, on Jail (11), just visiting.\n" in out
    for start, dice, chance in ((24, [3, 4], []), (30, [3, 4], [9])):  # 31; Chance 37, card 9
        g = new_game(dice=[*dice, *QUIET_DICE], chance=chance, verbose=True)
        play(g, 1, start=start)
        play(g, 1)
        out = capsys.readouterr().out
        assert "P1 passive is sent to jail.\nP1 passive moves from " in out
        assert "Round 1, P1 passive: $1500, in jail.\n" in out and "visiting" not in out


@pytest.mark.parametrize(
    ("start", "dice", "chest", "end", "money"),
    [
        (1, [3, 4], [], 5, 1300),  # Chance 8 -> Income Tax (5): -200, no salary
        (17, [2, 4], [], 20, 1500),  # Chance 23 -> New York Avenue (20)
        (30, [3, 4], [15], 34, 1510),  # Chance 37 -> Community Chest 34, card 15: +10
    ],
)
def test_go_back_3_spaces_never_pays_the_salary(start, dice, chest, end, money):
    g = new_game(dice=dice, chance=[10], chest=chest)
    play(g, 1, start=start)
    assert player(g, 1).token.pos == end
    assert cash(g) == [money, 1500]
    g.state.check()


# ---------------------------------------------------------------------------
# Taxes, Free Parking and the money cards
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "money"),
    [(1, 1300), (35, 1400), (17, 1500)],  # 1 + 4: Income Tax; 35 + 4: Luxury; 17 + 4: FP
)
def test_taxes_and_free_parking(start, money):
    g = new_game(dice=[1, 3])
    play(g, 1, start=start)
    assert cash(g) == [money, 1500]
    g.state.check()


@pytest.mark.parametrize(
    ("card", "money"),
    [
        (11, [1550, 1500, 1500]),  # dividend +50
        (13, [1500, 1500, 1500]),  # repairs with no building: nothing
        (14, [1485, 1500, 1500]),  # poor tax -15
        (15, [1400, 1550, 1550]),  # Chairman: 50 to each of the two others
        (16, [1650, 1500, 1500]),  # building loan +150
    ],
)
def test_chance_money_cards(card, money):
    g = new_game(players=3, dice=TO_CHANCE_8, chance=[card])
    play(g, 1, start=1)
    assert cash(g) == money
    g.state.check()


@pytest.mark.parametrize(
    ("card", "money"),
    [
        (3, [1700, 1500, 1500]),
        (4, [1450, 1500, 1500]),
        (5, [1545, 1500, 1500]),
        (7, [1600, 1450, 1450]),  # Grand Opera: 50 from each of the two others
        (8, [1600, 1500, 1500]),
        (9, [1520, 1500, 1500]),
        (10, [1600, 1500, 1500]),
        (11, [1400, 1500, 1500]),
        (12, [1350, 1500, 1500]),
        (13, [1525, 1500, 1500]),
        (14, [1500, 1500, 1500]),  # repairs with no building: nothing
        (15, [1510, 1500, 1500]),
        (16, [1600, 1500, 1500]),
    ],
)
def test_community_chest_money_cards(card, money):
    g = new_game(players=3, dice=TO_CHEST_18, chest=[card])
    play(g, 1, start=13)
    assert cash(g) == money
    g.state.check()


@pytest.mark.parametrize(
    ("deck", "card", "money"),
    [
        ("chance", 13, 1050),  # 6 houses x 25 + 3 hotels x 100 = 450
        ("chest", 14, 915),  # 6 houses x 40 + 3 hotels x 115 = 585
    ],
)
def test_repairs_pay_per_house_and_per_hotel(deck, card, money):
    if deck == "chance":
        g = new_game(dice=TO_CHANCE_8, chance=[card])
        start = 1
    else:
        g = new_game(dice=TO_CHEST_18, chest=[card])
        start = 13
    give(g, 1, 2, 4, buildings=3)  # brown: 3 houses each
    give(g, 1, 7, 9, 10, buildings=5)  # light blue: a hotel each
    play(g, 1, start=start)
    assert cash(g) == [money, 1500]
    g.state.check()


def test_chairman_mover_who_cannot_pay_everyone_is_bankrupt_to_the_first_unpaid():
    # The engine pays the others in seat order after the mover: P2 pays P3 $50 (70 -> 20),
    # then cannot pay P1: bankrupt to P1, who receives its last $20.
    g = new_game(players=3, dice=TO_CHANCE_8, chance=[15])
    set_cash(g, 2, 70)
    play(g, 2, start=1)
    assert cash(g) == [1520, 0, 1550]
    assert g.state.bankruptcies == [(2, 1, 1)]
    assert not player(g, 2).in_game and player(g, 2).creditor == 1
    g.state.check()


def test_grand_opera_player_who_cannot_pay_is_bankrupt_to_the_collector():
    # P2 has $30: bankrupt to P1 (P1 gets the $30); P3 pays $50. P1: 1500 + 30 + 50.
    g = new_game(players=3, dice=TO_CHEST_18, chest=[7])
    set_cash(g, 2, 30)
    play(g, 1, start=13)
    assert cash(g) == [1580, 0, 1450]
    assert g.state.bankruptcies == [(2, 1, 1)]
    assert not player(g, 2).in_game
    g.state.check()


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------


def builder(*spaces: int):
    """A strategy that builds on ``spaces`` in turn at the end of its turn."""
    return passive(name="builder", build=choices(*spaces))


def levels(g, *spaces: int) -> list[int]:
    """The buildings on each of ``spaces``."""
    return [g.state.lots[s].buildings for s in spaces]


def test_building_unevenly_is_a_strategy_error():
    g = new_game(builder(2, 2), dice=QUIET_DICE)
    give(g, 1, 2, 4)
    with pytest.raises(StrategyError, match=r"P1 builder's build decision chose 2.*even"):
        play(g, 1, **QUIET)  # a second house on 2 while 4 has none


def test_building_on_an_incomplete_group_is_a_strategy_error():
    g = new_game(builder(2), dice=QUIET_DICE)
    give(g, 1, 2)
    with pytest.raises(StrategyError, match="not complete"):
        play(g, 1, **QUIET)


def test_building_on_a_group_with_a_mortgaged_lot_is_a_strategy_error():
    g = new_game(builder(2), dice=QUIET_DICE)
    give(g, 1, 2)
    give(g, 1, 4, mortgaged=True)
    with pytest.raises(StrategyError, match="mortgaged"):
        play(g, 1, **QUIET)


@pytest.mark.parametrize(
    ("money", "built", "left"),
    [
        (300, [1, 1], 200),  # 300 - 50 - 50 = 200: the reserve is kept, exactly
        (299, [1, 0], 249),  # a second house would leave 199
    ],
)
def test_default_build_keeps_a_200_reserve(money, built, left):
    g = new_game(default_strategy(), dice=QUIET_DICE)
    give(g, 1, 2, 4)
    set_cash(g, 1, money)
    play(g, 1, **QUIET)
    assert levels(g, 2, 4) == built
    assert player(g, 1).cash == left
    g.state.check()


@pytest.mark.parametrize("first", range(len(BUILD_ORDER)))
def test_default_build_follows_the_group_order(first):
    # P1 holds this group and every later one, with cash for one building above $200:
    # the one house goes on this group (its first lot), none elsewhere.
    group = BUILD_ORDER[first]
    g = new_game(default_strategy(), dice=QUIET_DICE)
    for later in BUILD_ORDER[first:]:
        give(g, 1, *GROUP_SPACES[later])
    set_cash(g, 1, 200 + HOUSE_COST[GROUP_SPACES[group][0]])
    play(g, 1, **QUIET)
    built = {s: lot.buildings for s, lot in g.state.lots.items() if lot.buildings}
    assert built == {GROUP_SPACES[group][0]: 1}
    assert player(g, 1).cash == 200
    g.state.check()


def test_a_hotel_needs_4_houses_on_every_lot_of_the_group():
    g = new_game(builder(2), dice=QUIET_DICE)
    give(g, 1, 2, buildings=4)
    give(g, 1, 4, buildings=3)
    with pytest.raises(StrategyError, match="even"):
        play(g, 1, **QUIET)


def test_a_hotel_gives_its_4_houses_back_to_the_bank():
    g = new_game(builder(4, 2), dice=QUIET_DICE)
    give(g, 1, 2, buildings=4)
    give(g, 1, 4, buildings=3)  # bank: 32 - 7 = 25 houses
    play(g, 1, **QUIET)
    assert levels(g, 2, 4) == [5, 4]
    assert (g.state.bank_houses, g.state.bank_hotels) == (28, 11)  # 25 - 1 + 4; 12 - 1
    assert player(g, 1).cash == 1400  # 2 x 50
    g.state.check()


def no_houses_left(g):
    """P2 holds 32 houses: light blue, orange and dark blue with 4 on each lot."""
    give(g, 2, 7, 9, 10, 17, 19, 20, 38, 40, buildings=4)
    assert g.state.bank_houses == 0


def test_no_house_left_in_the_bank_no_house_built():
    g = new_game(builder(2), dice=QUIET_DICE)
    no_houses_left(g)
    give(g, 1, 2, 4)
    with pytest.raises(StrategyError, match="no house left"):
        play(g, 1, **QUIET)


def test_no_house_left_the_default_builds_nothing():
    g = new_game(default_strategy(), dice=QUIET_DICE)
    no_houses_left(g)
    give(g, 1, 2, 4)
    play(g, 1, **QUIET)
    assert levels(g, 2, 4) == [0, 0]
    assert player(g, 1).cash == 1500
    g.state.check()


def test_no_hotel_left_in_the_bank_no_hotel_built():
    g = new_game(builder(2), dice=QUIET_DICE)
    give(g, 2, 7, 9, 10, 12, 14, 15, 17, 19, 20, 22, 24, 25, buildings=5)  # 12 hotels
    give(g, 1, 2, 4, buildings=4)
    with pytest.raises(StrategyError, match="no hotel left"):
        play(g, 1, **QUIET)


def test_selling_a_hotel_goes_back_to_4_houses_when_the_bank_has_them():
    # P1 has $100 and owes $200 Income Tax; brown has a hotel on each lot.
    # Hotel on 2 -> 4 houses (+25), hotel on 4 -> 4 houses (+25), a house on 2 (+25), on 4
    # (+25): 100 + 100 = 200, paid. Bank: 32 - 8 + 2 = 26 houses, 12 hotels.
    g = new_game(dice=TO_INCOME_TAX)
    give(g, 1, 2, 4, buildings=5)
    set_cash(g, 1, 100)
    play(g, 1, start=1)
    assert levels(g, 2, 4) == [3, 3]
    assert (g.state.bank_houses, g.state.bank_hotels) == (26, 12)
    assert player(g, 1).cash == 0
    g.state.check()


def test_selling_a_hotel_when_the_bank_has_under_4_houses_sells_it_with_its_houses():
    # The bank has 2 houses: the hotel on 2 is sold with its houses, 5 x 25 = 125.
    # 100 + 125 - 200 = 25.
    g = new_game(dice=TO_INCOME_TAX)
    give(g, 2, 7, 9, 10, 17, 19, 20, buildings=4)
    give(g, 2, 12, 14, 15, buildings=2)  # 24 + 6 = 30 houses: 2 left
    give(g, 1, 2, 4, buildings=5)
    set_cash(g, 1, 100)
    play(g, 1, start=1)
    assert levels(g, 2, 4) == [0, 5]
    assert (g.state.bank_houses, g.state.bank_hotels) == (2, 11)
    assert player(g, 1).cash == 25
    g.state.check()


def test_a_group_left_uneven_builds_on_its_lowest_lot_and_is_even_again():
    # The bank has 2 houses: the hotel on 2 is sold whole, leaving brown uneven at [0, 5].
    # A building may then go only on the lot with fewest (2), and the group counts as uneven
    # until its lots are within one building of each other again.
    g = new_game(dice=QUIET_DICE)
    give(g, 2, 7, 9, 10, 17, 19, 20, buildings=4)
    give(g, 2, 12, 14, 15, buildings=2)
    give(g, 1, 2, 4, buildings=5)
    state = g.state
    sell_building(state, 1, 2)
    assert levels(g, 2, 4) == [0, 5] and state.uneven_groups == {"brown"}
    assert why_not_sell(state, 1, 4) is None
    assert why_not_build(state, 1, 2) is None
    build(state, 1, 2)
    assert levels(g, 2, 4) == [1, 5] and state.uneven_groups == {"brown"}
    state.check()
    sell_building(state, 1, 4)  # 1 house in the bank: this hotel too is sold whole
    assert levels(g, 2, 4) == [1, 0] and state.uneven_groups == set()
    state.check()


# ---------------------------------------------------------------------------
# Mortgages
# ---------------------------------------------------------------------------


def test_a_mortgage_pays_half_the_price():
    # $100 in hand, $200 Income Tax: Boardwalk mortgaged for 400 / 2 = 200; 300 - 200.
    g = new_game(dice=TO_INCOME_TAX)
    give(g, 1, 40)
    set_cash(g, 1, 100)
    play(g, 1, start=1)
    assert g.state.lots[40].mortgaged
    assert player(g, 1).cash == 100
    g.state.check()


@pytest.mark.parametrize(
    ("space", "cost"),
    [
        (2, 33),  # 30 + 3
        (13, 83),  # 75 + ceil(7.5)
        (38, 193),  # 175 + ceil(17.5)
        (40, 220),  # 200 + 20
    ],
)
def test_lifting_a_mortgage_costs_110_percent_rounded_up(space, cost):
    g = new_game(passive(lift=choices(space)), dice=QUIET_DICE)
    give(g, 1, space, mortgaged=True)
    play(g, 1, **QUIET)
    assert not g.state.lots[space].mortgaged
    assert player(g, 1).cash == 1500 - cost
    g.state.check()


@pytest.mark.parametrize(("money", "lifted", "left"), [(393, True, 200), (392, False, 392)])
def test_default_lift_keeps_a_200_reserve(money, lifted, left):
    g = new_game(default_strategy(), dice=QUIET_DICE)
    give(g, 1, 38, mortgaged=True)  # lifting costs 193
    set_cash(g, 1, money)
    play(g, 1, **QUIET)
    assert g.state.lots[38].mortgaged is not lifted
    assert player(g, 1).cash == left
    g.state.check()


def test_default_lift_order_complete_groups_then_railroads_utilities_others():
    # Costs: Mediterranean 33 (brown held whole), Reading 110, Electric 83, Vermont 55.
    # With 200 + 33 + 110: Mediterranean, then Reading; Electric would leave 117.
    g = new_game(default_strategy(), dice=QUIET_DICE)
    give(g, 1, 4)
    give(g, 1, 2, 6, 13, 9, mortgaged=True)
    set_cash(g, 1, 343)
    play(g, 1, **QUIET)
    mortgaged = {s for s in player(g, 1).lots if g.state.lots[s].mortgaged}
    assert mortgaged == {9, 13}
    assert player(g, 1).cash == 200
    g.state.check()


# ---------------------------------------------------------------------------
# Debt and bankruptcy
# ---------------------------------------------------------------------------


def test_debt_default_sells_buildings_from_the_cheapest_group_first():
    # $100, owes $200: brown's 4 houses sold at 25 each (evenly); light blue untouched.
    g = new_game(dice=TO_INCOME_TAX)
    give(g, 1, 2, 4, buildings=2)
    give(g, 1, 7, 9, 10, buildings=1)
    set_cash(g, 1, 100)
    play(g, 1, start=1)
    assert levels(g, 2, 4, 7, 9, 10) == [0, 0, 1, 1, 1]
    assert player(g, 1).cash == 0
    assert g.state.bank_houses == 29  # 32 - 7 + 4
    g.state.check()


def test_debt_default_sells_buildings_before_mortgaging():
    # $100, owes $200: two brown houses (+50), then Vermont (outside a complete group, +50).
    g = new_game(dice=TO_INCOME_TAX)
    give(g, 1, 2, 4, buildings=1)
    give(g, 1, 9)
    set_cash(g, 1, 100)
    play(g, 1, start=1)
    assert levels(g, 2, 4) == [0, 0]
    assert [g.state.lots[s].mortgaged for s in (2, 4, 9)] == [False, False, True]
    assert player(g, 1).cash == 0
    g.state.check()


def test_debt_default_mortgages_lots_outside_complete_groups_cheapest_first():
    # $0, owes $200: Vermont +50, Reading +100, Boardwalk +200 = 350; brown (complete,
    # cheaper) untouched; 350 - 200 = 150.
    g = new_game(dice=TO_INCOME_TAX)
    give(g, 1, 2, 4, 6, 9, 40)
    set_cash(g, 1, 0)
    play(g, 1, start=1)
    mortgaged = {s for s in player(g, 1).lots if g.state.lots[s].mortgaged}
    assert mortgaged == {6, 9, 40}
    assert player(g, 1).cash == 150
    g.state.check()


def test_debt_default_then_mortgages_the_rest_cheapest_first():
    # $0, owes $200, only complete groups: Mediterranean 30, Baltic 30, Park Place 175
    # = 235; 235 - 200 = 35. Boardwalk stays unmortgaged.
    g = new_game(dice=TO_INCOME_TAX)
    give(g, 1, 2, 4, 38, 40)
    set_cash(g, 1, 0)
    play(g, 1, start=1)
    mortgaged = {s for s in player(g, 1).lots if g.state.lots[s].mortgaged}
    assert mortgaged == {2, 4, 38}
    assert player(g, 1).cash == 35
    g.state.check()


@pytest.mark.parametrize(
    ("held", "mortgaged", "left"),
    [
        # Both utilities, Boardwalk and brown (complete): Electric 75, Water Works 75,
        # Boardwalk 200 = 350; 350 - 200 = 150. Brown, though cheaper, is untouched.
        ((2, 4, 13, 29, 40), {13, 29, 40}, 150),
        # Four railroads and Boardwalk: Reading 100, Pennsylvania RR 100 = 200; 200 - 200.
        ((6, 16, 26, 36, 40), {6, 16}, 0),
    ],
)
def test_debt_default_counts_railroads_and_utilities_as_outside_complete_groups(
    held, mortgaged, left
):
    # $0, owes $200 Income Tax. Railroads and utilities never form a complete group,
    # however many the player holds: they are mortgaged cheapest first with the loose
    # streets, before any lot of a complete colour group.
    g = new_game(dice=TO_INCOME_TAX)
    give(g, 1, *held)
    set_cash(g, 1, 0)
    play(g, 1, start=1)
    assert {s for s in player(g, 1).lots if g.state.lots[s].mortgaged} == mortgaged
    assert player(g, 1).cash == left
    g.state.check()


@pytest.mark.parametrize(
    ("choice", "reason"),
    [(("mortgage", 2), "has buildings"), (("sell", 2), "even"), (("sell", 9), "not")],
)
def test_raising_cash_against_the_rules_is_a_strategy_error(choice, reason):
    # Brown has 1 house on 2 and 2 on 4: 2 cannot be mortgaged (buildings in its group)
    # nor lose a house first (uneven); Vermont is not P1's.
    g = new_game(passive(raise_cash=lambda game, me, owed: choice), dice=TO_INCOME_TAX)
    give(g, 1, 2, buildings=1)
    give(g, 1, 4, buildings=2)
    set_cash(g, 1, 100)
    with pytest.raises(StrategyError, match=f"P1 passive's raise_cash decision.*{reason}"):
        play(g, 1, start=1)


def test_bankrupt_to_a_player_creditor_takes_cash_lots_and_cards_and_pays_interest():
    # P1 ($100, brown with a house each, a Chance Get Out of Jail Free card) lands on Park
    # Place with a hotel: rent 1500. It sells 2 houses (+50) and mortgages both lots
    # (+60): 210, not enough. P2 gets $210 and both lots, still mortgaged, and pays
    # 10% of 30 = $3 on each at once: 1500 + 210 - 6 = 1704.
    g = new_game(players=3, dice=[1, 2])
    give(g, 2, 38, 40, buildings=5)
    give(g, 1, 2, 4, buildings=1)
    hold_card(g, 1, CHANCE, 12)
    set_cash(g, 1, 100)
    play(g, 1, start=35)
    assert cash(g) == [0, 1704, 1500]
    assert player(g, 2).lots == {2, 4, 38, 40}
    assert g.state.lots[2].mortgaged and g.state.lots[4].mortgaged
    assert player(g, 2).jail_cards == [(CHANCE, 12)] and player(g, 1).jail_cards == []
    assert g.state.decks[CHANCE].held == {12}
    assert player(g, 1).lots == set() and player(g, 1).creditor == 2
    assert g.state.bank_houses == 32
    g.state.check()


def test_bankrupt_to_the_bank_lots_auctioned_unmortgaged_cards_back_to_their_decks():
    # P1 ($0, brown with a house each, a Chance card) owes $200 Income Tax: it raises
    # 50 + 60 = 110, not enough. The lots go back unmortgaged and are auctioned: P2 bids
    # 10, P3 bids 5, so P2 pays 5 + 1 = 6 for each: 1500 - 12 = 1488.
    g = new_game(
        passive(), passive(bid=bids(10)), passive(bid=bids(5)), players=3, dice=TO_INCOME_TAX
    )
    give(g, 1, 2, 4, buildings=1)
    hold_card(g, 1, CHANCE, 12)
    set_cash(g, 1, 0)
    play(g, 1, start=1)
    assert cash(g) == [0, 1488, 1500]
    assert player(g, 2).lots == {2, 4}
    assert not g.state.lots[2].mortgaged and not g.state.lots[4].mortgaged
    assert levels(g, 2, 4) == [0, 0] and g.state.bank_houses == 32
    assert player(g, 1).jail_cards == [] and g.state.decks[CHANCE].held == set()
    assert 12 in [g.state.decks[CHANCE].draw() for _ in range(16)]
    assert player(g, 1).creditor == 0
    g.state.check()


def test_a_creditor_short_of_the_interest_raises_it_like_any_debt():
    # P1 ($0, Mediterranean and Baltic mortgaged) cannot pay Reading's $25: bankrupt to P2.
    # P2 ($5) owes 3 + 3 interest: pays 3 (5 -> 2), then mortgages Reading (+100) for the
    # second 3: 2 + 100 - 3 = 99.
    g = new_game(dice=[2, 3])
    give(g, 1, 2, 4, mortgaged=True)
    give(g, 2, 6)
    set_cash(g, 1, 0)
    set_cash(g, 2, 5)
    play(g, 1, start=1)
    assert player(g, 1).creditor == 2
    assert cash(g) == [0, 99]
    assert all(g.state.lots[s].mortgaged for s in (2, 4, 6))
    assert player(g, 2).lots == {2, 4, 6}
    g.state.check()


def test_bail_that_cannot_be_paid_is_bankruptcy_to_the_bank():
    g = new_game(dice=[1, 2])
    put_in_jail(g, 1, turns_there=2)  # the third failed roll: $50 owed, $30 in hand
    set_cash(g, 1, 30)
    play(g, 1)
    assert g.state.bankruptcies == [(1, 1, 0)]
    assert cash(g) == [0, 1500]
    g.state.check()


# ---------------------------------------------------------------------------
# Get Out of Jail Free
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "card", "start", "dice"), [(CHANCE, 12, 1, TO_CHANCE_8), (CHEST, 6, 13, TO_CHEST_18)]
)
def test_a_drawn_get_out_of_jail_free_card_is_kept_out_of_its_deck(deck, card, start, dice):
    g = new_game(dice=dice, **({"chance": [card]} if deck == CHANCE else {"chest": [card]}))
    play(g, 1, start=start)
    assert player(g, 1).jail_cards == [(deck, card)]
    cards = g.state.decks[deck]
    assert cards.held == {card}
    others = sorted(set(range(1, 17)) - {card})
    # The deck reshuffles without the card: 15 cards dealt, then 15 again.
    assert sorted(cards.draw() for _ in range(15)) == others
    assert sorted(cards.draw() for _ in range(15)) == others
    g.state.check()


def test_the_card_leaves_jail_instead_of_50_and_goes_to_the_bottom_of_its_deck():
    g = new_game(passive(leave_jail=lambda game, me: True), dice=[1, 2])
    hold_card(g, 1, CHANCE, 12)
    deck = g.state.decks[CHANCE]
    dealt = [deck.draw() for _ in range(5)]  # a deck of 15, 10 left
    put_in_jail(g, 1)
    play(g, 1)  # the card, then 11 + 3 = States Avenue (14)
    assert player(g, 1).cash == 1500
    assert player(g, 1).jail_cards == [] and deck.held == set()
    token = player(g, 1).token
    assert (token.pos, token.in_jail) == (14, False)
    rest = [deck.draw() for _ in range(11)]
    assert rest[-1] == 12  # after the 10 cards left in the deck
    assert sorted(dealt + rest) == list(range(1, 17))
    g.state.check()


def test_a_card_put_back_into_a_used_up_deck_is_dealt_after_the_reshuffled_cards():
    # RULES.md: "when every card has been drawn the deck is shuffled again" (without the
    # held card); the card then goes to the bottom: 15 other cards first, then card 12.
    g = new_game(passive(leave_jail=lambda game, me: True), dice=[1, 2])
    hold_card(g, 1, CHANCE, 12)
    deck = g.state.decks[CHANCE]
    assert 12 not in [deck.draw() for _ in range(15)]  # the deck is used up
    put_in_jail(g, 1)
    play(g, 1)  # leaves with the card: back to the bottom of the deck
    dealt = [deck.draw() for _ in range(16)]
    assert dealt.index(12) == 15
    g.state.check()


# ---------------------------------------------------------------------------
# Jail
# ---------------------------------------------------------------------------


def test_leaving_jail_at_once_costs_50_then_a_free_turn_with_doubles_again():
    # $50, then (2, 2): 11 + 4 = Virginia (15), doubles: (1, 3): 15 + 4 = Tennessee (19).
    g = new_game(passive(leave_jail=lambda game, me: True), dice=[2, 2, 1, 3])
    put_in_jail(g, 1)
    play(g, 1)
    token = player(g, 1).token
    assert (token.pos, token.in_jail) == (19, False)
    assert player(g, 1).cash == 1450
    assert g.seats[0].dice.rolls_left == 0
    g.state.check()


@pytest.mark.parametrize("turns_there", [0, 2])  # the 1st or the 3rd turn in jail
def test_doubles_in_jail_leave_free_without_rolling_again(turns_there):
    g = new_game(dice=[2, 2])  # a second roll would be an error: none is preset
    put_in_jail(g, 1, turns_there=turns_there)
    play(g, 1)
    token = player(g, 1).token
    assert (token.pos, token.in_jail) == (15, False)
    assert player(g, 1).cash == 1500
    g.state.check()


def test_a_failed_roll_in_jail_stays_for_free():
    g = new_game(dice=[1, 2])
    put_in_jail(g, 1)
    play(g, 1)
    token = player(g, 1).token
    assert (token.pos, token.in_jail, token.jail_turns) == (JAIL, True, 1)
    assert player(g, 1).cash == 1500
    g.state.check()


@pytest.mark.parametrize(("card", "money"), [(False, 1450), (True, 1500)])
def test_the_third_failed_roll_pays_50_or_uses_the_card_then_moves(card, money):
    g = new_game(dice=[1, 2])
    put_in_jail(g, 1, turns_there=2)
    if card:
        hold_card(g, 1, CHEST, 6)
    play(g, 1)  # 11 + 3 = States Avenue (14)
    token = player(g, 1).token
    assert (token.pos, token.in_jail) == (14, False)
    assert player(g, 1).cash == money
    assert player(g, 1).jail_cards == [] and g.state.decks[CHEST].held == set()
    g.state.check()


def test_a_player_in_jail_may_build_at_the_end_of_its_turn():
    g = new_game(builder(2), dice=[1, 2])
    give(g, 1, 2, 4)
    put_in_jail(g, 1)
    play(g, 1)  # stays in jail
    assert player(g, 1).token.in_jail
    assert levels(g, 2, 4) == [1, 0]
    assert player(g, 1).cash == 1450
    g.state.check()


# ---------------------------------------------------------------------------
# The end of the game
# ---------------------------------------------------------------------------


def test_the_game_ends_after_max_rounds():
    g = new_game(dice=QUIET_DICE * 4, max_rounds=2)
    for seat in (1, 2):
        player(g, seat).token.pos = 17
    for _ in range(3):
        g.play_turn()
    assert not g.over
    g.play_turn()
    assert g.over and g.ended_by == "rounds"
    assert g.result().rounds == 2
    with pytest.raises(RuntimeError):
        g.play_turn()
    g.state.check()


def test_the_game_ends_when_one_player_is_left():
    g = new_game(dice=TO_INCOME_TAX)
    set_cash(g, 1, 100)
    play(g, 1, start=1)  # $200 Income Tax: bankrupt to the bank
    assert g.over and g.ended_by == "last player"
    result = g.result()
    assert result.winner == 2 and result.finish_order == [2, 1]
    assert result.bankruptcies == [(1, 1, 0)]
    g.state.check()


def test_finish_order_net_worth_then_monopolies_then_lots_then_seat():
    # Net worth: P5 1600; P1, P2, P3, P4 1500 each. P2 holds brown (a monopoly, 2 lots),
    # P3 three lots (no monopoly), P1 and P4 nothing: 5, 2, 3, 1, 4.
    g = new_game(players=5)
    give(g, 2, 2, 4)
    set_cash(g, 2, 1500 - 60 - 60)
    give(g, 3, 6, 9, 12)
    set_cash(g, 3, 1500 - 200 - 100 - 140)
    set_cash(g, 5, 1600)
    result = g.result()
    assert result.net_worth == [1500, 1500, 1500, 1500, 1600]
    assert result.finish_order == [5, 2, 3, 1, 4]
    g.state.check()


def test_bankrupt_players_finish_last_the_last_to_go_bankrupt_first():
    # P1 then P2 go bankrupt on Income Tax; P4 (1600) before P3 (1500), then P2, P1.
    g = new_game(players=4, dice=TO_INCOME_TAX * 2)
    set_cash(g, 1, 100)
    set_cash(g, 2, 100)
    set_cash(g, 4, 1600)
    play(g, 1, start=1)
    play(g, 2, start=1)
    assert [seat for seat, _, _ in g.state.bankruptcies] == [1, 2]
    assert g.result().finish_order == [4, 3, 2, 1]
    g.state.check()


def test_net_worth_counts_cash_prices_mortgage_values_and_buildings_at_cost():
    # 1500 cash + Park Place 350 + Boardwalk 400 + Reading mortgaged 100
    # + 4 houses x 200 + a hotel 5 x 200 = 4150.
    g = new_game()
    give(g, 1, 38, buildings=4)
    give(g, 1, 40, buildings=5)
    give(g, 1, 6, mortgaged=True)
    assert g.state.net_worth(1) == 4150
    assert g.result().net_worth[0] == 4150
    g.state.check()


# ---------------------------------------------------------------------------
# Strategies that misbehave
# ---------------------------------------------------------------------------


def test_a_strategy_that_raises_is_a_strategy_error_naming_the_player_and_decision():
    def buy(game, me, space):
        raise ValueError("no idea")

    g = new_game(make_strategy("crashy", buy=buy), dice=TO_BALTIC)
    with pytest.raises(StrategyError, match=re.escape("P1 crashy's buy decision raised")):
        play(g, 1, start=1)


def test_a_strategy_object_without_buy_is_a_type_error_at_game_creation():
    class BidOnly:
        def bid(self, game, me, space):
            return 0

    with pytest.raises(TypeError, match="no buy decision"):
        MonopolyGame([BidOnly(), "never"])


def test_a_buy_decision_returning_yes_is_a_strategy_error():
    g = new_game(make_strategy("yes", buy=lambda game, me, space: "yes"), dice=TO_BALTIC)
    with pytest.raises(StrategyError, match="P1 yes's buy decision must return True or False"):
        play(g, 1, start=1)


# ---------------------------------------------------------------------------
# Both engines: the scenarios' turns are played by the fast whole game too
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scenario",
    [
        test_buying_pays_the_price_to_the_bank,
        test_rent_of_an_unimproved_lot,
        test_chairman_mover_who_cannot_pay_everyone_is_bankrupt_to_the_first_unpaid,
        test_selling_a_hotel_when_the_bank_has_under_4_houses_sells_it_with_its_houses,
        test_bankrupt_to_a_player_creditor_takes_cash_lots_and_cards_and_pays_interest,
        test_the_game_ends_when_one_player_is_left,
    ],
)
def test_the_scenarios_play_on_both_engines(scenario):
    """play() plays each scenario's turn on the fast whole game from the same state and
    compares cash, tokens, lots, the bank's buildings and the cards held."""
    before = len(BOTH_ENGINES)
    scenario()
    assert len(BOTH_ENGINES) > before


def test_the_engines_comparison_can_fail():
    """A twin one dollar richer, or with a lot of its own, is told apart after the turn."""
    for change in (
        lambda s: s.__setitem__(loop.CASH + 1, s[loop.CASH + 1] + 1),
        lambda s: s.__setitem__(loop.OWNER + 4, 0),
    ):
        g = new_game(passive(buy=True), dice=TO_BALTIC)
        twin = compiled_twin(g)
        change(twin[0])
        g.play_turn()
        assert compiled_view(play_compiled(twin, 1), 2) != reference_view(g)


# ---------------------------------------------------------------------------
# The page's list of what plays with trades
# ---------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "notebooks" / "game_rules.md"
ENTRY_POINTS = "*Every entry point may play with trading."
IMPORT = re.compile(r"^\s*from monopoly_lesson[\w.]* import (?:\([^)]*\)|.*)$", re.MULTILINE)


def trading_commands(parser: argparse.ArgumentParser | None = None) -> set[str]:
    """The command-line commands (of ``parser``, default the package's) that have a
    ``--trading`` option."""
    parser = parser or build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name
        for name, parser in commands.choices.items()
        if any("--trading" in action.option_strings for action in parser._actions)
    }


def takes_trading(thing: object) -> bool:
    """Whether a function (or a class, when made) takes ``trading``: as a parameter, or
    among the keyword options its docstring says it passes on (``**options``)."""
    try:
        parameters = inspect.signature(thing).parameters
    except (TypeError, ValueError):
        return False
    passes_on = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    return "trading" in parameters or (passes_on and "``trading``" in (inspect.getdoc(thing) or ""))


def readers_names() -> dict[str, object]:
    """Every name the lesson hands its readers: the front door (``monopoly_lesson``), and
    each name the chapters' and the README's code imports from the package."""
    sources = [ROOT / "README.md", *sorted((ROOT / "notebooks").glob("*.ipynb"))]
    names = {name: getattr(monopoly_lesson, name) for name in monopoly_lesson.__all__}
    for source in sources:
        if source.suffix == ".ipynb":
            cells = nbformat.read(source, as_version=4).cells
            codes = [c.source for c in cells if c.cell_type == "code"]
        else:
            codes = re.findall(r"```python\n(.*?)```", source.read_text(), re.DOTALL)
        for code in codes:  # a cell may not parse whole (a placeholder): its imports do
            for statement in IMPORT.findall(code):
                node = ast.parse(statement).body[0]
                module = importlib.import_module(node.module)
                names |= {alias.name: getattr(module, alias.name) for alias in node.names}
    return names


def entry_points_paragraph() -> str:
    """The trading section's paragraph that lists every entry point that plays with trades."""
    text = PAGE.read_text()
    start = text.index(ENTRY_POINTS)
    return " ".join(text[start : text.index("\n\n", start)].split())


def test_the_rules_page_names_every_command_and_function_that_plays_with_trades():
    paragraph = entry_points_paragraph()
    commands = trading_commands()
    assert {"play", "evolve", "experiment"} <= commands  # the parsers are read
    for command in commands:
        assert f"`{command} --trading`" in paragraph, f"the rules page omits {command} --trading"
    functions = {name for name, thing in readers_names().items() if takes_trading(thing)}
    assert {"play_games", "evolve", "experiment", "GameStepper"} <= functions
    for name in functions:
        assert f"`{name}`" in paragraph, f"the rules page omits {name}(..., trading=True)"


def test_what_the_rules_page_says_plays_with_trades_does():
    paragraph = entry_points_paragraph()
    for command in re.findall(r"`(\w+) --trading`", paragraph):
        assert command in trading_commands(), f"{command} has no --trading"
    names = readers_names()
    listed = re.findall(r"`(\w+)`", paragraph)
    assert len(listed) >= 8
    for name in listed:
        assert name in names and takes_trading(names[name]), f"{name} takes no trading"


def test_the_page_check_sees_a_new_trading_option():
    """A command or a function that gains a trading option is found, so the page must name it."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands.add_parser("auction").add_argument("--trading", action="store_true")
    assert "auction" in trading_commands(parser) - trading_commands()
    assert "`auction --trading`" not in entry_points_paragraph()
    assert not takes_trading(lambda seed=0: seed)
    assert takes_trading(lambda seed=0, trading=False: seed)

    def passes_on(**options):
        """``options`` are ``play_games``'s (``trading``, ``max_rounds``)."""

    def passes_others(**options):
        """``options`` are ``play_games``'s (``max_rounds``)."""

    assert takes_trading(passes_on) and not takes_trading(passes_others)
