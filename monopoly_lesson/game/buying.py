"""Buying an unowned lot, or auctioning it (``game_rules.md``, "Landing on a lot").

The mover may buy at the price if it has the cash; if it does not, every player still
in the game states a maximum bid, and the highest pays the second-highest + $1.
"""

from __future__ import annotations

from ..starter import space_name
from .asking import ask_bid, ask_yes_no
from .narration import say
from .state import BANK, PRICE, GameState, PlayerState

__all__ = ["auction", "auction_price", "give_lot", "offer_lot"]


def offer_lot(game: GameState, me: PlayerState, space: int) -> None:
    """The mover may buy ``space`` at its price; if it does not, the lot is auctioned."""
    price = PRICE[space]
    if me.cash >= price and ask_yes_no("buy", game, me, space):
        game.transfer(me.seat, BANK, price, "bought")
        give_lot(game, me, space)
        if game.verbose:
            say("bought", who=me.name, lot=space_name(space), amount=price)
        return
    if game.verbose:
        say("declined", who=me.name, lot=space_name(space))
    auction(game, space, first=me.seat)


def give_lot(game: GameState, me: PlayerState, space: int) -> None:
    """Make ``me`` the owner of ``space``."""
    game.lots[space].owner = me.seat
    me.lots.add(space)


def auction(game: GameState, space: int, first: int) -> None:
    """Every player still in the game bids; the lot goes to the highest maximum bid.

    Bids are asked in seat order starting from seat ``first``, which is also the order
    that breaks ties. With no bid the lot stays with the bank.
    """
    bidders = sorted(game.in_game, key=lambda p: (p.seat - first) % len(game.players))
    bids = [ask_bid(game, p, space) for p in bidders]
    shown = ", ".join(f"{p.name} ${b}" for p, b in zip(bidders, bids, strict=True))
    winner, price = auction_price(bids)
    if winner is None:
        if game.verbose:
            say("no_bids", lot=space_name(space), bids=shown)
        return
    buyer = bidders[winner]
    game.transfer(buyer.seat, BANK, price, "auction")
    give_lot(game, buyer, space)
    if game.verbose:
        say("auction", who=buyer.name, lot=space_name(space), amount=price, bids=shown)


def auction_price(bids: list[int]) -> tuple[int | None, int]:
    """The winner's index in ``bids`` (first of the tied highest) and the price it pays.

    The price is the second-highest maximum + $1 ($1 for a lone bidder), never more than
    the winner's own maximum. No bid at all: ``(None, 0)``.

    >>> auction_price([100, 250, 40]), auction_price([0, 60, 0]), auction_price([90, 90])
    ((1, 101), (1, 1), (0, 90))
    """
    top = max(bids, default=0)
    if top <= 0:
        return None, 0
    winner = bids.index(top)
    rest = bids[:winner] + bids[winner + 1 :]
    second = max(rest, default=0)
    return winner, min(top, second + 1)
