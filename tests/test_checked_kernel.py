"""A kernel run by the grader's check knows it (``MONOPOLY_LESSON_CHECKED``) and draws its
figures without PNG images, even where Chromium would make them: starting the image
exporter's browser cost a check of chapter 6 more than a minute."""

import plotly.io as pio
import pytest

from monopoly_lesson import plots
from monopoly_lesson.checker.checked_kernel import CHECKED_ENV, is_checked


@pytest.fixture
def chromium(monkeypatch):
    """A machine with Chromium on PATH, whose image exporter would start (and is counted)."""
    started = []
    monkeypatch.setattr(plots, "_chrome_available", lambda: True)
    monkeypatch.setattr(plots, "_start_exporter", lambda: started.append(1) or True)
    monkeypatch.setattr(pio.renderers, "default", pio.renderers.default)
    return started


def test_a_checked_kernel_draws_no_png_with_chromium_on_path(chromium, monkeypatch):
    monkeypatch.setenv(CHECKED_ENV, "1")
    monkeypatch.setenv(plots.PNG_ENV, "1")  # even where PNGs are asked for
    assert is_checked()
    assert plots.setup_figures() == "monopoly"
    assert chromium == [], "the image exporter was started"


def test_outside_a_check_chromium_still_gives_a_png(chromium, monkeypatch):
    monkeypatch.delenv(CHECKED_ENV, raising=False)
    monkeypatch.setenv(plots.PNG_ENV, "1")  # where notebooks are executed to be stored
    assert not is_checked()
    assert plots.setup_figures() == "monopoly_png"
    assert chromium == [1]


@pytest.mark.parametrize("value", ["", "0"])
def test_an_empty_or_zero_variable_is_not_a_check(monkeypatch, value):
    monkeypatch.setenv(CHECKED_ENV, value)
    assert not is_checked()


def test_nbformat_and_plotlys_renderers_are_imported_without_the_slow_optional_module():
    """It builds a grammar for seconds at import; the module stays importable afterwards."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from monopoly_lesson.checker.checked_kernel import SLOW_OPTIONAL, import_quickly\n"
        "import_quickly('nbformat'); import_quickly('plotly.io._renderers')\n"
        "import jsonschema, nbformat\n"
        "print(SLOW_OPTIONAL in sys.modules, 'nbformat' in sys.modules)\n"
        "import importlib.util\n"
        "print(importlib.util.find_spec(SLOW_OPTIONAL) is not None)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded, importable = done.stdout.splitlines()
    assert loaded == "False True"
    assert importable in ("True", "False")  # False only where it is not installed
