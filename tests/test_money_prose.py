"""Money reads as money: a dollar sign in the lesson's prose never starts maths.

JupyterLab, Quarto (pandoc) and the HTML handouts (nbconvert) read ``$...$`` as TeX maths,
so two amounts in one paragraph would show in italics as a formula. pandoc and nbconvert
take ``\\$`` as a plain dollar sign; JupyterLab does not (its MathJax still pairs the two
dollar signs of the rendered text), but MathJax never pairs them across an element's
edge. So every amount is written ``<span>\\$200</span>``, which every renderer shows as
$200 (``tests/test_browser.py`` checks JupyterLab itself).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks").glob("*.md"))
AMOUNT = re.compile(r"<span>\\\$\d[\d,]*(?:\.\d+)?</span>")


def markdown_of(path: Path) -> list[str]:
    """The Markdown texts of a chapter (its Markdown cells) or of a page."""
    if path.suffix == ".ipynb":
        notebook = nbformat.read(path, as_version=4)
        return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    return [path.read_text()]


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
def test_every_dollar_sign_in_prose_is_an_amount_of_its_own(path):
    bare = [
        text[max(0, m.start() - 30) : m.start() + 10].replace("\n", " ")
        for text in markdown_of(path)
        for m in re.finditer(r"\$", AMOUNT.sub("", text))
    ]
    assert not bare, f"{path.name}: write <span>\\$200</span> for an amount, here: {bare[:5]}"


def test_amounts_read_as_money_in_the_html_pages_and_the_pdfs():
    import pypandoc
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    text = (
        r"Start with <span>\$1,500</span>, collect **<span>\$200</span>**, pay <span>\$50</span>."
    )
    html = markdown2html_mistune(text)
    assert "<strong><span>$200</span></strong>" in html and "<span>$1,500</span>" in html
    assert pypandoc.convert_text(text, "typst", format="markdown").strip() == (
        r"Start with \$1,500, collect #strong[\$200], pay \$50."
    )
    bare = markdown2html_mistune("Start with $1,500, collect **$200**, pay $50.")
    assert "**$200**" in bare  # what an unescaped page showed
