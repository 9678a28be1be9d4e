"""How a notebook's kernel knows that the grader's check is running it.

``python -m monopoly_lesson check`` starts the submission's kernel with the environment
variable :data:`CHECKED_ENV` set to ``"1"``. Code that would only slow a check down without
changing its grade reads it: :func:`~monopoly_lesson.plots.setup_figures` then draws no PNG
images (starting the image exporter's browser takes many seconds), only the interactive
figures. Nothing the grade depends on reads it: the checker plays its own games.
"""

from __future__ import annotations

import os

__all__ = ["CHECKED_ENV", "is_checked"]

CHECKED_ENV = "MONOPOLY_LESSON_CHECKED"
"""The environment variable the check sets (to ``"1"``) in the kernel it runs a notebook in."""


def is_checked() -> bool:
    """Whether this process is a kernel run by the grader's check (:data:`CHECKED_ENV` set)."""
    return os.environ.get(CHECKED_ENV, "") not in ("", "0")
