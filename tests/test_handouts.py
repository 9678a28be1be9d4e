"""The lesson renders to HTML pages and PDF handouts from its stored outputs.

The same build as ``make handouts`` (pandoc + Typst for PDF, nbconvert for HTML), into a
temporary folder; then every PDF is read back with poppler and every page is opened in
headless Chromium, served from 127.0.0.1.
"""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

from monopoly_lesson.widgets import STATIC_NOTE

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PLACEHOLDERS = ["application/vnd", "model_id", "Unable to display", "Error displaying widget"]

pytestmark = pytest.mark.handouts


def outputs(path: Path) -> list[dict]:
    notebook = json.loads(path.read_text())
    return [o for cell in notebook["cells"] for o in cell.get("outputs", [])]


def figures(path: Path) -> int:
    return sum("application/vnd.plotly.v1+json" in o.get("data", {}) for o in outputs(path))


def has_widget(path: Path) -> bool:
    return any(
        STATIC_NOTE in "".join(o.get("data", {}).get("text/html", "")) for o in outputs(path)
    )


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
    page.close()
    assert errors == [] and outside == []
    assert drawn == expected
    for placeholder in PLACEHOLDERS:
        assert placeholder not in body
    assert (STATIC_NOTE in body) == has_widget(path)


def test_index_links_every_chapter(handouts):
    index = (handouts / "html" / "index.html").read_text()
    assert all(f'href="{p.stem}.html"' in index for p in NOTEBOOKS)
