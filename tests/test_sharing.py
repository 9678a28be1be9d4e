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
    assert sharing.group_of(f"{second}[chapters 0 to 8]") != sharing.group_of(
        f"{second}[chapters 9 to 12]"
    )
    stored = "tests/test_check_chapters.py::test_a_chapter_as_stored_passes"
    assert sharing.group_of(f"{stored}[9]") == sharing.group_of(f"{stored}[12]") == stored
    assert sharing.group_of("tests/test_check_chapters.py::test_what_each_chapter_grades") != stored


def test_every_module_named_for_sharing_exists():
    """A renamed module would silently be shared out whole: every name must be found."""
    for path in sharing.EACH_TEST | sharing.EACH_FUNCTION:
        assert (ROOT / path).is_file(), path


def test_the_measured_durations_name_groups_of_this_suite():
    """A group renamed or removed would keep a stale entry: every entry is a file here."""
    durations = sharing.measured_durations()
    assert len(durations) > 100
    for group in durations:
        assert (ROOT / group.split("::")[0]).is_file(), group
        assert sharing.group_of(group) == group, group


def test_store_durations_adds_up_each_groups_phases(tmp_path, monkeypatch):
    from types import SimpleNamespace

    monkeypatch.setattr(sharing, "DURATIONS", tmp_path / "durations.json")
    recorder = sharing.DurationRecorder()
    cell = "notebooks/09_whole_game.ipynb::Cell {}"
    for nodeid, seconds in [
        (cell.format(0), 1.25),
        (cell.format(1), 2.0),
        ("tests/test_cli.py::test_help", 0.04),
        ("tests/test_cli.py::test_help", 0.02),
    ]:
        recorder.pytest_runtest_logreport(SimpleNamespace(nodeid=nodeid, duration=seconds))
    recorder.pytest_sessionfinish()
    assert sharing.measured_durations() == {
        "notebooks/09_whole_game.ipynb": 3.2,
        "tests/test_cli.py": 0.1,
    }
