"""Check a student's notebook: run it in its own kernel, then grade its take_turn and results.

A student notebook is untrusted code. It runs in a separate process (a Jupyter kernel
started by a separate Python process) under a time limit, past any cell that fails (the
most common failing submission is a chapter check that fails on a broken rule); the cells
that failed are read from the executed notebook. The checks run in that kernel too, and
only their report comes back, as JSON.
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

__all__ = ["NotebookCheck", "check_notebook", "failed_cells", "grade_namespace"]

GRADE_CELL = """\
import json as _json
from monopoly_lesson.notebook_check import grade_namespace as _grade_namespace
print("MONOPOLY-LESSON-REPORT " + _json.dumps(_grade_namespace(globals())))
"""


@dataclass(frozen=True)
class NotebookCheck:
    """The outcome of checking a notebook: exit status (0, 1 or 2) and the report text.

    ``failed_cells`` lists the cells that raised when the notebook was run, one line each
    (``cell 10: AssertionError: ...``); the notebook is run past them and graded at the end.
    """

    status: int
    report: str
    failed_cells: tuple[str, ...] = ()


def grade_namespace(namespace: dict) -> dict:
    """Grade the ``take_turn`` and the results table found in a notebook's variables."""
    from .grading import check_results, check_take_turn

    fn = namespace.get("take_turn")
    if not callable(fn):
        return {"error": "no take_turn function is defined at the end of the notebook"}
    report = check_take_turn(fn)
    graded = {
        "take_turn": {"passed": report.passed, "text": str(report),
                      "broken": [check.rule for check in report.failures]},
        "results": None,
    }  # fmt: skip
    table = _results_in(namespace)
    if table is not None:
        results = check_results(table)
        missing = results.rows.loc[results.rows["suspicious"], "trend"].tolist()
        graded["results"] = {"passed": results.passed, "text": str(results), "missing": missing}
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


def failed_cells(notebook: dict) -> list[str]:
    """The cells of an executed notebook that raised: ``cell N: Error: first line``.

    Cells are numbered from 1 in notebook order, Markdown cells included.
    """
    found = []
    for number, cell in enumerate(notebook["cells"], start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                first = (str(output.get("evalue", "")).strip().splitlines() or [""])[0]
                summary = f"{output.get('ename', 'Error')}: {first}".rstrip(": ")
                found.append(f"cell {number}: {summary[:200]}")
    return found


def _run(path: Path, cell_timeout: int) -> dict:
    """Execute the notebook past failing cells, then the grading cell (in a child process)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception as error:
        return {"unusable": f"{path} is not a readable notebook ({type(error).__name__})"}
    notebook.cells.append(nbformat.v4.new_code_cell(GRADE_CELL))
    client = NotebookClient(
        notebook, timeout=cell_timeout, kernel_name="python3", allow_errors=True,
        resources={"metadata": {"path": str(path.parent.resolve())}},
    )  # fmt: skip
    try:
        client.execute()
    except CellTimeoutError:
        return {"unusable": f"a cell of {path.name} ran longer than {cell_timeout} s"}
    except (CellExecutionError, DeadKernelError) as error:  # the kernel itself failed
        return {"unusable": f"{path.name} could not be run ({type(error).__name__}: {error})"}
    failed = failed_cells({"cells": notebook.cells[:-1]})
    for output in notebook.cells[-1].outputs:
        for line in output.get("text", "").splitlines():
            if line.startswith("MONOPOLY-LESSON-REPORT "):
                return {**json.loads(line.split(" ", 1)[1]), "failed_cells": failed}
    why = failed_cells({"cells": notebook.cells[-1:]})
    reason = f" ({why[0].split(': ', 1)[1]})" if why else ""
    return {"unusable": f"the checks produced no report{reason}", "failed_cells": failed}


def check_notebook(path: str | Path, timeout: int = 600) -> NotebookCheck:
    """Run and grade a student's notebook in a separate process, within ``timeout`` seconds.

    Cells that raise are listed and the notebook is run past them. Status 0: every rule
    and trend check passes; 1: a rule (or a near-certain trend) fails; 2: the notebook
    cannot be graded (missing, not a notebook, no take_turn at the end, or runs too long),
    and the report is one line that says why.
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
    return _verdict(path, graded)


def _verdict(path: Path, graded: dict) -> NotebookCheck:
    """The status and report of a graded notebook (its cells' failures listed first)."""
    failed = tuple(graded.get("failed_cells", ()))
    if "unusable" in graded or "error" in graded:
        reason = graded.get("unusable") or graded["error"]
        cells = f" (cells that failed: {'; '.join(failed)})" if failed else ""
        return NotebookCheck(2, f"{path.name} cannot be graded: {reason}{cells}", failed)
    take_turn, results = graded["take_turn"], graded["results"]
    summary = []
    if not take_turn["passed"]:
        summary.append("Broken rules: " + "; ".join(take_turn.get("broken", ["see below"])))
    if results is not None and not results["passed"]:
        summary.append("Trends missing that correct runs nearly always show: "
                       + "; ".join(results.get("missing", ["see below"])))  # fmt: skip
    passed = not summary
    if passed:
        summary.append("All rules pass.")
    if failed:
        summary.append("Cells that failed (the notebook was run past them and graded at the end):")
        summary += [f"  {cell}" for cell in failed]
    texts = ["\n".join(summary), take_turn["text"]]
    if results is None:
        texts.append("results: no results table found in the notebook (not checked)")
    else:
        texts.append(results["text"])
    return NotebookCheck(0 if passed else 1, "\n\n".join(texts), failed)


if __name__ == "__main__":
    print(json.dumps(_run(Path(sys.argv[1]), int(sys.argv[2]))))
