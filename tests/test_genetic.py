"""The genetic algorithm: its operators, the fitness identities, reproducible and resumable runs."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from test_evolve_files import FILES

from monopoly_lesson.evolution import run as evolution_run
from monopoly_lesson.evolution.files import BENCHMARK_COLUMNS, HISTORY_COLUMNS
from monopoly_lesson.evolution.operators import (
    FITNESS,
    crossover,
    flip_bits,
    genome_genes,
    genome_length,
    genome_player,
    mutate,
    next_population,
    one_point_crossover,
    random_population,
    roulette,
    select_elite,
    split_counts,
)
from monopoly_lesson.evolution.run import evolve, load_evolution, play_generation, seat_tables
from monopoly_lesson.game.chromosomes import RGA, SGA, TGA
from monopoly_lesson.game.tournament import play_games, win_rates

SMALL = dict(population=16, games_per_player=2, max_rounds=10, benchmark_games=4, progress=False)


def rng(seed=0):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------
# The operators
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("population", [*range(4, 200), 1000, 1004, 4000, 9996])
def test_the_four_parts_of_the_next_population_sum_to_it(population):
    elite, copies, mutants, children = split_counts(population)
    assert elite + copies + mutants + children == population
    assert min(elite, copies, mutants, children) >= 0 and elite >= 1
    assert abs(elite - population / 10) <= 1 and abs(copies - 0.3 * population) <= 0.5


def test_the_paper_split_of_1000_players():
    assert split_counts(1000) == (100, 300, 300, 300)
    with pytest.raises(ValueError, match="population must be at least 4"):
        split_counts(3)


def test_the_elite_are_the_fittest_tenth_and_survive_unchanged():
    genomes = rng(1).random((40, 30))
    fitness = rng(2).permutation(40).astype(float)
    elite = select_elite(fitness, 4)
    assert sorted(fitness[elite]) == [36, 37, 38, 39] and fitness[elite[0]] == 39
    following = next_population(genomes, fitness, rng(3))
    assert following.shape == genomes.shape and following.dtype == genomes.dtype
    np.testing.assert_array_equal(following[:4], genomes[elite])


def test_roulette_chooses_in_proportion_to_fitness():
    fitness = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    drawn = roulette(fitness, 200_000, rng(4))
    shares = np.bincount(drawn, minlength=5) / len(drawn)
    np.testing.assert_allclose(shares, fitness / fitness.sum(), atol=0.005)
    assert shares[0] == 0


def test_roulette_is_uniform_when_nobody_scored_and_refuses_negative_fitness():
    shares = np.bincount(roulette(np.zeros(4), 100_000, rng(5)), minlength=4) / 100_000
    np.testing.assert_allclose(shares, 0.25, atol=0.01)
    with pytest.raises(ValueError, match="0 or more"):
        roulette(np.array([1.0, -1.0]), 3, rng())


def test_mutation_changes_one_gene_in_a_hundred_by_noise_of_sd_a_tenth():
    genomes = np.full((400, 500), 0.5)
    mutated = mutate(genomes, rng(6))
    changed = mutated != 0.5
    assert abs(changed.mean() - 0.01) < 0.001
    assert abs((mutated[changed] - 0.5).std() - 0.1) < 0.007
    assert abs((mutated[changed] - 0.5).mean()) < 0.007
    assert (genomes == 0.5).all(), "the parents are not changed"


def test_mutated_genes_stay_between_0_and_1():
    edges = np.array([[0.0] * 500, [1.0] * 500])
    mutated = mutate(edges, rng(7), rate=1.0)
    assert mutated.min() >= 0 and mutated.max() <= 1
    assert (mutated == 0).any() and (mutated == 1).any() and (mutated != edges).any()


def test_sga_mutation_flips_one_bit_in_a_hundred():
    bits = rng(8).integers(0, 2, size=(200, 1056), dtype=np.uint8)
    flipped = flip_bits(bits, rng(9))
    assert flipped.dtype == np.uint8 and set(np.unique(flipped)) <= {0, 1}
    assert abs((flipped != bits).mean() - 0.01) < 0.001


def test_blend_crossover_children_sum_to_the_parents_and_lie_between_them():
    first, second = rng(10).random((50, 80)), rng(11).random((50, 80))
    child1, child2 = crossover(first, second, rng(12))
    np.testing.assert_allclose(child1 + child2, first + second, atol=1e-12)
    low, high = np.minimum(first, second) - 1e-12, np.maximum(first, second) + 1e-12
    for child in (child1, child2):
        assert ((low <= child) & (child <= high)).all()
    a = (child1 - second) / (first - second)  # one mixing weight per pair
    np.testing.assert_allclose(a, a[:, :1] * np.ones(80), atol=1e-8)
    assert a[:, 0].std() > 0.1, "a differs between pairs"


def test_one_point_crossover_keeps_a_prefix_of_one_parent_and_the_suffix_of_the_other():
    ones, zeros = np.ones((300, 12), dtype=np.uint8), np.zeros((300, 12), dtype=np.uint8)
    child1, child2 = one_point_crossover(ones, zeros, rng(13))
    cuts = child1.sum(axis=1)
    assert cuts.min() == 1 and cuts.max() == 11, "the cut is 1..n-1"
    for child, cut in zip(child1, cuts, strict=True):
        assert child.tolist() == [1] * cut + [0] * (12 - cut)
    np.testing.assert_array_equal(child1 + child2, 1)


def test_sga_breeding_keeps_bits():
    bits = random_population("sga", 20, rng(14))
    following = next_population(bits, rng(15).random(20), rng(16), bits=True)
    assert following.dtype == np.uint8 and following.shape == bits.shape
    assert set(np.unique(following)) <= {0, 1}


# ---------------------------------------------------------------------------
# Genomes and the players they are
# ---------------------------------------------------------------------------


def test_sga_genomes_read_as_the_players_bit_string():
    bits = random_population("sga", 3, rng(17))
    buy, jail = genome_genes("sga", bits)
    assert buy.shape == (3, 4, 40) and jail.shape == (3, 4, 4) and buy.max() <= 63
    player = genome_player("sga", bits[1])
    assert isinstance(player, SGA) and player.bits == "".join(map(str, bits[1]))


@pytest.mark.parametrize(("name", "kind", "jail"), [("rga", RGA, 64), ("tga", TGA, 4)])
def test_real_genomes_are_the_buy_then_the_jail_genes(name, kind, jail):
    genome = random_population(name, 1, rng(18))[0]
    assert len(genome) == genome_length(name) == 160 + jail * jail
    player = genome_player(name, genome)
    assert type(player) is kind
    np.testing.assert_array_equal(player.buy_genes, genome[:160].reshape(4, 40))
    np.testing.assert_array_equal(player.jail_genes, genome[160:].reshape(jail, jail))


def test_each_player_plays_exactly_its_games():
    tables = seat_tables(24, 5, rng(19))
    assert tables.shape == (30, 4)
    assert np.bincount(tables.ravel()).tolist() == [5] * 24
    assert all(len(set(table)) == 4 for table in tables)


def test_the_fitness_functions_score_a_game():
    outcome = {
        "finish": np.array([[2, 1, 4, 3]]),
        "lots": np.array([[5, 9, 0, 3]]),
        "monopolies": np.array([[0, 2, 0, 1]]),
        "net_worth": np.array([[1234, 5000, 0, 250]]),
    }
    points = {name: FITNESS[name](outcome).tolist() for name in FITNESS}
    assert points == {
        "num_wins": [[0, 3, 0, 0]],
        "num_properties": [[5, 9, 0, 3]],
        "num_monopolies": [[0, 2, 0, 1]],
        "finish_order": [[2, 3, 0, 1]],
        "net_worth": [[12.34, 50.0, 0.0, 2.5]],
    }


def test_a_generation_hands_out_3_points_per_game_to_winners():
    genomes = random_population("tga", 20, rng(20))
    fitness = play_generation("tga", genomes, "num_wins", 4, rng(21), max_rounds=10)
    assert fitness.shape == (20,) and fitness.sum() == 3 * (20 * 4 / 4)


# ---------------------------------------------------------------------------
# Whole runs
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run_tga():
    return evolve("tga", "finish_order", generations=3, seed=3, benchmark_every=2, **SMALL)


def test_finish_order_shares_6_points_a_game_so_the_mean_is_1_5_per_game(run_tga):
    history = run_tga.history
    assert list(history.columns) == list(HISTORY_COLUMNS)
    assert history["generation"].tolist() == [1, 2, 3]
    assert (history["mean"] == 1.5 * SMALL["games_per_player"]).all()
    assert (history["min"] <= history["q1"]).all() and (history["q3"] <= history["max"]).all()


def test_num_wins_hands_out_3_points_per_game():
    run = evolve("sga", "num_wins", generations=2, benchmark_every=0, **SMALL)
    games = SMALL["population"] * SMALL["games_per_player"] / 4
    assert (run.history["mean"] * SMALL["population"] == 3 * games).all()
    assert run.benchmark.empty and list(run.benchmark.columns) == list(BENCHMARK_COLUMNS)


def test_the_result_holds_the_best_genomes_the_population_and_the_benchmark(run_tga):
    assert run_tga.best_genomes.shape == (3, 176) and run_tga.population.shape == (16, 176)
    assert run_tga.fitness.max() == run_tga.best_fitness[-1] == run_tga.history["max"].iloc[-1]
    best = run_tga.best_player()
    assert isinstance(best, TGA)
    np.testing.assert_array_equal(best.jail_genes.ravel(), run_tga.best_genomes[-1][160:])
    assert isinstance(run_tga.best_player(1), TGA)
    assert run_tga.benchmark["generation"].tolist() == [2, 3]  # every 2nd, and the last
    assert (run_tga.benchmark["games"] == 4).all()
    assert (run_tga.benchmark["ci_low"] <= run_tga.benchmark["win_rate"]).all()
    assert run_tga.generations_run == 3 and "tga finish_order" in repr(run_tga)
    with pytest.raises(ValueError, match="from 1 to 3"):
        run_tga.best_player(4)


def test_the_same_seed_gives_the_same_run_and_another_seed_another(run_tga):
    again = evolve("tga", "finish_order", generations=3, seed=3, benchmark_every=2, **SMALL)
    pd.testing.assert_frame_equal(again.history, run_tga.history)
    pd.testing.assert_frame_equal(again.benchmark, run_tga.benchmark)
    np.testing.assert_array_equal(again.population, run_tga.population)
    other = evolve("tga", "finish_order", generations=1, seed=4, benchmark_every=0, **SMALL)
    assert not np.array_equal(other.best_genomes[0], run_tga.best_genomes[0])


def files_of(folder):
    return {name: (folder / name).read_bytes() for name in FILES}


def run_in(folder, monkeypatch, **options):
    """Run in ``folder``/run, given relatively (so parameters.json's command is the same)."""
    folder.mkdir(exist_ok=True)
    monkeypatch.chdir(folder)
    parameters = dict(chromosome="rga", fitness="net_worth", seed=1, benchmark_every=2, **SMALL)
    return evolve(**{**parameters, **options}, out="run")


@pytest.mark.parametrize("chromosome", ["rga", "sga"])
def test_a_run_stopped_and_resumed_writes_the_same_files(tmp_path, monkeypatch, chromosome):
    whole = run_in(tmp_path / "whole", monkeypatch, chromosome=chromosome, generations=3)
    expected = files_of(tmp_path / "whole" / "run")
    run_in(tmp_path / "parts", monkeypatch, chromosome=chromosome, generations=1)
    resumed = run_in(
        tmp_path / "parts", monkeypatch, chromosome=chromosome, generations=3, resume=True
    )
    assert files_of(tmp_path / "parts" / "run") == expected
    assert resumed.generations_run == 2
    pd.testing.assert_frame_equal(resumed.history, whole.history)
    pd.testing.assert_frame_equal(resumed.benchmark, whole.benchmark)
    np.testing.assert_array_equal(resumed.best_genomes, whole.best_genomes)
    loaded = load_evolution(tmp_path / "whole" / "run")
    pd.testing.assert_frame_equal(loaded.history, whole.history)
    np.testing.assert_array_equal(loaded.population, whole.population)


def interrupt_after(calls, monkeypatch):
    """Make the games raise KeyboardInterrupt (Ctrl-C) after ``calls`` calls."""
    real = evolution_run.play_population_games
    count = {"calls": 0}

    def play(*args, **kwargs):
        count["calls"] += 1
        if count["calls"] > calls:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(evolution_run, "play_population_games", play)


def test_ctrl_c_leaves_the_last_generation_and_resuming_completes_the_run(tmp_path, monkeypatch):
    run_in(tmp_path / "whole", monkeypatch, generations=3)
    expected = files_of(tmp_path / "whole" / "run")
    with monkeypatch.context() as patch:
        interrupt_after(2, patch)  # one call per generation here: stop during generation 3
        with pytest.raises(KeyboardInterrupt):
            run_in(tmp_path / "cut", monkeypatch, generations=3)
    folder = tmp_path / "cut" / "run"
    kept = set(FILES) - {"best.npz", "population.npz"}  # generations 1-2 kept as fitness
    assert sorted(path.name for path in folder.iterdir()) == sorted(kept), "no temporary files"
    assert len(pd.read_csv(folder / "history.csv")) == 2
    with np.load(folder / "recent.npz") as data:
        assert list(data["generation"]) == [1, 2]
    assert len(load_evolution(folder).history) == 2
    run_in(tmp_path / "cut", monkeypatch, generations=3, resume=True)
    assert files_of(folder) == expected


def test_resume_of_a_finished_run_returns_it_and_fewer_generations_are_refused(tmp_path):
    out = tmp_path / "run"
    first = evolve("tga", generations=2, out=out, benchmark_every=0, **SMALL)
    again = evolve("tga", generations=2, out=out, resume=True, benchmark_every=0, **SMALL)
    assert again.generations_run == 0
    pd.testing.assert_frame_equal(again.history, first.history)
    with pytest.raises(ValueError, match="already holds 2 generations"):
        evolve("tga", generations=1, out=out, resume=True, benchmark_every=0, **SMALL)


def test_a_folder_with_a_run_is_never_overwritten(tmp_path):
    out = tmp_path / "run"
    evolve("tga", generations=1, out=out, benchmark_every=0, **SMALL)
    before = files_of(out)
    with pytest.raises(ValueError, match=r"already holds this run; pass resume=True \(--resume"):
        evolve("tga", generations=1, out=out, benchmark_every=0, **SMALL)
    with pytest.raises(ValueError, match=r"holds a different run .*population 16 there, 20 here"):
        evolve(
            "tga",
            generations=1,
            out=out,
            benchmark_every=0,
            resume=True,
            **{**SMALL, "population": 20},
        )
    with pytest.raises(ValueError, match=r"different run .*chromosome 'tga' there, 'rga' here"):
        evolve("rga", generations=1, out=out, benchmark_every=0, resume=True, **SMALL)
    assert files_of(out) == before
    params = json.loads((out / "parameters.json").read_text())
    assert params["version"] and params["command"].startswith("python -m monopoly_lesson evolve")


def test_a_folder_of_other_files_or_a_file_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds other files but no run"):
        evolve("tga", generations=1, out=tmp_path, **SMALL)
    with pytest.raises(ValueError, match="must be a folder"):
        evolve("tga", generations=1, out=tmp_path / "notes.txt", **SMALL)
    with pytest.raises(ValueError, match="resume=True needs out"):
        evolve("tga", generations=1, resume=True, **SMALL)
    with pytest.raises(ValueError, match="holds no run"):
        load_evolution(tmp_path)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        (
            {"chromosome": "xga"},
            ValueError,
            "chromosome must be one of rga, tga, sga, ega, bga, got",
        ),
        ({"chromosome": 1}, TypeError, "chromosome must be a name"),
        ({"fitness": "wins"}, ValueError, "fitness must be one of num_wins, num_properties"),
        ({"population": 18}, ValueError, "population must be a multiple of 4"),
        ({"population": 0}, ValueError, "population must be at least 4"),
        ({"population": 16.0}, TypeError, "population must be a whole number"),
        ({"games_per_player": 0}, ValueError, "games_per_player must be at least 1"),
        ({"generations": True}, TypeError, "generations must be a whole number"),
        ({"seed": -1}, ValueError, r"seed must be from 0 to 2\*\*32 - 1"),
        ({"seed": 2**32}, ValueError, r"seed must be from 0 to 2\*\*32 - 1"),
        ({"benchmark_every": -1}, ValueError, "benchmark_every must be at least 0"),
        ({"benchmark_games": 0}, ValueError, "benchmark_games must be at least 1"),
        ({"max_rounds": 0}, ValueError, "max_rounds must be from 1 to 10,000"),
        ({"max_rounds": 10**9}, ValueError, "max_rounds must be from 1 to 10,000"),
        ({"max_rounds": 2**63}, ValueError, "max_rounds must be from 1 to 10,000"),
        ({"out": ""}, ValueError, "out must be a folder's path, got an empty one"),
        ({"games_per_player": 10**12}, ValueError, r"at most [0-9,]+ games per player fit with "),
        ({"population": 100_000_000}, ValueError, r"at most [0-9,]+ players fit with 1 game"),
        ({"resume": "yes"}, TypeError, "resume must be True or False"),
        ({"progress": 1}, TypeError, "progress must be True or False"),
        ({"out": 3}, TypeError, "out must be a folder's path"),
    ],
)
def test_bad_arguments_get_plain_errors(options, error, message):
    with pytest.raises(error, match=message):
        evolve(**{"population": 16, "games_per_player": 1, "generations": 1, **options})


def test_identical_players_score_a_binomial_like_spread():
    """The paper's "binomial" generation 0, checked where it can be exact: a population of
    one genome copied 400 times. Each game's FINISH_ORDER points are 3, 2, 1, 0 with equal
    chance for identical players, so 100 games give mean 150 and sd sqrt(100 * 1.25) = 11.2;
    players that differ (random genes) spread wider."""
    rng = np.random.default_rng(7)
    genome = random_population("rga", 1, rng)
    same = play_generation("rga", np.repeat(genome, 400, axis=0), "finish_order", 100, rng)
    assert same.mean() == 150
    assert 10.0 < same.std() < 12.5
    mixed = play_generation("rga", random_population("rga", 400, rng), "finish_order", 100, rng)
    assert mixed.std() > 12.5


def test_a_small_run_of_200_players_and_20_generations():
    """Small enough for a test (a few seconds): the history's shape and FINISH_ORDER's mean."""
    run = evolve(
        "rga",
        population=200,
        games_per_player=20,
        generations=20,
        seed=3,
        benchmark_every=0,
        progress=False,
    )
    assert list(run.history["generation"]) == list(range(1, 21))
    assert (run.history["mean"] == 1.5 * 20).all()
    assert run.best_genomes.shape == (20, genome_length("rga"))


def test_benchmark_each_tells_a_buyer_from_a_non_buyer():
    """Genes of 1 buy everything, genes of 0 nothing: against the heuristic field the first
    wins far more often (the benchmark can fail)."""
    from monopoly_lesson.evolution.run import benchmark_each

    genomes = np.vstack([np.ones(genome_length("rga")), np.zeros(genome_length("rga"))])
    each = benchmark_each("rga", genomes, games=400, seed=1)
    assert list(each["games"]) == [400, 400]
    assert each["ci_low"].iloc[0] > each["ci_high"].iloc[1]
    assert each["wins"].iloc[1] < 20


# -- the benchmark: play_games's games, played by the fast engine from their own draws ------


def benchmark_by_definition(player, games, seed, trading=False):
    """The benchmark straight from its definition: play_games in the reference engine."""
    table = play_games(
        [player, *evolution_run.BENCHMARK_OPPONENTS], games, seed=seed, trading=trading
    )
    row = win_rates(table).loc[str(player.name)]
    return {
        "games": int(row["games"]),
        "wins": int(row["wins"]),
        **{name: float(row[name]) for name in ("win_rate", "ci_low", "ci_high")},
    }


@pytest.mark.parametrize("trading", [False, True], ids=["without trading", "with trading"])
@pytest.mark.parametrize("name", ["rga_level", "ega_trading"])
def test_the_benchmark_is_play_games_s_games_to_the_last_digit(name, trading):
    from monopoly_lesson import load_shipped_run

    player = load_shipped_run(name).best_player()
    assert evolution_run.benchmark(player, 60, seed=7, trading=trading) == (
        benchmark_by_definition(player, 60, seed=7, trading=trading)
    )


def test_a_benchmark_the_fast_engine_cannot_play_is_played_by_the_reference_engine():
    from monopoly_lesson import make_strategy

    mine = make_strategy("mine", buy=lambda game, me, space: space % 2 == 0)
    assert evolution_run._benchmark_wins(mine, 8, 1, 100, False) is None
    assert evolution_run.benchmark(mine, 8, seed=1) == benchmark_by_definition(mine, 8, seed=1)


def test_a_benchmark_whose_games_outrun_their_draws_is_played_by_the_reference_engine(
    monkeypatch,
):
    from monopoly_lesson.game.streams import GameStreams

    player = RGA.random(seed=3)
    expected = benchmark_by_definition(player, 8, seed=2)
    short = GameStreams.of_seed.__func__

    def few_rolls(cls, seed, players, **size):
        return short(cls, seed, players, rolls=20)

    monkeypatch.setattr(GameStreams, "of_seed", classmethod(few_rolls))
    assert evolution_run._benchmark_wins(player, 8, 2, 100, False) is None
    assert evolution_run.benchmark(player, 8, seed=2) == expected
