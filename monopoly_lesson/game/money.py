"""Debts: paying what is owed, raising the cash, and going bankrupt.

A player who owes more than its cash sells buildings and mortgages lots (its strategy
chooses what); if it still cannot pay it is bankrupt, to the player it owes or to the
bank (the game rules page, ``notebooks/game_rules.md``, "Buildings, mortgages and
debt").
"""

from __future__ import annotations

from ..starter import space_name
from .asking import as_space, ask
from .buildings import interest, mortgage, sell_building, why_not_mortgage, why_not_sell
from .buying import auction
from .narration import say
from .state import BANK, GameState, PlayerState
from .strategies import StrategyError, default_raise_cash

__all__ = ["Bankrupt", "go_bankrupt", "pay", "raise_cash"]


class Bankrupt(Exception):
    """Raised when the player in ``seat`` goes bankrupt: its turn (if it is moving) ends."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is bankrupt")
        self.seat = seat


def pay(game: GameState, payer: int, payee: int, amount: int, reason: str) -> None:
    """``payer`` pays ``amount`` to ``payee`` (a seat, or 0 for the bank), raising the cash
    first if it must; raises :class:`Bankrupt` if it cannot."""
    debtor = game.player(payer)
    if debtor.cash < amount:
        raise_cash(game, debtor, amount)
    if debtor.cash < amount:
        go_bankrupt(game, debtor, payee)
        raise Bankrupt(payer)
    game.transfer(payer, payee, amount, reason)


RAISE_ACTIONS = {"sell": (why_not_sell, sell_building), "mortgage": (why_not_mortgage, mortgage)}


def raise_cash(game: GameState, me: PlayerState, owed: int) -> None:
    """Sell and mortgage, one step at a time as the strategy says, until ``me`` has ``owed``.

    A strategy's None leaves the next step to the default; it stops when nothing is left.
    """
    while me.cash < owed:
        choice = ask("raise_cash", game, me, owed)
        if choice is None:
            choice = default_raise_cash(game, me, owed)
            if choice is None:
                return
        action, space = _check_raise(game, me, choice)
        RAISE_ACTIONS[action][1](game, me.seat, space)


def _check_raise(game: GameState, me: PlayerState, choice: object) -> tuple[str, int]:
    pair = isinstance(choice, tuple) and len(choice) == 2 and isinstance(choice[0], str)
    if not (pair and choice[0] in RAISE_ACTIONS):  # type: ignore[index]
        hint = " (a tuple, in round brackets)" if isinstance(choice, list) else ""
        raise StrategyError(
            f"{me.name}'s raise_cash decision must return ('sell', space), "
            f"('mortgage', space) or None{hint}, got {choice!r}."
        )
    action, space = choice[0], as_space(me, "raise_cash", choice[1])
    reason = RAISE_ACTIONS[action][0](game, me.seat, space)  # type: ignore[arg-type]
    if reason:
        raise StrategyError(f"{me.name}'s raise_cash decision chose to {action} {space}: {reason}.")
    return action, space


def go_bankrupt(game: GameState, me: PlayerState, creditor: int) -> None:
    """``me`` leaves the game; the creditor (a player, or the bank) takes what it has.

    It has no buildings left: :func:`raise_cash` gives up only when the default finds
    nothing to sell, and a group with buildings always has one to sell (its most built lot).
    """
    game.bankruptcies.append((me.seat, game.round, creditor))
    me.bankrupt_round, me.creditor = game.round, creditor
    if game.verbose:
        say("bankrupt", who=me.name, owner=game.name(creditor))
    if creditor == BANK:
        _bankrupt_to_bank(game, me)
    else:
        _bankrupt_to_player(game, me, game.player(creditor))


def _bankrupt_to_player(game: GameState, me: PlayerState, creditor: PlayerState) -> None:
    """The creditor takes the cash, the lots (paying 10% on mortgaged ones) and the cards."""
    game.transfer(me.seat, creditor.seat, me.cash, "bankruptcy")
    creditor.jail_cards += me.jail_cards
    me.jail_cards = []
    taken = sorted(me.lots)
    for space in taken:
        game.lots[space].owner = creditor.seat
    creditor.lots |= me.lots
    me.lots = set()
    for space in taken:
        if game.lots[space].mortgaged:
            due = interest(space)
            if game.verbose:
                say("interest", who=creditor.name, amount=due, lot=space_name(space))
            pay(game, creditor.seat, BANK, due, "interest")


def _bankrupt_to_bank(game: GameState, me: PlayerState) -> None:
    """Cash to the bank, cards back to their decks, each lot auctioned unmortgaged."""
    game.transfer(me.seat, BANK, me.cash, "bankruptcy")
    for deck_name, number in me.jail_cards:
        game.decks[deck_name].put_back(number)
    me.jail_cards = []
    freed = sorted(me.lots)
    me.lots = set()
    for space in freed:
        lot = game.lots[space]
        lot.owner, lot.mortgaged = None, False
    for space in freed:  # bidding starts from the next seat
        auction(game, space, first=me.seat % len(game.players) + 1)
