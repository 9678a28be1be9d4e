"""``python -m monopoly_lesson``: see :mod:`monopoly_lesson.cli`."""

import sys

from .cli import main

sys.exit(main())
