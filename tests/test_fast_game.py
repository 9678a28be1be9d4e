"""The fast whole-game engine plays exactly the reference engine's games.

Both engines are fed identical pre-drawn random streams (die faces, deck shuffles and
every decision's uniform number, :class:`GameStreams`), and must then agree on every
player's cash and every lot's owner, mortgage and buildings after every round, and on
the finish order, net worths and rounds: 1,000 games with mixed strategies and 2 to 8
players. Statistical agreement alone would not catch a rule applied in a different order.
"""

from __future__ import annotations

import numpy as np
import pytest

from monopoly_lesson.game import fast_loop as loop
from monopoly_lesson.game.chromosomes import BGA, EGA, RGA, SGA, TGA
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.fast import fast_games, state_vector, strategy_codes
from monopoly_lesson.game.state import LOT_SPACES
from monopoly_lesson.game.strategies import Passive
from monopoly_lesson.game.streams import GameStreams, StreamExhausted

GAMES = 1000
CHUNK = 100


POOL = 16


def pool(seed):
    """Every kind of built-in strategy, chromosome players with genes from ``seed``."""
    return [
        "always",
        "never",
        "random:0.3",
        "random:0.8",
        "heuristic",
        "heuristic",
        RGA.random(seed),
        TGA.random(seed + 1),
        SGA.random(seed + 2),
        RGA.random(seed + 3),
        EGA.random(seed + 4),
        EGA.random(seed + 5),
        "dealer",
        "dealer",
        BGA.random(seed + 6),
        BGA.random(seed + 7),
    ]


def seating(game):
    """Game ``game``'s players: 2 to 8 members of the pool, chosen from its number."""
    rng = np.random.default_rng(game)
    players = int(rng.integers(2, 9))
    return rng.integers(0, POOL, size=players)


def reference_rounds(strategies, streams, max_rounds, trading=False):
    """Play the reference engine; the state after every round, and the final result."""
    game = MonopolyGame(strategies, streams=streams, max_rounds=max_rounds, trading=trading)
    return rounds_from(game)


def snapshot(state):
    """Cash per seat; owner (its seat, or 0: the bank), mortgaged and buildings per lot."""
    lots = [state.lots[s] for s in LOT_SPACES]
    return (
        [p.cash for p in state.players],
        [lot.owner or 0 for lot in lots],
        [int(lot.mortgaged) for lot in lots],
        [lot.buildings for lot in lots],
    )


def compiled_snapshot(row, players):
    spaces = np.array(LOT_SPACES)
    return (
        row[loop.CASH : loop.CASH + players].tolist(),
        row[loop.OWNER + spaces].tolist(),
        row[loop.MORT + spaces].tolist(),
        row[loop.BLD + spaces].tolist(),
    )


def compare_chunk(first, max_rounds=100, trading=False, traded=None):
    """The games of the chunk from ``first`` that the engines play otherwise; ``traded``
    (a list) gets the number of trades each game made."""
    members = pool(first)
    codes = strategy_codes(members)
    mismatches = []
    for players in range(2, 9):
        games = [g for g in range(first, first + CHUNK) if len(seating(g)) == players]
        if not games:
            continue
        who = np.array([seating(g) for g in games])
        streams = [GameStreams.draw(g, players) for g in games]
        out = fast_games(
            codes, who, streams=streams, max_rounds=max_rounds, trace=True, trading=trading
        )
        for k, g in enumerate(games):
            strategies = [members[i] for i in who[k]]
            streams = GameStreams.draw(g, players)
            expected, result = reference_rounds(strategies, streams, max_rounds, trading)
            if not same_game(out, k, expected, result):
                mismatches.append(g)
        if traded is not None:
            traded += out["trades"].tolist()
    return mismatches


def same_game(out, k, expected, result):
    """Whether compiled game ``k`` matches the reference's rounds and result."""
    players = len(result.names)
    got = [compiled_snapshot(out["trace"][k, r], players) for r in range(len(expected))]
    finish = [result.finish_order.index(seat) + 1 for seat in range(1, players + 1)]
    return (
        got == expected
        and out["finish"][k].tolist() == finish
        and out["net_worth"][k].tolist() == result.net_worth
        and out["rounds"][k] == result.rounds
    )


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_the_compiled_engine_plays_the_reference_games_round_by_round(first):
    assert compare_chunk(first) == []


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_the_fast_engine_plays_the_reference_games_with_trading(first):
    """The same 1,000 games with trading on: every round the same, and trades in many (the
    dealer refuses swaps the default takes, and asks for cash the others will not pay)."""
    traded = []
    assert compare_chunk(first, trading=True, traded=traded) == []
    assert sum(n > 0 for n in traded) > len(traded) / 3, "trades happen in many games"


def game_in_progress(g, trading):
    """Game ``g``: 2 to 8 members of the pool, seeded, played by the reference engine for a
    number of turns chosen from ``g`` (a few to most of a game); None if it ended by then."""
    members = pool(g)
    who = seating(g)
    game = MonopolyGame([members[i] for i in who], seed=g, trading=trading)
    for _ in range(int(np.random.default_rng(g).integers(1, 60 * len(who)))):
        game.play_turn()
        if game.over:
            return None
    return game, members, who


def rounds_from(game, max_rounds=100):
    """The reference engine playing on ``game`` (its draws already set): the state after
    every round from the one it is in, and the result."""
    snapshots, played = [], game.state.round
    while not game.over:
        game.play_turn()
        if game.over or game.state.round != played:
            snapshots.append(snapshot(game.state))
            played = game.state.round
    return snapshots, game.result()


def continued_otherwise(g, trading, change=None):
    """Whether game ``g`` in progress, continued by both engines from its state with the
    same streams, differs in a round or at the end (None: it ended before); ``change``
    alters the compiled engine's start."""
    found = game_in_progress(g, trading)
    if found is None:
        return None
    game, members, who = found
    start, first = state_vector(game.state), game.state.round
    if change is not None:
        change(start)
    streams = GameStreams.draw(50_000 + g, len(who))
    out = fast_games(
        strategy_codes(members),
        who[None],
        streams=[streams],
        starts=start[None],
        trace=True,
        trading=trading,
    )
    game.draw_from(streams)
    expected, result = rounds_from(game)
    players = len(who)
    got = [compiled_snapshot(out["trace"][0, r], players) for r in range(first - 1, 100)]
    finish = [result.finish_order.index(seat) + 1 for seat in range(1, players + 1)]
    return not (
        got[: len(expected)] == expected
        and out["finish"][0].tolist() == finish
        and out["net_worth"][0].tolist() == result.net_worth
        and out["rounds"][0] == result.rounds
        and not out["trace"][0, : first - 1].any()
    )


@pytest.mark.parametrize("trading", [False, True], ids=["without trading", "with trading"])
def test_the_fast_engine_continues_a_game_in_progress_as_the_reference_engine_does(trading):
    """A game played for some turns by the reference engine, then continued by both engines
    from its state (state_vector: cash, places, jail, lots, bank, cards held, the decks'
    cards still to deal, bankruptcies, the round and the seat to move) with the same
    streams: every round after it the same, and the same end."""
    compared = [continued_otherwise(g, trading) for g in range(150)]
    assert [g for g, differs in enumerate(compared) if differs] == []
    assert compared.count(False) >= 100, "most games are still in progress when continued"


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.__setitem__(loop.FIRST, (s[loop.FIRST] + 1) % 2),
        lambda s: s.__setitem__(loop.ROUND, s[loop.ROUND] + 1),
        lambda s: s.__setitem__(loop.CASH, s[loop.CASH] + 1),
        lambda s: s.__setitem__(loop.PLEN, max(0, s[loop.PLEN] - 1)),
    ],
    ids=["seat to move", "round", "cash", "pile"],
)
def test_the_continued_games_comparison_can_fail(change):
    """A start one seat, round, dollar or card off is told apart from the reference's."""
    assert any(continued_otherwise(g, False, change) for g in range(10))


def test_the_comparison_can_fail():
    """One game whose draws differ by a single die face is told apart by the snapshots."""
    members = pool(0)
    codes = strategy_codes(members)
    who = np.array([[0, 4, 6, 7]])
    streams = GameStreams.draw(5, 4)
    faces = streams.faces.copy()
    faces[10] = faces[10] % 6 + 1  # the sixth roll's first die, one pip more
    changed = GameStreams(faces, streams.shuffles, streams.uniforms)
    out = fast_games(codes, who, streams=[changed], trace=True)
    expected, _ = reference_rounds([members[i] for i in who[0]], streams, 100)
    got = [compiled_snapshot(out["trace"][0, r], 4) for r in range(len(expected))]
    assert got != expected


def test_short_streams_are_reported():
    codes = strategy_codes(["always", "always"])
    streams = [GameStreams.draw(1, 2, rolls=20)]
    with pytest.raises(StreamExhausted):
        fast_games(codes, np.array([[0, 1]]), streams=streams)


def test_student_strategies_are_refused_with_a_pointer_to_the_reference_engine():
    with pytest.raises(ValueError, match="play_monopoly"):
        strategy_codes([lambda game, me, space: True])


def test_seeded_games_are_reproducible_and_differ_by_seed():
    codes = strategy_codes(["always", "heuristic", RGA.random(1), "never"])
    who = np.tile(np.arange(4), (50, 1))
    first = fast_games(codes, who, seeds=np.arange(50))
    again = fast_games(codes, who, seeds=np.arange(50))
    other = fast_games(codes, who, seeds=np.arange(50, 100))
    assert all((first[k] == again[k]).all() for k in first)
    assert (first["net_worth"] != other["net_worth"]).any()
    assert sorted(first["finish"][0]) == [1, 2, 3, 4]


def test_chunks_and_the_progress_bar_change_nothing(capsys):
    codes = strategy_codes(["always", "heuristic", "random:0.5", "never"])
    who = np.tile(np.arange(4), (6000, 1))  # several chunks
    quiet = fast_games(codes, who, seeds=np.arange(6000))
    shown = fast_games(codes, who, seeds=np.arange(6000), progress=True)
    assert all((quiet[k] == shown[k]).all() for k in quiet)
    assert "6000/6000" in capsys.readouterr().err


def test_always_buy_games_end_as_the_reference_engine_s_do():
    """4 always-buy players: the same share of early endings and mean rounds (bench: 26%, 91)."""
    out = fast_games(
        strategy_codes(["always"] * 4), np.zeros((20_000, 4), np.int64), seeds=np.arange(20_000)
    )
    assert 0.24 < out["ended_early"].mean() < 0.29
    assert 89 < out["rounds"].mean() < 92
    assert (out["finish"].sum(axis=1) == 10).all()


@pytest.mark.parametrize(
    ("held", "mortgaged", "left"),
    [((2, 4, 13, 29, 40), [13, 29, 40], 150), ((6, 16, 26, 36, 40), [6, 16], 0)],
)
def test_the_compiled_raise_cash_counts_railroads_and_utilities_as_outside_complete_groups(
    held, mortgaged, left
):
    """The debt scenario of tests/test_game_rules.py, played on a compiled state: $0, $200
    owed; railroads and utilities are mortgaged cheapest first with the loose streets."""
    s = loop.new_game(2, 0, np.zeros(0, np.int64), np.zeros(3, np.int64))
    s[loop.CASH] = 0
    s[loop.OWNER + np.array(held)] = 0
    loop.recount_bits(s)
    loop.raise_cash(s, 0, 200)
    assert [space for space in held if s[loop.MORT + space]] == mortgaged
    assert s[loop.CASH] - 200 == left  # raised, then paid
    assert [loop.holds_complete_group(s, 0, g) for g in range(len(loop.GROUP_NAMES))] == [
        name == "brown" and 2 in held for name in loop.GROUP_NAMES
    ]


def test_the_trace_numbers_seats_as_the_reference_engine_does():
    """Owners and bankrupt seats in the trace count seats from 1, the bank 0; rounds after
    the game ended stay all 0."""
    codes = strategy_codes(["always", "always", "never"])
    out = fast_games(codes, [[0, 1, 2]] * 20, seeds=np.arange(20), max_rounds=300, trace=True)
    spaces = np.array(LOT_SPACES)
    for k in range(20):
        rounds = int(out["rounds"][k])
        owners = out["trace"][k, :rounds][:, loop.OWNER + spaces]
        assert owners.min() == 0 and set(np.unique(owners)) <= {0, 1, 2, 3}
        assert not out["trace"][k, rounds:].any()
        last = out["trace"][k, rounds - 1]
        gone = last[loop.GONE : loop.GONE + last[loop.NGONE]].tolist()
        assert sorted(gone) == [p + 1 for p in range(3) if out["finish"][k, p] > 3 - len(gone)]
    assert (out["trace"][:, 0][:, loop.OWNER + spaces] == 2).any()  # seat 2 owns a lot
    assert (out["rounds"] < 300).any(), "some game ends by bankruptcy"


def test_the_bits_of_owners_and_mortgages_follow_the_lots_in_every_round():
    """OWNED, MORTGAGED, COMPLETE, LAST_MISSING and BUILT, kept in step by the loop as lots
    change hands (bought, auctioned, traded, lost in bankruptcy), are mortgaged and lifted, or
    built on and sold, agree in every round with the owners, mortgages and buildings."""
    codes = strategy_codes(pool(7))
    who = np.random.default_rng(7).integers(0, POOL, size=(100, 6))
    out = fast_games(codes, who, seeds=np.arange(100), trading=True, trace=True)
    spaces = np.array(LOT_SPACES)
    bits = np.int64(1) << spaces
    sold_out = False
    for k in range(100):
        previous_built = 0
        for row in out["trace"][k, : out["rounds"][k]]:
            owners = row[loop.OWNER + spaces] - 1  # the trace counts seats from 1
            owned = [bits[owners == p].sum() for p in range(loop.MAXP)]
            assert row[loop.OWNED : loop.OWNED + loop.MAXP].tolist() == owned
            assert row[loop.MORTGAGED] == bits[row[loop.MORT + spaces] != 0].sum()
            complete = [
                sum(
                    1 << g
                    for g in range(len(loop.GROUP_NAMES))
                    if loop.IS_STREET_GROUP[g]
                    and owned[p] & loop.GROUP_BITS[g] == loop.GROUP_BITS[g]
                )
                for p in range(loop.MAXP)
            ]
            assert row[loop.COMPLETE : loop.COMPLETE + loop.MAXP].tolist() == complete
            last_missing = [
                sum(
                    int(missing)
                    for g in loop.STREET_GROUPS
                    if bin(missing := loop.GROUP_BITS[g] & ~owned[p]).count("1") == 1
                )
                for p in range(loop.MAXP)
            ]
            assert row[loop.LAST_MISSING : loop.LAST_MISSING + loop.MAXP].tolist() == last_missing
            built = row[loop.BLD + spaces] > 0
            groups = {int(loop.GROUP_ID[space]) for space in spaces[built]}
            assert row[loop.BUILT] == sum(int(loop.GROUP_BITS[g]) for g in groups)
            sold_out |= bool(previous_built & ~row[loop.BUILT])  # a group's last one sold
            previous_built = row[loop.BUILT]
    assert out["trades"].sum() > 0 and (out["rounds"] < 100).any()
    assert sold_out, "some group's last building is sold in these games"


def test_passive_players_play_the_reference_games_round_by_round():
    """Players who never build nor lift (Passive) among the others: the same games."""
    members = [Passive(True), Passive(False), "always", "heuristic", "random:0.5"]
    codes = strategy_codes(members)
    for g in range(60):
        rng = np.random.default_rng(10_000 + g)
        who = rng.integers(0, len(members), size=int(rng.integers(2, 7)))
        streams = GameStreams.draw(10_000 + g, len(who))
        out = fast_games(codes, who[None], streams=[streams], trace=True)
        strategies = [members[i] for i in who]
        expected, result = reference_rounds(strategies, streams, 100)
        assert same_game(out, 0, expected, result), f"game {g}: {strategies}"


@pytest.mark.parametrize("trading", [False, True], ids=["without trading", "with trading"])
def test_the_streams_of_a_seed_are_the_draws_of_the_game_so_seeded(trading):
    """``GameStreams.of_seed(seed)`` fed to the reference engine plays the game that
    ``seed`` plays (dice, both decks, each player's decisions); another seed's do not."""
    from monopoly_lesson.game.engine import MonopolyGame

    def outcome(game):
        game.play()
        r = game.result()
        return r.finish_order, r.net_worth, r.cash, r.lots, r.rounds

    seats = ["random:0.5", "heuristic", "always", "ega_trading"]
    differ = 0
    for seed in range(0, 2400, 200):
        seeded = outcome(MonopolyGame(seats, seed=seed, trading=trading))
        streams = GameStreams.of_seed(seed, len(seats))
        assert outcome(MonopolyGame(seats, streams=streams, trading=trading)) == seeded, seed
        other = GameStreams.of_seed(seed + 1, len(seats))
        differ += outcome(MonopolyGame(seats, streams=other, trading=trading)) != seeded
    assert differ >= 10
