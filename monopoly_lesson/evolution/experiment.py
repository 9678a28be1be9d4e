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

Ctrl-C stops every run before it returns: each run stops at the start of its next
generation (a Dask ``Event`` its worker asks), those not started are cancelled, and this
machine's cluster is closed at once. A run that fails on its worker ends the experiment
with :class:`RunFailed`, one line that names the run and the cause.
"""

from __future__ import annotations

import contextlib
import html
import inspect
import json
import os
import re
import signal
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..checks import at_the_call, check_flag, check_seeds, check_whole, is_list
from .files import _open_folder, _write_atomic, _write_csv
from .operators import FITNESS, OPERATORS, _check_name, check_fitness

__all__ = [
    "CONNECT_TIMEOUT",
    "LOCAL_STOP_SECONDS",
    "POLL_SECONDS",
    "STOP_SECONDS",
    "SUMMARY_COLUMNS",
    "ExperimentRun",
    "ExperimentStopped",
    "RunFailed",
    "dashboard_link",
    "experiment",
    "experiment_runs",
    "generations_saved",
    "read_summary",
    "summary_row",
]

SUMMARY_COLUMNS = (
    "run",
    "chromosome",
    "fitness",
    "seed",
    "generations",
    "min",
    "median",
    "max",
    "mean",
    "sd",
    "diversity",
    "benchmark_generation",
    "win_rate",
    "ci_low",
    "ci_high",
)
"""The columns of ``summary.csv``: a run, its last generation's fitness distribution and
diversity, and its last benchmark (the best genome's win rate against the benchmark
opponents, with its 95% interval)."""
POLL_SECONDS = 1.0
"""How often the progress bar reads the runs' folders."""
CONNECT_TIMEOUT = "10s"
"""How long a running cluster's scheduler has to answer before the experiment gives up."""
STOP_SECONDS = 60.0
"""After Ctrl-C, how long to wait for a running cluster's runs to end the generation each
plays (a run stops at the start of its next one)."""
LOCAL_STOP_SECONDS = 0.5
"""After Ctrl-C, how long this machine's runs may take to reach their next generation
before its cluster is closed (its workers ended where they are: the runs resume as well)."""
_SCHEMES = ("tcp", "tls", "ws", "wss", "inproc")
"""The protocols a running scheduler's address may name (none: tcp; inproc: a cluster in
this very process, ``LocalCluster(processes=False)``)."""
_GRID = ("chromosomes", "fitness", "seeds")
_OPTIONS = (
    "population",
    "games_per_player",
    "benchmark_every",
    "benchmark_games",
    "max_rounds",
    "init",
    "selection",
    "crossover",
    "mutation_rate",
    "mutation_sd",
    "trading",
    "league",
    "hall_of_fame",
)
"""The options of ``evolve`` an experiment passes to every run."""


class RunFailed(RuntimeError):
    """A run of the experiment failed on its worker: ``run`` is its name, ``cause`` one line
    that says why, ``details`` the worker's traceback (if any)."""

    def __init__(self, run: str, cause: str, details: str = "") -> None:
        super().__init__(f"run {run} failed: {cause}")
        self.run, self.cause, self.details = run, cause, details


class ExperimentStopped(KeyboardInterrupt):
    """Ctrl-C during an experiment, raised once its runs have stopped. ``playing`` names the
    runs still ending a generation on a running cluster when the wait for them ended (they
    stop when it ends); empty when every run has stopped."""

    def __init__(self, playing: Sequence[str] = ()) -> None:
        super().__init__(", ".join(playing))
        self.playing = list(playing)


@dataclass(frozen=True)
class ExperimentRun:
    """One run of the grid: its folder's name and its ``evolve`` arguments."""

    name: str
    chromosome: str
    fitness: str
    seed: int


def experiment_runs(
    chromosomes: Sequence[str], fitness: Sequence[str], seeds: Sequence[int]
) -> list[ExperimentRun]:
    """The grid's runs in order (chromosome, then fitness, then seed), each checked: an
    unknown chromosome or fitness is a ``ValueError`` that lists what is allowed.
    ``chromosomes`` may be one comma-separated string; ``fitness`` one name (``"all"``: the
    paper's five) or a list of names."""
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        chromosomes = [
            _check_name(name, "chromosome") for name in _names(chromosomes, "chromosomes")
        ]
        if isinstance(fitness, str):  # one name: vs:A,B,C holds commas
            fitness = [fitness]
        if not is_list(fitness):
            raise TypeError(
                f"fitness must be a name, 'all' or a list of names, for example "
                f"['num_wins', 'finish_order']; got {fitness!r}."
            )
        fitness = list(fitness)
        if len(fitness) == 1 and isinstance(fitness[0], str) and fitness[0].lower() == "all":
            fitness = list(FITNESS)
        if not fitness:
            raise ValueError("fitness must name at least one fitness function.")
        fitness = [check_fitness(name) for name in fitness]
        seeds = check_seeds(seeds)
    runs = [
        ExperimentRun(f"{c}-{_slug(f)}-seed{s}", c, f, int(s))
        for c in chromosomes
        for f in fitness
        for s in seeds
    ]
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        raise ValueError("the grid names a run twice: give each chromosome, fitness and seed once.")
    return runs


def _names(values: Sequence[str] | str, what: str) -> list[str]:
    """A list of names (a comma-separated string is split), at least one."""
    if isinstance(values, str):
        values = [v.strip() for v in values.split(",") if v.strip()]
    if not is_list(values):
        raise TypeError(
            f"{what} must be a list of names or one comma-separated string, for "
            f"example 'rga,sga'; got {values!r}."
        )
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
    ``scheduler``: the address of a running cluster's scheduler instead (``tcp://host:port``;
    a ``ValueError`` if no scheduler answers there within :data:`CONNECT_TIMEOUT`).
    ``on_start`` is called with the Dask dashboard's address. A folder that holds another
    experiment (or anything else) is refused; the same experiment again resumes it. Every
    argument and the runs' folders are checked before the cluster starts.

    Ctrl-C raises :class:`ExperimentStopped` once the runs have stopped (see the module's
    notes); a run that fails on its worker, :class:`RunFailed` once the others have.
    """
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        scheduler = _check_arguments(options, workers, scheduler, on_start, progress)
        runs = experiment_runs(chromosomes, fitness, seeds)
        check_whole(generations, "generations", 1)
        if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
            raise TypeError(f"out must be a folder's path, e.g. 'runs/paper'; got {out!r}.")
        folder = Path(out).resolve()
        checked = _check_runs(runs, folder, generations, options)
        grid = {
            "chromosomes": list(dict.fromkeys(run.chromosome for run in runs)),
            "fitness": list(dict.fromkeys(run.fitness for run in runs)),
            "seeds": list(dict.fromkeys(run.seed for run in runs)),
            "options": dict(sorted(options.items())),
        }
        _check_experiment(folder, grid)
        _check_run_folders(folder, runs, checked, generations)
        if options.get("league") is not None:  # its run folders pinned, as the runs record
            options = {**options, "league": checked[0]["league"]}
    with _cluster(workers, scheduler) as (client, local):
        _open_experiment(folder, grid, generations)
        if on_start is not None:
            on_start(client.dashboard_link)
        _run_all(client, runs, folder, generations, options, progress, local)
    return _write_summary(folder, runs)


def _check_arguments(
    options: dict[str, Any],
    workers: object,
    scheduler: object,
    on_start: object,
    progress: object,
) -> str | None:
    """Check :func:`experiment`'s arguments other than the grid; return the scheduler's
    address written out (None: a local cluster)."""
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"unknown option {unknown[0]!r}; the options are {', '.join(_OPTIONS)}.")
    if workers is not None and scheduler is not None:
        raise ValueError("give workers (a local cluster) or scheduler (a running one), not both.")
    if workers is not None:
        check_whole(workers, "workers", 1, 1024)
    address = None if scheduler is None else _check_scheduler(scheduler)
    if on_start is not None and not callable(on_start):
        raise TypeError(
            f"on_start must be a function (it is called with the dashboard's "
            f"address), got {on_start!r}."
        )
    check_flag(progress, "progress")
    check_flag(options.get("trading", False), "trading")
    return address


def _check_runs(
    runs: Sequence[Any], folder: Path, generations: int, options: dict[str, Any]
) -> list[Any]:
    """Every run's ``evolve`` parameters, checked here before a worker starts."""
    from .run import _parameters

    given = {**_evolve_defaults(), **options}
    return [
        _parameters(
            run.chromosome,
            run.fitness,
            given["population"],
            given["games_per_player"],
            generations,
            run.seed,
            folder / run.name,
            given["benchmark_every"],
            given["benchmark_games"],
            given["max_rounds"],
            {key: options[key] for key in OPERATORS if key in options},
            given["trading"],
            given["league"],
            given["hall_of_fame"],
        )
        for run in runs
    ]


def _check_scheduler(scheduler: object) -> str:
    """A running scheduler's address, checked for its form: ``tcp://host:port`` (or
    ``host:port``; ``tls://``, ``ws://``, ``wss://`` too; ``inproc://``: this process's),
    else a ``ValueError`` saying what one looks like. Returned with its protocol written out."""
    example = "like tcp://10.0.0.5:8786 (the address dask scheduler prints)"
    if not isinstance(scheduler, str):
        raise TypeError(
            f"scheduler must be a Dask scheduler's address, {example}; got {scheduler!r}."
        )
    scheme, sep, place = scheduler.strip().partition("://")
    if not sep:
        scheme, place = "tcp", scheme
    place = place.removesuffix("/")
    if scheme.lower() == "inproc" and place:
        why = None
    elif scheme.lower() not in _SCHEMES:
        web = " (a web page's address: the dashboard's?)" if scheme.startswith("http") else ""
        known = ", ".join(_SCHEMES[:-1])
        why = f"it names the protocol {scheme + '://'!r}{web}, not one of {known}"
    elif place.startswith("["):  # IPv6: [::1]:8786
        host, _, port = place[1:].partition("]")
        why = _host_port_problem(host, port.removeprefix(":") if port.startswith(":") else None)
    else:
        host, sep, port = place.rpartition(":")
        why = _host_port_problem(host if sep else place, port if sep else None)
        if why is None and ":" in host:
            why = "an IPv6 host needs brackets, like tcp://[::1]:8786"
    if why is not None:
        raise ValueError(
            f"scheduler must be a Dask scheduler's address, {example}; {scheduler!r} is not: {why}."
        )
    return f"{scheme.lower()}://{place}"


def _host_port_problem(host: str, port: str | None) -> str | None:
    """What is wrong with an address's host and port (None: nothing)."""
    if not host:
        return "it names no host"
    if port is None:
        return "it names no port (a scheduler's is 8786 unless it was started with another)"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return f"its port {port!r} is not a whole number from 1 to 65535"
    return None


def _evolve_defaults() -> dict[str, Any]:
    """``evolve``'s own defaults for the options an experiment passes on."""
    from .run import evolve

    signature = inspect.signature(evolve).parameters
    return {name: signature[name].default for name in _OPTIONS}


def _check_experiment(folder: Path, grid: dict[str, Any]) -> None:
    """The experiment's folder holds this experiment, or nothing yet (else a ValueError)."""
    record = folder / "experiment.json"
    if record.exists():
        try:
            stored = json.loads(record.read_text())
        except (OSError, ValueError) as error:
            raise ValueError(
                f"{folder} holds a damaged experiment.json ({error}); give another folder."
            ) from None
        if not isinstance(stored, dict):
            raise ValueError(
                f"{folder} holds a damaged experiment.json (a JSON "
                f"{type(stored).__name__}, not the grid's object); give another "
                "folder."
            )
        differ = [
            f"{key} {stored.get(key)!r} there, {grid[key]!r} here"
            for key in _GRID
            if stored.get(key) != grid[key]
        ]
        there = stored.get("options") if isinstance(stored.get("options"), dict) else {}
        default = _evolve_defaults()  # an option added since the experiment was recorded
        differ += [
            f"{key} {there.get(key, default[key])!r} there, {value!r} here"
            for key, value in grid["options"].items()
            if there.get(key, default[key]) != value
        ]
        if differ:
            raise ValueError(
                f"{folder} holds another experiment ({'; '.join(differ)}); give "
                "another folder, or the same grid to resume it."
            )
    elif folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ValueError(
            f"{folder} is not an empty folder and holds no experiment "
            "(no experiment.json); give a new or empty folder."
        )


def _check_run_folders(
    folder: Path, runs: list[ExperimentRun], parameters: list[dict[str, Any]], generations: int
) -> None:
    """Each run's folder, if there is one already, holds that run (the same parameters), and
    no more generations than asked for: what its worker would refuse, refused here."""
    over = []
    for run, checked in zip(runs, parameters, strict=True):
        if (folder / run.name).exists():
            _, held = _open_folder(folder / run.name, checked, resume=True)
            if held.generation > generations:
                over.append((held.generation, run.name))
    if over:
        most, name = max(over)
        raise ValueError(
            f"the run {name} in {folder} already holds {most} generations, more "
            f"than the {generations} asked for; ask for {most} or more "
            "(read_summary and load_evolution read them as they are)."
        )


def _open_experiment(folder: Path, grid: dict[str, Any], generations: int) -> None:
    """Make the experiment's folder (checked by :func:`_check_experiment`) and record the
    grid in ``experiment.json``."""
    from .. import __version__

    record = folder / "experiment.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(
            f"cannot make the folder {folder}: {error.strerror or error}; give a "
            "folder you may write in."
        ) from None
    text = json.dumps({**grid, "generations": generations, "version": __version__}, indent=2)
    _write_atomic(record, lambda file: file.write(text.encode() + b"\n"))


@contextlib.contextmanager
def _cluster(workers: int | None, scheduler: str | None) -> Iterator[tuple[Any, bool]]:
    """A Dask client, and whether its cluster is this machine's: a local cluster of
    ``workers`` processes (default one per core, one thread each), or the running cluster
    at ``scheduler`` (once its scheduler has answered); closed on leaving."""
    import logging

    from dask.utils import parse_timedelta
    from distributed import Client, LocalCluster

    if scheduler is not None:
        seconds = parse_timedelta(CONNECT_TIMEOUT)
        if not scheduler.startswith("inproc://"):  # a cluster in this process answers at once
            _ask_scheduler(scheduler, seconds)
        try:
            client = Client(scheduler, timeout=seconds)
        except (OSError, TimeoutError, ValueError) as error:
            raise ValueError(
                f"the Dask scheduler at {scheduler} answered, but a client could "
                f"not join it ({_one_line(error)})."
            ) from None
        with client:
            yield client, False
        return
    count = workers or os.cpu_count() or 1
    with contextlib.ExitStack() as stack:
        with _ctrl_c_ignored():  # the workers started here leave Ctrl-C to this process
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=count,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
            )
            client = stack.enter_context(Client(cluster))
        try:
            yield client, True
        except BaseException:  # Ctrl-C, or a run failed: the runs have stopped or are ended
            _end_workers(cluster)
            raise


def _end_workers(cluster: Any) -> None:
    """End this machine's worker processes at once, their nannies told not to start them
    again (a run still playing resumes from its last saved generation): the cluster then
    closes in a moment, not in seconds."""
    for nanny in list(cluster.workers.values()):
        with contextlib.suppress(Exception):  # a worker that has gone already
            nanny.close_gracefully(reason="the experiment was stopped")
            if nanny.pid:
                os.kill(nanny.pid, signal.SIGTERM)


def _ask_scheduler(address: str, seconds: float) -> None:
    """Ask ``address`` who answers there; a ``ValueError`` unless a Dask scheduler does
    within ``seconds`` (a silent server, a web server or one that answers anything else
    is not one)."""
    import asyncio

    from distributed.comm import connect
    from distributed.security import Security

    async def identity() -> object:
        arguments = Security().get_connection_args("client")
        comm = await connect(address, timeout=seconds, **arguments)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    answers: list[object] = []

    def ask() -> None:  # on its own thread: a notebook's thread runs an event loop already
        try:
            answers.append(asyncio.run(asyncio.wait_for(identity(), seconds)))
        except Exception as error:  # refused, timed out, or bytes that are not Dask's
            answers.append(error)

    asking = threading.Thread(target=ask, name="asking-the-scheduler", daemon=True)
    asking.start()
    asking.join(seconds + 5)
    answer = answers[0] if answers else TimeoutError()
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind == "Scheduler":
        return
    if kind is not None:
        what = f" (a Dask {kind} did: give its scheduler's address)"
    elif isinstance(answer, TimeoutError) or "Timed out" in str(answer):
        what = f" within {seconds:g} s"
    else:
        what = " (something else did, not in Dask's protocol)"
    raise ValueError(
        f"no Dask scheduler answered at {address}{what}; start one (dask "
        "scheduler, then dask worker with its address), or leave out the "
        "scheduler to use this machine's cores."
    )


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while this machine's cluster starts (a second or two): the worker
    processes started meanwhile keep ignoring it, so a Ctrl-C at the terminal reaches only
    this process, which stops them in order."""
    if threading.current_thread() is not threading.main_thread():
        yield  # Ctrl-C reaches only the main thread, which is not starting this cluster
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)


def _play_run(
    folder: str,
    run: ExperimentRun,
    generations: int,
    options: dict[str, Any],
    stop: Any,
    local: bool,
) -> tuple[str, str] | None:
    """A worker's task: the run ``run`` resumed (or started) in ``folder`` up to
    ``generations``, its games on one thread, stopped at the start of a generation once the
    Dask event ``stop`` is set. Returns None, or why it failed (one line, the traceback)."""
    import numba

    from .run import evolve

    if stop.is_set():  # the experiment was stopped before this run started
        return None
    numba.set_num_threads(1)
    _bars_without_a_process_lock()
    if local:  # a worker restarted after its process died: Ctrl-C is the command's too
        from distributed import get_worker

        get_worker().loop.add_callback(signal.signal, signal.SIGINT, signal.SIG_IGN)
    try:
        evolve(
            run.chromosome,
            run.fitness,
            generations=generations,
            seed=run.seed,
            out=folder,
            resume=True,
            progress=False,
            stop=stop.is_set,
            **options,
        )
    except Exception as error:  # said by the experiment, not logged by the worker
        return _cause(error), traceback.format_exc()
    return None


def _cause(error: BaseException) -> str:
    """An error as one line: its message (its kind too, but for a plain mistake)."""
    if isinstance(error, OSError) and error.strerror:
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror}{where}"
    if isinstance(error, MemoryError):
        return "out of memory on its worker; ask for a smaller population or fewer games"
    text = _one_line(error)
    return text if type(error) in (ValueError, TypeError) else f"{type(error).__name__}: {text}"


def _one_line(error: object) -> str:
    """A message on one line."""
    return " ".join(str(error).split())


def _bars_without_a_process_lock() -> None:
    """In a worker process, the bars evolve makes (never shown there) share a thread lock,
    not tqdm's default process lock: a semaphore a worker ended by Ctrl-C would leave to
    the resource tracker's ``leaked semaphore`` warning."""
    import multiprocessing

    from tqdm import tqdm

    if multiprocessing.parent_process() is not None and "_lock" not in vars(tqdm):
        tqdm.set_lock(threading.RLock())


def _run_all(
    client: Any,
    runs: list[ExperimentRun],
    folder: Path,
    generations: int,
    options: dict[str, Any],
    progress: bool,
    local: bool,
) -> None:
    """Every run to ``generations`` on the cluster, with a progress bar that counts the
    generations saved across runs (read from their folders). Ctrl-C, or a run that fails,
    stops the others first (:func:`_stop_runs`)."""
    from distributed import Event
    from tqdm.auto import tqdm

    stop = Event(f"monopoly-lesson-stop-{uuid.uuid4().hex}", client=client)
    futures = {  # the grid's order: a higher priority runs first
        client.submit(
            _play_run,
            str(folder / run.name),
            run,
            generations,
            options,
            stop,
            local,
            key=f"evolve-{run.name}-{uuid.uuid4().hex[:8]}",
            pure=False,
            priority=len(runs) - k,
        ): run
        for k, run in enumerate(runs)
    }
    total = len(runs) * generations
    try:
        with tqdm(total=total, desc="experiment", unit="gen", disable=not progress) as bar:
            while True:
                finished = [future for future in futures if future.done()]
                for future in finished:
                    _check_finished(future, futures[future])
                bar.update(generations_saved(folder, runs) - bar.n)
                if len(finished) == len(futures):
                    break
                time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        playing = _stop_runs(client, stop, futures, LOCAL_STOP_SECONDS if local else STOP_SECONDS)
        raise ExperimentStopped([] if local else playing) from None  # this machine's: ended
    except RunFailed:
        _stop_runs(client, stop, futures, LOCAL_STOP_SECONDS if local else STOP_SECONDS)
        raise


def _check_finished(future: Any, run: ExperimentRun) -> None:
    """A run's finished task: a :class:`RunFailed` if the run failed, or its worker died."""
    from distributed import KilledWorker

    if future.status == "finished":
        failed = future.result()
        if failed is not None:
            raise RunFailed(run.name, *failed)
        return
    if future.cancelled():  # not by this experiment, which stops its runs only on leaving
        raise RunFailed(
            run.name,
            "its task was cancelled on the cluster (its scheduler was "
            "lost or restarted, or another client cancelled it)",
        )
    error = future.exception()
    if isinstance(error, KilledWorker):
        tries, last = error.allowed_failures + 1, error.last_worker
        raise RunFailed(
            run.name,
            f"the workers that played it died ({tries} "
            f"{'time' if tries == 1 else 'times'}, the last at "
            f"{getattr(last, 'address', last)}); their logs say why (out of "
            "memory? ask for a smaller population)",
        ) from None
    raise RunFailed(run.name, _cause(error)) from None


def _stop_runs(
    client: Any, stop: Any, futures: dict[Any, ExperimentRun], seconds: float
) -> list[str]:
    """Stop every run: set ``stop`` (a run asks it before each generation), cancel the tasks
    not started, and wait up to ``seconds`` for those playing to end their generation
    (a second Ctrl-C ends the wait). Returns the names of the runs still playing."""
    from distributed import wait

    with contextlib.suppress(Exception):  # a cluster that no longer answers stops nothing
        stop.set()
    playing = [future for future in futures if not future.done()]
    with contextlib.suppress(Exception):
        started = {key for keys in client.processing().values() for key in keys}
        client.cancel([future for future in playing if future.key not in started])
    playing = [future for future in playing if not future.done()]
    told = False
    with contextlib.suppress(KeyboardInterrupt):
        waited = time.monotonic()
        while playing and time.monotonic() - waited < seconds:
            with contextlib.suppress(TimeoutError):
                wait(playing, timeout=min(1.0, seconds))
            playing = [future for future in playing if not future.done()]
            if playing and not told and seconds > 1:
                told = True
                print(
                    f"stopping: the runs on the cluster end the generation they play "
                    f"(waiting at most {seconds:g} s; Ctrl-C to stop waiting)...",
                    file=sys.stderr,
                    flush=True,
                )
    names = [futures[future].name for future in playing if not future.done()]
    if not names:
        with contextlib.suppress(Exception):
            stop.clear()  # the scheduler forgets the event
    return names


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


def summary_row(
    run: str,
    chromosome: str,
    fitness: str,
    seed: int,
    history: pd.DataFrame,
    benchmark: pd.DataFrame,
) -> dict[str, Any]:
    """A run's row of the summary (:data:`SUMMARY_COLUMNS`): its last generation's fitness
    and diversity from ``history``, its last benchmark from ``benchmark`` (none: 0 and NaN)."""
    last = history.iloc[-1]
    bench = benchmark.iloc[-1] if not benchmark.empty else None
    return {
        "run": run,
        "chromosome": chromosome,
        "fitness": fitness,
        "seed": int(seed),
        "generations": int(last["generation"]),
        **{key: float(last[key]) for key in ("min", "median", "max", "mean", "sd", "diversity")},
        "benchmark_generation": int(bench["generation"]) if bench is not None else 0,
        **{
            key: float(bench[key]) if bench is not None else np.nan
            for key in ("win_rate", "ci_low", "ci_high")
        },
    }


def _write_summary(folder: Path, runs: list[ExperimentRun]) -> pd.DataFrame:
    """summary.csv: one row per run, read from its folder."""
    from .run import load_evolution

    rows = []
    for run in runs:
        result = load_evolution(folder / run.name)
        rows.append(
            summary_row(
                run.name, run.chromosome, run.fitness, run.seed, result.history, result.benchmark
            )
        )
    table = pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
    _write_csv(folder / "summary.csv", table)
    return table


def read_summary(out: str | os.PathLike[str]) -> pd.DataFrame:
    """An experiment's ``summary.csv`` (:data:`SUMMARY_COLUMNS`)."""
    path = Path(out) / "summary.csv"
    if not path.is_file():
        raise ValueError(
            f"{out} holds no experiment summary (no summary.csv): run the experiment there first."
        )
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
