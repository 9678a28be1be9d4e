"""Write the shipped evolved players' data files, from which the game reads them by name.

    python tools/shipped_players.py            # writes monopoly_lesson/data/players/*.json
    python tools/shipped_players.py --check    # exit 1 if those files are not up to date

Each shipped evolved player (``league``, ``ega_trading``, ...: ``SHIPPED_PLAYERS`` in
monopoly_lesson/game/plugins.py) is the final best genome of the shipped run of that name
(``load_shipped_run(name).best_player()``). The game sits below the genetic algorithm, so it
does not load the run: it reads ``data/players/NAME.json``, which holds the player's
chromosome (a name of ``CHROMOSOME_PLAYERS``: rga, ega, bga, ...) and its tables of genes as
the player stores them (``gene_arrays()``, named as ``gene_tables()``), one row a line,
each number as Python writes it (read back, it is the same float).
Run it after shipping a run (tools/ship_run.py); the test suite fails while a file is out
of step.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from monopoly_lesson.evolution.shipped import load_shipped_run  # noqa: E402
from monopoly_lesson.game.chromosomes import CHROMOSOME_PLAYERS  # noqa: E402
from monopoly_lesson.game.plugins import SHIPPED_DATA, SHIPPED_PLAYERS  # noqa: E402


def player_text(name: str) -> str:
    """``NAME.json``'s text: the shipped run ``name``'s final best player, its chromosome and
    its tables of genes."""
    player = load_shipped_run(name).best_player()
    chromosome = next(key for key, kind in CHROMOSOME_PLAYERS.items() if type(player) is kind)
    tables = [
        f'  "{table}": [\n'
        + ",\n".join(f"   {json.dumps(row)}" for row in genes.tolist())
        + "\n  ]"
        for table, genes in zip(type(player).gene_tables(), player.gene_arrays(), strict=True)
    ]
    head = {
        "name": name,
        "chromosome": chromosome,
        "from": f"the final best genome of the shipped run data/{name}/ (tools/shipped_players.py)",
    }
    lines = [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    return "{\n" + "\n".join(lines) + '\n "genes": {\n' + ",\n".join(tables) + "\n }\n}\n"


def main(argv: list[str] | None = None) -> int:
    """Write the data files, or with ``--check`` say whether they are up to date (exit 1 if
    not)."""
    parser = argparse.ArgumentParser(description="Write the shipped evolved players' genes.")
    parser.add_argument("--check", action="store_true", help="only check the files are up to date")
    args = parser.parse_args(argv)
    files = {SHIPPED_DATA / f"{name}.json": player_text(name) for name in SHIPPED_PLAYERS}
    strays = sorted(set(SHIPPED_DATA.glob("*.json")) - set(files))
    if args.check:
        stale = [
            path for path, text in files.items() if not path.is_file() or path.read_text() != text
        ]
        for path in stale:
            print(f"{path} is out of date: run python tools/shipped_players.py", file=sys.stderr)
        for path in strays:
            print(
                f"{path} is no shipped player's: run python tools/shipped_players.py",
                file=sys.stderr,
            )
        return 1 if stale or strays else 0
    SHIPPED_DATA.mkdir(parents=True, exist_ok=True)
    for path in strays:
        path.unlink()
    for path, text in files.items():
        path.write_text(text)
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}: {len(text):,} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
