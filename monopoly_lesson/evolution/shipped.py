"""Runs of the genetic algorithm that ship with the package, for the lesson to draw from.

A paper-scale run takes minutes, too long for a notebook cell; its small data file
(``monopoly_lesson/data/NAME/``, made by ``tools/ship_run.py``) keeps the history, the
benchmark win rates, the command that makes it, each generation's best buy genes, the
final best genome and the final population's mean genes.

The paper's whole experiment (``python -m monopoly_lesson experiment``, hours) ships as
one compact folder (``monopoly_lesson/data/experiment_NAME/``, made by
``tools/ship_experiment.py``): per run its history, benchmark, command, the best genome of
every 10th generation (genes to 1/255) and its last best genome exactly.

Each file is checked as it is read: a missing, cut short or damaged one is refused with
an error that names it and says how to restore it.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..checks import at_the_call, check_name, damaged_data
from ..game.chromosomes import CHROMOSOME_PLAYERS, RGA
from .files import BENCHMARK_COLUMNS, HISTORY_COLUMNS
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
SHIPPED_RUNS = ("rga_finish_order", "rga_level", "ega_always", "ega_trading", "league")
"""The runs in the package's data folder: the paper's RGA run, three with a
diversity-keeping start and absolute fitness (RGA; EGA against three always-buy players;
EGA with trading on), and the league player (BGA with trading, against a league of fields
and a hall of fame)."""
SHIPPED_EXPERIMENTS = ("paper",)
"""The experiments in the package's data folder: the paper's grid (RGA, TGA and SGA x its
five fitness functions, 1,000 players, 100 games each, seed 1)."""
GENE_STEPS = 255
"""A shipped experiment keeps each 10th generation's best genes as whole numbers 0..255."""
_RUN_GENES = ("best_buy", "final_best", "population_buy", "population_jail")


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
    parameters = _read_parameters(folder / "run.json")
    history = _read_table(folder / "history.csv", HISTORY_COLUMNS)
    _check_generations(folder / "history.csv", history, parameters["generations"])
    genes = _read_genes(folder / "genes.npz", _RUN_GENES)
    return ShippedRun(
        parameters=parameters,
        history=history,
        benchmark=_read_table(folder / "benchmark.csv", BENCHMARK_COLUMNS),
        benchmark_each=_read_table(folder / "benchmark_each.csv", BENCHMARK_COLUMNS),
        **genes,
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
    runs = _read_json(folder / "runs.json")
    for run, parameters in runs.items():
        runs[run] = _check_parameters(folder / "runs.json", parameters, f"its run {run!r}")
    history = _read_table(folder / "history.csv.gz", ("run", *HISTORY_COLUMNS))
    benchmark = _read_table(folder / "benchmark.csv", ("run", *BENCHMARK_COLUMNS))
    for run, parameters in runs.items():
        _check_generations(
            folder / "history.csv.gz",
            history[history["run"] == run],
            parameters["generations"],
            f" for the run {run}",
        )
    names = [f"{run}/{part}" for run in runs for part in ("generations", "best", "final")]
    genes = _read_genes(folder / "genes.npz", names, fitness=True)
    out = {}
    for run, parameters in runs.items():
        steps = genes[f"{run}/best"]
        best = (
            np.unpackbits(steps, axis=1, count=genes[f"{run}/final"].size)
            if parameters["chromosome"] == "sga"
            else steps / GENE_STEPS
        )
        out[run] = ShippedExperimentRun(
            parameters=parameters,
            history=history[history["run"] == run].drop(columns="run").reset_index(drop=True),
            benchmark=benchmark[benchmark["run"] == run].drop(columns="run").reset_index(drop=True),
            best_generations=genes[f"{run}/generations"],
            best_genomes=best,
            final_best=genes[f"{run}/final"],
            fitness={
                int(key.rsplit("_", 1)[1]): array
                for key, array in genes.items()
                if key.startswith(f"{run}/fitness_")
            },
        )
    return out


# ---------------------------------------------------------------------------
# Reading the data files, checked
# ---------------------------------------------------------------------------


def _read_text(path: Path) -> str:
    """A data file's text (a ``.gz`` file decompressed)."""
    if not path.is_file():
        raise damaged_data(path, "is missing")
    try:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        return data.decode()
    except (OSError, EOFError, zlib.error) as error:
        raise damaged_data(path, f"cannot be read ({error})") from None
    except UnicodeDecodeError:
        raise damaged_data(path, "is not text") from None


def _read_json(path: Path) -> dict:
    """A JSON file holding an object (a dict), or a plain error."""
    text = _read_text(path)
    try:
        data = json.loads(text)
    except ValueError as error:
        raise damaged_data(path, f"is not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise damaged_data(path, f"holds a JSON {type(data).__name__}, not an object of parameters")
    return data


def _read_parameters(path: Path) -> dict:
    """A shipped run's parameters (its ``run.json``), checked."""
    return _check_parameters(path, _read_json(path), "it")


def _check_parameters(path: Path, parameters: object, what: str) -> dict:
    """A run's parameters read from ``path``: an object with a chromosome, a fitness, a
    seed and a number of generations."""
    if not isinstance(parameters, dict):
        raise damaged_data(path, f"is not what it should be: {what} is not an object of parameters")
    if parameters.get("chromosome") not in CHROMOSOME_PLAYERS:
        raise damaged_data(
            path,
            f"is not what it should be: {what} has the chromosome {parameters.get('chromosome')!r}",
        )
    for key in ("generations", "seed"):
        value = parameters.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise damaged_data(
                path, f"is not what it should be: {what} has {key} {value!r}, not a whole number"
            )
    if not isinstance(parameters.get("fitness"), str):
        raise damaged_data(path, f"is not what it should be: {what} has no fitness")
    return parameters


def _read_table(path: Path, columns: tuple[str, ...]) -> pd.DataFrame:
    """A CSV file of these columns (numbers, but a ``run`` name), whole: none cut short."""
    text = _read_text(path)
    lines = list(csv.reader(io.StringIO(text, newline="")))
    if not lines:
        raise damaged_data(path, "is empty")
    if not text.endswith("\n"):
        raise damaged_data(path, f"is cut short (its last line, line {len(lines)}, is incomplete)")
    if lines[0] != list(columns):
        raise damaged_data(path, f"has the columns {lines[0]}, not {list(columns)}")
    if len(lines) == 1:
        raise damaged_data(path, "holds no rows (only its header line)")
    for number, line in enumerate(lines[1:], start=2):
        if len(line) != len(columns):
            raise damaged_data(path, f"has {len(line)} values on line {number}, not {len(columns)}")
    table = pd.read_csv(io.StringIO(text))
    for column in columns:
        if column != "run" and table[column].dtype.kind not in "iuf":
            raise damaged_data(path, f"has a value that is not a number in its column {column}")
    return table


def _check_generations(path: Path, history: pd.DataFrame, generations: int, run: str = "") -> None:
    """A run's history holds its generations 1, 2, ... to the last, in order."""
    if history["generation"].tolist() != list(range(1, generations + 1)):
        raise damaged_data(path, f"does not hold generations 1 to {generations} in order{run}")


def _read_genes(path: Path, names: Iterable[str], fitness: bool = False) -> dict[str, np.ndarray]:
    """The arrays ``names`` of an .npz data file (and, with ``fitness``, the fitness arrays
    it holds too), read whole."""
    if not path.is_file():
        raise damaged_data(path, "is missing")
    try:
        if not zipfile.is_zipfile(path):
            raise ValueError("not a complete .npz file")
        with np.load(path, allow_pickle=False) as data:
            names = [*names, *(key for key in data.files if fitness and "/fitness_" in key)]
            missing = [name for name in names if name not in data.files]
            if missing:
                raise ValueError(f"{missing[0]} is not in it")
            return {name: data[name] for name in names}
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile, zlib.error) as error:
        detail = str(error).split(". ")[0].strip(" .'\"")  # not numpy's advice on pickles
        raise damaged_data(path, f"is damaged ({detail})") from None


def experiment_summary(runs: Mapping[str, ShippedExperimentRun]) -> pd.DataFrame:
    """One row per run (as the experiment's ``summary.csv``): its last generation's fitness
    range and diversity, its last benchmark win rate with its 95% interval."""
    from .experiment import SUMMARY_COLUMNS, summary_row

    rows = [
        summary_row(
            name,
            run.parameters["chromosome"],
            run.parameters["fitness"],
            run.parameters["seed"],
            run.history,
            run.benchmark,
        )
        for name, run in runs.items()
    ]
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS)).set_index("run")
