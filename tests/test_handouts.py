"""The lesson renders to HTML pages and PDF handouts from its stored outputs.

The same build as ``make handouts`` (pandoc + Typst for PDF, nbconvert for HTML), into a
temporary folder; then every PDF is read back with pypdf (no system package needed) and every
page is opened in headless Chromium, served from 127.0.0.1 (skipped without Chromium), and
checked with axe-core's WCAG 2.0 and 2.1 rules, levels A and AA, at a laptop's width and a
phone's (skipped without axe-core, which is fetched from the npm registry once).
Quarto's cell options must be honoured as the book honours them: ``#| echo: false`` code is
shown nowhere, ``#| code-fold: true`` code is a collapsed ``<details>`` block in HTML and a
one-line note in the PDF, and no ``#|`` line or solution marker is ever shown.
"""

from __future__ import annotations

import functools
import html
import http.server
import importlib.util
import json
import re
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import pandas as pd
import pypdf
import pytest
from axe import axe_violations, violations_words

from monopoly_lesson import take_turn
from monopoly_lesson.plots import LessonRenderer, bar_chart, figure_words, words_bundle
from monopoly_lesson.widgets import STATIC_NOTE, TurnStepper

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PLOTLY = "application/vnd.plotly.v1+json"
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


def steppers(path: Path) -> list[dict]:
    """The data of each stored stepper snapshot."""
    return [
        o["data"]
        for o in outputs(path)
        if STATIC_NOTE in "".join(o.get("data", {}).get("text/html", ""))
    ]


def has_widget(path: Path) -> bool:
    return bool(steppers(path))


@functools.cache  # each PDF is written once, and read by several tests
def pdf_text(pdf: Path) -> str:
    """The text of every page of a PDF."""
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)


@functools.cache
def pdf_images(pdf: Path) -> int:
    """How many raster images (the figures' PNGs) a PDF shows."""
    return sum(len(page.images) for page in pypdf.PdfReader(pdf).pages)


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
    details = re.findall(
        r'<details class="code-fold"><summary>(.*?)</summary>(.*?)</details>', page, re.DOTALL
    )
    assert [summary for summary, _ in details] == ["Old code", "Code"]
    assert "old" in details[0][1] and "older" in details[1][1]
    assert "secret_setup" not in page and "#|" not in page and "shown" in page


# -- print: wrapped code, whole tables, the stepper's board --------------------------


def test_long_lines_wrap_under_their_own_indentation():
    line = "        total = " + " + ".join(f"tally_{n}" for n in range(12))
    printed = tool.wrap_line(line, width=40)
    assert len(printed) > 2 and all(len(part) <= 40 for part in printed)
    assert printed[0].startswith("        total = tally_0")
    assert all(part.startswith("        " + tool.CONTINUED) for part in printed[1:])
    rejoined = " ".join(part.replace(tool.CONTINUED, "").strip() for part in printed)
    assert rejoined.split() == line.split()
    assert tool.wrap_line("x" * 50, width=40) == ["x" * 40, tool.CONTINUED + "x" * 10]
    assert tool.wrap_line("short", width=40) == ["short"]


def test_outputs_that_fit_a_page_are_marked_keep():
    assert tool.fence_output("a\nb\n") == "````keep\na\nb\n````"
    long = "\n".join(str(n) for n in range(tool.KEEP_LINES + 1))
    assert tool.fence_output(long).startswith("````text\n0\n")


def stepper_output() -> nbformat.NotebookNode:
    """A stepper's stored output, as the notebooks store it (no live view)."""
    stepper = TurnStepper(take_turn, players=2, seed=5)
    stepper.step(20)
    bundle = stepper._repr_mimebundle_()
    del bundle["application/vnd.jupyter.widget-view+json"]
    return nbformat.v4.new_output("display_data", data=bundle)


def wide_frame_output() -> nbformat.NotebookNode:
    """A DataFrame too wide for pandas' 80 characters, as a notebook stores it: its HTML,
    and its text in blocks of columns under a trailing backslash."""
    frame = pd.DataFrame(
        [[n + c / 10 for c in range(14)] for n in range(3)],
        columns=[f"column_{c}" for c in range(14)],
    ).rename_axis("row")
    with pd.option_context("display.width", 80, "display.max_columns", None):  # a notebook's
        data = {"text/plain": repr(frame), "text/html": frame._repr_html_()}
    assert data["text/plain"].split("\n")[0].endswith("\\")
    return nbformat.v4.new_output("execute_result", data=data, execution_count=1)


def print_notebook() -> nbformat.NotebookNode:
    """Prose that fills most of a page, then a 41-line table; long code; a stepper; a wide
    DataFrame."""
    filler = "\n\n".join(f"Paragraph {n} of the filler." for n in range(1, 21))
    table = "\n".join(["space  tally"] + [f"row{n:02d} {n * 7:6d}" for n in range(1, 41)])
    long_code = "    result = simulate(" + ", ".join(f"option_{n}={n}" for n in range(16)) + ")"
    return nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Print\n\n" + filler),
            nbformat.v4.new_code_cell(
                "table", outputs=[nbformat.v4.new_output("stream", text=table + "\n")]
            ),
            nbformat.v4.new_code_cell("def run():\n" + long_code),
            nbformat.v4.new_code_cell("stepper", outputs=[stepper_output()]),
            nbformat.v4.new_code_cell("frame", outputs=[wide_frame_output()]),
        ]
    )


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> list[str]:
    """The text of each page of the print notebook's PDF."""
    folder = tmp_path_factory.mktemp("print")
    nbformat.write(print_notebook(), folder / "print.ipynb")
    pdf = tool.build_pdf(folder / "print.ipynb", folder)
    return [page.extract_text() for page in pypdf.PdfReader(pdf).pages]


def test_a_table_that_fits_a_page_is_not_split(printed):
    assert "Paragraph 20 " in printed[0]  # the table starts low on page 1: split, if allowed
    assert any("row01" in page and "row40" in page for page in printed), "the table is split"


def test_long_code_wraps_with_its_indentation_and_a_mark(printed):
    text = "\n".join(printed)
    continued = [line for line in text.splitlines() if tool.CONTINUED.strip() in line]
    assert continued, "no wrapped line"
    assert all(line.startswith("    " + tool.CONTINUED.strip()) for line in continued), continued
    assert "option_15=15)" in text


def test_the_stepper_prints_a_picture_of_its_board_and_its_log(printed):
    text = "\n".join(printed)
    assert "MONOPOLY" in text and "Player 1 on" in text  # drawn in the board's SVG
    assert STATIC_NOTE in " ".join(text.split()) and "--- Turn 10, Player 2 ---" in text


def test_a_wide_dataframe_prints_as_one_table_not_pandas_wrapped_text(printed):
    lines = "\n".join(printed).splitlines()
    assert not [line for line in lines if line.rstrip().endswith("\\")], "pandas' wrap"
    header = [line for line in lines if "column_0" in line]
    assert len(header) == 1 and "column_13" in header[0], "the columns are not one row"
    assert any(line.split()[:3] == ["2", "2.0", "2.1"] and "3.3" in line for line in lines)


def test_a_dataframe_is_a_typst_table_with_its_values_aligned_right():
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("frame", outputs=[wide_frame_output()])]
    )
    tool.prepare_for_print(notebook)
    (output,) = notebook.cells[0].outputs
    assert list(output.data) == ["text/markdown"]
    table = output.data["text/markdown"]
    assert table.startswith("```{=typst}\n#block(breakable: false)[") and "#table(" in table
    assert "align: (left, " + "right, " * 13 + "right)" in table  # the index, then 14 columns
    frame = pd.DataFrame({("a", "x"): [1], ("a", "y"): [2], ("b", "x"): [3]}, index=["r"])
    grouped = tool.dataframe_table(frame._repr_html_())
    assert "columns: (auto, 1fr, 1fr, 1fr, )," in grouped
    assert "table.cell(colspan: 2, align: center)[a]" in grouped
    long = pd.DataFrame({"n": range(tool.KEEP_LINES + 1)})
    assert "breakable: false" not in tool.dataframe_table(long.to_html())


# -- the lesson's handouts ----------------------------------------------------------


@pytest.fixture(scope="module")
def handouts(tmp_path_factory) -> Path:
    """The instructor's handouts, built by the tool's command line (in this process, so
    that the student's edition below prints the figures it has made)."""
    out = tmp_path_factory.mktemp("handouts")
    tool.main(["--out", str(out), "--edition", "instructor"])
    return out


def test_stored_figures_carry_a_png_for_print():
    for path in NOTEBOOKS:
        for output in outputs(path):
            data = output.get("data", {})
            if "application/vnd.plotly.v1+json" in data:
                assert "image/png" in data, f"{path.name}: a figure without its PNG"


def test_stored_steppers_carry_a_picture_of_the_board_for_print():
    for path in NOTEBOOKS:
        for data in steppers(path):
            assert "image/svg+xml" in data, f"{path.name}: a stepper without its board picture"
            assert 'aria-label="Monopoly board"' in "".join(data["image/svg+xml"])


def pdf_pictures(pdf: Path) -> list[str]:
    """The alternative text of each picture in a tagged PDF (its structure's Figures)."""
    found = []

    def walk(node: object) -> None:
        node = node.get_object() if isinstance(node, pypdf.generic.IndirectObject) else node
        if isinstance(node, pypdf.generic.ArrayObject):
            for kid in node:
                walk(kid)
        elif isinstance(node, pypdf.generic.DictionaryObject):
            if node.get("/S") == "/Figure":
                found.append(str(node.get("/Alt", "")))
            if "/K" in node:
                walk(node["/K"])

    walk(pypdf.PdfReader(pdf).trailer["/Root"]["/StructTreeRoot"])
    return found


def stored_words(path: Path) -> list[str]:
    """Each stored figure's words as the PDF gives them: its sentence, then its description."""
    return [
        f"{words['alt']} {words['description']}"
        for output in outputs(path)
        if (words := figure_words(output.get("data", {}).get(PLOTLY, {})))
    ]


def figure_notebook() -> nbformat.NotebookNode:
    """A figure as a lesson kernel shows it (the figure, then its words), and a picture."""
    counts = pd.Series(range(1, 41), index=range(1, 41))
    fig = bar_chart(counts, title='A "quoted" \\ title')
    figure = LessonRenderer().to_mimebundle(fig.to_dict())
    words = words_bundle(figure_words(fig))
    return nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "bar_chart(counts)",
                outputs=[
                    nbformat.v4.new_output("display_data", data=figure),
                    nbformat.v4.new_output("display_data", data=words),
                ],
            ),
            nbformat.v4.new_code_cell("stepper", outputs=[stepper_output()]),
        ]
    )


def test_a_figure_prints_with_its_words_as_its_alt_text_not_under_it():
    notebook = figure_notebook()
    tool.prepare_for_print(notebook)
    figure, *rest = notebook.cells[0].outputs
    assert rest == [], "the words are printed under the figure"
    words = figure_words(json.loads(json.dumps(figure_notebook().cells[0].outputs[0].data[PLOTLY])))
    assert figure.metadata["alt"] == f"{words['alt']} {words['description']}"
    picture, _ = notebook.cells[1].outputs
    assert picture.metadata["alt"].startswith("The Monopoly board: Player 1 on ")


def test_alt_text_reaches_typst_whatever_it_holds(tmp_path):
    assert tool.typst_string('a "b" \\ c\nd') == '"a \\"b\\" \\\\ c d"'
    nbformat.write(figure_notebook(), tmp_path / "figure.ipynb")
    pdf = tool.build_pdf(tmp_path / "figure.ipynb", tmp_path)
    chart, board = pdf_pictures(pdf)
    assert board.startswith("The Monopoly board") and '\u201cA "quoted" \\ title\u201d' in chart
    assert "Every space in board order: Go (1) 0.12%" in chart


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_pdf_handout_is_pdf_ua_with_every_picture_described(handouts, path):
    """PDF/UA-1 (Typst refuses to write one with an image without alt text): titled with
    the chapter's title, in English, each figure's alt text its words."""
    pdf = handouts / "pdf" / f"{path.stem}.pdf"
    reader = pypdf.PdfReader(pdf)
    assert reader.xmp_metadata and "pdfuaid:part" in reader.xmp_metadata.rdf_root.toxml()
    assert reader.metadata.title == tool.title_of(nbformat.read(path, as_version=4), path.stem)
    assert str(reader.trailer["/Root"]["/Lang"]).startswith("en")
    pictures = pdf_pictures(pdf)
    assert len(pictures) == figures(path) + len(steppers(path)) and all(pictures)
    assert [alt for alt in pictures if not alt.startswith("The Monopoly board")] == (
        stored_words(path)
    )
    assert "In words:" not in pdf_text(pdf)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_html_page_names_each_figure_and_shows_its_words(handouts, path):
    page = (handouts / "html" / f"{path.stem}.html").read_text()
    named = re.findall(
        r'<div aria-label="([^"]*)" class="plotly-graph-div[^>]* role="figure"', page
    )
    shown = re.findall(
        r'<details class="monopoly-figure-words"><summary>In words: (.*?)</summary>', page
    )
    alts = [words.split(" ", 1)[0] for words in stored_words(path)]  # a start
    assert len(named) == len(shown) == len(alts) == figures(path)
    assert [html.unescape(n) for n in named] == [html.unescape(s) for s in shown]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_pdf_handout(handouts, path):
    pdf = handouts / "pdf" / f"{path.stem}.pdf"
    text = pdf_text(pdf)
    assert text.strip(), "the PDF has no text"
    for placeholder in PLACEHOLDERS:
        assert placeholder not in text, f"{pdf.name} shows {placeholder!r}"
    assert '"layout"' not in text and "Plotly.newPlot" not in text, "a figure appears as code"
    images = pdf_images(pdf)
    assert images == figures(path), f"{pdf.name}: {images} images for {figures(path)} figures"
    if has_widget(path):
        assert STATIC_NOTE.split(" to ")[0] in text.replace("\n", " ")
        assert text.count("MONOPOLY") == len(steppers(path)), "a stepper without its board"


def test_figures_print_sharper_than_they_are_stored(handouts):
    """A figure's PNG on paper is made from its stored data at PRINT_WIDTH pixels, twice the
    stored PNG's (sized for a notebook's output area), where the image exporter runs."""
    from monopoly_lesson.plots import PNG_WIDTH, PRINT_WIDTH, _chrome_available

    if not _chrome_available():
        pytest.skip("no Chromium on PATH: the handouts print the stored PNGs")
    pdf = handouts / "pdf" / "06_full_simulation.pdf"
    widths = [image.image.width for page in pypdf.PdfReader(pdf).pages for image in page.images]
    assert widths and all(width == PRINT_WIDTH for width in widths), widths
    assert PRINT_WIDTH == 2 * PNG_WIDTH


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_pdf_honours_cell_options(handouts, path):
    text = pdf_text(handouts / "pdf" / f"{path.stem}.pdf")
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
    details = re.findall(
        r'<details class="code-fold"><summary>(.*?)</summary>(.*?)</details>', page, re.DOTALL
    )
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


@pytest.mark.parametrize(
    ("page", "heading"), [("rules", "The board"), ("game_rules", "Complete groups")]
)
def test_the_rules_pages_are_handouts_too(handouts, page, heading):
    assert f'href="{page}.html"' in (handouts / "html" / "index.html").read_text()
    assert heading in (handouts / "html" / f"{page}.html").read_text()
    printed = pdf_text(handouts / "pdf" / f"{page}.pdf")
    assert heading in printed and "<span>" not in printed and "\\$" not in printed


def source_lines_ending_in_a_backslash(path: Path) -> set[str]:
    """The lines of a chapter's cells (code and Markdown) that end in a backslash (a shell
    command continued), their spaces collapsed."""
    cells = nbformat.read(path, as_version=4).cells
    lines = (" ".join(line.split()) for cell in cells for line in cell.source.splitlines())
    return {line for line in lines if line.endswith("\\")}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_pdf_line_ends_in_pandas_wrap(handouts, path):
    """pandas splits the text of a DataFrame wider than 80 characters into blocks of
    columns, each line but the last ending in a backslash: print shows tables instead."""
    allowed = source_lines_ending_in_a_backslash(path)
    text = pdf_text(handouts / "pdf" / f"{path.stem}.pdf").replace(tool.CONTINUED.strip(), "")
    ending = [" ".join(line.split()) for line in text.splitlines() if line.rstrip().endswith("\\")]
    wrapped = [line for line in ending if not any(source.endswith(line) for source in allowed)]
    assert not wrapped, f"{path.name}: {wrapped[:3]}"


def lowest_text(pdf: Path, page: int = 0) -> tuple[float, float]:
    """How high the lowest line of a page's text stands (the page number aside), and the
    page's height, in points from the bottom edge."""
    sheet = pypdf.PdfReader(pdf).pages[page]
    heights = []

    def visit(text, cm, tm, font, size):
        if text.strip() and text.strip() != str(page + 1):
            heights.append(tm[4] * cm[1] + tm[5] * cm[3] + cm[5])

    sheet.extract_text(visitor_text=visit)
    return min(heights), float(sheet.mediabox.height)


def test_the_game_rules_page_one_is_filled(handouts):
    """The lots table starts on page 1 and breaks (its header repeated) rather than leave
    half of the page blank."""
    low, height = lowest_text(handouts / "pdf" / "game_rules.pdf")
    margin = 2 / 2.54 * 72  # 2 cm
    assert low < margin + (height - 2 * margin) / 4, f"page 1 ends {low:.0f} pt from the bottom"
    page_2 = pypdf.PdfReader(handouts / "pdf" / "game_rules.pdf").pages[1].extract_text()
    assert "street" in page_2.split("\n")[0] and "Boardwalk" in page_2  # the header again


# -- the student's handouts ----------------------------------------------------------

STUDENT = ("05_jail", "10_property_values", "11_evolving_players", "12_the_papers_experiment")
STUDENT_CHAPTERS = [ROOT / "notebooks" / f"{name}.ipynb" for name in STUDENT]


@pytest.fixture(scope="module")
def student_handouts(tmp_path_factory, handouts) -> Path:
    out = tmp_path_factory.mktemp("student-handouts")
    tool.main(["--out", str(out), "--edition", "student", *map(str, STUDENT_CHAPTERS)])
    return out / "student"


@pytest.mark.parametrize("path", STUDENT_CHAPTERS, ids=lambda path: path.stem)
def test_the_students_handouts_keep_no_answer(student_handouts, path):
    pdf = pdf_text(student_handouts / "pdf" / f"{path.stem}.pdf")
    page = (student_handouts / "html" / f"{path.stem}.html").read_text()
    for text in (pdf, page):
        assert "Answer." not in text and "SOLUTION" not in text
        assert "Your answer here." in text and "YOUR CODE HERE" in text
    assert pdf_images(student_handouts / "pdf" / f"{path.stem}.pdf") > 0  # figures stay


def test_a_cell_whose_answer_is_taken_out_prints_nothing(student_handouts, handouts):
    chapter = "10_property_values"
    answer = "per opponent turn; paid back in"  # in exercise 1's print line, and its output
    instructors = pdf_text(handouts / "pdf" / f"{chapter}.pdf").count(answer)
    assert instructors == pdf_text(student_handouts / "pdf" / f"{chapter}.pdf").count(answer) + 1
    assert "best_one_house = " not in (student_handouts / "html" / f"{chapter}.html").read_text()


# -- the rules pages (the book's appendices) ---------------------------------------------


@pytest.mark.parametrize("page", ["rules.md", "game_rules.md"])
def test_the_rules_pages_print_every_dollar(tmp_path, page):
    """The rules pages go through pandoc and Typst as the handouts do, and every amount of
    money is printed as written (none is read as maths)."""
    import pypandoc
    import typst

    source = ROOT / "notebooks" / page
    typ, pdf = tmp_path / "page.typ", tmp_path / "page.pdf"
    pypandoc.convert_file(
        str(source), "typst", format="markdown", outputfile=str(typ), extra_args=["--standalone"]
    )
    typst.compile(str(typ), output=str(pdf))
    assert pdf_text(pdf).count("$") == source.read_text().count("\\$") > 0


# -- every page: its language and its title ------------------------------------------------

RULES_PAGES = [page.stem for page in tool.rules_pages()]
INSTRUCTOR_PAGES = [path.stem for path in NOTEBOOKS] + RULES_PAGES + ["index"]


@pytest.mark.parametrize("stem", INSTRUCTOR_PAGES)
def test_each_page_is_in_english_and_titled_with_its_chapter(handouts, stem):
    """``lang="en"``, and the chapter's title (its first heading) in the browser's tab."""
    written = (handouts / "html" / f"{stem}.html").read_text()
    chapter, rules = ROOT / "notebooks" / f"{stem}.ipynb", ROOT / "notebooks" / f"{stem}.md"
    if chapter.exists():
        title = tool.title_of(nbformat.read(chapter, as_version=4), stem)
    elif rules.exists():
        title = rules.read_text().split("\n", 1)[0].removeprefix("# ")
    else:
        title = "Monopoly lesson"
    assert re.search(r"<html[^>]* lang=[\"']en[\"']", written), 'no lang="en"'
    assert html.unescape(re.search(r"<title>(.*?)</title>", written, re.DOTALL)[1]) == title


# -- accessibility: axe-core's WCAG 2.0/2.1 A and AA rules on every page ------------------

VIEWPORTS = {"wide": {"width": 1280, "height": 800}, "narrow": {"width": 320, "height": 640}}
"""The sizes every page is checked at: a laptop's, and WCAG's reflow width (a phone's), where
long lines of code scroll."""
STUDENT_PAGES = list(STUDENT) + RULES_PAGES + ["index"]
DRAWN = """() => [...document.querySelectorAll('.monopoly-figure')]
    .every(figure => figure.querySelector('svg.main-svg'))"""
"""True once every figure on a page is drawn."""
OPEN_FOLDS = """() => Promise.all([...document.querySelectorAll('details:not([open])')].map(
    fold => new Promise(seen => {
        fold.addEventListener('toggle', seen, {once: true});
        fold.open = true;
    })))"""
"""Open every folded block of code, once the page has seen it open (its code may scroll)."""


def page_violations(browser, page_file: Path) -> dict[str, list[dict]]:
    """axe's WCAG 2.1 AA violations on a written page, opened from its file, at each of
    ``VIEWPORTS``, its figures drawn and its folded code open."""
    page = browser.new_page(viewport=VIEWPORTS["wide"])
    found = {}
    try:
        page.goto(page_file.as_uri(), wait_until="load")
        page.wait_for_function(DRAWN)
        page.evaluate(OPEN_FOLDS)
        for name, size in VIEWPORTS.items():
            page.set_viewport_size(size)
            page.evaluate("() => new Promise(drawn => requestAnimationFrame(() => drawn()))")
            found[name] = axe_violations(page)
    finally:
        page.close()
    return found


def assert_no_violations(page_file: Path, found: dict[str, list[dict]]) -> None:
    said = [f"{size}: {violations_words(v)}" for size, v in found.items() if v]
    assert not said, f"{page_file.name} fails WCAG 2.1 AA:\n" + "\n".join(said)


@pytest.mark.parametrize("stem", INSTRUCTOR_PAGES)
def test_the_instructors_pages_pass_wcag_aa(handouts, browser, stem):
    """Every page ``make handouts`` writes for the instructor passes axe-core's WCAG 2.0 and
    2.1 rules, levels A and AA (contrast, links, keyboard access, language, title, ...)."""
    page_file = handouts / "html" / f"{stem}.html"
    assert_no_violations(page_file, page_violations(browser, page_file))


@pytest.mark.parametrize("stem", STUDENT_PAGES)
def test_the_students_pages_pass_wcag_aa(student_handouts, browser, stem):
    """The student's too, with their placeholders where the solutions were."""
    page_file = student_handouts / "html" / f"{stem}.html"
    assert_no_violations(page_file, page_violations(browser, page_file))


@pytest.fixture(scope="module")
def student_pages_only(tmp_path_factory) -> Path:
    """A folder for the student's pages of the other chapters (HTML only: their PDFs and
    everything else the student's edition holds are checked on the four above)."""
    out = tmp_path_factory.mktemp("student-pages")
    shutil.copyfile(tool.PLOTLY_JS, out / "plotly.min.js")
    return out


@pytest.mark.parametrize(
    "path", [p for p in NOTEBOOKS if p.stem not in STUDENT], ids=lambda path: path.stem
)
def test_the_students_pages_of_the_other_chapters_pass_wcag_aa(student_pages_only, browser, path):
    """Every chapter's student page, not only the four built whole above."""
    page_file = tool.build_html(path, student_pages_only, "student")
    assert_no_violations(page_file, page_violations(browser, page_file))


TOKENS = r"""() => {
    const names = new Set();
    for (const sheet of document.styleSheets)
        for (const rule of sheet.cssRules)
            for (const [, name] of (rule.selectorText || '').matchAll(/^\.highlight \.(\w+)$/g))
                names.add(name);
    const code = document.querySelector('.jp-InputArea-editor .highlight pre');
    code.replaceChildren(...[...names].map(name => {
        const token = document.createElement('span');
        token.className = name;
        token.textContent = `${name}\n`;  // one a line: none scrolls out of sight
        return token;
    }));
    return [...names];
}"""
"""Fill a page's code cell with a token of each class the page's style colours."""


def test_every_colour_code_can_take_passes_contrast(tmp_path, browser):
    """Not only the tokens the lesson's code has today: a token of every class of the page's
    syntax highlighting (Pygments'), and both prompts, at 4.5:1 or more."""
    result = nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)
    cell = nbformat.v4.new_code_cell("1 + 1", execution_count=1, outputs=[result])
    path = tmp_path / "code.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    page = browser.new_page()
    try:
        page.goto(tool.build_html(path, tmp_path).as_uri(), wait_until="load")
        classes = page.evaluate(TOKENS)
        violations = axe_violations(page)
    finally:
        page.close()
    assert len(classes) > 30 and {"c1", "mi", "ow"} <= set(classes), classes  # Pygments'
    assert not violations, violations_words(violations, nodes=10)
