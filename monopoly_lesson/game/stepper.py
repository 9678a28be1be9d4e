"""A whole game stepped turn by turn, without widgets: what the game widget draws.

:class:`GameStepperState` holds a :class:`~monopoly_lesson.game.engine.MonopolyGame`, plays a
turn, a round or the rest of the game on request, keeps the narration as a log, and
describes the board (owners, mortgages, houses and hotels, tokens) and the players
(cash, net worth, lots) for any view. A strategy that fails stops the game with its
message in :attr:`error`; the state stays readable and :meth:`reset` starts a new game.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence

import pandas as pd

from ..board_view import TOKEN_COLOURS, SpaceExtras
from ..checks import at_the_call, is_list
from .engine import MonopolyGame
from .state import HOTEL

__all__ = ["DEFAULT_STRATEGIES", "GameStepperState"]

DEFAULT_STRATEGIES = ("heuristic", "always", "random:0.5", "never")
"""The four players of a new game unless told otherwise."""
LOG_LINES = 2000  # the log keeps the newest lines of a long game


class GameStepperState:
    """A game to step through: ``step_turn()``, ``step_round()``, ``play_to_end()``.

    Takes the strategies in seat order (at most as many as there are token colours), the
    seed, the round limit and the trading option of
    :class:`~monopoly_lesson.game.engine.MonopolyGame`.
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
            if is_list(strategies) and len(strategies) > len(TOKEN_COLOURS):
                raise ValueError(
                    f"strategies: the game widget shows at most {len(TOKEN_COLOURS)} players, "
                    f"got {len(strategies)} strategies."
                )
            self.strategies, self.seed, self.max_rounds = strategies, seed, max_rounds
            self.trading = trading
            self.reset()  # the game checks them all
            self.strategies = list(strategies)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (with a new ``seed`` if given)."""
        if seed is not None:
            self.seed = seed
        self.game = MonopolyGame(self.strategies, seed=self.seed, max_rounds=self.max_rounds,
                                 verbose=True, trading=self.trading)  # fmt: skip
        self.lines: list[str] = []
        self.error: str | None = None
        self.turns_played = 0

    # -- playing ---------------------------------------------------------------------

    def step_turn(self) -> None:
        """Play the next player's turn (nothing once the game is over or has failed)."""
        self._play(lambda: self._turns(1))

    def step_round(self) -> None:
        """Play the rest of the current round."""
        round_now = self.game.state.round
        self._play(lambda: self._turns_while(lambda: self.game.state.round == round_now))

    def play_to_end(self) -> None:
        """Play until one player is left or the round limit."""
        self._play(lambda: self._turns_while(lambda: True))

    def _turns(self, count: int) -> None:
        for _ in range(count):
            if self.game.over:
                return
            self.game.play_turn()
            self.turns_played += 1

    def _turns_while(self, going: object) -> None:
        while not self.game.over and going():  # type: ignore[operator]
            self._turns(1)

    def _play(self, action: object) -> None:
        if self.error:
            return
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                action()  # type: ignore[operator]
        except Exception as problem:  # a student's strategy: shown, not raised
            self.error = f"{type(problem).__name__}: {problem}"
        self.lines += out.getvalue().splitlines()
        if self.error:
            self.lines.append(f"The game stopped: {self.error} Start a new game to play again.")
        del self.lines[:-LOG_LINES]

    # -- describing ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended (or stopped on an error)."""
        return self.game.over or self.error is not None

    def status(self) -> str:
        """One line: the round, whose turn it is, or how the game ended."""
        state = self.game.state
        if self.error:
            return f"Stopped in round {state.round}: {self.error}"
        if self.game.over:
            result = self.game.result()
            how = "one player left" if result.ended_by == "last player" else "the round limit"
            return f"Over after {result.rounds} rounds ({how}): {state.name(result.winner)} wins."
        return f"Round {state.round}: {self.game.mover.name} to play ({self.turns_played} turns)."

    def players(self) -> pd.DataFrame:
        """One row per player: cash, net worth, space, jail, lots, monopolies, still playing."""
        state = self.game.state
        rows = [
            dict(player=p.name, colour=TOKEN_COLOURS[p.seat - 1], cash=p.cash,
                 net_worth=state.net_worth(p.seat), space=p.token.pos,
                 in_jail=p.token.in_jail, lots=len(p.lots),
                 monopolies=len(state.monopolies(p.seat)), playing=p.in_game)
            for p in state.players
        ]  # fmt: skip
        return pd.DataFrame(rows).set_index("player")

    def extras(self) -> dict[int, SpaceExtras]:
        """Each owned lot's owner (name, colour), mortgage, houses or hotel, for the board."""
        state = self.game.state
        return {
            space: SpaceExtras(
                owner=state.name(lot.owner), colour=TOKEN_COLOURS[lot.owner - 1],
                mortgaged=lot.mortgaged, houses=lot.buildings if lot.buildings < HOTEL else 0,
                hotel=lot.buildings == HOTEL,
            )
            for space, lot in state.lots.items()
            if lot.owner is not None
        }  # fmt: skip

    def tokens(self) -> dict[str, int]:
        """Where each player still in the game stands."""
        return {p.name: p.token.pos for p in self.game.state.players if p.in_game}
