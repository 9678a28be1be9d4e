"""The paper's whole experiment: a grid of :func:`~monopoly_lesson.evolution.run.evolve`
runs (chromosomes x fitness functions x seeds), spread over Dask workers.

Each run is an ordinary resumable ``evolve`` folder inside the experiment's folder, named
``<chromosome>-<fitness>-seed<seed>``; ``experiment.json`` records the grid, and
``summary.csv`` one row per run (its last generation's fitness and diversity, its last
benchmark with its 95% interval). A run's files depend only on its seed and options, never
on the worker that played it or on how many there were; an interrupted experiment, run
again, resumes every run where it stopped (one task per run: a task whose worker is lost
is run again by Dask, from the run's last saved generation).

The workers are a ``dask.distributed`` cluster: by default a local one on this machine,
one worker process per core, each playing its games on one thread; or any running
cluster, given its scheduler's address (dask-jobqueue on a batch system, Kubernetes,
``dask scheduler`` and ``dask worker`` on several machines), whose workers have the
package installed and see the experiment's folder at the same path.
"""

from __future__ import annotations

import contextlib
import html
import inspect
import json
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..checks import at_the_call, check_flag, check_seeds, check_whole, is_list
from .files import _write_atomic, _write_csv
from .operators import FITNESS, OPERATORS, _check_name, check_fitness

__all__ = [
    "CONNECT_TIMEOUT",
    "POLL_SECONDS",
    "SUMMARY_COLUMNS",
    "ExperimentRun",
    "dashboard_link",
    "experiment",
    "experiment_runs",
    "generations_saved",
    "read_summary",
    "summary_row",
]

SUMMARY_COLUMNS = ("run", "chromosome", "fitness", "seed", "generations", "min", "median",
                   "max", "mean", "sd", "diversity", "benchmark_generation", "win_rate",
                   "ci_low", "ci_high")  # fmt: skip
"""The columns of ``summary.csv``: a run, its last generation's fitness distribution and
diversity, and its last benchmark (the best genome's win rate against the benchmark
opponents, with its 95% interval)."""
POLL_SECONDS = 1.0
"""How often the progress bar reads the runs' folders."""
CONNECT_TIMEOUT = "10s"
"""How long to try to reach a running cluster's scheduler."""
_GRID = ("chromosomes", "fitness", "seeds")
_OPTIONS = ("population", "games_per_player", "benchmark_every", "benchmark_games",
            "max_rounds", "init", "selection", "crossover", "mutation_rate", "mutation_sd",
            "trading")  # fmt: skip
"""The options of ``evolve`` an experiment passes to every run."""


@dataclass(frozen=True)
class ExperimentRun:
    """One run of the grid: its folder's name and its ``evolve`` arguments."""

    name: str
    chromosome: str
    fitness: str
    seed: int


def experiment_runs(chromosomes: Sequence[str], fitness: Sequence[str],
                    seeds: Sequence[int]) -> list[ExperimentRun]:  # fmt: skip
    """The grid's runs in order (chromosome, then fitness, then seed), each checked: an
    unknown chromosome or fitness is a ``ValueError`` that lists what is allowed.
    ``chromosomes`` may be one comma-separated string; ``fitness`` one name (``"all"``: the
    paper's five) or a list of names."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        chromosomes = [_check_name(name, "chromosome")
                       for name in _names(chromosomes, "chromosomes")]  # fmt: skip
        if isinstance(fitness, str):  # one name: vs:A,B,C holds commas
            fitness = [fitness]
        if not is_list(fitness):
            raise TypeError(f"fitness must be a name, 'all' or a list of names, for example "
                            f"['num_wins', 'finish_order']; got {fitness!r}.")  # fmt: skip
        fitness = list(fitness)
        if len(fitness) == 1 and isinstance(fitness[0], str) and fitness[0].lower() == "all":
            fitness = list(FITNESS)
        if not fitness:
            raise ValueError("fitness must name at least one fitness function.")
        fitness = [check_fitness(name) for name in fitness]
        seeds = check_seeds(seeds)
    runs = [ExperimentRun(f"{c}-{_slug(f)}-seed{s}", c, f, int(s))
            for c in chromosomes for f in fitness for s in seeds]  # fmt: skip
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        raise ValueError("the grid names a run twice: give each chromosome, fitness and seed once.")
    return runs


def _names(values: Sequence[str] | str, what: str) -> list[str]:
    """A list of names (a comma-separated string is split), at least one."""
    if isinstance(values, str):
        values = [v.strip() for v in values.split(",") if v.strip()]
    if not is_list(values):
        raise TypeError(f"{what} must be a list of names or one comma-separated string, for "
                        f"example 'rga,sga'; got {values!r}.")  # fmt: skip
    values = list(values)
    if not values:
        raise ValueError(f"{what} must name at least one.")
    return values


def _slug(fitness: str) -> str:
    """A fitness as part of a folder's name: ``vs:heuristic,always`` -> ``vs-heuristic-always``."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", fitness).strip("-")


def experiment(
    chromosomes: Sequence[str] | str = ("rga", "tga", "sga"),
    fitness: Sequence[str] | str = "all",
    seeds: Sequence[int] = (1,),
    generations: int = 1000,
    out: str | os.PathLike[str] = "experiment",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    on_start: Callable[[str], None] | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Run (or resume) the grid ``chromosomes`` x ``fitness`` x ``seeds`` of
    :func:`~monopoly_lesson.evolution.run.evolve` runs for ``generations`` generations,
    each in its folder under ``out``, on Dask workers; return the summary (also written to
    ``out/summary.csv``: :data:`SUMMARY_COLUMNS`).

    ``fitness="all"`` is the paper's five. ``options`` are ``evolve``'s (``population``,
    ``games_per_player``, ``benchmark_every``, ``trading``, the operators...), the same for
    every run. ``workers``: the processes of a local cluster (default: one per core);
    ``scheduler``: the address of a running cluster's scheduler instead. ``on_start`` is
    called with the Dask dashboard's address. A folder that holds another experiment (or
    anything else) is refused; the same experiment again resumes it.
    """
    from .run import _parameters

    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r}; the options are "
                            f"{', '.join(_OPTIONS)}.")  # fmt: skip
        if workers is not None and scheduler is not None:
            raise ValueError("give workers (a local cluster) or scheduler (a running one), "
                             "not both.")  # fmt: skip
        if workers is not None:
            check_whole(workers, "workers", 1, 1024)
        if scheduler is not None and not isinstance(scheduler, str):
            raise TypeError(f"scheduler must be an address (text, e.g. 'tcp://10.0.0.5:8786'), "
                            f"got {scheduler!r}.")  # fmt: skip
        if on_start is not None and not callable(on_start):
            raise TypeError(f"on_start must be a function (it is called with the dashboard's "
                            f"address), got {on_start!r}.")  # fmt: skip
        check_flag(progress, "progress")
        check_flag(options.get("trading", False), "trading")
        runs = experiment_runs(chromosomes, fitness, seeds)
        check_whole(generations, "generations", 1)
        if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
            raise TypeError(f"out must be a folder's path, e.g. 'runs/paper'; got {out!r}.")
        folder = Path(out).resolve()
        given = {**_evolve_defaults(), **options}
        for run in runs:  # every run's options checked here, before a worker starts
            _parameters(run.chromosome, run.fitness, given["population"],
                        given["games_per_player"], generations, run.seed, folder / run.name,
                        given["benchmark_every"], given["benchmark_games"], given["max_rounds"],
                        {key: options[key] for key in OPERATORS if key in options},
                        given["trading"])  # fmt: skip
        grid = {"chromosomes": list(dict.fromkeys(run.chromosome for run in runs)),
                "fitness": list(dict.fromkeys(run.fitness for run in runs)),
                "seeds": list(dict.fromkeys(run.seed for run in runs)),
                "options": dict(sorted(options.items()))}  # fmt: skip
        _open_experiment(folder, grid, generations)
    with _cluster(workers, scheduler) as client:
        if on_start is not None:
            on_start(client.dashboard_link)
        _run_all(client, runs, folder, generations, options, progress)
    return _write_summary(folder, runs)


def _evolve_defaults() -> dict[str, Any]:
    """``evolve``'s own defaults for the options an experiment passes on."""
    from .run import evolve

    signature = inspect.signature(evolve).parameters
    return {name: signature[name].default for name in _OPTIONS}


def _open_experiment(folder: Path, grid: dict[str, Any], generations: int) -> None:
    """Make the experiment's folder (or check that it holds this experiment) and record
    the grid in ``experiment.json``."""
    from .. import __version__

    record = folder / "experiment.json"
    if record.exists():
        try:
            stored = json.loads(record.read_text())
        except (OSError, ValueError) as error:
            raise ValueError(f"{folder} holds a damaged experiment.json ({error}); give "
                             "another folder.") from None  # fmt: skip
        differ = [f"{key} {stored.get(key)!r} there, {grid[key]!r} here"
                  for key in _GRID if stored.get(key) != grid[key]]  # fmt: skip
        there = stored.get("options") if isinstance(stored.get("options"), dict) else {}
        differ += [f"{key} {there.get(key)!r} there, {value!r} here"
                   for key, value in grid["options"].items()
                   if there.get(key) != value]  # fmt: skip
        if differ:
            raise ValueError(f"{folder} holds another experiment ({'; '.join(differ)}); give "
                             "another folder, or the same grid to resume it.")  # fmt: skip
    elif folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ValueError(f"{folder} is not an empty folder and holds no experiment "
                         "(no experiment.json); give a new or empty folder.")  # fmt: skip
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make the folder {folder}: {error.strerror or error}; give a "
                         "folder you may write in.") from None  # fmt: skip
    text = json.dumps({**grid, "generations": generations, "version": __version__}, indent=2)
    _write_atomic(record, lambda file: file.write(text.encode() + b"\n"))


@contextlib.contextmanager
def _cluster(workers: int | None, scheduler: str | None) -> Iterator[Any]:
    """A Dask client: of a local cluster of ``workers`` processes (default one per core,
    one thread each), or of the running cluster at ``scheduler``; closed on leaving."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as error:
            raise ValueError(f"cannot reach the Dask scheduler at {scheduler} ({error}); "
                             "start it, or leave out scheduler to use this "
                             "machine.") from None  # fmt: skip
        with client:
            yield client
        return
    count = workers or os.cpu_count() or 1
    with (LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                       dashboard_address=":0", silence_logs=logging.ERROR) as cluster,
          Client(cluster) as client):  # fmt: skip
        yield client


def _play_run(folder: str, run: ExperimentRun, generations: int, options: dict[str, Any]) -> str:
    """A worker's task: the run ``run`` resumed (or started) in ``folder`` up to
    ``generations``, its games on one thread."""
    import numba

    from .run import evolve

    numba.set_num_threads(1)
    evolve(run.chromosome, run.fitness, generations=generations, seed=run.seed, out=folder,
           resume=True, progress=False, **options)  # fmt: skip
    return run.name


def _run_all(client: Any, runs: list[ExperimentRun], folder: Path, generations: int,
             options: dict[str, Any], progress: bool) -> None:  # fmt: skip
    """Every run to ``generations`` on the cluster, with a progress bar that counts the
    generations saved across runs (read from their folders)."""
    from tqdm.auto import tqdm

    futures = [  # the grid's order: a higher priority runs first
        client.submit(_play_run, str(folder / run.name), run, generations, options,
                      key=f"evolve-{run.name}", pure=False, priority=len(runs) - k)
        for k, run in enumerate(runs)
    ]  # fmt: skip
    total = len(runs) * generations
    with tqdm(total=total, desc="experiment", unit="gen", disable=not progress) as bar:
        while True:
            finished = [future for future in futures if future.done()]
            for future in finished:
                if future.status == "error":
                    future.result()  # the run's error, raised here at once
            saved = generations_saved(folder, runs)
            bar.update(saved - bar.n)
            if len(finished) == len(futures):
                break
            time.sleep(POLL_SECONDS)


def generations_saved(out: str | os.PathLike[str], runs: Sequence[ExperimentRun]) -> int:
    """How many generations the runs ``runs`` of the experiment in ``out`` have saved."""
    return sum(_generations_saved(Path(out).resolve() / run.name) for run in runs)


def _generations_saved(folder: Path) -> int:
    """How many generations a run's history.csv holds (0 if none yet)."""
    try:
        with open(folder / "history.csv", "rb") as file:
            return max(0, sum(1 for _ in file) - 1)
    except OSError:
        return 0


def summary_row(run: str, chromosome: str, fitness: str, seed: int, history: pd.DataFrame,
                benchmark: pd.DataFrame) -> dict[str, Any]:  # fmt: skip
    """A run's row of the summary (:data:`SUMMARY_COLUMNS`): its last generation's fitness
    and diversity from ``history``, its last benchmark from ``benchmark`` (none: 0 and NaN)."""
    last = history.iloc[-1]
    bench = benchmark.iloc[-1] if not benchmark.empty else None
    return {
        "run": run, "chromosome": chromosome, "fitness": fitness, "seed": int(seed),
        "generations": int(last["generation"]),
        **{key: float(last[key]) for key in ("min", "median", "max", "mean", "sd", "diversity")},
        "benchmark_generation": int(bench["generation"]) if bench is not None else 0,
        **{key: float(bench[key]) if bench is not None else np.nan
           for key in ("win_rate", "ci_low", "ci_high")},
    }  # fmt: skip


def _write_summary(folder: Path, runs: list[ExperimentRun]) -> pd.DataFrame:
    """summary.csv: one row per run, read from its folder."""
    from .run import load_evolution

    rows = []
    for run in runs:
        result = load_evolution(folder / run.name)
        rows.append(summary_row(run.name, run.chromosome, run.fitness, run.seed,
                                result.history, result.benchmark))  # fmt: skip
    table = pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
    _write_csv(folder / "summary.csv", table)
    return table


def read_summary(out: str | os.PathLike[str]) -> pd.DataFrame:
    """An experiment's ``summary.csv`` (:data:`SUMMARY_COLUMNS`)."""
    path = Path(out) / "summary.csv"
    if not path.is_file():
        raise ValueError(f"{out} holds no experiment summary (no summary.csv): run the "
                         "experiment there first.")  # fmt: skip
    return pd.read_csv(path)


@contextlib.contextmanager
def dashboard_link() -> Iterator[Callable[[str], None]]:
    """In a notebook, ``with dashboard_link() as show: experiment(..., on_start=show)``
    shows a link to the Dask dashboard while the grid runs. The dashboard closes with the
    grid's cluster, so on leaving the link gives way to a line that says so: a saved
    notebook keeps no dead address (a new one, on a free port, each run)."""
    from IPython.display import HTML, display

    shown = []

    def show(address: str) -> None:
        link = html.escape(address)
        text = f'Dask dashboard: <a href="{link}" target="_blank">{link}</a> (while the grid runs)'
        shown.append(display(HTML(text), display_id=True))

    try:
        yield show
    finally:
        for handle in shown:
            handle.update(HTML("The Dask dashboard closed with the grid's cluster."))
