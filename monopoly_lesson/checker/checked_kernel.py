"""How a notebook's kernel knows that the grader's check is running it, and keeps it quick.

``python -m monopoly_lesson check`` starts the submission's kernel with the environment
variable :data:`CHECKED_ENV` set to ``"1"``. Code that would only slow a check down without
changing its grade reads it: :func:`~monopoly_lesson.plots.setup_figures` then draws no PNG
images (starting the image exporter's browser takes many seconds), only the interactive
figures, and imports plotly's renderers with :func:`import_quickly`. Nothing the grade
depends on reads it: the checker plays its own games.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

__all__ = ["CHECKED_ENV", "SLOW_OPTIONAL", "import_quickly", "is_checked"]

CHECKED_ENV = "MONOPOLY_LESSON_CHECKED"
"""The environment variable the check sets (to ``"1"``) in the kernel it runs a notebook in."""
SLOW_OPTIONAL = "rfc3987_syntax"
"""An optional checker of IRI strings that jsonschema loads when it is installed (Jupyter
installs it); it builds its grammar when imported, which takes seconds. nbformat imports
jsonschema, and plotly's renderers import nbformat."""


def is_checked() -> bool:
    """Whether this process is a kernel run by the grader's check (:data:`CHECKED_ENV` set)."""
    return os.environ.get(CHECKED_ENV, "") not in ("", "0")


def import_quickly(name: str) -> ModuleType:
    """Import module ``name`` without :data:`SLOW_OPTIONAL` (jsonschema then checks no IRI
    strings, which neither notebooks nor figures have). Once jsonschema is imported, or the
    slow module is, this is a plain import; the slow module stays importable afterwards."""
    skip = SLOW_OPTIONAL not in sys.modules and "jsonschema" not in sys.modules
    if skip:
        sys.modules[SLOW_OPTIONAL] = None  # type: ignore[assignment]  # import raises ImportError
    try:
        return importlib.import_module(name)
    finally:
        if skip:
            del sys.modules[SLOW_OPTIONAL]
