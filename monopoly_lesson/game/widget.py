"""The whole game as a widget: the board with owners and buildings, the players, the log.

The game is a plain :class:`~monopoly_lesson.game.stepper.GameStepperState`; this view
only turns clicks into its methods and draws it, on the shared board of
:mod:`monopoly_lesson.board_view`, as :class:`~monopoly_lesson.widgets.TurnStepper` does.
A person's seat (``"you"``) is asked here: the open question is shown with controls made
for it alone, and each answer goes to :meth:`GameStepperState.answer`, which checks it.

Each question gets fresh controls, so that a click answers only the question it was shown
for: a second click on an answered question's button (a double-click's) does nothing, and
a new question's buttons take clicks only after :data:`SETTLE_SECONDS`, longer than a
double-click. A typed amount reaches the game as it is typed, before any click can.

A person's click (a mouse's, or Enter or Space on a button) leaves the keyboard's focus
where they can go on: on a new question's first answer once it takes clicks, and on the
stepping button they used when no question is open, so that a person at the keyboard never
has to find the widget again.

Beside the question: the lot's deed or the trade's effect (:mod:`~monopoly_lesson.game.deed`,
as the terminal shows them), and on request the coach's estimates
(:mod:`~monopoly_lesson.game.coach`). "Take back" takes back the last answer
(:meth:`GameStepperState.undo`); under the board, folded, are saving and loading the
game, going back to any question, any lot's deed and what each player accepts in a trade.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ..board_view import SpaceExtras, board_html, board_svg, svg_picture
from ..checks import at_the_call, check_seed
from ..plots import SHORT_TITLES, STREET_GROUPS
from ..starter import space_name
from ..widgets import (
    LOG_LABEL,
    STATIC_NOTE,
    access_css,
    live_html,
    log_html,
    reopened_html,
    static_html,
    widget_button,
)
from .deed import deed, trade_effect
from .person import Question, buildings_words, group_lots
from .state import HOTEL, PRICE, ReadableGame
from .stepper import DEFAULT_STRATEGIES, GameStepperState
from .strategies import partners_to_ask
from .terminal import decision_facts, others_accept
from .trade import Trade
from .trading import tradable_lots

if TYPE_CHECKING:  # the coach (and the compiled engine) is loaded when first asked
    from .coach import Coaching

__all__ = ["SETTLE_SECONDS", "TURN_END_TOGGLES", "GameStepper"]

PREFIX = "game-stepper"  # the CSS classes of the widget and its parts
SEED_BOX_LIMIT = 2**31  # the seed box holds seeds from 0 to 2**31 - 1
CHOOSE = {"build": "Build", "lift": "Lift", "raise_cash": "Sell or mortgage"}
"""The chooser's button for each decision answered by picking a space."""
CHOOSER_LABEL = {"build": "Build on:", "lift": "Lift:", "raise_cash": "Raise cash:"}
"""The chooser's label for each of those decisions (what a screen reader names it)."""
STOP = {"build": "Stop building", "lift": "Stop lifting"}
"""The button that answers None, for the decisions that allow it."""
HEADINGS = {
    "buy": "buy?",
    "bid": "your bid?",
    "leave_jail": "leave jail?",
    "build": "build?",
    "lift": "lift a mortgage?",
    "raise_cash": "sell or mortgage?",
    "propose_trade": "a trade to propose?",
    "accept_trade": "accept a trade?",
    "build_plan": "what to build?",
    "lift_plan": "mortgages to lift?",
}
"""Each question in a person's words, in its header ("question 4: a trade to propose?")."""
SAVE_AS = "my-game.json"
"""The file name the Save and Load box starts with (in the kernel's working folder)."""
MORE = "More: save, load, go back, any lot's deed"
"""The label of the button that unfolds what a person needs now and then."""
LOTS = sorted(PRICE)
"""The lots whose deeds the "a lot's deed" chooser shows, in board order."""
YOURS = "#fff3c4"  # the person's row in the players table
SHOWN_CHOICES = 8  # choices listed in a static snapshot's question
SETTLE_SECONDS = 0.4
"""How long a new question's buttons wait before they take a click, in a kernel: longer
than a double-click, so that its second click never answers a question not yet seen."""
TURN_END_TOGGLES = (
    ("propose_trade", "Propose a trade"),
    ("build", "Plan building"),
    ("lift", "Lift a mortgage"),
)
"""The person's turn's-end toggles (check boxes, after "At my turn's end:"): the decision
and its label (a check box with a label shows no tooltip)."""
SIDE_WIDTH = 400  # pixels: the column of the question, the players and the log
BOARD_WIDTH = (400, 544)  # pixels: the board shrinks to the room beside the column, to this
_HIDDEN, _SHOWN = "none", ""
_CELL = "padding:1px 4px;line-height:1.4"  # the players table's cells: compact
_PLAYERS_HEAD = (
    ("player, and the lots it owns", "left"),
    ("cash", "right"),
    ("net worth", "right"),
)
_GROUP_COLOUR = {space: colour for colour, spaces in STREET_GROUPS.values() for space in spaces}
_AMOUNT = re.compile(r"\$(-?\d[\d,]*)")
_SMALL = "font-size:12px;line-height:1.35"  # the deed, a swap's effect, the coach, the help
# Long labels (a completion swap's words) wrap inside their button; the board's drawing
# takes the width of its place (its height follows); the question and the words beside it
# are set as text, not at a control's height per line; a list's label stands above it.
_STYLE = (
    f"<style>.{PREFIX} .{PREFIX}-swap{{white-space:normal;height:auto;text-align:left;"
    f"line-height:1.3;padding:2px 8px}} .{PREFIX} .{PREFIX}-board svg{{width:100%;"
    f"height:auto}} .{PREFIX} .{PREFIX}-question{{line-height:1.4}} .{PREFIX} "
    f".{PREFIX}-small{{{_SMALL}}} .{PREFIX} .{PREFIX}-above{{flex-direction:column;"
    f"align-items:stretch;height:auto}} .{PREFIX} .{PREFIX}-above .widget-label{{width:auto;"
    f"text-align:left;font-size:12px;line-height:1.4;height:auto}}</style>"
)


class GameStepper(widgets.VBox):
    """Step through a whole game: "One turn", "One round", "To the end", "New game".

    Takes the arguments of :class:`~monopoly_lesson.game.stepper.GameStepperState`
    (``stepper.state``). A strategy that fails is shown in the status line and the log;
    the widget keeps working and "New game" starts again. A seat of ``"you"`` is a
    person's: its question is shown with the controls that answer it (``stepper.controls``),
    and the stepping buttons wait until it is answered; an illegal answer is shown in the
    status line. "Take back" and "Coach" help the person; "More", under the board, unfolds
    saving and loading, going back to a question, any lot's deed and what the others accept.
    """

    def __init__(
        self,
        strategies: Sequence[object] = DEFAULT_STRATEGIES,
        *,
        seed: int = 0,
        max_rounds: int = 100,
        trading: bool = False,
        answers: Sequence[object] | None = None,
        plans: bool = True,
    ) -> None:
        with at_the_call():  # a mistake in an argument is shown from here, not from the checks
            check_seed(seed, limit=SEED_BOX_LIMIT)
            self.state = GameStepperState(
                strategies,
                seed=seed,
                max_rounds=max_rounds,
                trading=trading,
                answers=answers,
                plans=plans,
            )
        self.refused: str | None = None
        """Why the last answer given in the widget was refused (shown in the status line)."""
        self.focused: widgets.Button | None = None
        """The button the keyboard's focus was last moved to, after a person's click."""
        self._focus_when_released: widgets.Button | None = None  # a new question's, greyed
        self._question_before: Question | None = None  # open when the last click came
        self.said: str | None = None
        """What the last save, load or going back said (shown in the status line)."""
        stepping = self._stepping_controls(seed)
        self.turn_end_row = self._turn_end_controls()
        self.status_view, self.players_view = widgets.HTML(), widgets.HTML()
        self.log_view = widgets.HTML()
        self.board_view = widgets.HTML()
        self.question_view, self.facts_view = widgets.HTML(), widgets.HTML()
        self.coach_view = widgets.HTML()
        self.coach_view.add_class(f"{PREFIX}-coaching")
        self.question_box = widgets.VBox([self.question_view])
        self.question_box.add_class(f"{PREFIX}-asking")
        self.controls: widgets.Box | None = None
        """The controls of the open question (None when nothing is asked): made for it."""
        self._shown: Question | None = None
        self._retired: widgets.Box | None = None  # the last question's, closed at the next
        self._coached: Question | None = None  # the question the coach's table is for
        self._drawn_game: object = None  # the game drawn last (a new one: a new table)
        self._name_controls()
        super().__init__(
            children=[
                widgets.HTML(reopened_html(PREFIX) + _STYLE + access_css(PREFIX)),
                stepping,
                self._columns(),
            ]
        )
        self.add_class("game-stepper")
        self.redraw()

    def _columns(self) -> widgets.HBox:
        """The status, the question, the players and the log in a column beside the board,
        and under the board the controls a person needs now and then."""
        side = widgets.VBox(
            [
                self.status_view,
                self.question_box,
                self.turn_end_row,
                self.players_view,
                self.log_view,
            ],
            layout=widgets.Layout(flex=f"0 0 {SIDE_WIDTH}px", margin="0 12px 0 0"),
        )
        beside = widgets.VBox(
            [self.board_view, *self._more_controls()],
            layout=widgets.Layout(
                flex=f"1 1 {BOARD_WIDTH[0]}px", max_width=f"{BOARD_WIDTH[1]}px", margin="0"
            ),
        )
        return widgets.HBox([side, beside], layout=widgets.Layout(flex_flow="row wrap"))

    def _stepping_controls(self, seed: int) -> widgets.HBox:
        """One turn, One round, To the end, Take back, Coach, New game and the seed box."""
        self.one_turn = self._watched(
            widget_button(PREFIX, "One turn", "Play the next player's turn", "play")
        )
        self.one_round = self._watched(
            widget_button(PREFIX, "One round", "Play the rest of this round", "forward")
        )
        self.to_end = self._watched(
            widget_button(PREFIX, "To the end", "Play until the game is over", "fast-forward")
        )
        self._stepped_with = self.to_end  # the stepping button a person used last
        self.coach_button = self._watched(
            widget_button(
                PREFIX,
                "Coach",
                "Your chance of winning with each choice, each played on to the end many times",
                "lightbulb-o",
            )
        )
        self.new_game = self._watched(
            widget_button(PREFIX, "New game", "Start again with the seed below", "undo")
        )
        self.seed_box = widgets.BoundedIntText(
            value=seed,
            min=0,
            max=SEED_BOX_LIMIT - 1,
            description="Seed:",
            layout={"width": "200px"},
        )
        self.one_turn.on_click(lambda _: self._step(self.state.step_turn))
        self.one_round.on_click(lambda _: self._step(self.state.step_round))
        self.to_end.on_click(lambda _: self._step(self.state.play_to_end))
        self.coach_button.on_click(lambda _: self._coach())
        self.new_game.on_click(lambda _: self._do(lambda: self.state.reset(self.seed_box.value)))
        self.take_back: widgets.Button | None = None  # made for the answers given (redraw)
        self._old_take_back: widgets.Button | None = None
        self._take_back_for: tuple[object, bool] | None = None
        self.take_back_place = widgets.HBox()  # holds the Take back made for the answers
        row = [self.one_turn, self.one_round, self.to_end, self.take_back_place]
        row += [self.coach_button, self.new_game, self.seed_box]
        for button in (self.one_turn, self.one_round, self.to_end, self.coach_button):
            button.layout.width = "auto"  # the row fits beside a laptop's file browser
        self.new_game.layout.width = "auto"
        return widgets.HBox(row, layout=widgets.Layout(flex_flow="row wrap"))

    def _turn_end_controls(self) -> widgets.HBox:
        """Check boxes for what the person wants to be asked at their next turn's end:
        propose a trade, build, lift a mortgage (each asked once, then unchecked again); a
        screen reader says whether each is checked."""
        self.turn_end_boxes: dict[str, widgets.Checkbox] = {}
        for decision, label in TURN_END_TOGGLES:
            box = widgets.Checkbox(description=label, indent=False, layout={"width": "auto"})
            box.add_class(f"{PREFIX}-want-{decision.replace('_', '-')}")
            box.observe(lambda change, d=decision: self._want(d, change.new), "value")
            self.turn_end_boxes[decision] = box
        label = widgets.HTML("<small>At my turn's end:</small>")
        row = widgets.HBox(
            [label, *self.turn_end_boxes.values()], layout=widgets.Layout(flex_flow="row wrap")
        )
        row.add_class(f"{PREFIX}-turn-end")
        return row

    def _want(self, decision: str, wanted: bool) -> None:
        """Ask (or stop asking) ``decision`` at the person's next turn's end."""
        (self.state.turn_end.add if wanted else self.state.turn_end.discard)(decision)

    def _do(self, action: Callable[[], object]) -> None:
        self.refused = self.said = None
        action()
        self.redraw()

    # -- taking back, going back, saving and loading ---------------------------------------

    def _take_back_button(self) -> None:
        """A Take back button made for this game (a new one after each take back, load or
        new game): a click takes back the last answer, and a click on the button of a game
        since taken back (a double-click's second) does nothing. The last one is closed
        when the next is made."""
        game, answered = self.state.game, bool(self.state.given)
        if self.take_back is not None and self._take_back_for == (game, answered):
            return
        button = self._watched(
            widget_button(PREFIX, "Take back", "Take back your last answer", "step-backward")
        )
        button.layout.width = "auto"
        button.disabled = not answered
        button.on_click(lambda _: self._take_back_from(game, button))
        if answered:
            _settle([button])  # greyed a moment, as a new question's buttons are
        if self._old_take_back is not None:
            _close(self._old_take_back)
        self._old_take_back, self.take_back = self.take_back, button
        self._take_back_for = (game, answered)
        self.take_back_place.children = [button]

    def _take_back_from(self, game: object, button: widgets.Button) -> None:
        """Take back the last answer, if the game is still the one the button was made for."""
        if game is self.state.game and self.state.given and not button.disabled:
            self._do(lambda: self.state.undo(1))

    def _go_back(self) -> None:
        """Open again the question numbered in the back box: its answer and every later one
        are taken back (nothing when that question is the open one, as after a click)."""
        number, given = self.back_box.value, self.state.given
        if number == given + 1:
            return
        self.refused = None
        if 1 <= number <= given:
            self.state.undo(given - number + 1)
            self.said = f"Back to question {number}: its answer and those after it taken back."
        else:
            self.said = f"Not gone back: question {number} is not one answered (1 to {given})."
        self.redraw()

    def _save(self) -> None:
        """Save the game to the file named in the file box; what happened, in the status."""
        name = self.file_box.value.strip()
        self.refused = None
        try:
            if not name:
                raise ValueError(f"type a file name first, such as {SAVE_AS}")
            self.state.save(name)
        except ValueError as error:
            self.said = f"Not saved: {error}"
        except OSError as error:
            self.said = f"Not saved: {name} cannot be written ({error.strerror})."
        else:
            given = self.state.given
            self.said = f"Saved to {name}: {given} answer{'s' * (given != 1)}; Load plays it again."
        self.redraw()

    def _load(self) -> None:
        """Play again the game saved in the file named in the file box, in place of this one;
        a file that is not a saved game is said in the status, and this game stays."""
        name = self.file_box.value.strip()
        self.refused = None
        try:
            if not name:
                raise ValueError(f"type the name of a saved game first, such as {SAVE_AS}")
            loaded = GameStepperState.load(name)
        except (ValueError, TypeError) as error:
            self.said = f"Not loaded: {error}"
        except OSError as error:
            self.said = f"Not loaded: {name} cannot be read ({error.strerror})."
        else:
            self.state = loaded
            if loaded.seed < SEED_BOX_LIMIT:
                self.seed_box.value = loaded.seed
            given = loaded.given
            self.said = f"Loaded {name}: {given} answer{'s' * (given != 1)} played again."
        self.redraw()

    def _more_controls(self) -> list[widgets.Widget]:
        """What a person needs now and then, folded under the board behind one button:
        saving and loading, going back to a question, any lot's deed, what each accepts."""
        wide = {"description_width": "initial"}
        self.file_box = widgets.Text(
            value=SAVE_AS, description="File:", style=wide, layout={"width": "230px"}
        )
        self.save_button = self._panel_button("Save", "Save this game to the file", self._save)
        self.load_button = self._panel_button("Load", "Play the saved game again here", self._load)
        self.back_box = widgets.IntText(value=1, description="Back to question", style=wide)
        self.back_box.layout.width = "190px"
        self.go_back_button = self._panel_button(
            "Go back", "Take back that question's answer and every later one", self._go_back
        )
        self.lot_box = widgets.Dropdown(
            options=[(space_name(space), space) for space in LOTS],
            description="A lot's deed:",
            style=wide,
            layout={"width": "330px"},
        )
        self.lot_box.observe(lambda _: self._draw_deed(), "value")
        self.deed_view, self.accepts_view = widgets.HTML(), widgets.HTML()
        self.back_row = widgets.HBox([self.back_box, self.go_back_button])
        self.more_panel = widgets.VBox(
            [
                widgets.HBox([self.file_box, self.save_button, self.load_button]),
                self.back_row,
                self.lot_box,
                self.deed_view,
                self.accepts_view,
            ],
            layout=widgets.Layout(display=_HIDDEN, padding="2px 0 0 0"),
        )
        self.more_panel.add_class(f"{PREFIX}-more")
        self.more_button = widgets.ToggleButton(
            description=MORE,
            tooltip="Show or fold the controls a person needs now and then",
            icon="caret-down",
            layout={"width": "auto"},
        )
        self.more_button.add_class(f"{PREFIX}-more-button")
        self.more_button.observe(lambda _: self._fold_more(), "value")
        return [self.more_button, self.more_panel]

    def _panel_button(self, label: str, tooltip: str, action: Callable[[], None]) -> widgets.Button:
        button = self._watched(widget_button(PREFIX, label, tooltip, ""))
        button.layout.width = "auto"
        button.on_click(lambda _: action())
        return button

    def _fold_more(self) -> None:
        shown = self.more_button.value
        self.more_panel.layout.display = _SHOWN if shown else _HIDDEN
        self.more_button.icon = "caret-up" if shown else "caret-down"

    def _draw_deed(self) -> None:
        """The chosen lot's deed, as it stands in this game, said to the person's seat."""
        seat = self.state.people[0] if self.state.people else None
        words = deed(self.state.game.state, self.lot_box.value, seat)
        self.deed_view.value = _small(_money_html(words))

    # -- the keyboard's focus ------------------------------------------------------------

    def _watched(self, button: widgets.Button) -> widgets.Button:
        """``button``, whose clicks from the page (a person's, not code's ``click()``) are
        followed by :meth:`_after_click`. Call it before the button's own ``on_click``."""
        button.on_click(lambda _: setattr(self, "_question_before", self.state.question))
        button.on_msg(
            lambda _widget, content, _buffers: (
                self._after_click(button) if content.get("event") == "click" else None
            )
        )
        return button

    def _after_click(self, clicked: widgets.Button) -> None:
        """Where a person's click on ``clicked`` leaves the keyboard's focus: on a question
        it opened (a step's, a take back's, an answer's next), at its first answer; where it
        was, if ``clicked`` is still there to use; else on the stepping button used last
        (New game once the game is over)."""
        if clicked in (self.one_turn, self.one_round, self.to_end):
            self._stepped_with = clicked
        question, answers = self.state.question, _buttons_in(self.controls)
        if question is not None and question is not self._question_before and answers:
            self._focus(answers[0])
        elif clicked.comm is None or clicked.disabled or not _in_sight(self, clicked):
            if question is not None and answers:
                self._focus(answers[0])
            else:
                self._focus(self.new_game if self.state.over else self._stepped_with)

    def _focus(self, button: widgets.Button) -> None:
        """Move the keyboard's focus to ``button``; a new question's, greyed a moment, when
        it is released."""
        self.focused = button
        self._focus_when_released = button if button.disabled else None
        if not button.disabled:
            button.focus()

    def _focus_released(self) -> None:
        button, self._focus_when_released = self._focus_when_released, None
        if button is not None and button.comm is not None and not button.disabled:
            button.focus()

    # -- the coach ---------------------------------------------------------------------

    def _coach(self) -> None:
        """Show the coach's estimates at the open question, under it (once per question).
        The coach plays on copies: the game is only read."""
        question = self.state.question
        if question is None or self._coached is question:
            return
        self._coached = question
        self.coach_view.value = _small("Coach: playing each choice on&hellip;")
        try:
            from .coach import coach_stepper  # the compiled engine, loaded when first asked

            coaching = coach_stepper(self.state)
        except (ValueError, RuntimeError) as error:
            self.coach_view.value = _small(f"The coach cannot help here: {_money_html(str(error))}")
            return
        self.coach_view.value = _coach_html(coaching)

    def _step(self, step: Callable[[], None]) -> None:
        """Play a step, unless a question is open: then a click that still arrives (a
        double-click's second, before the buttons grey) does nothing."""
        if self.state.question is None:
            self._do(step)

    # -- the person's question: controls made for it -------------------------------------

    def _answer(self, question: Question, value: Callable[[], object]) -> None:
        """Give ``question`` the ``value`` its control holds, if it is still the open one (a
        click on an answered question's control does nothing); a refused answer is shown
        and the question stays."""
        if question is not self.state.question:
            return
        self.refused = self.said = None
        try:
            self.state.answer(value())
        except (ValueError, RuntimeError) as error:  # an illegal answer
            self.refused = str(error)
        self.redraw()

    def _show_question(self, question: Question | None) -> None:
        """Show ``question``, the facts it is about (a deed, a trade's effect) and controls
        made for it (nothing when None); the coach's table of the last question goes."""
        if question is not self._shown:
            self._shown = question
            fresh = None if question is None else self._controls_for(question)
            if self._retired is not None:
                _close(self._retired)
            self._retired, self.controls = self.controls, fresh
            self.question_box.children = [self.question_view, self.facts_view] + (
                [fresh, self.coach_view] if fresh else []
            )
            facts = [] if question is None else _facts(question)
            self.facts_view.value = "".join(_small(_money_html(fact)) for fact in facts)
            self.facts_view.layout.display = _SHOWN if facts else _HIDDEN
            self.coach_view.value, self._coached = "", None
            if question is not None:  # what the others accept, for the trades of this table
                lines = [" ".join(line.split()) for line in others_accept(question)[1:]]
                self.accepts_view.value = _accepts_html(lines)
        self.question_box.layout.display = _HIDDEN if question is None else _SHOWN
        # last, once its controls are set; said by a screen reader as it opens
        self.question_view.value = live_html(self._question_html(question))

    def _controls_for(self, question: Question) -> widgets.Box:
        """New controls that answer ``question`` and no other; their buttons, and New game,
        are held for :data:`SETTLE_SECONDS` where a kernel's event loop can release them."""
        self._name_controls()
        decision = question.decision
        if decision in ("buy", "leave_jail", "accept_trade"):
            controls = self._yes_no_controls(question)
        elif decision == "bid":
            controls = self._bid_controls(question)
        elif decision in CHOOSE:
            controls = self._choice_controls(question)
        elif decision == "build_plan":
            controls = self._build_plan_controls(question)
        elif decision == "lift_plan":
            controls = self._lift_plan_controls(question)
        else:
            controls = self._trade_controls(question)
        # a stray click must not restart; the focus waits for the first answer's release
        _settle([*_buttons_in(controls), self.new_game], self._focus_released)
        return controls

    def _name_controls(self) -> None:
        """Forget the last question's controls by name: each is set again (or stays None)
        as the open question's controls are made."""
        self.yes_button = self.no_button = None
        self.bid_box = self.bid_range = self.bid_button = self.no_bid_button = None
        self.chooser = self.choose_button = self.done_button = None
        self.no_trade_button = self.swaps = self.propose_button = self.own_trade = None
        self.partner_box = self.give_box = self.take_box = self.cash_box = self.paid_box = None
        self.plan_boxes: dict[int, widgets.BoundedIntText] = {}
        self.plan_button = self.no_plan_button = self.lift_select = None
        self.default_plan_button: widgets.Button | None = None

    def _button(
        self, question: Question, name: str, label: str, value: Callable[[], object]
    ) -> widgets.Button:
        """A button that answers ``question`` with ``value()``, with the CSS class
        ``game-stepper-<name>``; its tooltip, which a screen reader says after its words, is
        the question."""
        button = self._watched(widgets.Button(description=label, tooltip=question.text))
        button.add_class(f"{PREFIX}-{name}")
        button.on_click(lambda _: self._answer(question, value))
        return button

    def _yes_no_controls(self, question: Question) -> widgets.HBox:
        """Two buttons, True and False, labelled for the question (Buy, Stay, Accept...)."""
        self.yes_button = self._button(question, "yes", question.describe(True), lambda: True)
        self.no_button = self._button(question, "no", question.describe(False), lambda: False)
        return widgets.HBox([self.yes_button, self.no_button])

    def _bid_controls(self, question: Question) -> widgets.VBox:
        """A bid box (not bounded: a bid out of range is refused with the rule) that sends
        each digit as it is typed, "Bid $N" saying the bid it gives, and No bid."""
        box = widgets.IntText(
            value=question.default,
            description="Your bid $:",
            continuous_update=True,
            layout={"width": "200px"},
        )
        box.add_class(f"{PREFIX}-bid-box")
        most = question.choices[-1]
        self.bid_range = widgets.HTML(_money_html(f"from $0 (no bid) to ${most:,}"))
        self.bid_range.add_class(f"{PREFIX}-bid-range")
        bid = self._button(question, "bid", _bid_label(box.value), lambda: box.value)
        box.observe(lambda change: setattr(bid, "description", _bid_label(change.new)), "value")
        self.bid_box, self.bid_button = box, bid
        self.no_bid_button = self._button(question, "no-bid", "No bid", lambda: 0)
        return widgets.VBox(
            [widgets.HBox([box, self.bid_range]), widgets.HBox([bid, self.no_bid_button])]
        )

    def _choice_controls(self, question: Question) -> widgets.HBox:
        """A chooser of the legal choices in words, its button, and Done (None) if allowed."""
        options = [(question.describe(c), c) for c in question.choices if c is not None]
        chooser = widgets.Dropdown(
            options=options,
            description=CHOOSER_LABEL[question.decision],
            style={"description_width": "initial"},
            layout={"width": "390px"},
        )
        chooser.add_class(f"{PREFIX}-chooser")
        chooser.index = 0  # the first choice shown, never a blank one
        self.chooser = chooser
        self.choose_button = self._button(
            question, "choose", CHOOSE[question.decision], lambda: chooser.value
        )
        parts = [chooser, self.choose_button]
        if None in question.choices:
            self.done_button = self._button(question, "done", STOP[question.decision], lambda: None)
            parts.append(self.done_button)
        return widgets.HBox(parts, layout=widgets.Layout(flex_flow="row wrap"))

    def _build_plan_controls(self, question: Question) -> widgets.VBox:
        """A box for each lot of the groups that can be built on: the buildings to add
        (the rules check the plan as a whole); Build, and No building."""
        game = question.game
        rows = []
        for space in group_lots(list(question.choices)):
            now = game.lots[space].buildings
            box = widgets.BoundedIntText(
                value=0,
                min=0,
                max=HOTEL - now,
                description=f"{space_name(space)}, {buildings_words(now)}: add",
                style={"description_width": "initial"},
                layout={"width": "auto"},
            )
            box.add_class(f"{PREFIX}-plan-{space}")
            self.plan_boxes[space] = box
            rows.append(box)
        boxes = dict(self.plan_boxes)
        self.plan_button = self._button(
            question, "build-plan", "Build", lambda: {s: b.value for s, b in boxes.items()}
        )
        self.no_plan_button = self._button(question, "no-plan", "No building", lambda: {})
        self.default_plan_button = self._watched(
            widgets.Button(
                description="Fill in the default",
                tooltip="Put in the boxes what the rules' default would build now",
            )
        )
        self.default_plan_button.add_class(f"{PREFIX}-default-plan")

        def fill_in(_) -> None:  # the boxes only: the person still answers with Build
            for space, box in boxes.items():
                box.value = question.default.get(space, 0)  # type: ignore[union-attr]

        self.default_plan_button.on_click(fill_in)
        buttons = [self.plan_button, self.no_plan_button, self.default_plan_button]
        return widgets.VBox([*rows, widgets.HBox(buttons)])

    def _lift_plan_controls(self, question: Question) -> widgets.VBox:
        """The mortgages that may be lifted, to pick any of; Lift, and Lift none."""
        select = widgets.SelectMultiple(
            options=[(question.describe(s), s) for s in question.choices],
            rows=min(len(question.choices), 5),
            description="Lift:",
            style={"description_width": "initial"},
            layout={"width": "320px"},
        )
        select.add_class(f"{PREFIX}-lift-select")
        self.lift_select = select
        self.plan_button = self._button(question, "lift-plan", "Lift", lambda: tuple(select.value))
        self.no_plan_button = self._button(question, "no-plan", "Lift none", lambda: ())
        return widgets.VBox([select, widgets.HBox([self.plan_button, self.no_plan_button])])

    def _trade_controls(self, question: Question) -> widgets.VBox:
        """No trade; a button for each completion swap on offer; a form for any trade,
        folded until "A trade of your own" opens it."""
        self.no_trade_button = self._button(question, "no-trade", "No trade", lambda: None)
        swaps = []  # each swap's button, and under it what the swap would complete
        for swap in (choice for choice in question.choices if choice is not None):
            button = self._button(question, "swap", question.describe(swap), lambda s=swap: s)
            button.layout.width = "auto"
            effect = trade_effect(question.game, swap, question.seat)
            swaps += [button, widgets.HTML(_small(_money_html(effect)))]
        self.swaps = widgets.VBox(swaps)
        form = self._trade_form(question)
        form.layout.display = _HIDDEN  # folded: the question and the players stay in sight
        form.layout.border_left, form.layout.padding = "3px solid #ddd", "0 0 0 4px"
        own = widgets.ToggleButton(
            description="A trade of your own", icon="caret-down", layout={"width": "auto"}
        )
        own.add_class(f"{PREFIX}-own-trade")

        def unfold(change) -> None:  # a button, so that the keyboard opens the form too
            form.layout.display = _SHOWN if change.new else _HIDDEN
            own.icon = "caret-up" if change.new else "caret-down"

        own.observe(unfold, "value")
        self.own_trade = own
        return widgets.VBox([self.no_trade_button, self.swaps, own, form])

    def _trade_form(self, question: Question) -> widgets.VBox:
        """A trade of your own: the partner, the cash you pay or they pay, the lots you give
        and get (each list labelled above it)."""
        partner, give, take = _trade_sides(question)
        for side, label in ((give, "You give:"), (take, "You get:")):
            side.description = label
            side.add_class(f"{PREFIX}-above")
        cash, paid = (
            widgets.IntText(
                value=0, description=label, continuous_update=True, layout={"width": "165px"}
            )
            for label in ("You pay $:", "They pay $:")
        )
        boxes = (partner, give, take, cash, paid)
        for box, name in zip(boxes, ("partner", "give", "take", "cash", "paid"), strict=True):
            box.add_class(f"{PREFIX}-{name}")
            box.layout.width = box.layout.width or "180px"
        self.partner_box, self.give_box, self.take_box = partner, give, take
        self.cash_box, self.paid_box = cash, paid
        self.propose_button = self._button(
            question,
            "propose",
            "Propose",
            lambda: Trade(
                partner.value if partner.value is not None else 0,
                give=tuple(give.value),
                take=tuple(take.value),
                cash=_cash(cash.value, paid.value),
            ),
        )
        return widgets.VBox(
            [
                partner,
                widgets.HBox([cash, paid]),
                widgets.HBox([give, take]),
                self.propose_button,
            ]
        )

    @property
    def asked(self) -> int:
        """The number of the open question in this game (answers given, plus one), or of
        the last answered."""
        return self.state.given + (self.state.question is not None)

    def _question_html(self, question: Question | None, *, choices: bool = False) -> str:
        """The question in words, numbered; with ``choices``, its choices listed too (for a
        static snapshot, which has no controls)."""
        if question is None:
            return ""
        who = html.escape(self.state.game.state.name(question.seat))
        listed = ""
        if choices:
            listed = f"<br><small>Choices: {_money_html(_choices_words(question))}</small>"
        return (
            f'<div class="{PREFIX}-question" data-decision="{question.decision}" '
            f'data-number="{self.asked}" style="background:{YOURS};padding:4px 8px;'
            f'border-left:4px solid #b8860b"><b>&#9733; {who}, question '
            f"{self.asked}: {_asked(question)}</b> {_money_html(question.text)}{listed}</div>"
        )

    # -- drawing -----------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw the state: status, the question, players (cash, what they own), board, log;
        the controls for the answers given (Take back, Coach, going back), the deed shown."""
        state = self.state
        question = state.question
        self.status_view.value = live_html(self._status_html())  # first: the question's follows
        for button in (self.one_turn, self.one_round, self.to_end):
            button.disabled = question is not None  # the stepping waits for the answer
        self._show_question(question)
        self._show_turn_end()
        self._draw_answers_controls()
        self.board_view.value = board_html(
            **self._board(), css_class="game-stepper-board", label=_board_words(state.tokens())
        )
        self.players_view.value = self._players_html()
        self.log_view.value = self._log_html(label=LOG_LABEL)
        self._draw_deed()

    def _log_html(self, label: str | None = None) -> str:
        return log_html(self.state.lines[-300:], PREFIX, width=SIDE_WIDTH, height=220, label=label)

    def _status_html(self) -> str:
        """The status line, and under it why an answer was refused, or what a save, load or
        going back did."""
        status = self.state.status()
        colour = "#b00020" if self.state.error else "#111"
        notes = []
        if self.refused:
            notes.append((f"{PREFIX}-refused", f"Not taken: {self.refused}", True))
        if self.said:
            notes.append((f"{PREFIX}-said", self.said, self.said.startswith("Not ")))
        below = "".join(
            f'<br><span class="{name}" style="color:{"#b00020" if bad else "#111"}">'
            f"{_money_html(words)}</span>"
            for name, words, bad in notes
        )
        return (
            f'<b class="game-stepper-status" style="color:{colour}">'
            f"{_money_html(status)}</b>{below}"
        )

    def _draw_answers_controls(self) -> None:
        """Take back, Coach, going back and the help on trades: a person's, shown only at a
        table with a person (the help, when the game trades), each usable only when there is
        something to do."""
        state = self.state
        person = _SHOWN if state.people else _HIDDEN
        self._take_back_button()
        for part in (self.take_back_place, self.coach_button, self.back_row):
            part.layout.display = person
        trades = state.people and state.trading
        self.accepts_view.layout.display = _SHOWN if trades else _HIDDEN
        self.more_button.description = MORE + (", what the others accept" if trades else "")
        self.coach_button.disabled = state.question is None
        self.go_back_button.disabled = not state.given
        if state.game is not self._drawn_game and state.question is None:
            self.accepts_view.value = _accepts_html([])  # a new table: said at its questions
        self._drawn_game = state.game

    def _show_turn_end(self) -> None:
        """The turn's-end toggles as the state has them (one asked is off again); shown
        only with a person at the table and the game on."""
        state = self.state
        for decision, box in self.turn_end_boxes.items():
            wanted = decision in state.turn_end
            if box.value != wanted:
                box.value = wanted
            box.disabled = decision == "propose_trade" and not state.trading
        playing = bool(state.people) and state.plans and not state.over
        self.turn_end_row.layout.display = _SHOWN if playing else _HIDDEN

    def _board(self) -> dict:
        colours = self.state.players()["colour"].to_dict()
        return {
            "tokens": self.state.tokens(),
            "extras": self.state.extras(),
            "token_colours": colours,
        }

    def _players_html(self) -> str:
        """Each player's cash and net worth, and on a line below, the lots it owns."""
        people = {self.state.game.state.name(seat) for seat in self.state.people}
        owns: dict[str, list[str]] = {}
        for space, extra in sorted(self.state.extras().items()):
            owns.setdefault(extra.owner, []).append(_lot_chip(space, extra))
        rows = []
        for name, p in self.state.players().iterrows():
            mine = name in people
            body = (
                f'<tbody class="{PREFIX}-you" style="background:{YOURS}" title="your seat">'
                if mine
                else "<tbody>"
            )
            where = ("" if p.playing else " bankrupt") + (" in jail" if p.in_jail else "")
            monopolies = f"; {p.monopolies} monopol" + ("y" if p.monopolies == 1 else "ies")
            lots = " ".join(owns.get(name, [])) or "no lots"
            rows.append(
                f'{body}<tr><td style="{_CELL};font-weight:bold"><span style="color:{p.colour}">'
                f"&#9679;</span> {html.escape(name)}{' &#9733; you' if mine else ''}"
                f"<small>{where}</small></td>"
                f'<td style="{_CELL};text-align:right">${p.cash:,}</td>'
                f'<td style="{_CELL};text-align:right">${p.net_worth:,}</td></tr>'
                f'<tr><td colspan="3" class="{PREFIX}-owns" style="padding:0 4px 3px 18px;'
                f'font-size:11px;line-height:1.5">{lots}'
                f"<small>{monopolies if p.monopolies else ''}</small></td></tr></tbody>"
            )
        head = "".join(
            f'<th style="{_CELL};text-align:{side}">{label}</th>' for label, side in _PLAYERS_HEAD
        )
        return (
            f'<table class="game-stepper-players" style="font-size:12px;width:{SIDE_WIDTH}px;'
            f'border-collapse:collapse"><thead><tr>{head}</tr></thead>{"".join(rows)}</table>'
        )

    # -- static stand-in ---------------------------------------------------------------

    def snapshot_html(self) -> str:
        """A static picture of the widget: status, the open question and its choices,
        players, log, the board as a picture, and how to use it."""
        side = self.players_view.value + self._log_html()
        status = self._status_html() + self._question_html(self.state.question, choices=True)
        board = svg_picture(
            self.snapshot_svg(), alt=_board_words(self.state.tokens()), css_class="monopoly-board"
        )
        return static_html(PREFIX, status, board, side)

    def snapshot_svg(self) -> str:
        """The board as standalone SVG (for print)."""
        return board_svg(**self._board())

    def snapshot_markdown(self, log_lines: int = 12) -> str:
        """A static snapshot in Markdown, for print: the status, the open question, the
        players, the log."""
        players = self.state.players()
        table = "| player | cash | net worth | lots | monopolies |\n|---|---:|---:|---:|---:|\n"
        table += "".join(
            f"| {name} | ${p.cash:,} | ${p.net_worth:,} | {p.lots} | {p.monopolies} |\n"
            for name, p in players.iterrows()
        )
        log = "\n".join(self.state.lines[-log_lines:]) or "(no turns yet)"
        question = self.state.question
        asked = ""
        if question is not None:
            who = self.state.game.state.name(question.seat)
            asked = (
                f"> **{who}, question {self.asked}: {_asked(question)}** "
                f"{question.text}\n>\n> Choices: {_choices_words(question)}\n\n"
            )
        text = _money_markdown(f"*{STATIC_NOTE}*\n\n**{self.state.status()}**\n\n{asked}{table}")
        return f"{text}\n\n```\n{log}\n```\n"

    def _repr_mimebundle_(self, **kwargs) -> dict:
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        question = self.state.question
        asked = "" if question is None else f" {question.text}"
        bundle["text/plain"] = f"GameStepper: {self.state.status()}{asked} {STATIC_NOTE}"
        bundle["text/html"] = self.snapshot_html()
        bundle["text/markdown"] = self.snapshot_markdown()
        bundle["image/svg+xml"] = self.snapshot_svg()
        return bundle


def _settle(buttons: list[widgets.Button], released: Callable[[], None] | None = None) -> None:
    """Grey ``buttons`` for :data:`SETTLE_SECONDS`, where a kernel's event loop runs to
    release them (then call ``released``); elsewhere (code clicks, not a person) they
    answer at once."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    for button in buttons:
        button.disabled = True
    loop.call_later(SETTLE_SECONDS, _release, buttons, released)


def _release(buttons: list[widgets.Button], released: Callable[[], None] | None) -> None:
    for button in buttons:
        if button.comm is not None:  # not closed since (a later question's controls)
            button.disabled = False
    if released is not None:
        released()


def _buttons_in(box: widgets.Widget | None) -> list[widgets.Button]:
    """The buttons in ``box``, in the order the Tab key meets them (shown or not)."""
    if isinstance(box, widgets.Button):
        return [box]
    return [b for child in getattr(box, "children", ()) for b in _buttons_in(child)]


def _in_sight(top: widgets.Widget, part: widgets.Widget) -> bool:
    """Whether ``part`` is in ``top`` and shown: it and every box holding it displayed."""
    if top.layout.display == _HIDDEN:
        return False
    if part is top:
        return True
    return any(_in_sight(child, part) for child in getattr(top, "children", ()))


def _close(box: widgets.Widget) -> None:
    """Close ``box``, everything in it, and their layouts and styles."""
    for child in getattr(box, "children", ()):
        _close(child)
    for part in (getattr(box, "layout", None), getattr(box, "style", None)):
        if part is not None:
            part.close()
    box.close()


def _small(inner_html: str) -> str:
    """A paragraph of small print: a deed, a trade's effect, the coach, the help."""
    return f'<div class="{PREFIX}-small" style="{_SMALL};margin:2px 0">{inner_html}</div>'


def _asked(question: Question) -> str:
    """The decision asked, in a person's words ("buy?", "a trade to propose?")."""
    return HEADINGS[question.decision]


def _facts(question: Question) -> list[str]:
    """What a person reads under the question, as the terminal shows it: the lot's deed or
    the effect of the trade offered (a proposal's swaps have theirs under their buttons)."""
    return [] if question.decision == "propose_trade" else decision_facts(question)


def _cash(you_pay: int, they_pay: int) -> int:
    """The cash of a trade of your own (positive: you pay), from the two boxes of the form."""
    if you_pay < 0 or they_pay < 0:
        raise ValueError("an amount of cash is $0 or more: put it under You pay or They pay")
    if you_pay and they_pay:
        raise ValueError("either you pay cash or they do: fill in one of the two")
    return you_pay - they_pay


def _coach_html(coaching: Coaching) -> str:
    """The coach's estimates as a table: each choice, your chance of winning with it and
    its 95% interval; the stand-in player's own choice marked in words, and said below."""
    mark = f" &larr; the {html.escape(coaching.stand_in)} player's choice"
    rows = "".join(
        f'<tr><td style="{_CELL}">{_money_html(row.choice)}'
        f"{mark if choice == coaching.stand_in_answer else ''}</td>"
        f'<td style="{_CELL};text-align:right">{_percent(row.win_chance)}</td>'
        f'<td style="{_CELL};text-align:right">{_percent(row.ci_low)} to '
        f"{_percent(row.ci_high)}</td></tr>"
        for row, choice in zip(coaching.table().itertuples(), coaching.choices, strict=True)
    )
    head = "".join(
        f'<th style="{_CELL};text-align:{side}">{label}</th>'
        for label, side in (
            ("your answer", "left"),
            ("you win", "right"),
            ("95% interval", "right"),
        )
    )
    share = (
        "" if coaching.stand_in_share == 1 else f" (in {_percent(coaching.stand_in_share)} of asks)"
    )
    said = (
        f"Coach: {coaching.playouts:,} play-outs of each answer; after it, the "
        f"{coaching.stand_in} player plays your seat. Its own answer: "
        f"{coaching.stand_in_label}{share}." + (f" ({coaching.note})" if coaching.note else "")
    )
    return (
        f'<table class="{PREFIX}-coach-table" style="{_SMALL};border-collapse:collapse">'
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{_small(_money_html(said))}"
    )


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def _accepts_html(lines: list[str]) -> str:
    """What each other player at the table accepts in a trade (the terminal's words), or
    when that is said."""
    if not lines:
        body = "<li>Shown at your questions.</li>"
    else:
        body = "".join(f"<li>{_money_html(line)}</li>" for line in lines)
    return (
        f'<div class="{PREFIX}-accepts" style="{_SMALL}"><b>What the others accept in a '
        f'trade</b><ul style="margin:2px 0;padding-left:18px">{body}</ul></div>'
    )


def _bid_label(value: int) -> str:
    return f"Bid ${value:,}"


def _money_html(text: str) -> str:
    """``text`` escaped for HTML, each amount in an element of its own: MathJax never pairs
    two dollar signs across an element's edge, so money is not typeset as maths."""
    return _AMOUNT.sub(r"<span>$\1</span>", html.escape(text))


def _money_markdown(text: str) -> str:
    """Markdown whose amounts read as money everywhere (the chapters' ``<span>\\$200</span>``)."""
    return _AMOUNT.sub(r"<span>\\$\1</span>", text)


def _lot_chip(space: int, extra: SpaceExtras) -> str:
    """A lot in a few letters, edged in its group's colour; its buildings or mortgage after."""
    name = SHORT_TITLES[space - 1].replace("<br>", " ")
    built = " H" if extra.hotel else f" {extra.houses}h" if extra.houses else ""
    if extra.mortgaged:
        built += " (m)"
    edge = _GROUP_COLOUR.get(space, "#999")
    title = html.escape(f"{space_name(space)}{', mortgaged' if extra.mortgaged else ''}")
    return (
        f'<span title="{title}" style="white-space:nowrap;border-left:6px solid {edge};'
        f'padding:0 3px;background:#f4f4f4">{html.escape(name + built)}</span>'
    )


def _board_words(tokens: dict[str, int]) -> str:
    """The board's picture in words, for readers without it."""
    return "The Monopoly board: " + "; ".join(
        f"{name} on {space_name(space)}" for name, space in tokens.items()
    )


def _trade_sides(
    question: Question,
) -> tuple[widgets.Dropdown, widgets.SelectMultiple, widgets.SelectMultiple]:
    """The partner chooser (the first not yet asked this turn), the person's lots to give
    and the partner's to take, which follow the partner chosen."""
    game, seat = question.game, question.seat
    others = [p.seat for p in game.players if p.in_game and p.seat != seat]
    not_asked = partners_to_ask(game, game.player(seat))  # this turn, in seat order
    partner = widgets.Dropdown(
        options=[(game.name(p), p) for p in others],
        value=(not_asked or others)[0],
        description="Partner:",
        layout={"width": "220px"},
    )
    give = widgets.SelectMultiple(options=_lot_options(game, seat), rows=4)
    take = widgets.SelectMultiple(options=_lot_options(game, partner.value), rows=4)

    def partner_chosen(change) -> None:  # the lots the partner chosen may give
        take.options = _lot_options(game, change.new) if change.new is not None else []
        take.value = ()

    partner.observe(partner_chosen, "value")
    return partner, give, take


def _lot_options(game: ReadableGame, seat: int) -> list[tuple[str, int]]:
    """``seat``'s lots that a trade may move (those in a group without buildings), labelled."""
    return [
        (space_name(s) + (" (mortgaged)" if game.lots[s].mortgaged else ""), s)
        for s in tradable_lots(game, seat)
    ]


def _choices_words(question: Question) -> str:
    """The question's choices in words, for a snapshot without controls."""
    if isinstance(question.choices, range):
        return f"a bid from $0 (no bid) to ${question.choices[-1]:,}"
    words = [question.describe(c) for c in question.choices[:SHOWN_CHOICES]]
    more = len(question.choices) - SHOWN_CHOICES
    tail = [f"{more} more"] if more > 0 else []
    if question.decision == "propose_trade":
        tail.append("or a trade of your own")
    return "; ".join(words + tail)
