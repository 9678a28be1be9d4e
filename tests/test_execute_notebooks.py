"""``make notebooks`` keeps what a static page can show: widget snapshots, not live views or
progress bars."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from execute_notebooks import WIDGET_VIEW, keep_static_outputs


def output(data):
    return nbformat.v4.new_output("display_data", data=data)


def test_progress_bars_go_and_widgets_keep_their_snapshots():
    bar = output({WIDGET_VIEW: {"model_id": "1"}, "text/plain": "evolving rga:   0%|  | 0/10"})
    widget = output({WIDGET_VIEW: {"model_id": "2"}, "text/html": "<b>board</b>"})
    table = output({"text/plain": "a table, 10% | 3/4 done"})  # not a widget: kept
    cell = nbformat.v4.new_code_cell("run()", outputs=[bar, widget, table])
    notebook = nbformat.v4.new_notebook(cells=[cell], metadata={"widgets": {"state": {}}})
    keep_static_outputs(notebook)
    kept = notebook.cells[0].outputs
    assert [list(o.data) for o in kept] == [["text/html"], ["text/plain"]]
    assert "widgets" not in notebook.metadata
