"""Write the whole game's money tables: the reference engine's answers, kept in the package.

    python tools/money_tables.py            # writes monopoly_lesson/data/money_tables/tables.npz
    python tools/money_tables.py --check    # exit 1 if that file is not up to date

Every table (:func:`monopoly_lesson.game.money_probes.asked_tables`: rent by stage, sale
prices, interest, ownership patterns, the dealer's bids and swaps) is asked of the
reference engine's own functions, which takes most of a second; the package reads the
stored answers at import instead (:mod:`monopoly_lesson.game.money_tables`). Run it after
changing a money rule; the test suite fails while the file is out of step. The file is
written the same, byte for byte, from the same answers (its members' dates are fixed).
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from monopoly_lesson.game.money_probes import (  # noqa: E402
    STORED,
    WRITE_THEM,
    asked_tables,
    differences,
)

MEMBER_DATE = (1980, 1, 1, 0, 0, 0)
"""Each member's date in the file: fixed, so that the same tables write the same bytes."""


def npz_bytes(tables: dict[str, np.ndarray]) -> bytes:
    """``tables`` as numpy's ``.npz`` (a zip of one ``.npy`` per table, compressed), as
    :func:`numpy.load` reads it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, table in tables.items():
            array = io.BytesIO()
            np.lib.format.write_array(array, np.ascontiguousarray(table), allow_pickle=False)
            member = zipfile.ZipInfo(f"{name}.npy", date_time=MEMBER_DATE)
            archive.writestr(member, array.getvalue(), compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    """Write the tables, or with ``--check`` say whether the stored ones are the reference
    engine's answers (exit 1 if not)."""
    parser = argparse.ArgumentParser(description="Write the whole game's money tables.")
    parser.add_argument("--check", action="store_true", help="only check the file is up to date")
    args = parser.parse_args(argv)
    asked = asked_tables()
    where = STORED.relative_to(ROOT)
    if args.check:
        if not STORED.is_file():
            print(f"{where} is missing: run {WRITE_THEM}", file=sys.stderr)
            return 1
        with np.load(STORED) as kept:
            found = differences({name: kept[name] for name in kept.files}, asked)
        for line in found:
            print(f"{where}: {line}", file=sys.stderr)
        if found:
            print(f"{where} is out of date: run {WRITE_THEM}", file=sys.stderr)
        return 1 if found else 0
    STORED.parent.mkdir(parents=True, exist_ok=True)
    STORED.write_bytes(npz_bytes(asked))
    sizes = ", ".join(f"{name} {table.shape}" for name, table in asked.items())
    print(f"{where}: {len(asked)} tables ({sizes})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
