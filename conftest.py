"""How the test suite is shared among pytest-xdist's workers (``make test`` runs it in parallel).

Each test module runs whole in one worker, so that its module fixtures (a JupyterLab server,
games played once, a student edition written once) are built once; a notebook's cells run
in order in one worker and one kernel, as nbval needs. The tests of a few long modules, named
below, are shared out apart. The longest groups are handed out first, so that no
worker is left with a long one at the end while the other idles.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

EACH_TEST = frozenset({"tests/test_other_processor.py"})
"""Modules whose tests go to the workers one by one (each is long; they share no fixture)."""
EACH_FUNCTION = frozenset({"tests/test_check_chapters.py"})
"""Modules whose test functions go to the workers one by one, each with its parameters (a
module fixture is built once per function that uses it, in its worker)."""
DURATIONS = Path(__file__).parent / "tests" / "durations.json"
"""Each group's seconds in a whole run (``pytest --store-durations`` writes them): the order
in which the groups are handed out. A group not listed there costs the guesses below."""
SECONDS_PER_CELL = 2.0
"""A notebook cell's rough cost, in seconds, for handing out the longest groups first."""
SECONDS_SLOW = 20.0
"""A test marked ``slow`` (a long statistical run, a whole notebook under another kernel)."""
SECONDS_BROWSER = 20.0
"""A test driving the lesson in Chromium."""
SECONDS_OTHER = 0.3
"""Any other test."""


def group_of(nodeid: str) -> str:
    """The group a test runs in, whole in one worker: its file (a module, a notebook), or
    the test or its function alone (``EACH_TEST``, ``EACH_FUNCTION``)."""
    path, _, rest = nodeid.partition("::")
    function = f"{path}::{rest.split('[', 1)[0]}"
    if path in EACH_TEST:
        return nodeid
    if path in EACH_FUNCTION:
        return function
    return path


def cost(item: pytest.Item) -> float:
    """A rough guess of ``item``'s run time in seconds (only the order of groups depends on it)."""
    if item.nodeid.split("::", 1)[0].endswith(".ipynb"):
        return SECONDS_PER_CELL
    if item.get_closest_marker("slow"):
        return SECONDS_SLOW
    if item.get_closest_marker("browser"):
        return SECONDS_BROWSER
    return SECONDS_OTHER


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--store-durations``: write each group's seconds to tests/durations.json at the end."""
    parser.addoption(
        "--store-durations",
        action="store_true",
        help="write each group's seconds in this run to tests/durations.json (the order in "
        "which a parallel run hands the groups out)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Under ``-n``, keep the order of groups set below (longest first), not xdist's; and
    give Ctrl-C back to Python where the suite was started with it ignored."""
    config.option.loadscopereorder = False
    # A shell script's background job starts with SIGINT ignored, and so would every
    # process the tests start: the tests of what Ctrl-C does need it delivered.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if config.getoption("store_durations") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(DurationRecorder(), "durations of the groups")


class DurationRecorder:
    """Adds up the seconds of each group's tests (setup, call and teardown), then writes
    them to :data:`DURATIONS`, in the main process (the workers report to it)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Count one phase of one test."""
        group = group_of(report.nodeid)
        self.seconds[group] = self.seconds.get(group, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        """Write the groups' seconds, rounded to a tenth, sorted by name."""
        rounded = {group: round(s, 1) for group, s in sorted(self.seconds.items())}
        DURATIONS.write_text(json.dumps(rounded, indent=1) + "\n")


def measured_durations() -> dict[str, float]:
    """The groups' seconds in :data:`DURATIONS` ({} when there is no such file)."""
    return json.loads(DURATIONS.read_text()) if DURATIONS.is_file() else {}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``-n`` shares the tests out by group (xdist's plain ``load`` would split a notebook)."""
    if config.getvalue("dist") not in ("load", "loadscope"):
        return None  # another mode asked for by name (e.g. --dist each)
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        """xdist's scheduling by scope, with this suite's groups as the scopes."""

        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return ByGroup(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker, order the tests by group, the longest groups first (as measured in
    tests/durations.json, else as guessed).

    The workers hand their collection to the scheduler in this order; the sort is stable,
    so each group's tests (a notebook's cells) keep theirs.
    """
    if not hasattr(config, "workerinput"):
        return
    groups: dict[str, float] = {}
    for item in items:
        group = group_of(item.nodeid)
        groups[group] = groups.get(group, 0.0) + cost(item)
    groups |= {group: s for group, s in measured_durations().items() if group in groups}
    items.sort(key=lambda item: -groups[group_of(item.nodeid)])
