"""The fast engine on the games random play seldom reaches, compared round by round.

``make compiled-coverage`` (``tools/compiled_coverage.py``) plays the equality games of
``tests/test_fast_game.py`` with numba's JIT disabled, under coverage, and requires every
line of the compiled money rules (``monopoly_lesson/game/fast_loop.py``) to run; it runs
this file too. The games below reach the rules those random games miss or reach only by
chance (a creditor who cannot pay the 10% on the mortgaged lots it takes, Grand Opera
Night ruining its collector, a hotel sold whole, ...): each is a stream seed with its
players, found by ``tools/compiled_coverage.py --search``, one with a roll and a card put
in by hand. The reference engine must reach the rule in each, and both engines must
agree after every round. Then the per-rule scenarios of ``tests/test_game_rules.py``
that start on Go, played from the first turn of a game on both engines, and streams too
short for a game, which both engines report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest
from test_fast_game import compiled_snapshot, reference_rounds
from test_game_rules import TO_BALTIC, TO_CHANCE_8, TO_INCOME_TAX

from monopoly_lesson.game import fast_loop as loop
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.fast import fast_games, strategy_codes
from monopoly_lesson.game.state import HOTEL, LOT_SPACES
from monopoly_lesson.game.strategies import StrategyError
from monopoly_lesson.game.streams import GameStreams, StreamExhausted

CHANCE, CHEST = 0, 1  # deck numbers in GameStreams.shuffles
WATCHED_CARDS = {
    ("Chance", 15): "chairman",
    ("Community Chest", 7): "opera",
    ("Chance", 13): "repairs",
    ("Community Chest", 14): "repairs",
}
"""The cards whose rare outcomes a game is watched for."""
JUST_VISITING = [4, 6]  # from Go: 1 + 10 = Just Visiting (11), where nothing happens


# ---------------------------------------------------------------------------
# Both engines on one game, and the first thing they disagree on
# ---------------------------------------------------------------------------


def disagreement(strategies: list, streams: GameStreams, max_rounds: int = 100) -> str | None:
    """What the two engines first disagree on in this game, in words, or None: every
    player's cash and every lot after each round, then the finish, net worths and rounds,
    the bank's houses and hotels, the cards held and the bankruptcies at the end."""
    expected, result = reference_rounds(strategies, streams, max_rounds)
    players = len(strategies)
    out = fast_games(
        strategy_codes(strategies),
        np.arange(players)[None],
        streams=[streams],
        max_rounds=max_rounds,
        trace=True,
    )
    return first_difference(out, 0, expected, result)


SNAPSHOT_SLOTS = ("cash of seat", "owner of space", "mortgage on space", "buildings on space")
"""What each part of test_fast_game.snapshot holds, per seat or per lot."""


def first_difference(out: dict, k: int, expected: list, result) -> str | None:
    """The first difference between compiled game ``k`` of ``out`` (played with
    ``trace=True``) and the reference engine's rounds ``expected`` and ``result``."""
    players = len(result.names)
    for rnd, want in enumerate(expected, start=1):
        got = compiled_snapshot(out["trace"][k, rnd - 1], players)
        for slot, got_values, want_values in zip(SNAPSHOT_SLOTS, got, want, strict=True):
            for i, (a, b) in enumerate(zip(got_values, want_values, strict=True)):
                if a != b:
                    where = i + 1 if slot == "cash of seat" else LOT_SPACES[i]
                    return f"round {rnd}: {slot} {where}: reference {b}, compiled {a}"
    last = out["trace"][k, len(expected) - 1]
    finish = [result.finish_order.index(seat) + 1 for seat in range(1, players + 1)]
    state = result.state
    ends = [
        ("places", finish, out["finish"][k].tolist()),
        ("net worths", result.net_worth, out["net_worth"][k].tolist()),
        ("rounds", result.rounds, int(out["rounds"][k])),
        (
            "bank's houses and hotels",
            [state.bank_houses, state.bank_hotels],
            [int(last[loop.HOUSES_LEFT]), int(last[loop.HOTELS_LEFT])],
        ),
        (
            "cards held",
            [len(p.jail_cards) for p in state.players],
            last[loop.NCARDS : loop.NCARDS + players].tolist(),
        ),
        (
            "bankruptcies (seat, round)",
            [(seat, rnd) for seat, rnd, _ in state.bankruptcies],
            [
                (int(p), int(last[loop.BROUND + p - 1]))
                for p in last[loop.GONE : loop.GONE + last[loop.NGONE]]
            ],
        ),
    ]
    for what, want, got in ends:
        if got != want:
            return f"at the end: {what}: reference {want}, compiled {got}"
    return None


# ---------------------------------------------------------------------------
# The rare situations, as the reference engine's hooks see them
# ---------------------------------------------------------------------------


class Watched(MonopolyGame):
    """The reference engine, noting in ``seen`` the rare situations of its turns."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seen: set[str] = set()

    def landed(self, seat, card) -> None:
        lot = self.state.lots.get(seat.player.pos)
        unowned = lot is not None and lot.owner is None
        self._watch(super().landed, seat, card)
        if unowned and lot.owner is None:
            self.seen.add("an auction nobody bids in")

    def card_drawn(self, seat, deck, number) -> None:
        me, kind = self.mover, WATCHED_CARDS.get((deck.name, number))
        hotels = self.state.houses_and_hotels(me.seat)[1]
        gone = len(self.state.bankruptcies)
        try:
            self._watch(super().card_drawn, seat, deck, number)
        finally:  # a bankrupt mover's turn ends with an exception
            to_me = [b for b in self.state.bankruptcies[gone:] if b[2] == me.seat]
            if kind == "repairs" and hotels:
                self.seen.add("repairs with hotels")
            elif kind == "chairman" and not me.in_game:
                self.seen.add("Chairman of the Board bankrupts the mover")
            elif kind == "opera" and to_me:
                self.seen.add("Grand Opera Night: a player cannot pay")
                if not me.in_game:
                    self.seen.add("Grand Opera Night: the collector goes bankrupt")

    def pay_to_leave_jail(self, seat) -> None:
        self._watch(super().pay_to_leave_jail, seat)

    def leave_jail_now(self, seat) -> bool:
        return self._watch(super().leave_jail_now, seat)

    def _watch(self, hook, *args):
        """Call ``hook``, noting what its debts and bankruptcies did."""
        state = self.state
        buildings = {space: lot.buildings for space, lot in state.lots.items()}
        held = {p.seat: (bool(p.jail_cards), bool(p.lots)) for p in state.players}
        used_up = [d for d in state.decks.values() if d.held and not d.to_deal]
        sizes = [len(d.held) for d in used_up]
        gone = len(state.bankruptcies)
        try:
            return hook(*args)
        finally:
            if any(b == HOTEL and not state.lots[s].buildings for s, b in buildings.items()):
                self.seen.add("a hotel sold whole, the bank short of houses")
            if any(len(d.held) < n for d, n in zip(used_up, sizes, strict=True)):
                self.seen.add("a card put back into a used-up deck")
            new = state.bankruptcies[gone:]
            for k, (seat, _, creditor) in enumerate(new):
                cards, lots = held[seat]
                later = new[k + 1] if k + 1 < len(new) else None
                if creditor and later and later[0] == creditor and later[2] == 0:
                    self.seen.add("a creditor cannot pay the 10% on the lots it takes")
                if creditor and cards:
                    self.seen.add("a bankrupt's cards go to its creditor")
                if not creditor and cards and lots:
                    self.seen.add("a bankrupt's cards and lots go back to the bank")


def situations(strategies: list, streams: GameStreams) -> set[str]:
    """The rare situations the reference engine runs into in this game."""
    game = Watched(strategies, streams=streams)
    game.play()
    return game.seen


@dataclass(frozen=True)
class Crafted:
    """A game that reaches ``rule``: the streams of ``seed``, with ``faces`` (index: the
    two faces of a roll) and ``cards`` ((deck, shuffle, card, other): the two cards
    change places in that shuffle) put in by hand."""

    rule: str
    seed: int
    strategies: tuple[str, ...]
    faces: dict[int, tuple[int, int]] = field(default_factory=dict)
    cards: tuple[tuple[int, int, int, int], ...] = ()

    def streams(self) -> GameStreams:
        drawn = GameStreams.draw(self.seed, len(self.strategies))
        faces, decks = drawn.faces.copy(), [deck.copy() for deck in drawn.shuffles]
        for at, roll in self.faces.items():
            faces[at : at + 2] = roll
        for deck, row, card, other in self.cards:
            perm = decks[deck][row]
            i, j = np.flatnonzero(perm == card)[0], np.flatnonzero(perm == other)[0]
            perm[i], perm[j] = other, card
        return GameStreams(faces, (decks[0], decks[1]), drawn.uniforms)


# The first seeds ``tools/compiled_coverage.py --search 0 10000`` finds for each rule, and
# one game no seed of 30,000 reached, made from seed 2137: in round 40, P1 rolls 1 + 4
# from Electric Company to Community Chest (18), whose next card is made Grand Opera
# Night; P2 cannot pay and is bankrupt to P1, which cannot pay the 10% on P2's mortgaged
# lots and is bankrupt to the bank.
H, N, R5, R7, R9 = "heuristic", "never", "random:0.5", "random:0.7", "random:0.9"
CRAFTED = [
    Crafted("an auction nobody bids in", 4, (N, R9, N, R9, R5)),
    Crafted("a hotel sold whole, the bank short of houses", 31, (R9, N, H)),
    Crafted("repairs with hotels", 1, (R9, H, "always", N, "always", N, "always", R5)),
    Crafted("a card put back into a used-up deck", 9, (R9, N, H, R5, R9, H, "always", "always")),
    Crafted("a bankrupt's cards go to its creditor", 0, (R9, R9, H, R5, R9, H, N, "always")),
    Crafted("a bankrupt's cards and lots go back to the bank", 527, (H, "always", N, H, H, R5)),
    Crafted("Chairman of the Board bankrupts the mover", 355, (R5, H, N, "always", N, H, H)),
    Crafted("Grand Opera Night: a player cannot pay", 218, (N, N, R5, R5)),
    Crafted("a creditor cannot pay the 10% on the lots it takes", 9528, (R9, H, R9, H, N, H)),
    Crafted(
        "Grand Opera Night: the collector goes bankrupt",
        2137,
        (R7, "always", R9, R9, R7),
        faces={440: (1, 4)},
        cards=((CHEST, 1, 7, 3),),
    ),
]


@pytest.mark.parametrize("case", CRAFTED, ids=lambda case: case.rule)
def test_both_engines_play_a_game_that_reaches(case):
    streams = case.streams()
    assert case.rule in situations(list(case.strategies), streams)
    assert disagreement(list(case.strategies), streams) is None


def test_a_disagreement_is_told_in_words():
    """One die face changed for the fast engine only: the round and slot are named."""
    strategies = ["always", "always"]
    streams = GameStreams.draw(5, 2)
    faces = streams.faces.copy()
    faces[0] = faces[0] % 6 + 1
    changed = GameStreams(faces, streams.shuffles, streams.uniforms)
    expected, result = reference_rounds(strategies, streams, 100)
    out = fast_games(strategy_codes(strategies), [[0, 1]], streams=[changed], trace=True)
    assert first_difference(out, 0, expected, result).startswith("round 1: ")


def test_the_finish_order_s_keys_never_tie():
    """Keys end with the seat, so two players' keys always differ; equal keys would not
    sort before each other (the one line of the compiled loop no game can reach)."""
    key, next_seat = np.array([-1500, 0, -2, 3]), np.array([-1500, 0, -2, 4])
    assert not loop.less(key, key.copy())
    assert loop.less(key, next_seat) and not loop.less(next_seat, key)


# ---------------------------------------------------------------------------
# test_game_rules.py's scenarios that the fast engine can play
# ---------------------------------------------------------------------------

# The scenarios that start on Go with seat 1 to move and nothing set by hand, their
# passive players as "never" (and those that buy as "always"): the test, the players,
# P1's roll, Chance's first cards, and every player's cash after P1's turn. The other
# players then roll from Go to Just Visiting, where nothing happens.
FROM_GO = [
    ("buying_pays_the_price_to_the_bank", ["always", "never"], TO_BALTIC, [], [1440, 1500]),
    ("a_lone_bidder_pays_one_dollar", ["never", "always"], TO_BALTIC, [], [1500, 1499]),
    ("with_no_bid_the_lot_stays_with_the_bank", ["never", "never"], TO_BALTIC, [], [1500, 1500]),
    (
        "an_unowned_utility_reached_by_a_card_may_be_bought",
        ["always", "never"],
        TO_CHANCE_8,
        [4],
        [1350, 1500],
    ),
    ("go_salary_by_an_advance_to_go_card", ["never", "never"], TO_CHANCE_8, [1], [1700, 1500]),
    (
        "go_salary_by_an_advance_card_only_when_it_passes_go[Illinois]",
        ["never", "never"],
        TO_CHANCE_8,
        [2],
        [1500, 1500],
    ),
    (
        "go_salary_by_an_advance_card_only_when_it_passes_go[St. Charles]",
        ["never", "never"],
        TO_CHANCE_8,
        [3],
        [1500, 1500],
    ),
    ("go_back_3_spaces_never_pays_the_salary", ["never", "never"], TO_CHANCE_8, [10], [1300, 1500]),
    ("taxes_and_free_parking[Income Tax]", ["never", "never"], TO_INCOME_TAX, [], [1300, 1500]),
    (
        "a_drawn_get_out_of_jail_free_card_is_kept_out_of_its_deck",
        ["never", "never"],
        TO_CHANCE_8,
        [12],
        [1500, 1500],
    ),
    *[
        (f"chance_money_cards[{card}]", ["never"] * 3, TO_CHANCE_8, [card], money)
        for card, money in [
            (11, [1550, 1500, 1500]),
            (13, [1500, 1500, 1500]),
            (14, [1485, 1500, 1500]),
            (15, [1400, 1550, 1550]),
            (16, [1650, 1500, 1500]),
        ]
    ],
]


def first_turn_streams(players: int, roll: list[int], chance: list[int]) -> GameStreams:
    """Streams whose first roll is ``roll``, then each other player's from Go to Just
    Visiting, and whose Chance deck deals ``chance`` first."""
    drawn = GameStreams.draw(0, players)
    faces = drawn.faces.copy()
    start = [*roll, *JUST_VISITING * (players - 1)]
    faces[: len(start)] = start
    decks = [deck.copy() for deck in drawn.shuffles]
    rest = [card for card in decks[CHANCE][0] if card not in chance]
    decks[CHANCE][0] = [*rest, *reversed(chance)]  # the next card is dealt from the end
    return GameStreams(faces, (decks[0], decks[1]), drawn.uniforms)


@pytest.mark.parametrize(
    ("test", "strategies", "roll", "chance", "money"), FROM_GO, ids=[case[0] for case in FROM_GO]
)
def test_the_rules_scenarios_from_go_on_both_engines(test, strategies, roll, chance, money):
    streams = first_turn_streams(len(strategies), roll, chance)
    assert disagreement(strategies, streams, max_rounds=1) is None
    out = fast_games(
        strategy_codes(strategies),
        np.arange(len(strategies))[None],
        streams=[streams],
        max_rounds=1,
    )
    assert out["cash"][0].tolist() == money


# ---------------------------------------------------------------------------
# Streams too short for the game
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["rolls", "shuffles", "uniforms"])
def test_streams_too_short_for_the_game_are_reported_by_both_engines(kind):
    """One shuffle of each deck, 20 rolls or 5 decision draws a player: both engines say
    the streams ran out (the reference engine through the decision that drew too many)."""
    strategies = ["random:0.5", "always"]  # random:P draws a uniform for each decision
    streams = GameStreams.draw(1, 2, **{kind: {"rolls": 20, "shuffles": 1, "uniforms": 5}[kind]})
    with pytest.raises((StreamExhausted, StrategyError)) as error:
        MonopolyGame(strategies, streams=streams).play()
    assert StreamExhausted in (type(error.value), type(error.value.__cause__))
    with pytest.raises(StreamExhausted):
        fast_games(strategy_codes(strategies), [[0, 1]], streams=[streams])
