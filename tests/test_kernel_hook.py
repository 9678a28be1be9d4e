"""A checked notebook's own kernel cannot read the answer key or the stored solutions.

The check starts the kernel with a ``sitecustomize`` that adds an audit hook (which no code
can remove) refusing them; a notebook that tries is not the student's own work, with or
without bubblewrap's sandbox.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from handed_out_notebooks import answered, write

from monopoly_lesson.checker.kernel_hook import MARKER, PACKAGE, write_hook

ROOT = Path(__file__).resolve().parents[1]
KEY = PACKAGE / "checker" / "answer_key.py"
TRY = """
import importlib, os, sys
for attempt in sys.argv[1:]:
    try:
        eval(attempt)
        print("read", attempt)
    except PermissionError as error:
        print("refused", attempt, "|", error)
"""


def test_the_hook_refuses_the_key_and_the_solutions_by_any_route_and_nothing_else(tmp_path):
    write_hook(tmp_path)
    attempts = [
        f"open({str(KEY)!r}).read()",
        f"os.open({str(KEY)!r}, os.O_RDONLY)",
        "importlib.import_module('monopoly_lesson.checker.answer_key')",
        f"os.listdir({str(ROOT / 'notebooks')!r})",
        f"open({str(ROOT / 'notebooks' / '05_jail.ipynb')!r}).read()",
        f"open({str(ROOT / 'notebooks' / '..' / 'notebooks' / 'rules.md')!r}).read()",
        f"open({str(PACKAGE / 'rules.py')!r}).read()",
        "importlib.import_module('monopoly_lesson.checker.exercise_answers')",
    ]
    done = subprocess.run(
        [sys.executable, "-c", TRY, *attempts],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        cwd=tmp_path,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["refused"] * 6 + ["read"] * 2, done.stdout
    assert all(MARKER in line for line in lines[:6])


@pytest.mark.parametrize(
    "cheat",
    [
        "from monopoly_lesson.checker.answer_key import boardwalk_hotel as key, hotel_payback\n"
        "boardwalk_hotel, hotel_payback = key(), hotel_payback()\n",
        "import json\n"
        f"book = json.load(open({str(ROOT / 'notebooks' / '10_property_values.ipynb')!r}))\n"
        "boardwalk_hotel, hotel_payback = 57.97, 18.2\n",
    ],
    ids=["answer key", "stored solution"],
)
@pytest.mark.parametrize("sandbox", [True, False], ids=["sandboxed", "not sandboxed"])
def test_a_notebook_that_reads_them_is_not_the_students_own_work(tmp_path, cheat, sandbox):
    book, at = answered(10, cheat, replace=("57f0b368",))
    path = write(book, tmp_path, "10_property_values.ipynb")
    environment = {**os.environ} if sandbox else {**os.environ, "MONOPOLY_LESSON_BWRAP": "/nothing"}
    done = subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "check", str(path), "--timeout", "120"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith(
        "Not the student's own work: the notebook tries to read what a checked notebook may "
        f"not (cell {at}: PermissionError: the "
    ), first
    assert MARKER in first and "All checks pass" not in done.stdout
