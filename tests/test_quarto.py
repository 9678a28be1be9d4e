"""_quarto.yml: a book of every chapter, in reading order, rendered from stored outputs."""

import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "_quarto.yml").read_text())
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

# The options this project uses, each checked against Quarto's own schema
# (src/resources/schema in quarto-cli). A new key must be looked up there first.
KNOWN = {
    "project": {"type", "output-dir", "render"},
    "book": {
        "title",
        "subtitle",
        "author",
        "date",
        "output-file",
        "downloads",
        "search",
        "chapters",
        "appendices",
    },
    "execute": {"enabled"},
    "html": {"theme", "toc", "number-sections", "code-copy", "code-overflow", "fig-responsive"},
    "typst": {"toc", "number-sections", "papersize", "margin", "fontsize"},
}


def test_only_known_options():
    assert set(CONFIG) <= {
        "project",
        "book",
        "execute",
        "format",
        "quarto-required",
        "ipynb-filters",
    }
    for section in ("project", "book", "execute"):
        assert set(CONFIG[section]) <= KNOWN[section], section
    assert set(CONFIG["format"]) == {"html", "typst"}
    for name, options in CONFIG["format"].items():
        assert set(options) <= KNOWN[name], name


def test_chapters_are_every_notebook_in_reading_order():
    chapters = CONFIG["book"]["chapters"]
    assert chapters[0] == "index.qmd" and (ROOT / "index.qmd").exists()
    assert chapters[1:] == [f"notebooks/{p.name}" for p in NOTEBOOKS]


PAGES = {
    "notebooks/rules.md": (
        "The board",
        "The decks",
        "One turn",
        "Resolve a landing",
        "Jail",
        "Scenarios",
        "The lesson's simulation",
        "Trends",
        "Variants",
    ),
    "notebooks/game_rules.md": (
        "Players, money and the end of the game",
        "The lots",
        "Landing on a lot",
        "The cards",
        "Jail",
        "Buildings, mortgages and debt",
        "Strategies: what a player decides",
        "Trading (an option of the game)",
        "The genetic-algorithm players",
    ),
}


def test_the_rules_pages_are_the_appendices_and_are_rendered():
    assert CONFIG["book"]["appendices"] == list(PAGES)
    for page, sections in PAGES.items():
        assert page in CONFIG["project"]["render"]
        text = (ROOT / page).read_text()
        for section in sections:
            assert f"\n## {section}\n" in text, (page, section)


def unescaped_dollars(text: str) -> int:
    """How many ``$`` of Markdown ``text`` are not escaped as ``\\$``."""
    return len(re.findall(r"(?<!\\)\$", text))


@pytest.mark.parametrize("page", list(PAGES))
def test_no_money_on_the_rules_pages_reads_as_maths(page):
    """Two ``$`` in one paragraph or list may pair up as TeX maths: every dollar of the
    rules pages is escaped (amounts are written ``<span>\\$200</span>``, see
    tests/test_money_prose.py), and pandoc, which Quarto drives, reads no maths there."""
    text = (ROOT / page).read_text()
    assert unescaped_dollars(text) == 0
    pypandoc = pytest.importorskip("pypandoc")
    assert '"Math"' not in pypandoc.convert_text(text, "json", format="markdown")


def test_the_dollar_checks_can_fail():
    assert unescaped_dollars("pay $25 per house, \\$100 per hotel, $5") == 2
    pypandoc = pytest.importorskip("pypandoc")
    assert '"Math"' in pypandoc.convert_text("pay $25 and 5$ more", "json", format="markdown")


# Quarto's cell options that the chapters use (quarto-cli's schema, cell-codeoutput.yml),
# with the values this project gives them.
CELL_OPTIONS = {
    "echo": lambda value: value is False,  # set-up cells: hidden in the book
    "code-fold": lambda value: value is True,  # code carried over from the previous chapter
    "code-summary": lambda value: isinstance(value, str) and value.strip() != "",
}


def test_cell_options_are_known_and_at_the_top_of_their_cell():
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text())["cells"]:
            lines = "".join(cell["source"]).split("\n")
            options = [line for line in lines if line.startswith("#|")]
            if cell["cell_type"] != "code":
                assert not options, f"{path.name}: a cell option outside a code cell"
                continue
            assert lines[: len(options)] == options, f"{path.name}: options must come first"
            for key, value in (yaml.safe_load(o[2:]).popitem() for o in options):
                assert key in CELL_OPTIONS and CELL_OPTIONS[key](value), (path.name, key, value)
            if "#| code-summary" in "".join(options):
                assert "#| code-fold: true" in options, f"{path.name}: a summary without a fold"


def test_the_preface_lists_every_chapter_by_its_heading():
    import nbformat

    preface = (ROOT / "index.qmd").read_text()
    for path in NOTEBOOKS:
        heading = nbformat.read(path, as_version=4).cells[0].source.splitlines()[0]
        title = heading.removeprefix("# ").split(":")[0]  # the short title, before a colon
        assert f"| {title} |" in preface, path.name
