"""The folder of a genetic-algorithm run: its files, written whole and read back checked.

:func:`~monopoly_lesson.evolution.run.evolve`, given a folder ``out``, keeps there:

- ``parameters.json``: the parameters, the package version and the equivalent command;
- ``history.csv``: one row per generation, ``generation`` (from 1), ``min``, ``q1``,
  ``median``, ``q3``, ``max``, ``mean``, ``sd`` (ddof 0) of the players' fitness, the
  population's genetic ``diversity``
  (:func:`~monopoly_lesson.evolution.operators.diversity`), ``luck_sd`` (the fitness sd
  that players all alike would show, from the luck of their games alone) and
  ``luck_share`` (its variance over the variance seen; near 1, the spread is luck), both
  missing (NaN) for an absolute fitness, whose players share the same games. A run
  written before these three columns existed reads them as missing (NaN);
- ``best.npz``: ``generation`` (G,), ``fitness`` (G,) and ``genomes`` (G, n), the best
  genome of each generation (the first best if tied), and ``chromosome`` (a string);
- ``population.npz``: ``genomes`` (P, n) and ``fitness`` (P,) of a generation, its number
  ``generation`` and ``chromosome``, written every :data:`SAVE_POPULATION_EVERY`
  generations and at the last asked for;
- ``recent.npz``: the ``fitness`` (G, P) of the generations played since (their numbers
  ``generation``, G of them) and ``chromosome``: a resumed run breeds their genomes again
  from population.npz's (the same genomes: breeding is seeded), so 34 MB of genes are
  not written every generation;
- ``benchmark.csv``: ``generation``, ``games``, ``wins``, ``win_rate``, ``ci_low``,
  ``ci_high``: the best genome against the benchmark opponents
  (:func:`~monopoly_lesson.evolution.run.benchmark`).

Every file is replaced whole (written to a temporary file, then renamed), recent.npz
last, so Ctrl-C, or a kill at any moment, leaves the last completed generation on disk. A
temporary file a killed run left behind is removed when the folder is opened again, and
what is read back is checked against ``parameters.json`` first. This module plays no game:
it opens, saves and reads the folder for :mod:`monopoly_lesson.evolution.run`.

>>> [name for name in _FILES if name.endswith(".csv")]
['history.csv', 'benchmark.csv']
>>> bool(_LEFTOVER.fullmatch(".best.npz.4242.tmp")), bool(_LEFTOVER.fullmatch("best.npz"))
(True, False)
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from ..checks import check_whole
from .operators import (
    OPERATORS,
    _check_name,
    _check_population,
    check_fitness,
    check_operators,
    genome_length,
)

__all__ = ["BENCHMARK_COLUMNS", "HISTORY_COLUMNS", "SAVE_POPULATION_EVERY"]

HISTORY_COLUMNS = (
    "generation",
    "min",
    "q1",
    "median",
    "q3",
    "max",
    "mean",
    "sd",
    "diversity",
    "luck_sd",
    "luck_share",
)
"""The columns of ``history.csv`` and of
:attr:`~monopoly_lesson.evolution.run.EvolutionResult.history`."""
BENCHMARK_COLUMNS = ("generation", "games", "wins", "win_rate", "ci_low", "ci_high")
"""The columns of ``benchmark.csv`` and of
:attr:`~monopoly_lesson.evolution.run.EvolutionResult.benchmark`."""
SAVE_POPULATION_EVERY = 10
"""How often (in generations) a run writes its whole population and best genomes; the
generations between are kept as their fitness (recent.npz) and bred again on resuming."""
_INTEGER_COLUMNS = ("generation", "games", "wins")
_FILES = (
    "parameters.json",
    "history.csv",
    "best.npz",
    "population.npz",
    "benchmark.csv",
    "recent.npz",
)
# What _write_atomic leaves behind when killed mid-write: .<file>.<pid>.tmp
_LEFTOVER = re.compile(r"\.(" + "|".join(map(re.escape, _FILES)) + r")\.(\d+)\.tmp")
# Parameters that must agree for a folder's run to be resumed (not generations).
_SAME_RUN = (
    "chromosome",
    "fitness",
    "population",
    "games_per_player",
    "seed",
    "max_rounds",
    "benchmark_every",
    "benchmark_games",
    "benchmark_opponents",
    *OPERATORS,
    "trading",
    "league",
    "hall_of_fame",
)
_LATER_COLUMNS = ("diversity", "luck_sd", "luck_share")  # missing from older runs' history
_ADVICE = "start the run again in a new folder (or restore the file from a copy)"


@dataclass
class _Run:
    """A run in progress: what is kept between generations (and written to the folder)."""

    parameters: dict[str, Any]
    generation: int = 0
    population: np.ndarray | None = None  # the last generation played
    fitness: np.ndarray | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    best: list[np.ndarray] = field(default_factory=list)
    benchmark: list[dict[str, Any]] = field(default_factory=list)
    saved: int = 0  # the generation population.npz holds (0: none)
    recent: list[np.ndarray] = field(default_factory=list)  # fitness of those played since


def _frame(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> pd.DataFrame:
    """Rows as a table of these columns: whole numbers int64, the rest float64."""
    table = pd.DataFrame(rows, columns=list(columns))
    return table.astype({c: "int64" if c in _INTEGER_COLUMNS else "float64" for c in columns})


# ---------------------------------------------------------------------------
# Opening the folder
# ---------------------------------------------------------------------------


def _open_folder(
    out: str | os.PathLike[str] | None, parameters: dict[str, Any], resume: bool
) -> tuple[Path | None, _Run]:
    """The folder of the run and the run to continue there (a fresh one if none)."""
    if out is None:
        if resume:
            raise ValueError("resume=True needs out, the folder of the run to continue.")
        return None, _Run(parameters)
    folder = Path(out)
    _check_folder(folder)
    if folder.is_dir():
        _clean_leftovers(folder)
    if not (folder / "parameters.json").exists():
        if folder.is_dir() and any(folder.iterdir()):
            raise ValueError(
                f"{out} holds other files but no run (no parameters.json); "
                "give a new or empty folder."
            )
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(
                f"cannot make the folder {out}: {error.strerror or error}; give "
                "a folder you may write in."
            ) from None
        return folder, _Run(parameters)
    stored = _with_operators(_read_json(folder / "parameters.json"))
    different = [key for key in _SAME_RUN if stored.get(key) != parameters[key]]
    if different:
        what = "; ".join(
            f"{key} {stored.get(key)!r} there, {parameters[key]!r} here" for key in different
        )
        raise ValueError(
            f"{out} holds a different run ({what}); give another folder, or the "
            "same parameters to resume it."
        )
    if not resume:
        raise ValueError(
            f"{out} already holds this run; pass resume=True (--resume on the "
            "command line) to continue it, or give another folder."
        )
    return folder, _load_run(folder, parameters)


def _check_folder(folder: Path) -> None:
    """Refuse a run's folder that is a file, lies under a file, or cannot be written."""
    for place in (folder, *folder.parents):
        if place.exists():
            if not place.is_dir():
                inside = "" if place == folder else f" (and {folder} would be inside it)"
                raise ValueError(
                    f"out must be a folder, but {place} is a file{inside}; give a folder's name."
                )
            if not os.access(place, os.W_OK | os.X_OK):
                raise ValueError(
                    f"cannot write in the folder {place} (permission denied); "
                    "give a folder you may write in."
                )
            return


def _clean_leftovers(folder: Path) -> None:
    """Remove the temporary files a killed run left (``.best.npz.<pid>.tmp``), unless the
    process that writes one is still running."""
    for path in folder.iterdir():
        match = _LEFTOVER.fullmatch(path.name)
        if match and not _running(int(match.group(2))):
            with contextlib.suppress(OSError):
                path.unlink()


def _running(pid: int) -> bool:
    """Is another process ``pid`` running (whose temporary file must be left alone)?"""
    if pid == os.getpid():
        return False
    try:
        import psutil

        return bool(psutil.pid_exists(pid))
    except (OverflowError, ValueError):  # not a process id
        return False
    except ImportError:
        pass
    if os.name != "posix":  # no safe way to ask: leave the file
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:  # another user's process
        return True
    return True


# ---------------------------------------------------------------------------
# Reading it back, checked
# ---------------------------------------------------------------------------


def _read_run(out: str | os.PathLike[str]) -> _Run:
    """The run kept in the folder ``out`` (maybe no generation yet), every file checked
    against its ``parameters.json``; temporary files a killed run left are removed first."""
    if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
        raise TypeError(f"out must be the path of an evolve() folder, got {out!r}.")
    folder = Path(out)
    if not (folder / "parameters.json").is_file():
        raise ValueError(f"{out} holds no run (no parameters.json): give an evolve() folder.")
    _clean_leftovers(folder)
    parameters = _read_json(folder / "parameters.json")
    _check_stored(folder, parameters)
    return _load_run(folder, _with_operators(parameters))


def _with_operators(parameters: dict[str, Any]) -> dict[str, Any]:
    """A stored run's parameters, with the paper's operators, no trading and no league
    where a run written before those were options names none."""
    try:
        paper = check_operators(parameters.get("chromosome"))  # type: ignore[arg-type]
    except (TypeError, ValueError):  # not a chromosome: _check_stored or the caller says so
        return parameters
    return {**paper, "trading": False, "league": None, "hall_of_fame": 0, **parameters}


def _load_run(folder: Path, parameters: dict[str, Any]) -> _Run:
    """The run in ``folder`` as of its last generation saved (later rows are dropped), each
    file checked against ``parameters``: population.npz's generation, then the generations
    recent.npz holds after it, their genomes bred again."""
    run = _Run(parameters)
    chromosome, players = parameters["chromosome"], parameters["population"]
    if (folder / "population.npz").exists():
        population = _read_npz(folder / "population.npz", chromosome, ("genomes", "fitness"))
        run.generation = _whole_number(population["generation"], folder / "population.npz")
        run.population = _genomes(
            population["genomes"], chromosome, folder / "population.npz", rows=players
        )
        run.fitness = _fitness(population["fitness"], players, folder / "population.npz")
        best = _read_npz(folder / "best.npz", chromosome, ("genomes",))
        run.best = list(
            _genomes(best["genomes"], chromosome, folder / "best.npz")[: run.generation]
        )
        run.saved = run.generation
    _replay_recent(folder, run)
    if run.generation == 0:
        return run
    history = _read_csv(folder / "history.csv", HISTORY_COLUMNS)
    benchmark = _read_csv(folder / "benchmark.csv", BENCHMARK_COLUMNS)
    run.history = history[history["generation"] <= run.generation].to_dict("records")
    run.benchmark = benchmark[benchmark["generation"] <= run.generation].to_dict("records")
    numbered = [row["generation"] for row in run.history]
    for name, held in (("history.csv", numbered), ("best.npz", range(1, len(run.best) + 1))):
        if list(held) != list(range(1, run.generation + 1)):
            raise ValueError(
                f"the run in {folder} is damaged: it is at generation "
                f"{run.generation} but {name} does not hold its generations 1 "
                f"to it in order ({_generations(held)}); {_ADVICE}."
            )
    return run


def _generations(numbers: Sequence[int]) -> str:
    """What generations a file holds, in a few words: ``it holds 1 to 3, then 5``."""
    if not numbers:
        return "it holds none"
    shown = ", ".join(map(str, numbers[:5])) + (", ..." if len(numbers) > 5 else "")
    return f"it holds {len(numbers)}: {shown}"


def _replay_recent(folder: Path, run: _Run) -> None:
    """Bring ``run`` (at population.npz's generation) to the last generation recent.npz
    holds: each generation's genomes bred again, its best genome picked by its fitness."""
    from .operators import generation_genomes, select_elite

    path = folder / "recent.npz"
    if not path.exists():  # a run written before recent.npz existed, or none yet
        return
    players = run.parameters["population"]
    recent = _read_npz(path, run.parameters["chromosome"], ("fitness",))
    numbers, fitness = recent["generation"], recent["fitness"]
    if (
        numbers.ndim != 1
        or numbers.dtype.kind not in "iu"
        or fitness.ndim != 2
        or len(fitness) != len(numbers)
    ):
        raise ValueError(
            f"recent.npz in {folder} is damaged: it must hold one row of "
            "fitness per generation; start the run again in a new "
            "folder."
        )
    later = numbers > run.generation  # rows up to population.npz's are already in it
    numbers, fitness = numbers[later], fitness[later]
    if list(numbers) != list(range(run.generation + 1, run.generation + 1 + len(numbers))):
        raise ValueError(
            f"the run in {folder} is damaged: recent.npz holds generations "
            f"{numbers.tolist()} but population.npz is generation {run.generation}; "
            "start the run again in a new folder."
        )
    for number, row in zip(numbers.tolist(), fitness, strict=True):
        scores = _fitness(row, players, path)
        genomes = generation_genomes(run.parameters, number, run.population, run.fitness)
        run.generation, run.population, run.fitness = number, genomes, scores
        run.best.append(genomes[int(select_elite(scores, 1)[0])].copy())
        run.recent.append(scores)


def _read_npz(path: Path, chromosome: str, arrays: tuple[str, ...]) -> dict[str, np.ndarray]:
    """An .npz file the run wrote, read whole; a damaged or foreign one is refused."""
    names = ("chromosome", "generation", *arrays)
    damaged = f"{path.name} in {path.parent} is damaged or not this run's"
    advice = _ADVICE
    if not path.is_file():
        raise ValueError(f"{path.name} is missing from {path.parent}: {advice}.")
    try:
        if not zipfile.is_zipfile(path):
            raise ValueError("not a complete .npz file")
        with np.load(path, allow_pickle=False) as data:
            read = {name: np.asarray(data[name]) for name in names}
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as error:
        detail = str(error).split(". ")[0].strip(" .'\"")  # not numpy's advice on pickles
        raise ValueError(f"{damaged} ({detail}): {advice}.") from None
    except Exception as error:  # zlib's, struct's: anything else a damaged file gives
        raise ValueError(f"{damaged} ({type(error).__name__}): {advice}.") from None
    if read["chromosome"].shape != () or str(read["chromosome"]) != chromosome:
        raise ValueError(
            f"{damaged}: it holds {read['chromosome']!s} players, the run {chromosome}; {advice}."
        )
    return read


def _whole_number(value: np.ndarray, path: Path) -> int:
    """population.npz's generation: a whole number of at least 1."""
    if value.shape != () or value.dtype.kind not in "iu" or int(value) < 1:
        raise ValueError(
            f"{path.name} in {path.parent} is damaged: its generation is "
            f"{value!r}, not a whole number from 1."
        )
    return int(value)


def _genomes(
    genomes: np.ndarray, chromosome: str, path: Path, rows: int | None = None
) -> np.ndarray:
    """Genomes read from ``path``, checked: their shape, type and values are the run's."""
    length = genome_length(chromosome)
    where = f"{path.name} in {path.parent} does not hold {chromosome} genomes"
    if genomes.ndim != 2 or genomes.shape[1] != length or (rows and len(genomes) != rows):
        want = f"({rows if rows else 'generations'}, {length})"
        raise ValueError(f"{where}: their shape is {genomes.shape}, not {want}.")
    if chromosome == "sga":
        if genomes.dtype != np.uint8 or np.any(genomes > 1):
            raise ValueError(f"{where}: SGA genomes are bits, 0 or 1 (uint8).")
    elif genomes.dtype.kind != "f" or not np.all((genomes >= 0) & (genomes <= 1)):
        raise ValueError(f"{where}: genes are numbers from 0 to 1 (not NaN).")
    return genomes.astype(np.uint8 if chromosome == "sga" else float, copy=False)


def _fitness(fitness: np.ndarray, players: int, path: Path) -> np.ndarray:
    """The last generation's fitness read from ``path``: one finite number of 0 or more
    per player."""
    if (
        fitness.shape != (players,)
        or fitness.dtype.kind not in "fiu"
        or not np.all(np.isfinite(fitness))
        or np.any(fitness < 0)
    ):
        raise ValueError(
            f"{path.name} in {path.parent} is damaged: its fitness must be "
            f"{players} finite numbers of 0 or more."
        )
    return fitness.astype(float, copy=False)


def _check_stored(folder: Path, parameters: dict[str, Any]) -> None:
    """The parameters.json of a folder holds what reading its run needs, or a plain error."""
    try:
        _check_name(parameters.get("chromosome"), "chromosome")
        check_fitness(parameters.get("fitness"))
        _check_population(parameters.get("population"))
        check_whole(parameters.get("generations"), "generations", 1)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"parameters.json in {folder} is damaged or not evolve()'s: {error}"
        ) from None


# ---------------------------------------------------------------------------
# Writing it, each file whole
# ---------------------------------------------------------------------------


def _save(folder: Path, run: _Run) -> None:
    """Write the run's files, recent.npz (the resume point) last; population.npz and
    best.npz only when the run's population is to be saved whole (``run.saved`` is its
    generation)."""
    chromosome = np.array(run.parameters["chromosome"])
    if run.saved == run.generation:
        _write_npz(
            folder / "best.npz",
            {
                "chromosome": chromosome,
                "generation": np.array([row["generation"] for row in run.history], dtype=np.int64),
                "fitness": np.array([row["max"] for row in run.history], dtype=float),
                "genomes": np.stack(run.best),
            },
        )
    _write_csv(folder / "history.csv", _frame(run.history, HISTORY_COLUMNS))
    _write_csv(folder / "benchmark.csv", _frame(run.benchmark, BENCHMARK_COLUMNS))
    if run.saved == run.generation:
        _write_npz(
            folder / "population.npz",
            {
                "chromosome": chromosome,
                "generation": np.array(run.generation, dtype=np.int64),
                "genomes": run.population,
                "fitness": run.fitness,
            },
        )
    _write_recent(folder, run)


def _write_recent(folder: Path, run: _Run) -> None:
    """recent.npz: the fitness of the generations played since population.npz's."""
    players = run.parameters["population"]
    _write_npz(
        folder / "recent.npz",
        {
            "chromosome": np.array(run.parameters["chromosome"]),
            "generation": np.arange(run.saved + 1, run.generation + 1, dtype=np.int64),
            "fitness": np.array(run.recent, dtype=float).reshape(len(run.recent), players),
        },
    )


def _write_atomic(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write ``path`` whole or not at all: a temporary file in its folder, then a rename."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):  # a full disk, a folder made read-only...
            raise ValueError(
                f"cannot write {path} ({error.strerror or error}); what was "
                "saved before is kept: make room (or give a folder you may "
                "write in) and resume."
            ) from None
        raise


def _write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """An .npz file (``numpy.load`` reads it) with fixed timestamps: same run, same bytes."""

    def write(file: IO[bytes]) -> None:
        with zipfile.ZipFile(file, "w", zipfile.ZIP_STORED) as archive:
            for name, array in arrays.items():
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                with archive.open(info, "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)

    _write_atomic(path, write)


def _write_csv(path: Path, table: pd.DataFrame) -> None:
    """A table as CSV (no index, Unix line ends, a missing number ``nan``), written whole."""
    text = table.to_csv(index=False, lineterminator="\n", na_rep="nan")
    _write_atomic(path, lambda file: file.write(text.encode()))


def _read_csv(path: Path, columns: tuple[str, ...]) -> pd.DataFrame:
    """A table _write_csv wrote, its numbers read back exactly (Python's int and float); a
    missing, cut short or foreign file is refused, naming the file, the line and the fix."""
    damaged = f"{path.name} in {path.parent} is damaged"
    if not path.is_file():
        raise ValueError(f"{path.name} is missing from {path.parent}: {_ADVICE}.")
    try:
        text = path.read_bytes().decode()
    except OSError as error:
        raise ValueError(
            f"cannot read {path} ({error.strerror or error}); let it be read "
            "(or restore it from a copy)."
        ) from None
    except UnicodeDecodeError:
        raise ValueError(f"{damaged}: it is not text; {_ADVICE}.") from None
    lines = list(csv.reader(io.StringIO(text, newline="")))
    if not lines:
        raise ValueError(f"{damaged}: it is empty (not even its header line); {_ADVICE}.")
    if not text.endswith("\n"):  # every line _write_csv writes ends with one
        raise ValueError(
            f"{damaged}: it is cut short (its last line, line {len(lines)}, is "
            f"incomplete); {_ADVICE}."
        )
    header, rows = lines[0], lines[1:]
    allowed = (set(columns), set(columns) - set(_LATER_COLUMNS))
    if len(set(header)) != len(header) or set(header) not in allowed:
        raise ValueError(
            f"{damaged} or not an evolve() run's: its columns are {header}, not "
            f"{list(columns)}; {_ADVICE}."
        )
    number = {c: int if c in _INTEGER_COLUMNS else float for c in columns}
    table = []
    for line, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise ValueError(
                f"{damaged}: line {line} has {len(row)} values, not {len(header)}; {_ADVICE}."
            )
        values = dict(zip(header, row, strict=True))
        try:
            table.append({c: number[c](values.get(c, "nan")) for c in columns})
        except ValueError:
            bad = next(c for c in header if not _reads_as(number[c], values[c]))
            kind = "a whole number" if number[bad] is int else "a number"
            raise ValueError(
                f"{damaged}: on line {line} its {bad} is {values[bad]!r}, not {kind}; {_ADVICE}."
            ) from None
    return _frame(table, columns)


def _reads_as(kind: type, text: str) -> bool:
    """Does ``text`` read as a number of this kind (int or float)?"""
    try:
        kind(text)
    except ValueError:
        return False
    return True


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """``parameters.json``, indented, written whole."""
    text = json.dumps(data, indent=2) + "\n"
    _write_atomic(path, lambda file: file.write(text.encode()))


def _read_json(
    path: Path, holds: str = "the parameters of an evolve() run", advice: str = _ADVICE
) -> dict[str, Any]:
    """A JSON file that holds an object (a run's ``parameters.json``, an experiment's
    ``experiment.json``) read back, or one plain error: the file, what is wrong in it, what
    it should hold (``holds``) and what to do (``advice``)."""
    try:
        data = json.loads(path.read_bytes().decode())
    except OSError as error:
        raise ValueError(
            f"cannot read {path} ({error.strerror or error}); let it be read, or {advice}."
        ) from None
    except ValueError as error:  # not JSON, or not text at all
        raise ValueError(
            f"{path.name} in {path.parent} is damaged: it is not valid JSON "
            f"({error}), it should hold {holds}; {advice}."
        ) from None
    if not isinstance(data, dict):
        raise ValueError(
            f"{path.name} in {path.parent} is damaged: it holds a JSON "
            f"{_JSON_KINDS.get(type(data), 'value')} ({_shorten(data)}), not "
            f"{holds} (a JSON object); {advice}."
        )
    return data


_JSON_KINDS = {
    list: "array",
    str: "string",
    int: "number",
    float: "number",
    bool: "true or false",
    type(None): "null",
}


def _shorten(data: object) -> str:
    """A JSON value as it reads, cut to 40 characters."""
    text = json.dumps(data)
    return text if len(text) <= 40 else text[:37] + "..."
