"""Write what each chapter hands out, for the check: the student edition's functions.

    python tools/handed_out.py            # writes monopoly_lesson/data/handed_out/*.json
    python tools/handed_out.py --check    # exit 1 if those files are not up to date

Each chapter in notebooks/ is turned into its student edition (tools/student_edition.py,
as ``make student`` writes it), and every function its code cells define is kept by its
fingerprint (:func:`monopoly_lesson.checker.handed_out.fingerprint`) and name. The check
treats a strategy made of these functions, unchanged, as not answered. The functions of the
cells tagged ``starter`` (chapter 9's strategy and trade policy to start from) are kept as
source too (``starters.json``), so that the check can play them and tell a strategy that
answers as they do, however it is spelt. Run it after
changing the code a chapter hands out; the test suite fails while the file is out of step.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

from student_edition import student_edition  # noqa: E402

from monopoly_lesson.checker.handed_out import (  # noqa: E402
    DATA,
    STARTERS,
    cell_functions,
    fingerprint,
)


def chapter_functions(path: Path) -> dict[str, str]:
    """Each function the student edition of the chapter at ``path`` defines: fingerprint, name."""
    notebook = student_edition(nbformat.read(path, as_version=4))
    found: dict[str, str] = {}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            for function in cell_functions(cell.source):
                found.setdefault(fingerprint(function), function.name)
    return dict(sorted(found.items(), key=lambda item: (item[1], item[0])))


def chapter_starters(path: Path) -> dict[str, str]:
    """The source of each function the student edition's ``starter`` cells define, by name."""
    notebook = student_edition(nbformat.read(path, as_version=4))
    found: dict[str, str] = {}
    for cell in notebook.cells:
        if cell.cell_type == "code" and "starter" in cell.metadata.get("tags", []):
            tree = ast.parse(cell.source)
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    found[node.name] = ast.get_source_segment(cell.source, node) + "\n"
    return found


def starters_text(folder: Path = ROOT / "notebooks") -> str:
    """The starters file's text: per chapter that has starter cells, their functions."""
    chapters = {}
    for path in sorted(folder.glob("*.ipynb")):
        number = re.match(r"(\d+)_", path.name)
        starters = chapter_starters(path) if number else {}
        if starters:
            chapters[str(int(number.group(1)))] = starters
    return json.dumps(chapters, indent=1) + "\n"


def handed_out_text(folder: Path = ROOT / "notebooks") -> str:
    """The data file's text: per chapter (numbered by its file name), its functions."""
    chapters = {}
    for path in sorted(folder.glob("*.ipynb")):
        number = re.match(r"(\d+)_", path.name)
        if number:
            chapters[str(int(number.group(1)))] = chapter_functions(path)
    return json.dumps(chapters, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the data file, or with ``--check`` say whether it is up to date (exit 1 if not)."""
    parser = argparse.ArgumentParser(description="Write the functions each chapter hands out.")
    parser.add_argument("--check", action="store_true", help="only check the file is up to date")
    args = parser.parse_args(argv)
    text = handed_out_text()
    files = {DATA: text, STARTERS: starters_text()}
    if args.check:
        stale = [path for path, wanted in files.items() if _read(path) != wanted]
        for path in stale:
            print(f"{path} is out of date: run python tools/handed_out.py", file=sys.stderr)
        return 1 if stale else 0
    DATA.parent.mkdir(parents=True, exist_ok=True)
    for path, wanted in files.items():
        path.write_text(wanted)
    print(
        f"{DATA.relative_to(ROOT)}: {sum(len(json.loads(text)[c]) for c in json.loads(text))} "
        "function(s)"
    )
    return 0


def _read(path: Path) -> str:
    return path.read_text() if path.is_file() else ""


if __name__ == "__main__":
    sys.exit(main())
