"""Shared fixtures: an empty tally, Chromium for the browser tests, a failed test's report."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

from monopoly_lesson import SpaceTracker


@pytest.fixture
def empty_counts() -> pd.Series:
    """A Series of 40 zeros indexed 1..40."""
    return SpaceTracker().counts


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


CHROMIUM = shutil.which("chromium")
NEEDS_CHROMIUM = "needs Chromium: sudo apt-get install chromium"
"""The one reason given for every test skipped on a machine without Chromium."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Without Chromium, skip every test that drives it (those using ``browser``), saying why."""
    if CHROMIUM:
        return
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.skip(reason=NEEDS_CHROMIUM))


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright (nothing downloads a browser)."""
    if not CHROMIUM:
        pytest.skip(NEEDS_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield chromium
        chromium.close()
