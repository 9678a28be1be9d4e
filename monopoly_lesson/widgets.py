"""ipywidgets for stepping through turns with any ``take_turn`` (the student's own).

The model knows nothing of this module: the widget only calls the ``take_turn`` it is
given with the starter objects, captures their narration, and draws the state.
"""

from __future__ import annotations

import contextlib
import html
import io
import sys
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from .rules import LESSON_RULES, Rules
from .starter import (
    NUM_SPACES,
    CardDeck,
    Player,
    PresetDice,
    RandomDice,
    SpaceTracker,
    community_deck,
    gameboard,
)

__all__ = ["TurnStepper"]

_TITLES = gameboard["title"].tolist()
_TOKEN_COLOURS = ("#d62728", "#ff7f0e")
_LOG_LINES = 400  # the log keeps the latest lines, so a long session stays responsive
STATIC_NOTE = "Run this notebook in JupyterLab to step turns with the buttons."


def _grid_cell(space: int) -> tuple[int, int]:
    """CSS grid (row, column), 1-based, of a space on an 11 x 11 board with Go bottom right."""
    k = space - 1
    if k <= 10:
        return 11, 11 - k
    if k <= 20:
        return 11 - (k - 10), 1
    if k <= 30:
        return 1, 1 + (k - 20)
    return 1 + (k - 30), 11


def _faces(text: str) -> list[int]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not all(item.isdigit() for item in items):
        raise ValueError(f"faces must be whole numbers separated by commas, got {text!r}.")
    return [int(item) for item in items]


class TurnStepper(widgets.VBox):
    """Step through turns of ``take_turn`` and watch the board, the tallies and the log.

    ``take_turn`` is any function called as ``take_turn(player, tracker, dice=...,
    chance=..., community=...)``. Dice are random with ``seed``, or the ``preset`` faces
    (two per roll). Buttons: "One turn", "Ten turns", "Reset"; each is an ipywidgets
    ``Button`` that a test can ``click()``. An error raised by ``take_turn`` is shown in
    the log and the widget stays usable. A ``take_turn`` defined in the notebook is looked
    up again at every turn, so re-running its cell with a fix takes effect at once.
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
        if not callable(take_turn):
            raise TypeError(f"take_turn must be a function, got {type(take_turn).__name__}.")
        if players not in (1, 2):
            raise ValueError(f"players must be 1 or 2, got {players!r}.")
        self.take_turn = take_turn
        self.rules = rules
        self._options = dict(start=start, chance_order=list(chance_order),
                             chest_order=list(chest_order))  # fmt: skip
        self.one_turn = self._button("One turn", "Play one turn for the next player", "play")
        self.ten_turns = self._button("Ten turns", "Play ten turns", "forward")
        self.reset_button = self._button("Reset", "Start again from Go", "undo")
        self.players_choice = widgets.ToggleButtons(
            options=[("1 player", 1), ("2 players", 2)], value=players,
            description="Players:", tooltips=["One token", "Two tokens taking turns"],
        )  # fmt: skip
        self.dice_choice = widgets.Dropdown(
            options=[("random (seeded)", "random"), ("preset list", "preset")],
            value="preset" if preset is not None else "random", description="Dice:",
        )  # fmt: skip
        self.seed_box = widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1,
                                               description="Seed:")  # fmt: skip
        self.preset_box = widgets.Text(
            value=",".join(str(f) for f in (preset or [])), description="Faces:",
            placeholder="e.g. 3,4,1,1", continuous_update=False,
        )  # fmt: skip
        self.status_view = widgets.HTML()
        self.board_view = widgets.HTML()
        self.chart_view = widgets.HTML()
        self.log_view = widgets.HTML()
        for control in (self.players_choice, self.dice_choice, self.seed_box, self.preset_box):
            control.observe(lambda _change: self.reset(), names="value")
        super().__init__(
            children=[
                widgets.HBox([self.one_turn, self.ten_turns, self.reset_button, self.status_view]),
                widgets.HBox([self.players_choice, self.dice_choice]),
                widgets.HBox([self.seed_box, self.preset_box]),
                widgets.HBox([self.board_view, widgets.VBox([self.chart_view, self.log_view])]),
            ]
        )
        self.add_class("turn-stepper")
        self.reset()

    def _button(self, label: str, tooltip: str, icon: str) -> widgets.Button:
        button = widgets.Button(description=label, tooltip=tooltip, icon=icon)
        button.add_class("turn-stepper-" + label.lower().replace(" ", "-"))
        actions = {"One turn": lambda: self.step(1), "Ten turns": lambda: self.step(10)}
        button.on_click(lambda _b: actions.get(label, self.reset)())
        return button

    # -- state ---------------------------------------------------------------

    def reset(self) -> None:
        """Start again: tokens on the start space, fresh dice, decks and tallies."""
        self.turns_played = 0
        self.lines: list[str] = []
        self.error: str | None = None
        count = self.players_choice.value
        self.players = [
            Player(self._options["start"], verbose=True, name=f"Player {i + 1}")
            for i in range(count)
        ]
        self.tracker = SpaceTracker(verbose=True)
        seed = self.seed_box.value
        try:
            if self.dice_choice.value == "preset":
                self.dice = PresetDice(_faces(self.preset_box.value), verbose=True,
                                       sides=self.rules.dice_sides)  # fmt: skip
            else:
                self.dice = RandomDice(seed, sides=self.rules.dice_sides, verbose=True)
        except ValueError as problem:
            self.dice = PresetDice([], sides=self.rules.dice_sides)
            self._fail(f"The preset faces were not understood: {problem}")
        replace = self.rules.replacement
        self.chance = CardDeck(self.rules.chance_deck, seed=seed + 1, verbose=True,
                               order=self._options["chance_order"], replace=replace)  # fmt: skip
        self.community = CardDeck(community_deck, seed=seed + 2, verbose=True,
                                  order=self._options["chest_order"], replace=replace)  # fmt: skip
        self._redraw()

    def step(self, turns: int = 1) -> None:
        """Play ``turns`` turns, players alternating; stop at the first error."""
        for _ in range(turns):
            player = self.players[self.turns_played % len(self.players)]
            number = self.turns_played // len(self.players) + 1
            self.lines.append(f"--- Turn {number}, {player.name} ---")
            narration, play = io.StringIO(), self.current_take_turn()
            try:
                with contextlib.redirect_stdout(narration):
                    play(player, self.tracker, dice=self.dice, chance=self.chance,
                         community=self.community)  # fmt: skip
            except Exception as problem:  # a student's code may raise anything
                self.lines.extend(narration.getvalue().splitlines())
                self._fail(
                    f"Error in take_turn on turn {number} ({player.name}): "
                    f"{type(problem).__name__}: {problem}"
                )
                break
            self.lines.extend(narration.getvalue().splitlines())
            self.turns_played += 1
            self.error = None
        self.lines = self.lines[-_LOG_LINES:]
        self._redraw()

    def current_take_turn(self) -> Callable[..., None]:
        """The function to play with: the notebook's latest definition of the same name."""
        fn = self.take_turn
        main = sys.modules.get("__main__")
        if getattr(fn, "__module__", None) == "__main__" and main is not None:
            latest = getattr(main, getattr(fn, "__name__", ""), None)
            if callable(latest):
                return latest
        return fn

    def _fail(self, message: str) -> None:
        self.error = message
        self.lines.append("ERROR: " + message)

    # -- drawing -------------------------------------------------------------

    def _redraw(self) -> None:
        total = self.tracker.total
        status = f"{self.turns_played} turn(s) played, {total} tallies"
        if self.error:
            status += ' · <b style="color:#b00020">error: see the log</b>'
        self.status_view.value = f'<span class="turn-stepper-status">{status}</span>'
        self.board_view.value = self._board_html()
        self.chart_view.value = self._chart_html()
        text = html.escape("\n".join(self.lines[-200:]) or "(no turns yet)")
        self.log_view.value = (
            '<pre class="turn-stepper-log" style="height:220px;width:460px;overflow:auto;'
            'font-size:11px;margin:0;border:1px solid #ccc;padding:4px;white-space:pre-wrap">'
            f"{text}</pre>"
        )

    def _board_html(self) -> str:
        counts = self.tracker._counts
        top = max(counts) or 1
        cells = []
        for space in range(1, NUM_SPACES + 1):
            row, col = _grid_cell(space)
            shade = counts[space] / top
            background = f"rgba(31,78,121,{0.08 + 0.8 * shade:.2f})" if counts[space] else "#f7f7f7"
            colour = "white" if shade > 0.5 else "black"
            dots = "".join(
                f'<span title="{p.name}" style="color:{_TOKEN_COLOURS[i]}">&#9679;</span>'
                for i, p in enumerate(self.players)
                if p.pos == space
            )
            cells.append(
                f'<div title="{html.escape(_TITLES[space - 1])} ({space}): {counts[space]}" '
                f'style="grid-row:{row};grid-column:{col};background:{background};'
                f"color:{colour};border:1px solid #999;font-size:9px;line-height:1.1;"
                f'padding:1px;overflow:hidden">{space}<br>{counts[space] or ""}'
                f'<span style="font-size:13px">{dots}</span></div>'
            )
        where = ", ".join(
            f"{p.name} on {_TITLES[p.pos - 1]} ({p.pos})" + (" in jail" if p.in_jail else "")
            for p in self.players
        )
        return (
            '<div class="turn-stepper-board" style="display:grid;'
            "grid-template-columns:repeat(11,34px);grid-template-rows:repeat(11,34px);"
            f'gap:0">{"".join(cells)}<div style="grid-row:4/9;grid-column:3/10;'
            f'font-size:12px;text-align:center;padding-top:40px">{html.escape(where)}</div></div>'
        )

    def _chart_html(self) -> str:
        counts = self.tracker._counts
        top = max(counts) or 1
        bars = "".join(
            f'<rect x="{10 * (s - 1) + 1}" y="{100 - 100 * counts[s] / top:.1f}" width="8" '
            f'height="{100 * counts[s] / top:.1f}" fill="#1f4e79">'
            f"<title>{html.escape(_TITLES[s - 1])} ({s}): {counts[s]}</title></rect>"
            for s in range(1, NUM_SPACES + 1)
        )
        return (
            '<svg class="turn-stepper-chart" width="460" height="130" viewBox="0 -12 400 130" '
            'role="img" aria-label="tally per space">'
            f'<text x="0" y="-2" font-size="10">Tallies per space (1 to 40), most: {top}</text>'
            f'{bars}<line x1="0" y1="100" x2="400" y2="100" stroke="#333"/>'
            '<text x="0" y="112" font-size="8">1</text><text x="100" y="112" font-size="8">11'
            '</text><text x="200" y="112" font-size="8">21</text>'
            '<text x="300" y="112" font-size="8">31</text></svg>'
        )

    # -- static stand-in -----------------------------------------------------

    def snapshot_html(self) -> str:
        """A static picture of the widget: status, board, chart, log, and how to use it."""
        return (
            f'<div class="turn-stepper-static"><p><em>{STATIC_NOTE}</em></p>'
            f"<p>{self.status_view.value}</p>"
            f'<div style="display:flex;gap:12px;flex-wrap:wrap">{self.board_view.value}'
            f"<div>{self.chart_view.value}{self.log_view.value}</div></div></div>"
        )

    def snapshot_markdown(self, log_lines: int = 12) -> str:
        """A static snapshot in Markdown, for print: where the tokens are, tallies, the log."""
        where = "; ".join(
            f"{p.name} on {_TITLES[p.pos - 1]} ({p.pos})" + (", in jail" if p.in_jail else "")
            for p in self.players
        )
        counts = self.tracker._counts
        busiest = sorted(range(1, NUM_SPACES + 1), key=lambda s: (-counts[s], s))[:5]
        tallies = ", ".join(f"{_TITLES[s - 1]} ({s}) {counts[s]}" for s in busiest if counts[s])
        log = "\n".join(self.lines[-log_lines:]) or "(no turns yet)"
        return (
            f"*{STATIC_NOTE}*\n\n"
            f"**After {self.turns_played} turn(s):** {where}. "
            f"**Most tallied so far:** {tallies or 'none yet'}.\n\n"
            f"The last lines of the log:\n\n```\n{log}\n```\n"
        )

    def summary(self) -> str:
        """One plain-text line describing the state (for consoles and text output)."""
        where = ", ".join(f"{p.name} on {p.pos}" for p in self.players)
        return f"TurnStepper: {self.turns_played} turn(s) played, {where}. {STATIC_NOTE}"

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self.summary()
        bundle["text/html"] = self.snapshot_html()
        bundle["text/markdown"] = self.snapshot_markdown()
        return bundle
