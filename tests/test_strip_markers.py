"""The filter that hides solution markers from the book and the handouts."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tools" / "strip_solution_markers.py"


def test_markers_are_removed_and_code_kept():
    notebook = {
        "cells": [
            {"cell_type": "code", "source": ["def f():\n", "    ### BEGIN SOLUTION\n",
                                             "    return 1\n", "    ### END SOLUTION"]},
            {"cell_type": "markdown", "source": "### BEGIN SOLUTION is mentioned here"},
        ]
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], input=json.dumps(notebook), capture_output=True,
        text=True, check=True,
    )  # fmt: skip
    cells = json.loads(done.stdout)["cells"]
    assert cells[0]["source"] == "def f():\n    return 1\n"
    assert cells[1]["source"] == "### BEGIN SOLUTION is mentioned here"


def test_the_chapters_carry_markers_that_the_filter_removes():
    chapter = json.loads((ROOT / "notebooks" / "05_jail.ipynb").read_text())
    assert "### BEGIN SOLUTION" in json.dumps(chapter)
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], input=json.dumps(chapter), capture_output=True,
        text=True, check=True,
    )  # fmt: skip
    assert "SOLUTION" not in done.stdout
