"""Trading, an option of the game (``game_rules.md``, "Trading"): which proposals are
legal, and making an accepted one.

:func:`why_not_trade` says which rule a proposal breaks; :func:`make_trade` makes an
accepted one (cash, then lots, then the receiver's interest on mortgaged lots). The turn's
trading step, which asks the strategies, is the engine's
(:func:`monopoly_lesson.game.engine.trading_step`); the default policy, the *completion
swap*, is the strategies' (:func:`monopoly_lesson.game.strategies.completion_swap` and
:func:`~monopoly_lesson.game.strategies.completion_accepts`).
"""

from __future__ import annotations

import numbers

from ..starter import NUM_SPACES, space_name
from .buildings import interest
from .narration import say
from .state import BANK, GROUP, GROUP_SPACES, PRICE, GameState, ReadableGame
from .trade import Trade

__all__ = ["MAX_PROPOSALS", "make_trade", "tradable", "tradable_lots", "why_not_trade"]

MAX_PROPOSALS = 3
"""Proposals a mover may make in one turn."""


def why_not_trade(game: ReadableGame, proposer: int, trade: Trade) -> str | None:
    """Which rule of trading ``trade``, proposed by seat ``proposer``, breaks (None: none)."""
    seats = {p.seat for p in game.players if p.in_game}
    if trade.partner not in seats or trade.partner == proposer:
        return f"the partner must be another player still in the game, not seat {trade.partner}"
    if not trade.give and not trade.take:
        return "at least one lot must change hands"
    if len(set(trade.give + trade.take)) < len(trade.give) + len(trade.take):
        return "a lot is named twice"
    for giver, lots in ((proposer, trade.give), (trade.partner, trade.take)):
        for space in lots:
            if not _on_the_board(space):
                return f"{space!r} is not a space of the board (a number from 1 to {NUM_SPACES})"
            if space not in PRICE or game.lots[space].owner != giver:
                return f"{space_name(space)} is not a lot of seat {giver}'s"
            if _group_built(game, space):
                return f"the {GROUP[space]} group has buildings: sell them first"
    payer, amount = (proposer, trade.cash) if trade.cash >= 0 else (trade.partner, -trade.cash)
    if amount > game.player(payer).cash:
        return f"seat {payer} has ${game.player(payer).cash}, not the ${amount} to pay"
    return _why_not_interest(game, proposer, trade)


def _on_the_board(space: object) -> bool:
    """Whether ``space`` is a space's number: a whole number from 1 to 40."""
    whole = isinstance(space, numbers.Integral) and not isinstance(space, bool)
    return whole and 1 <= space <= NUM_SPACES  # type: ignore[operator]


def tradable_lots(game: ReadableGame, seat: int) -> list[int]:
    """``seat``'s lots that a trade may move, in board order: those of a group without
    buildings."""
    return sorted(s for s in game.player(seat).lots if tradable(game, seat, s))


def tradable(game: ReadableGame, seat: int, space: int) -> bool:
    """Whether a trade may move ``seat``'s lot ``space``: no lot of its group has a
    building."""
    return game.lots[space].owner == seat and not _group_built(game, space)


def _group_built(game: ReadableGame, space: int) -> bool:
    """Whether a lot of ``space``'s group has a building (its lots may not be traded)."""
    return any(game.lots[s].buildings for s in GROUP_SPACES[GROUP[space]])


def _why_not_interest(game: ReadableGame, proposer: int, trade: Trade) -> str | None:
    """Whether each receiver can pay the interest on the mortgaged lots it receives, from
    its cash after the trade's cash has changed hands."""
    after = {
        proposer: game.player(proposer).cash - trade.cash,
        trade.partner: game.player(trade.partner).cash + trade.cash,
    }
    for receiver, lots in ((proposer, trade.take), (trade.partner, trade.give)):
        due = sum(interest(s) for s in lots if game.lots[s].mortgaged)
        if due > after[receiver]:
            return f"seat {receiver} could not pay the ${due} interest on the mortgaged lots"
    return None


def make_trade(game: GameState, proposer: int, trade: Trade) -> None:
    """Make an accepted, legal trade: the cash, then the lots, then each receiver pays the
    bank the interest on the mortgaged lots it received."""
    if trade.cash > 0:
        game.transfer(proposer, trade.partner, trade.cash, "trade")
    elif trade.cash < 0:
        game.transfer(trade.partner, proposer, -trade.cash, "trade")
    for giver, receiver, lots in (
        (proposer, trade.partner, trade.give),
        (trade.partner, proposer, trade.take),
    ):
        for space in lots:
            game.lots[space].owner = receiver
            game.player(giver).lots.discard(space)
            game.player(receiver).lots.add(space)
    for receiver, lots in ((proposer, trade.take), (trade.partner, trade.give)):
        for space in lots:
            if game.lots[space].mortgaged:
                if game.verbose:
                    say(
                        "interest",
                        who=game.name(receiver),
                        amount=interest(space),
                        lot=space_name(space),
                    )
                game.transfer(receiver, BANK, interest(space), "interest")
