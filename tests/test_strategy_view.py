"""Strategies cannot cheat: they read the game through a read-only view, and a decision that
changes the game some other way is caught and named.

Each attack below worked on the live game before (the results reported the win); now each
ends in the cheater's StrategyError, naming the player and the decision. Honest reading,
the player's own generator and seeded games are as they were.
"""

from __future__ import annotations

import copy
import gc
import json
import pickle

import pytest
from game_scenarios import new_game, passive, play

from monopoly_lesson import make_strategy, play_monopoly
from monopoly_lesson.checker.answers import read_strategy_games
from monopoly_lesson.checker.capstone_check import StrategyReport, capstone_games, replay_game
from monopoly_lesson.checker.strategy_probe import play_recorded
from monopoly_lesson.game.buildings import why_not_build
from monopoly_lesson.game.chromosomes import ownership_state
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.rent import rent_due
from monopoly_lesson.game.state import LOT_SPACES, GameState, GameView, OwnView, PlayerView
from monopoly_lesson.game.strategies import GameChanged, NeverBuy, StrategyError

TO_BALTIC = [1, 2]  # from Go: Baltic Avenue (4), $60


def cheat_game(buy, seed=1, rounds=30):
    """Play ``buy`` (as P1 cheat) against an always-buyer; return the result."""
    return play_monopoly([make_strategy("cheat", buy=buy), "always"], seed=seed, max_rounds=rounds)


# ---------------------------------------------------------------------------
# Through the view: every change is impossible
# ---------------------------------------------------------------------------


def add_500(game, me, space):
    me.cash += 500  # a strategy adding $500 to itself on each buy decision won 95% of games
    return True


def take_a_lot(game, me, space):
    free = next(s for s in LOT_SPACES if game.lots[s].owner is None and s != space)
    game.lots[free].owner = me.seat
    return True


def hotel_on_incomplete_group(game, me, space):
    game.lots[space].buildings = 5
    return True


def bankrupt_opponent(game, me, space):
    game.player(2).cash = 0
    return True


def swap_opponent_strategy(game, me, space):
    game.players[1].strategy = NeverBuy()
    return True


def rig_opponent_numbers(game, me, space):
    game.players[1].rng.seed(0)
    return True


def read_the_deck(game, me, space):
    return game.decks["Chance"].draw() > 8


def what_if_i_owned_it(game, me, space):
    """The honest question that forgot to undo: it gave a player 26 lots for $0."""
    game.lots[space].owner = me.seat
    return rent_due(game, space, dice=7) > 10


@pytest.mark.parametrize(
    ("buy", "said"),
    [
        (add_500, "OwnView is read-only"),
        (take_a_lot, "LotView is read-only"),
        (hotel_on_incomplete_group, "LotView is read-only"),
        (bankrupt_opponent, "PlayerView is read-only"),
        (swap_opponent_strategy, "PlayerView is read-only"),
        (rig_opponent_numbers, "PlayerView has no 'rng'"),
        (read_the_deck, "GameView has no 'decks': the order of the cards is secret"),
        (what_if_i_owned_it, "to try a change, work on game.copy()"),
    ],
)
def test_an_attack_through_the_view_is_the_cheaters_strategy_error(buy, said):
    with pytest.raises(StrategyError, match="P1 cheat's buy decision raised AttributeError") as e:
        cheat_game(buy)
    assert said in str(e.value)


def test_containers_of_the_view_cannot_be_changed_either():
    def grab(game, me, space):
        me.lots.add(space)

    def remove_lot(game, me, space):
        del game.lots[space]

    def keep_cards(game, me, space):
        me.jail_cards.append(("Chance", 12))

    for buy, error in (
        (grab, "AttributeError"),
        (remove_lot, "TypeError"),
        (keep_cards, "AttributeError"),
    ):
        with pytest.raises(StrategyError, match=f"P1 cheat's buy decision raised {error}"):
            cheat_game(buy)


def test_the_honest_what_if_works_on_a_copy_and_leaves_the_game_alone():
    asked = []

    def what_if(game, me, space):
        trial = game.copy()
        trial.lots[space].owner = me.seat
        asked.append(rent_due(trial, space, dice=7))
        return True

    g = new_game(make_strategy("honest", buy=what_if), dice=TO_BALTIC)
    play(g, 1, start=1)
    assert asked == [4]  # Baltic's rent, unimproved
    assert g.state.lots[4].owner == 1 and g.state.player(1).lots == {4}
    assert g.state.player(1).cash == 1500 - 60  # bought at its price, nothing for free
    g.state.check()


def test_a_deep_copy_of_the_view_is_a_game_of_ones_own_and_a_view_does_not_pickle():
    copies = []

    def what_if(game, me, space):
        trial = copy.deepcopy(game)
        trial.lots[space].owner = me.seat
        trial.player(me.seat).cash += 1000
        copies.append(trial)
        with pytest.raises(TypeError, match="cannot be copied or pickled"):
            pickle.dumps(game.lots[space])
        return False

    result = play_monopoly([make_strategy("honest", buy=what_if), "never"], seed=4, max_rounds=10)
    assert copies and isinstance(copies[0], GameState) and copies[0].decks == {}
    assert result.lots == [0, 0] and result.cash[0] <= 1500 + 10 * 200
    result.state.check()
    assert copy.deepcopy(result.state).round == result.state.round  # its views left behind


# ---------------------------------------------------------------------------
# Around the view (private attributes, gc): the change is caught after the decision
# ---------------------------------------------------------------------------


def real_state(game) -> GameState:
    """What a determined cheater digs out of the view."""
    return next(o for o in gc.get_referents(game) if isinstance(o, GameState))


def private_cash(game, me, space):
    real_state(game).player(me.seat).cash += 500
    return True


def private_lot(game, me, space):
    state = real_state(game)
    free = next(s for s in LOT_SPACES if state.lots[s].owner is None and s != space)
    state.lots[free].owner = me.seat
    state.player(me.seat).lots.add(free)
    return True


def private_hotel(game, me, space):
    state = real_state(game)
    state.lots[space].buildings = 5
    state.bank_hotels -= 1
    return True


def private_bankruptcy(game, me, space):
    real_state(game).player(2).bankrupt_round = 1
    return True


def private_swap(game, me, space):
    real_state(game).player(2).strategy = NeverBuy()
    return True


def private_rigging(game, me, space):
    real_state(game).player(2).rng.random()  # one draw ahead: the opponent's luck is changed
    return True


def private_deck(game, me, space):
    real_state(game).decks["Chance"].held.add(3)
    return True


@pytest.mark.parametrize(
    ("buy", "said"),
    [
        (private_cash, "P1 cheat's cash (1500 -> 2000)"),
        (private_lot, "'s owner (None -> 1)"),
        (private_hotel, "'s buildings (0 -> 5)"),
        (private_bankruptcy, "P2 always's bankruptcy round (None -> 1)"),
        (private_swap, "P2 always's strategy"),
        (private_rigging, "P2 always's random generator"),
        (private_deck, "the Chance deck's held cards"),
    ],
)
def test_a_change_made_around_the_view_is_caught_and_named(buy, said):
    with pytest.raises(GameChanged, match="P1 cheat's buy decision changed the game: ") as e:
        cheat_game(buy)
    assert said in str(e.value)
    assert "A strategy may read the game but not change it" in str(e.value)


def test_every_decision_is_watched_not_only_buy():
    def sneaky_build(game, me):
        real_state(game).player(me.seat).cash += 1
        return None

    sneaky = make_strategy("sneaky", buy=lambda game, me, space: False, build=sneaky_build)
    with pytest.raises(GameChanged, match="P1 sneaky's build decision changed the game"):
        play_monopoly([sneaky, "always"], seed=1, max_rounds=5)


# ---------------------------------------------------------------------------
# What the view shows: what a player at the table may see, live
# ---------------------------------------------------------------------------


def test_a_strategy_reads_everything_a_player_at_the_table_sees():
    seen = []

    def reader(game, me, space):
        assert isinstance(game, GameView) and isinstance(me, OwnView)
        assert me is game.player(me.seat) and all(p is not me for p in game.players[1:])
        assert isinstance(game.player(2), PlayerView) and not isinstance(game.player(2), OwnView)
        seen.append(
            (
                game.round,
                game.turn,
                game.bank_houses,
                game.bank_hotels,
                len(game.ledger),
                [
                    (
                        p.seat,
                        p.name,
                        p.cash,
                        p.token.pos,
                        p.token.in_jail,
                        p.jail_cards,
                        p.in_game,
                        p.strategy_name,
                        sorted(p.lots),
                    )
                    for p in game.players
                ],
                game.lots[space].owner,
                game.owner(space),
                game.group_owners("orange"),
                game.holds_complete_group(2, "orange"),
                game.monopolies(2),
                len(game.unowned()),
                game.name(0),
                game.net_worth(2),
                game.houses_and_hotels(2),
                len(game.table()),
                ownership_state(game, me, space),
                why_not_build(game, me.seat, 19),
                rent_due(game, 19, dice=7),
                game.in_game[0].seat,
            )
        )
        return me.rng.random() < 0.5  # its own generator

    play_monopoly(
        [make_strategy("reader", buy=reader), "always", "heuristic"], seed=2, max_rounds=40
    )
    assert len(seen) > 5
    assert seen[0][5][0][:2] == (1, "P1 reader") and seen[0][12] == "the bank"


def test_the_view_is_live_and_hides_the_decks_and_the_others_generators():
    g = new_game(passive(buy=True), passive(), dice=TO_BALTIC)
    view = g.state.view(1)
    assert view.lots[4].owner is None
    play(g, 1, start=1)
    assert view.lots[4].owner == 1 and view.player(1).lots == frozenset({4})
    assert view.player(1).cash == g.state.player(1).cash == 1440
    assert view.player(1).rng is g.state.player(1).rng  # its own, the very generator
    assert view.player(1).strategy is g.state.player(1).strategy
    for hidden in ("rng", "strategy"):
        with pytest.raises(AttributeError, match=f"PlayerView has no {hidden!r}"):
            getattr(view.player(2), hidden)
    with pytest.raises(AttributeError, match="GameView has no 'decks'"):
        view.decks  # noqa: B018
    with pytest.raises(AttributeError, match="GameView has no 'transfer'"):
        view.transfer(1, 0, 100, "cheat")
    assert g.state.view(2).player(2).rng is g.state.player(2).rng


def test_a_players_own_generator_draws_as_before():
    """The same seeds, the same games: these finishes were played before the view existed."""
    from monopoly_lesson.game.state import LOT_SPACES as SPACES

    def drawing_buy(game, me, space):
        return me.rng.random() < 0.6

    def drawing_bid(game, me, space):
        return me.rng.randint(0, min(me.cash, 300))

    def drawing_build(game, me):
        allowed = [s for s in SPACES if why_not_build(game, me.seat, s) is None]
        return me.rng.choice(allowed) if allowed and me.rng.random() < 0.5 else None

    drawer = make_strategy("drawer", buy=drawing_buy, bid=drawing_bid, build=drawing_build)
    played = {
        seed: play_monopoly([drawer, "random:0.5", "rga", "heuristic"], seed=seed)
        for seed in (3, 11)
    }
    assert [(r.finish_order, len(r.state.ledger), r.net_worth) for r in played.values()] == [
        ([1, 2, 4, 3], 414, [12696, 2544, 0, 1005]),
        ([2, 4, 1, 3], 430, [5100, 6195, 4004, 5523]),
    ]


def test_only_decisions_running_other_code_than_the_packages_are_watched():
    from monopoly_lesson.game.chromosomes import RGA
    from monopoly_lesson.game.plugins import as_strategy, watched_decisions
    from monopoly_lesson.game.strategies import Heuristic

    assert watched_decisions(as_strategy("always")) == frozenset()
    assert watched_decisions(RGA.random(seed=1)) == frozenset()
    mine = make_strategy("mine", buy=lambda game, me, space: True)
    assert watched_decisions(mine) == {"buy", "bid"}  # the default bid asks its buy
    tuned = Heuristic()
    tuned.rules = (lambda game, me, space: True,)  # the student's code in a built-in
    assert watched_decisions(tuned) == {"buy", "bid", "leave_jail"}


# ---------------------------------------------------------------------------
# The checker's grading: a cheating strategy fails with its StrategyError there too
# ---------------------------------------------------------------------------


def checked(strategy, games=2):
    """The chapter-9 check of ``strategy``: recorded as a kernel would, replayed here."""
    setups = capstone_games(games, seed=5)
    records = read_strategy_games(json.loads(json.dumps(play_recorded(strategy, setups))), setups)
    report = StrategyReport("mine", "mine", 5, len(setups))
    for setup, record in zip(setups, records, strict=True):
        report.add(setup, replay_game(setup, record, "mine"))
        if report.failure:
            break
    return report


@pytest.mark.parametrize(
    ("buy", "said"),
    [
        (add_500, "mine's buy decision raised AttributeError: OwnView is read-only"),
        (private_cash, "mine's buy decision changed the game: P"),
    ],
)
def test_the_checker_reports_a_cheating_strategy_as_its_strategy_error(buy, said):
    report = checked(make_strategy("mine", buy=buy))
    assert not report.passed
    assert said in report.failure
    assert "the answers the graded process reported are not" not in report.failure


def test_a_game_stopped_by_a_cheater_is_left_unchanged_and_readable():
    g = MonopolyGame([make_strategy("cheat", buy=add_500), "always"], seed=1, max_rounds=30)
    with pytest.raises(StrategyError):
        g.play()
    g.state.check()  # nothing was changed
    assert all(p.cash >= 0 for p in g.state.players)
