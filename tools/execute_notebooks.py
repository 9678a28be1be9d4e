"""Re-execute the lesson notebooks top to bottom and store their outputs (``make notebooks``).

Each notebook runs in a fresh kernel of this environment. Live widget views are then
dropped from the stored outputs, keeping each widget's static snapshot (HTML and
Markdown): a widget needs a running kernel, so a stored view would show nothing useful in
a rendered book, a PDF, or a notebook that has not been run yet.

The kernels run with ``MONOPOLY_LESSON_PNG=1`` (:data:`monopoly_lesson.plots.PNG_ENV`), so
that ``setup_figures()`` stores each figure with a PNG for print (the PDFs): only here, not
in a student's or instructor's own kernel, where the image exporter's browser would only
hold memory.
"""

from __future__ import annotations

import argparse
import os
import re
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from monopoly_lesson.plots import PNG_ENV

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PROGRESS = re.compile(r"\d+%\|.*\| *\d+/\d+")
ROOT = Path(__file__).resolve().parents[1]


def keep_static_outputs(notebook: nbformat.NotebookNode) -> None:
    """Drop widget views (and the saved widget state) where a static snapshot exists, and
    progress bars, which are live only (stored, they would show the bar at its start)."""
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        outputs = cell.get("outputs", [])
        outputs[:] = [output for output in outputs if not is_progress_bar(output)]
        for output in outputs:
            data = output.get("data", {})
            if WIDGET_VIEW in data and ("text/html" in data or "text/markdown" in data):
                del data[WIDGET_VIEW]


def is_progress_bar(output: nbformat.NotebookNode) -> bool:
    """Whether an output is a tqdm progress bar widget (its text: ``name:  0%|...| 0/10``)."""
    data = output.get("data", {})
    text = data.get("text/plain", "")
    return WIDGET_VIEW in data and bool(PROGRESS.search(text if isinstance(text, str) else ""))


def kernel_env() -> dict[str, str]:
    """The environment of the kernels that execute notebooks: this one, asking for PNGs."""
    return {**os.environ, PNG_ENV: "1"}


def execute(path: Path) -> float:
    """Execute one notebook in place; return the seconds it took."""
    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=600,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute(env=kernel_env())
    keep_static_outputs(notebook)
    nbformat.write(notebook, path)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Execute the given notebooks, or every notebook in notebooks/."""
    parser = argparse.ArgumentParser(
        prog="tools/execute_notebooks.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("notebooks", nargs="*", help="notebooks (default: notebooks/*.ipynb)")
    paths = parser.parse_args(argv).notebooks
    missing = [path for path in paths if not Path(path).is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    notebooks = [Path(p) for p in paths] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in notebooks:
        print(f"{path.name}: {execute(path):.1f} s", flush=True)


if __name__ == "__main__":
    main()
