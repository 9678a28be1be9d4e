"""What a checked notebook's own kernel may not read: the answer key and stored solutions.

The notebook's kernel runs the student's cells with the package a student has, but in the
grader's environment, which also holds the exercises' answer key
(``monopoly_lesson/checker/answer_key.py``) and, in a repository, the instructor's
``notebooks/`` (every solution). Before the kernel starts, Python runs a ``sitecustomize``
written by :func:`write_hook` into a folder put first on the kernel's ``PYTHONPATH``: it adds
an audit hook, which no code can remove, that refuses to open or list those files, naming
them. The refusal reaches the report as the failed cell's error (:data:`MARKER`), and the
check says the notebook is not the student's own work. Bubblewrap's sandbox, where there is
one, hides the solutions as well (see :mod:`monopoly_lesson.checker.isolation`).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["MARKER", "hidden_paths", "write_hook"]

PACKAGE = Path(__file__).resolve().parent.parent
MARKER = "is not available to a notebook being checked"
"""The words of every refusal, as the failed cell's error shows them."""

HOOK = '''"""The lesson's checker: the answer key and the stored solutions are withheld."""
import os
import sys

_FILES = {files!r}
_FOLDERS = {folders!r}


def _withheld(path):
    try:
        real = os.path.realpath(os.fsdecode(path))
    except (TypeError, ValueError):
        return None
    name = os.path.basename(real)
    for folder, stem in _FILES:
        inside = os.path.dirname(real) in (folder, os.path.join(folder, "__pycache__"))
        if inside and name.startswith(stem + "."):
            return "the answer key (" + os.path.join(folder, stem) + ".py)"
    for folder in _FOLDERS:
        if real == folder or real.startswith(folder + os.sep):
            return "the stored solutions (" + folder + ")"
    return None


def _hook(event, args):
    if event in ("open", "os.listdir", "os.scandir") and args:
        what = _withheld(args[0]) if isinstance(args[0], (str, bytes, os.PathLike)) else None
        if what:
            raise PermissionError(what + " {marker}")


sys.addaudithook(_hook)
'''


def hidden_paths() -> tuple[list[tuple[str, str]], list[str]]:
    """The files (folder, module name) and folders a checked notebook may not read: the
    answer key, and the repository's notebooks/ if the package sits in one."""
    files = [(str(PACKAGE / "checker"), "answer_key")]
    notebooks = PACKAGE.parent / "notebooks"
    folders = [str(notebooks.resolve())] if (PACKAGE.parent / "pyproject.toml").is_file() else []
    return files, folders


def write_hook(folder: Path) -> Path:
    """Write the kernel's ``sitecustomize.py`` into ``folder`` (put first on its path)."""
    files, folders = hidden_paths()
    path = folder / "sitecustomize.py"
    path.write_text(HOOK.format(files=files, folders=folders, marker=MARKER))
    return path
