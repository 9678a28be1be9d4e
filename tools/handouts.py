"""Render the lesson to HTML pages and PDF handouts without Quarto (``make handouts``).

It uses the engines Quarto drives, on the notebooks' stored outputs (nothing is
executed): nbconvert for the HTML pages, and pandoc with Typst for the PDFs. Each output
is chosen the way Quarto chooses it: in HTML the interactive figure and the widget's
HTML snapshot; in PDF the figure's PNG and the widget's Markdown snapshot, after the
picture of its board when it has one (SVG: Typst draws SVG, not HTML).

On paper, long lines of code and output are wrapped, each continuation under the line's
own indentation after a ``↪`` mark, and an output that fits on a page (a table) is kept
whole rather than split across two pages.

Quarto's cell options (``#|`` lines at the top of a code cell) are honoured as the book
honours them, and never shown:

- ``#| echo: false`` (the set-up cells): the code is hidden, its output (if any) shown;
- ``#| code-fold: true`` (code carried over from the previous chapter): in HTML the code
  sits in a collapsed ``<details>`` block whose summary line is the cell's
  ``#| code-summary:`` (default "Code"); in the PDF it is not printed, and a one-line
  note in its place names it. That code was printed in full in the previous chapter's
  handout, where it was written; on paper it cannot be unfolded, and reprinting it would
  put a page or two of old code before each chapter's new rule.

    python tools/handouts.py [--out _handouts] [--edition both|instructor|student] [NOTEBOOK ...]

writes the instructor's handouts (the chapters, then the rules pages:
``rules.md`` and ``game_rules.md``), ``_handouts/html/NN_name.html`` (with a local copy of
plotly.js, so the pages need no network) and ``_handouts/pdf/NN_name.pdf``, and the
student's, ``_handouts/student/html/`` and ``_handouts/student/pdf/``. The student's are
made from the student edition: every solution (code to write, written answers) is its
placeholder, and a cell whose solution was taken out shows no output, so that no
exercise's answer is printed; every other cell keeps its stored output (the figures and
tables a correct solution gives).

Every HTML page is written to pass axe-core's WCAG 2.0 and 2.1 rules, levels A and AA (see
:data:`PAGE_CSS` and :data:`SCROLLING`): it is in English (``lang="en"``) and titled with its
chapter's title, code is coloured at 4.5:1 contrast or more, links are underlined, and a
region that scrolls is reached with the keyboard. Each figure is named by its alternative
text and followed by its words (:mod:`monopoly_lesson.figure_words`), as the notebook shows it.

Every PDF is PDF/UA-1 (:data:`PDF_STANDARDS`): tagged, titled with its chapter's title, in
English, and every picture carries its alternative text: a figure its words (which are then
not printed under it), a widget's board the alternative text of its HTML snapshot.
"""

from __future__ import annotations

import argparse
import base64
import functools
import html
import json
import re
import shutil
import tempfile
from pathlib import Path

import jinja2
import nbformat
import plotly
import pypandoc
import pypdf
import typst
from nbconvert import HTMLExporter, MarkdownExporter
from strip_solution_markers import strip_markers
from student_edition import clear_solutions, name_the_functions
from traitlets.config import Config

from monopoly_lesson.plots import WORDS_CLASS, figure_words, print_pngs

ROOT = Path(__file__).resolve().parents[1]
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"

# Quarto's order for PDF (Typst) output: Markdown, then images, then plain text.
PRINT_PRIORITY = ["text/markdown", "image/svg+xml", "image/png", "image/jpeg", "text/plain"]
# A printed line of code or output: at most this many characters (10 pt text on A4 with
# 2 cm margins; Typst sets code at 0.8 em in a monospaced font). Longer lines are wrapped.
PRINT_WIDTH = 84
CONTINUED = "\u21aa "  # "↪ ": starts a wrapped line's continuation
# An output of at most this many printed lines fits on a page, so it is never split.
KEEP_LINES = 60
# Typst rules added to every handout: outputs marked "keep" (see fence_output) stay whole;
# a table may break across pages, its header repeated (kept tables are wrapped in an
# unbreakable block: see dataframe_table), rather than leave the rest of a page blank.
TYPST_RULES = """#show raw.where(block: true, lang: "keep"): it => block(breakable: false, it)
#show figure.where(kind: table): set block(breakable: true)
#show table: set text(size: 9pt, number-width: "tabular")
#show table: set par(justify: false)
#set table(inset: (x: 3pt, y: 3pt))
"""
# The Markdown template with outputs in fenced blocks (wrapped, and marked "keep" if short),
# and pictures as Typst images with their alternative text (pandoc's Typst has none).
MARKDOWN_TEMPLATE = """{%- extends 'index.md.j2' -%}
{% block stream %}
{{ output.text | fence_output }}
{% endblock stream %}
{% block data_text scoped %}
{{ output.data['text/plain'] | fence_output }}
{% endblock data_text %}
{% block data_png %}
{{ output | typst_image('image/png') }}
{% endblock data_png %}
{% block data_svg %}
{{ output | typst_image('image/svg+xml') }}
{% endblock data_svg %}
"""
# A pandas DataFrame's HTML (printed as a table, not as pandas' wrapped text).
DATAFRAME = re.compile(r'<table\b[^>]*class="dataframe"')
PLOTLY = "application/vnd.plotly.v1+json"
SVG, MARKDOWN = "image/svg+xml", "text/markdown"
# Figures are printed from their stored data at PRINT_WIDTH pixels (twice the stored PNG's,
# which is sized for a notebook's output area); the image exporter is started once.
print_png = functools.cache(print_pngs)
# pandoc sizes a pipe table's columns by its dashes when a source line is longer than
# this; no line of the lesson is, so Typst sizes each column to its cells.
TABLE_SOURCE_WIDTH = 1000
# How wide a picture (the stepper's board) is printed.
PICTURE_WIDTH = "75%"
# The PDF standard every handout meets: PDF/UA-1 (universal accessibility): tagged, titled,
# in a language, every image with its alternative text (Typst refuses one without).
PDF_STANDARDS = ["ua-1"]
# What the PDF prints in place of folded code.
FOLDED_NOTE = "{summary} (folded: not printed here; it is in the notebook)"
# The lab template, with folded code in a <details> block as Quarto's HTML has it.
HTML_TEMPLATE = """{%- extends 'index.html.j2' -%}
{% block input_group -%}
{%- set fold = cell.metadata.get("code_fold") -%}
{%- if fold -%}
<details class="code-fold"{{ " open" if fold.open }}><summary>{{ fold.summary | e }}</summary>
{{ super() }}
</details>
{%- else -%}
{{ super() }}
{%- endif -%}
{%- endblock input_group %}
"""


# -- what every page carries to pass WCAG 2.1 AA (axe-core's rules) ------------------

CODE_COLOURS = {
    # JupyterLab's light theme where its colour is under 4.5:1 on the code's grey (#f5f5f5)
    # or the prompts' white: the same hue, a little deeper.
    "--jp-mirror-editor-number-color": "#007a00",  # was #080 (4.3:1)
    "--jp-mirror-editor-operator-color": "#9a1fe6",  # was #a2f (4.4:1): `in`, `and`, `=`
    "--jp-mirror-editor-comment-color": "#3c7676",  # was #408080 (4.2:1)
    "--jp-mirror-editor-error-color": "#d40000",  # was #f00 (3.7:1)
    # The prompts (In [1]:, Out[1]:) are those of a cell not being edited: grey, not faded.
    "--jp-cell-prompt-not-active-font-color": "#737373",  # was #616161 at half opacity (2.2:1)
    "--jp-cell-prompt-not-active-opacity": "1",
}
"""Code's colours on the chapters' pages (CSS variables of JupyterLab's theme)."""
PAGE_CSS = (
    "<style>\n:root {\n"
    + "".join(f"  {name}: {colour};\n" for name, colour in CODE_COLOURS.items())
    + """}
/* Links are underlined: told from the text around them by more than their colour. */
.jp-RenderedHTMLCommon a:link, .jp-RenderedHTMLCommon a:visited { text-decoration: underline; }
/* On a narrow screen a long line of code scrolls, rather than being cut off, and a long
   name in the prose breaks, rather than making the paragraph scroll. */
.jp-InputArea-editor { overflow-x: auto; }
.jp-RenderedMarkdown code { overflow-wrap: anywhere; }
</style>
"""
)
"""The chapters' pages' own style, after nbconvert's (JupyterLab's)."""
SCROLLING = """<style>
[data-scrolls]:focus-visible { outline: 2px solid #1565c0; outline-offset: 1px; }
</style>
<script>
// A region that scrolls (a wide table or output, a widget's log, a long line of code on a
// narrow screen) is reached with the keyboard: while it scrolls, it is in the tab order,
// named (a table by its caption or the heading above it), so that the arrow keys scroll it.
(() => {
  const KINDS = [["[class$='-log']", "Log"], [".jp-InputArea-editor", "Code"],
    [".jp-OutputArea-output, .jp-OutputArea-output *", "Output"], ["pre", "Code"]];
  const free = (overflow) => overflow === "auto" || overflow === "scroll";
  const scrolls = (element) => {
    const across = element.scrollWidth > element.clientWidth;
    const down = element.scrollHeight > element.clientHeight;
    if (!across && !down) return false;
    const style = getComputedStyle(element);
    return (across && free(style.overflowX)) || (down && free(style.overflowY));
  };
  const heading = (element) => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
    .filter((h) => h.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING)
    .map((h) => h.innerText.trim()).pop();
  const name = (element) => element.tagName === "TABLE"
    ? element.caption?.innerText.trim() || heading(element) || "Table"
    : KINDS.find(([selector]) => element.matches(selector))?.[1] || "Text";
  const mark = () => {
    for (const element of document.body.querySelectorAll("div, pre, table")) {
      const added = element.dataset.scrolls;
      if (added === undefined && scrolls(element) && !element.hasAttribute("tabindex")) {
        const adding = ["tabindex"];
        element.tabIndex = 0;
        if (element.tagName !== "TABLE" && !element.hasAttribute("role")) {
          element.setAttribute("role", "region");
          adding.push("role");
        }
        if (!element.hasAttribute("aria-label") && !element.hasAttribute("aria-labelledby")) {
          element.setAttribute("aria-label", name(element));
          adding.push("aria-label");
        }
        element.dataset.scrolls = adding.join(" ");
      } else if (added !== undefined && !scrolls(element)) {
        added.split(" ").forEach((attribute) => element.removeAttribute(attribute));
        delete element.dataset.scrolls;
      }
    }
  };
  addEventListener("load", mark);
  addEventListener("resize", mark);
  document.addEventListener("toggle", mark, true);  // a folded block of code opened
})();
</script>
"""
"""Every page's keyboard access to what scrolls (see the script's comment)."""


def chapters(paths: list[str] | None = None) -> list[Path]:
    """The notebooks to render: those given, or every chapter in notebooks/."""
    return [Path(p) for p in paths] if paths else sorted((ROOT / "notebooks").glob("*.ipynb"))


def title_of(notebook: nbformat.NotebookNode, fallback: str) -> str:
    """The chapter title: the first Markdown heading of the notebook."""
    for cell in notebook.cells:
        match = re.search(r"^#\s+(.+)$", cell.source, re.MULTILINE)
        if cell.cell_type == "markdown" and match:
            return match.group(1).strip()
    return fallback


# -- Quarto's cell options -------------------------------------------------------


def cell_options(source: str) -> tuple[dict, str]:
    """A code cell's Quarto options (its leading ``#| key: value`` lines) and the code after.

    Values are read as Quarto's YAML reads these simple ones: ``true``/``false``, numbers
    stay strings, quotes around a string are dropped.
    """
    lines = source.split("\n")
    count = 0
    while count < len(lines) and lines[count].startswith("#|"):
        count += 1
    options: dict = {}
    for line in lines[:count]:
        key, _, value = line[2:].partition(":")
        value = value.strip()
        if value in ("true", "false"):
            options[key.strip()] = value == "true"
        else:
            options[key.strip()] = value.strip("\"'")
    return options, "\n".join(lines[count:])


def apply_cell_options(notebook: nbformat.NotebookNode, target: str) -> None:
    """Honour ``echo: false`` and ``code-fold`` for ``target`` ("html" or "pdf"), in place."""
    cells = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            cells.append(cell)
            continue
        options, cell.source = cell_options(cell.source)
        fold = options.get("code-fold", False)
        if options.get("echo") is False or (fold and target == "pdf"):
            if fold and options.get("echo") is not False:
                summary = options.get("code-summary", "Code")
                cells.append(
                    nbformat.v4.new_markdown_cell(f"*{FOLDED_NOTE.format(summary=summary)}*")
                )
            if not cell.get("outputs"):
                continue  # nothing left to show
            cell.metadata["transient"] = {"remove_source": True}
        elif fold:
            summary = options.get("code-summary", "Code")
            cell.metadata["code_fold"] = {"summary": summary, "open": fold == "show"}
        cells.append(cell)
    notebook.cells = cells


# -- HTML ---------------------------------------------------------------------


EDITIONS = ("instructor", "student")
"""Who a handout is for: the instructor's keep the solutions, the student's do not."""


def read_chapter(path: Path, target: str, edition: str = "instructor") -> nbformat.NotebookNode:
    """A chapter as readers see it in ``target``: no solution markers, cell options applied;
    in the student's edition, placeholders for the solutions (see :func:`without_answers`)."""
    notebook = nbformat.read(path, as_version=4)
    if edition == "student":
        without_answers(notebook)
    notebook = nbformat.from_dict(strip_markers(notebook))
    apply_cell_options(notebook, target)
    return notebook


def without_answers(notebook: nbformat.NotebookNode) -> None:
    """The student edition's placeholders in place of the solutions, and no output in a cell
    whose solution was taken out (it would print the answer)."""
    before = [cell.source for cell in notebook.cells]
    clear_solutions(notebook)
    for cell, source in zip(notebook.cells, before, strict=True):
        if cell.cell_type == "code" and cell.source != source:
            cell.source = name_the_functions(cell.source)
            cell.outputs, cell.execution_count = [], None


@functools.cache
def html_exporter() -> HTMLExporter:
    """The pages' exporter, made once: its templates are compiled at its first page."""
    return HTMLExporter(
        template_name="lab",
        template_file="handout.html.j2",
        extra_loaders=[jinja2.DictLoader({"handout.html.j2": HTML_TEMPLATE})],
    )


def build_html(path: Path, out: Path, edition: str = "instructor") -> Path:
    """One chapter as a self-contained HTML page that loads plotly.js from beside it."""
    notebook = read_chapter(path, "html", edition)
    notebook.metadata["title"] = title_of(notebook, path.stem)  # the page's <title>
    body, _ = html_exporter().from_notebook_node(notebook)
    # Load plotly.js first, before any AMD loader, and drop scripts from other hosts
    # (require.js and MathJax: the lesson's pages need neither).
    body = re.sub(r'<script[^>]+src="https?://[^"]*"[^>]*>\s*</script>', "", body)
    body = body.replace("<head>", '<head>\n<script src="plotly.min.js"></script>', 1)
    body = body.replace("</head>", f"{PAGE_CSS}{SCROLLING}</head>", 1)
    target = out / f"{path.stem}.html"
    target.write_text(body, encoding="utf-8")
    return target


def build_index(pages: list[tuple[str, Path]], out: Path) -> Path:
    """A contents page linking every chapter."""
    items = "\n".join(
        f'<li><a href="{page.name}">{html.escape(title)}</a></li>' for title, page in pages
    )
    index = out / "index.html"
    index.write_text(
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<title>Monopoly lesson</title>"
        f"</head><body><h1>Which Monopoly spaces are landed on most?</h1><ol>{items}</ol>"
        "</body></html>",
        encoding="utf-8",
    )
    return index


# -- PDF ----------------------------------------------------------------------


def wrap_line(line: str, width: int = PRINT_WIDTH) -> list[str]:
    """A line of code or output as printed lines of at most ``width`` characters.

    Lines break after a space where there is one; each continuation starts under the
    line's own indentation with ``CONTINUED``, so the indentation of Python stays readable.
    """
    indent = line[: len(line) - len(line.lstrip(" "))]
    lead = indent + CONTINUED if len(indent) < width // 2 else CONTINUED
    printed, rest = [], line
    while len(rest) > width:
        floor = len(lead) if printed else len(indent)
        cut = rest.rfind(" ", floor + 1, width)
        cut = width if cut == -1 else cut + 1
        printed.append(rest[:cut].rstrip())
        rest = lead + rest[cut:].lstrip()
    printed.append(rest)
    return printed


def wrap_text(text: str, width: int = PRINT_WIDTH) -> str:
    """Every line of ``text`` wrapped with :func:`wrap_line`."""
    return "\n".join(part for line in text.split("\n") for part in wrap_line(line, width))


def fence_output(text: str) -> str:
    """An output as a fenced block for print: wrapped, and marked "keep" if it fits a page."""
    wrapped = wrap_text(text.rstrip("\n"))
    kind = "keep" if wrapped.count("\n") < KEEP_LINES else "text"
    return f"````{kind}\n{wrapped}\n````"


@functools.cache
def dataframe_table(html_text: str) -> str:
    """A pandas DataFrame's HTML as a Typst table for print, in a raw block of Markdown.

    Its text would be pandas' own, which splits a frame wider than 80 characters into
    blocks of columns, each line but the last ending in a backslash. The index columns
    are aligned left and the values right, a label over several columns centred; a table
    that fits a page is kept whole.
    """
    table = pypandoc.convert_text(html_text, "typst", format="html")
    first_row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", html_text, re.DOTALL)
    index = len(re.findall(r"<th\b", first_row.group(1))) if first_row else 0

    def aligned(match: re.Match) -> str:
        columns = match.group(1).count(",")
        return f"align: ({', '.join(['left'] * index + ['right'] * (columns - index))})"

    table = re.sub(r"align: \(((?:auto,)+)\)", aligned, table, count=1)
    if "colspan" in table:  # labels over groups of columns: centred, over equal columns

        def spread(match: re.Match) -> str:
            return f"columns: ({'auto, ' * index}{'1fr, ' * (int(match.group(1)) - index)}),"

        table = re.sub(r"columns: (\d+),", spread, table, count=1)
        table = re.sub(
            r"table\.cell\(colspan: (\d+)\)", r"table.cell(colspan: \1, align: center)", table
        )
    rows = html_text.count("<tr")
    if rows < KEEP_LINES:
        table = f"#block(breakable: false)[\n{table}\n]"
    return f"```{{=typst}}\n{table}\n```"


def prepare_for_print(notebook: nbformat.NotebookNode) -> None:
    """Wrap code for paper, print each picture-with-text output as picture, then text, each
    DataFrame as a table (:func:`dataframe_table`), and each figure as a PNG made for paper
    from its stored data (:func:`~monopoly_lesson.plots.print_pngs`), where it can be.

    Every picture carries its alternative text (``metadata["alt"]``): a figure its words
    (:func:`~monopoly_lesson.plots.figure_words`), which are then not printed again under
    it; a widget's board the alternative text of its HTML snapshot's picture.
    """
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        cell.source = wrap_text(cell.source)
        outputs = []
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            html_text = "".join(data.get("text/html", ""))
            if "image/svg+xml" in data and "text/markdown" in data:
                picture = {**output, "metadata": {"alt": picture_alt(html_text, data)}}
                outputs.append(nbformat.from_dict({**picture, "data": {SVG: data[SVG]}}))
                outputs.append(nbformat.from_dict({**output, "data": {MARKDOWN: data[MARKDOWN]}}))
            elif DATAFRAME.search(html_text):
                table = {"text/markdown": dataframe_table(html_text)}
                outputs.append(nbformat.from_dict({**output, "data": table}))
            elif PLOTLY in data:
                figure = data[PLOTLY]
                image = print_image(json.dumps(figure))
                png = base64.b64encode(image).decode() if image else data.get("image/png")
                shown = {"image/png": png} if png else data
                alt = {"alt": figure_alt(figure)}
                outputs.append(nbformat.from_dict({**output, "data": shown, "metadata": alt}))
            elif WORDS_CLASS not in html_text:  # a figure's words are its picture's alt text
                outputs.append(output)
        cell.outputs = outputs


def figure_alt(figure: dict) -> str:
    """A figure's alternative text on paper: its words, the sentence and the description
    (the plain title where a figure has none)."""
    words = figure_words(figure)
    if words:
        return f"{words['alt']} {words['description']}"
    title = figure.get("layout", {}).get("title", {})
    return f"A figure: {title.get('text', 'untitled') if isinstance(title, dict) else title}"


def picture_alt(html_text: str, data: dict) -> str:
    """A widget's picture's alternative text: that of the picture in its HTML snapshot that
    the SVG names (``aria-label="Monopoly board"``: "The Monopoly board: Player 1 on ..."),
    else the SVG's name."""
    named = re.search(r'<svg\b[^>]*?\baria-label="([^"]*)"', "".join(data.get(SVG, "")))
    name = html.unescape(named.group(1)) if named else ""
    alts = [html.unescape(alt) for alt in re.findall(r'<img\b[^>]*?\balt="([^"]*)"', html_text)]
    return next((alt for alt in alts if name and name.lower() in alt.lower()), name or "A picture")


def typst_string(text: str) -> str:
    """``text`` as a Typst string literal (one line)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + " ".join(escaped.split()) + '"'


def typst_image(output: nbformat.NotebookNode, kind: str) -> str:
    """An output's picture as a Typst image in the Markdown, with its alternative text (the
    output's ``metadata["alt"]``): pandoc's Typst writer drops an image's alt text. A block
    of its own, so that the text after it starts a paragraph below it; a picture (SVG: the
    stepper's board) is printed :data:`PICTURE_WIDTH` wide."""
    path = output.metadata["filenames"][kind]
    sized = f", width: {PICTURE_WIDTH}" if kind == SVG else ""
    alt = output.metadata.get("alt") or "A picture"
    return (
        f"```{{=typst}}\n#block(image({typst_string(path)}{sized}, alt: {typst_string(alt)}))\n```"
    )


@functools.cache
def print_image(figure: str) -> bytes | None:
    """A stored figure's PNG for print, from its JSON (None where none can be made); made
    once a build, as both editions print the same figures."""
    png = print_png()
    return png(json.loads(figure)) if png else None


@functools.cache
def markdown_exporter() -> MarkdownExporter:
    """The handouts' Markdown exporter, made once (its templates compiled once)."""
    config = Config()
    config.NbConvertBase.display_data_priority = PRINT_PRIORITY
    return MarkdownExporter(
        config=config,
        template_file="handout.md.j2",
        extra_loaders=[jinja2.DictLoader({"handout.md.j2": MARKDOWN_TEMPLATE})],
        filters={"fence_output": fence_output, "typst_image": typst_image},
    )


def chapter_markdown(path: Path, edition: str = "instructor") -> tuple[str, dict]:
    """A chapter as Markdown for print, with the images it refers to (under media/)."""
    notebook = read_chapter(path, "pdf", edition)
    prepare_for_print(notebook)
    markdown, resources = markdown_exporter().from_notebook_node(
        notebook, resources={"output_files_dir": "media"}
    )
    return markdown, resources


def build_pdf(path: Path, out: Path, edition: str = "instructor") -> Path:
    """One chapter as a PDF handout: notebook -> Markdown -> Typst -> PDF."""
    markdown, resources = chapter_markdown(path, edition)
    title = title_of(nbformat.read(path, as_version=4), path.stem)
    return typeset(markdown, resources, out / f"{path.stem}.pdf", title)


def typeset(markdown: str, resources: dict, target: Path, title: str) -> Path:
    """Markdown (with the images it refers to) -> Typst -> the PDF ``target``, a PDF/UA-1
    document titled ``title`` (its first heading prints it; the title is the PDF's own)."""
    with tempfile.TemporaryDirectory() as work:
        work_dir = Path(work)
        (work_dir / "media").mkdir()
        for name, data in resources.get("outputs", {}).items():
            (work_dir / name).write_bytes(data)
        (work_dir / "chapter.md").write_text(markdown, encoding="utf-8")
        (work_dir / "rules.typ").write_text(TYPST_RULES, encoding="utf-8")
        # The document's title, set at the top of the body: pandoc's template sets its own
        # (none) after the header, and printing one would repeat the chapter's heading.
        (work_dir / "title.typ").write_text(
            f"#set document(title: {typst_string(title)})\n", encoding="utf-8"
        )
        pypandoc.convert_file(
            str(work_dir / "chapter.md"),
            "typst",
            format="markdown",
            outputfile=str(work_dir / "chapter.typ"),
            extra_args=[
                "--standalone",
                f"--include-in-header={work_dir / 'rules.typ'}",
                f"--include-before-body={work_dir / 'title.typ'}",
                "--variable=papersize:a4",
                "--variable=margin.x:2cm",
                "--variable=margin.y:2cm",
                "--variable=fontsize:10pt",
                # A pipe table's columns as wide as their cells (Typst's auto columns), not
                # in the proportions of its dashes, which wrapped "Mediterranean Avenue".
                f"--columns={TABLE_SOURCE_WIDTH}",
            ],
        )
        typst.compile(
            str(work_dir / "chapter.typ"), output=str(target), pdf_standards=PDF_STANDARDS
        )
    return target


def rules_pages() -> list[Path]:
    """The lesson's Markdown pages beside the chapters (the rules pages: the book's
    appendices), README.md aside."""
    return [p for p in sorted((ROOT / "notebooks").glob("*.md")) if p.name != "README.md"]


def build_page(page: Path, root: Path) -> tuple[str, Path, Path]:
    """A rules page as an HTML page and a PDF handout: ``(title, html, pdf)``."""
    text = page.read_text(encoding="utf-8")
    title = next(
        (line[2:].strip() for line in text.splitlines() if line.startswith("# ")), page.stem
    )
    html_page = root / "html" / f"{page.stem}.html"
    pypandoc.convert_text(
        text,
        "html",
        format="markdown",
        outputfile=str(html_page),
        extra_args=[
            "--standalone",
            f"--metadata=pagetitle:{title}",
            "--metadata=lang:en",
            f"--variable=header-includes:{SCROLLING}",  # its wide tables scroll
        ],
    )
    return title, html_page, typeset(text, {}, root / "pdf" / f"{page.stem}.pdf", title)


def pdf_pages(pdf: Path) -> int:
    """Number of pages of a PDF."""
    return len(pypdf.PdfReader(pdf).pages)


def main(argv: list[str] | None = None) -> None:
    """Build the HTML pages and PDF handouts of the given notebooks (default: all)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks (default: notebooks/*.ipynb)")
    parser.add_argument("--out", default=str(ROOT / "_handouts"), help="output folder")
    parser.add_argument(
        "--edition",
        choices=("both", *EDITIONS),
        default="both",
        help="the instructor's (solutions), the student's, or both",
    )
    args = parser.parse_args(argv)
    out = Path(args.out)
    for edition in EDITIONS if args.edition == "both" else (args.edition,):
        build_edition(chapters(args.notebooks), edition, out)


def build_edition(paths: list[Path], edition: str, out: Path) -> None:
    """One edition's pages and PDFs: the instructor's in ``out``, the student's in
    ``out/student``."""
    root = out / "student" if edition == "student" else out
    (root / "html").mkdir(parents=True, exist_ok=True)
    (root / "pdf").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PLOTLY_JS, root / "html" / "plotly.min.js")
    pages = []
    for path in paths:
        page = build_html(path, root / "html", edition)
        pdf = build_pdf(path, root / "pdf", edition)
        title = title_of(nbformat.read(path, as_version=4), path.stem)
        pages.append((title, page))
        print(
            f"{edition}: {path.name}: {page.relative_to(out)}, {pdf.relative_to(out)} "
            f"({pdf_pages(pdf)} pages)"
        )
    for source in rules_pages():
        title, page, pdf = build_page(source, root)
        pages.append((title, page))
        print(
            f"{edition}: {source.name}: {page.relative_to(out)}, {pdf.relative_to(out)} "
            f"({pdf_pages(pdf)} pages)"
        )
    build_index(pages, root / "html")


if __name__ == "__main__":
    main()
