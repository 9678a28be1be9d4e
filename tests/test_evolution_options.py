"""The genetic algorithm's options: the paper's operators by default, alternatives one
argument away (first population, selection, crossover, mutation), absolute fitness against a
fixed field, and the history's diversity and luck columns."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson.evolution.operators import (
    CROSSOVERS,
    GENE_BITS,
    LEVEL_SD,
    OPERATORS,
    check_fitness,
    check_operators,
    diversity,
    fitness_parts,
    genome_genes,
    next_population,
    random_population,
    rank_selection,
    roulette,
    tournament,
    uniform_crossover,
    used_genes,
)
from monopoly_lesson.evolution.run import evolve, load_evolution, play_generation
from monopoly_lesson.game.state import PRICE

TINY = dict(population=16, games_per_player=4, max_rounds=20, benchmark_every=0, progress=False)


def rng(seed=0):
    return np.random.default_rng(seed)


# -- the first population --------------------------------------------------------------------


@pytest.mark.parametrize("chromosome", ["rga", "tga", "sga", "ega", "bga"])
def test_a_levels_start_gives_each_table_of_a_genome_its_own_level(chromosome):
    genomes = random_population(chromosome, 400, rng(1), "levels")
    scale = 63 if chromosome == "sga" else 1
    buy, *others = (table.reshape(400, -1) / scale for table in genome_genes(chromosome, genomes))
    buy = buy[:, used_genes(chromosome)[: buy.shape[1]]]
    levels = [table.mean(axis=1) for table in (buy, *others)]
    for table, level in zip((buy, *others), levels, strict=True):
        assert table.min() >= 0 and table.max() <= 1
        assert level.std() > 0.25  # levels uniform from 0 to 1: sd 0.29 (clipping narrows it)
        if table.shape[1] > 1:  # around its own level, each table's spread is small
            assert 0.5 * LEVEL_SD < np.median(table.std(axis=1)) < 1.2 * LEVEL_SD
    assert abs(np.corrcoef(levels[0], levels[1])[0, 1]) < 0.2  # the tables' levels independent
    uniform = random_population(chromosome, 400, rng(1), "uniform")
    tables = genome_genes(chromosome, uniform)
    flat = np.concatenate([table.reshape(400, -1) for table in tables], axis=1) / scale
    assert flat[:, used_genes(chromosome)].mean(axis=1).std() < 0.05  # the paper's: all alike


@pytest.mark.parametrize("chromosome", ["rga", "ega"])
def test_a_level_start_gives_the_whole_genome_one_level(chromosome):
    """Every table of a genome sits around the same level: its buy and jail genes alike."""
    genomes = random_population(chromosome, 400, rng(1), "level")
    buy, jail, *_ = (table.reshape(400, -1) for table in genome_genes(chromosome, genomes))
    levels = buy[:, used_genes(chromosome)[: buy.shape[1]]].mean(axis=1), jail.mean(axis=1)
    assert levels[0].std() > 0.25 and np.corrcoef(*levels)[0, 1] > 0.95
    assert 0.5 * LEVEL_SD < np.median(genomes.std(axis=1)) < 1.2 * LEVEL_SD


def test_a_level_start_for_sga_writes_each_gene_as_its_6_bits():
    genomes = random_population("sga", 3, rng(2), "level")
    assert genomes.dtype == np.uint8 and set(np.unique(genomes)) <= {0, 1}
    buy, _ = genome_genes("sga", genomes)
    first = "".join(map(str, genomes[0, :GENE_BITS]))
    assert int(first, 2) == buy[0, 0, 0]


def test_the_uniform_start_is_the_paper_draw_unchanged():
    assert np.array_equal(random_population("rga", 5, rng(3)), rng(3).random((5, 4256)))


# -- selection ---------------------------------------------------------------------------------


def test_tournament_selection_takes_the_fitter_of_two_drawn():
    fitness = rng(4).permutation(50).astype(float)
    chosen = tournament(fitness, 1000, rng(5))
    drawn = rng(5).integers(0, 50, size=(1000, 2))
    assert np.array_equal(fitness[chosen], fitness[drawn].max(axis=1))


def test_rank_selection_chooses_in_proportion_to_rank_whatever_the_gaps():
    fitness = np.array([0.0, 1.0, 1000.0, 1e6])  # ranks 1, 2, 3, 4
    counts = np.bincount(rank_selection(fitness, 100_000, rng(6)), minlength=4) / 100_000
    np.testing.assert_allclose(counts, [0.1, 0.2, 0.3, 0.4], atol=0.01)
    tied = np.bincount(rank_selection(np.array([5.0, 5.0, 9.0]), 60_000, rng(7))) / 60_000
    np.testing.assert_allclose(tied, [0.25, 0.25, 0.5], atol=0.01)  # ranks 1.5, 1.5, 3


def test_roulette_is_still_proportional_to_fitness():
    counts = np.bincount(roulette(np.array([1.0, 3.0]), 40_000, rng(8))) / 40_000
    np.testing.assert_allclose(counts, [0.25, 0.75], atol=0.01)


# -- crossover and mutation --------------------------------------------------------------------


@pytest.mark.parametrize("bits", [False, True])
def test_uniform_crossover_hands_each_gene_to_one_child(bits):
    shape = (30, 64)
    first = rng(9).integers(0, 2, shape) if bits else rng(9).random(shape)
    second = rng(10).integers(0, 2, shape) if bits else rng(10).random(shape)
    child1, child2 = uniform_crossover(first, second, rng(11))
    from_first = child1 == first
    assert np.all(from_first | (child1 == second))
    assert np.all(np.where(from_first, child2 == second, child2 == first))
    differ = first != second
    assert 0.4 < from_first[differ].mean() < 0.6


def test_the_default_options_breed_as_the_paper():
    genomes, fitness = rng(12).random((40, 20)), rng(13).random(40) * 10
    paper = next_population(genomes, fitness, rng(14))
    spelled = next_population(
        genomes,
        fitness,
        rng(14),
        selection="roulette",
        crossover="blend",
        mutation_rate=0.01,
        mutation_sd=0.1,
    )
    assert np.array_equal(paper, spelled)


@pytest.mark.parametrize("selection", ["tournament", "rank"])
@pytest.mark.parametrize("crossover", CROSSOVERS)
def test_every_option_breeds_a_population_of_genes_in_range(selection, crossover):
    bits = crossover == "one-point"
    genomes = rng(15).integers(0, 2, (40, 24), dtype=np.uint8) if bits else rng(15).random((40, 24))
    bred = next_population(
        genomes, rng(16).random(40), rng(17), bits=bits, selection=selection, crossover=crossover
    )
    assert bred.shape == genomes.shape and bred.dtype == genomes.dtype
    assert bred.min() >= 0 and bred.max() <= 1
    assert not np.array_equal(bred, genomes)


def test_the_mutation_rate_and_size_are_the_options_given():
    genomes, fitness = np.full((100, 400), 0.5), np.ones(100)
    same = next_population(genomes, fitness, rng(18), mutation_rate=0.0)
    assert np.array_equal(same, genomes)  # nothing to mix, nothing mutated: all copies
    mutants = slice(40, 70)  # split_counts(100): 10 elite, 30 copies, then 30 mutated
    moved = next_population(genomes, fitness, rng(18), mutation_rate=0.5, mutation_sd=0.05)
    changes = moved[mutants] - 0.5
    assert 0.4 < (changes != 0).mean() < 0.6
    assert 0.04 < changes[changes != 0].std() < 0.06


@pytest.mark.parametrize(
    ("chromosome", "options", "error", "words"),
    [
        ("rga", {"init": "random"}, ValueError, "init must be one of uniform, level"),
        ("rga", {"selection": "best"}, ValueError, "selection must be one of roulette, tournament"),
        ("rga", {"crossover": 2}, ValueError, "crossover must be one of blend, one-point, uniform"),
        ("sga", {"crossover": "blend"}, ValueError, "SGA's genes are bits"),
        ("sga", {"mutation_sd": 0.3}, ValueError, "SGA's mutation flips bits"),
        ("rga", {"mutation_rate": 1.5}, ValueError, "mutation_rate must be from 0 to 1"),
        ("rga", {"mutation_sd": -0.1}, ValueError, "mutation_sd must be from 0 to 1"),
        ("rga", {"mutation_rate": True}, TypeError, "mutation_rate must be a number"),
        ("rga", {"mutation_rate": "0.1"}, TypeError, "mutation_rate must be a number"),
        ("rga", {"elitism": 0.2}, TypeError, "unknown operator option 'elitism'"),
    ],
)
def test_a_bad_option_says_what_is_allowed(chromosome, options, error, words):
    with pytest.raises(error, match=words):
        check_operators(chromosome, **options)


def test_the_defaults_are_the_papers_for_each_chromosome():
    assert check_operators("rga")["crossover"] == "blend"
    assert check_operators("sga")["crossover"] == "one-point"
    assert {k: v for k, v in check_operators("tga").items() if k != "crossover"} == {
        k: v for k, v in OPERATORS.items() if k != "crossover"
    }


# -- diversity and luck ------------------------------------------------------------------------


def test_diversity_is_the_mean_sd_of_the_genes_players_read():
    assert used_genes("rga").sum() == 4 * len(PRICE) + 64 * 64
    assert used_genes("tga").sum() == 4 * len(PRICE) + 16
    assert abs(diversity("rga", random_population("rga", 500, rng(19))) - 12**-0.5) < 0.005
    copies = np.repeat(random_population("tga", 1, rng(20)), 30, axis=0)
    assert diversity("tga", copies) < 1e-12
    genomes = random_population("tga", 30, rng(21))
    genomes[:, ~used_genes("tga")] = 0.5  # genes nobody reads do not count
    assert diversity("tga", genomes) == diversity("tga", random_population("tga", 30, rng(21)))
    bits = random_population("sga", 500, rng(22))
    assert abs(diversity("sga", bits) - 0.29) < 0.02  # n/63 of 6 random bits: sd 0.289


def test_players_all_alike_show_only_luck():
    """The same genome 200 times: the fitness spread is all luck (share near 1), and the luck
    of FINISH_ORDER over g games is sqrt(1.25 g)."""
    genomes = np.repeat(random_population("tga", 1, rng(23)), 200, axis=0)
    run = evolve(
        "tga",
        population=200,
        games_per_player=40,
        generations=1,
        benchmark_every=0,
        progress=False,
        max_rounds=30,
    )
    row = run.history.iloc[0]
    assert abs(row["luck_sd"] - (1.25 * 40) ** 0.5) < 0.35
    from monopoly_lesson.evolution.run import _score_generation

    alike = _score_generation("tga", genomes, "finish_order", 40, rng(24), 30, None)
    share = alike.luck_sd**2 / alike.fitness.var()
    assert 0.75 < share < 1.33  # 200 players: the sample variance is within about 20%
    assert run.history.columns[-3:].tolist() == ["diversity", "luck_sd", "luck_share"]
    assert row["luck_share"] == pytest.approx(row["luck_sd"] ** 2 / row["sd"] ** 2)


# -- absolute fitness --------------------------------------------------------------------------


def test_absolute_fitness_names_its_field_and_scoring():
    assert fitness_parts("vs:heuristic,always,heuristic") == (
        "finish_order",
        ("heuristic", "always", "heuristic"),
    )
    assert check_fitness("vs: heuristic ,always,never:finish_order") == "vs:heuristic,always,never"
    assert check_fitness("vs:always,always,always:num_wins") == "vs:always,always,always:num_wins"
    for bad, words in [
        ("vs:always,always", "names the 3 strategies"),
        ("vs:a,b,c:wins", "the scoring after the field must be one of"),
        ("winner", "or 'vs:A,B,C'"),
    ]:
        with pytest.raises(ValueError, match=words):
            check_fitness(bad)


def test_absolute_fitness_is_each_genomes_finish_points_in_the_same_games_against_the_field():
    """Each game played again on its own, the genome seated as a player among the field."""
    from monopoly_lesson.evolution.operators import genome_player
    from monopoly_lesson.game.fast import fast_games, strategy_codes

    genomes = random_population("tga", 3, rng(25))
    field = ["heuristic", "always", "never"]
    fitness = play_generation("tga", genomes, "vs:" + ",".join(field), 6, rng(26), 40)
    seeds = rng(26).integers(0, 2**32, size=6, dtype=np.int64)
    for i, genome in enumerate(genomes):
        player, points = genome_player("tga", genome), 0
        for g, seed in enumerate(seeds):
            seats = np.roll(np.array([player, *field], dtype=object), g % 4).tolist()
            finish = fast_games(
                strategy_codes(seats), np.array([[0, 1, 2, 3]]), seeds=[int(seed)], max_rounds=40
            )["finish"][0]
            points += 4 - finish[seats.index(player)]
        assert fitness[i] == points


def test_an_absolute_fitness_has_no_luck_column_its_players_share_their_games():
    run = evolve("tga", fitness="vs:heuristic,always,heuristic", generations=2, **TINY)
    assert run.history["luck_sd"].isna().all() and run.history["luck_share"].isna().all()
    assert run.history["diversity"].notna().all()


def test_a_field_the_fast_engine_cannot_seat_is_refused_before_any_game(tmp_path):
    with pytest.raises(ValueError, match=r"the fitness's field a,b,c: unknown strategy 'a'"):
        evolve("tga", fitness="vs:a,b,c", out=tmp_path / "run", **TINY)
    assert not (tmp_path / "run").exists()


# -- runs, folders and the command line --------------------------------------------------------

OPTIONS = dict(
    init="level", selection="tournament", crossover="uniform", mutation_rate=0.05, mutation_sd=0.2
)


def test_a_run_with_options_resumes_exactly_and_records_them(tmp_path):
    whole = evolve("tga", generations=3, out=tmp_path / "whole", **OPTIONS, **TINY)
    evolve("tga", generations=2, out=tmp_path / "part", **OPTIONS, **TINY)
    resumed = evolve("tga", generations=3, out=tmp_path / "part", resume=True, **OPTIONS, **TINY)
    pd.testing.assert_frame_equal(resumed.history, whole.history)
    stored = json.loads((tmp_path / "whole" / "parameters.json").read_text())
    assert {key: stored[key] for key in OPTIONS} == OPTIONS
    assert (
        "--init level --selection tournament --crossover uniform --mutation-rate 0.05 "
        "--mutation-sd 0.2" in stored["command"]
    )
    paper = evolve("tga", generations=3, **TINY)
    assert not paper.history.equals(whole.history)
    with pytest.raises(ValueError, match="selection 'tournament' there, 'roulette' here"):
        evolve("tga", generations=4, out=tmp_path / "whole", resume=True, **TINY)


def test_a_run_written_before_the_options_reads_and_resumes_as_the_papers(tmp_path):
    folder = tmp_path / "old"
    evolve("tga", generations=2, out=folder, **TINY)
    stored = json.loads((folder / "parameters.json").read_text())
    for key in OPERATORS:
        del stored[key]
    (folder / "parameters.json").write_text(json.dumps(stored))
    history = pd.read_csv(folder / "history.csv")
    history.drop(columns=["diversity", "luck_sd", "luck_share"]).to_csv(
        folder / "history.csv", index=False, lineterminator="\n"
    )
    old = load_evolution(folder)
    assert old.history["diversity"].isna().all() and old.parameters["crossover"] == "blend"
    resumed = evolve("tga", generations=3, out=folder, resume=True, **TINY)
    whole = evolve("tga", generations=3, **TINY)
    columns = ["generation", "mean", "sd", "max"]
    pd.testing.assert_frame_equal(resumed.history[columns], whole.history[columns])
    assert resumed.history["diversity"].isna().tolist() == [True, True, False]


def test_the_command_line_takes_the_options(tmp_path):
    command = [
        sys.executable,
        "-m",
        "monopoly_lesson",
        "evolve",
        "--chromosome",
        "tga",
        "--population",
        "16",
        "--games-per-player",
        "4",
        "--generations",
        "2",
        "--max-rounds",
        "20",
        "--benchmark-every",
        "0",
        "--no-progress",
        "--out",
        str(tmp_path / "cli"),
        "--init",
        "level",
        "--selection",
        "rank",
        "--crossover",
        "uniform",
        "--mutation-rate",
        "0.05",
        "--fitness",
        "vs:heuristic,always,heuristic",
        "--trading",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    again = evolve(
        "tga",
        fitness="vs:heuristic,always,heuristic",
        generations=2,
        init="level",
        selection="rank",
        crossover="uniform",
        mutation_rate=0.05,
        trading=True,
        **TINY,
    )
    pd.testing.assert_frame_equal(load_evolution(tmp_path / "cli").history, again.history)


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--init", "random"], "argument --init: invalid choice: 'random'"),
        (["--mutation-rate", "2"], "argument --mutation-rate: expected a number from 0 to 1"),
        (["--fitness", "vs:always"], "names the 3 strategies of its fixed field"),
        (["--chromosome", "sga", "--crossover", "blend"], "SGA's genes are bits"),
    ],
)
def test_bad_options_on_the_command_line_are_one_line_and_status_2(tmp_path, words, said):
    command = [
        sys.executable,
        "-m",
        "monopoly_lesson",
        "evolve",
        "--out",
        str(tmp_path / "x"),
        *words,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and said in done.stderr, done.stderr


def test_win_rates_against_seats_every_player_in_the_same_games():
    """Each game played again on its own: the player in seat g % 4 + 1, the field rotated."""
    from monopoly_lesson.evolution.run import win_rates_against
    from monopoly_lesson.game.fast import fast_games, strategy_codes

    field = ["heuristic", "always", "heuristic"]
    table = win_rates_against(["always", "random:0.5"], field, games=12, seed=3, max_rounds=40)
    seeds = np.random.SeedSequence(3).generate_state(12)
    for name in ("always", "random:0.5"):
        wins = 0
        for g, seed in enumerate(seeds):
            seats = np.roll(np.array([name, *field], dtype=object), g % 4).tolist()
            finish = fast_games(
                strategy_codes(seats), np.array([[0, 1, 2, 3]]), seeds=[int(seed)], max_rounds=40
            )["finish"][0]
            wins += finish[g % 4] == 1
        assert table.loc[name, "wins"] == wins
    assert table["ci_low"].le(table["win_rate"]).all() and table.index.name == "player"


# -- trading ------------------------------------------------------------------------------------


def test_a_run_with_trading_plays_its_games_with_trades_and_records_it(tmp_path):
    """The same seeds with and without trading: other games, so another history; the option
    is in parameters.json and the command, and a resumed run keeps it."""
    traded = evolve("tga", generations=3, trading=True, out=tmp_path / "t", **TINY)
    plain = evolve("tga", generations=3, **TINY)
    assert not traded.history[["sd", "max", "min"]].equals(plain.history[["sd", "max", "min"]])
    stored = json.loads((tmp_path / "t" / "parameters.json").read_text())
    assert stored["trading"] is True and stored["command"].endswith(
        f"--trading --out {tmp_path / 't'}"
    )
    evolve("tga", generations=2, trading=True, out=tmp_path / "r", **TINY)
    resumed = evolve("tga", generations=3, trading=True, out=tmp_path / "r", resume=True, **TINY)
    pd.testing.assert_frame_equal(resumed.history, traded.history)
    with pytest.raises(ValueError, match="trading True there, False here"):
        evolve("tga", generations=4, out=tmp_path / "t", resume=True, **TINY)
    with pytest.raises(TypeError, match="trading must be True or False"):
        evolve("tga", trading="yes", **TINY)


def test_a_trading_generation_is_its_games_with_trades():
    """play_generation with trading: the fitness of the games fast_games plays with trades."""
    from monopoly_lesson.evolution.population_games import play_population_games
    from monopoly_lesson.evolution.run import seat_tables

    genomes = random_population("tga", 16, rng(30))
    fitness = play_generation("tga", genomes, "num_monopolies", 8, rng(31), 60, trading=True)
    again = rng(31)
    tables = seat_tables(16, 8, again)
    seeds = again.integers(0, 2**32, size=len(tables), dtype=np.int64)
    buy, jail = genome_genes("tga", genomes)
    out = play_population_games("tga", buy, jail, tables, seeds, 60, trading=True)
    assert np.array_equal(fitness, np.bincount(tables.ravel(), out["monopolies"].ravel(), 16))
    plain = play_population_games("tga", buy, jail, tables, seeds, 60)
    assert out["monopolies"].sum() > plain["monopolies"].sum()  # trades complete groups


def test_fitness_names_are_taken_in_the_chapters_capitals_and_kept_as_the_api_spells_them():
    tiny = dict(
        population=8,
        games_per_player=1,
        generations=1,
        benchmark_every=0,
        max_rounds=5,
        progress=False,
    )
    capitals = evolve("RGA", "NET_WORTH", **tiny)
    api = evolve("rga", "net_worth", **tiny)
    assert capitals.parameters["fitness"] == "net_worth"
    assert capitals.parameters["chromosome"] == "rga"
    assert "--fitness net_worth" in capitals.parameters["command"]
    pd.testing.assert_frame_equal(capitals.history, api.history)
    assert check_fitness("vs:heuristic,always,heuristic:NUM_WINS") == (
        "vs:heuristic,always,heuristic:num_wins"
    )
    assert fitness_parts("VS:heuristic,always,heuristic") == (
        "finish_order",
        ("heuristic", "always", "heuristic"),
    )
