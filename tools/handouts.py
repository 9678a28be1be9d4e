"""Render the lesson to HTML pages and PDF handouts without Quarto (``make handouts``).

It uses the engines Quarto drives, on the notebooks' stored outputs (nothing is
executed): nbconvert for the HTML pages, and pandoc with Typst for the PDFs. Each output
is chosen the way Quarto chooses it: in HTML the interactive figure and the widget's
HTML snapshot; in PDF the figure's PNG and the widget's Markdown snapshot.

    python tools/handouts.py [--out _handouts] [NOTEBOOK ...]

writes ``_handouts/html/NN_name.html`` (with a local copy of plotly.js, so the pages need
no network) and ``_handouts/pdf/NN_name.pdf``.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import nbformat
import plotly
import pypandoc
import typst
from nbconvert import HTMLExporter, MarkdownExporter
from strip_solution_markers import strip_markers
from traitlets.config import Config

ROOT = Path(__file__).resolve().parents[1]
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"

# Quarto's order for PDF (Typst) output: Markdown, then images, then plain text.
PRINT_PRIORITY = ["text/markdown", "image/svg+xml", "image/png", "image/jpeg", "text/plain"]


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


# -- HTML ---------------------------------------------------------------------


def read_chapter(path: Path) -> nbformat.NotebookNode:
    """A chapter as readers see it: without the student edition's solution markers."""
    notebook = nbformat.read(path, as_version=4)
    return nbformat.from_dict(strip_markers(notebook))


def build_html(path: Path, out: Path) -> Path:
    """One chapter as a self-contained HTML page that loads plotly.js from beside it."""
    notebook = read_chapter(path)
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(notebook)
    # Load plotly.js first, before any AMD loader, and drop scripts from other hosts
    # (require.js and MathJax: the lesson's pages need neither).
    body = re.sub(r'<script[^>]+src="https?://[^"]*"[^>]*>\s*</script>', "", body)
    body = body.replace("<head>", '<head>\n<script src="plotly.min.js"></script>', 1)
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
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Monopoly lesson</title>"
        f"</head><body><h1>Which Monopoly spaces are landed on most?</h1><ol>{items}</ol>"
        "</body></html>",
        encoding="utf-8",
    )
    return index


# -- PDF ----------------------------------------------------------------------


def build_pdf(path: Path, out: Path) -> Path:
    """One chapter as a PDF handout: notebook -> Markdown -> Typst -> PDF."""
    notebook = read_chapter(path)
    config = Config()
    config.NbConvertBase.display_data_priority = PRINT_PRIORITY
    markdown, resources = MarkdownExporter(config=config).from_notebook_node(
        notebook, resources={"output_files_dir": "media"}
    )
    markdown = re.sub(r"!\[[^\]]*\]\((media/[^)]+)\)", r"![](\1)", markdown)  # no "png" captions
    with tempfile.TemporaryDirectory() as work:
        work_dir = Path(work)
        (work_dir / "media").mkdir()
        for name, data in resources.get("outputs", {}).items():
            (work_dir / name).write_bytes(data)
        (work_dir / "chapter.md").write_text(markdown, encoding="utf-8")
        pypandoc.convert_file(
            str(work_dir / "chapter.md"),
            "typst",
            format="markdown",
            outputfile=str(work_dir / "chapter.typ"),
            extra_args=[
                "--standalone",
                "--variable=papersize:a4",
                "--variable=margin.x:2cm",
                "--variable=margin.y:2cm",
                "--variable=fontsize:10pt",
            ],
        )
        target = out / f"{path.stem}.pdf"
        typst.compile(str(work_dir / "chapter.typ"), output=str(target))
    return target


def pdf_pages(pdf: Path) -> int:
    """Number of pages of a PDF (poppler's pdfinfo)."""
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    return int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.MULTILINE).group(1))


def main(argv: list[str] | None = None) -> None:
    """Build the HTML pages and PDF handouts of the given notebooks (default: all)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks (default: notebooks/*.ipynb)")
    parser.add_argument("--out", default=str(ROOT / "_handouts"), help="output folder")
    args = parser.parse_args(argv)
    out = Path(args.out)
    (out / "html").mkdir(parents=True, exist_ok=True)
    (out / "pdf").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PLOTLY_JS, out / "html" / "plotly.min.js")
    pages = []
    for path in chapters(args.notebooks):
        page = build_html(path, out / "html")
        pdf = build_pdf(path, out / "pdf")
        title = title_of(nbformat.read(path, as_version=4), path.stem)
        pages.append((title, page))
        print(
            f"{path.name}: {page.relative_to(out)}, {pdf.relative_to(out)} ({pdf_pages(pdf)} pages)"
        )
    build_index(pages, out / "html")


if __name__ == "__main__":
    main()
