"""Money reads as money: a dollar sign in the lesson's prose is never the start of maths.

JupyterLab, Quarto (pandoc) and the HTML handouts (nbconvert) read ``$...$`` as TeX maths,
so two amounts in one paragraph would show in italics as a formula. Every dollar sign in
Markdown is written ``\\$``, which all three show as a plain dollar sign.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks").glob("*.md"))
BARE_DOLLAR = re.compile(r"(?<!\\)\$")


def markdown_of(path: Path) -> list[str]:
    """The Markdown texts of a chapter (its Markdown cells) or of a page."""
    if path.suffix == ".ipynb":
        notebook = nbformat.read(path, as_version=4)
        return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    return [path.read_text()]


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
def test_every_dollar_sign_in_prose_is_escaped(path):
    bare = [
        text[max(0, m.start() - 30) : m.start() + 10].replace("\n", " ")
        for text in markdown_of(path)
        for m in BARE_DOLLAR.finditer(text)
    ]
    assert not bare, f"{path.name}: write \\$ for a dollar sign, here: {bare[:5]}"


def test_escaped_amounts_read_as_money_in_the_html_pages():
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    html = markdown2html_mistune(r"Start with \$1,500 and collect **\$200** at Go, pay \$50.")
    assert "<strong>$200</strong>" in html and "$1,500" in html and "**" not in html
    bare = markdown2html_mistune("Start with $1,500 and collect **$200** at Go, pay $50.")
    assert "**$200**" in bare  # what an unescaped page showed
