"""The dealer, the built-in player that bargains: each decision in a scenario set by hand,
and how it does against the built-in fields (a seeded tournament with trading)."""

from __future__ import annotations

import pytest
from game_scenarios import give, new_game, player, set_cash

from monopoly_lesson.game.dealer import BID_TENTHS, KEEP, Dealer, group_worth
from monopoly_lesson.game.plugins import as_strategy
from monopoly_lesson.game.state import PRICE
from monopoly_lesson.game.strategies import RESERVE
from monopoly_lesson.game.tournament import play_games, win_rates
from monopoly_lesson.game.trade import Trade

BROWN, LIGHT_BLUE, ORANGE = (2, 4), (7, 9, 10), (17, 19, 20)
WHAT = {400: "completes", 300: "blocks", 220: "other"}  # orange's $200 lot


def scene(players: int = 3):
    """A game with the dealer in seat 1 and passive players, and the dealer's views."""
    g = new_game(Dealer(), players=players)
    return g, g.state.view(1), g.state.view(1).player(1)


def test_the_dealer_is_a_built_in_strategy_by_name():
    assert isinstance(as_strategy("dealer"), Dealer)


@pytest.mark.parametrize(
    ("holders", "bid"), [((1, 1), 400), ((2, 2), 300), ((None, None), 220), ((2, 3), 220)]
)
def test_a_bid_is_worth_more_when_the_lot_completes_or_blocks_a_group(holders, bid):
    g, game, me = scene()
    for holder, space in zip(holders, (17, 19), strict=True):
        if holder is not None:
            give(g, holder, space)
    set_cash(g, 1, 1500)
    assert Dealer().bid(game, me, 20) == bid == PRICE[20] * BID_TENTHS[WHAT[bid]] // 10
    set_cash(g, 1, 100)
    assert Dealer().bid(game, me, 20) == 100  # never above its cash


def test_every_group_gets_three_houses_before_any_gets_a_fourth():
    g, game, me = scene()
    give(g, 1, *ORANGE, buildings=3)
    give(g, 1, *LIGHT_BLUE, buildings=2)
    set_cash(g, 1, 1000)
    assert Dealer().build(game, me) in LIGHT_BLUE  # the default would go on with orange
    give(g, 1, *LIGHT_BLUE, buildings=3)
    assert Dealer().build(game, me) in LIGHT_BLUE  # the cheaper houses, once all have three
    set_cash(g, 1, KEEP + 49)  # a light blue house costs $50
    assert Dealer().build(game, me) is None


def test_it_mortgages_loose_lots_before_it_sells_a_house():
    g, game, me = scene()
    give(g, 1, *ORANGE, buildings=1)
    give(g, 1, 13, 6)  # a utility and a railroad
    assert Dealer().raise_cash(game, me, 50) == ("mortgage", 13)
    give(g, 1, 6, 13, mortgaged=True)
    assert Dealer().raise_cash(game, me, 50) == ("sell", 17)


def test_a_swap_it_proposes_asks_the_partner_for_its_cash_above_200():
    g, game, me = scene()
    give(g, 1, BROWN[0], 17, 19)
    give(g, 2, BROWN[1], 20)
    set_cash(g, 2, 700)
    trade = Dealer().propose_trade(game, me)
    assert (trade.partner, trade.give, trade.take) == (2, (2,), (20,))
    assert trade.cash == -(700 - RESERVE)  # the default pays the $140 difference instead


def test_it_does_not_hand_over_a_clearly_better_group():
    g, game, me = scene()
    give(g, 1, 40, 17, 19)  # it lacks orange's 20; the partner lacks dark blue's 40
    give(g, 2, 38, 20)
    assert group_worth("dark blue") > 1.25 * group_worth("orange")
    assert Dealer().propose_trade(game, me) is None
    offer = Trade(1, give=(20,), take=(40,), cash=0, proposer=2)
    assert Dealer().accept_trade(game, me, offer) is False


def test_it_accepts_a_completion_that_leaves_it_its_cash_or_pays_it():
    g, game, me = scene()
    give(g, 1, 2, 17, 19)
    give(g, 2, 4, 20)
    offer = Trade(1, give=(20,), take=(2,), cash=-140, proposer=2)
    set_cash(g, 1, KEEP + 140)
    assert Dealer().accept_trade(game, me, offer) is True
    set_cash(g, 1, KEEP + 139)
    assert Dealer().accept_trade(game, me, offer) is False
    paid = Trade(1, give=(20,), take=(2,), cash=10, proposer=2)
    assert Dealer().accept_trade(game, me, paid) is True
    nothing = Trade(1, give=(4,), take=(20,), cash=0, proposer=2)  # completes theirs only
    assert player(g, 1).cash == KEEP + 139 and Dealer().accept_trade(game, me, nothing) is False


def test_it_leaves_jail_at_once_while_lots_are_to_be_bought():
    g, game, me = scene()
    assert Dealer().leave_jail(game, me) is True
    give(g, 2, *sorted(PRICE)[:-7])
    assert len(game.unowned()) < 8 and Dealer().leave_jail(game, me) is False


def test_it_beats_the_built_in_fields_with_trading():
    """A yardstick: it wins well over a fair share at [heuristic, always, heuristic], and
    always-buy wins less than any of three dealers at their table (80 games each)."""
    table = play_games(["dealer", "heuristic", "always", "heuristic"], 80, seed=3, trading=True)
    assert win_rates(table).loc["dealer", "ci_low"] > 0.25
    table = play_games(["always", "dealer", "dealer", "dealer"], 80, seed=3, trading=True)
    rates = win_rates(table)["win_rate"]
    assert rates["always"] < 0.2 and rates["always"] < rates.drop("always").min()
