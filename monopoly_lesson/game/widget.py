"""The whole game as a widget: the board with owners and buildings, the players, the log.

The game is a plain :class:`~monopoly_lesson.game.stepper.GameStepperState`; this view
only turns clicks into its methods and draws it, on the shared board of
:mod:`monopoly_lesson.board_view`, as :class:`~monopoly_lesson.widgets.TurnStepper` does.
A person's seat (``"you"``) is asked here: the open question is shown with the controls
that answer it, and each answer goes to :meth:`GameStepperState.answer`, which checks it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from ..board_view import board_html, board_svg
from ..checks import at_the_call, check_seed
from ..starter import space_name
from ..widgets import STATIC_NOTE, log_html, reopened_html, static_html, widget_button
from .person import Question
from .state import ReadableGame
from .stepper import DEFAULT_STRATEGIES, GameStepperState
from .strategies import partners_to_ask
from .trade import Trade
from .trading import tradable_lots

__all__ = ["GameStepper"]

PREFIX = "game-stepper"  # the CSS classes of the widget and its parts
SEED_BOX_LIMIT = 2**31  # the seed box holds seeds from 0 to 2**31 - 1
CHOOSE = {"build": "Build", "lift": "Lift", "raise_cash": "Sell or mortgage"}
"""The chooser's button for each decision answered by picking a space."""
YOURS = "#fff3c4"  # the person's row in the players table
SHOWN_CHOICES = 8  # choices listed in a static snapshot's question
_HIDDEN, _SHOWN = "none", ""


class GameStepper(widgets.VBox):
    """Step through a whole game: "One turn", "One round", "To the end", "New game".

    Takes the arguments of :class:`~monopoly_lesson.game.stepper.GameStepperState`
    (``stepper.state``). A strategy that fails is shown in the status line and the log;
    the widget keeps working and "New game" starts again. A seat of ``"you"`` is a
    person's: its question is shown with the controls that answer it, and the stepping
    buttons wait until it is answered; an illegal answer is shown in the status line.
    """

    def __init__(
        self,
        strategies: Sequence[object] = DEFAULT_STRATEGIES,
        *,
        seed: int = 0,
        max_rounds: int = 100,
        trading: bool = False,
        answers: Sequence[object] | None = None,
    ) -> None:
        with at_the_call():  # a mistake in an argument is shown from here, not from the checks
            check_seed(seed, limit=SEED_BOX_LIMIT)
            self.state = GameStepperState(
                strategies, seed=seed, max_rounds=max_rounds, trading=trading, answers=answers
            )
        self.one_turn = widget_button(PREFIX, "One turn", "Play the next player's turn", "play")
        self.one_round = widget_button(
            PREFIX, "One round", "Play the rest of this round", "forward"
        )
        self.to_end = widget_button(
            PREFIX, "To the end", "Play until the game is over", "fast-forward"
        )
        self.new_game = widget_button(PREFIX, "New game", "Start again with the seed below", "undo")
        self.seed_box = widgets.BoundedIntText(
            value=seed, min=0, max=SEED_BOX_LIMIT - 1, description="Seed:"
        )
        self.one_turn.on_click(lambda _: self._do(self.state.step_turn))
        self.one_round.on_click(lambda _: self._do(self.state.step_round))
        self.to_end.on_click(lambda _: self._do(self.state.play_to_end))
        self.new_game.on_click(lambda _: self._do(lambda: self.state.reset(self.seed_box.value)))
        self.status_view, self.players_view = widgets.HTML(), widgets.HTML()
        self.board_view, self.log_view = widgets.HTML(), widgets.HTML()
        self.refused: str | None = None
        """Why the last answer given in the widget was refused (shown in the status line)."""
        self._shown: Question | None = None
        self.question_box = self._question_box()
        buttons = [self.one_turn, self.one_round, self.to_end, self.new_game, self.seed_box]
        super().__init__(
            children=[
                widgets.HTML(reopened_html(PREFIX)),
                widgets.HBox(buttons),
                self.status_view,
                self.question_box,
                widgets.HBox(
                    [self.board_view, widgets.VBox([self.players_view, self.log_view])],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
            ]
        )
        self.add_class("game-stepper")
        self.redraw()

    def _do(self, action: Callable[[], object]) -> None:
        self.refused = None
        action()
        self.redraw()

    # -- the person's question: its controls ---------------------------------------------

    def _question_box(self) -> widgets.VBox:
        """The question and every control that answers one; :meth:`redraw` shows those that
        answer the open question."""
        self.question_view = widgets.HTML()
        self.yes_no, self.bids = self._yes_no_controls(), self._bid_controls()
        self.choosing, self.proposing = self._choice_controls(), self._trade_controls()
        self._controls = {
            "buy": self.yes_no,
            "leave_jail": self.yes_no,
            "accept_trade": self.yes_no,
            "bid": self.bids,
            "build": self.choosing,
            "lift": self.choosing,
            "raise_cash": self.choosing,
            "propose_trade": self.proposing,
        }
        box = widgets.VBox(
            [self.question_view, self.yes_no, self.bids, self.choosing, self.proposing]
        )
        box.add_class(f"{PREFIX}-asking")
        return box

    def _yes_no_controls(self) -> widgets.HBox:
        """Two buttons, True and False, labelled for the question (Buy, Stay, Accept...)."""
        self.yes_button = _answer_button("yes", "Yes")
        self.no_button = _answer_button("no", "No")
        self.yes_button.on_click(lambda _: self._answer(True))
        self.no_button.on_click(lambda _: self._answer(False))
        return widgets.HBox([self.yes_button, self.no_button])

    def _bid_controls(self) -> widgets.HBox:
        """A bid box (not bounded: a bid out of range is refused with the rule), Bid, No bid."""
        self.bid_box = widgets.IntText(description="Your bid $:", layout={"width": "220px"})
        self.bid_box.add_class(f"{PREFIX}-bid-box")
        self.bid_range = widgets.HTML()
        self.bid_button = _answer_button("bid", "Bid")
        self.no_bid_button = _answer_button("no-bid", "No bid")
        self.bid_button.on_click(lambda _: self._answer(self.bid_box.value))
        self.no_bid_button.on_click(lambda _: self._answer(0))
        return widgets.HBox([self.bid_box, self.bid_range, self.bid_button, self.no_bid_button])

    def _choice_controls(self) -> widgets.HBox:
        """A chooser of the legal choices in words, its button, and Done (None)."""
        self.chooser = widgets.Dropdown(layout={"width": "380px"})
        self.chooser.add_class(f"{PREFIX}-chooser")
        self.choose_button = _answer_button("choose", "Build")
        self.done_button = _answer_button("done", "Done")
        self.choose_button.on_click(lambda _: self._answer(self.chooser.value))
        self.done_button.on_click(lambda _: self._answer(None))
        return widgets.HBox([self.chooser, self.choose_button, self.done_button])

    def _trade_controls(self) -> widgets.VBox:
        """No trade; a button for each completion swap on offer; a form for any trade."""
        self.no_trade_button = _answer_button("no-trade", "No trade")
        self.no_trade_button.on_click(lambda _: self._answer(None))
        self.swaps = widgets.VBox()  # filled for each question
        self.partner_box = widgets.Dropdown(description="Partner:", layout={"width": "260px"})
        self.give_box = widgets.SelectMultiple(description="You give:", rows=5)
        self.take_box = widgets.SelectMultiple(description="You get:", rows=5)
        self.cash_box = widgets.IntText(
            value=0,
            description="You pay $:",
            tooltip="cash you pay; negative: cash you are paid",
            layout={"width": "180px"},
        )
        for box, name in (
            (self.partner_box, "partner"),
            (self.give_box, "give"),
            (self.take_box, "take"),
            (self.cash_box, "cash"),
        ):
            box.add_class(f"{PREFIX}-{name}")
        self.partner_box.observe(lambda _: self._fill_take(), names="value")
        self.propose_button = _answer_button("propose", "Propose")
        self.propose_button.on_click(lambda _: self._answer(self._trade_in_form()))
        self.trade_form = widgets.VBox(
            [
                widgets.HBox(
                    [
                        self.partner_box,
                        self.cash_box,
                        widgets.HTML("<small>(negative: you are paid)</small>"),
                    ]
                ),
                widgets.HBox([self.give_box, self.take_box, self.propose_button]),
            ]
        )
        return widgets.VBox([self.no_trade_button, self.swaps, self.trade_form])

    def _answer(self, value: object) -> None:
        """Give the open question ``value``; a refused answer is shown and the question stays."""
        self.refused = None
        try:
            self.state.answer(value)
        except (ValueError, RuntimeError) as error:  # an illegal answer, or none is open
            self.refused = str(error)
        self.redraw()

    def _show_question(self, question: Question | None) -> None:
        """Show ``question`` and the controls that answer it (nothing when None)."""
        if question is not self._shown and question is not None:
            self._fill(question)
        self._shown = question
        wanted = None if question is None else self._controls[question.decision]
        for controls in {id(c): c for c in self._controls.values()}.values():
            controls.layout.display = _SHOWN if controls is wanted else _HIDDEN
        self.question_box.layout.display = _HIDDEN if question is None else _SHOWN
        self.question_view.value = self._question_html(question)  # last: its controls are set

    def _fill(self, question: Question) -> None:
        """Set the controls for a new question: its choices, in its words."""
        describe, choices = question.describe, question.choices
        if question.decision in ("buy", "leave_jail", "accept_trade"):
            self.yes_button.description = describe(True)
            self.no_button.description = describe(False)
        elif question.decision == "bid":
            self.bid_box.value = question.default
            self.bid_range.value = f"&nbsp;from $0 (no bid) to ${choices[-1]:,}&nbsp;"
        elif question.decision in CHOOSE:
            self.chooser.options = [(describe(c), c) for c in choices if c is not None]
            self.chooser.index = 0  # the first choice shown, never a blank one
            self.choose_button.description = CHOOSE[question.decision]
            self.done_button.layout.display = _SHOWN if None in choices else _HIDDEN
        elif question.decision == "propose_trade":
            self._fill_trade_form(question)

    def _fill_trade_form(self, question: Question) -> None:
        for button in self.swaps.children:
            button.close()
        swaps = [choice for choice in question.choices if choice is not None]
        buttons = []
        for swap in swaps:
            button = _answer_button("swap", question.describe(swap))
            button.layout.width = "auto"
            button.on_click(lambda _, swap=swap: self._answer(swap))
            buttons.append(button)
        self.swaps.children = buttons
        game, seat = question.game, question.seat
        others = [p.seat for p in game.players if p.in_game and p.seat != seat]
        self.partner_box.options = [(game.name(p), p) for p in others]
        not_asked = partners_to_ask(game, game.player(seat))  # this turn, in seat order
        self.partner_box.value = (not_asked or others)[0]
        self.give_box.options = _lot_options(game, seat)
        self.give_box.value = ()
        self.cash_box.value = 0
        self._fill_take()

    def _fill_take(self) -> None:
        """The lots the partner chosen may give."""
        question = self.state.question
        partner = self.partner_box.value
        if question is None or question.decision != "propose_trade" or partner is None:
            self.take_box.options = []
            return
        self.take_box.options = _lot_options(question.game, partner)
        self.take_box.value = ()

    def _trade_in_form(self) -> Trade:
        """The trade the form describes (checked by the rules when proposed)."""
        partner = self.partner_box.value
        return Trade(
            partner if partner is not None else 0,
            give=tuple(self.give_box.value),
            take=tuple(self.take_box.value),
            cash=self.cash_box.value,
        )

    @property
    def asked(self) -> int:
        """The number of the open question in this game (answers given, plus one), or of
        the last answered."""
        return len(self.state.answers) + (self.state.question is not None)

    def _question_html(self, question: Question | None, *, choices: bool = False) -> str:
        """The question in words, numbered; with ``choices``, its choices listed too (for a
        static snapshot, which has no controls)."""
        if question is None:
            return ""
        who = html.escape(self.state.game.state.name(question.seat))
        listed = ""
        if choices:
            listed = f"<br><small>Choices: {html.escape(_choices_words(question))}</small>"
        return (
            f'<div class="{PREFIX}-question" data-decision="{question.decision}" '
            f'data-number="{self.asked}" style="background:{YOURS};padding:4px 8px;'
            f'border-left:4px solid #b8860b;max-width:900px"><b>&#9733; {who}, question '
            f"{self.asked} ({question.decision}):</b> {html.escape(question.text)}{listed}</div>"
        )

    # -- drawing -----------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw the state: status, the question, board, players' cash and net worth, log."""
        state = self.state
        question = state.question
        for button in (self.one_turn, self.one_round, self.to_end):
            button.disabled = question is not None  # the stepping waits for the answer
        self._show_question(question)
        colour = "#b00020" if state.error else "#111"
        refused = ""
        if self.refused:
            refused = (
                f'<br><span class="{PREFIX}-refused" style="color:#b00020">Not '
                f"taken: {html.escape(self.refused)}</span>"
            )
        self.status_view.value = (
            f'<b class="game-stepper-status" style="color:{colour}">'
            f"{html.escape(state.status())}</b>{refused}"
        )
        self.board_view.value = board_html(**self._board(), css_class="game-stepper-board")
        self.players_view.value = self._players_html()
        self.log_view.value = log_html(state.lines[-300:], PREFIX, width=430, height=300)

    def _board(self) -> dict:
        colours = self.state.players()["colour"].to_dict()
        return {
            "tokens": self.state.tokens(),
            "extras": self.state.extras(),
            "token_colours": colours,
        }

    def _players_html(self) -> str:
        people = {self.state.game.state.name(seat) for seat in self.state.people}
        rows = "".join(
            (
                f'<tr class="{PREFIX}-you" style="background:{YOURS};font-weight:bold" '
                'title="your seat">'
                if name in people
                else "<tr>"
            )
            + f'<td><span style="color:{p.colour}">&#9679;</span> {html.escape(name)}'
            f"{' &#9733; you' if name in people else ''}</td>"
            f'<td align="right">${p.cash:,}</td><td align="right">${p.net_worth:,}</td>'
            f'<td align="right">{p.lots}</td><td align="right">{p.monopolies}</td>'
            f"<td>{'' if p.playing else 'bankrupt'}{' in jail' if p.in_jail else ''}</td></tr>"
            for name, p in self.state.players().iterrows()
        )
        return (
            '<table class="game-stepper-players" style="font-size:12px">'
            "<tr><th>player</th><th>cash</th><th>net worth</th><th>lots</th>"
            f"<th>monopolies</th><th></th></tr>{rows}</table>"
        )

    # -- static stand-in ---------------------------------------------------------------

    def snapshot_html(self) -> str:
        """A static picture of the widget: status, the open question and its choices,
        board, players, log, and how to use it."""
        side = self.players_view.value + self.log_view.value
        status = self.status_view.value + self._question_html(self.state.question, choices=True)
        return static_html(PREFIX, status, self.board_view.value, side)

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
        return (
            f"*{STATIC_NOTE}*\n\n**{self.state.status()}**\n\n{asked}{table}\n\n```\n{log}\n```\n"
        )

    def _repr_mimebundle_(self, **kwargs) -> dict:
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        question = self.state.question
        asked = "" if question is None else f" {question.text}"
        bundle["text/plain"] = f"GameStepper: {self.state.status()}{asked} {STATIC_NOTE}"
        bundle["text/html"] = self.snapshot_html()
        bundle["text/markdown"] = self.snapshot_markdown()
        bundle["image/svg+xml"] = self.snapshot_svg()
        return bundle


def _answer_button(name: str, label: str) -> widgets.Button:
    """A button that answers the person's question, with the CSS class ``game-stepper-<name>``."""
    button = widgets.Button(description=label)
    button.add_class(f"{PREFIX}-{name}")
    return button


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
