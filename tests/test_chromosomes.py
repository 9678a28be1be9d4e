"""The chromosome players (RGA, TGA, SGA): genes checked, decisions as the game rules say."""

from __future__ import annotations

import random

import numpy as np
import pytest

from monopoly_lesson.game.chromosomes import (
    BGA,
    BUY_SHAPE,
    CHROMOSOME_PLAYERS,
    EGA,
    GENE_MAX,
    RGA,
    SGA,
    TGA,
    jail_index,
    monopoly_jail_index,
    ownership_state,
)
from monopoly_lesson.game.state import GROUP_SPACES, LOT_SPACES, PRICE, GameState, PlayerState
from monopoly_lesson.starter import Player

GENOME_BITS = 6 * (4 * 40 + 16)


def new_game() -> GameState:
    """Four players, nothing owned."""
    players = [
        PlayerState(seat=k, name=f"P{k}", strategy=None, token=Player(), rng=random.Random(k))
        for k in (1, 2, 3, 4)
    ]
    return GameState(players)


def give(game: GameState, seat: int, *spaces: int) -> None:
    """Make ``seat`` the owner of ``spaces``."""
    for space in spaces:
        game.lots[space].owner = seat
        game.player(seat).lots.add(space)


def constant(cls: type[RGA], buy: float, jail: float) -> RGA:
    """A player of ``cls`` whose every buy gene is ``buy`` and every jail gene ``jail``."""
    if cls is SGA:
        return SGA.from_genes(
            np.full(BUY_SHAPE, round(buy * GENE_MAX)), np.full((4, 4), round(jail * GENE_MAX))
        )
    return cls.from_genes(np.full(BUY_SHAPE, buy), np.full(cls.JAIL_SHAPE, jail))


# -- genes: shapes, checks, construction -------------------------------------------------


def test_the_players_by_name():
    assert CHROMOSOME_PLAYERS == {"rga": RGA, "tga": TGA, "sga": SGA, "ega": EGA, "bga": BGA}
    assert [cls.random(seed=0).name for cls in (RGA, TGA, SGA)] == ["rga", "tga", "sga"]


@pytest.mark.parametrize(("cls", "jail_shape"), [(RGA, (64, 64)), (TGA, (4, 4)), (SGA, (4, 4))])
def test_random_genes_have_the_rules_shapes_and_ranges(cls, jail_shape):
    player = cls.random(seed=5)
    assert player.buy_genes.shape == (4, 40)
    assert player.jail_genes.shape == jail_shape
    for genes in (player.buy_genes, player.jail_genes):
        if cls is SGA:
            assert genes.dtype.kind == "i"
            assert genes.min() >= 0 and genes.max() <= GENE_MAX
        else:
            assert genes.dtype.kind == "f"
            assert genes.min() >= 0 and genes.max() <= 1
    if cls is SGA:  # uniform over 0..63: 160 draws reach most values and both ends
        assert len(np.unique(player.buy_genes)) > 50
        assert player.buy_genes.min() == 0 and player.buy_genes.max() == GENE_MAX


@pytest.mark.parametrize("cls", [RGA, TGA, SGA])
def test_random_is_reproducible_and_seeds_differ(cls):
    one, again, other = cls.random(seed=7), cls.random(seed=7), cls.random(seed=8)
    assert np.array_equal(one.buy_genes, again.buy_genes)
    assert np.array_equal(one.jail_genes, again.jail_genes)
    assert not np.array_equal(one.buy_genes, other.buy_genes)
    assert not np.array_equal(one.jail_genes, other.jail_genes)


@pytest.mark.parametrize("cls", [RGA, TGA, SGA, EGA])
@pytest.mark.parametrize(
    ("seed", "kind", "said"),
    [
        ("x", TypeError, "a whole number 0 or more, got 'x'"),
        (1.5, TypeError, "a whole number 0 or more, got 1.5"),
        (True, TypeError, "a whole number 0 or more, got True"),
        ([1], TypeError, r"a whole number 0 or more, got \[1\]"),
        (-1, ValueError, "0 or more, got -1"),
    ],
)
def test_a_bad_seed_is_named_with_what_is_allowed(cls, seed, kind, said):
    with pytest.raises(kind, match=f"^seed must be {said}"):
        cls.random(seed=seed)


@pytest.mark.parametrize("cls", [RGA, EGA])
def test_a_numpy_whole_number_seed_is_the_same_seed(cls):
    assert np.array_equal(cls.random(seed=np.int64(9)).buy_genes, cls.random(seed=9).buy_genes)


@pytest.mark.parametrize("cls", [RGA, TGA, SGA])
def test_genes_are_read_only_copies(cls):
    buy = np.full(BUY_SHAPE, 1)
    player = cls.from_genes(buy, np.zeros(cls.JAIL_SHAPE, dtype=int))
    buy[0, 0] = 0
    assert player.buy_genes[0, 0] == 1
    with pytest.raises(ValueError):
        player.buy_genes[0, 0] = 0


@pytest.mark.parametrize(
    ("cls", "buy", "jail", "words"),
    [
        (RGA, np.zeros((3, 40)), np.zeros((64, 64)), "shape (4, 40)"),
        (RGA, np.zeros((4, 40)), np.zeros((4, 4)), "shape (64, 64)"),
        (TGA, np.zeros((4, 40)), np.zeros((64, 64)), "shape (4, 4)"),
        (SGA, np.zeros((4, 28), dtype=int), np.zeros((4, 4), dtype=int), "shape (4, 40)"),
        (RGA, [[0.5] * 40] * 3 + [[0.5] * 39], np.zeros((64, 64)), "different lengths"),
    ],
)
def test_a_wrong_shape_is_refused(cls, buy, jail, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        cls.from_genes(buy, jail)


@pytest.mark.parametrize("cls", [RGA, TGA])
@pytest.mark.parametrize("bad", [1.5, -0.1, float("nan")])
def test_real_genes_outside_0_to_1_are_refused(cls, bad):
    buy = np.full(BUY_SHAPE, 0.5)
    buy[2, 11] = bad
    with pytest.raises(ValueError, match=r"from 0 to 1.*\(2, 11\)"):
        cls.from_genes(buy, np.zeros(cls.JAIL_SHAPE))
    jail = np.full(cls.JAIL_SHAPE, 0.5)
    jail[1, 3] = bad
    with pytest.raises(ValueError, match="jail genes"):
        cls.from_genes(np.zeros(BUY_SHAPE), jail)


def test_real_genes_must_be_numbers():
    with pytest.raises(TypeError, match="must be numbers"):
        RGA.from_genes(np.full(BUY_SHAPE, "x"), np.zeros((64, 64)))


@pytest.mark.parametrize("bad", [64, -1, 100])
def test_sga_genes_above_63_or_below_0_are_refused(bad):
    buy = np.zeros(BUY_SHAPE, dtype=int)
    buy[0, 5] = bad
    with pytest.raises(ValueError, match=r"from 0 to 63.*\(0, 5\)"):
        SGA.from_genes(buy, np.zeros((4, 4), dtype=int))


def test_sga_genes_must_be_whole_numbers():
    with pytest.raises(TypeError, match="whole numbers from 0 to 63"):
        SGA.from_genes(np.full(BUY_SHAPE, 0.5), np.zeros((4, 4), dtype=int))
    with pytest.raises(TypeError, match="whole numbers"):
        SGA.from_genes(np.zeros(BUY_SHAPE, dtype=int), np.full((4, 4), 3.0))


def test_sga_accepts_plain_lists_of_integers():
    player = SGA.from_genes([[63] * 40] * 4, [[0, 21, 42, 63]] * 4)
    assert player.genes()["jail"].iloc[0].tolist() == pytest.approx([0, 1 / 3, 2 / 3, 1])


# -- the SGA bit string -------------------------------------------------------------------


def test_bits_round_trip():
    player = SGA.random(seed=11)
    bits = player.bits
    assert len(bits) == GENOME_BITS and set(bits) <= {"0", "1"}
    back = SGA.from_bits(bits)
    assert np.array_equal(back.buy_genes, player.buy_genes)
    assert np.array_equal(back.jail_genes, player.jail_genes)
    assert back.bits == bits


def test_bits_layout_is_buy_then_jail_row_major_most_significant_first():
    buy = np.zeros(BUY_SHAPE, dtype=int)
    buy[0, 0], buy[0, 1], buy[1, 0] = 1, 32, 63
    jail = np.zeros((4, 4), dtype=int)
    jail[0, 1] = 5
    bits = SGA.from_genes(buy, jail).bits
    assert bits[0:6] == "000001"
    assert bits[6:12] == "100000"
    assert bits[40 * 6 : 41 * 6] == "111111"
    assert bits[160 * 6 : 161 * 6] == "000000"
    assert bits[161 * 6 : 162 * 6] == "000101"


@pytest.mark.parametrize(
    ("bits", "error", "words"),
    [
        ("0" * (GENOME_BITS - 1), ValueError, "1056 characters"),
        ("01" * (GENOME_BITS // 2 - 1) + "2x", ValueError, "only '0' and '1'"),
        ([0, 1] * (GENOME_BITS // 2), TypeError, "string"),
    ],
)
def test_bad_bits_are_refused(bits, error, words):
    with pytest.raises(error, match=words):
        SGA.from_bits(bits)


# -- the readable view --------------------------------------------------------------------


@pytest.mark.parametrize("cls", [RGA, TGA, SGA])
def test_genes_buy_table(cls):
    player = cls.random(seed=2)
    buy = player.genes()["buy"]
    assert len(buy) == 28 and buy.index.name == "space"
    assert buy.index.tolist() == list(LOT_SPACES)
    assert buy.columns.tolist() == [
        "title",
        "group",
        "nobody",
        "only_me",
        "one_other",
        "two_or_more",
    ]
    assert buy.loc[19, "group"] == "orange" and "Tennessee" in buy.loc[19, "title"]
    scale = GENE_MAX if cls is SGA else 1
    assert buy.loc[19, "one_other"] == pytest.approx(player.buy_genes[2, 18] / scale)
    assert buy.loc[40, "nobody"] == pytest.approx(player.buy_genes[0, 39] / scale)
    probabilities = buy[["nobody", "only_me", "one_other", "two_or_more"]].to_numpy()
    assert probabilities.min() >= 0 and probabilities.max() <= 1


def test_genes_jail_table_of_rga():
    player = RGA.random(seed=2)
    jail = player.genes()["jail"]
    assert jail.shape == (64, 64)
    assert jail.index.name == "west" and jail.columns.name == "north"
    assert jail.index.tolist() == list(range(64)) == jail.columns.tolist()
    assert jail.loc[33, 5] == player.jail_genes[33, 5]


@pytest.mark.parametrize("cls", [TGA, SGA])
def test_genes_jail_table_of_tga_and_sga(cls):
    player = cls.random(seed=2)
    jail = player.genes()["jail"]
    assert jail.index.tolist() == ["none", "purple", "orange", "purple+orange"]
    assert jail.columns.tolist() == ["none", "red", "yellow", "red+yellow"]
    assert jail.index.name == "west" and jail.columns.name == "north"
    scale = GENE_MAX if cls is SGA else 1
    assert jail.loc["orange", "red"] == pytest.approx(player.jail_genes[2, 1] / scale)


def test_repr_names_the_player():
    assert repr(SGA.random(seed=0)).startswith("<sga chromosome player")


# -- what the genes are indexed by --------------------------------------------------------


def test_ownership_state_for_each_of_the_four_states():
    game = new_game()
    me = game.player(1)
    assert ownership_state(game, me, 17) == 0  # nobody owns orange
    give(game, 1, 17)
    assert ownership_state(game, me, 19) == 1  # only me
    give(game, 2, 20)
    assert ownership_state(game, me, 19) == 2  # one other (me too)
    assert ownership_state(game, game.player(3), 19) == 3  # seats 1 and 2 are others to 3
    give(game, 3, 19)
    assert ownership_state(game, me, 19) == 3  # two others
    game2 = new_game()
    give(game2, 4, 6, 16)
    assert ownership_state(game2, game2.player(1), 26) == 2  # railroads: one other
    assert ownership_state(game2, game2.player(4), 26) == 1


def test_jail_index_bits():
    game = new_game()
    me = game.player(1)
    assert jail_index(game, me) == (0, 0)
    give(game, 2, 12, 20)
    assert jail_index(game, me) == (0b100001, 0)
    give(game, 1, 14, 22)  # me: not counted
    assert jail_index(game, me) == (0b100001, 0)
    give(game, 3, 25, 30)
    assert jail_index(game, me) == (0b100001, 0b100100)
    assert jail_index(game, game.player(2)) == (0b000010, 0b100101)


def test_monopoly_jail_index():
    game = new_game()
    me = game.player(1)
    give(game, 2, 12, 14)
    assert monopoly_jail_index(game, me) == (0, 0)  # purple not whole
    give(game, 2, 15)
    assert monopoly_jail_index(game, me) == (0b01, 0)
    assert monopoly_jail_index(game, game.player(2)) == (0, 0)  # its own monopoly
    give(game, 3, *GROUP_SPACES["orange"])
    give(game, 4, *GROUP_SPACES["yellow"])
    assert monopoly_jail_index(game, me) == (0b11, 0b10)
    give(game, 1, *GROUP_SPACES["red"])
    assert monopoly_jail_index(game, me) == (0b11, 0b10)
    assert monopoly_jail_index(game, game.player(4)) == (0b11, 0b01)


# -- the decisions ------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [RGA, TGA, SGA])
def test_buy_with_gene_1_always_and_0_never(cls):
    game, me = new_game(), None
    me = game.player(1)
    yes, no = constant(cls, 1.0, 1.0), constant(cls, 0.0, 0.0)
    for space in LOT_SPACES:
        assert all(yes.buy(game, me, space) is True for _ in range(20))
        assert not any(no.buy(game, me, space) for _ in range(20))
    assert yes.leave_jail(game, me) is True
    assert no.leave_jail(game, me) is False


def test_buy_reads_the_gene_of_the_ownership_state_and_space():
    buy = np.zeros(BUY_SHAPE)
    buy[2, 18] = 1.0  # Tennessee Avenue (19) when exactly one other owns orange
    player = RGA.from_genes(buy, np.zeros((64, 64)))
    game = new_game()
    me = game.player(1)
    assert not player.buy(game, me, 19)
    give(game, 2, 17)
    assert player.buy(game, me, 19)
    assert not player.buy(game, me, 20)  # another column
    give(game, 3, 20)
    assert not player.buy(game, me, 19)  # another row: two others


def test_buy_is_a_fresh_draw_with_the_gene_as_probability():
    player = RGA.from_genes(np.full(BUY_SHAPE, 0.3), np.zeros((64, 64)))
    game = new_game()
    me = game.player(1)
    share = np.mean([player.buy(game, me, 24) for _ in range(4000)])
    assert 0.26 < share < 0.34


@pytest.mark.parametrize("cls", [RGA, TGA, SGA])
def test_bid_is_the_price_capped_at_cash_or_nothing(cls):
    game = new_game()
    me = game.player(1)
    yes, no = constant(cls, 1.0, 0.0), constant(cls, 0.0, 0.0)
    assert yes.bid(game, me, 40) == PRICE[40] == 400
    me.cash = 250
    assert yes.bid(game, me, 40) == 250
    assert yes.bid(game, me, 2) == 60
    assert no.bid(game, me, 2) == 0


def test_leave_jail_reads_the_rga_cell():
    jail = np.zeros((64, 64))
    jail[0b100001, 0] = 1.0
    player = RGA.from_genes(np.zeros(BUY_SHAPE), jail)
    game = new_game()
    me = game.player(1)
    assert not player.leave_jail(game, me)
    give(game, 2, 12, 20)
    assert player.leave_jail(game, me)
    give(game, 2, 22)
    assert not player.leave_jail(game, me)


def test_leave_jail_reads_the_tga_cell():
    jail = np.zeros((4, 4), dtype=int)
    jail[0b01, 0] = GENE_MAX
    player = SGA.from_genes(np.zeros(BUY_SHAPE, dtype=int), jail)
    game = new_game()
    me = game.player(1)
    give(game, 3, *GROUP_SPACES["purple"])
    assert player.leave_jail(game, me)
    assert not player.leave_jail(game, game.player(3))  # its own monopoly: cell (0, 0)
