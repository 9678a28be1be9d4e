"""Drop the ``### BEGIN SOLUTION`` / ``### END SOLUTION`` lines from a notebook.

The markers tell the student-edition tool which code, and which written answers to the
exercises, to replace; readers of the book and the handouts need not see them. A marker
is a line of its own (indented or not) in a code or a Markdown cell; the code or answer
between the markers is kept. Quarto runs this as an ``ipynb-filters`` script (notebook
JSON on stdin, filtered JSON on stdout); ``tools/handouts.py`` imports it.
"""

from __future__ import annotations

import json
import re
import sys

MARKER = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*$\n?", re.MULTILINE)


def strip_markers(notebook: dict) -> dict:
    """The notebook with every solution-marker line removed from its code and Markdown cells."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") in ("code", "markdown"):
            source = cell["source"]
            text = "".join(source) if isinstance(source, list) else source
            cell["source"] = MARKER.sub("", text)
    return notebook


if __name__ == "__main__":
    json.dump(strip_markers(json.load(sys.stdin)), sys.stdout, ensure_ascii=False)
