"""BGA, the chromosome that bargains: each gene's decision in a scenario set by hand, and a
run of the genetic algorithm that evolves it."""

from __future__ import annotations

import numpy as np
import pytest
from game_scenarios import give, new_game, set_cash

from monopoly_lesson.evolution.operators import genome_length
from monopoly_lesson.evolution.run import evolve
from monopoly_lesson.game.chromosomes import BGA, EGA, VALUE_ROWS
from monopoly_lesson.game.plugins import as_strategy
from monopoly_lesson.game.state import STREET_GROUPS
from monopoly_lesson.game.trade import Trade

ORANGE, LIGHT_BLUE = (17, 19, 20), (7, 9, 10)
COLUMN = {group: k for k, group in enumerate(STREET_GROUPS)}


def player(**genes) -> BGA:
    """A BGA whose genes are EGA's of seed 0, each table given in ``genes`` replaced."""
    base = dict(zip(BGA.gene_tables(), BGA.random(0).gene_arrays(), strict=True))
    return BGA.from_genes(**{**base, **genes})


def scene(players: int = 3):
    g = new_game(players=players)
    return g, g.state.view(1), g.state.view(1).player(1)


def test_bga_is_egas_genes_and_four_tables_more():
    assert list(BGA.gene_tables()) == [*EGA.gene_tables(), "value", "build", "ask", "worth"]
    assert genome_length("bga") == genome_length("ega") + 2 * 8 + 1 + 8 + 8
    assert as_strategy("bga").name == "bga" and VALUE_ROWS == ("completes", "blocks")


@pytest.mark.parametrize(("holders", "row"), [((1, 1), 0), ((2, 2), 1), ((2, 3), None)])
def test_a_lot_that_completes_or_blocks_a_group_is_bid_for_by_its_value_gene(holders, row):
    g, game, me = scene()
    for holder, space in zip(holders, ORANGE[:2], strict=True):
        give(g, holder, space)
    set_cash(g, 1, 2000)
    value = np.zeros((2, 8))
    value[0, COLUMN["orange"]], value[1, COLUMN["orange"]] = 0.75, 0.6
    bga = player(value=value, bid=np.full((4, 10), 0.3))
    expected = {0: 300, 1: 240, None: 120}[row]  # 2 x $200 x gene
    assert bga.bid(game, me, 20) == expected
    set_cash(g, 1, 100)
    assert bga.bid(game, me, 20) == 100


def test_every_group_is_built_to_its_level_before_any_goes_further():
    g, game, me = scene()
    give(g, 1, *ORANGE, buildings=2)
    give(g, 1, *LIGHT_BLUE, buildings=1)
    set_cash(g, 1, 1500)
    reserve = np.array([[0.1]])  # $100
    evenly = player(build=np.array([[0.6]]), reserve=reserve)  # to 3 buildings
    assert evenly.build_to == 3 and evenly.build(game, me) in LIGHT_BLUE
    in_order = player(build=np.array([[0.0]]), reserve=reserve)  # the rules' order: orange
    assert in_order.build(game, me) in ORANGE
    set_cash(g, 1, 149)  # a light blue house ($50) would leave less than $100
    assert evenly.build(game, me) is None


def test_a_swap_it_proposes_is_worth_it_and_asks_for_a_share_of_the_partners_spare_cash():
    g, game, me = scene()
    give(g, 1, 2, 17, 19)  # it lacks orange's 20; the partner lacks brown's 2
    give(g, 2, 4, 20)
    set_cash(g, 2, 700)
    trade = np.ones((2, 8))  # pays up to $500, wants $500 for a lot
    worth = np.zeros((1, 8))
    worth[0, COLUMN["orange"]] = 0.5
    ask = np.zeros((1, 8))
    ask[0, COLUMN["orange"]] = 0.5
    offer = player(trade=trade, worth=worth, ask=ask).propose_trade(game, me)
    assert (offer.partner, offer.give, offer.take) == (2, (2,), (20,))
    assert offer.cash == 140 - (700 + 140 - 200) // 2  # the price difference, less half
    worth[0, COLUMN["brown"]] = 0.6  # brown now worth more than orange to it: no swap
    assert player(trade=trade, worth=worth, ask=ask).propose_trade(game, me) is None


def test_it_accepts_as_ega_does_if_the_group_it_hands_over_is_worth_no_more():
    g, game, me = scene()
    give(g, 1, 2, 17, 19)
    give(g, 2, 4, 20)
    offer = Trade(1, give=(20,), take=(2,), cash=-10, proposer=2)
    trade = np.zeros((2, 8))  # keep: -$500 for every group
    worth = np.full((1, 8), 0.5)
    assert player(trade=trade, worth=worth).accept_trade(game, me, offer) is True
    worth[0, COLUMN["brown"]] = 0.7
    assert player(trade=trade, worth=worth).accept_trade(game, me, offer) is False
    trade[1, COLUMN["brown"]] = 1.0  # wants $500 for a brown lot
    assert player(trade=trade).accept_trade(game, me, offer) is False


def test_it_mortgages_loose_lots_before_it_sells_a_house_as_the_dealer_does():
    g, game, me = scene()
    give(g, 1, *ORANGE, buildings=1)
    give(g, 1, 13, 6)  # a utility and a railroad
    assert player().raise_cash(game, me, 50) == ("mortgage", 13)  # EGA would sell first
    assert EGA.random(0).raise_cash(game, me, 50) == ("sell", 17)
    give(g, 1, 6, 13, mortgaged=True)
    assert player().raise_cash(game, me, 50) == ("sell", 17)


def test_its_genes_show_as_tables():
    tables = player(build=np.array([[1.0]])).genes()
    assert tables["value"].shape == (2, 8) and list(tables["swaps"].columns) == ["ask", "worth"]
    assert tables["money"].attrs["build_to"] == 5


def test_the_genetic_algorithm_evolves_it_with_trading():
    run = evolve(
        "bga",
        generations=2,
        population=8,
        games_per_player=2,
        max_rounds=30,
        benchmark_every=0,
        progress=False,
        trading=True,
        init="levels",
    )
    assert run.population.shape == (8, genome_length("bga"))
    assert type(run.best_player()) is BGA
