"""What a whole game leaves behind: standings, finish order, bankruptcies, rent, landings.

The result keeps plain lists (thousands of games are played in a tournament) and gives
DataFrames on demand: :attr:`GameResult.standings`, :attr:`GameResult.landings`, ...
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..starter import NUM_SPACES
from .lots import lots
from .state import BANK, GameState

__all__ = ["GameResult", "finish_order", "game_result"]


@dataclass(frozen=True)
class GameResult:
    """One game's outcome; seats are numbered from 1, lists are in seat order.

    ``finish_order`` lists seats from first to last; ``bankruptcies`` is a list of
    ``(seat, round, creditor)`` (creditor 0 is the bank); ``rent`` maps each lot's space to
    the rent it collected; ``turns`` counts each player's turns and ``tallies`` its
    landings on spaces 1..40.
    """

    seed: int
    ended_by: str | None
    rounds: int
    names: list[str]
    strategies: list[str]
    finish_order: list[int]
    net_worth: list[int]
    cash: list[int]
    lots: list[int]
    monopolies: list[int]
    bankruptcies: list[tuple[int, int, int]]
    rent: dict[int, int]
    turns: list[int]
    tallies: list[list[int]]
    state: GameState

    @property
    def winner(self) -> int:
        """The seat of the winner: the first of the finish order."""
        return self.finish_order[0]

    @property
    def standings(self) -> pd.DataFrame:
        """One row per seat, in finish order: strategy, net worth, cash, lots, bankruptcy..."""
        went = {seat: (rnd, creditor) for seat, rnd, creditor in self.bankruptcies}
        rows = [
            dict(
                seat=seat,
                name=self.names[seat - 1],
                strategy=self.strategies[seat - 1],
                finish=self.finish_order.index(seat) + 1,
                net_worth=self.net_worth[seat - 1],
                cash=self.cash[seat - 1],
                lots=self.lots[seat - 1],
                monopolies=self.monopolies[seat - 1],
                bankrupt_round=went.get(seat, (None, None))[0],
                bankrupt_to=_creditor(self, went.get(seat, (None, None))[1]),
            )
            for seat in range(1, len(self.names) + 1)
        ]
        table = pd.DataFrame(rows).set_index("seat").sort_values("finish")
        return table.astype({"bankrupt_round": "Int64"})

    @property
    def landings(self) -> pd.DataFrame:
        """Landing tallies: one row per space 1..40, one column per player."""
        index = pd.RangeIndex(1, NUM_SPACES + 1, name="space")
        return pd.DataFrame(dict(zip(self.names, self.tallies, strict=True)), index=index)

    @property
    def rent_table(self) -> pd.DataFrame:
        """Each lot's title, group and the rent it collected in this game."""
        table = lots[["title", "group"]].copy()
        table["rent_collected"] = [self.rent[s] for s in table.index]
        return table.rename_axis("space")

    @property
    def ledger(self) -> pd.DataFrame:
        """Every payment of the game: round, payer, payee (0 is the bank), amount, reason."""
        return pd.DataFrame(self.state.ledger)

    def __str__(self) -> str:
        how = "one player left" if self.ended_by == "last player" else "round limit"
        table = self.standings[
            ["name", "net_worth", "cash", "lots", "monopolies", "bankrupt_round"]
        ]
        return f"Game of {self.rounds} rounds ({how}), seed {self.seed}\n{table.to_string()}"


def _creditor(result: GameResult, creditor: int | None) -> str | None:
    if creditor is None:
        return None
    return "bank" if creditor == BANK else result.names[creditor - 1]


def finish_order(game: GameState) -> list[int]:
    """Players in the game by net worth (ties: more monopolies, more lots, lower seat),
    then the bankrupt, the last to go bankrupt first."""
    alive = sorted(
        game.in_game,
        key=lambda p: (
            -game.net_worth(p.seat),
            -len(game.monopolies(p.seat)),
            -len(p.lots),
            p.seat,
        ),
    )
    gone = [seat for seat, _, _ in reversed(game.bankruptcies)]
    return [p.seat for p in alive] + gone


def game_result(
    game: GameState,
    seed: int,
    ended_by: str | None,
    rounds: int,
    turns: list[int],
    tallies: list[list[int]],
) -> GameResult:
    """Gather a :class:`GameResult` from a game's state."""
    seats = [p.seat for p in game.players]
    return GameResult(
        seed=seed,
        ended_by=ended_by,
        rounds=rounds,
        names=[p.name for p in game.players],
        strategies=[getattr(p.strategy, "name", "?") for p in game.players],
        finish_order=finish_order(game),
        net_worth=[game.net_worth(s) for s in seats],
        cash=[p.cash for p in game.players],
        lots=[len(p.lots) for p in game.players],
        monopolies=[len(game.monopolies(s)) for s in seats],
        bankruptcies=list(game.bankruptcies),
        rent={space: lot.rent_collected for space, lot in game.lots.items()},
        turns=turns,
        tallies=tallies,
        state=game,
    )
