"""``make notebooks`` keeps what a static page can show: widget snapshots, not live views or
progress bars."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from monopoly_lesson.plots import PNG_ENV

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from execute_notebooks import WIDGET_VIEW, execute, keep_static_outputs


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


def test_the_kernels_that_store_notebooks_are_asked_for_pngs(tmp_path, monkeypatch):
    """``make notebooks`` hands PNG_ENV=1 to its kernel (so stored figures keep a PNG for
    print), though the process that runs it has not set it: a real kernel reports it."""
    monkeypatch.delenv(PNG_ENV, raising=False)
    cell = nbformat.v4.new_code_cell(
        "import os\nfrom monopoly_lesson.plots import png_requested\n"
        f"print(os.environ.get({PNG_ENV!r}), png_requested())"
    )
    path = tmp_path / "tiny.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    execute(path)
    (printed,) = nbformat.read(path, as_version=4).cells[0].outputs
    assert printed.text == "1 True\n"


def test_help_and_a_missing_notebook_are_answered_without_a_traceback(capsys):
    import execute_notebooks

    for argv, status in ((["--help"], 0), (["nothing.ipynb"], 2)):
        try:
            execute_notebooks.main(argv)
        except SystemExit as stop:
            assert stop.code == status
        else:
            raise AssertionError(f"{argv} ran notebooks")
    out, err = capsys.readouterr()
    assert "usage: tools/execute_notebooks.py" in out and "Traceback" not in out + err
    refused = "tools/execute_notebooks.py: error: no such notebook: nothing.ipynb"
    assert err.splitlines()[-1] == refused
