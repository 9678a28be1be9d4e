"""The lesson renders to HTML pages and PDF handouts from its stored outputs.

The same build as ``make handouts`` (pandoc + Typst for PDF, nbconvert for HTML), into a
temporary folder; then every PDF is read back with poppler and every page is opened in
headless Chromium, served from 127.0.0.1. Quarto's cell options must be honoured as the book
honours them: ``#| echo: false`` code is shown nowhere, ``#| code-fold: true`` code is a
collapsed ``<details>`` block in HTML and a one-line note in the PDF, and no ``#|`` line or
solution marker is ever shown.
"""

from __future__ import annotations

import functools
import html
import http.server
import importlib.util
import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import pytest

from monopoly_lesson.widgets import STATIC_NOTE

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PLACEHOLDERS = ["application/vnd", "model_id", "Unable to display", "Error displaying widget"]

pytestmark = pytest.mark.handouts


def load_tool():
    sys.path.insert(0, str(ROOT / "tools"))  # handouts.py imports strip_solution_markers
    spec = importlib.util.spec_from_file_location("handouts", ROOT / "tools" / "handouts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def code_cells(path: Path) -> list[tuple[dict, str]]:
    """Each code cell's Quarto options and code."""
    cells = nbformat.read(path, as_version=4).cells
    return [tool.cell_options(c.source) for c in cells if c.cell_type == "code"]


def folded(path: Path) -> list[tuple[str, str]]:
    """(summary, code) of each folded cell."""
    return [(o["code-summary"], code) for o, code in code_cells(path) if o.get("code-fold")]


def hidden(path: Path) -> list[str]:
    return [code for options, code in code_cells(path) if options.get("echo") is False]


def defined(code: str) -> list[str]:
    return re.findall(r"^def (\w+)\(", code, re.MULTILINE)


def outputs(path: Path) -> list[dict]:
    notebook = json.loads(path.read_text())
    return [o for cell in notebook["cells"] for o in cell.get("outputs", [])]


def figures(path: Path) -> int:
    return sum("application/vnd.plotly.v1+json" in o.get("data", {}) for o in outputs(path))


def has_widget(path: Path) -> bool:
    return any(
        STATIC_NOTE in "".join(o.get("data", {}).get("text/html", "")) for o in outputs(path)
    )


# -- cell options, without building anything --------------------------------------


def test_cell_options_are_read_and_taken_off_the_code():
    source = '#| code-fold: true\n#| code-summary: "Chapter 4\'s code: land"\n#| echo: false\nx = 1'
    options, code = tool.cell_options(source)
    assert options == {"code-fold": True, "code-summary": "Chapter 4's code: land", "echo": False}
    assert code == "x = 1"
    assert tool.cell_options("x = 1  #| not an option") == ({}, "x = 1  #| not an option")


def small_notebook() -> nbformat.NotebookNode:
    output = nbformat.v4.new_output("stream", text="shown\n")
    return nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Title"),
            nbformat.v4.new_code_cell("#| echo: false\nimport secret_setup"),
            nbformat.v4.new_code_cell("#| echo: false\nprint('shown')", outputs=[output]),
            nbformat.v4.new_code_cell(
                '#| code-fold: true\n#| code-summary: "Old code"\ndef old():\n    pass'
            ),
            nbformat.v4.new_code_cell("#| code-fold: true\ndef older():\n    pass"),
            nbformat.v4.new_code_cell("new = 1"),
        ]
    )


def test_html_hides_echo_false_and_folds_code_fold():
    notebook = small_notebook()
    tool.apply_cell_options(notebook, "html")
    shown = ["print('shown')", "def old():\n    pass", "def older():\n    pass", "new = 1"]
    assert [c.source for c in notebook.cells][1:] == shown
    assert notebook.cells[1].metadata.transient == {"remove_source": True}
    assert notebook.cells[2].metadata.code_fold == {"summary": "Old code", "open": False}
    assert notebook.cells[3].metadata.code_fold["summary"] == "Code"  # Quarto's default


def test_pdf_prints_a_note_in_place_of_folded_code():
    notebook = small_notebook()
    tool.apply_cell_options(notebook, "pdf")
    sources = [c.source for c in notebook.cells]
    assert sources[1:] == [
        "print('shown')",
        "*Old code (folded: not printed here; it is in the notebook)*",
        "*Code (folded: not printed here; it is in the notebook)*",
        "new = 1",
    ]
    assert notebook.cells[2].cell_type == "markdown"


def test_html_page_wraps_folded_code_in_a_closed_details_block(tmp_path):
    path = tmp_path / "small.ipynb"
    nbformat.write(small_notebook(), path)
    page = tool.build_html(path, tmp_path).read_text()
    details = re.findall(r'<details class="code-fold"><summary>(.*?)</summary>(.*?)</details>',
                         page, re.DOTALL)  # fmt: skip
    assert [summary for summary, _ in details] == ["Old code", "Code"]
    assert "old" in details[0][1] and "older" in details[1][1]
    assert "secret_setup" not in page and "#|" not in page and "shown" in page


# -- the lesson's handouts ----------------------------------------------------------


@pytest.fixture(scope="module")
def handouts(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("handouts")
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "handouts.py"), "--out", str(out)], check=True
    )
    return out


def test_stored_figures_carry_a_png_for_print():
    for path in NOTEBOOKS:
        for output in outputs(path):
            data = output.get("data", {})
            if "application/vnd.plotly.v1+json" in data:
                assert "image/png" in data, f"{path.name}: a figure without its PNG"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_pdf_handout(handouts, path):
    pdf = handouts / "pdf" / f"{path.stem}.pdf"
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert text.strip(), "the PDF has no text"
    for placeholder in PLACEHOLDERS:
        assert placeholder not in text, f"{pdf.name} shows {placeholder!r}"
    assert '"layout"' not in text and "Plotly.newPlot" not in text, "a figure appears as code"
    listing = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True)
    images = [line.split()[2] for line in listing.stdout.splitlines()[2:]].count("image")
    assert images == figures(path), f"{pdf.name}: {images} images for {figures(path)} figures"
    if has_widget(path):
        assert STATIC_NOTE.split(" to ")[0] in text.replace("\n", " ")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_pdf_honours_cell_options(handouts, path):
    text = subprocess.run(
        ["pdftotext", str(handouts / "pdf" / f"{path.stem}.pdf"), "-"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    flat = " ".join(re.sub("[\u2019\u2032]", "'", text).split())  # curled apostrophes
    assert "#|" not in text and "SOLUTION" not in text
    assert hidden(path) and "setup_figures" not in text, "the set-up cell is printed"
    assert flat.count("(folded: not printed here; it is in the notebook)") == len(folded(path))
    for summary, code in folded(path):
        assert " ".join(summary.split()) in flat
        for name in defined(code):
            assert f"def {name}(" not in text, f"folded {name} is printed"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_html_honours_cell_options(handouts, path):
    page = (handouts / "html" / f"{path.stem}.html").read_text()
    assert "#|" not in page and "SOLUTION" not in page
    assert "setup_figures" not in page, "the set-up cell is shown"
    details = re.findall(r'<details class="code-fold"><summary>(.*?)</summary>(.*?)</details>',
                         page, re.DOTALL)  # fmt: skip
    assert [html.unescape(summary) for summary, _ in details] == [s for s, _ in folded(path)]
    for (_, inside), (_, code) in zip(details, folded(path), strict=True):
        text = html.unescape(re.sub(r"<[^>]+>", "", inside))
        assert all(f"def {name}(" in text for name in defined(code))


@pytest.fixture(scope="module")
def server(handouts):
    root = handouts / "html"

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(root))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_html_page(server, browser, path):
    page = browser.new_page()
    errors, outside = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))

    def only_local(route):
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    page.goto(f"{server}/{path.stem}.html", wait_until="load")
    expected = figures(path)
    if expected:
        page.wait_for_function(
            f"document.querySelectorAll('.monopoly-figure svg.main-svg').length >= {expected}"
        )
    drawn = page.locator(".monopoly-figure").evaluate_all(
        "divs => divs.filter(d => d.querySelector('svg.main-svg')).length"
    )
    body = page.inner_text("body")
    open_folds = page.locator("details.code-fold").evaluate_all(
        "ds => ds.filter(d => d.open).length"
    )
    page.close()
    assert open_folds == 0, "folded code must start collapsed"
    assert errors == [] and outside == []
    assert drawn == expected
    for placeholder in PLACEHOLDERS:
        assert placeholder not in body
    assert (STATIC_NOTE in body) == has_widget(path)


def test_index_links_every_chapter(handouts):
    index = (handouts / "html" / "index.html").read_text()
    assert all(f'href="{p.stem}.html"' in index for p in NOTEBOOKS)
