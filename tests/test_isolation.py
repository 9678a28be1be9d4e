"""A checked notebook runs in a sandbox (bubblewrap) that shows it only what it needs.

Submissions built here try to write outside their folder, read another student's
submission or the repository's notebooks (every solution), and reach a server on this
machine; each check reports what its cells saw, as the failed cells' first lines. The tests
that need bubblewrap are skipped where it is missing; the last ones check what a check says
when it cannot isolate (a bubblewrap that is not there, named by MONOPOLY_LESSON_BWRAP).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import nbformat
import pytest
from handed_out_notebooks import edition
from test_check_submissions import tool

from monopoly_lesson.checker import isolation
from monopoly_lesson.checker.isolation import BWRAP_ENV, NOT_ISOLATED, isolation_available

ROOT = Path(__file__).resolve().parents[1]
SOLUTION = ROOT / "notebooks" / "05_jail.ipynb"
MISSING_BWRAP = "/nonexistent/bwrap"
SECRET = "bob's answer 4711"
needs_bwrap = pytest.mark.skipif(
    not isolation_available(),
    reason="bubblewrap (bwrap) is missing or cannot create namespaces here "
    "(sudo apt-get install bubblewrap)",
)


def probe(name: str, expression: str) -> str:
    """A cell that evaluates ``expression`` and fails with what it saw (or what refused it),
    so that the check's report lists it: ``cell N: RuntimeError: NAME: ...``."""
    return (
        "import os, socket\n"
        "try:\n"
        f"    seen = {expression}\n"
        "except Exception as error:\n"
        "    seen = 'refused ' + type(error).__name__\n"
        f"raise RuntimeError({name!r} + ': ' + repr(seen)[:150])\n"
    )


def write_notebook(path: Path, *sources: str) -> Path:
    """Chapter 0 as handed out, with the probe cells ``sources`` after its own."""
    book = edition(0)
    book.cells += [nbformat.v4.new_code_cell(source) for source in sources]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(book, path)
    return path


def check(path: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "check", str(path), "--timeout", "240"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def saw(done: subprocess.CompletedProcess, name: str) -> str:
    """What the probe cell ``name`` saw, from the check's list of failed cells."""
    for line in done.stdout.splitlines():
        if f"RuntimeError: {name}: " in line:
            return line.split(f"RuntimeError: {name}: ", 1)[1]
    raise AssertionError(f"no probe {name!r} in the report:\n{done.stdout}\n{done.stderr}")


class Server:
    """A TCP server on 127.0.0.1 in this process that counts the connections it accepts."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self.socket.accept()
            except OSError:  # timed out: look at the stop flag again
                continue
            self.accepted += 1
            connection.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.socket.close()


@pytest.fixture(scope="module")
def one_folder_each(tmp_path_factory):
    """A submission in its own folder, another student's beside it, a folder of the
    grader's, a server on this machine; the check's result and those places."""
    base = tmp_path_factory.mktemp("grading")
    submissions, grader = base / "submissions", base / "grader"
    grader.mkdir()
    write_notebook(submissions / "bob" / "other.ipynb", f"answer = {SECRET!r}")
    server = Server()
    try:
        probes = [
            probe("write grader", f"open({str(grader / 'escaped.txt')!r}, 'w').write('x')"),
            probe("write bob", f"open({str(submissions / 'bob' / 'mine.txt')!r}, 'w').write('x')"),
            probe("write own", "open('own.txt', 'w').write('x')"),
            probe("list submissions", f"sorted(os.listdir({str(submissions)!r}))"),
            probe("read bob", f"open({str(submissions / 'bob' / 'other.ipynb')!r}).read()"),
            # os.stat: a route the kernel's own hook (kernel_hook) does not watch, so that
            # what hides the notebooks here is the sandbox
            probe("list notebooks", f"os.stat({str(ROOT / 'notebooks')!r}).st_size"),
            probe("read solution", f"os.stat({str(SOLUTION)!r}).st_size"),
            probe("list repository", f"sorted(os.listdir({str(ROOT)!r}))"),
            probe("tcp", f"socket.create_connection(('127.0.0.1', {server.port}), timeout=5)"),
        ]
        path = write_notebook(submissions / "alice" / "alice.ipynb", *probes)
        done = check(path)
    finally:
        server.close()
    return done, submissions, grader, server


@needs_bwrap
def test_a_notebook_writes_only_in_its_own_folder(one_folder_each):
    done, submissions, grader, _ = one_folder_each
    assert not (grader / "escaped.txt").exists(), saw(done, "write grader")
    assert not (submissions / "bob" / "mine.txt").exists(), saw(done, "write bob")
    assert (submissions / "alice" / "own.txt").read_text() == "x", saw(done, "write own")


@needs_bwrap
def test_a_notebook_cannot_list_or_read_another_submission(one_folder_each):
    done, *_ = one_folder_each
    assert saw(done, "list submissions") == "['alice']"
    assert saw(done, "read bob") == "'refused FileNotFoundError'"
    assert SECRET not in done.stdout + done.stderr


@needs_bwrap
def test_a_notebook_cannot_list_or_read_the_repositorys_notebooks(one_folder_each):
    done, *_ = one_folder_each
    assert saw(done, "list notebooks") == "'refused FileNotFoundError'"
    assert saw(done, "read solution") == "'refused FileNotFoundError'"
    # the package and the environment it is installed in (where that lies in the repository)
    shown = {str(p.name) for p in (ROOT / "monopoly_lesson", Path(sys.prefix)) if ROOT in p.parents}
    assert saw(done, "list repository") == repr(sorted(shown))


@needs_bwrap
def test_a_notebook_cannot_reach_a_server_on_this_machine(one_folder_each):
    done, *_, server = one_folder_each
    assert saw(done, "tcp").startswith("'refused "), saw(done, "tcp")
    assert server.accepted == 0


@needs_bwrap
def test_a_notebook_sharing_its_folder_runs_in_a_folder_of_its_own(tmp_path):
    """A flat folder of submissions: the kernel's folder holds a copy of its notebook only."""
    write_notebook(tmp_path / "bob.ipynb", f"answer = {SECRET!r}")
    path = write_notebook(
        tmp_path / "alice.ipynb",
        probe("list here", "sorted(os.listdir('.'))"),
        probe("list folder", f"sorted(os.listdir({str(tmp_path)!r}))"),
        probe("write here", "open('own.txt', 'w').write('x')"),
    )
    done = check(path)
    assert saw(done, "list here") == "['alice.ipynb']"
    assert saw(done, "list folder") == "'refused FileNotFoundError'"
    assert saw(done, "write here") == "1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice.ipynb", "bob.ipynb"]
    assert SECRET not in done.stdout + done.stderr


@needs_bwrap
def test_the_stored_solution_passes_in_the_sandbox_beside_another_students(tmp_path):
    """notebooks/05_jail.ipynb, in a flat folder beside another student's notebook, with a
    last cell that fails if it can see that notebook."""
    book = nbformat.read(SOLUTION, as_version=4)
    book.cells.append(
        nbformat.v4.new_code_cell("import os\nassert os.listdir('.') == ['05.ipynb']")
    )
    nbformat.write(book, tmp_path / "05.ipynb")
    shutil.copy(SOLUTION, tmp_path / "bob_05.ipynb")
    done = check(tmp_path / "05.ipynb")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("All rules pass.\n")
    assert "cells: every cell ran" in done.stdout
    assert NOT_ISOLATED not in done.stderr


def test_a_check_that_cannot_isolate_says_so_once_and_runs_as_before(tmp_path):
    write_notebook(tmp_path / "bob.ipynb", "answer = 1")
    path = write_notebook(tmp_path / "alice.ipynb", probe("list here", "sorted(os.listdir('.'))"))
    done = check(path, env={BWRAP_ENV: MISSING_BWRAP})
    assert done.stderr.count(NOT_ISOLATED) == 1, done.stderr
    assert "sudo apt-get install bubblewrap" in NOT_ISOLATED
    assert saw(done, "list here") == "['alice.ipynb', 'bob.ipynb']"


def test_a_missing_bubblewrap_is_no_isolation(monkeypatch):
    monkeypatch.setenv(BWRAP_ENV, MISSING_BWRAP)
    isolation_available.cache_clear()
    try:
        assert not isolation_available()
        assert isolation.sandbox_for(Path("x.ipynb")) is None
    finally:
        isolation_available.cache_clear()


def test_a_folder_of_submissions_says_once_that_it_cannot_isolate(tmp_path, monkeypatch, capsys):
    """check_submissions.py says it once for the folder, not once per submission."""
    fake = tmp_path / "fake_check.py"
    fake.write_text(
        f"import sys\nprint({NOT_ISOLATED!r}, file=sys.stderr)\nprint('All checks pass.')\n"
    )
    for name in ("alice", "bob"):
        (tmp_path / "in" / name).mkdir(parents=True)
        (tmp_path / "in" / name / "05.ipynb").write_text("{}")
    monkeypatch.setenv(BWRAP_ENV, MISSING_BWRAP)
    monkeypatch.setattr(isolation, "_told", False)
    isolation_available.cache_clear()
    try:
        status = tool.main([str(tmp_path / "in"), "--verbose"], [sys.executable, str(fake)])
    finally:
        isolation_available.cache_clear()
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert (out + err).count(NOT_ISOLATED) == 1 and NOT_ISOLATED in err


def test_the_compiled_engines_are_copied_where_numba_looks_for_its_cache(tmp_path):
    """In the sandbox the package is read-only, so numba would compile the fast engines
    again in every check: a private copy of its cache files is laid out as numba reads a
    NUMBA_CACHE_DIR."""
    from numba.core.caching import _CacheLocator

    isolation.copy_compiled(tmp_path)
    source = isolation.PACKAGE / "game" / "fast_loop.py"
    folder = tmp_path / _CacheLocator.get_suitable_cache_subpath(str(source))
    cached = sorted(p.name for p in source.parent.glob("__pycache__/fast_loop.*.nb[ic]"))
    if not cached:
        pytest.skip("the fast engines are not compiled here (python -m monopoly_lesson compile)")
    assert sorted(p.name for p in folder.glob("fast_loop.*")) == cached
