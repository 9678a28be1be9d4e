"""The whole game as a widget: the board with owners and buildings, the players, the log.

The game is a plain :class:`~monopoly_lesson.game.stepper.GameStepperState`; this view
only turns clicks into its methods and draws it, on the shared board of
:mod:`monopoly_lesson.board_view`, as :class:`~monopoly_lesson.widgets.TurnStepper` does.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as widgets

from ..board_view import board_html, board_svg
from ..checks import at_the_call, check_seed
from ..widgets import STATIC_NOTE, log_html, reopened_html, static_html, widget_button
from .stepper import DEFAULT_STRATEGIES, GameStepperState

__all__ = ["GameStepper"]

PREFIX = "game-stepper"  # the CSS classes of the widget and its parts
SEED_BOX_LIMIT = 2**31  # the seed box holds seeds from 0 to 2**31 - 1


class GameStepper(widgets.VBox):
    """Step through a whole game: "One turn", "One round", "To the end", "New game".

    Takes the arguments of :class:`~monopoly_lesson.game.stepper.GameStepperState`
    (``stepper.state``). A strategy that fails is shown in the status line and the log;
    the widget keeps working and "New game" starts again.
    """

    def __init__(
        self,
        strategies: Sequence[object] = DEFAULT_STRATEGIES,
        *,
        seed: int = 0,
        max_rounds: int = 100,
        trading: bool = False,
    ) -> None:
        with at_the_call():  # a mistake in an argument is shown from here, not from the checks
            check_seed(seed, limit=SEED_BOX_LIMIT)
            self.state = GameStepperState(strategies, seed=seed, max_rounds=max_rounds,
                                          trading=trading)  # fmt: skip
        self.one_turn = widget_button(PREFIX, "One turn", "Play the next player's turn", "play")
        self.one_round = widget_button(
            PREFIX, "One round", "Play the rest of this round", "forward"
        )
        self.to_end = widget_button(
            PREFIX, "To the end", "Play until the game is over", "fast-forward"
        )
        self.new_game = widget_button(PREFIX, "New game", "Start again with the seed below", "undo")
        self.seed_box = widgets.BoundedIntText(value=seed, min=0, max=SEED_BOX_LIMIT - 1,
                                               description="Seed:")  # fmt: skip
        self.one_turn.on_click(lambda _: self._do(self.state.step_turn))
        self.one_round.on_click(lambda _: self._do(self.state.step_round))
        self.to_end.on_click(lambda _: self._do(self.state.play_to_end))
        self.new_game.on_click(lambda _: self._do(lambda: self.state.reset(self.seed_box.value)))
        self.status_view, self.players_view = widgets.HTML(), widgets.HTML()
        self.board_view, self.log_view = widgets.HTML(), widgets.HTML()
        buttons = [self.one_turn, self.one_round, self.to_end, self.new_game, self.seed_box]
        super().__init__(
            children=[
                widgets.HTML(reopened_html(PREFIX)),
                widgets.HBox(buttons),
                self.status_view,
                widgets.HBox([self.board_view, widgets.VBox([self.players_view, self.log_view])],
                             layout=widgets.Layout(flex_flow="row wrap")),
            ]
        )  # fmt: skip
        self.add_class("game-stepper")
        self.redraw()

    def _do(self, action: object) -> None:
        action()  # type: ignore[operator]
        self.redraw()

    # -- drawing -----------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw the state: status, board, players' cash and net worth, and the log."""
        state = self.state
        colour = "#b00020" if state.error else "#111"
        self.status_view.value = (
            f'<b class="game-stepper-status" style="color:{colour}">'
            f"{html.escape(state.status())}</b>"
        )
        self.board_view.value = board_html(**self._board(), css_class="game-stepper-board")
        self.players_view.value = self._players_html()
        self.log_view.value = log_html(state.lines[-300:], PREFIX, width=430, height=300)

    def _board(self) -> dict:
        colours = self.state.players()["colour"].to_dict()
        return {"tokens": self.state.tokens(), "extras": self.state.extras(),
                "token_colours": colours}  # fmt: skip

    def _players_html(self) -> str:
        rows = "".join(
            f'<tr><td><span style="color:{p.colour}">&#9679;</span> {html.escape(name)}</td>'
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
        """A static picture of the widget: status, board, players, log, and how to use it."""
        side = self.players_view.value + self.log_view.value
        return static_html(PREFIX, self.status_view.value, self.board_view.value, side)

    def snapshot_svg(self) -> str:
        """The board as standalone SVG (for print)."""
        return board_svg(**self._board())

    def snapshot_markdown(self, log_lines: int = 12) -> str:
        """A static snapshot in Markdown, for print: the status, the players, the log."""
        players = self.state.players()
        table = "| player | cash | net worth | lots | monopolies |\n|---|---:|---:|---:|---:|\n"
        table += "".join(
            f"| {name} | ${p.cash:,} | ${p.net_worth:,} | {p.lots} | {p.monopolies} |\n"
            for name, p in players.iterrows()
        )
        log = "\n".join(self.state.lines[-log_lines:]) or "(no turns yet)"
        return f"*{STATIC_NOTE}*\n\n**{self.state.status()}**\n\n{table}\n\n```\n{log}\n```\n"

    def _repr_mimebundle_(self, **kwargs) -> dict:
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = f"GameStepper: {self.state.status()} {STATIC_NOTE}"
        bundle["text/html"] = self.snapshot_html()
        bundle["text/markdown"] = self.snapshot_markdown()
        bundle["image/svg+xml"] = self.snapshot_svg()
        return bundle
