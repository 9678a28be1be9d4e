"""``python -m monopoly_lesson``: see :mod:`monopoly_lesson.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
