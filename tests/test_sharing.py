"""How ``make test`` shares the suite among pytest-xdist's workers (the root conftest.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("sharing", ROOT / "conftest.py")
sharing = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sharing)


def test_a_notebooks_cells_run_together_in_one_group():
    cells = [f"notebooks/09_whole_game.ipynb::Cell {n}" for n in (0, 1, 17)]
    assert {sharing.group_of(cell) for cell in cells} == {"notebooks/09_whole_game.ipynb"}


def test_a_module_runs_whole_in_one_group_so_its_fixtures_are_built_once():
    tests = [
        "tests/test_handouts.py::test_pdf_handout[00_welcome]",
        "tests/test_handouts.py::test_html_page[01_moving_around]",
    ]
    assert {sharing.group_of(test) for test in tests} == {"tests/test_handouts.py"}
    doctest = "monopoly_lesson/fast.py::monopoly_lesson.fast.play"
    assert sharing.group_of(doctest) == "monopoly_lesson/fast.py"


def test_long_tests_are_shared_out_apart_from_their_module():
    second = "tests/test_other_processor.py::test_stored_outputs_under_a_second_openblas_kernel"
    assert sharing.group_of(f"{second}[00_welcome.ipynb]") != sharing.group_of(
        f"{second}[09_whole_game.ipynb]"
    )
    stored = "tests/test_check_chapters.py::test_a_chapter_as_stored_passes"
    assert sharing.group_of(f"{stored}[9]") == sharing.group_of(f"{stored}[12]") == stored
    assert sharing.group_of("tests/test_check_chapters.py::test_what_each_chapter_grades") != stored


def test_every_module_named_for_sharing_exists():
    """A renamed module would silently be shared out whole: every name must be found."""
    for path in sharing.EACH_TEST | sharing.EACH_FUNCTION:
        assert (ROOT / path).is_file(), path
