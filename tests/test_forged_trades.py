"""Trades nobody can forge: the game carries out exactly the trade it checked.

A proposal becomes, at the boundary, a new plain Trade of the game's own, built from each of
its fields read once (plain ints, tuples of plain ints); the partner is shown a copy, and
the game makes and records its own value. Each attack below changed the trade made, or the
record, before: a partner rewriting its frozen offer with ``object.__setattr__``, a Trade
subclass whose terms change as they are read, numbers and containers that lie, a list
changed after proposing, a record rewritten. Now the game makes the checked trade, and a
rewritten record is caught as the cheater's GameChanged, which ends the game as failed.
"""

from __future__ import annotations

import gc

import pytest
from game_scenarios import give, new_game, passive, play, player
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_game_invariants import Chaotic

from monopoly_lesson import Trade, make_strategy
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.state import LOT_SPACES, GameState
from monopoly_lesson.game.strategies import GameChanged, StrategyError

QUIET = [1, 3]  # from 17: Free Parking, where nothing happens; then the trading step
SWAP = Trade(partner=2, give=(2,), take=(10,), cash=60)
"""The completion swap of the scenario: Mediterranean and $60 for Connecticut."""


def swap_game(*strategies, dice=QUIET):
    """Seat 1 holds Oriental (7), Vermont (9) and Mediterranean (2); seat 2 Connecticut (10)
    and Baltic (4); seat 3 Electric Company (12). The swap of 2 and $60 for 10 completes
    light blue for seat 1 and brown for seat 2."""
    g = new_game(*strategies, players=3, dice=dice, trading=True)
    give(g, 1, 2, 7, 9)
    give(g, 2, 4, 10)
    give(g, 3, 12)
    return g


def proposing(*trades, name="proposer", **decisions):
    """A strategy that proposes ``trades`` in turn, then nothing."""
    pending = iter(trades)
    return passive(name=name, propose_trade=lambda game, me: next(pending, None), **decisions)


def assert_the_swap_was_made(g):
    """The checked swap, and nothing else: cash, lots, the record, and every invariant."""
    assert [player(g, s).cash for s in (1, 2, 3)] == [1440, 1560, 1500]
    assert [player(g, s).lots for s in (1, 2, 3)] == [{7, 9, 10}, {2, 4}, {12}]
    (record,) = g.state.proposals
    assert record.trade == SWAP and record.accepted and record.trade.proposer == 1
    assert type(record.trade) is Trade
    assert all(
        type(v) is int
        for v in (record.trade.partner, record.trade.cash, *record.trade.give, *record.trade.take)
    )
    g.state.check()


def real_state(game) -> GameState:
    """What a determined cheater digs out of its view of the game."""
    return next(o for o in gc.get_referents(game) if isinstance(o, GameState))


# ---------------------------------------------------------------------------
# The partner: it is shown a copy, and rewriting it changes nothing
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "forged"),
    [
        ("cash", lambda game, offer: game.player(offer.proposer).cash),  # all it has
        ("cash", lambda game, offer: 10**6),  # more than it has
        ("give", lambda game, offer: (2, 7, 9)),  # lots it was never offered
        ("give", lambda game, offer: (2, 12)),  # a third player's lot
        ("take", lambda game, offer: ()),  # gives nothing back
        ("partner", lambda game, offer: 3),
        ("proposer", lambda game, offer: 3),
    ],
)
def test_a_partner_rewriting_its_offer_changes_nothing_the_game_makes(field, forged):
    seen = []

    def accept(game, me, offer):
        object.__setattr__(offer, field, forged(game, offer))  # frozen, but not to this
        seen.append(offer)
        return True

    g = swap_game(passive(), passive(name="forger", accept_trade=accept))
    play(g, 1, start=17)
    assert_the_swap_was_made(g)
    assert g.state.proposals[0].trade is not seen[0]  # the partner had a copy


def test_the_reproduction_of_the_forged_offer_plays_as_the_honest_partner_does():
    """A partner taking the proposer's whole cash, against three always-buyers: each game
    is the honest partner's game, to the last payment."""
    forger = make_strategy(
        "partner",
        buy=lambda g, m, space: True,
        accept_trade=lambda g, m, o: (
            object.__setattr__(o, "cash", g.player(o.proposer).cash),
            True,
        )[1],
    )
    honest = make_strategy(
        "partner", buy=lambda g, m, space: True, accept_trade=lambda g, m, o: True
    )
    traded = 0
    for seed in range(8):
        games = []
        for partner in (forger, honest):
            strategies = ["always"] * 4
            strategies[seed % 4] = partner
            g = MonopolyGame(strategies, seed=seed, trading=True, max_rounds=60)
            while not g.over:
                g.play_turn()
                g.state.check()
            games.append(g)
        forged, fair = games
        assert forged.state.ledger == fair.state.ledger
        assert forged.state.proposals == fair.state.proposals
        assert forged.result().finish_order == fair.result().finish_order
        traded += sum(p.accepted and p.trade.partner == seed % 4 + 1 for p in fair.state.proposals)
    assert traded > 0  # the forger was offered trades to forge


# ---------------------------------------------------------------------------
# The proposer: each field read once, made plain, and checked
# ---------------------------------------------------------------------------


class Shifty(Trade):
    """A Trade whose every term is honest on its first read and forged on each later one."""

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        forged = {"partner": 3, "give": (2, 7, 9), "take": (10, 4), "cash": -1500}
        if name in forged:
            reads = object.__getattribute__(self, "__dict__").setdefault("reads", set())
            if name in reads:
                return forged[name]
            reads.add(name)
        return value


class Liar(int):
    """A whole number that says it equals everything and turns into 99."""

    def __eq__(self, other):
        return True

    __hash__ = int.__hash__

    def __int__(self):
        return 99

    def __index__(self):
        return 99


class OddTuple(tuple):
    """A tuple whose iteration yields other lots than it holds."""

    def __iter__(self):
        return iter((2, 7, 9))

    def __len__(self):
        return 3


class OddList(list):
    """A list whose iteration yields other lots than it holds, differently each time."""

    def __iter__(self):
        self.append(7)
        return list.__iter__(self[::-1])


@pytest.mark.parametrize(
    "proposal",
    [
        Shifty(partner=2, give=(2,), take=(10,), cash=60),
        Trade(partner=Liar(2), give=(Liar(2),), take=(Liar(10),), cash=Liar(60)),
        Trade(partner=2, give=OddTuple((2,)), take=(10,), cash=60),
        Trade(partner=2, give=OddList([2]), take=[10], cash=60),
    ],
    ids=["terms-changing-as-read", "lying-numbers", "lying-tuple", "lying-list"],
)
def test_the_game_reads_a_proposal_once_and_makes_its_own_plain_trade(proposal):
    g = swap_game(proposing(proposal), passive(name="accepter", accept_trade=lambda *a: True))
    play(g, 1, start=17)
    assert_the_swap_was_made(g)


def test_a_list_changed_after_proposing_changes_nothing():
    given_lots = [2]

    def accept(game, me, offer):
        given_lots.extend([7, 9])  # the proposer's list, changed before the trade is made
        return True

    g = swap_game(
        proposing(Trade(partner=2, give=given_lots, take=(10,), cash=60)),
        passive(name="accepter", accept_trade=accept),
    )
    play(g, 1, start=17)
    assert_the_swap_was_made(g)


def test_a_proposal_whose_terms_cannot_be_read_is_the_proposers_error():
    class Broken(Trade):
        @property
        def cash(self):
            raise KeyError("no cash")

        @cash.setter
        def cash(self, value):
            pass

    g = swap_game(proposing(Broken(partner=2, give=(2,))), passive())
    with pytest.raises(
        StrategyError,
        match="propose_trade decision returned a Trade whose terms cannot be read \\(KeyError",
    ):
        play(g, 1, start=17)


# ---------------------------------------------------------------------------
# The record: copies for everyone, and a rewrite around the view is caught
# ---------------------------------------------------------------------------


def rewriting_answers(rewrite):
    """A partner that accepts the first offer and, asked again, applies ``rewrite`` to the
    game and the first recorded proposal, then refuses."""
    asked = []

    def accept(game, me, offer):
        asked.append(offer)
        if len(asked) > 1:
            rewrite(game)
        return len(asked) == 1

    return passive(name="rewriter", accept_trade=accept)


SECOND = Trade(partner=2, take=(4,), cash=10)  # legal after the swap: seat 2 still has 4


def test_a_recorded_proposal_read_through_the_view_is_a_copy():
    def through_the_view(game):
        record = game.proposals[0]
        object.__setattr__(record.trade, "cash", 0)
        object.__setattr__(record, "accepted", False)

    g = swap_game(proposing(SWAP, SECOND), rewriting_answers(through_the_view))
    play(g, 1, start=17)
    assert g.state.proposals[0].trade == SWAP and g.state.proposals[0].accepted
    assert g.state.proposals[1].trade == SECOND and not g.state.proposals[1].accepted
    g.state.check()


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda state: object.__setattr__(state.proposals[0].trade, "cash", 0),
        lambda state: object.__setattr__(state.proposals[0], "trade", Trade(2, (2,), (10,))),
        lambda state: object.__setattr__(state.proposals[0], "accepted", False),
        lambda state: state.proposals.pop(0),
    ],
    ids=["cash", "trade", "answer", "removed"],
)
def test_a_recorded_proposal_rewritten_around_the_view_is_caught(rewrite):
    g = swap_game(
        proposing(SWAP, SECOND), rewriting_answers(lambda game: rewrite(real_state(game)))
    )
    with pytest.raises(
        GameChanged,
        match="P2 rewriter's accept_trade decision changed the game: the game's trade proposals",
    ):
        play(g, 1, start=17)


# ---------------------------------------------------------------------------
# A caught cheat ends the game as failed
# ---------------------------------------------------------------------------


def test_a_caught_cheat_ends_the_game_and_every_later_call_raises_it_again():
    def steal(game, me, space):
        real_state(game).player(me.seat).cash += 1000
        return True

    g = MonopolyGame([make_strategy("thief", buy=steal), "always"], seed=1, max_rounds=30)
    with pytest.raises(GameChanged) as first:
        g.play()
    turns = list(g.turns)
    for again in (g.play, g.play_turn, g.result, g.play):
        with pytest.raises(GameChanged) as later:
            again()
        assert str(later.value) == str(first.value)
    assert g.turns == turns and not g.over  # nothing played on with the stolen cash


def test_an_honest_strategy_error_does_not_end_the_game():
    """Only a caught cheat ends the game: a game stopped by another strategy error (an
    illegal proposal, say) is left as it was, to read."""
    g = swap_game(proposing(Trade(partner=2, give=(4,))), passive())
    with pytest.raises(StrategyError) as raised:
        play(g, 1, start=17)
    assert not isinstance(raised.value, GameChanged) and g.failed is None


# ---------------------------------------------------------------------------
# Hostile games: every invariant after every turn
# ---------------------------------------------------------------------------


class Forger(Chaotic):
    """Chaotic play, plus every trick of forging: offers rewritten, proposals that lie as
    they are read, lists changed after proposing, records rewritten through the view, and
    now and then one rewritten around it (which must be caught)."""

    name = "forger"

    def __init__(self, around: float = 0.0) -> None:
        super().__init__(illegal=0)
        self.around = around  # the chance that an answer rewrites a record around the view
        self.lists: list[list] = []

    def propose_trade(self, game, me):
        for lots in self.lists:  # lists proposed before, changed now
            lots.extend(me.rng.sample(LOT_SPACES, 2))
        trade = super().propose_trade(game, me)
        if trade is None:
            return None
        how = me.rng.randrange(4)
        if how == 0:
            return Shifty(trade.partner, trade.give, trade.take, trade.cash)
        if how == 1:
            return Trade(
                Liar(trade.partner), tuple(map(Liar, trade.give)), trade.take, Liar(trade.cash)
            )
        if how == 2:
            self.lists.append(list(trade.give))
            return Trade(trade.partner, self.lists[-1], OddTuple(trade.take), trade.cash)
        return trade

    def accept_trade(self, game, me, offer):
        field = me.rng.choice(["cash", "give", "take", "partner", "proposer"])
        forged = {
            "cash": game.player(offer.proposer).cash * me.rng.choice([1, -1, 1000]),
            "give": tuple(me.rng.sample(LOT_SPACES, 3)),
            "take": (),
            "partner": me.rng.randint(1, 8),
            "proposer": me.seat,
        }
        object.__setattr__(offer, field, forged[field])
        for record in game.proposals:
            object.__setattr__(record.trade, "cash", 10**6)
        if game.proposals and me.rng.random() < self.around:
            object.__setattr__(real_state(game).proposals[-1].trade, "cash", 10**6)
        return me.rng.random() < 0.7


PLAYERS = st.sampled_from(["forger", "always", "heuristic", "chaotic"])


@pytest.mark.filterwarnings("ignore:strategy 'forger' has its own propose_trade")
@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    players=st.lists(PLAYERS, min_size=2, max_size=6),
    seed=st.integers(0, 2**32),
    around=st.sampled_from([0.0, 0.05]),
)
# found by this test: a hotel on yellow sold whole, then a house on the lot it cleared
@example(["always", "heuristic", "forger", "forger", "chaotic", "chaotic"], 71, 0.0)
def test_hostile_games_keep_every_invariant_after_every_turn(players, seed, around):
    strategies = [
        Forger(around) if p == "forger" else Chaotic(illegal=0) if p == "chaotic" else p
        for p in players
    ]
    g = MonopolyGame(strategies, seed=seed, max_rounds=40, trading=True)
    while not g.over:
        try:
            g.play_turn()
        except GameChanged as cheat:  # a record rewritten around the view: caught, and final
            assert around and "the game's trade proposals" in str(cheat)
            with pytest.raises(GameChanged, match="trade proposals"):
                g.play_turn()
            return
        g.state.check()
        assert all(p.cash >= 0 for p in g.state.players)
    # every accepted trade moved exactly the cash recorded, between the recorded seats
    paid = [(p.payer, p.payee, p.amount) for p in g.state.ledger if p.reason == "trade"]
    recorded = [
        (p.proposer, p.trade.partner, p.trade.cash)
        if p.trade.cash > 0
        else (p.trade.partner, p.proposer, -p.trade.cash)
        for p in g.state.proposals
        if p.accepted and p.trade.cash
    ]
    assert paid == recorded
