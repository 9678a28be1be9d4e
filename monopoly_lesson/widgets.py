"""ipywidgets for stepping through turns with any ``take_turn`` (the student's own).

The game is a plain :class:`~monopoly_lesson.stepper.StepperState`; the widget here only
turns clicks into its methods and draws it, with the shared board of
:mod:`monopoly_lesson.board_view`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets
import pandas as pd

from .board_view import board_html, board_svg, svg_picture
from .checks import at_the_call
from .rules import LESSON_RULES, Rules
from .starter import NUM_SPACES, gameboard
from .stepper import StepperState

__all__ = ["REOPENED_NOTE", "STATIC_NOTE", "TurnStepper"]

STATIC_NOTE = "Run this notebook in JupyterLab to step turns with the buttons."
"""What a static copy of the widget (HTML, Markdown, print) says in place of the buttons."""

LOG_LABEL = "The log, newest lines last"
"""The name a screen reader gives a live widget's log (a region the Tab key reaches)."""

REOPENED_NOTE = "This is the stepper as it was saved: run the cell to step turns."
"""What the widget says when no kernel is behind it (a reopened notebook, a restarted kernel)."""


def reopened_html(prefix: str) -> str:
    """The note a widget shows when no kernel is behind it, hidden while it is live.

    JupyterLab's widget manager marks a widget whose kernel side is gone (restored from the
    state saved with the notebook, or after a restart) with the class
    jupyter-widgets-disconnected; then the note shows.
    """
    return (
        f"<style>.{prefix}-reopened{{display:none}}"
        f".jupyter-widgets-disconnected .{prefix}-reopened{{display:block}}</style>"
        f'<div class="{prefix}-reopened" style="color:#b00020;font-weight:bold">'
        f"{REOPENED_NOTE}</div>"
    )


# The log scrolls inside a box anchored at its bottom (column-reverse), so the newest lines
# are in sight after every redraw; a short log sits at the top (the auto margin below it).
# The text must not shrink to the box (JupyterLab gives <pre> its own overflow), or it would
# scroll by itself, from its top.
_LOG_BOX = (
    "height:{height}px;width:{width}px;overflow:auto;display:flex;"
    "flex-direction:column-reverse;border:1px solid #ccc;box-sizing:border-box"
)
_LOG_TEXT = (
    "flex:none;overflow:visible;margin:0 0 auto 0;padding:4px;font-size:11px;white-space:pre-wrap"
)


def log_html(
    lines: Sequence[str],
    prefix: str,
    width: int = 390,
    height: int = 260,
    label: str | None = None,
) -> str:
    """A widget's log: its lines in a box that keeps the newest in sight. With ``label`` (a
    live widget's), the box is a region of that name which the Tab key reaches, so that the
    arrow keys scroll it."""
    text = html.escape("\n".join(lines) or "(no turns yet)")
    box = _LOG_BOX.format(width=width, height=height)
    named = ""
    if label is not None:
        named = f' role="region" aria-label="{html.escape(label)}" tabindex="0"'
    return (
        f'<div class="{prefix}-log" style="{box}"{named}><pre style="{_LOG_TEXT}">{text}</pre>'
        "</div>"
    )


def live_html(inner_html: str) -> str:
    """``inner_html`` in a live region, which a screen reader says when it is shown or
    changes (nothing when empty): a live widget's status or question, not a snapshot's."""
    if not inner_html:
        return ""
    return f'<div role="status" aria-live="polite" aria-atomic="true">{inner_html}</div>'


def static_html(prefix: str, status: str, board: str, side: str) -> str:
    """A widget's static stand-in: how to use it, its status, the board and what is beside."""
    return (
        f'<div class="{prefix}-static"><p><em>{STATIC_NOTE}</em></p><p>{status}</p>'
        f'<div style="display:flex;gap:12px;flex-wrap:wrap">{board}<div>{side}</div></div></div>'
    )


ICON_CHARACTERS = {
    "play": "f04b",
    "forward": "f04e",
    "fast-forward": "f050",
    "step-backward": "f048",
    "undo": "f0e2",
    "lightbulb-o": "f0eb",
    "caret-down": "f0d7",
    "caret-up": "f0d8",
}
"""The icons the widgets' buttons show: each one's character in Font Awesome 4's font."""


FOCUS_RING = "#1a5fb4"
"""The colour of the ring around what has the keyboard's focus (6:1 against white)."""


def access_css(prefix: str) -> str:
    """CSS for the widget of class ``prefix``: each button's icon drawn with no words of its
    own, so that a screen reader names the button by its label alone (``One turn``, not a
    private-use character and ``One turn``; a browser without alternative text for
    generated content draws the icon as before), and a ring that shows plainly what has
    the keyboard's focus (JupyterLab's is a pale blue line)."""
    icons = "".join(
        f'.{prefix} .fa-{icon}::before{{content:"\\{code}" / ""}}'
        for icon, code in ICON_CHARACTERS.items()
    )
    focus = ", ".join(  # :enabled: above JupyterLab's own ring for an enabled button
        f".{prefix} {part}:focus-visible"
        for part in ("button:enabled", "input:enabled", "select:enabled", "[tabindex]")
    )
    return f"<style>{icons}{focus}{{outline:2px solid {FOCUS_RING};outline-offset:1px}}</style>"


def widget_button(prefix: str, label: str, tooltip: str, icon: str) -> widgets.Button:
    """A button with a CSS class from its label (``prefix-one-turn``), for tests to find."""
    button = widgets.Button(description=label, tooltip=tooltip, icon=icon)
    button.add_class(f"{prefix}-" + label.lower().replace(" ", "-"))
    return button


_STATUS_ERROR = 160  # characters of an error shown in the status line

_TITLES = gameboard["title"].tolist()


def _faces(text: str) -> list[int]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not all(item.isdigit() for item in items):
        raise ValueError(f"faces must be whole numbers separated by commas, got {text!r}.")
    return [int(item) for item in items]


def _button(label: str, tooltip: str, icon: str) -> widgets.Button:
    return widget_button("turn-stepper", label, tooltip, icon)


class TurnStepper(widgets.VBox):
    """Step through turns of ``take_turn`` and watch the board, the tallies and the log.

    Takes the arguments of :class:`~monopoly_lesson.stepper.StepperState`, which plays the
    game (``stepper.state``). The buttons "One turn", "Ten turns" and "Reset" can be
    ``click()``-ed from code, as a test does; changing a control starts again.
    """

    def __init__(
        self,
        take_turn: Callable[..., None],
        *,
        players: int = 1,
        seed: int = 0,
        preset: Sequence[int] | None = None,
        start: int = 1,
        chance_order: Sequence[int] = (),
        chest_order: Sequence[int] = (),
        rules: Rules = LESSON_RULES,
    ) -> None:
        with at_the_call():  # a mistake in an argument is shown from here, not from the checks
            self.state = StepperState(
                take_turn,
                players=players,
                seed=seed,
                preset=preset,
                start=start,
                chance_order=chance_order,
                chest_order=chest_order,
                rules=rules,
            )
        self.one_turn = _button("One turn", "Play one turn for the next player", "play")
        self.ten_turns = _button("Ten turns", "Play ten turns", "forward")
        self.reset_button = _button("Reset", "Start again from the start space", "undo")
        self.one_turn.on_click(lambda _button: self.step(1))
        self.ten_turns.on_click(lambda _button: self.step(10))
        self.reset_button.on_click(lambda _button: self.reset())
        self._add_controls(self.state.setup.players, self.state.setup.seed, preset)
        self.status_view = widgets.HTML()
        self.reopened_view = widgets.HTML(
            reopened_html("turn-stepper") + access_css("turn-stepper")
        )
        self.board_view = widgets.HTML(layout=widgets.Layout(margin="0 6px 8px 0"))
        self.chart_view, self.log_view = widgets.HTML(), widgets.HTML()
        super().__init__(
            children=[
                self.reopened_view,
                widgets.HBox([self.one_turn, self.ten_turns, self.reset_button, self.status_view]),
                widgets.HBox([self.players_choice, self.dice_choice]),
                widgets.HBox([self.seed_box, self.preset_box]),
                widgets.HBox(
                    [self.board_view, widgets.VBox([self.chart_view, self.log_view])],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
            ]
        )
        self.add_class("turn-stepper")
        self.redraw()

    def _add_controls(self, players: int, seed: int, preset: Sequence[int] | None) -> None:
        self.players_choice = widgets.Dropdown(
            options=[("1 player", 1), ("2 players, taking turns", 2)],
            value=players,
            description="Players:",
        )
        self.dice_choice = widgets.Dropdown(
            options=[("random (seeded)", "random"), ("preset list", "preset")],
            value="preset" if preset is not None else "random",
            description="Dice:",
        )
        self.seed_box = widgets.BoundedIntText(
            value=seed, min=0, max=2**31 - 1, description="Seed:"
        )
        self.preset_box = widgets.Text(
            value=",".join(str(f) for f in (preset or [])),
            description="Faces:",
            placeholder="e.g. 3,4,1,1",
            continuous_update=False,
        )
        for control in (self.players_choice, self.dice_choice, self.seed_box, self.preset_box):
            control.observe(lambda _change: self.reset(), names="value")

    # -- what the buttons and controls do -----------------------------------

    def step(self, turns: int = 1) -> None:
        """Play ``turns`` turns, players alternating, and redraw; stop at the first error."""
        self.state.step(turns)
        self.redraw()

    def reset(self) -> None:
        """Start again with the players, dice and seed the controls show, and redraw."""
        players, seed = self.players_choice.value, self.seed_box.value
        try:
            preset = _faces(self.preset_box.value) if self.dice_choice.value == "preset" else None
            self.state.configure(players=players, seed=seed, preset=preset)
        except ValueError as problem:
            self.state.configure(players=players, seed=seed, preset=[])
            self.state.record_error(f"The preset faces were not understood: {problem}")
        self.redraw()

    @property
    def take_turn(self) -> Callable[..., None]:
        """The ``take_turn`` being played; assign a fixed one to play it from the next turn."""
        return self.state.take_turn

    @take_turn.setter
    def take_turn(self, fn: Callable[..., None]) -> None:
        self.state.take_turn = fn

    @property
    def lines(self) -> list[str]:
        """The log: each turn's header and narration, and any errors."""
        return self.state.lines

    @property
    def turns_played(self) -> int:
        """Turns played since the last start."""
        return self.state.turns_played

    @property
    def error(self) -> str | None:
        """The last problem, or None once a turn has been played without one."""
        return self.state.error

    # -- drawing -------------------------------------------------------------

    def redraw(self) -> None:
        """Draw the state: the status line (said by a screen reader as it changes), the
        board, the tally chart and the log."""
        state = self.state
        self.status_view.value = live_html(self._status_html())
        self.board_view.value = board_html(
            **self._board(), css_class="turn-stepper-board", label=self._board_words()
        )
        self.chart_view.value = _chart_html(state.tallies)
        self.log_view.value = self._log_html(label=LOG_LABEL)

    def _status_html(self) -> str:
        """Turns played and tallies, and the last error, on one line."""
        state = self.state
        status = f"{state.turns_played} turn(s) played, {state.tracker.total} tallies"
        if state.error:
            status += f' · <b style="color:#b00020">{html.escape(_one_line(state.error))}</b>'
        return f'<span class="turn-stepper-status">{status}</span>'

    def _log_html(self, label: str | None = None) -> str:
        return log_html(self.state.lines[-200:], "turn-stepper", label=label)

    def _board_words(self) -> str:
        """The board in words, for readers without the picture: where each token is."""
        return "The Monopoly board: " + "; ".join(self.state.where())

    def _board(self) -> dict:
        """What the board shows: tallies, tokens, and who is in jail in the centre."""
        state = self.state
        jailed = [f"{player.name} is in jail." for player in state.players if player.in_jail]
        return {"counts": state.tallies, "tokens": state.tokens, "centre": jailed}

    # -- static stand-in -----------------------------------------------------

    def snapshot_html(self) -> str:
        """A static picture of the widget: status, board, chart, log, and how to use it. The
        board and the chart are pictures (``<img>``), which a notebook opened untrusted
        shows too."""
        board = svg_picture(
            self.snapshot_svg(),
            alt=self._board_words(),
            css_class="monopoly-board turn-stepper-board",
        )
        chart = svg_picture(
            _chart_html(self.state.tallies),
            alt="Tallies per space, 1 to 40",
            css_class="turn-stepper-chart",
        )
        side = chart + self._log_html()
        return static_html("turn-stepper", self._status_html(), board, side)

    def snapshot_svg(self) -> str:
        """A static picture of the board, as standalone SVG (for print: Typst embeds SVG)."""
        return board_svg(**self._board())

    def snapshot_markdown(self, log_lines: int = 12) -> str:
        """A static snapshot in Markdown, for print: where the tokens are, tallies, the log."""
        counts = self.state.tallies
        busiest = sorted(counts.index, key=lambda s: (-counts[s], s))[:5]
        tallies = ", ".join(f"{_TITLES[s - 1]} ({s}) {counts[s]}" for s in busiest if counts[s])
        log = "\n".join(self.lines[-log_lines:]) or "(no turns yet)"
        return (
            f"*{STATIC_NOTE}*\n\n"
            f"**After {self.turns_played} turn(s):** {'; '.join(self.state.where())}. "
            f"**Most tallied so far:** {tallies or 'none yet'}.\n\n"
            f"The last lines of the log:\n\n```\n{log}\n```\n"
        )

    def summary(self) -> str:
        """One plain-text line describing the state (for consoles and text output)."""
        where = ", ".join(f"{name} on {space}" for name, space in self.state.tokens.items())
        return f"TurnStepper: {self.turns_played} turn(s) played, {where}. {STATIC_NOTE}"

    def _repr_mimebundle_(self, **kwargs) -> dict:
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self.summary()
        bundle["text/html"] = self.snapshot_html()
        bundle["text/markdown"] = self.snapshot_markdown()
        bundle["image/svg+xml"] = self.snapshot_svg()
        return bundle


def _one_line(message: str) -> str:
    """A message on one line, cut to ``_STATUS_ERROR`` characters (the log has all of it)."""
    line = " ".join(message.split())
    return line if len(line) <= _STATUS_ERROR else line[: _STATUS_ERROR - 1] + "…"


def _chart_html(counts: pd.Series) -> str:
    """The tallies as a small SVG bar chart, space 1 to 40 from left to right."""
    top = max(int(counts.max()), 1)
    bars = "".join(
        f'<rect x="{10 * (s - 1) + 1}" y="{100 - 100 * counts[s] / top:.1f}" width="8" '
        f'height="{100 * counts[s] / top:.1f}" fill="#1f4e79">'
        f"<title>{html.escape(_TITLES[s - 1])} ({s}): {counts[s]}</title></rect>"
        for s in range(1, NUM_SPACES + 1)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" class="turn-stepper-chart" width="390" '
        'height="127" viewBox="0 -12 400 130" '
        'role="img" aria-label="tally per space">'
        f'<text x="0" y="-2" font-size="10">Tallies per space (1 to 40), most: {top}</text>'
        f'{bars}<line x1="0" y1="100" x2="400" y2="100" stroke="#333"/>'
        '<text x="0" y="112" font-size="8">1</text><text x="100" y="112" font-size="8">11'
        '</text><text x="200" y="112" font-size="8">21</text>'
        '<text x="300" y="112" font-size="8">31</text></svg>'
    )
