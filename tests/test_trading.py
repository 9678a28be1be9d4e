"""Trading, one scenario per rule of the rules page's "Trading" section (game_rules.md).

The games are set up by hand (tests/game_scenarios.py) and play one preset turn: from
space 17 with dice (1, 3) the mover rests on Free Parking (21), where nothing happens;
then comes the trading step, before building.
"""

from __future__ import annotations

import inspect
import warnings

import pytest
from game_scenarios import (
    BOTH_ENGINES,
    give,
    new_game,
    on_both_engines,
    passive,
    play,
    player,
    put_in_jail,
    set_cash,
)

from monopoly_lesson import Trade, make_strategy, play_games, play_monopoly
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.strategies import NeverBuy, StrategyError, completion_swap
from monopoly_lesson.game.trading import MAX_PROPOSALS, why_not_trade

QUIET = [1, 3]  # from 17: Free Parking


@pytest.fixture(autouse=True)
def both_engines(monkeypatch):
    """Every turn the fast whole game can play (built-in strategies, preset dice) is played
    by it too, from the same state, and must end the same."""
    monkeypatch.setattr(MonopolyGame, "play_turn", on_both_engines(MonopolyGame.play_turn))


def swap_game(*strategies, players=2, dice=QUIET, **options):
    """Seat 1 holds Oriental (7) and Vermont (9) of light blue and Mediterranean (2);
    seat 2 holds Connecticut (10) and Baltic (4): each lacks one lot the other has."""
    g = new_game(*strategies, players=players, dice=dice, trading=True, **options)
    give(g, 1, 2, 7, 9)
    give(g, 2, 4, 10)
    return g


def proposer(*trades, name="proposer"):
    """A strategy that proposes ``trades`` in turn (then nothing) and never builds."""
    pending = iter(trades)
    return passive(name=name, propose_trade=lambda game, me: next(pending, None))


def accepter(answer=True, name="accepter"):
    """A strategy that answers every trade with ``answer``."""
    return passive(name=name, accept_trade=lambda game, me, offer: answer)


def ledger_reasons(g, first=0):
    return [p.reason for p in g.state.ledger[first:]]


# ---------------------------------------------------------------------------
# The default policy: the completion swap
# ---------------------------------------------------------------------------


def test_the_completion_swap_trades_the_lots_that_complete_both_groups():
    g = swap_game(passive(), passive())
    play(g, 1, start=17)
    # Connecticut ($120) for Mediterranean ($60): the mover takes the dearer, pays $60
    assert g.state.proposals[0].trade == Trade(partner=2, give=(2,), take=(10,), cash=60)
    assert g.state.proposals[0].accepted
    assert (player(g, 1).cash, player(g, 2).cash) == (1440, 1560)
    assert g.state.monopolies(1) == ["light blue"] and g.state.monopolies(2) == ["brown"]
    g.state.check()


def test_the_completion_swap_asks_each_partner_in_seat_order_after_the_mover():
    """Seat 2 moves: a swap with seat 3 (light blue for brown), then one with seat 1
    (purple for dark blue: seat 1 would pay the $240 between Boardwalk and Virginia), which
    seat 1 refuses: seat 2 would then hold 2 complete groups, more than the 1 it gains."""
    g = new_game(passive(), passive(), passive(), players=3, dice=QUIET, trading=True)
    give(g, 2, 7, 9, 2, 12, 14, 40)
    give(g, 3, 10, 4)
    give(g, 1, 15, 38)
    play(g, 2, start=17)
    made = [(p.trade.partner, p.trade.cash, p.accepted) for p in g.state.proposals]
    assert made == [(3, 60, True), (1, -240, False)]
    assert g.state.monopolies(2) == ["light blue"]


def test_the_payer_of_the_difference_must_have_the_cash():
    g = swap_game(passive(), passive())
    set_cash(g, 1, 59)  # it would pay $60
    play(g, 1, start=17)
    assert g.state.proposals == []


def test_the_default_refuses_a_trade_that_leaves_it_under_200():
    trade = Trade(partner=2, give=(2,), take=(10,), cash=-60)  # seat 2 would pay $60
    g = swap_game(proposer(trade), passive())
    set_cash(g, 2, 250)
    play(g, 1, start=17)
    assert g.state.proposals[0].accepted is False  # 250 - 60 < 200
    assert player(g, 2).cash == 250


def test_the_default_refuses_a_trade_that_completes_no_group_of_its_own():
    trade = Trade(partner=2, give=(2,), take=(4,))  # brown to seat 1 only
    g = swap_game(proposer(trade), passive())
    play(g, 1, start=17)
    assert g.state.proposals[0].accepted is False


def test_the_default_refuses_when_the_proposer_gains_more_groups():
    """Seat 1 would complete light blue and brown; seat 2 only its purple."""
    g = new_game(
        proposer(Trade(partner=2, give=(12,), take=(4, 10))), passive(), dice=QUIET, trading=True
    )
    give(g, 1, 2, 7, 9, 12)
    give(g, 2, 4, 10, 14, 15)
    play(g, 1, start=17)
    assert g.state.proposals[0].accepted is False


# ---------------------------------------------------------------------------
# When: the end of the mover's turn, before building; at most 3 proposals
# ---------------------------------------------------------------------------


def test_trading_comes_before_building():
    """With the swap made, the mover's default build develops light blue that turn."""
    g = swap_game(NeverBuy(), passive())
    play(g, 1, start=17)
    assert g.state.proposals[0].accepted
    assert all(g.state.lots[s].buildings > 0 for s in (7, 9, 10))


def test_a_mover_in_jail_trades_too():
    g = swap_game(passive(), passive(), dice=[1, 2])  # no doubles: it stays in jail
    put_in_jail(g, 1)
    play(g, 1)
    assert player(g, 1).token.in_jail and g.state.proposals[0].accepted


def test_at_most_3_proposals_a_turn():
    refused = Trade(partner=2, give=(2,), take=(10,), cash=60)
    g = swap_game(proposer(*[refused] * 5), accepter(False))
    play(g, 1, start=17)
    assert len(g.state.proposals) == MAX_PROPOSALS == 3
    assert not any(p.accepted for p in g.state.proposals)


def test_trading_is_off_unless_asked_for():
    g = new_game(passive(), passive(), dice=QUIET)
    give(g, 1, 2, 7, 9)
    give(g, 2, 4, 10)
    play(g, 1, start=17)
    assert g.state.proposals == [] and g.state.lots[10].owner == 2


# ---------------------------------------------------------------------------
# What a trade may be; mortgaged lots; cash, then lots, then interest
# ---------------------------------------------------------------------------


def test_cash_then_lots_then_interest_for_a_mortgaged_lot():
    trade = Trade(partner=2, give=(2,), take=(10,), cash=60)
    g = swap_game(proposer(trade), accepter())
    g.state.lots[10].mortgaged = True  # Connecticut: mortgage $60, interest $6
    first = len(g.state.ledger)
    play(g, 1, start=17)
    assert ledger_reasons(g, first) == ["trade", "interest"]
    assert g.state.lots[10].owner == 1 and g.state.lots[10].mortgaged
    assert player(g, 1).cash == 1500 - 60 - 6
    g.state.check()


@pytest.mark.parametrize(
    ("trade", "reason"),
    [
        (Trade(partner=2, give=(4,)), "Baltic Avenue (4) is not a lot of seat 1's"),
        (Trade(partner=2, take=(2,)), "Mediterranean Avenue (2) is not a lot of seat 2's"),
        (Trade(partner=2, cash=100), "at least one lot must change hands"),
        (Trade(partner=1, give=(2,)), "another player still in the game, not seat 1"),
        (Trade(partner=3, give=(2,)), "another player still in the game, not seat 3"),
        (Trade(partner=2, give=(2,), cash=1501), "seat 1 has $1500, not the $1501 to pay"),
        (Trade(partner=2, take=(10,), cash=-1501), "seat 2 has $1500, not the $1501"),
        (Trade(partner=2, give=(2, 2)), "a lot is named twice"),
        (Trade(partner=2, give=(0,)), "0 is not a space of the board (a number from 1 to 40)"),
        (Trade(partner=2, give=(41,)), "41 is not a space of the board"),
        (Trade(partner=2, take=(-3,)), "-3 is not a space of the board"),
        (Trade(partner=2, take=(10**20,)), f"{10**20} is not a space of the board"),
    ],
)
def test_an_illegal_proposal_is_the_proposers_strategy_error(trade, reason):
    g = swap_game(proposer(trade), accepter())
    with pytest.raises(StrategyError, match="P1 proposer's propose_trade decision") as raised:
        play(g, 1, start=17)
    assert reason in str(raised.value)


def test_no_lot_of_a_group_with_buildings_is_traded():
    g = swap_game(proposer(Trade(partner=2, give=(7,), take=(4,))), accepter())
    give(g, 1, 10)  # light blue complete ...
    g.state.lots[10].owner = 1
    g.state.lots[9].buildings = 1  # ... with a house on Vermont
    g.state.bank_houses -= 1
    with pytest.raises(StrategyError, match="the light blue group has buildings"):
        play(g, 1, start=17)


def test_a_receiver_who_could_not_pay_the_interest_makes_the_trade_illegal():
    trade = Trade(partner=2, give=(2,), take=(10,), cash=60)
    g = swap_game(proposer(trade), accepter())
    g.state.lots[10].mortgaged = True  # $6 of interest, and seat 1 left with $60 - $60
    set_cash(g, 1, 65)
    with pytest.raises(StrategyError, match=r"seat 1 could not pay the \$6 interest"):
        play(g, 1, start=17)


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("yes", "propose_trade decision must return a Trade or None"),
        (Trade(partner=2, give=(2.0,)), "must name seats, lots and cash as whole numbers"),
        (Trade(partner=2, give=17), r"must name the lots given and taken as tuples of spaces"),
        (Trade(partner=2, give=(17,), take="19"), r"such as give=\(12,\), take=\(14,\)"),
    ],
)
def test_a_proposal_of_the_wrong_type_is_a_strategy_error(answer, words):
    g = swap_game(proposer(answer), accepter())
    with pytest.raises(StrategyError, match=words):
        play(g, 1, start=17)


def test_an_answer_that_is_not_true_or_false_is_the_partners_error():
    g = swap_game(passive(), accepter("sure"))
    with pytest.raises(StrategyError, match="P2 accepter's accept_trade decision must return"):
        play(g, 1, start=17)


def test_the_partner_sees_who_proposed():
    seen = []

    def accept(game, me, offer):
        seen.append(offer.proposer)
        return False

    g = swap_game(passive(), passive(name="watcher", accept_trade=accept))
    play(g, 1, start=17)
    assert seen == [1]


def test_why_not_trade_allows_a_legal_trade():
    g = swap_game(passive(), passive())
    assert why_not_trade(g.state, 1, Trade(partner=2, give=(2,), take=(10,), cash=60)) is None
    assert completion_swap(g.state, player(g, 1)) == Trade(2, (2,), (10,), 60)


# ---------------------------------------------------------------------------
# Narration and the entry points
# ---------------------------------------------------------------------------


def test_one_line_per_proposal_answer_and_trade(capsys):
    g = swap_game(passive(), passive(), verbose=True)
    play(g, 1, start=17)
    lines = capsys.readouterr().out.splitlines()
    assert (
        "P1 passive offers P2 passive Mediterranean Avenue (2) and $60 in cash for "
        "Connecticut Avenue (10)." in lines
    )
    assert "P2 passive accepts the trade." in lines
    assert "P1 passive and P2 passive make the trade." in lines


def test_play_monopoly_and_play_games_take_trading():
    with_trading = play_monopoly(["always"] * 4, seed=0, trading=True)
    without = play_monopoly(["always"] * 4, seed=0)
    assert with_trading.rounds != without.rounds or with_trading.net_worth != without.net_worth
    table = play_games(["always", "heuristic"], games=4, trading=True, max_rounds=50)
    assert len(table) == 8
    with pytest.raises(TypeError, match="trading must be True or False"):
        MonopolyGame(["always", "never"], trading="yes")


@pytest.mark.parametrize("streams", [5, "streams", [1, 2, 3]])
def test_a_game_given_streams_that_are_not_a_game_streams_names_the_parameter(streams):
    with pytest.raises(TypeError, match=r"^streams must be a GameStreams .* or None, got "):
        MonopolyGame(["always", "never"], streams=streams)


def test_games_with_trading_keep_every_invariant():
    traded = 0
    for seed in range(12):
        g = MonopolyGame(["always", "heuristic", "random:0.5", "always"], seed=seed, trading=True)
        g.play()
        g.state.check()
        traded += sum(p.accepted for p in g.state.proposals)
    assert traded > 5


def test_the_default_refuses_to_help_a_proposer_who_would_hold_more_groups_than_it_gains():
    """The rules page: the proposer must hold no more complete groups, after the trade, than
    the accepting player gains. Seat 1 already holds orange: a 1-for-1 swap is refused."""
    g = swap_game(passive(), passive())
    give(g, 1, 17, 19, 20)  # orange, complete
    play(g, 1, start=17)
    assert g.state.proposals[0].accepted is False


def test_the_command_line_plays_with_trading(capsys):
    """``play --trading`` and ``tournament --trading`` with every built-in strategy."""
    from monopoly_lesson.cli import main

    names = "always,never,heuristic,random:0.5,rga,tga,sga"
    assert main(
        [
            "tournament",
            "--strategy",
            names,
            "--games",
            "7",
            "--trading",
            "--no-progress",
            "--max-rounds",
            "60",
        ]
    ) in (0, None)
    out = capsys.readouterr().out
    assert "with trading" in out and all(name in out for name in names.split(","))
    assert main(["play", "--strategy", "always,always", "--trading", "--verbose"]) in (0, None)
    out = capsys.readouterr().out
    assert "accepts the trade." in out and ", in a game with trading." in out
    assert main(["play", "--strategy", "always,always"]) in (0, None)
    assert "trading" not in capsys.readouterr().out


@pytest.mark.parametrize("trading", [True, False])
def test_evolve_on_the_command_line_says_whether_it_traded(capsys, tmp_path, trading):
    """The summary's first line and its benchmark sentence say the games had trades."""
    from monopoly_lesson.cli import main

    argv = [
        "evolve",
        "--chromosome",
        "ega",
        "--population",
        "8",
        "--games-per-player",
        "2",
        "--max-rounds",
        "10",
        "--generations",
        "1",
        "--benchmark-every",
        "1",
        "--benchmark-games",
        "4",
        "--no-progress",
        "--out",
        str(tmp_path / "run"),
    ]
    assert main(argv + ["--trading"] * trading) in (0, None)
    lines = capsys.readouterr().out.splitlines()
    summary, bench = lines[0], next(line for line in lines if line.startswith("Benchmark"))
    assert summary.endswith(", with trading.") is trading
    assert (", with trading (95% CI" in bench) is trading


# ---------------------------------------------------------------------------
# A strategy's own trade decisions in a game without trading: a warning
# ---------------------------------------------------------------------------


def offer_nothing(game, me):
    return None


def refuse(game, me, offer):
    return False


def trader(**decisions):
    return make_strategy("trader", buy=lambda game, me, space: True, **decisions)


def warned(call):
    """The warnings ``call()`` gives, every one recorded (none filtered out as repeats)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return caught


def test_a_trader_without_trading_is_warned_once_at_the_callers_line():
    mine = trader(propose_trade=offer_nothing, accept_trade=refuse)
    line = inspect.currentframe().f_lineno + 1
    caught = warned(lambda: play_games([mine, "always"], games=6, seed=1))
    assert len(caught) == 1  # once, not once per game
    (warning,) = caught
    assert warning.category is UserWarning
    assert (warning.filename, warning.lineno) == (__file__, line)  # the student's own line
    text = str(warning.message)
    assert "'trader'" in text and "propose_trade and accept_trade" in text
    assert "trading=True" in text


@pytest.mark.parametrize(
    ("play", "decision"),
    [
        (lambda s: play_monopoly([s, "never"], seed=1, max_rounds=5), "propose_trade"),
        (lambda s: MonopolyGame([s, "never"], seed=1), "propose_trade"),
    ],
)
def test_play_monopoly_and_a_game_warn_too(play, decision):
    caught = warned(lambda: play(trader(propose_trade=offer_nothing)))
    assert [str(w.message).split(",")[0] for w in caught] == [
        f"strategy 'trader' has its own {decision}"
    ]
    assert caught[0].filename == __file__


def test_a_class_with_its_own_answer_is_warned_of_it():
    class Refuser(NeverBuy):
        def accept_trade(self, game, me, offer):
            return False

    caught = warned(lambda: play_monopoly([Refuser(), "always"], seed=1, max_rounds=5))
    assert len(caught) == 1 and "own accept_trade, which" in str(caught[0].message)


@pytest.mark.parametrize(
    "strategies",
    [
        ["always", "heuristic", "ega", "rga"],  # the package's own decisions
        [make_strategy(buy=lambda game, me, space: True), NeverBuy()],  # no trade decisions
    ],
)
def test_no_warning_without_trade_decisions_of_ones_own(strategies):
    assert warned(lambda: play_games(strategies, games=2, seed=1, max_rounds=20)) == []


def test_no_warning_when_trading_is_on():
    s = trader(propose_trade=offer_nothing, accept_trade=refuse)
    assert warned(lambda: play_games([s, "always"], games=2, seed=1, trading=True)) == []
    assert warned(lambda: play_monopoly([s, "always"], seed=1, trading=True)) == []


def test_the_default_swaps_play_on_both_engines():
    before = len(BOTH_ENGINES)
    test_the_completion_swap_trades_the_lots_that_complete_both_groups()
    test_the_completion_swap_asks_each_partner_in_seat_order_after_the_mover()
    test_the_default_refuses_to_help_a_proposer_who_would_hold_more_groups_than_it_gains()
    assert len(BOTH_ENGINES) == before + 3


def completion_swaps_by_definition(game, me, partner):
    """The completion swaps straight from the rules page, trying every pair of lots: ``me``
    takes the only lot of a colour group it lacks, the partner the only one it lacks of
    another, each lot a street its owner holds unmortgaged in a group without buildings; the
    side receiving the dearer lot pays the difference, if it has it."""
    from monopoly_lesson.game.state import GROUP, GROUP_SPACES, PRICE, STREET_GROUPS

    def lacks_only(seat, space):
        others = [s for s in GROUP_SPACES[GROUP[space]] if s != space]
        return game.lots[space].owner != seat and all(game.lots[s].owner == seat for s in others)

    def may_give(seat, space):
        built = any(game.lots[s].buildings for s in GROUP_SPACES[GROUP[space]])
        return game.lots[space].owner == seat and not game.lots[space].mortgaged and not built

    streets = sorted(s for s in PRICE if GROUP[s] in STREET_GROUPS)
    cash = {me: game.player(me).cash, partner: game.player(partner).cash}
    swaps = []
    for take in streets:
        for given in streets:
            if GROUP[take] == GROUP[given] or not (
                lacks_only(me, take) and may_give(partner, take)
            ):
                continue
            if not (lacks_only(partner, given) and may_give(me, given)):
                continue
            pay = PRICE[take] - PRICE[given]
            if (pay >= 0 and cash[me] >= pay) or (pay < 0 and cash[partner] >= -pay):
                swaps.append((given, take, pay))
    return swaps


def test_the_completion_swaps_are_those_of_the_rules_definition_in_board_order():
    """In the states of real games, every turn, between every two players (games without
    trading, so that the swaps open pile up rather than being made at once)."""
    from monopoly_lesson.game.strategies import completion_swaps

    compared = found = 0
    for seed in range(4):
        g = MonopolyGame(["always", "heuristic", "always", "random:0.5"], seed=seed)
        while not g.over and g.state.round <= 40:
            g.play_turn()
            for me in (p.seat for p in g.state.players if p.in_game):
                for partner in (p.seat for p in g.state.players if p.in_game and p.seat != me):
                    swaps = [
                        (t.give[0], t.take[0], t.cash)
                        for t in completion_swaps(g.state, me, partner)
                    ]
                    assert swaps == completion_swaps_by_definition(g.state, me, partner)
                    compared, found = compared + 1, found + len(swaps)
    assert compared > 1000 and found > 20, (compared, found)  # the states held swaps to find


# ---------------------------------------------------------------------------
# A refusal says why, in the refusing strategy's own terms
# ---------------------------------------------------------------------------


def test_a_default_refusal_says_which_of_its_terms_the_trade_misses():
    from monopoly_lesson.game.strategies import COMPLETES_ONE, completion_refusal

    g = swap_game(passive(), passive())
    state, me = g.state, player(g, 2)
    fair = Trade(partner=2, give=(2,), take=(10,), cash=60, proposer=1)
    assert completion_refusal(state, me, fair) == ""
    nothing = Trade(partner=2, give=(), take=(10,), cash=60, proposer=1)
    assert completion_refusal(state, me, nothing) == COMPLETES_ONE
    set_cash(g, 2, 150)
    paying = Trade(partner=2, give=(2,), take=(10,), cash=-1, proposer=1)
    assert completion_refusal(state, me, paying) == (
        "it accepts only a trade that leaves it $200 in cash, or pays it"
    )


def test_every_refusal_of_a_package_player_is_narrated_with_its_reason(capsys):
    players = ["ega_trading", "always", "dealer", "league"]
    for seed in range(3):
        play_monopoly(players, seed=seed, trading=True, verbose=True)
    refusals = [line for line in capsys.readouterr().out.splitlines() if "refuses" in line]
    assert refusals, "no trade was refused in these games"
    assert all(" refuses the trade: it " in line for line in refusals), refusals[:5]


def test_a_students_own_answer_is_refused_without_a_reason_of_the_packages(capsys):
    from monopoly_lesson.game.chromosomes import EGA

    class Stubborn(EGA):
        def accept_trade(self, game, me, offer):
            return False

    g = swap_game(passive(), Stubborn.random(0), verbose=True)
    play(g, 1, start=17)
    lines = capsys.readouterr().out.splitlines()
    assert any(line.endswith("refuses the trade.") for line in lines), lines


def test_the_rules_page_says_what_each_package_player_accepts():
    from pathlib import Path

    from monopoly_lesson.game.plugins import BUILT_IN, SHIPPED_PLAYERS

    page = (Path(__file__).resolve().parents[1] / "notebooks" / "game_rules.md").read_text()
    section = page.split("- **What each player accepts.**")[1].split("\n## ")[0]
    named = {name for name in (*BUILT_IN, *SHIPPED_PLAYERS) if f"`{name}`" in section}
    missing = {*BUILT_IN, *SHIPPED_PLAYERS} - named - {"you", "passive"}
    assert not missing, f"the rules page does not say what {sorted(missing)} accept"
