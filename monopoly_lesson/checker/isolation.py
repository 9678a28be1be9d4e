"""Where the system allows it, a check's processes run in a sandbox that shows them only
what they need (Linux, with bubblewrap: ``sudo apt-get install bubblewrap``).

Both of a check's processes, the notebook's kernel and the graded process, are started
through ``bwrap``. In the sandbox the system's folders (``/usr``, ``/etc``, ...), Python, the
lesson's libraries and the package's own folder are read-only; nothing else of the machine
is there: not the grader's home (an empty private one stands in), not the repository's
``notebooks/`` (every solution) or anything else beside the package, not other submissions.
The kernel's working folder, the only place it may write besides a private ``/tmp``, is the
notebook's own folder when that folder is the notebook's alone; a notebook that shares its
folder (a flat folder of submissions, ``notebooks/`` itself) runs in a fresh private folder
that holds a copy of that notebook only, removed after the check. There is no network (the
kernel talks to the checker over unix sockets in a folder of their own), the processes have
their own process numbering, no capabilities and their own session, and they die with the
checker.

Where ``bwrap`` is missing or cannot create namespaces here (tried once per process, with a
trivial command), the check isolates nothing and says so once, on stderr
(:data:`NOT_ISOLATED`).
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

__all__ = [
    "BWRAP_ENV",
    "NOT_ISOLATED",
    "SYSTEM_FOLDERS",
    "Sandbox",
    "bwrap_program",
    "isolation_available",
    "private_folder",
    "sandbox_for",
    "say_not_isolated",
]

BWRAP_ENV = "MONOPOLY_LESSON_BWRAP"
"""The environment variable naming the bubblewrap program to use (default ``bwrap``); a
program that is not there turns isolation off, as on a machine without bubblewrap."""
NOT_ISOLATED = (
    "This check isolates nothing: bubblewrap (bwrap) is missing or cannot create namespaces "
    "here, so the notebook runs as you, can read and write your files and use the network. "
    "To isolate checks: sudo apt-get install bubblewrap"
)
"""What a check says once, on stderr, when it cannot isolate the notebook."""
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""The system's folders, read-only in the sandbox (those that exist; symlinks stay links)."""
PACKAGE = Path(__file__).resolve().parent.parent
SCAN_LIMIT = 2000  # entries looked at in a notebook's folder; a bigger folder is not its own
PROBE_SECONDS = 10
_SANDBOX_OPTIONS = (
    "--unshare-all",  # no network; its own process numbers, IPC, host name
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
)
_told = False


def bwrap_program() -> str:
    """The bubblewrap program: :data:`BWRAP_ENV` if set, else ``bwrap``."""
    return os.environ.get(BWRAP_ENV) or "bwrap"


@functools.cache
def isolation_available() -> bool:
    """Whether bubblewrap runs a trivial command here with the namespaces a check uses
    (asked once per process)."""
    program = shutil.which(bwrap_program())
    if not sys.platform.startswith("linux") or program is None:
        return False
    trial = [program, *_SANDBOX_OPTIONS, "--ro-bind", "/", "/", "--proc", "/proc"]
    try:
        done = subprocess.run(
            [*trial, "--dev", "/dev", "true"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=PROBE_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def say_not_isolated() -> None:
    """Print :data:`NOT_ISOLATED` on stderr, the first time only."""
    global _told
    if not _told:
        _told = True
        print(NOT_ISOLATED, file=sys.stderr, flush=True)


def sandbox_for(notebook: Path) -> Sandbox | None:
    """The sandbox to check ``notebook`` in, or None (said once on stderr) if there is none."""
    if isolation_available():
        return Sandbox(Path(notebook))
    say_not_isolated()
    return None


def private_folder(notebook: Path) -> bool:
    """Whether the notebook's folder is its own: no other notebook in it or below it, not a
    folder that holds the grader's home, the temporary folder, Python or the package, and
    not a big folder (more than :data:`SCAN_LIMIT` entries)."""
    notebook = notebook.resolve()
    folder = notebook.parent
    shared = (Path.home(), Path(tempfile.gettempdir()), Path(sys.prefix), PACKAGE)
    if folder == Path(folder.anchor) or any(_within(place, folder) for place in shared):
        return False
    seen = 0
    for root, folders, files in os.walk(folder):
        seen += len(folders) + len(files)
        others = (name for name in files if name.endswith(".ipynb"))
        if seen > SCAN_LIMIT or any(Path(root, name) != notebook for name in others):
            return False
    return True


def _within(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies inside it."""
    path = path.resolve()
    return path == folder or folder in path.parents


def readable_paths() -> list[str]:
    """What the sandbox shows read-only besides the system's folders: Python (the
    environment's and its base installation), the user's site-packages if any, every other
    site-packages folder on Python's path (one a ``.pth`` file adds), and the package's own
    folder (nothing beside it)."""
    import site
    import sysconfig

    prefixes = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
    found = prefixes + [sysconfig.get_paths()[key] for key in ("stdlib", "purelib", "platlib")]
    found += [site.getusersitepackages(), str(PACKAGE)]
    found += [p for p in sys.path if p and Path(p).name in ("site-packages", "dist-packages")]
    paths = [str(Path(p).absolute()) for p in found] + [os.path.realpath(p) for p in found]
    folders = [Path(p) for p in dict.fromkeys(paths) if Path(p).is_dir() and len(Path(p).parts) > 1]
    return [str(p) for p in folders if not any(q in p.parents for q in folders)]


class Sandbox:
    """The sandbox of one notebook's check; within ``with sandbox:`` its folders exist.

    :attr:`workdir` is the kernel's working folder (the notebook's own, or a fresh one with a
    copy of the notebook, see :func:`private_folder`); :attr:`sockets` the folder of the
    kernel's connection file and unix sockets.
    """

    def __init__(self, notebook: Path) -> None:
        """Nothing is made until the ``with`` block begins."""
        self.notebook = notebook
        self.workdir = notebook.parent.resolve()
        self.sockets = Path()
        self._made: list[str] = []

    def __enter__(self) -> Sandbox:
        self.sockets = Path(tempfile.mkdtemp(prefix="mlk-"))
        self._made.append(str(self.sockets))
        copy_compiled(self.sockets / "compiled")
        if not private_folder(self.notebook):
            fresh = tempfile.mkdtemp(prefix="monopoly-check-")
            self._made.append(fresh)
            shutil.copy(self.notebook, fresh)
            self.workdir = Path(fresh).resolve()
        return self

    def __exit__(
        self, kind: type | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        for folder in self._made:
            shutil.rmtree(folder, ignore_errors=True)

    @property
    def connection_file(self) -> str:
        """Where the kernel's connection file goes (its sockets beside it)."""
        return str(self.sockets / "kernel.json")

    def kernel_command(self) -> list[str]:
        """The start of the kernel's command: bwrap, writing only to its working folder, its
        sockets' folder and a private /tmp."""
        compiled = {"NUMBA_CACHE_DIR": str(self.sockets / "compiled")}
        return sandbox_command([self.workdir, self.sockets], self.workdir, compiled)

    def graded_command(self, folder: Path) -> list[str]:
        """The start of the graded process's command: bwrap, writing only to ``folder``."""
        return sandbox_command([folder], folder)


def copy_compiled(folder: Path) -> None:
    """A private copy of the package's compiled engines (numba's cache files), laid out as
    numba reads a cache folder of its own (``NUMBA_CACHE_DIR``). In the sandbox the package
    is read-only, and numba keeps no cache where it cannot write: without the copy, a
    notebook that plays the fast engines would compile them again in every check (a minute,
    and more memory than a check allows)."""
    for cached in sorted(PACKAGE.rglob("__pycache__/*.nb[ic]")):
        source_folder = cached.parent.parent
        hashed = hashlib.sha1(str(source_folder).encode()).hexdigest()  # numba's own layout
        target = folder / f"{source_folder.name}_{hashed}"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cached, target)


def sandbox_command(
    writable: Sequence[Path], workdir: Path, environment: dict[str, str] | None = None
) -> list[str]:
    """A ``bwrap`` command line (the program's own command goes after it) that shows the
    system, Python and the package read-only, ``writable`` read-write, an empty private
    /tmp and home, and nothing else; it starts in ``workdir``, with ``environment`` set."""
    mounts: list[tuple[int, int, list[str]]] = []  # (depth, order, arguments)

    def mount(order: int, arguments: list[str]) -> None:
        mounts.append((len(Path(arguments[-1]).parts), order, arguments))

    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            mount(0, ["--symlink", os.readlink(folder), folder])
        elif os.path.isdir(folder):
            mount(1, ["--ro-bind", folder, folder])
    home = os.environ.get("HOME", "")
    if os.path.isabs(home) and len(Path(home).parts) > 1:
        mount(0, ["--tmpfs", str(Path(home).absolute())])
    mount(0, ["--tmpfs", "/tmp"])
    for path in readable_paths():
        mount(1, ["--ro-bind", path, path])
    for path in dict.fromkeys(str(Path(p).resolve()) for p in writable):
        mount(2, ["--bind", path, path])
    mounts.sort(key=lambda entry: entry[:2])  # a folder before what is mounted inside it
    command = [shutil.which(bwrap_program()) or bwrap_program(), *_SANDBOX_OPTIONS]
    # the kernel's parent is the sandbox's first process, not the checker: ipykernel must
    # not watch for the checker by its number (it dies with it anyway)
    command += ["--proc", "/proc", "--dev", "/dev"]
    for _, _, arguments in mounts:
        command += arguments
    command += ["--setenv", "TMPDIR", "/tmp", "--unsetenv", "JPY_PARENT_PID"]
    for name, value in (environment or {}).items():
        command += ["--setenv", name, value]
    return [*command, "--chdir", str(Path(workdir).resolve()), "--"]
