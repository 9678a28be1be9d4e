"""_quarto.yml: a book of every chapter, in reading order, rendered from stored outputs."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "_quarto.yml").read_text())
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

# The options this project uses, each checked against Quarto's own schema
# (src/resources/schema in quarto-cli). A new key must be looked up there first.
KNOWN = {
    "project": {"type", "output-dir", "render"},
    "book": {"title", "subtitle", "author", "date", "output-file", "downloads", "search",
             "chapters"},
    "execute": {"enabled"},
    "html": {"theme", "toc", "number-sections", "code-copy", "code-overflow", "fig-responsive"},
    "typst": {"toc", "number-sections", "papersize", "margin", "fontsize"},
}  # fmt: skip


def test_only_known_options():
    assert set(CONFIG) <= {"project", "book", "execute", "format", "quarto-required",
                           "ipynb-filters"}  # fmt: skip
    for section in ("project", "book", "execute"):
        assert set(CONFIG[section]) <= KNOWN[section], section
    assert set(CONFIG["format"]) == {"html", "typst"}
    for name, options in CONFIG["format"].items():
        assert set(options) <= KNOWN[name], name


def test_chapters_are_every_notebook_in_reading_order():
    chapters = CONFIG["book"]["chapters"]
    assert chapters[0] == "index.qmd" and (ROOT / "index.qmd").exists()
    assert chapters[1:] == [f"notebooks/{p.name}" for p in NOTEBOOKS]


def test_book_renders_stored_outputs_only():
    assert CONFIG["project"]["type"] == "book"
    assert CONFIG["execute"]["enabled"] is False


def test_rendered_output_is_not_committed():
    ignored = (ROOT / ".gitignore").read_text().split()
    assert f"{CONFIG['project']['output-dir']}/" in ignored and "_handouts/" in ignored


def test_the_markers_filter_exists_beside_each_chapter():
    for script in CONFIG["ipynb-filters"]:
        assert (ROOT / "notebooks" / script).resolve().is_file(), script
