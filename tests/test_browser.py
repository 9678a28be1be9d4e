"""The lesson as a student uses it: a real JupyterLab, a real Chromium, a real kernel.

JupyterLab runs from this environment on 127.0.0.1 (a free port, a token) and serves a
temporary copy of the notebooks, so the committed ones are never modified. Chromium comes
from apt and is driven by Playwright. On a failure, a screenshot and the browser console
log are saved under test-artifacts/.
"""

from __future__ import annotations

import ast
import collections
import json
import os
import random
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest
from axe import axe_violations, violations_words

from monopoly_lesson.widgets import LOG_LABEL, REOPENED_NOTE, STATIC_NOTE

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CLICKS = 25  # clicks of "One turn" timed for the latency figure

# Every test here uses the ``browser`` fixture: without Chromium, conftest.py skips them all
# with one reason that says how to install it.
pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a copy of the notebooks; yields its base URL with the token.
    No notebook is trusted until it is saved in it, as in a student's new JupyterLab."""
    home = tmp_path_factory.mktemp("lab")
    shutil.copytree(ROOT / "notebooks", home / "notebooks")
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={home / 'notebooks'}",
        f"--LabApp.app_settings_dir={ROOT / 'jupyter' / 'settings'}",
        f"--LabApp.user_settings_dir={home / 'user-settings'}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        "--NotebookNotary.db_file=:memory:",  # no notebook trusted yet, as a student's
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log = (home / "jupyterlab.log").open("w")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterLab did not start; see {log.name}") from None
                time.sleep(0.2)
        yield base, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def new_page(browser):
    """A page in a context of its own, its console recorded (``page.console_lines``)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.console_lines = []
    page.on("console", lambda m: page.console_lines.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: page.console_lines.append(f"pageerror: {e}"))
    return page


def save_if_failed(page, request) -> None:
    """After a failed test, save its page's screenshot and console log under test-artifacts/."""
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = request.node.name.replace("/", "_")
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        (ARTIFACTS / f"{name}.console.txt").write_text("\n".join(page.console_lines))


@pytest.fixture
def page(browser, request):
    """A fresh page; its console is recorded and saved, with a screenshot, on failure."""
    page = new_page(browser)
    yield page
    save_if_failed(page, request)
    page.context.close()


@pytest.fixture(scope="module")
def chapter_5_run(browser, lab):
    """Chapter 5 open with every cell run, once for the tests that step its turns (each
    would spend about 12 s opening and running it)."""
    page = new_page(browser)
    open_notebook(page, lab, "05_jail.ipynb")
    run_all_cells(page)
    page.locator(".turn-stepper button:has-text('One turn')").first.wait_for()
    yield page
    page.context.close()


@pytest.fixture
def chapter_5(chapter_5_run, request):
    """Chapter 5's page, its stepper reset to no turns (as the run left it, whatever the test
    before did); saved on failure as :func:`page` is."""
    page = chapter_5_run
    page.keyboard.press("Escape")  # out of any cell or widget, in command mode
    if turns_played(page) != 0:
        click_and_wait(page, "Reset")
    yield page
    save_if_failed(page, request)


def open_notebook(page, lab, name: str) -> None:
    """Open one notebook in a fresh workspace (no tabs left from other tests)."""
    base, token = lab
    workspace = secrets.token_hex(4)
    page.goto(f"{base}/lab/workspaces/{workspace}/tree/{name}?token={token}&reset")
    wait_idle(page)


def wait_idle(page, timeout: int = 120_000) -> None:
    page.wait_for_selector(
        ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator[data-status='idle']",
        timeout=timeout,
    )


ALL_RUN = """() => {
  const prompts = [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')];
  return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
}"""


def run_all_cells(page) -> None:
    """Run every cell from the menu, once the kernel is ready, and wait until all have run."""
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(ALL_RUN, timeout=120_000)
    wait_idle(page)


def run_cells_through(page, starts_with: str) -> None:
    """Run the cells above the code cell whose text starts as given, then that cell, from the
    menu, as a student reading up to it does (the chapter's long runs after it wait)."""
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)
    cell = page.locator(".jp-CodeCell", has=page.locator(".cm-content", has_text=starts_with))
    cell.first.locator(".jp-InputPrompt").click()  # selected, in command mode
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Above Selected Cell", exact=True).click()
    cell.first.locator(".jp-InputPrompt").click()  # and the cell itself, queued after them
    page.keyboard.press("Shift+Enter")


def status(page, widget: str = "turn-stepper") -> str:
    return page.locator(f".{widget} .{widget}-status").first.inner_text()


def click_and_wait(page, label: str, widget: str = "turn-stepper") -> float:
    """Click a button of ``widget`` (its CSS class); return the seconds until its status
    line changes."""
    before = status(page, widget)
    button = page.locator(f".{widget} button:has-text('{label}')").first
    start = time.perf_counter()
    button.click()
    page.wait_for_function(
        f"before => document.querySelector('.{widget} .{widget}-status').innerText !== before",
        arg=before,
        polling="raf",
    )
    return time.perf_counter() - start


def turns_played(page) -> int:
    return int(status(page).split(" turn")[0])


def view(page, cls: str, widget: str = "turn-stepper") -> str:
    return page.locator(f".{widget} .{cls}").first.inner_html()


def changed_view(page, cls: str, before: str, widget: str = "turn-stepper") -> str:
    """The view of ``cls`` once it differs from ``before``: a widget's parts are redrawn by
    separate messages, so the status line may change before the board does."""
    page.wait_for_function(
        "([selector, before]) => document.querySelector(selector).innerHTML !== before",
        arg=[f".{widget} .{cls}", before],
        polling="raf",
        timeout=10_000,
    )
    return view(page, cls, widget)


def view_with(page, cls: str, text: str, widget: str = "turn-stepper") -> str:
    """The view of ``cls`` once its text contains ``text`` (or a time-out failure)."""
    page.wait_for_function(
        "([selector, text]) => document.querySelector(selector).innerText.includes(text)",
        arg=[f".{widget} .{cls}", text],
        polling="raf",
        timeout=10_000,
    )
    return view(page, cls, widget)


def test_stepping_turns_in_chapter_5(chapter_5, record_property):
    page = chapter_5
    start = turns_played(page)
    board, chart = view(page, "turn-stepper-board"), view(page, "turn-stepper-chart")

    click_and_wait(page, "One turn")
    assert turns_played(page) == start + 1
    turn = f"--- Turn {start // 2 + 1}, Player "
    assert turn in view_with(page, "turn-stepper-log", turn)
    assert changed_view(page, "turn-stepper-board", board) != board
    assert changed_view(page, "turn-stepper-chart", chart) != chart

    latencies = [click_and_wait(page, "One turn") for _ in range(CLICKS)]
    median_ms = 1000 * statistics.median(latencies)
    record_property("one_turn_click_median_ms", round(median_ms, 1))
    print(f"\n'One turn' click to page update: median {median_ms:.0f} ms over {CLICKS} clicks")

    played = turns_played(page)
    click_and_wait(page, "Ten turns")
    assert turns_played(page) == played + 10
    click_and_wait(page, "Reset")
    assert turns_played(page) == 0
    assert "(no turns yet)" in view_with(page, "turn-stepper-log", "(no turns yet)")
    page.keyboard.press("Escape")  # leave the widget before touching cells


def edit_cell(page, starts_with: str, new_source: str) -> None:
    """Replace the source of the code cell whose text starts as given, and run it."""
    cell = page.locator(".jp-CodeCell", has=page.locator(".cm-content", has_text=starts_with))
    editor = cell.first.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(new_source)
    page.keyboard.press("Shift+Enter")
    page.wait_for_timeout(300)
    wait_idle(page)


def test_an_error_in_take_turn_shows_in_the_widget(chapter_5):
    """A broken take_turn shows in the widget; fixed, the next click plays (and the tests
    after it play on with the fixed one, which plays as the chapter's does)."""
    page = chapter_5
    take_turn_cell = "def take_turn(player, tracker, *, dice, chance, community):"
    broken = take_turn_cell + '\n    raise ValueError("a bug in my take_turn")'
    edit_cell(page, take_turn_cell, broken)
    played = turns_played(page)
    click_and_wait(page, "One turn")
    assert "Error in take_turn on turn" in status(page)  # where the student is looking
    assert "ValueError: a bug in my take_turn" in status(page)
    error = "ValueError: a bug in my take_turn"
    assert error in view_with(page, "turn-stepper-log", error)
    assert turns_played(page) == played

    fixed = (
        take_turn_cell + "\n    turn = jail_turn if player.in_jail else free_turn"
        "\n    turn(player, tracker, dice=dice, chance=chance, community=community)"
    )
    edit_cell(page, take_turn_cell, fixed)
    click_and_wait(page, "One turn")
    assert turns_played(page) == played + 1
    assert "error" not in status(page)


# Where the last "--- Turn" header of the log is drawn, and the log box's visible part.
NEWEST_HEADER = """() => {
  const box = document.querySelector('.turn-stepper .turn-stepper-log');
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  let node, last = null, at = -1;
  while ((node = walker.nextNode())) {
    const i = node.textContent.lastIndexOf('--- Turn');
    if (i >= 0) { last = node; at = i; }
  }
  const range = document.createRange();
  range.setStart(last, at);
  range.setEnd(last, last.textContent.indexOf('---', at + 3) + 3);
  const line = range.getBoundingClientRect(), seen = box.getBoundingClientRect();
  return {text: range.toString(), top: line.top, bottom: line.bottom,
          boxTop: seen.top, boxBottom: seen.bottom};
}"""


def test_the_newest_turn_is_in_sight_after_every_click(chapter_5):
    page = chapter_5
    for label in ["Ten turns", "Ten turns", "One turn", "Ten turns", "One turn"]:
        click_and_wait(page, label)
        played = turns_played(page)  # two players take turns
        newest = f"--- Turn {(played - 1) // 2 + 1}, Player {(played - 1) % 2 + 1} ---"
        page.wait_for_function(  # the log is drawn just after the status line
            "h => document.querySelector('.turn-stepper .turn-stepper-log').textContent"
            ".includes(h)",
            arg=newest,
        )
        header = page.evaluate(NEWEST_HEADER)
        assert header["text"] == newest
        assert header["boxTop"] <= header["top"] and header["bottom"] <= header["boxBottom"], (
            f"after {played} turns the newest turn is out of sight: {header}"
        )
    page.keyboard.press("Escape")


def api(lab, method: str, path: str, body: dict | None = None) -> object:
    """Call the Jupyter server's REST API (with a JSON ``body``, if given); return the
    decoded JSON answer (None if empty)."""
    base, token = lab
    request = urllib.request.Request(
        f"{base}/api/{path}",
        method=method,
        headers={"Authorization": f"token {token}"},
        data=None if body is None else json.dumps(body).encode(),
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        body = answer.read()
    return json.loads(body) if body else None


def saved_widget_state(lab, name: str, seconds: float = 60) -> dict:
    """The widget state saved in the notebook file, once the save has written it ({} if not)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            metadata = api(lab, "GET", f"contents/{name}")["content"]["metadata"]
        except urllib.error.HTTPError as error:  # read while the save writes the file:
            if error.code not in (400, 500):  # "unreadable notebook" or a server error
                raise
            time.sleep(0.5)
            continue
        state = metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json")
        if state:
            return state
        time.sleep(0.5)
    return {}


# Chapter 5's stepper by keyboard alone, as a screen reader reads it, and by axe-core (the
# helpers are with the game widget's, below). They stand here, before the next test, which
# closes chapter 5's kernel.

TO_THE_STEPPER = """() => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
  const active = cells.findIndex(cell => cell.classList.contains('jp-mod-active'));
  const stepper = cells.findIndex(cell => cell.querySelector('.turn-stepper') !== null);
  return stepper - active;
}"""
"""How many cells below the active cell the turn stepper's is (above: negative)."""


TWO_TOKENS = """() => [...document.querySelectorAll('.turn-stepper [role=img][aria-label]')]
    .some(board => /Player 2 on/.test(board.getAttribute('aria-label')))"""
"""True once the turn stepper's board has both players' tokens."""


def test_the_turn_stepper_by_keyboard_alone(chapter_5):
    """The arrow keys select the stepper's cell, Tab reaches its buttons and Enter or Space
    presses them, the arrow keys choose in its lists, and the focus stays where it was."""
    page = chapter_5
    for _ in range(200):  # in command mode, from the cell the test before left active
        if not (cells := page.evaluate(TO_THE_STEPPER)):
            break
        page.keyboard.press("ArrowDown" if cells > 0 else "ArrowUp")
    key_to(page, "One turn")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => /^1 turn/.test(document.querySelector('.turn-stepper-status').innerText)"
    )
    key_to(page, "Ten turns")
    page.keyboard.press("Space")
    page.wait_for_function(
        "() => /^11 turn/.test(document.querySelector('.turn-stepper-status').innerText)"
    )
    assert focused(page)["name"] == "Ten turns"
    key_to(page, "Players:")
    page.keyboard.press("ArrowUp")  # one player: the stepper starts again
    page.wait_for_function(
        "() => /^0 turn/.test(document.querySelector('.turn-stepper-status').innerText)"
    )
    page.keyboard.press("ArrowDown")  # two again, as the chapter has them
    page.wait_for_function(TWO_TOKENS)  # the kernel has started again with both
    assert focused(page)["name"] == "Players:"
    key_to(page, LOG_LABEL)
    assert focused(page)["tag"] == "div"


def test_a_screen_reader_reads_the_turn_stepper_by_its_words(chapter_5):
    read = chapter_5.locator(".turn-stepper").first.aria_snapshot()
    assert not PRIVATE_USE.search(read), read
    for line in ('button "One turn"', 'button "Ten turns"', 'combobox "Players:"', "- status:"):
        assert line in read, read
    assert re.search(r'img "The Monopoly board: Player 1 on [^"]+; Player 2 on ', read), read
    assert 'region "The log, newest lines last"' in read


def test_the_turn_stepper_meets_wcag_a_and_aa_in_jupyterlab(chapter_5):
    """Chapter 5's stepper, after ten turns (tallies, tokens, a log that scrolls): no
    violation of axe-core's WCAG 2.0/2.1 A and AA rules in the widget's own element."""
    click_and_wait(chapter_5, "Ten turns")
    found = widget_violations(chapter_5, ".turn-stepper")
    assert found == [], violations_words(found)


def test_a_reopened_notebook_shows_the_saved_stepper_and_says_to_run_the_cell(page, lab):
    name = "05_jail.ipynb"
    open_notebook(page, lab, name)
    run_all_cells(page)
    page.locator(".turn-stepper button:has-text('One turn')").first.wait_for()
    click_and_wait(page, "One turn")
    assert not page.locator(".turn-stepper-reopened").first.is_visible()  # live: no note
    page.get_by_role("menuitem", name="File", exact=True).click()
    page.get_by_role("menuitem", name="Save Notebook", exact=False).first.click()
    page.wait_for_function(  # the tab's unsaved mark goes once the file is written
        "() => document.querySelector('.lm-TabBar-tab.lm-mod-current.jp-mod-dirty') === null",
        timeout=120_000,
    )
    assert saved_widget_state(lab, name), "the widget state was not saved with the notebook"
    for session in api(lab, "GET", "sessions"):  # close it: the kernel and its widgets go
        if session["path"].endswith(name):
            api(lab, "DELETE", f"sessions/{session['id']}")

    open_notebook(page, lab, name)
    stepper = page.locator(".turn-stepper").first
    stepper.wait_for(timeout=60_000)
    assert stepper.locator(".monopoly-board svg").first.is_visible()  # the board as saved
    note = stepper.locator(".turn-stepper-reopened")
    assert note.is_visible() and note.inner_text().strip() == REOPENED_NOTE
    assert "run the cell to step turns" in note.inner_text()
    assert "model not found" not in page.inner_text(".jp-NotebookPanel:not(.lm-mod-hidden)")


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("09_whole_game.ipynb", "a bare rent of $14 and a rent of $550 with"),
        ("10_property_values.ipynb", "orange earns about $38 and red $34"),
    ],
)
def test_money_reads_as_money_not_maths(page, lab, name, sentence):
    open_notebook(page, lab, name)
    prose = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown")
    prose.filter(has_text="Glossary").first.wait_for(state="attached", timeout=60_000)
    page.wait_for_timeout(2000)  # MathJax typesets rendered Markdown a moment later
    text = " ".join(" ".join(prose.all_inner_texts()).split())
    assert sentence in text
    assert prose.locator("mjx-container").count() == 0


CHAPTERS = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
STORED_WIDGETS = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output')]
  .filter(output => output.querySelector('.turn-stepper-static, .game-stepper-static'))
  .map(output => ({
    pictures: [...output.querySelectorAll('img')].map(img => ({
      name: img.className, drawn: img.complete && img.naturalWidth > 0,
      width: img.getBoundingClientRect().width})),
    text: output.innerText,
    maths: output.querySelectorAll('mjx-container').length,
  }))"""


def stored_widgets(name: str) -> int:
    """How many widget snapshots the stored chapter holds."""
    notebook = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    return sum(
        STATIC_NOTE in "".join(output.get("data", {}).get("text/html", ""))
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    )


@pytest.mark.parametrize("name", CHAPTERS)
def test_a_stored_chapter_shows_its_widgets_as_pictures_and_words(page, lab, name):
    """Opened as stored, untrusted, as a student first opens it: each widget's snapshot
    is a picture of the board (and the tally chart) beside readable words, and no amount
    in an output is typeset as maths."""
    stored = json.loads((ROOT / "notebooks" / name).read_text())  # as committed: another
    content = {"type": "notebook", "format": "json", "content": stored}  # test saves its copy
    api(lab, "PUT", f"contents/stored-{name}", content)
    open_notebook(page, lab, f"stored-{name}")
    page.get_by_title(re.compile(r"^Notebook not trusted")).wait_for()  # the status bar's
    prose = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown")
    prose.filter(has_text="Glossary").first.wait_for(state="attached", timeout=60_000)
    page.wait_for_timeout(2000)  # MathJax typesets rendered outputs a moment later
    page.wait_for_function(  # the pictures are decoded
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) img')]"
        ".every(img => img.complete)"
    )
    snapshots = page.evaluate(STORED_WIDGETS)
    assert len(snapshots) == stored_widgets(name)
    outputs = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output")
    assert outputs.locator("mjx-container").count() == 0, "an output typeset as maths"
    for snapshot in snapshots:
        boards = [p for p in snapshot["pictures"] if "monopoly-board" in p["name"]]
        assert len(boards) == 1 and all(p["drawn"] and p["width"] > 300 for p in boards)
        assert all(p["drawn"] for p in snapshot["pictures"]), snapshot["pictures"]
        text = snapshot["text"]
        assert STATIC_NOTE in text
        assert "MONOPOLY" not in text and "Go to\nJail" not in text  # no board as words
        assert snapshot["maths"] == 0


def test_chapter_6_figures_are_drawn_without_errors(page, lab):
    open_notebook(page, lab, "06_full_simulation.ipynb")
    run_all_cells(page)  # stored figures show their PNG until run; live ones have none
    plots = page.locator(".jp-RenderedPlotly")
    plots.first.wait_for(state="attached", timeout=60_000)
    figures = plots.count()
    for i in range(figures):  # plotly draws a figure when it scrolls into view
        plots.nth(i).scroll_into_view_if_needed()
        plots.nth(i).locator("svg.main-svg").first.wait_for(timeout=30_000)
    drawn = page.locator(".jp-RenderedPlotly").evaluate_all(
        "divs => divs.filter(d => d.querySelector('svg.main-svg')).length"
    )
    assert figures >= 1 and drawn == figures
    errors = [line for line in page.console_lines if line.startswith(("error", "pageerror"))]
    assert errors == []


# Each figure's output in the open notebook: the output area's edges, and every part of the
# figure that is shown in it (the stored PNG, or the drawn interactive figure).
FIGURES = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output.jp-RenderedPlotly')]
  .map(output => {
    const area = output.getBoundingClientRect();
    const shown = [...output.querySelectorAll('img.plot-img, .plot-container')]
      .filter(part => getComputedStyle(part).display !== 'none')
      .map(part => {
        const box = part.getBoundingClientRect();
        return {kind: part.tagName === 'IMG' ? 'png' : 'interactive', left: box.left,
                right: box.right, natural: part.naturalWidth || 0};
      });
    return {left: area.left, right: area.right, overflow: output.scrollWidth - output.clientWidth,
            shown};
  })"""

ALL_IMAGES_LOADED = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedPlotly img.plot-img')]
  .every(img => img.complete && img.naturalWidth > 0)"""


def stored_figures(name: str) -> int:
    """How many plotly figures the stored notebook holds."""
    notebook = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    return sum(
        "application/vnd.plotly.v1+json" in output.get("data", {})
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    )


def outside_their_area(figures: list[dict]) -> list[str]:
    """Every shown part of a figure that reaches past its output area, described."""
    return [
        f"figure {i + 1}: its {part['kind']} spans {part['left']:.0f}-{part['right']:.0f} px"
        f" (PNG {part['natural']} px wide) in an area {figure['left']:.0f}-{figure['right']:.0f}"
        for i, figure in enumerate(figures)
        for part in figure["shown"]
        if part["left"] < figure["left"] - 0.5 or part["right"] > figure["right"] + 0.5
    ] + [
        f"figure {i + 1} overflows by {f['overflow']} px"
        for i, f in enumerate(figures)
        if f["overflow"] > 0
    ]


@pytest.mark.parametrize("name", ["06_full_simulation.ipynb", "09_whole_game.ipynb"])
def test_a_reopened_chapter_shows_every_stored_figure_whole(page, lab, name):
    """Opened as stored (not run), each figure is its PNG, inside its output area, in a
    window 1280 px wide with the file browser open; the mouse on it draws it, still inside."""
    page.set_viewport_size({"width": 1280, "height": 1000})
    open_notebook(page, lab, name)
    plots = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedPlotly")
    plots.first.wait_for(state="attached", timeout=60_000)
    page.wait_for_function(ALL_IMAGES_LOADED, timeout=30_000)
    figures = page.evaluate(FIGURES)
    assert len(figures) == stored_figures(name) >= 1
    assert all([part["kind"] for part in f["shown"]] == ["png"] for f in figures), figures
    assert outside_their_area(figures) == []

    plots.first.scroll_into_view_if_needed()
    image = plots.first.locator("img.plot-img").bounding_box()
    # the mouse enters the picture: plotly's renderer draws the figure in its place
    page.mouse.move(image["x"] + image["width"] / 2, image["y"] + image["height"] / 2)
    plots.first.locator(".plot-container svg.main-svg").first.wait_for(timeout=30_000)
    first = page.evaluate(FIGURES)[0]
    assert [part["kind"] for part in first["shown"]] == ["interactive"]
    assert outside_their_area([first]) == []


def test_no_news_or_update_pop_ups(page, lab):
    open_notebook(page, lab, "00_welcome.ipynb")
    page.wait_for_timeout(2000)
    assert page.locator(".jp-toast-container .Toastify__toast").count() == 0


# -- the game widget (chapter 9) ----------------------------------------------------


def game_status(page) -> str:
    return status(page, "game-stepper")


def game_click(page, label: str) -> float:
    """Click a game widget button; return the seconds until its status line changes."""
    return click_and_wait(page, label, "game-stepper")


def game_view(page, cls: str) -> str:
    return view(page, cls, "game-stepper")


CHAPTER_9_WIDGET = "stepper = GameStepper(players, seed=7)"
"""The start of chapter 9's cell that shows the game widget (the cells above it set it up)."""


def test_stepping_the_whole_game_in_chapter_9(page, lab, record_property):
    open_notebook(page, lab, "09_whole_game.ipynb")
    run_cells_through(page, CHAPTER_9_WIDGET)
    page.locator(".game-stepper button:has-text('One turn')").first.wait_for(timeout=120_000)
    page.wait_for_function(  # the three rounds played before the view was shown
        "() => document.querySelector('.game-stepper .game-stepper-status')"
        ".innerText.startsWith('Round 4:')"
    )
    board, players = game_view(page, "game-stepper-board"), game_view(page, "game-stepper-players")
    game_click(page, "One round")
    assert game_status(page).startswith("Round 5:")
    # new owners, tokens moved; cash changed
    assert changed_view(page, "game-stepper-board", board, "game-stepper") != board
    assert changed_view(page, "game-stepper-players", players, "game-stepper") != players

    latencies = [game_click(page, "One turn") for _ in range(CLICKS)]
    median_ms = 1000 * statistics.median(latencies)
    record_property("game_one_turn_click_median_ms", round(median_ms, 1))
    print(f"\n'One turn' (game widget) click to page update: median {median_ms:.0f} ms")

    game_click(page, "To the end")
    assert game_status(page).startswith("Over after")
    game_click(page, "New game")
    assert game_status(page).startswith("Round 1:")
    page.keyboard.press("Escape")


def test_a_failing_strategy_shows_in_the_game_widget(page, lab):
    open_notebook(page, lab, "09_whole_game.ipynb")
    run_cells_through(page, CHAPTER_9_WIDGET)
    page.locator(".game-stepper button:has-text('One turn')").first.wait_for(timeout=120_000)
    widget_cell = CHAPTER_9_WIDGET
    broken = (
        'bug = make_strategy("bug", buy=lambda game, me, space: 1 / 0)\n'
        'stepper = GameStepper([bug, "always"], seed=7)\nstepper'
    )
    edit_cell(page, widget_cell, broken)
    page.locator(".game-stepper button:has-text('To the end')").first.wait_for()
    game_click(page, "To the end")
    assert "ZeroDivisionError" in game_status(page)
    assert "The game stopped" in view_with(
        page, "game-stepper-log", "The game stopped", "game-stepper"
    )
    game_click(page, "New game")  # the widget survives and starts again
    assert game_status(page).startswith("Round 1:")


# -- a person at the table: a whole game by clicks -----------------------------------

YOUR_TURN = """from monopoly_lesson import GameStepper

stepper = GameStepper(["you", "ega_trading"], seed=0, trading=True)
stepper"""
"""A game in which the clicks of :func:`answer_by_clicks` buy, bid, build, leave jail,
propose trades (a completion swap and one from the form, asked for with "Propose a
trade") and answer one."""

SAID = {
    "Do not buy": "P1 you declines to buy",
    "Build": "P1 you builds",
    "Accept": "P1 you accepts the trade",
    "Refuse": "P1 you refuses the trade",
    "Pay $50": "P1 you pays $50 to leave jail",
    "Use the card": "P1 you uses a Get Out of Jail Free card",
}
"""What the game's log says after some clicks (a proposal: "P1 you offers")."""
QUESTION = ".game-stepper .game-stepper-question"
TO_THE_END = ".game-stepper button.game-stepper-to-the-end"
NEXT_QUESTION = """before => {
  const q = document.querySelector('.game-stepper .game-stepper-question');
  return !q || q.dataset.number !== before;
}"""


def write_notebook(lab, name: str, *sources: str) -> None:
    """Put a notebook of these code cells, for the Python 3 kernel, in the lab's folder."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    api(lab, "PUT", f"contents/{name}", {"type": "notebook", "format": "json", "content": notebook})


def game_button(page, label: str):
    """The game widget's shown button of exactly this label."""
    return page.locator(".game-stepper").first.get_by_role("button", name=label, exact=True)


def answer_by_clicks(page, decision: str, done: collections.Counter) -> str:
    """Answer the open question by clicks, as a person might; return what was clicked.
    The first buy is declined (an auction), the first bid typed, the first stay in jail
    kept; the first building plan the rules' default, then none; one completion swap, one
    trade from the form (after an empty one, refused); the first offer accepted, the others
    refused."""
    widget = page.locator(".game-stepper").first
    if decision == "buy":
        return "Do not buy" if not done["buy"] else "Buy"
    if decision == "bid":
        if done["bid"] == 1:
            return "No bid"
        if not done["bid"]:
            widget.locator(".game-stepper-bid-box input").fill("1")
            page.wait_for_function(  # the button says the bid typed, once the kernel has it
                "() => document.querySelector('.game-stepper .game-stepper-bid')"
                ".innerText.trim() === 'Bid $1'"
            )
        return widget.locator(".game-stepper-bid").inner_text().strip()  # "Bid $N"
    if decision == "leave_jail":
        if not done["leave_jail"]:
            return "Stay"
        return "Pay $50" if game_button(page, "Pay $50").count() else "Use the card"
    if decision == "build":
        return "Build" if done["build"] < 3 else "Stop building"
    if decision == "lift":
        return "Stop lifting"
    if decision == "build_plan":
        if done["build_plan"]:
            return "No building"
        game_button(page, "Fill in the default").click()  # what the rules would build
        page.wait_for_timeout(300)  # the boxes filled in by the kernel
        return "Build"
    if decision == "lift_plan":
        return "Lift none"
    if decision == "raise_cash":
        return "Sell or mortgage"
    if decision == "accept_trade":
        return "Accept" if not done["accept_trade"] else "Refuse"
    swaps = widget.locator(".game-stepper-swap:visible")
    if swaps.count() and not done["swap"]:
        done["swap"] += 1
        return swaps.first.inner_text().strip()
    give, take = (widget.locator(f".game-stepper-{side} select") for side in ("give", "take"))
    if not done["form"] and give.locator("option").count() and take.locator("option").count():
        widget.get_by_text("A trade of your own").click()  # the form, folded till then
        refused_empty_trade(page)
        give.select_option(index=0)
        take.select_option(index=0)
        done["form"] += 1
        return "Propose"
    return "No trade"


def refused_empty_trade(page) -> None:
    """Propose a trade of nothing: the rule is shown in the status line, the question stays."""
    number = page.locator(QUESTION).first.get_attribute("data-number")
    game_button(page, "Propose").click()
    refused = page.locator(".game-stepper .game-stepper-refused").first
    refused.wait_for(timeout=10_000)
    assert "at least one lot must change hands" in refused.inner_text()
    assert page.locator(QUESTION).first.get_attribute("data-number") == number


def given_answer(page, decision: str, label: str) -> object:
    """The answer a click on ``label`` gives, as the game would print it (a trade: its
    type's name)."""
    if decision == "propose_trade" and label != "No trade":
        return "Trade"
    if label in ("No building", "Lift none"):
        return None  # an empty plan: the game's first question answered None
    if decision == "build_plan":
        return PLAN
    if label.startswith("Bid $"):
        return int(label.removeprefix("Bid $").replace(",", ""))
    if label in ("Build", "Lift", "Sell or mortgage"):
        chosen = page.locator(".game-stepper .game-stepper-chooser select").first.evaluate(
            "s => s.options[s.selectedIndex].text"
        )
        space = int(re.search(r"\((\d+)\)", chosen)[1])
        if label == "Sell or mortgage":
            return ("sell" if chosen.startswith("Sell") else "mortgage", space)
        return space
    return {"No bid": 0, "Stop building": None, "Stop lifting": None, "No trade": None}.get(
        label, label in ("Buy", "Accept", "Pay $50", "Use the card")
    )


ANSWERED_WITH = {
    *("yes", "no", "bid", "no-bid", "no-trade", "swap", "propose"),
    *("build-plan", "no-plan"),
}
"""Every kind of control the game below is answered with (their CSS names)."""
PLAN = "a building plan"
"""A building plan given: the game keeps its first building as the answer."""
WANT_TRADE = ".game-stepper .game-stepper-want-propose-trade input[type='checkbox']"


def want_a_trade(page) -> None:
    """Ask, with the check box, to propose a trade at the turn's end (if not asked already)."""
    box = page.locator(WANT_TRADE).first
    if not box.is_checked():
        box.click()
        page.wait_for_function("box => box.checked", arg=box.element_handle())


def same_answers(taken: list, given: list) -> bool:
    """Whether the game took the answers given (a plan: whatever its first building)."""
    return len(taken) == len(given) and all(
        g == PLAN or t == g for t, g in zip(taken, given, strict=True)
    )


def person_double_click(page, button, gap_ms: int = 150) -> None:
    """Two clicks at one point, ``gap_ms`` apart, as a person double-clicks: the second
    meets whatever is there by then (the next question's controls, still greyed)."""
    button.scroll_into_view_if_needed()
    page.wait_for_function("b => !b.disabled", arg=button.element_handle())
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(gap_ms)
    page.mouse.click(x, y)
    page.keyboard.press("Escape")  # a menu the second click opened (a chooser's) closes


def test_a_person_plays_a_whole_game_by_double_clicks(page, lab, record_property):
    """Buy, bid, build, jail, propose a trade and answer one, each answer a double-click
    (a machine's, or a person's with 150 ms between the clicks), to the end: every answer
    is taken once, and is the one given."""
    write_notebook(lab, "your_turn.ipynb", YOUR_TURN, TAKEN)
    open_notebook(page, lab, "your_turn.ipynb")
    run_all_cells(page)
    want_a_trade(page)
    page.locator(TO_THE_END).first.dblclick()  # plays to the first question; the second waits
    page.locator(QUESTION).first.wait_for(timeout=30_000)
    start, done, given = time.perf_counter(), collections.Counter(), []
    kinds = {"to-the-end"}
    while page.locator(QUESTION).count():
        question = page.locator(QUESTION).first
        decision, number = (
            question.get_attribute("data-decision"),
            question.get_attribute("data-number"),
        )
        assert number == str(len(given) + 1), "an answer was taken twice, or not at all"
        assert page.locator(TO_THE_END).first.is_disabled()  # the stepping waits
        if not done["form"]:
            want_a_trade(page)
        label = answer_by_clicks(page, decision, done)
        if decision != "propose_trade" or label in ("No trade", "Propose"):
            button = game_button(page, label)
        else:  # a completion swap's button, by its words
            button = page.locator(".game-stepper-swap:visible", has_text=label).first
        given.append(given_answer(page, decision, label))
        kinds.add(button.get_attribute("class").split("game-stepper-")[-1].split()[0])
        if len(given) % 2:
            button.dblclick()  # as fast as a machine: the second click meets the same button
        else:
            person_double_click(page, button)
        page.wait_for_function(NEXT_QUESTION, arg=number, polling="raf", timeout=30_000)
        done[decision] += 1
        said = SAID.get(label, "P1 you offers" if decision == "propose_trade" else None)
        if said and label != "No trade":  # the game's log says what the click did
            assert said in view_with(page, "game-stepper-log", said, "game-stepper")
            done[said] += 1
    seconds = time.perf_counter() - start
    record_property("game_by_double_clicks_seconds", round(seconds, 1))
    print(f"\nA whole game by double-clicks: {len(given)} answers in {seconds:.0f} s")
    assert game_status(page).startswith("Over after")
    assert same_answers(taken_answers(page), given)  # each double-click answered once
    assert kinds == ANSWERED_WITH | {"to-the-end"}
    assert all(done[d] for d in ("buy", "bid", "build_plan", "leave_jail", "accept_trade"))
    assert done["swap"] and done["form"] and done["P1 you offers"] >= 2
    assert all(done[SAID[label]] for label in ("Do not buy", "Build", "Accept"))
    assert done[SAID["Pay $50"]] or done[SAID["Use the card"]]
    assert not page.locator(TO_THE_END).first.is_disabled()
    you = page.locator(".game-stepper .game-stepper-you").first  # the person's seat, marked
    assert "P1 you" in you.inner_text()


# -- every answer is the one given -------------------------------------------------

BIDS = 20
BIDDING = """from monopoly_lesson import GameStepper

stepper = GameStepper(["you", "never"], seed=2)
stepper"""
"""A game in which nearly every other question is a bid: "never" buys nothing, so each lot
it or the person declines goes to auction."""
TAKEN = (
    "print([type(a).__name__ if hasattr(a, 'partner') else a for a in stepper.state.answers_given])"
)
"""A cell that prints the person's answers the game took (a trade by its type's name)."""


def taken_answers(page) -> list:
    """Run the cell :data:`TAKEN` and read the answers the game took from its output.

    The cell is made active first and run again if a loaded machine lost the key press
    (running it twice prints the same list)."""
    from playwright.sync_api import TimeoutError as NotInTime

    cell = page.locator(".jp-CodeCell", has=page.locator(".cm-content", has_text=TAKEN[:30]))
    prompt = cell.first.locator(".jp-InputPrompt")
    page.keyboard.press("Escape")  # leave the widget before touching cells
    wait_idle(page)
    before = prompt.inner_text()
    for attempt in range(3):
        prompt.click()  # selected, in command mode
        page.wait_for_function(
            "cell => cell.classList.contains('jp-mod-active')",
            arg=cell.first.element_handle(),
            timeout=10_000,
        )
        page.keyboard.press("Shift+Enter")
        try:
            page.wait_for_function(  # run again: a new execution count, its output printed
                "([prompt, before]) => /\\[\\d+\\]/.test(prompt.textContent)"
                " && prompt.textContent !== before",
                arg=[prompt.element_handle(), before],
                timeout=30_000,
            )
            break
        except NotInTime:
            if attempt == 2:
                raise
    wait_idle(page)
    printed = cell.first.locator(".jp-OutputArea-output").last.inner_text()
    return ast.literal_eval(printed.strip())


def test_every_bid_taken_is_the_one_typed(page, lab, record_property):
    """Twenty bids typed at a person's pace, each given by a click on Bid: the game takes
    each as typed (the box sends its value as it is typed, before any click)."""
    write_notebook(lab, "bids.ipynb", BIDDING, TAKEN)
    open_notebook(page, lab, "bids.ipynb")
    run_all_cells(page)
    game_click(page, "To the end")
    rng, given, bids = random.Random(2), [], 0
    widget = page.locator(".game-stepper").first
    while bids < BIDS:
        question = page.locator(QUESTION).first
        decision, number = (
            question.get_attribute("data-decision"),
            question.get_attribute("data-number"),
        )
        page.wait_for_timeout(500)  # a person reads the question
        if decision == "bid":
            most = widget.locator(".game-stepper-bid-range").inner_text()
            bid = rng.randint(
                1, min(60, int(re.search(r"to \$([\d,]+)", most)[1].replace(",", "")))
            )
            widget.locator(".game-stepper-bid-box input").click()
            page.keyboard.press("Control+A")
            page.keyboard.type(str(bid), delay=150)
            page.wait_for_timeout(300)
            widget.locator(".game-stepper-bid").click()
            given.append(bid)
            bids += 1
        else:
            label, value = {
                "buy": ("Do not buy", False),
                "build_plan": ("No building", None),
                "lift_plan": ("Lift none", None),
            }.get(decision, ("Stay", False))
            game_button(page, label).click()
            given.append(value)
        page.wait_for_function(NEXT_QUESTION, arg=number, polling="raf", timeout=15_000)
    taken = taken_answers(page)
    wrong = [(g, t) for g, t in zip(given, taken, strict=False) if g != t]
    record_property("bids_typed_taken_wrong", len(wrong))
    print(f"\n{BIDS} bids typed: {len(wrong)} taken otherwise ({wrong})")
    assert taken == given


# -- a laptop's screen --------------------------------------------------------------

LAPTOP = {"width": 1366, "height": 768}
IN_SIGHT = """widget => {
  const panel = widget.closest('.jp-WindowedPanel-outer') || widget.closest('.jp-Notebook');
  const seen = panel.getBoundingClientRect();
  const top = Math.max(0, seen.top), bottom = Math.min(window.innerHeight, seen.bottom);
  const left = Math.max(0, seen.left), right = Math.min(window.innerWidth, seen.right);
  const parts = {question: widget.querySelector('.game-stepper-question')};
  widget.querySelectorAll('.game-stepper-asking button, .game-stepper-asking input,'
      + ' .game-stepper-asking select').forEach((part, i) => { parts['control ' + i] = part; });
  widget.querySelectorAll('.game-stepper-players tr').forEach((row, i) => {
      parts['players row ' + i] = row; });
  const out = [];
  for (const [name, part] of Object.entries(parts)) {
    const box = part.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;  // not shown
    if (box.top < top - 0.5 || box.bottom > bottom + 0.5 || box.left < left - 0.5
        || box.right > right + 0.5) {
      out.push(`${name} (${part.innerText || part.value || ''}): ${Math.round(box.left)}-`
        + `${Math.round(box.right)} x ${Math.round(box.top)}-${Math.round(box.bottom)} outside `
        + `${Math.round(left)}-${Math.round(right)} x ${Math.round(top)}-${Math.round(bottom)}`);
    }
  }
  return out;
}"""


def your_turn_of_chapter_11() -> str:
    """The source of chapter 11's "Your turn" cell: a person and three players, trading."""
    cells = nbformat.read(ROOT / "notebooks" / "11_evolving_players.ipynb", as_version=4).cells
    (cell,) = [c for c in cells if c.cell_type == "code" and "GameStepper(" in c.source]
    return cell.source


def test_every_question_fits_a_laptop_screen_with_the_file_browser_open(page, lab):
    """Chapter 11's "Your turn" at 1366x768, with JupyterLab's file browser open: the
    widget scrolled to its top shows every question, its controls and every player's cash
    and lots, unscrolled, to the end of the game."""
    page.set_viewport_size(LAPTOP)
    write_notebook(lab, "laptop.ipynb", your_turn_of_chapter_11())
    open_notebook(page, lab, "laptop.ipynb")
    assert page.locator(".jp-FileBrowser").first.is_visible()
    run_all_cells(page)  # four players; the game stops at the first question
    widget = page.locator(".game-stepper").first
    done, out_of_sight = collections.Counter(), {}
    while page.locator(QUESTION).count():
        if not done["propose_trade"]:
            want_a_trade(page)
        question = page.locator(QUESTION).first
        decision = question.get_attribute("data-decision")
        number = question.get_attribute("data-number")
        widget.evaluate("w => w.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(100)
        if hidden := widget.evaluate(IN_SIGHT):
            out_of_sight[f"question {number} ({decision})"] = hidden
        label = answer_by_clicks(page, decision, done)
        if decision != "propose_trade" or label in ("No trade", "Propose"):
            game_button(page, label).click()
        else:
            page.locator(".game-stepper-swap:visible", has_text=label).first.click()
        page.wait_for_function(NEXT_QUESTION, arg=number, polling="raf", timeout=30_000)
        done[decision] += 1
    print(f"\n{sum(done.values())} questions at 1366x768: {len(out_of_sight)} out of sight")
    assert out_of_sight == {}
    assert {"buy", "bid", "propose_trade"} <= set(done)
    assert game_status(page).startswith("Over after")


# -- a person's controls: taking back, saving and loading, the coach ------------------

SHORT_GAME = """from monopoly_lesson import GameStepper

stepper = GameStepper(["you", "always"], seed=2, max_rounds=15)
stepper"""
"""A short game (15 rounds, a dozen questions: buys, a bid, leaving jail)."""
TAKE_BACK = ".game-stepper button.game-stepper-take-back"
NOTE = ".game-stepper .game-stepper-said"


def question_now(page) -> tuple[str, str, str]:
    """The open question's number, decision and words."""
    question = page.locator(QUESTION).first
    number, decision = (question.get_attribute(f"data-{k}") for k in ("number", "decision"))
    return number, decision, question.inner_text()


SETTLED = """() => {
  const widget = document.querySelector('.game-stepper');
  const status = widget.querySelector('.game-stepper-status').innerText;
  const asking = widget.querySelector('.game-stepper-question') !== null;
  const stepping = !widget.querySelector('button.game-stepper-to-the-end').disabled;
  return status.startsWith('Over after')
    || (asking === status.includes(' is asked') && asking !== stepping);
}"""
"""Whether the widget's parts are all drawn for one moment of the game (they are redrawn by
separate messages): a question and its status line, the stepping buttons greyed; or none,
the stepping buttons released; or the game's end."""


def game_step(page, label: str = "To the end") -> None:
    """Click a stepping button of the game widget and wait until it is drawn whole."""
    game_click(page, label)
    page.wait_for_function(SETTLED, polling="raf", timeout=30_000)


def answer_one(page, done: collections.Counter, given: list) -> str:
    """Answer the open question by a click, as :func:`answer_by_clicks` chooses; wait for
    the next question (or the end), drawn whole; return the number of the question answered."""
    number, decision, _ = question_now(page)
    label = answer_by_clicks(page, decision, done)
    given.append(given_answer(page, decision, label))
    game_button(page, label).click()
    page.wait_for_function(NEXT_QUESTION, arg=number, polling="raf", timeout=30_000)
    page.wait_for_function(SETTLED, polling="raf", timeout=30_000)
    done[decision] += 1
    return number


def reopened(page, number: str) -> None:
    """Wait until question ``number`` is the open one."""
    page.wait_for_function(
        "n => { const q = document.querySelector('.game-stepper .game-stepper-question');"
        " return q && q.dataset.number === n; }",
        arg=number,
        polling="raf",
        timeout=30_000,
    )


def test_a_person_takes_back_an_answer_and_plays_a_short_game_to_the_end(page, lab):
    """A whole short game by clicks; the third answer is taken back, its question is asked
    again, as it was, and answered otherwise (the game plays on to the end of that turn;
    To the end plays on): the game takes the answers left."""
    write_notebook(lab, "take_back.ipynb", SHORT_GAME, TAKEN)
    open_notebook(page, lab, "take_back.ipynb")
    run_all_cells(page)
    game_step(page)
    done, given, taken_back = collections.Counter(), [], []
    assert page.locator(TAKE_BACK).first.is_disabled()  # nothing answered yet
    while not game_status(page).startswith("Over after"):
        if not page.locator(QUESTION).count():
            game_step(page)
            continue
        asked = question_now(page)
        answer_one(page, done, given)
        if len(given) == 3 and not taken_back:
            page.locator(TAKE_BACK).first.click()
            reopened(page, asked[0])
            assert question_now(page) == asked  # the same question, as it was asked
            taken_back.append(given.pop())
    assert taken_back and len(given) > 5
    assert same_answers(taken_answers(page), given)
    last = page.locator(TAKE_BACK).first  # the last answer may be taken back still
    page.wait_for_function("b => !b.disabled", arg=last.element_handle(), timeout=10_000)


def open_more(page) -> None:
    """Unfold the widget's rarely used controls from the keyboard."""
    page.locator(".game-stepper .game-stepper-more-button").first.focus()
    page.keyboard.press("Space")
    page.locator(".game-stepper .game-stepper-more").first.wait_for(timeout=10_000)


def said(page, words: str) -> str:
    """The status line's note once it says ``words``."""
    note = page.locator(NOTE).filter(has_text=words).first
    note.wait_for(timeout=60_000)
    return note.inner_text()


FRESH_GAME = """from monopoly_lesson import GameStepper

stepper = GameStepper(["always", "heuristic"], seed=1)
stepper"""
"""A fresh widget of another game, in a notebook of its own, to load the saved game into."""


def test_a_saved_game_loads_in_a_fresh_widget_and_plays_on(page, lab):
    write_notebook(lab, "save.ipynb", SHORT_GAME)
    open_notebook(page, lab, "save.ipynb")
    run_all_cells(page)
    game_step(page)
    done, given = collections.Counter(), []
    for _ in range(4):
        answer_one(page, done, given)
    asked = question_now(page)
    open_more(page)
    page.locator(".game-stepper-more input[type='text']").first.fill("saved-game.json")
    game_button(page, "Save").click()
    assert "Saved to saved-game.json: 4 answers" in said(page, "Saved to")

    write_notebook(lab, "load.ipynb", FRESH_GAME, TAKEN)
    open_notebook(page, lab, "load.ipynb")  # a new kernel, a fresh widget
    run_all_cells(page)
    open_more(page)
    page.locator(".game-stepper-more input[type='text']").first.fill("saved-game.json")
    game_button(page, "Load").click()
    assert "Loaded saved-game.json: 4 answers" in said(page, "Loaded")
    reopened(page, asked[0])
    assert question_now(page) == asked  # where it was
    answer_one(page, done, given)  # and on
    assert same_answers(taken_answers(page), given)


def test_the_coach_shows_its_table_and_the_game_waits(page, lab):
    write_notebook(lab, "coach.ipynb", SHORT_GAME)
    open_notebook(page, lab, "coach.ipynb")
    run_all_cells(page)
    game_step(page)
    asked = question_now(page)
    page.locator(".game-stepper button.game-stepper-coach").first.focus()
    page.keyboard.press("Enter")  # the coach from the keyboard
    table = page.locator(".game-stepper .game-stepper-coach-table").first
    table.wait_for(timeout=240_000)  # its engine may compile on the first use
    rows = table.locator("tbody tr")
    assert rows.count() >= 2 and "95% interval" in table.inner_text()
    assert all(re.search(r"\d+%\s+\d+% to \d+%", row) for row in rows.all_inner_texts())
    assert "player's choice" in table.inner_text()
    assert question_now(page) == asked  # the game waits for the answer
    answer_one(page, collections.Counter(), [])
    assert page.locator(".game-stepper .game-stepper-coach-table").count() == 0


# -- a person at the keyboard alone ---------------------------------------------------

KEYBOARD_GAME = """from monopoly_lesson import GameStepper

stepper = GameStepper(["you", "always"], seed=38, max_rounds=20, trading=True)
stepper"""
"""A short game (22 questions) in which the keys of :func:`answer_by_keys` decline and buy,
bid and bid nothing, stay in jail and leave it, propose a trade from the form and accept
one, raise cash, plan building and lift a mortgage."""
FOCUSED = """() => {
  const part = document.activeElement;
  if (!part || !part.closest('.game-stepper, .turn-stepper')) return null;
  const label = (part.id && document.querySelector(`label[for="${part.id}"]`))
    || part.closest('label');
  const name = label ? label.innerText : (part.getAttribute('aria-label') || part.innerText);
  return {tag: part.tagName.toLowerCase(), name: (name || '').trim(), disabled: part.disabled};
}"""
"""What has the keyboard's focus in a widget: its tag, its name (a button's words, a box's
label) and whether it is greyed; null when the focus is outside the widgets."""
ON_FIRST_ANSWER = """(() => {
  const first = document.querySelector('.game-stepper .game-stepper-asking button');
  return first !== null && !first.disabled && document.activeElement === first;
})()"""
"""Whether the keyboard's focus is on the open question's first answer, released."""
ON_STEPPING = """(() => {
  const part = document.activeElement;
  return part.matches('.game-stepper button.game-stepper-to-the-end:enabled,'
    + ' .game-stepper button.game-stepper-new-game:enabled')
    && document.querySelector('.game-stepper .game-stepper-question') === null;
})()"""
"""Whether no question is open and the focus is on To the end (or New game), released."""
MORE_BUTTON = "More: save, load, go back, any lot's deed, what the others accept"
ASKED_OR_OVER = """() => document.querySelector('.game-stepper .game-stepper-question') !== null
  || document.querySelector('.game-stepper .game-stepper-status').innerText
    .startsWith('Over after')"""


def focused(page) -> dict | None:
    return page.evaluate(FOCUSED)


def key_to(page, name: str, back: bool = False, presses: int = 40) -> None:
    """Press Tab (Shift+Tab with ``back``) until the focus is on a widget's control named
    ``name`` (a button's words, a box's label)."""
    for _ in range(presses):
        part = focused(page)
        if part is not None and part["name"] == name and not part["disabled"]:
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"{name!r} not reached by {'Shift+' * back}Tab; at {focused(page)}")


def type_into(page, box: str, text: str, back: bool = False) -> None:
    """Tab to the box labelled ``box``, select what it holds and type ``text`` over it."""
    key_to(page, box, back=back)
    page.keyboard.press("Control+A")
    page.keyboard.type(text, delay=50)


def focus_came_back(page, pressed: str) -> None:
    """Wait until the focus is on the open question's first answer, or on a stepping button
    when none is open (else fail, saying what was pressed last and where the focus is)."""
    from playwright.sync_api import TimeoutError as NotInTime

    try:
        page.wait_for_function(f"{ON_FIRST_ANSWER} || {ON_STEPPING}", timeout=10_000)
    except NotInTime:
        raise AssertionError(f"after {pressed!r}, the focus is on {focused(page)}") from None


def refused_now(page) -> bool:
    page.wait_for_timeout(500)  # the kernel's answer: the question stays, or the next comes
    return page.locator(".game-stepper .game-stepper-refused").count() > 0


def answer_by_keys(page, decision: str, done: collections.Counter) -> str:
    """Answer the open question with keys alone, the focus on its first answer; return
    what was done. The first buy is declined (an auction), the first bid typed ($1), the
    second none; the first stay in jail kept; one trade from the form (cash typed, a lot
    picked each side with the arrow keys); the first offer accepted; a debt raised by the
    chooser's second step; the first building plan typed (else the rules' default), then
    none; a mortgage lifted if the cash allows."""
    if decision == "buy" and not done["buy"]:
        key_to(page, "Do not buy")
    elif decision == "bid" and done["bid"] < 2:
        if done["bid"]:
            key_to(page, "No bid")
        else:
            type_into(page, "Your bid $:", "1", back=True)
            key_to(page, "Bid $1")  # the button says the bid typed, once the kernel has it
    elif decision == "leave_jail" and not done["leave_jail"]:
        key_to(page, "Stay")
    elif decision == "propose_trade" and not done["form"]:
        key_to(page, "A trade of your own")
        page.keyboard.press("Space")  # unfolds the form, after the swaps
        widget = page.locator(".game-stepper").first
        for side in ("give", "take"):
            widget.locator(f".game-stepper-{side} select").wait_for()
        if all(widget.locator(f".game-stepper-{s} option").count() for s in ("give", "take")):
            type_into(page, "You pay $:", "10")
            for side in ("You give:", "You get:"):
                key_to(page, side)
                page.keyboard.press("ArrowDown")  # the first lot, picked
            key_to(page, "Propose")
            done["form"] += 1
        else:  # a side without lots to trade
            key_to(page, "No trade", back=True)
    elif decision == "accept_trade" and done["accept_trade"]:
        key_to(page, "Refuse")
    elif decision == "raise_cash":
        key_to(page, "Raise cash:", back=True)
        page.keyboard.press("ArrowDown")  # the chooser's next step
        key_to(page, "Sell or mortgage")
    elif decision == "build_plan" and not done["build_plan"]:
        first_lot = page.evaluate(
            "() => [...document.querySelectorAll('.game-stepper-asking .widget-text')]"
            ".find(box => /game-stepper-plan-\\d/.test(box.className))"
            ".querySelector('label').innerText.trim()"
        )
        type_into(page, first_lot, "1", back=True)  # a house on the first lot
        key_to(page, "Build")
        page.keyboard.press("Enter")
        if not refused_now(page):
            return "a plan typed"
        key_to(page, "Fill in the default")
        page.keyboard.press("Enter")
        page.wait_for_timeout(500)  # the boxes filled in by the kernel
        key_to(page, "Build", back=True)
    elif decision == "build_plan":
        key_to(page, "No building")
    elif decision == "lift_plan":
        key_to(page, "Lift:", back=True)
        page.keyboard.press("ArrowDown")
        key_to(page, "Lift")
        page.keyboard.press("Enter")
        if not refused_now(page):
            return "a mortgage lifted"
        key_to(page, "Lift none")
    name = focused(page)["name"]
    page.keyboard.press("Enter" if sum(done.values()) % 2 else "Space")  # each presses
    return name


def test_a_person_plays_a_whole_game_by_keyboard_alone(page, lab, record_property):
    """After the cells have run, no click: Tab and Shift+Tab move, Enter and Space press,
    numbers are typed into boxes and the arrow keys pick in lists; the first answer is
    taken back once, and at the end a lot's deed is shown and the game saved. At every
    question the focus comes to its first answer, and between questions to the stepping
    button used, without a key pressed to find it."""
    write_notebook(lab, "keyboard.ipynb", KEYBOARD_GAME)
    open_notebook(page, lab, "keyboard.ipynb")
    run_all_cells(page)
    page.keyboard.press("Escape")  # the notebook in command mode: Tab reaches its outputs
    key_to(page, "Propose a trade")
    page.keyboard.press("Space")  # asked for a trade at the first turn's end
    key_to(page, "To the end", back=True)
    start, done, pressed, answers = time.perf_counter(), collections.Counter(), [], 0
    while True:
        if not page.locator(QUESTION).count():  # the focus on the stepping button used
            pressed.append(focused(page)["name"])
            page.keyboard.press("Enter")
            page.wait_for_function(ASKED_OR_OVER, polling="raf", timeout=30_000)
        elif question_now(page)[0] == "2" and "Take back" not in pressed:  # the first answer
            key_to(page, "Take back", back=True)
            pressed.append("Take back")
            page.keyboard.press("Enter")
            reopened(page, "1")  # asked again: answered again as the first time
            done["buy"], answers = done["buy"] - 1, answers - 1
        else:
            number, decision, _ = question_now(page)
            pressed.append(answer_by_keys(page, decision, done))
            done[decision], answers = done[decision] + 1, answers + 1
            page.wait_for_function(NEXT_QUESTION, arg=number, polling="raf", timeout=30_000)
        page.wait_for_function(SETTLED, polling="raf", timeout=30_000)
        focus_came_back(page, pressed[-1])
        if game_status(page).startswith("Over after"):
            break
    seconds = time.perf_counter() - start
    record_property("game_by_keyboard_seconds", round(seconds, 1))
    print(f"\nA whole game by keyboard: {answers} answers in {seconds:.0f} s: {pressed}")
    assert focused(page)["name"] == "New game"
    key_to(page, MORE_BUTTON)  # under the board: a lot's deed, and saving the game
    page.keyboard.press("Space")  # the kernel unfolds the panel: Tab waits until it shows
    page.locator(".game-stepper .game-stepper-more").first.wait_for(state="visible")
    key_to(page, "A lot's deed:")
    page.keyboard.press("ArrowDown")  # Mediterranean Avenue (2), then Baltic Avenue (4)
    view_with(page, "game-stepper-more", "Baltic Avenue (4), brown: price $60", "game-stepper")
    type_into(page, "File:", "by-keys.json")
    key_to(page, "Save")
    page.keyboard.press("Enter")
    assert f"Saved to by-keys.json: {answers} answers" in said(page, "Saved to")
    asked = {"buy", "bid", "leave_jail", "propose_trade", "accept_trade", "raise_cash"}
    assert asked | {"build_plan", "lift_plan"} <= set(done)
    assert done["form"] and done["buy"] > 1 and done["bid"] > 1 and done["leave_jail"] > 1
    assert {"Do not buy", "Bid $1", "No bid", "Stay", "Propose", "Accept"} <= set(pressed)
    assert {"Take back", "a plan typed", "a mortgage lifted"} <= set(pressed)
    log = game_view(page, "game-stepper-log")
    for words in ("declines to buy", "offers", "accepts the trade", "builds", "lifts the"):
        assert f"P1 you {words}" in log


# -- the widgets' own output, by axe-core's WCAG 2.0/2.1 A and AA rules ----------------

UNCLIPPED = """() => document.querySelectorAll('.jp-ThemedContainer')
  .forEach(box => { box.style.overflow = 'visible'; })"""
"""JupyterLab's outermost box is 0 px high and clips what overflows it (its shell is
placed absolutely, so nothing shows clipped): axe would take everything inside for hidden,
and check the colour of no text. Unclipped, nothing moves and axe sees the page."""
STATUS_CHECKED = """async (where) => {
  const result = await axe.run({include: [[where]]},
    {runOnly: {type: 'rule', values: ['color-contrast']}, elementRef: true});
  return result.passes.concat(result.violations).some(rule => rule.nodes.some(
    node => node.element.matches('[class$="-status"], [class$="-status"] *')));
}"""
"""Whether axe checks the colour of the status line's words in ``where`` against their
background (it checks none where it takes the page for hidden)."""


def widget_violations(page, where: str) -> list[dict]:
    """axe's violations in the widget at ``where`` (a CSS selector) and nothing around it,
    scrolled into sight: JupyterLab's own interface is not the lesson's, and is left out."""
    page.evaluate(UNCLIPPED)
    page.locator(where).first.evaluate("w => w.scrollIntoView({block: 'start'})")
    found = axe_violations(page, where)
    assert page.evaluate(STATUS_CHECKED, where)  # axe reads the widget's words
    return found


AT_EACH_QUESTION = """from monopoly_lesson import GameStepper


def asking(decision):
    \"\"\"A game stopped at the person's first question of this kind (the rules' default
    answering those before it).\"\"\"
    stepper = GameStepper(["you", "ega_trading"], seed=8, trading=True)
    stepper.to_end.click()
    while stepper.state.question.decision != decision:
        stepper.state.answer(stepper.state.question.default)
        if stepper.state.question is None:
            stepper.to_end.click()
    stepper.redraw()
    return stepper"""
"""A notebook's first cell: a game widget stopped at a question of each kind, one a cell."""
KINDS = (
    *("buy", "bid", "leave_jail", "propose_trade", "accept_trade"),
    *("raise_cash", "build_plan", "lift_plan"),
)


def test_the_game_widget_at_each_question_meets_wcag_a_and_aa_in_jupyterlab(page, lab):
    """A game widget open at a question of each kind, all on one page (a board drawn
    eight times), the trade form and the panel under the board unfolded: no violation of
    axe-core's WCAG 2.0/2.1 A and AA rules in the widgets' own elements."""
    cells = [f"asking({kind!r})" for kind in KINDS]
    write_notebook(lab, "axe_questions.ipynb", AT_EACH_QUESTION, *cells)
    open_notebook(page, lab, "axe_questions.ipynb")
    run_all_cells(page)
    widgets = page.locator(".game-stepper")
    asked = ".game-stepper-question"
    widgets.nth(len(KINDS) - 1).locator(asked).wait_for(timeout=60_000)
    found = {}
    for number, kind in enumerate(KINDS):
        widget = widgets.nth(number)
        assert widget.locator(asked).get_attribute("data-decision") == kind
        widget.evaluate("(w, id) => { w.id = id; }", f"asking-{kind}")  # axe's context
        if kind == "propose_trade":
            widget.get_by_text("A trade of your own").click()
            widget.locator(".game-stepper-give select").wait_for()
        if kind == "buy":
            widget.locator(".game-stepper-more-button").click()
            widget.locator(".game-stepper-more").wait_for()
        if violations := widget_violations(page, f"#asking-{kind}"):
            found[kind] = violations_words(violations)
    assert found == {}


# -- the widgets as a screen reader reads them ------------------------------------------

PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
"""An icon font's characters, which a screen reader would read out in a button's name."""


def test_a_screen_reader_reads_the_game_widget_question_answers_and_board(page, lab):
    """The question and the status line are live regions; the first answer has the focus;
    the buttons are named by their words alone (no icon's character); the turn's-end
    choices are check boxes; the board is a picture named by where the tokens are."""
    write_notebook(lab, "read.ipynb", SHORT_GAME)
    open_notebook(page, lab, "read.ipynb")
    run_all_cells(page)
    page.keyboard.press("Escape")
    key_to(page, "To the end")
    page.keyboard.press("Enter")
    page.wait_for_function(ON_FIRST_ANSWER, timeout=30_000)
    read = page.locator(".game-stepper").first.aria_snapshot()
    assert not PRIVATE_USE.search(read), read
    assert re.search(r'- status: "★ P1 you, question 1: buy\? Buy ', read), read
    assert re.search(r'- status: "Round 1: P1 you is asked whether to buy', read), read
    assert '- button "Buy"' in read and '- button "To the end" [disabled]' in read
    for choice in ("Propose a trade", "Plan building", "Lift a mortgage"):
        assert f'- checkbox "{choice}"' in read
    assert re.search(r'img "The Monopoly board: P1 you on [^"]+; P2 always on Go \(1\)"', read)
    assert focused(page)["name"] == "Buy"
