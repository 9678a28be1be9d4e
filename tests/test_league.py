"""League fitness: several fields (self, built-in and shipped players, saved genomes) and a
hall of fame; recorded, resumed exactly, and bad leagues refused with what is allowed."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from monopoly_lesson.cli import main
from monopoly_lesson.evolution.experiment import experiment
from monopoly_lesson.evolution.league import (
    check_league,
    field_rng,
    hall_genomes,
    league_fields,
    member_player,
)
from monopoly_lesson.evolution.operators import FITNESS, genome_genes
from monopoly_lesson.evolution.run import evolve, load_evolution
from monopoly_lesson.game.fast import fast_games, genome_codes

SMALL = dict(population=16, games_per_player=4, max_rounds=30, benchmark_every=0, progress=False)


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A saved run of 4 generations, whose best genomes a league may name."""
    folder = tmp_path_factory.mktemp("league") / "source"
    evolve("rga", generations=4, seed=1, out=folder, **SMALL)
    return folder


@pytest.mark.parametrize(
    ("fitness", "league"),
    [("num_wins", ["self"]), ("vs:heuristic,always,heuristic", ["heuristic,always,heuristic"])],
)
def test_a_league_of_one_field_is_that_fitness(fitness, league):
    """The first field draws as a run without a league does: the same games, the same run."""
    plain = evolve("tga", fitness, generations=2, seed=3, **SMALL)
    scoring = "num_wins" if fitness == "num_wins" else "finish_order"
    leagued = evolve("tga", scoring, generations=2, seed=3, league=league, **SMALL)
    assert np.array_equal(plain.fitness, leagued.fitness)
    assert np.array_equal(plain.population, leagued.population)
    assert plain.history.equals(leagued.history)


def test_the_hall_of_fame_is_one_field_more_of_the_best_of_every_kth_generation():
    """Generation 3 of a run with a hall every 2 generations: each genome's points are the
    mean of its relative points (field 0, as without a hall) and of its games against the
    hall, which holds generation 2's best: game g seats the genome in seat g % 4 + 1, three
    members drawn from the hall, seeded from the hall field's own stream."""
    run = evolve("rga", "finish_order", generations=3, seed=7, hall_of_fame=2, **SMALL)
    without = evolve("rga", "finish_order", generations=3, seed=7, **SMALL)
    assert np.array_equal(run.best_genomes[:2], without.best_genomes[:2])  # no hall yet
    assert np.array_equal(run.population, without.population)  # bred from the same fitness
    assert np.array_equal(hall_genomes(list(run.best_genomes[:2]), 2), run.best_genomes[1:2])
    genomes, games, count = run.population, SMALL["games_per_player"], len(run.population)
    rng = field_rng(7, 3, 1)
    seeds = rng.integers(0, 2**32, size=games, dtype=np.int64)
    drawn = rng.integers(0, 1, size=(games, 3))  # a hall of one: its member, thrice
    codes = genome_codes("rga", *genome_genes("rga", np.vstack([genomes, run.best_genomes[1:2]])))
    who = [np.roll([i, *(count + drawn[g])], g % 4) for i in range(count) for g in range(games)]
    outcome = fast_games(codes, np.array(who), seeds=np.tile(seeds, count), max_rounds=30)
    seat = np.tile(np.arange(games) % 4, count)
    points = FITNESS["finish_order"](outcome)[np.arange(len(who)), seat]
    against_hall = points.reshape(count, games).sum(axis=1)
    assert np.allclose(run.fitness, (without.fitness + against_hall) / 2)
    assert not np.allclose(run.fitness, without.fitness)
    assert np.isnan(run.history["luck_sd"].iloc[-1]) and not np.isnan(run.history["luck_sd"][0])


def test_a_saved_genome_plays_as_the_best_of_its_generation(source):
    player, run = member_player(f"{source}@2"), load_evolution(source)
    buy, jail = genome_genes("rga", run.best_genomes[1:2])
    assert np.array_equal(player.buy_genes, buy[0]) and np.array_equal(player.jail_genes, jail[0])
    assert not np.array_equal(player.buy_genes, genome_genes("rga", run.best_genomes[3:])[0][0])
    assert member_player("heuristic") == "heuristic"


def test_a_run_folder_is_pinned_to_its_last_generation_and_kept_so_on_resume(source, tmp_path):
    """A run folder without a generation means its last; a resumed run keeps the generation
    its first start pinned even after that run has grown, and ends as an unbroken run."""
    mine = tmp_path / "source"
    shutil.copytree(source, mine)
    league = ["self", f"always,ega_trading,{mine}", f"{mine}@2,always,always"]
    pinned = check_league(league)
    assert pinned == ["self", f"always,ega_trading,{mine}@4", f"{mine}@2,always,always"]

    def run(league, out, generations, resume=False):
        options = dict(league=league, hall_of_fame=1, resume=resume, **SMALL)
        return evolve(
            "tga", "num_wins", generations=generations, seed=2, out=tmp_path / out, **options
        )

    unbroken = run(league, "unbroken", 4)
    run(league, "broken", 2)
    evolve("rga", generations=6, seed=1, out=mine, resume=True, **SMALL)  # it grows
    assert check_league(league)[1] == f"always,ega_trading,{mine}@6"
    resumed = run(league, "broken", 4, resume=True)
    assert np.array_equal(resumed.fitness, unbroken.fitness)
    for name in ("history.csv", "best.npz", "population.npz", "recent.npz"):
        assert (tmp_path / "broken" / name).read_bytes() == (
            tmp_path / "unbroken" / name
        ).read_bytes()
    stored = json.loads((tmp_path / "broken" / "parameters.json").read_text())
    assert stored["league"] == pinned and stored["hall_of_fame"] == 1
    assert f"--league always,ega_trading,{mine}@4" in stored["command"]
    assert stored["command"].endswith("--hall-of-fame 1 --out " + str(tmp_path / "broken"))


def test_a_run_with_another_league_in_the_folder_is_refused(tmp_path):
    evolve("rga", generations=1, seed=1, out=tmp_path / "run", league=["self"], **SMALL)
    with pytest.raises(ValueError, match="holds a different run \\(league"):
        evolve(
            "rga",
            generations=2,
            seed=1,
            out=tmp_path / "run",
            resume=True,
            league=["always,always,always"],
            **SMALL,
        )


def test_without_a_league_the_fields_are_the_fitnesss_own():
    assert league_fields({"fitness": "net_worth", "league": None}) == ["self"]
    assert league_fields({"fitness": "net_worth", "league": ["a,b,c", "self"]}) == ["a,b,c", "self"]


@pytest.mark.parametrize(
    ("league", "error", "message"),
    [
        ("self", TypeError, "got the single string 'self': write \\['self'\\]"),
        ([], ValueError, "at least one field"),
        (["always,always"], ValueError, "league field 1 must be 'self' or 3 players"),
        (["self", 3], TypeError, "league field 2 must be 'self' or 3 players"),
        (["always,self,always"], ValueError, "'self' is a field of its own"),
        (["always,alwys,always"], ValueError, "league field 1: unknown strategy 'alwys'"),
        (["always,you,always"], ValueError, "'you' is a person's seat"),
        (["always,always,runs-nowhere@3"], ValueError, "league field 1: runs-nowhere holds no run"),
    ],
)
def test_a_bad_league_says_which_field_and_what_is_allowed(league, error, message):
    with pytest.raises(error, match=message):
        evolve("rga", generations=1, league=league, **SMALL)


def test_a_generation_a_run_does_not_hold_is_refused(source, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "parameters.json").write_text((source / "parameters.json").read_text())
    with pytest.raises(ValueError, match="holds no completed generation yet"):
        check_league([f"always,always,{tmp_path / 'empty'}"])
    with pytest.raises(ValueError, match=r"holds generations 1 to 4; write .*@N with N from 1"):
        check_league([f"always,always,{source}@9"])
    with pytest.raises(ValueError, match="generation 'x'"):
        check_league([f"always,always,{source}@x"])


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        (dict(fitness="vs:always,always,always", league=["self"]), ValueError, "not in fitness"),
        (dict(hall_of_fame=3, generations=3), ValueError, "hall_of_fame must be below generations"),
        (dict(hall_of_fame=-1), ValueError, "hall_of_fame must be"),
        (dict(hall_of_fame=1.5), TypeError, "hall_of_fame must be a whole number"),
    ],
)
def test_a_league_with_a_fixed_field_fitness_or_a_bad_hall_is_refused(arguments, error, message):
    with pytest.raises(error, match=message):
        evolve("rga", **{"generations": 2, **SMALL, **arguments})


def test_the_command_takes_a_league_and_a_hall_of_fame(capsys, tmp_path):
    out = tmp_path / "run"
    argv = [
        "evolve",
        "--population",
        "8",
        "--games-per-player",
        "2",
        "--generations",
        "2",
        "--max-rounds",
        "10",
        "--benchmark-every",
        "0",
        "--no-progress",
        "--out",
        str(out),
        "--league",
        "self",
        "--league",
        "heuristic,always,heuristic",
        "--hall-of-fame",
        "1",
    ]
    assert main(argv) == 0
    stored = json.loads((out / "parameters.json").read_text())
    assert stored["league"] == ["self", "heuristic,always,heuristic"]
    assert stored["hall_of_fame"] == 1
    capsys.readouterr()
    bad = [*argv[: argv.index("--out") + 1], str(tmp_path / "bad"), "--league", "always,always"]
    assert main(bad) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "league field 1 must be 'self' or 3 players" in err


def test_an_experiment_passes_its_league_to_every_run(tmp_path, source):
    from distributed import LocalCluster

    league = ["self", f"{source},always,always"]
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        experiment(
            ["rga"],
            ["num_wins"],
            [5],
            generations=2,
            out=tmp_path / "grid",
            scheduler=cluster.scheduler_address,
            league=league,
            hall_of_fame=1,
            **SMALL,
        )
    run = tmp_path / "grid" / "rga-num_wins-seed5"
    stored = json.loads((run / "parameters.json").read_text())
    assert stored["league"] == ["self", f"{source}@4,always,always"]
    alone = evolve(
        "rga",
        "num_wins",
        generations=2,
        seed=5,
        league=league,
        hall_of_fame=1,
        out=tmp_path / "alone",
        **SMALL,
    )
    assert np.array_equal(load_evolution(run).fitness, alone.fitness)
