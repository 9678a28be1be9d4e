"""How good are evolved players? Each run's final best genome against fixed and learned fields.

For every run folder given (``evolve(..., out=FOLDER)``) or shipped player named, the best
genome of its last generation plays ``--games`` fresh games (seed ``--seed``, not the runs'
own) against each field, seats rotated, every player in the same games; always-buy, the
heuristic player and the dealer play the same games as yardsticks. The fields are the
league's targets: the benchmark's (heuristic, always-buy, heuristic), three always-buy
players, and three copies each of the shipped EGAs and of the dealer. Last, always-buy
plays against three copies of each player: how far can it be exploited? Prints one table
per field with 95% intervals.

    python tools/evolution_targets.py runs/rga_level runs/ega_vs --games 8000
    python tools/evolution_targets.py league runs/league --trading
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from monopoly_lesson.evolution.run import load_evolution, win_rates_against
from monopoly_lesson.game.plugins import SHIPPED_PLAYERS

FIELDS = {
    "heuristic, always, heuristic": ("heuristic", "always", "heuristic"),
    "always x 3": ("always",) * 3,
    "ega_trading x 3": ("ega_trading",) * 3,
    "ega_always x 3": ("ega_always",) * 3,
    "dealer x 3": ("dealer",) * 3,
}
YARDSTICKS = ("always", "heuristic", "dealer")
COLUMNS = ["wins", "win_rate", "ci_low", "ci_high"]


def players_of(sources: list[str]) -> list[object]:
    """Each source's player: a shipped player by name, else a run folder's last best genome."""
    players = []
    for source in sources:
        if source in SHIPPED_PLAYERS:
            players.append(source)
            continue
        run = load_evolution(Path(source))
        player = run.best_player()
        player.name = f"{Path(source).name} (gen {len(run.history)})"
        players.append(player)
    return players


def targets(players: list[object], games: int, seed: int, trading: bool) -> dict[str, pd.DataFrame]:
    """Per field: a table of win rates (and intervals), one row per player and yardstick;
    then always-buy's win rate against three copies of each."""
    tables = {}
    for label, field in FIELDS.items():
        table = win_rates_against([*players, *YARDSTICKS], field, games, seed, trading=trading)
        tables[label] = table[COLUMNS].round(4)
    exploited = [
        win_rates_against(["always"], [player] * 3, games, seed + 1, trading=trading)
        for player in players
    ]
    names = [str(getattr(player, "name", player)) for player in players]
    exploited_table = pd.concat(exploited).set_axis(names)[COLUMNS].round(4)
    tables["three copies of each (always-buy's win rate)"] = exploited_table
    return tables


def main() -> None:
    """Print the tables of :func:`targets` for the players given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", nargs="+", help="evolve() run folders or shipped players")
    parser.add_argument("--games", type=int, default=8000, help="games per player and field")
    parser.add_argument("--seed", type=int, default=2026, help="the games' seed (2026)")
    parser.add_argument("--trading", action="store_true", help="play with trading on")
    args = parser.parse_args()
    trading = " with trading" if args.trading else ""
    tables = targets(players_of(args.players), args.games, args.seed, args.trading)
    for label, table in tables.items():
        print(f"\nagainst {label}, {args.games:,} games each, seats rotated{trading}:")
        print(table.to_string())


if __name__ == "__main__":
    main()
