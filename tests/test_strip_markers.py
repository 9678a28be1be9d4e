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
            {
                "cell_type": "code",
                "source": [
                    "def f():\n",
                    "    ### BEGIN SOLUTION\n",
                    "    return 1\n",
                    "    ### END SOLUTION",
                ],
            },
            {"cell_type": "markdown", "source": "### BEGIN SOLUTION is mentioned here"},
        ]
    }
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        input=json.dumps(notebook),
        capture_output=True,
        text=True,
        check=True,
    )
    cells = json.loads(done.stdout)["cells"]
    assert cells[0]["source"] == "def f():\n    return 1\n"
    assert cells[1]["source"] == "### BEGIN SOLUTION is mentioned here"


def test_the_chapters_carry_markers_that_the_filter_removes():
    chapter = json.loads((ROOT / "notebooks" / "05_jail.ipynb").read_text())
    assert "### BEGIN SOLUTION" in json.dumps(chapter)
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        input=json.dumps(chapter),
        capture_output=True,
        text=True,
        check=True,
    )
    assert "SOLUTION" not in done.stdout


def test_markers_around_a_written_answer_are_removed_and_the_answer_kept():
    answer = "1. Why?\n\n   ### BEGIN SOLUTION\n   **Answer.** Because.\n   ### END SOLUTION\n"
    notebook = {"cells": [{"cell_type": "markdown", "source": answer}]}
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        input=json.dumps(notebook),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["cells"][0]["source"] == "1. Why?\n\n   **Answer.** Because.\n"


def test_quarto_cell_options_are_left_for_quarto():
    source = '#| code-fold: true\n#| code-summary: "Old code"\ndef f():\n    ### BEGIN SOLUTION\n'
    notebook = {
        "cells": [{"cell_type": "code", "source": source + "    return 1\n    ### END SOLUTION"}]
    }
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        input=json.dumps(notebook),
        capture_output=True,
        text=True,
        check=True,
    )
    kept = json.loads(done.stdout)["cells"][0]["source"]
    assert kept == '#| code-fold: true\n#| code-summary: "Old code"\ndef f():\n    return 1\n'
