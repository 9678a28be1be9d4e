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
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from ..board_view import SpaceExtras, board_html, board_svg, svg_picture
from ..checks import at_the_call, check_seed
from ..plots import SHORT_TITLES, STREET_GROUPS
from ..starter import space_name
from ..widgets import STATIC_NOTE, log_html, reopened_html, static_html, widget_button
from .person import Question, buildings_words, group_lots
from .state import HOTEL, ReadableGame
from .stepper import DEFAULT_STRATEGIES, GameStepperState
from .strategies import partners_to_ask
from .trade import Trade
from .trading import tradable_lots

__all__ = ["SETTLE_SECONDS", "TURN_END_TOGGLES", "GameStepper"]

PREFIX = "game-stepper"  # the CSS classes of the widget and its parts
SEED_BOX_LIMIT = 2**31  # the seed box holds seeds from 0 to 2**31 - 1
CHOOSE = {"build": "Build", "lift": "Lift", "raise_cash": "Sell or mortgage"}
"""The chooser's button for each decision answered by picking a space."""
YOURS = "#fff3c4"  # the person's row in the players table
SHOWN_CHOICES = 8  # choices listed in a static snapshot's question
SETTLE_SECONDS = 0.4
"""How long a new question's buttons wait before they take a click, in a kernel: longer
than a double-click, so that its second click never answers a question not yet seen."""
TURN_END_TOGGLES = (
    ("propose_trade", "Propose a trade", "Be asked for a trade to propose at your next turn's end"),
    ("build", "Build", "Plan your building at your next turn's end"),
    ("lift", "Lift a mortgage", "Choose mortgages to lift at your next turn's end"),
)
"""The person's turn's-end toggles: the decision, its label and its tooltip."""
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
_TRADE_LABELS = (
    '<small>(You pay $: negative when you are paid)</small><small style="display:flex">'
    '<span style="width:184px">You give:</span><span>You get:</span></small>'
)
# Long labels (a completion swap's words) wrap inside their button; the board's drawing
# takes the width of its place (its height follows).
_STYLE = (
    f"<style>.{PREFIX} .{PREFIX}-swap{{white-space:normal;height:auto;text-align:left;"
    f"line-height:1.3;padding:2px 8px}} .{PREFIX} .{PREFIX}-board svg{{width:100%;"
    "height:auto}</style>"
)


class GameStepper(widgets.VBox):
    """Step through a whole game: "One turn", "One round", "To the end", "New game".

    Takes the arguments of :class:`~monopoly_lesson.game.stepper.GameStepperState`
    (``stepper.state``). A strategy that fails is shown in the status line and the log;
    the widget keeps working and "New game" starts again. A seat of ``"you"`` is a
    person's: its question is shown with the controls that answer it (``stepper.controls``),
    and the stepping buttons wait until it is answered; an illegal answer is shown in the
    status line.
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
        stepping = self._stepping_controls(seed)
        self.turn_end_row = self._turn_end_controls()
        self.status_view, self.players_view = widgets.HTML(), widgets.HTML()
        self.log_view = widgets.HTML()
        self.board_view = widgets.HTML(
            layout=widgets.Layout(
                flex=f"1 1 {BOARD_WIDTH[0]}px", max_width=f"{BOARD_WIDTH[1]}px", margin="0"
            )
        )
        self.refused: str | None = None
        """Why the last answer given in the widget was refused (shown in the status line)."""
        self.question_view = widgets.HTML()
        self.question_box = widgets.VBox([self.question_view])
        self.question_box.add_class(f"{PREFIX}-asking")
        self.controls: widgets.Box | None = None
        """The controls of the open question (None when nothing is asked): made for it."""
        self._shown: Question | None = None
        self._retired: widgets.Box | None = None  # the last question's, closed at the next
        self._name_controls()
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
        super().__init__(
            children=[
                widgets.HTML(reopened_html(PREFIX) + _STYLE),
                stepping,
                widgets.HBox([side, self.board_view], layout=widgets.Layout(flex_flow="row wrap")),
            ]
        )
        self.add_class("game-stepper")
        self.redraw()

    def _stepping_controls(self, seed: int) -> widgets.HBox:
        """One turn, One round, To the end, New game and the seed box, in a row."""
        self.one_turn = widget_button(PREFIX, "One turn", "Play the next player's turn", "play")
        self.one_round = widget_button(
            PREFIX, "One round", "Play the rest of this round", "forward"
        )
        self.to_end = widget_button(
            PREFIX, "To the end", "Play until the game is over", "fast-forward"
        )
        self.new_game = widget_button(PREFIX, "New game", "Start again with the seed below", "undo")
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
        self.new_game.on_click(lambda _: self._do(lambda: self.state.reset(self.seed_box.value)))
        buttons = [self.one_turn, self.one_round, self.to_end, self.new_game, self.seed_box]
        return widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap"))

    def _turn_end_controls(self) -> widgets.HBox:
        """Toggles for what the person wants to be asked at their next turn's end: propose
        a trade, build, lift a mortgage (each asked once, then off again)."""
        self.turn_end_buttons: dict[str, widgets.ToggleButton] = {}
        for decision, label, tip in TURN_END_TOGGLES:
            toggle = widgets.ToggleButton(
                description=label, tooltip=tip, icon="", layout={"width": "auto"}
            )
            toggle.add_class(f"{PREFIX}-want-{decision.replace('_', '-')}")
            toggle.observe(lambda change, d=decision: self._want(d, change.new), "value")
            self.turn_end_buttons[decision] = toggle
        label = widgets.HTML("<small>At my turn's end:</small>")
        row = widgets.HBox(
            [label, *self.turn_end_buttons.values()], layout=widgets.Layout(flex_flow="row wrap")
        )
        row.add_class(f"{PREFIX}-turn-end")
        return row

    def _want(self, decision: str, wanted: bool) -> None:
        """Ask (or stop asking) ``decision`` at the person's next turn's end."""
        (self.state.turn_end.add if wanted else self.state.turn_end.discard)(decision)
        self.turn_end_buttons[decision].icon = "check" if wanted else ""

    def _do(self, action: Callable[[], object]) -> None:
        self.refused = None
        action()
        self.redraw()

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
        self.refused = None
        try:
            self.state.answer(value())
        except (ValueError, RuntimeError) as error:  # an illegal answer
            self.refused = str(error)
        self.redraw()

    def _show_question(self, question: Question | None) -> None:
        """Show ``question`` and controls made for it (nothing when None)."""
        if question is not self._shown:
            self._shown = question
            fresh = None if question is None else self._controls_for(question)
            if self._retired is not None:
                _close(self._retired)
            self._retired, self.controls = self.controls, fresh
            self.question_box.children = [self.question_view] + ([fresh] if fresh else [])
        self.question_box.layout.display = _HIDDEN if question is None else _SHOWN
        self.question_view.value = self._question_html(question)  # last: its controls are set

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
        _settle([*_buttons_in(controls), self.new_game])  # a stray click must not restart
        return controls

    def _name_controls(self) -> None:
        """Forget the last question's controls by name: each is set again (or stays None)
        as the open question's controls are made."""
        self.yes_button = self.no_button = None
        self.bid_box = self.bid_range = self.bid_button = self.no_bid_button = None
        self.chooser = self.choose_button = self.done_button = None
        self.no_trade_button = self.swaps = self.propose_button = None
        self.plan_boxes: dict[int, widgets.BoundedIntText] = {}
        self.plan_button = self.no_plan_button = self.lift_select = None
        self.partner_box = self.give_box = self.take_box = self.cash_box = None

    def _button(
        self, question: Question, name: str, label: str, value: Callable[[], object]
    ) -> widgets.Button:
        """A button that answers ``question`` with ``value()``, with the CSS class
        ``game-stepper-<name>``."""
        button = widgets.Button(description=label)
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
        chooser = widgets.Dropdown(options=options, layout={"width": "300px"})
        chooser.add_class(f"{PREFIX}-chooser")
        chooser.index = 0  # the first choice shown, never a blank one
        self.chooser = chooser
        self.choose_button = self._button(
            question, "choose", CHOOSE[question.decision], lambda: chooser.value
        )
        parts = [chooser, self.choose_button]
        if None in question.choices:
            self.done_button = self._button(question, "done", "Done", lambda: None)
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
        return widgets.VBox([*rows, widgets.HBox([self.plan_button, self.no_plan_button])])

    def _lift_plan_controls(self, question: Question) -> widgets.VBox:
        """The mortgages that may be lifted, to pick any of; Lift, and None."""
        select = widgets.SelectMultiple(
            options=[(question.describe(s), s) for s in question.choices],
            rows=min(len(question.choices), 5),
            layout={"width": "320px"},
        )
        select.add_class(f"{PREFIX}-lift-select")
        self.lift_select = select
        self.plan_button = self._button(question, "lift-plan", "Lift", lambda: tuple(select.value))
        self.no_plan_button = self._button(question, "no-plan", "None", lambda: ())
        return widgets.VBox([select, widgets.HBox([self.plan_button, self.no_plan_button])])

    def _trade_controls(self, question: Question) -> widgets.VBox:
        """No trade; a button for each completion swap on offer; a form for any trade,
        folded until it is opened."""
        self.no_trade_button = self._button(question, "no-trade", "No trade", lambda: None)
        swaps = []
        for swap in (choice for choice in question.choices if choice is not None):
            button = self._button(question, "swap", question.describe(swap), lambda s=swap: s)
            button.layout.width = "auto"
            swaps.append(button)
        self.swaps = widgets.VBox(swaps)
        own = widgets.Accordion(
            children=[self._trade_form(question)], titles=("A trade of your own",)
        )
        own.selected_index = None  # folded: the question and the players stay in sight
        own.add_class(f"{PREFIX}-own-trade")
        return widgets.VBox([self.no_trade_button, self.swaps, own])

    def _trade_form(self, question: Question) -> widgets.VBox:
        """A trade of your own: the partner, the cash you pay, the lots you give and get."""
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
        cash = widgets.IntText(
            value=0,
            description="You pay $:",
            tooltip="cash you pay; negative: cash you are paid",
            continuous_update=True,
            layout={"width": "170px"},
        )

        def partner_chosen(change) -> None:  # the lots the partner chosen may give
            take.options = _lot_options(game, change.new) if change.new is not None else []
            take.value = ()

        partner.observe(partner_chosen, "value")
        for box, name in ((partner, "partner"), (give, "give"), (take, "take"), (cash, "cash")):
            box.add_class(f"{PREFIX}-{name}")
            box.layout.width = box.layout.width or "180px"
        self.partner_box, self.give_box, self.take_box, self.cash_box = partner, give, take, cash
        self.propose_button = self._button(
            question,
            "propose",
            "Propose",
            lambda: Trade(
                partner.value if partner.value is not None else 0,
                give=tuple(give.value),
                take=tuple(take.value),
                cash=cash.value,
            ),
        )
        return widgets.VBox(
            [
                widgets.HBox([partner, cash]),
                widgets.HTML(_TRADE_LABELS),
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
            f"{self.asked} ({question.decision}):</b> {_money_html(question.text)}{listed}</div>"
        )

    # -- drawing -----------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw the state: status, the question, players (cash, what they own), board, log."""
        state = self.state
        question = state.question
        for button in (self.one_turn, self.one_round, self.to_end):
            button.disabled = question is not None  # the stepping waits for the answer
        self._show_question(question)
        self._show_turn_end()
        colour = "#b00020" if state.error else "#111"
        refused = ""
        if self.refused:
            refused = (
                f'<br><span class="{PREFIX}-refused" style="color:#b00020">Not '
                f"taken: {_money_html(self.refused)}</span>"
            )
        self.status_view.value = (
            f'<b class="game-stepper-status" style="color:{colour}">'
            f"{_money_html(state.status())}</b>{refused}"
        )
        self.board_view.value = board_html(**self._board(), css_class="game-stepper-board")
        self.players_view.value = self._players_html()
        self.log_view.value = log_html(state.lines[-300:], PREFIX, width=SIDE_WIDTH, height=220)

    def _show_turn_end(self) -> None:
        """The turn's-end toggles as the state has them (one asked is off again); shown
        only with a person at the table and the game on."""
        state = self.state
        for decision, toggle in self.turn_end_buttons.items():
            wanted = decision in state.turn_end
            if toggle.value != wanted:
                toggle.value = wanted
            toggle.disabled = decision == "propose_trade" and not state.trading
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
        side = self.players_view.value + self.log_view.value
        status = self.status_view.value + self._question_html(self.state.question, choices=True)
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
                f"> **{who}, question {self.asked} ({question.decision}):** "
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


def _settle(buttons: list[widgets.Button]) -> None:
    """Grey ``buttons`` for :data:`SETTLE_SECONDS`, where a kernel's event loop runs to
    release them; elsewhere (code clicks, not a person) they answer at once."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    for button in buttons:
        button.disabled = True
    loop.call_later(SETTLE_SECONDS, _release, buttons)


def _release(buttons: list[widgets.Button]) -> None:
    for button in buttons:
        if button.comm is not None:  # not closed since (a later question's controls)
            button.disabled = False


def _buttons_in(box: widgets.Widget) -> list[widgets.Button]:
    if isinstance(box, widgets.Button):
        return [box]
    return [b for child in getattr(box, "children", ()) for b in _buttons_in(child)]


def _close(box: widgets.Widget) -> None:
    """Close ``box``, everything in it, and their layouts and styles."""
    for child in getattr(box, "children", ()):
        _close(child)
    for part in (getattr(box, "layout", None), getattr(box, "style", None)):
        if part is not None:
            part.close()
    box.close()


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
