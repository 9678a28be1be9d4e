"""Runs of the genetic algorithm that ship with the package, for the lesson to draw from.

A paper-scale run takes minutes, too long for a notebook cell; its small data file
(``monopoly_lesson/data/NAME/``, made by ``tools/ship_run.py``) keeps the history, the
benchmark win rates, the command that makes it, each generation's best buy genes, the
final best genome and the final population's mean genes.

The paper's whole experiment (``python -m monopoly_lesson experiment``, hours) ships as
one compact folder (``monopoly_lesson/data/experiment_NAME/``, made by
``tools/ship_experiment.py``): per run its history, benchmark, command, the best genome of
every 10th generation (genes to 1/255) and its last best genome exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..checks import at_the_call, check_name
from ..game.chromosomes import CHROMOSOME_PLAYERS, RGA
from .operators import genome_genes

__all__ = [
    "SHIPPED_EXPERIMENTS",
    "SHIPPED_RUNS",
    "ShippedExperimentRun",
    "ShippedRun",
    "experiment_summary",
    "load_shipped_experiment",
    "load_shipped_run",
]

DATA = Path(__file__).resolve().parent.parent / "data"  # monopoly_lesson/data
SHIPPED_RUNS = ("rga_finish_order", "rga_level", "ega_always", "ega_trading")
"""The runs in the package's data folder: the paper's RGA run, and three with a
diversity-keeping start and absolute fitness (RGA; EGA against three always-buy players;
EGA with trading on)."""
SHIPPED_EXPERIMENTS = ("paper",)
"""The experiments in the package's data folder: the paper's grid (RGA, TGA and SGA x its
five fitness functions, 1,000 players, 100 games each, seed 1)."""
GENE_STEPS = 255
"""A shipped experiment keeps each 10th generation's best genes as whole numbers 0..255."""


@dataclass(frozen=True)
class ShippedRun:
    """A shipped run: ``parameters`` (with its ``command``), ``history``, ``benchmark`` (every
    10 generations), ``benchmark_each`` (every generation's best genome, 1,000 games),
    ``best_buy`` (generations, 4, 40), ``population_buy`` (4, 40), ``population_jail``."""

    parameters: dict
    history: pd.DataFrame
    benchmark: pd.DataFrame
    benchmark_each: pd.DataFrame
    best_buy: np.ndarray
    final_best: np.ndarray
    population_buy: np.ndarray
    population_jail: np.ndarray

    def best_player(self) -> RGA:
        """The final generation's best genome, as a player for any game."""
        chromosome = self.parameters["chromosome"]
        tables = genome_genes(chromosome, self.final_best[None])
        return CHROMOSOME_PLAYERS[chromosome].from_genes(*(table[0] for table in tables))


def load_shipped_run(name: str = "rga_finish_order") -> ShippedRun:
    """Read the shipped run ``name`` (one of :data:`SHIPPED_RUNS`)."""
    with at_the_call():
        name = check_name(name, "name (of a shipped run)", SHIPPED_RUNS)
    folder = DATA / name
    genes = np.load(folder / "genes.npz")
    return ShippedRun(
        parameters=json.loads((folder / "run.json").read_text()),
        history=pd.read_csv(folder / "history.csv"),
        benchmark=pd.read_csv(folder / "benchmark.csv"),
        benchmark_each=pd.read_csv(folder / "benchmark_each.csv"),
        best_buy=genes["best_buy"],
        final_best=genes["final_best"],
        population_buy=genes["population_buy"],
        population_jail=genes["population_jail"],
    )


@dataclass(frozen=True)
class ShippedExperimentRun:
    """One run of a shipped experiment: ``parameters`` (with its ``command``), ``history``
    (every generation), ``benchmark`` (every 10 generations), ``best_generations`` and
    ``best_genomes`` (the best genome of those generations, genes to 1/255; SGA's bits
    exact), ``final_best`` (the last generation's best genome, exact) and ``fitness``
    (generation -> the whole population's fitness then: the last generation's and a few
    others')."""

    parameters: dict
    history: pd.DataFrame
    benchmark: pd.DataFrame
    best_generations: np.ndarray
    best_genomes: np.ndarray
    final_best: np.ndarray
    fitness: dict[int, np.ndarray]

    def best_player(self) -> RGA:
        """The last generation's best genome, as a player for any game."""
        chromosome = self.parameters["chromosome"]
        tables = genome_genes(chromosome, self.final_best[None])
        return CHROMOSOME_PLAYERS[chromosome].from_genes(*(table[0] for table in tables))


def load_shipped_experiment(name: str = "paper") -> dict[str, ShippedExperimentRun]:
    """Read the shipped experiment ``name`` (one of :data:`SHIPPED_EXPERIMENTS`): its runs
    by name (``rga-finish_order-seed1``, ...), in the grid's order."""
    with at_the_call():
        name = check_name(name, "name (of a shipped experiment)", SHIPPED_EXPERIMENTS)
    folder = DATA / f"experiment_{name}"
    runs = json.loads((folder / "runs.json").read_text())
    history = pd.read_csv(folder / "history.csv.gz")
    benchmark = pd.read_csv(folder / "benchmark.csv")
    out = {}
    with np.load(folder / "genes.npz") as genes:
        for run, parameters in runs.items():
            steps = genes[f"{run}/best"]
            best = (np.unpackbits(steps, axis=1, count=genes[f"{run}/final"].size)
                    if parameters["chromosome"] == "sga" else steps / GENE_STEPS)  # fmt: skip
            out[run] = ShippedExperimentRun(
                parameters=parameters,
                history=history[history["run"] == run].drop(columns="run").reset_index(drop=True),
                benchmark=benchmark[benchmark["run"] == run].drop(columns="run")
                .reset_index(drop=True),
                best_generations=genes[f"{run}/generations"],
                best_genomes=best,
                final_best=genes[f"{run}/final"],
                fitness={int(key.rsplit("_", 1)[1]): genes[key] for key in genes.files
                         if key.startswith(f"{run}/fitness_")},
            )  # fmt: skip
    return out


def experiment_summary(runs: Mapping[str, ShippedExperimentRun]) -> pd.DataFrame:
    """One row per run (as the experiment's ``summary.csv``): its last generation's fitness
    range and diversity, its last benchmark win rate with its 95% interval."""
    from .experiment import SUMMARY_COLUMNS, summary_row

    rows = [summary_row(name, run.parameters["chromosome"], run.parameters["fitness"],
                        run.parameters["seed"], run.history, run.benchmark)
            for name, run in runs.items()]  # fmt: skip
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS)).set_index("run")
