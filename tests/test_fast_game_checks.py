"""The fast engine checks what it is given, stops when asked, and packs its genes.

Everything ``fast_games``, ``strategy_codes``, ``genome_codes`` and
``play_population_games`` take is checked before the compiled loop runs (it indexes its
arrays with what it is given, unchecked); long calls return to Python often enough for
Ctrl-C; each member's genes take only the room its strategy reads.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from monopoly_lesson import checks as limits
from monopoly_lesson.evolution.operators import genome_genes, genome_length
from monopoly_lesson.evolution.population_games import play_population_games
from monopoly_lesson.game import fast as fg
from monopoly_lesson.game import fast_loop as loop
from monopoly_lesson.game.chromosomes import EGA, RGA, SGA, TGA
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.fast import fast_games, genome_codes, strategy_codes
from monopoly_lesson.game.streams import GameStreams

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def codes():
    return strategy_codes(["always", "heuristic", "random:0.5", "never"])


def population(chromosome, players=8, seed=0):
    """Random genes of ``players`` players of ``chromosome``, as (buy, jail) arrays."""
    rng = np.random.default_rng(seed)
    side = 64 if chromosome == "rga" else 4
    if chromosome == "sga":
        return rng.integers(0, 64, (players, 4, 40)), rng.integers(0, 64, (players, side, side))
    return rng.random((players, 4, 40)), rng.random((players, side, side))


# -- seats ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "error", "words"),
    [
        (np.zeros((1, 9), np.int64), ValueError, "2 to 8 players"),
        (np.zeros((1, 1), np.int64), ValueError, "2 to 8 players"),
        (np.zeros((0, 4), np.int64), ValueError, "at least one game"),
        ([[0, 1, 2, 4]], ValueError, "from 0 to 3"),  # one past the end
        ([[0, 1, -1, 2]], ValueError, "from 0 to 3"),
        ([[0, 10**6]], ValueError, "is 1000000"),
        ([[0.0, 1.0]], TypeError, "whole numbers"),
        ([[True, False]], TypeError, "whole numbers"),
        ([0, 1, 2, 3], TypeError, "2-D"),
    ],
)
def test_seats_outside_the_members_or_the_player_limits_are_refused(codes, who, error, words):
    with pytest.raises(error, match=words):
        fast_games(codes, who, seeds=np.zeros(len(np.atleast_2d(who)), np.int64))


def test_a_member_may_sit_twice_as_in_the_reference_engine(codes):
    """play_monopoly([a, a]) plays one strategy object in two seats; so may the members."""
    twice = fast_games(codes, [[0, 0]], seeds=[3])
    apart = fast_games(strategy_codes(["always", "always"]), [[0, 1]], seeds=[3])
    assert all((twice[k] == apart[k]).all() for k in twice)


# -- seeds and streams ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("seeds", "error", "words"),
    [
        (None, ValueError, "neither"),
        ([1], ValueError, "one seed per game: 2 games, got 1"),
        ([1, 2, 3], ValueError, "one seed per game: 2 games, got 3"),
        ([0, 2**32], ValueError, "from 0 to 2\\*\\*32 - 1"),
        ([0, -1], ValueError, "from 0 to 2\\*\\*32 - 1"),
        ([0, 2**70], ValueError, "from 0 to 2\\*\\*32 - 1"),
        ([0.0, 1.5], TypeError, "whole numbers"),
        ([0, float("nan")], TypeError, "whole numbers"),
        (7, TypeError, "one per game"),
    ],
)
def test_seeds_must_be_one_32_bit_whole_number_per_game(codes, seeds, error, words):
    with pytest.raises(error, match=words):
        fast_games(codes, [[0, 1], [2, 3]], seeds=seeds)


def test_seeds_and_streams_together_are_refused(codes):
    with pytest.raises(ValueError, match="not both"):
        fast_games(codes, [[0, 1]], seeds=[0], streams=[GameStreams.draw(0, 2)])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda s: [s, s], "one GameStreams per game"),
        (lambda s: [GameStreams(s.faces * 2, s.shuffles, s.uniforms)], "six-sided"),
        (lambda s: [GameStreams(s.faces, s.shuffles, s.uniforms[:1])], "its 2 players"),
        (
            lambda s: [GameStreams(s.faces, (s.shuffles[0] + 1, s.shuffles[1]), s.uniforms)],
            "permutation",
        ),
        (lambda s: [GameStreams(s.faces, s.shuffles, s.uniforms + 1)], "from 0 to 1"),
    ],
)
def test_streams_that_would_be_read_out_of_bounds_are_refused(codes, change, words):
    with pytest.raises(ValueError, match=words):
        fast_games(codes, [[0, 1]], streams=change(GameStreams.draw(0, 2)))


def test_streams_of_different_lengths_are_refused(codes):
    streams = [GameStreams.draw(0, 2), GameStreams.draw(1, 2, rolls=100)]
    with pytest.raises(ValueError, match="one length"):
        fast_games(codes, [[0, 1], [1, 0]], streams=streams)


# -- games in progress ----------------------------------------------------------------


@pytest.fixture(scope="module")
def start():
    """The state vector of a 2-player game some turns in."""
    game = MonopolyGame(["always", "heuristic"], seed=4)
    for _ in range(30):
        game.play_turn()
    return fg.state_vector(game.state)


def changed(start, slot, value):
    s = start.copy()
    s[slot] = value
    return s[None]


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (lambda s: s, TypeError, "one state_vector"),  # 1-D: not one row per game
        (lambda s: s[None, :-1], TypeError, "one state_vector"),
        (lambda s: s[None].astype(float), TypeError, "whole numbers"),
        (lambda s: np.vstack([s, s]), ValueError, "1 games, got 2"),
        (lambda s: changed(s, loop.OWNER + 4, 2), ValueError, "owners must be from -1 to 1"),
        (lambda s: changed(s, loop.BLD + 4, 6), ValueError, "buildings must be from 0 to 5"),
        (lambda s: changed(s, loop.ST, 43), ValueError, "roll state"),
        (lambda s: changed(s, loop.ALIVE + 2, 1), ValueError, "players beyond its seats"),
        (lambda s: changed(s, loop.FIRST, 2), ValueError, "seat to move must be from 0 to 1"),
        (lambda s: changed(s, loop.PLEN, 17), ValueError, "numbers of cards to deal"),
        (lambda s: changed(s, loop.ROUND, 0), ValueError, "round must be from 1"),
        (lambda s: changed(changed(s, loop.PLEN, 16)[0], loop.PILE, 0), ValueError, "to deal"),
        (
            lambda s: changed(changed(s, loop.NCARDS, 1)[0], loop.CARDS, 2 * loop.HELD_CODE),
            ValueError,
            "cards held",
        ),
        (
            lambda s: changed(changed(s, loop.NGONE, 1)[0], loop.GONE, 5),
            ValueError,
            "bankrupt seats",
        ),
    ],
)
def test_games_in_progress_that_the_loop_would_misread_are_refused(start, change, error, words):
    with pytest.raises(error, match=words):
        fast_games(
            strategy_codes(["always", "heuristic"]), [[0, 1]], seeds=[0], starts=change(start)
        )


def test_a_game_in_progress_is_played_on_from_its_round(start):
    out = fast_games(
        strategy_codes(["always", "heuristic"]), [[0, 1]], seeds=[0], starts=start[None]
    )
    fresh = fast_games(strategy_codes(["always", "heuristic"]), [[0, 1]], seeds=[0])
    assert out["rounds"][0] >= start[loop.ROUND] and out["net_worth"][0].sum() != 3000
    assert (out["net_worth"] != fresh["net_worth"]).any()


def test_state_vector_takes_a_game_state():
    with pytest.raises(TypeError, match="must be a GameState"):
        fg.state_vector("a game")


# -- rounds and flags ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounds", "error"),
    [
        (0, ValueError),
        (-5, ValueError),
        (10_001, ValueError),
        (2**63, ValueError),
        (10**9, ValueError),
        (1.5, TypeError),
        (100.0, TypeError),
        (True, TypeError),
    ],
)
def test_max_rounds_is_a_whole_number_up_to_the_limit(codes, rounds, error):
    with pytest.raises(error, match="max_rounds"):
        fast_games(codes, [[0, 1]], seeds=[0], max_rounds=rounds)


def test_the_longest_allowed_game_is_played(codes):
    out = fast_games(
        strategy_codes(["never", "never"]), [[0, 1]], seeds=[0], max_rounds=limits.MAX_ROUNDS
    )
    assert out["rounds"][0] <= limits.MAX_ROUNDS


def test_flags_must_be_true_or_false(codes):
    with pytest.raises(TypeError, match="trace must be True or False"):
        fast_games(codes, [[0, 1]], seeds=[0], trace="no")


# -- codes and genes -----------------------------------------------------------------


def test_a_single_name_is_refused_as_not_a_list():
    with pytest.raises(TypeError, match=r"a list of strategies.*\['always'\]"):
        strategy_codes("always")
    with pytest.raises(ValueError, match="at least one"):
        strategy_codes([])


def test_codes_must_come_from_strategy_codes(codes):
    with pytest.raises(TypeError, match="strategy_codes"):
        fast_games(["always", "never"], [[0, 1]], seeds=[0])


@pytest.mark.parametrize("chromosome", ["xga", "RGA", "", None])
def test_unknown_chromosomes_are_refused(chromosome):
    buy, jail = population("tga")
    with pytest.raises(ValueError, match="chromosome must be one of"):
        genome_codes(chromosome, buy, jail)


@pytest.mark.parametrize(
    ("chromosome", "change", "error", "words"),
    [
        ("rga", lambda b, j: (np.where(b > 0.5, np.nan, b), j), ValueError, "got nan at"),
        ("rga", lambda b, j: (b, j * 2), ValueError, "jail genes must be from 0 to 1"),
        ("tga", lambda b, j: (b - 1, j), ValueError, "buy genes must be from 0 to 1"),
        ("tga", lambda b, j: (b, np.full((8, 64, 64), 0.5)), ValueError, r"\(population, 4, 4\)"),
        ("rga", lambda b, j: (b, np.full((8, 4, 4), 0.5)), ValueError, r"\(population, 64, 64\)"),
        ("rga", lambda b, j: (b[:, :, :20], j), ValueError, r"\(population, 4, 40\)"),
        ("rga", lambda b, j: (b[:3], j), ValueError, "same population"),
        ("rga", lambda b, j: (b[:0], j[:0]), ValueError, "at least one player"),
        ("rga", lambda b, j: (b > 0.5, j), TypeError, "probabilities"),
        ("sga", lambda b, j: (b / 63, j), TypeError, "whole numbers from 0 to 63"),
        ("sga", lambda b, j: (b, j + 64), ValueError, r"from 0 to 63, got \d+ at"),
        ("sga", lambda b, j: (b - 64, j), ValueError, "from 0 to 63, got -"),
    ],
)
def test_genes_outside_their_chromosome_s_values_and_shapes_are_refused(
    chromosome, change, error, words
):
    buy, jail = change(*population(chromosome))
    with pytest.raises(error, match=words):
        genome_codes(chromosome, buy, jail)


@pytest.mark.parametrize(
    ("cut", "chromosome", "gene", "value", "error", "words"),
    [
        ("rga", "rga", 160 + 64 * 3 + 5, np.nan, ValueError, r"jail genes .* nan at \(2, 3, 5\)"),
        ("rga", "rga", 41, 1.5, ValueError, r"rga buy genes .* got 1.5 at \(2, 1, 1\)"),
        ("ega", "ega", -1, -0.25, ValueError, r"ega trade genes .* got -0.25"),
        ("tga", "sga", 0, 0.5, TypeError, "whole numbers from 0 to 63"),
    ],
)
def test_genes_cut_from_one_array_of_genomes_are_checked_as_tables_are(
    cut, chromosome, gene, value, error, words
):
    """As evolve cuts them (the codes then use the genomes' memory): one bad gene is found
    and named by its table and place; float genes given as SGA's whole numbers are refused."""
    genomes = np.random.default_rng(4).random((6, genome_length(cut)))
    genomes[2, gene] = value
    with pytest.raises(error, match=words):
        genome_codes(chromosome, *genome_genes(cut, genomes))


def test_replaced_codes_are_checked_again(codes):
    joined = strategy_codes(["always", "random:0.3"])
    joined.kind = np.concatenate([joined.kind, codes.kind])  # the genes not joined
    with pytest.raises(ValueError, match="concatenating both"):
        fast_games(joined, [[0, 1]], seeds=[0])
    with pytest.raises(ValueError, match="from 0 to 1"):
        joined.genes = np.array([np.nan])
    with pytest.raises(ValueError, match=f"strategy codes from 0 to {loop.BGA}"):
        joined.kind = np.array([0, 10])


def test_codes_joined_by_concatenation_play_as_the_members_listed_together():
    """How the benchmark joins a population with fixed opponents: kind and genes both."""
    members = [RGA.random(1), TGA.random(2), "heuristic", "random:0.25", SGA.random(3)]
    joined = strategy_codes(members[:2])
    rest = strategy_codes(members[2:])
    joined.kind = np.concatenate([joined.kind, rest.kind])
    joined.genes = np.concatenate([joined.genes, rest.genes])
    who = np.random.default_rng(0).integers(0, 5, (200, 4))
    together = fast_games(strategy_codes(members), who, seeds=np.arange(200))
    got = fast_games(joined, who, seeds=np.arange(200))
    assert all((together[k] == got[k]).all() for k in together)


# -- packed genes, memory ------------------------------------------------------------


def test_each_member_gets_only_the_genes_its_strategy_reads():
    mixed = strategy_codes(["always", "random:0.3", RGA.random(1), TGA.random(2), SGA.random(3)])
    assert mixed.genes.size == 0 + 1 + (160 + 64 * 64) + (160 + 16) + (160 + 16)
    assert mixed.offsets.tolist() == [0, 0, 1, 1 + 4256, 1 + 4256 + 176]
    assert genome_codes("tga", *population("tga", players=1000)).genes.size == 1000 * 176


def test_genomes_cut_side_by_side_are_played_without_a_copy():
    rng = np.random.default_rng(4)
    genomes = rng.random((40, 160 + 64 * 64))
    buy, jail = genomes[:, :160].reshape(40, 4, 40), genomes[:, 160:].reshape(40, 64, 64)
    shared = genome_codes("rga", buy, jail)
    copied = genome_codes("rga", buy.copy(), jail.copy())
    assert np.shares_memory(shared.genes, genomes)
    assert not np.shares_memory(copied.genes, genomes)
    players = strategy_codes([RGA.from_genes(b, j) for b, j in zip(buy, jail, strict=True)])
    who = np.concatenate([rng.permutation(40).reshape(-1, 4) for _ in range(30)])
    runs = [fast_games(c, who, seeds=np.arange(300)) for c in (shared, copied, players)]
    assert all((runs[0][k] == run[k]).all() for run in runs[1:] for k in runs[0])


def test_ega_genomes_cut_side_by_side_are_played_without_a_copy_as_its_players():
    """All five of EGA's tables cut from one array of genomes, as evolve cuts them."""
    rng = np.random.default_rng(5)
    genomes = rng.random((20, genome_length("ega")))
    tables = genome_genes("ega", genomes)
    shared = genome_codes("ega", *tables)
    assert np.shares_memory(shared.genes, genomes)
    players = strategy_codes([EGA.from_genes(*(t[i] for t in tables)) for i in range(20)])
    assert np.array_equal(players.genes, shared.genes) and (players.kind == loop.EGA).all()
    who = np.concatenate([rng.permutation(20).reshape(-1, 4) for _ in range(30)])
    for trading in (False, True):
        seeds = np.arange(150)
        runs = [fast_games(c, who, seeds=seeds, trading=trading) for c in (shared, players)]
        assert all((runs[0][k] == runs[1][k]).all() for k in runs[0])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda tables: tables[:2], r"ega genes come in 5 tables \(buy, jail, bid,"),
        (lambda tables: (*tables[:4], tables[4] + 1), "trade genes must be from 0 to 1"),
        (lambda tables: (*tables[:2], tables[2][:, :, :5], *tables[3:]), r"\(population, 4, 10\)"),
        (lambda tables: (*tables[:3], tables[3][:2], tables[4]), "same population"),
    ],
)
def test_ega_tables_of_the_wrong_number_shape_or_values_are_refused(change, words):
    tables = genome_genes("ega", np.random.default_rng(6).random((4, genome_length("ega"))))
    with pytest.raises(ValueError, match=words):
        genome_codes("ega", *change(tables))


def test_sga_genes_are_read_as_n_over_63():
    buy, jail = population("sga", players=4, seed=2)
    who = np.tile(np.arange(4), (100, 1))
    players = [SGA.from_genes(b, j) for b, j in zip(buy, jail, strict=True)]
    direct = fast_games(genome_codes("sga", buy, jail), who, seeds=np.arange(100))
    listed = fast_games(strategy_codes(players), who, seeds=np.arange(100))
    assert all((direct[k] == listed[k]).all() for k in direct)


def free_memory(monkeypatch, nbytes):
    """Pretend the machine has ``nbytes`` of memory free."""
    monkeypatch.setattr(limits, "available_memory", lambda: nbytes)
    monkeypatch.setattr(fg, "available_memory", lambda: nbytes)


def test_results_that_would_not_fit_are_refused_before_any_game(codes, monkeypatch):
    free_memory(monkeypatch, 100_000)
    with pytest.raises(ValueError, match=r"10,000 games would need about .* at most 460 fit"):
        fast_games(codes, np.zeros((10_000, 4), np.int64), seeds=np.arange(10_000))
    with pytest.raises(ValueError, match="with trace=True"):
        fast_games(codes, np.zeros((10, 4), np.int64), seeds=np.arange(10), trace=True)


def test_codes_that_would_not_fit_are_refused(monkeypatch):
    buy, jail = population("rga", players=100)
    free_memory(monkeypatch, 1_000_000)
    with pytest.raises(ValueError, match=r"100 rga players would need .* at most 29 players fit"):
        genome_codes("rga", buy, jail)


PEAK = """
import tracemalloc, numba, numpy as np
from monopoly_lesson.game import fast_loop as loop
from monopoly_lesson.game.fast import _chunk, fast_games, strategy_codes
codes = strategy_codes(["always"] * 4)
who = np.zeros((20_000, 4), np.int64)
seeds = np.arange(20_000)
fast_games(codes, who[:1], seeds=seeds[:1])
tracemalloc.start()
out = fast_games(codes, who, seeds=seeds)
chunk = _chunk(4, 100, False) * (loop.SEAT_RESULTS * 4 + loop.GAME_RESULTS) * 8
state = (loop.SIZE + loop.MT_WORDS + 1 + loop.DECK_CARDS) * 8
per_core = state + loop.MT_WORDS * loop.SEED_BLOCK * 8  # a game's state, its block's seeds
print(tracemalloc.get_traced_memory()[1], sum(a.nbytes for a in out.values()), chunk,
      4 * len(seeds), numba.get_num_threads() * per_core)
"""


def test_results_are_written_in_place_not_gathered_and_joined():
    """The peak is the returned arrays, one chunk's results, the seeds as uint32 and each
    core's game state and seeding words (and a few small arrays): not all chunks' results
    and a copy, which would add the returned arrays again (3.7 MB here)."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK], capture_output=True, text=True, check=True, cwd=ROOT
    )
    peak, returned, chunk, seeds, cores = (int(n) for n in done.stdout.split())
    assert peak <= returned + chunk + seeds + cores + 16_000


# -- chunks, progress, Ctrl-C --------------------------------------------------------


def test_every_call_of_the_compiled_loop_is_bounded_in_turns(monkeypatch):
    calls = []
    real = fg.loop.play_many

    def play_many(m, genes, at, kind, who, *args):
        calls.append(who.shape[0] * who.shape[1] * args[-3])  # games x players x rounds
        return real(m, genes, at, kind, who, *args)

    monkeypatch.setattr(fg.loop, "play_many", play_many)
    codes = strategy_codes(["never"] * 4)
    fast_games(codes, np.zeros((120, 4), np.int64), seeds=np.arange(120), max_rounds=10_000)
    assert len(calls) > 1 and max(calls) <= fg.TURNS_PER_CHUNK


def test_results_are_the_same_however_the_games_are_chunked(codes, monkeypatch):
    who = np.random.default_rng(1).integers(0, 4, (500, 4))
    whole = fast_games(codes, who, seeds=np.arange(500))
    monkeypatch.setattr(fg, "TURNS_PER_CHUNK", 3 * 4 * 100)  # 3 games per call
    chunked = fast_games(codes, who, seeds=np.arange(500))
    assert all((whole[k] == chunked[k]).all() for k in whole)


def test_the_progress_bar_appears_before_the_first_games_are_played(codes, monkeypatch, capsys):
    seen = []
    real = fg.loop.play_many

    def play_many(*args):
        seen.append(capsys.readouterr().err)
        return real(*args)

    monkeypatch.setattr(fg.loop, "play_many", play_many)
    fast_games(codes, np.zeros((10, 4), np.int64), seeds=np.arange(10), progress=True)
    assert "0/10" in seen[0]


LONG_CALL = """
import numpy as np
from monopoly_lesson.game.fast import fast_games, strategy_codes
codes = strategy_codes(["never"] * 4)
fast_games(codes, np.zeros((1, 4), np.int64), seeds=[0], max_rounds=1)  # compiled or loaded
print("started", flush=True)
fast_games(codes, np.zeros((100_000, 4), np.int64), seeds=np.arange(100_000), max_rounds=10_000)
"""


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_stops_a_long_call_within_seconds():
    """100,000 games of 10,000 rounds (hours of work): Ctrl-C is seen between chunks."""
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(LONG_CALL)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started"
        time.sleep(2)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = child.communicate(timeout=30)
        stopped = time.monotonic() - sent
    finally:
        child.kill()
        child.wait()
    assert "KeyboardInterrupt" in err and child.returncode != 0
    assert stopped < 5, f"the call went on for {stopped:.1f} s after Ctrl-C"


# -- the genetic algorithm's games ---------------------------------------------------


def test_a_generation_s_codes_are_made_once_and_give_the_same_games():
    buy, jail = population("rga", players=8)
    tables = np.random.default_rng(2).permutation(8).reshape(2, 4)
    once = genome_codes("rga", buy, jail)
    given = play_population_games("rga", buy, jail, tables, [5, 6], codes=once)
    built = play_population_games("rga", buy, jail, tables, [5, 6])
    assert all((given[k] == built[k]).all() for k in built)


def test_a_generation_s_games_come_back_in_table_order_whatever_order_they_are_played_in():
    """The games are played sorted by their players (for the cache) and returned unsorted:
    each row is the game of that table and that seed, as fast_games plays it alone."""
    buy, jail = population("rga", players=40)
    rng = np.random.default_rng(3)
    tables = np.concatenate([rng.permutation(40).reshape(10, 4) for _ in range(3)])
    seeds = rng.integers(0, 2**32, size=len(tables))
    assert not (np.diff(np.sort(tables, axis=1)[:, 0]) >= 0).all()  # not already in order
    out = play_population_games("rga", buy, jail, tables, seeds)
    alone = fast_games(genome_codes("rga", buy, jail), tables, seeds=seeds)
    assert all((out[name] == alone[name]).all() for name in out)
    assert len({tuple(row) for row in out["net_worth"]}) > 20  # the games differ


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"codes": "x"}, TypeError, "genome_codes"),
        ({"codes": "tga"}, ValueError, "of these 8 genomes"),
        ({"codes": "rga", "engine": "reference"}, ValueError, "fast engine"),
        ({"tables": [[0, 1, 2, -1]]}, ValueError, "from 0 to 7"),
        ({"tables": [[0, 1, 2, -1]], "engine": "reference"}, ValueError, "from 0 to 7"),
        ({"seeds": [1.5]}, TypeError, "whole numbers"),
        ({"seeds": [2**32]}, ValueError, "2\\*\\*32"),
        ({"max_rounds": 0}, ValueError, "max_rounds"),
        ({"chromosome": "xga"}, ValueError, "chromosome must be"),
    ],
)
def test_population_games_check_their_input_on_either_engine(kwargs, error, words):
    buy, jail = population("rga", players=8)
    other = genome_codes("tga", *population("tga", players=8))
    arguments = {"chromosome": "rga", "tables": [[0, 1, 2, 3]], "seeds": [0], **kwargs}
    named = {"rga": genome_codes("rga", buy, jail), "tga": other, "x": ["always"]}
    if "codes" in arguments:
        arguments["codes"] = named[arguments["codes"]]
    with pytest.raises(error, match=words):
        play_population_games(buy=buy, jail=jail, **arguments)
