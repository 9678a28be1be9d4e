"""Make the compact data file of an experiment that ships with the package.

Usage: ``python tools/ship_experiment.py EXPERIMENT_FOLDER NAME`` writes
``monopoly_lesson/data/experiment_NAME/`` from the runs of ``python -m monopoly_lesson
experiment``'s folder that are finished (a run still under way is left out, and said):

- ``runs.json``: each run's parameters, its command written for ``--out runs/<run>``;
- ``history.csv.gz``: every run's history, a ``run`` column first;
- ``benchmark.csv``: every run's benchmarks (every 10 generations), a ``run`` column first;
- ``genes.npz``: per run the generations 10, 20, ... and their best genomes (genes as
  whole numbers 0..255, SGA's bits packed), the last best genome exactly, and the whole
  population's fitness at the last generation and at each of ``--fitness-at``'s
  generations (``1,100`` for every run, ``sga:289`` for the SGA runs only; those are played
  again to that generation: the same genomes and games, in resumable folders under
  ``--work``, one per run and generation).

The runs' populations (34 MB each) stay out of the package.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from monopoly_lesson.evolution.experiment import experiment_runs
from monopoly_lesson.evolution.operators import OPERATORS
from monopoly_lesson.evolution.run import evolve, load_evolution
from monopoly_lesson.evolution.shipped import GENE_STEPS

DATA = Path(__file__).resolve().parent.parent / "monopoly_lesson" / "data"
EVERY = 10  # the best genome of every 10th generation


def main() -> None:
    """Write the shipped files of one experiment's finished runs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("experiment", type=Path, help="the folder the experiment wrote")
    parser.add_argument("name", help="the shipped experiment's name (data/experiment_NAME)")
    parser.add_argument(
        "--fitness-at",
        default="",
        metavar="GENERATIONS",
        help="comma-separated generations whose fitness to keep (played again); "
        "CHROMOSOME:GENERATION for that chromosome's runs only",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=None,
        help="where those generations are played (resumable folders)",
    )
    args = parser.parse_args()
    again = fitness_generations(args.fitness_at)
    if again and args.work is None:
        parser.error("--fitness-at needs --work, a folder for the runs played again")
    grid = json.loads((args.experiment / "experiment.json").read_text())
    runs = experiment_runs(grid["chromosomes"], grid["fitness"], grid["seeds"])
    out = DATA / f"experiment_{args.name}"
    out.mkdir(parents=True, exist_ok=True)
    parameters, histories, benchmarks, genes = {}, [], [], {}
    for run in runs:
        folder = args.experiment / run.name
        result = load_evolution(folder) if (folder / "history.csv").exists() else None
        if result is None or len(result.history) < grid["generations"]:
            done = 0 if result is None else len(result.history)
            print(f"left out {run.name}: {done} of {grid['generations']} generations")
            continue
        p = dict(result.parameters)
        p["command"] = f"{p['command'].split(' --out ')[0]} --out runs/{run.name}"
        parameters[run.name] = p
        histories.append(result.history.assign(run=run.name))
        benchmarks.append(result.benchmark.assign(run=run.name))
        kept = np.arange(EVERY, len(result.history) + 1, EVERY)
        best = result.best_genomes[kept - 1]
        genes[f"{run.name}/generations"] = kept
        genes[f"{run.name}/best"] = (
            np.packbits(best, axis=1)
            if run.chromosome == "sga"
            else np.rint(best * GENE_STEPS).astype(np.uint8)
        )
        genes[f"{run.name}/final"] = result.best_genomes[-1]
        genes[f"{run.name}/fitness_{len(result.history)}"] = result.fitness
        wanted = sorted({g for chromosome, g in again if chromosome in ("", run.chromosome)})
        for generation, fitness in fitness_at(p, wanted, args.work / run.name if wanted else None):
            genes[f"{run.name}/fitness_{generation}"] = fitness
    (out / "runs.json").write_text(json.dumps(parameters, indent=2) + "\n")
    columns = lambda table: ["run", *[c for c in table.columns if c != "run"]]  # noqa: E731
    history = pd.concat(histories, ignore_index=True) if histories else pd.DataFrame()
    text = history[columns(history)].to_csv(index=False, lineterminator="\n") if histories else ""
    (out / "history.csv.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
    bench = pd.concat(benchmarks, ignore_index=True) if benchmarks else pd.DataFrame()
    (bench[columns(bench)] if benchmarks else bench).to_csv(
        out / "benchmark.csv", index=False, lineterminator="\n"
    )
    _write_npz(out / "genes.npz", genes)
    print(
        f"wrote {out}: "
        + ", ".join(f"{p.name} {p.stat().st_size:,} B" for p in sorted(out.iterdir()))
    )


def fitness_generations(text: str) -> list[tuple[str, int]]:
    """``--fitness-at``: (chromosome or "" for every run, generation) pairs."""
    pairs = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        chromosome, _, generation = item.rpartition(":")
        pairs.append((chromosome, int(generation)))
    return pairs


def fitness_at(p: dict, generations: list[int], work: Path | None) -> list[tuple[int, np.ndarray]]:
    """The population's fitness at each of ``generations`` of the run of parameters ``p``:
    the run played again to that generation in the resumable folder ``work/gen<G>``
    (without its benchmarks, which play no part in the populations)."""
    found = []
    for generation in generations:
        folder = work / f"gen{generation}"  # a folder per generation: it resumes, never overshoots
        result = evolve(
            p["chromosome"],
            p["fitness"],
            population=p["population"],
            games_per_player=p["games_per_player"],
            generations=generation,
            seed=p["seed"],
            out=folder,
            resume=True,
            benchmark_every=0,
            max_rounds=p["max_rounds"],
            progress=False,
            trading=p["trading"],
            **{key: p[key] for key in OPERATORS},
        )
        found.append((generation, result.fitness))
    return found


def _write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """A compressed .npz with fixed timestamps: the same runs give the same bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(array), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, buffer.getvalue())


if __name__ == "__main__":
    main()
