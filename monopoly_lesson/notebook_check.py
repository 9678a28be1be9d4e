"""Check a student's notebook: run it in its own kernel, then grade its take_turn and results.

A student notebook is untrusted code. It runs in a separate process (a Jupyter kernel
started by a separate Python process) under a time limit; the checks run in that kernel
too, and only their report comes back, as JSON.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

__all__ = ["NotebookCheck", "check_notebook", "grade_namespace"]

GRADE_CELL = """\
import json as _json
from monopoly_lesson.notebook_check import grade_namespace as _grade_namespace
print("MONOPOLY-LESSON-REPORT " + _json.dumps(_grade_namespace(globals())))
"""


@dataclass(frozen=True)
class NotebookCheck:
    """The outcome of checking a notebook: exit status (0, 1 or 2) and the report text."""

    status: int
    report: str


def grade_namespace(namespace: dict) -> dict:
    """Grade the ``take_turn`` and the results table found in a notebook's variables."""
    from .grading import check_results, check_take_turn

    fn = namespace.get("take_turn")
    if not callable(fn):
        return {"error": "no take_turn function was found in the notebook"}
    report = check_take_turn(fn)
    graded = {"take_turn": {"passed": report.passed, "text": str(report)}, "results": None}
    table = _results_in(namespace)
    if table is not None:
        results = check_results(table)
        graded["results"] = {"passed": results.passed, "text": str(results)}
    return graded


def _results_in(namespace: dict) -> pd.DataFrame | pd.Series | None:
    """The notebook's results: the variable ``result`` (or ``results``, ``table``) if it
    holds them, else the first simulation result or 40-row table with tallies."""
    named = [namespace.get(name) for name in ("result", "results", "table")]
    for value in [*named, *namespace.values()]:
        if hasattr(value, "counts") and callable(getattr(value, "table", None)):
            return value.counts
        if _is_results_table(value):
            return value
    return None


def _is_results_table(value: object) -> bool:
    columns = getattr(value, "columns", ())
    return (
        isinstance(value, pd.DataFrame) and {"space", "tally"} <= set(columns) and len(value) == 40
    )


def _run(path: Path, cell_timeout: int) -> dict:
    """Execute the notebook and the grading cell in one kernel (called in a child process)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception as error:
        return {"unusable": f"{path} is not a readable notebook ({type(error).__name__})"}
    notebook.cells.append(nbformat.v4.new_code_cell(GRADE_CELL))
    client = NotebookClient(
        notebook, timeout=cell_timeout, kernel_name="python3", allow_errors=False,
        resources={"metadata": {"path": str(path.parent.resolve())}},
    )  # fmt: skip
    try:
        client.execute()
    except CellTimeoutError:
        return {"unusable": f"a cell of {path.name} ran longer than {cell_timeout} s"}
    except CellExecutionError as error:
        name = getattr(error, "ename", "an error")
        return {"unusable": f"{path.name} raises {name} when run: {getattr(error, 'evalue', '')}"}
    for output in notebook.cells[-1].outputs:
        for line in output.get("text", "").splitlines():
            if line.startswith("MONOPOLY-LESSON-REPORT "):
                return json.loads(line.split(" ", 1)[1])
    return {"unusable": "the checks produced no report"}


def check_notebook(path: str | Path, timeout: int = 600) -> NotebookCheck:
    """Run and grade a student's notebook in a separate process, within ``timeout`` seconds.

    Status 0: every rule and trend check passes; 1: a rule (or a near-certain trend)
    fails; 2: the notebook is unusable (missing, not a notebook, no take_turn, raises,
    or runs too long).
    """
    path = Path(path)
    if not path.is_file():
        return NotebookCheck(2, f"{path}: no such file")
    if path.suffix != ".ipynb":
        return NotebookCheck(2, f"{path}: not a notebook (expected a .ipynb file)")
    command = [sys.executable, "-m", "monopoly_lesson.notebook_check", str(path), str(timeout)]
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,  # its own process group, so a time-out stops the kernel too
    )  # fmt: skip
    try:
        out, _ = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        return NotebookCheck(2, f"{path.name} ran longer than the time limit of {timeout} s")
    try:
        graded = json.loads(out.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return NotebookCheck(2, f"{path.name} could not be run (the checker got no report)")
    if "unusable" in graded or "error" in graded:
        return NotebookCheck(2, graded.get("unusable") or graded["error"])
    texts = [graded["take_turn"]["text"]]
    passed = graded["take_turn"]["passed"]
    if graded["results"] is None:
        texts.append("results: no results table found in the notebook (not checked)")
    else:
        texts.append(graded["results"]["text"])
        passed = passed and graded["results"]["passed"]
    return NotebookCheck(0 if passed else 1, "\n\n".join(texts))


if __name__ == "__main__":
    print(json.dumps(_run(Path(sys.argv[1]), int(sys.argv[2]))))
