"""The plotly figures: what they show, their labels, and the renderer choice."""

import base64
import shutil
import struct
import time

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from monopoly_lesson import simulate
from monopoly_lesson.plots import (
    COLORSCALE,
    PNG_ENV,
    PNG_WIDTH,
    LessonRenderer,
    bar_chart,
    board_map,
    board_position,
    png_requested,
    rounded,
    setup_figures,
)

NEEDS_CHROMIUM = pytest.mark.skipif(
    not shutil.which("chromium"), reason="needs Chromium: sudo apt-get install chromium"
)


@pytest.fixture(scope="module")
def counts():
    return simulate(games=50, seed=1, progress=False).counts


def test_bar_chart(counts):
    fig = bar_chart(counts, title="My title")
    assert fig.layout.title.text == "My title"
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
    (bars,) = fig.data
    assert list(bars.x) == list(range(1, 41))
    assert sum(bars.y) == pytest.approx(100, abs=0.01)
    assert bars.customdata[24] == "Illinois Avenue"  # names on hover
    assert any(shape.y0 == 2.5 for shape in fig.layout.shapes)  # the uniform line


def test_bar_chart_compares_two_series(counts):
    fig = bar_chart(counts, counts * 2, labels=("after", "before"))
    assert [trace.name for trace in fig.data] == ["before", "after"]
    assert fig.layout.showlegend


def test_board_positions_go_around_the_square():
    cells = [board_position(space) for space in range(1, 41)]
    assert len(set(cells)) == 40
    assert all(col in (0, 10) or row in (0, 10) for col, row in cells)
    corners = {1: (10, 0), 11: (0, 0), 21: (0, 10), 31: (10, 10)}
    assert {space: board_position(space) for space in corners} == corners


def test_board_map(counts):
    fig = board_map(counts, tokens={"Player 1": 11, "Player 2": 25})
    assert len([s for s in fig.layout.shapes if s.type == "rect"]) == 40
    assert fig.layout.title.text
    assert fig.data[0].marker.colorscale is not None and COLORSCALE == "Cividis"
    assert [trace.name for trace in fig.data[1:]] == ["Player 1", "Player 2"]
    assert "is above the scale" in fig.layout.annotations[-1].text  # Jail stands out


def test_bad_counts_are_refused(counts):
    with pytest.raises(TypeError, match="counts must be a pandas Series of numbers indexed by"):
        bar_chart([1, 2, 3])
    with pytest.raises(ValueError, match=r"compare must be .*, got one indexed 0\.\.39"):
        bar_chart(counts, counts.reset_index(drop=True))
    with pytest.raises(ValueError, match=r"tokens\['P1'\] must be at least 1, got 0"):
        board_map(counts, tokens={"P1": 0})


def test_no_browser_still_gives_interactive_figures(monkeypatch, counts):
    previous = pio.renderers.default
    monkeypatch.setattr("shutil.which", lambda name: None)
    try:
        assert setup_figures() == "monopoly"
        bundle = pio.renderers["monopoly"].to_mimebundle(bar_chart(counts).to_dict())
    finally:
        pio.renderers.default = previous
    assert set(bundle) == {"application/vnd.plotly.v1+json", "text/html"}


def test_figure_outputs_are_the_same_on_every_run(counts):
    renderer = LessonRenderer()
    first = renderer.to_mimebundle(board_map(counts).to_dict())
    again = renderer.to_mimebundle(board_map(counts).to_dict())
    assert first == again
    assert 'id="monopoly-figure-' in first["text/html"] and "Plotly.newPlot" in first["text/html"]
    other = renderer.to_mimebundle(bar_chart(counts).to_dict())
    assert other["text/html"].split('"')[1] != first["text/html"].split('"')[1]  # ids differ


def test_stored_figures_do_not_depend_on_the_last_bits():
    # Another processor's BLAS kernel may change a float's last bits: the stored figure
    # must not change with them.
    values = np.array([1 / 3, 2 / 3, 0.1 + 0.2, 1e-7 / 3]).reshape(2, 2)
    nudged = np.nextafter(values, np.inf)
    renderer = LessonRenderer()
    bundles = [
        renderer.to_mimebundle(go.Figure(go.Heatmap(z=z)).to_dict()) for z in (values, nudged)
    ]
    assert bundles[0] == bundles[1]
    z = bundles[0]["application/vnd.plotly.v1+json"]["data"][0]["z"]
    assert z == [[0.333333, 0.666667], [0.3, 3.33333e-08]]  # lists, 6 significant digits
    assert "bdata" not in bundles[0]["text/html"]


def test_rounding_keeps_integers_strings_and_typed_integer_arrays():
    figure = {"x": {"dtype": "i1", "bdata": "AAECAw=="}, "name": "0.123456789", "n": 7}
    assert rounded(figure) == {"x": [0, 1, 2, 3], "name": "0.123456789", "n": 7}
    assert rounded({"y": [float("nan"), 2.0000000000000004]})["y"][1] == 2.0


def png_size(bundle: dict) -> tuple[int, int]:
    """The pixel width and height of a bundle's PNG (from its header)."""
    image = base64.b64decode(bundle["image/png"])
    assert image[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", image[16:24])


@NEEDS_CHROMIUM
def test_png_for_print_is_at_most_png_width_pixels_wide(counts):
    """JupyterLab's plotly renderer shows a stored PNG at its pixel size, so a wider one
    would be cut off at the output area's edge; a wider figure is scaled down, whole."""
    import kaleido

    from monopoly_lesson.plots import _start_exporter

    assert _start_exporter()  # one browser for the figures below, as setup_figures starts
    renderer = LessonRenderer(png=True)
    wide = bar_chart(counts).update_layout(width=2 * PNG_WIDTH, height=500)
    narrow = bar_chart(counts).update_layout(width=300, height=200)
    try:
        sizes = [
            png_size(renderer.to_mimebundle(f.to_dict())) for f in (bar_chart(counts), wide, narrow)
        ]
    finally:
        kaleido.stop_sync_server(silence_warnings=True)
    assert sizes == [(PNG_WIDTH, 420), (PNG_WIDTH, 250), (300, 200)]


@pytest.fixture
def exporter(monkeypatch):
    """Chromium on PATH and an image exporter that would start (each start is counted)."""
    started = []
    monkeypatch.setattr("monopoly_lesson.plots._chrome_available", lambda: True)
    monkeypatch.setattr("monopoly_lesson.plots._start_exporter", lambda: started.append(1) or True)
    monkeypatch.setattr(pio.renderers, "default", pio.renderers.default)
    monkeypatch.delenv("MONOPOLY_LESSON_CHECKED", raising=False)
    return started


def test_pngs_only_where_notebooks_are_executed_to_be_stored(exporter, monkeypatch):
    monkeypatch.delenv(PNG_ENV, raising=False)
    assert setup_figures() == "monopoly" and exporter == []  # a lesson kernel: no browser
    monkeypatch.setenv(PNG_ENV, "0")
    assert setup_figures() == "monopoly" and exporter == []
    monkeypatch.setenv(PNG_ENV, "1")  # as tools/execute_notebooks.py sets it
    assert setup_figures() == "monopoly_png" and exporter == [1]


def test_pngs_can_still_be_asked_for_or_refused_explicitly(exporter, monkeypatch):
    monkeypatch.delenv(PNG_ENV, raising=False)
    assert setup_figures(png=True) == "monopoly_png" and exporter == [1]
    monkeypatch.setenv(PNG_ENV, "1")
    assert setup_figures(png=False) == "monopoly" and exporter == [1]


@pytest.mark.parametrize("value", ["yes", "true", " 1", "2"])
def test_an_unknown_png_variable_is_refused_not_ignored(monkeypatch, value):
    monkeypatch.setenv(PNG_ENV, value)
    with pytest.raises(ValueError, match=f"{PNG_ENV} must be 1 .* or 0 .*, not '{value}'"):
        png_requested()


def test_png_must_be_true_false_or_none():
    with pytest.raises(TypeError, match=r"png must be True, False or None .*, not 'yes'"):
        setup_figures(png="yes")


BROWSERS = ("chrom", "kaleido", "headless_shell")
DRAW = (
    "from monopoly_lesson import simulate\n"
    "from monopoly_lesson.plots import bar_chart, setup_figures\n"
    "setup_figures({png})\n"
    "bar_chart(simulate(games=20, seed=1, progress=False).counts)"
)


def draw_in_kernel(client, png: str) -> list[str]:
    """Run the lesson's set-up and draw one figure in a kernel; the figure's MIME types."""
    shown = []

    def keep(message: dict) -> None:
        if message["msg_type"] == "display_data" or message["msg_type"] == "execute_result":
            shown.extend(message["content"]["data"])

    reply = client.execute_interactive(DRAW.format(png=png), timeout=120, output_hook=keep)
    assert reply["content"]["status"] == "ok", reply["content"]
    return shown


def browsers_beside(pid: int) -> list[str]:
    """The names of the browser processes among a process's descendants (after a moment)."""
    import psutil

    time.sleep(1)  # a browser started by the cell has had time to appear
    names = [child.name() for child in psutil.Process(pid).children(recursive=True)]
    return [name for name in names if name.lower().startswith(BROWSERS)]


@NEEDS_CHROMIUM
def test_a_lesson_kernel_that_draws_a_figure_starts_no_browser(monkeypatch):
    """A student's kernel (no PNG_ENV) holds no image exporter's browser; asked for PNGs, it
    does (so the look for one would find it)."""
    from jupyter_client.manager import start_new_kernel

    monkeypatch.delenv(PNG_ENV, raising=False)
    monkeypatch.delenv("MONOPOLY_LESSON_CHECKED", raising=False)
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        kernel = manager.provisioner.process.pid
        shown = draw_in_kernel(client, "")
        assert "application/vnd.plotly.v1+json" in shown and "image/png" not in shown
        assert browsers_beside(kernel) == []
        assert "image/png" in draw_in_kernel(client, "png=True")
        assert browsers_beside(kernel), "asked for PNGs, the kernel started no browser"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_a_browser_that_does_not_start_leaves_interactive_figures(monkeypatch, counts):
    """A hung exporter is given up after PNG_SECONDS, with one warning; nothing hangs."""
    import time

    import kaleido

    previous = pio.renderers.default
    monkeypatch.setattr("monopoly_lesson.plots.PNG_SECONDS", 0.3)
    monkeypatch.setattr(kaleido, "start_sync_server", lambda **kwargs: time.sleep(30))
    try:
        with pytest.warns(UserWarning, match="PNG export is off .*figures are interactive only"):
            assert setup_figures(png=True) == "monopoly"
    finally:
        pio.renderers.default = previous


def test_an_export_that_fails_later_drops_the_png_once(monkeypatch, counts):
    def broken(*args, **kwargs):
        raise RuntimeError("browser gone")

    monkeypatch.setattr(pio, "to_image", broken)
    renderer = LessonRenderer(png=True)
    with pytest.warns(UserWarning, match="RuntimeError: browser gone"):
        first = renderer.to_mimebundle(bar_chart(counts).to_dict())
    second = renderer.to_mimebundle(bar_chart(counts).to_dict())  # no second warning
    assert "image/png" not in first and "image/png" not in second and not renderer.png
