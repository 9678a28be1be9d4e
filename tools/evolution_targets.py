"""How good are evolved players? Each run's final best genome against fixed fields.

For every run folder given (``evolve(..., out=FOLDER)``), the best genome of its last
generation plays ``--games`` fresh games (seed ``--seed``, not the runs' own) against each
field, seats rotated, every player in the same games; always-buy and the heuristic player
play the same games as yardsticks. Prints one table per field with 95% intervals.

    python tools/evolution_targets.py runs/rga_level runs/ega_vs --games 8000
    python tools/evolution_targets.py runs/ega_trading --trading
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from monopoly_lesson.evolution.run import load_evolution, win_rates_against

FIELDS = {
    "heuristic, always, heuristic": ("heuristic", "always", "heuristic"),
    "always x 3": ("always", "always", "always"),
}
YARDSTICKS = ("always", "heuristic")


def targets(folders: list[Path], games: int, seed: int, trading: bool) -> dict[str, pd.DataFrame]:
    """Per field: a table of win rates (and intervals), one row per run and yardstick."""
    players, names = [], []
    for folder in folders:
        run = load_evolution(folder)
        player = run.best_player()
        player.name = f"{folder.name} (gen {len(run.history)})"
        players.append(player)
        names.append(player.name)
    tables = {}
    for label, field in FIELDS.items():
        table = win_rates_against([*players, *YARDSTICKS], field, games, seed, trading=trading)
        tables[label] = table[["wins", "win_rate", "ci_low", "ci_high"]].round(4)
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="evolve() run folders")
    parser.add_argument("--games", type=int, default=8000, help="games per player and field")
    parser.add_argument("--seed", type=int, default=2026, help="the games' seed (2026)")
    parser.add_argument("--trading", action="store_true", help="play with trading on")
    args = parser.parse_args()
    trading = " with trading" if args.trading else ""
    for label, table in targets(args.folders, args.games, args.seed, args.trading).items():
        print(f"\nagainst {label}, {args.games:,} games each, seats rotated{trading}:")
        print(table.to_string())


if __name__ == "__main__":
    main()
