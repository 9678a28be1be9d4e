"""Make the small data file of an evolve run that ships with the package.

Usage: ``python tools/ship_run.py RUN_FOLDER NAME`` writes ``monopoly_lesson/data/NAME/``:
the run's ``history.csv`` and ``benchmark.csv`` as they are, ``benchmark_each.csv`` (every
generation's best genome against the benchmark opponents, 1,000 games each, compiled
engine), ``run.json`` (its parameters and the exact command that makes it), and
``genes.npz``: each generation's best buy genes (float32), the final best genome, and the
final population's mean buy and jail genes.
The run's own population and best genomes (tens of MB) stay out of the package.
A run shipped as an evolved player too (``SHIPPED_PLAYERS`` in monopoly_lesson/game/plugins.py)
has its final best player in ``data/players/NAME.json`` as well: run
``tools/shipped_players.py`` after this.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import numpy as np

from monopoly_lesson.evolution.operators import genome_genes
from monopoly_lesson.evolution.run import benchmark_each, load_evolution

DATA = Path(__file__).resolve().parent.parent / "monopoly_lesson" / "data"
EACH_GAMES = 1000  # benchmark games of every generation's best genome (fast engine)


def main() -> None:
    """Write the shipped files of one run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run", type=Path, help="the folder evolve wrote")
    parser.add_argument("name", help="the name of the shipped run (a folder under data/)")
    args = parser.parse_args()
    run = load_evolution(args.run)
    chromosome = run.parameters["chromosome"]
    out = DATA / args.name
    out.mkdir(parents=True, exist_ok=True)
    for name in ("history.csv", "benchmark.csv"):
        shutil.copyfile(args.run / name, out / name)
    parameters = dict(run.parameters)
    command = parameters["command"].split(" --out ")[0]  # the run's own options, any folder
    parameters["command"] = f"{command} --out runs/{args.name}"
    (out / "run.json").write_text(json.dumps(parameters, indent=2) + "\n")
    each = benchmark_each(
        chromosome,
        run.best_genomes,
        games=EACH_GAMES,
        seed=run.parameters["seed"],
        max_rounds=run.parameters["max_rounds"],
        opponents=run.parameters["benchmark_opponents"],
        trading=run.parameters.get("trading", False),
    )
    each.to_csv(out / "benchmark_each.csv", index=False)
    best_buy, *_ = genome_genes(chromosome, run.best_genomes)
    buy, jail, *_ = genome_genes(chromosome, run.population)
    np.savez_compressed(
        out / "genes.npz",
        best_buy=best_buy.astype(np.float32),
        final_best=run.best_genomes[-1],
        population_buy=buy.mean(axis=0),
        population_jail=jail.mean(axis=0),
    )
    print(f"wrote {out}: " + ", ".join(f"{p.name} {p.stat().st_size:,} B" for p in out.iterdir()))


if __name__ == "__main__":
    main()
