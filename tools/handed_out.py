"""Write what each chapter hands out, for the check: the student edition's functions and
its locked cells.

    python tools/handed_out.py            # writes monopoly_lesson/data/handed_out/*.json
    python tools/handed_out.py --check    # exit 1 if those files are not up to date

Each chapter in notebooks/ is turned into its student edition (tools/student_edition.py,
as ``make student`` writes it). Every function its code cells define is kept by its
fingerprint (:func:`monopoly_lesson.checker.handed_out.fingerprint`) and name, in
functions.json: the check treats a strategy made of these functions, unchanged, as not
answered. Every cell the edition locks is kept by its id, nbgrader's checksum, its number
and a few words of what it is, in cells.json: the check grades a notebook as the chapter
whose locked cells it holds, and only if they are unchanged. A locked cell must be the same
in notebooks/ as in the edition (so that the stored solutions are recognised too); a
cell that differs is refused here. The functions of the cells tagged ``starter`` (chapter
9's strategy and trade policy to start from) are kept as source, in starters.json, so that
the check can play them and tell a strategy that answers as they do, however it is spelt.
Run it after changing a chapter; the test suite fails while a file is out of step.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

from student_edition import chapter_number, student_edition  # noqa: E402

from monopoly_lesson.checker.handed_out import (  # noqa: E402
    DATA,
    STARTERS,
    cell_functions,
    fingerprint,
)
from monopoly_lesson.checker.handed_out_cells import CELLS, locked_checksum  # noqa: E402

CHECKS = ("check_chapter", "check_scenario")
"""The functions a chapter's check cells call (a cell that asserts is a check too)."""
WHAT_LENGTH = 48
"""The most characters of a cell's first line that name it in a report."""


def edition(path: Path) -> nbformat.NotebookNode:
    """The student edition of the chapter at ``path``, as ``make student`` writes it."""
    return student_edition(nbformat.read(path, as_version=4), chapter_number(path))


def chapter_functions(path: Path) -> dict[str, str]:
    """Each function the student edition of the chapter at ``path`` defines: fingerprint, name."""
    notebook = edition(path)
    found: dict[str, str] = {}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            for function in cell_functions(cell.source):
                found.setdefault(fingerprint(function), function.name)
    return dict(sorted(found.items(), key=lambda item: (item[1], item[0])))


def chapter_starters(path: Path) -> dict[str, str]:
    """The source of each function the student edition's ``starter`` cells define, by name."""
    found: dict[str, str] = {}
    for cell in edition(path).cells:
        if cell.cell_type == "code" and "starter" in cell.metadata.get("tags", []):
            for node in ast.parse(cell.source).body:
                if isinstance(node, ast.FunctionDef):
                    found[node.name] = ast.get_source_segment(cell.source, node) + "\n"
    return found


def is_check(source: str) -> bool:
    """Whether a code cell is one of the chapter's checks: it calls ``check_chapter`` or
    ``check_scenario``, or asserts."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            return True
        called = node.func if isinstance(node, ast.Call) else None
        name = getattr(called, "id", None) or getattr(called, "attr", None)
        if name in CHECKS:
            return True
    return False


def what(source: str) -> str:
    """A few words of what a cell is: its first line that is not a Quarto option or blank."""
    lines = [line.strip() for line in source.splitlines()]
    first = next((line for line in lines if line and not line.startswith("#|")), "(empty)")
    return first if len(first) <= WHAT_LENGTH else first[: WHAT_LENGTH - 3].rstrip() + "..."


def chapter_cells(path: Path) -> dict:
    """The cells the student edition of the chapter at ``path`` locks, each as the check
    knows it; a ``ValueError`` if one of them differs from the cell in notebooks/."""
    stored = {cell.id: cell for cell in nbformat.read(path, as_version=4).cells}
    locked = []
    for number, cell in enumerate(edition(path).cells, 1):
        if not cell.metadata["nbgrader"]["locked"]:
            continue
        original = stored[cell.id]
        if (original.source, original.cell_type) != (cell.source, cell.cell_type):
            raise ValueError(
                f"{path.name}: cell {number} ({cell.id}) is locked in the student edition but "
                "differs from the cell in notebooks/; the stored solution would not be recognised"
            )
        checksum = locked_checksum(cell.source, cell.cell_type, cell.id)
        if checksum != cell.metadata["nbgrader"]["checksum"]:
            raise ValueError(f"{path.name}: cell {number} ({cell.id}): checksums disagree")
        check = cell.cell_type == "code" and is_check(cell.source)
        locked.append(
            {
                "id": cell.id,
                "checksum": checksum,
                "cell_type": cell.cell_type,
                "number": number,
                "what": what(cell.source),
                "check": check,
            }
        )
    return {"file": path.name, "locked": locked}


def chapter_paths(folder: Path) -> dict[str, Path]:
    """Each chapter's notebook, by its number (as text), from its file name."""
    found = {}
    for path in sorted(folder.glob("*.ipynb")):
        number = chapter_number(path)
        if number is not None:
            found[str(number)] = path
    return found


def handed_out_text(folder: Path = ROOT / "notebooks") -> str:
    """functions.json's text: per chapter (numbered by its file name), its functions."""
    chapters = {number: chapter_functions(path) for number, path in chapter_paths(folder).items()}
    return json.dumps(chapters, indent=1) + "\n"


def cells_text(folder: Path = ROOT / "notebooks") -> str:
    """cells.json's text: per chapter (numbered by its file name), its locked cells."""
    chapters = {number: chapter_cells(path) for number, path in chapter_paths(folder).items()}
    return json.dumps(chapters, indent=1) + "\n"


def starters_text(folder: Path = ROOT / "notebooks") -> str:
    """starters.json's text: per chapter that has starter cells, their functions' source."""
    chapters = {number: chapter_starters(path) for number, path in chapter_paths(folder).items()}
    return json.dumps({n: found for n, found in chapters.items() if found}, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the data files, or with ``--check`` say whether they are up to date (exit 1 if
    not)."""
    parser = argparse.ArgumentParser(description="Write what each chapter hands out.")
    parser.add_argument("--check", action="store_true", help="only check the files are up to date")
    args = parser.parse_args(argv)
    try:
        files = {DATA: handed_out_text(), CELLS: cells_text(), STARTERS: starters_text()}
    except ValueError as error:
        print(f"handed_out: {error}", file=sys.stderr)
        return 1
    if args.check:
        stale = [
            path for path, text in files.items() if not path.is_file() or path.read_text() != text
        ]
        for path in stale:
            print(f"{path} is out of date: run python tools/handed_out.py", file=sys.stderr)
        return 1 if stale else 0
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    chapters = json.loads(files[DATA]), json.loads(files[CELLS])
    functions = sum(len(found) for found in chapters[0].values())
    cells = sum(len(found["locked"]) for found in chapters[1].values())
    print(f"{DATA.relative_to(ROOT)}: {functions} function(s)")
    print(f"{CELLS.relative_to(ROOT)}: {cells} locked cell(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
