"""EGA, the richer chromosome: RGA's genes plus bids, a build reserve and trade limits.

Each decision it adds is checked on a game set up by hand (tests/game_scenarios.py), with
genes chosen to sit just on either side of the decision's threshold. Every turn is played by
the fast whole game too, from the same state, and must end the same.
"""

from __future__ import annotations

import numpy as np
import pytest
from game_scenarios import (
    BOTH_ENGINES,
    give,
    new_game,
    on_both_engines,
    passive,
    play,
    player,
    set_cash,
)

from monopoly_lesson import MonopolyGame, Trade
from monopoly_lesson.game.chromosomes import (
    BID_GROUPS,
    BUY_SHAPE,
    EGA,
    OWNERSHIP_STATES,
    RGA,
    TRADE_ROWS,
)
from monopoly_lesson.game.state import STREET_GROUPS

QUIET = [1, 3]  # from 17: Free Parking, where nothing happens


@pytest.fixture(autouse=True)
def both_engines(monkeypatch):
    """Every turn the fast whole game can play is played by it too (see the docstring)."""
    monkeypatch.setattr(MonopolyGame, "play_turn", on_both_engines(MonopolyGame.play_turn))


def ega(buy=1.0, jail=0.0, bid=0.5, reserve=0.2, pay=0.5, keep=0.5) -> EGA:
    """An EGA whose genes are these numbers (a table where a group's limit is given as a
    dict: ``pay={"light blue": 0.56}``, the others 0.5)."""

    def trade_row(genes):
        if isinstance(genes, dict):
            return [genes.get(group, 0.5) for group in STREET_GROUPS]
        return [genes] * len(STREET_GROUPS)

    return EGA.from_genes(
        np.full(BUY_SHAPE, buy),
        np.full(EGA.JAIL_SHAPE, jail),
        np.full(EGA.BID_SHAPE, bid),
        [[reserve]],
        [trade_row(pay), trade_row(keep)],
    )


def swap_game(*strategies):
    """Seat 1 holds Oriental (7), Vermont (9) and Mediterranean (2); seat 2 Connecticut (10)
    and Baltic (4): each lacks one lot the other has (as in tests/test_trading.py)."""
    g = new_game(*strategies, dice=QUIET, trading=True)
    give(g, 1, 2, 7, 9)
    give(g, 2, 4, 10)
    return g


# -- bids ---------------------------------------------------------------------------------------


def test_it_bids_its_gene_times_twice_the_price_capped_at_its_cash():
    g = new_game(ega(bid=0.55), passive())
    me = player(g, 1)
    assert ega(bid=0.55).bid(g.state, me, 40) == int(0.55 * 800) == 440  # Boardwalk, $400
    assert ega(bid=0.5).bid(g.state, me, 40) == 400
    assert ega(bid=0.0).bid(g.state, me, 7) == 0
    set_cash(g, 1, 300)
    assert ega(bid=1.0).bid(g.state, me, 40) == 300


def test_its_bid_gene_is_the_one_of_the_groups_ownership_state_and_group():
    genes = np.full(EGA.BID_SHAPE, 0.5)
    genes[OWNERSHIP_STATES.index("one_other"), BID_GROUPS.index("railroad")] = 0.75
    player_ = EGA.from_genes(
        np.ones(BUY_SHAPE), np.zeros(EGA.JAIL_SHAPE), genes, [[0.2]], np.full(EGA.TRADE_SHAPE, 0.5)
    )
    g = new_game(player_, passive())
    assert player_.bid(g.state, player(g, 1), 16) == 200  # nobody owns a railroad: 1 x $200
    give(g, 2, 6)  # Reading Railroad: one other player holds one
    assert player_.bid(g.state, player(g, 1), 16) == 300  # 0.75 x 2 x $200


def test_an_auction_is_won_with_its_bid():
    """Seat 2 lands on Boardwalk and declines; seat 1 (EGA) bids 1.1 x the price."""
    g = new_game(passive(), ega(bid=0.55), dice=[1, 3])
    play(g, 1, start=36)
    assert g.state.lots[40].owner == 2 and player(g, 2).cash == 1500 - 1  # second bid $0 + $1


# -- building ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("reserve", "houses"), [(0.3, 2), (0.0, 8), (0.7, 0)])
def test_it_builds_while_its_own_reserve_stays_in_hand(reserve, houses):
    """Light blue (houses $50), $400 in hand: a reserve of $300 leaves room for 2 houses,
    none leaves room for 8, $700 for none."""
    g = new_game(ega(reserve=reserve), passive(), dice=QUIET)
    give(g, 1, 7, 9, 10)
    set_cash(g, 1, 400)
    play(g, 1, start=17)
    built = sum(g.state.lots[s].buildings for s in (7, 9, 10))
    assert built == houses
    assert player(g, 1).cash >= round(reserve * 1000) or built == 0


# -- trades ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("gene", "proposed"), [(0.56, True), (0.559, False)])
def test_it_proposes_a_completion_swap_only_within_what_it_pays_for_the_group(gene, proposed):
    """Connecticut ($120) for Mediterranean ($60): seat 1 would pay $60 to complete light
    blue; a pay gene of 0.56 allows round(0.12 x 500) = $60, 0.559 allows $59."""
    g = swap_game(ega(pay={"light blue": gene}), passive())
    play(g, 1, start=17)
    made = [p.trade for p in g.state.proposals]
    assert made == ([Trade(partner=2, give=(2,), take=(10,), cash=60)] if proposed else [])


@pytest.mark.parametrize(("gene", "accepted"), [(0.44, True), (0.45, False)])
def test_it_accepts_a_completing_trade_only_for_its_least_to_keep(gene, accepted):
    """Seat 2 (EGA) gives Connecticut (light blue) for Mediterranean, completing brown, and
    pays $60: its least to keep for light blue must be -$60 or less."""
    trade = Trade(partner=2, give=(2,), take=(10,), cash=-60)
    offers = iter([trade])
    g = swap_game(
        passive(propose_trade=lambda game, me: next(offers, None)), ega(keep={"light blue": gene})
    )
    play(g, 1, start=17)
    assert g.state.proposals[0].accepted is accepted
    assert player(g, 2).cash == (1500 - 60 if accepted else 1500)


@pytest.mark.parametrize("given", [6, 13])
def test_a_railroad_or_utility_it_gives_has_no_keep_limit(given):
    """Seat 2 (EGA, every keep limit $500) gives Reading Railroad or the Electric Company
    for Baltic, completing brown: its genes are the colour groups', so no limit applies,
    and it accepts (before, the railroad's missing limit stopped the game)."""
    trade = Trade(partner=2, give=(4,), take=(given,))
    offers = iter([trade])
    g = new_game(
        passive(propose_trade=lambda game, me: next(offers, None)),
        ega(keep=1.0),
        dice=QUIET,
        trading=True,
    )
    give(g, 1, 4)
    give(g, 2, 2, given)
    play(g, 1, start=17)
    assert g.state.proposals[0].accepted is True
    assert (g.state.lots[4].owner, g.state.lots[given].owner) == (2, 1)


@pytest.mark.parametrize(("gene", "accepted"), [(0.56, True), (0.561, False)])
def test_it_answers_the_default_completion_swap_by_its_least_to_keep(gene, accepted):
    """Seat 1 (always-buy, the default policy) proposes Mediterranean and $60 for
    Connecticut: EGA takes it while its least to keep for light blue is at most $60."""
    g = swap_game("always", ega(keep={"light blue": gene}))
    play(g, 1, start=17)
    assert [p.trade for p in g.state.proposals] == [
        Trade(partner=2, give=(2,), take=(10,), cash=60)
    ]
    assert g.state.proposals[0].accepted is accepted
    assert g.state.lots[10].owner == (1 if accepted else 2)


@pytest.mark.parametrize(
    "scenario",
    [
        test_an_auction_is_won_with_its_bid,
        lambda: test_it_builds_while_its_own_reserve_stays_in_hand(0.3, 2),
        lambda: test_it_proposes_a_completion_swap_only_within_what_it_pays_for_the_group(
            0.56, True
        ),
        lambda: test_it_answers_the_default_completion_swap_by_its_least_to_keep(0.561, False),
    ],
)
def test_the_scenarios_play_on_both_engines(scenario):
    """Its bid, reserve, proposal and answer are played by the fast whole game too."""
    before = len(BOTH_ENGINES)
    scenario()
    assert len(BOTH_ENGINES) > before


def test_it_refuses_a_trade_that_completes_no_group_of_its_own_whatever_the_cash():
    trade = Trade(partner=2, give=(), take=(10,), cash=500)  # $500 for Connecticut
    offers = iter([trade])
    g = swap_game(passive(propose_trade=lambda game, me: next(offers, None)), ega(keep=0.0))
    play(g, 1, start=17)
    assert g.state.proposals[0].accepted is False


# -- its genes, as tables -------------------------------------------------------------------------


def test_its_genes_read_as_tables_in_dollars_and_multiples_of_the_price():
    player_ = ega(bid=0.55, reserve=0.25, pay={"orange": 0.8}, keep={"red": 0.1})
    tables = player_.genes()
    assert set(tables) == {"buy", "jail", "bid", "money"}
    assert tables["bid"].shape == (4, 10) and tables["bid"].to_numpy().max() == pytest.approx(1.1)
    money = tables["money"]
    assert money.loc["orange", "most_to_pay"] == 300 and money.loc["red", "least_to_keep"] == -400
    assert money.attrs["reserve"] == player_.reserve == 250
    assert list(TRADE_ROWS) == ["pay", "keep"] and "bids 1.10 x price" in repr(player_)
    assert isinstance(player_, RGA)  # the buy and jail decisions are RGA's


@pytest.mark.parametrize(
    ("genes", "words"),
    [
        ({"bid": np.full((4, 8), 0.5)}, r"EGA bid genes must have shape \(4, 10\)"),
        ({"reserve": [[1.5]]}, "EGA reserve genes are probabilities and must be from 0 to 1"),
        ({"trade": np.full((2, 8), np.nan)}, "EGA trade genes are probabilities"),
    ],
)
def test_bad_genes_say_which_table_and_what_is_allowed(genes, words):
    parts = {
        "buy": np.ones(BUY_SHAPE),
        "jail": np.zeros(EGA.JAIL_SHAPE),
        "bid": np.full(EGA.BID_SHAPE, 0.5),
        "reserve": [[0.2]],
        "trade": np.full(EGA.TRADE_SHAPE, 0.5),
        **genes,
    }
    with pytest.raises(ValueError, match=words):
        EGA.from_genes(**parts)
