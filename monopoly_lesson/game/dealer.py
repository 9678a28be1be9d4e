"""The dealer: a built-in player that bargains, a yardstick for strategies that trade.

It buys every lot it can, bids by what a lot is worth to it (more when the lot completes
one of its groups or blocks another player's), builds every complete group to three houses
before any goes further, mortgages loose lots before it sells a house, and in a completion
swap asks its partner for cash beyond the price difference (as much as leaves the partner
the $200 the default answer keeps). It never hands over a group clearly better than the one
it gets, and accepts a swap only on those terms.

>>> Dealer().name
'dealer'
"""

from __future__ import annotations

from ..starter import space_name
from .buildings import why_not_build, why_not_mortgage, why_not_sell
from .state import (
    GROUP,
    GROUP_SPACES,
    HOUSE_COST,
    PRICE,
    RENTS,
    STREET_GROUPS,
    GameView,
    OwnView,
    PlayerState,
    ReadableGame,
)
from .strategies import (
    COMPLETES_ONE,
    RESERVE,
    Strategy,
    completion_swaps,
    groups_gained,
    partners_to_ask,
)
from .trade import Trade

__all__ = [
    "BID_TENTHS",
    "CLEARLY_BETTER",
    "HOUSES_FIRST",
    "KEEP",
    "LEAVE_JAIL_WHILE_UNOWNED",
    "Dealer",
    "fair_swap",
    "group_worth",
    "what_it_does",
]

BID_TENTHS = {"completes": 20, "blocks": 15, "other": 11}
"""The dealer's most to bid, in tenths of the price (rounded down to the dollar): for a lot
that completes one of its groups, one that completes another player's (a block), any other."""
HOUSES_FIRST = 3
"""The houses a lot has where most of its group's rent is earned: a group's worth is its
rent with that many (:func:`group_worth`)."""
KEEP = 150
"""The cash the dealer keeps when it builds or lifts a mortgage."""
CLEARLY_BETTER = 1.25
"""A group worth this many times the one the dealer gets is one it will not hand over."""
LEAVE_JAIL_WHILE_UNOWNED = 8
"""The dealer pays to leave jail at once while this many lots or more are unowned."""


def group_worth(group: str) -> int:
    """What a colour group is worth to its holder: its rent with three houses on every lot
    (where most of a group's rent is earned)."""
    return sum(RENTS[space][HOUSES_FIRST] for space in GROUP_SPACES[group])


class Dealer(Strategy):
    """A player that bargains: bids by value, builds evenly to three houses, mortgages
    before it sells, and asks for cash in the swaps it proposes (see the module)."""

    name = "dealer"

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """Every lot it can pay for."""
        return True

    def bid(self, game: GameView, me: OwnView, space: int) -> int:
        """Up to :data:`BID_TENTHS` of the price, by what the lot does for it, within its cash."""
        tenths = BID_TENTHS[what_it_does(game, me.seat, space)]
        return min(me.cash, PRICE[space] * tenths // 10)

    def leave_jail(self, game: GameView, me: OwnView) -> bool:
        """Leave at once while lots are still to be bought; stay when the board is sold."""
        return len(game.unowned()) >= LEAVE_JAIL_WHILE_UNOWNED

    def build(self, game: GameView, me: OwnView) -> int | None:
        """The least built lot it may build on across all its groups (then the cheapest
        building), so that every group has three houses before any has four, while the
        building leaves :data:`KEEP` in hand."""
        allowed = [
            s
            for group in game.monopolies(me.seat)
            for s in GROUP_SPACES[group]
            if why_not_build(game, me.seat, s) is None
        ]
        if not allowed:
            return None
        space = min(allowed, key=lambda s: (game.lots[s].buildings, HOUSE_COST[s], s))
        return space if me.cash - HOUSE_COST[space] >= KEEP else None

    def raise_cash(self, game: GameView, me: OwnView, owed: int) -> tuple[str, int] | None:
        """Mortgage lots outside its complete groups (cheapest first) before selling a
        building (from its cheapest group); then mortgage the rest."""
        by_price = sorted(me.lots, key=lambda s: (PRICE[s], s))
        complete = set(game.monopolies(me.seat))
        for space in by_price:
            if GROUP[space] not in complete and why_not_mortgage(game, me.seat, space) is None:
                return ("mortgage", space)
        for space in by_price:
            if why_not_sell(game, me.seat, space) is None:
                return ("sell", space)
        for space in by_price:
            if why_not_mortgage(game, me.seat, space) is None:
                return ("mortgage", space)
        return None

    def propose_trade(self, game: GameView, me: OwnView) -> Trade | None:
        """The first completion swap (as the default finds them) that does not hand over a
        clearly better group, asking the partner for all the cash it has above $200."""
        for partner in partners_to_ask(game, me):
            for swap in completion_swaps(game, me.seat, partner):
                if fair_swap(swap.take[0], swap.give[0]):
                    spare = game.player(partner).cash - RESERVE
                    return Trade(partner, swap.give, swap.take, min(swap.cash, -spare))
        return None

    accepts = (
        f"only a trade that completes one of its colour groups and no more for the proposer, "
        f"hands over no group clearly better than one it gets, and leaves it ${KEEP} in cash "
        f"(or pays it)"
    )

    def accept_trade(self, game: GameView, me: OwnView, offer: Trade) -> bool:
        """A trade that completes a group of its own, completes no more for the proposer,
        hands over no clearly better group, and leaves it :data:`KEEP` (or pays it)."""
        return not self.trade_refusal(game, me, offer)

    def trade_refusal(self, game: ReadableGame, me: PlayerState | OwnView, offer: Trade) -> str:
        """Why the dealer refuses ``offer``, in its terms ('' when it accepts)."""
        gain, theirs = groups_gained(game, me, offer)
        if gain < 1:
            return COMPLETES_ONE
        if theirs > gain:
            return "it accepts no trade that completes more groups for the proposer than for it"
        for got in offer.give:
            for given in offer.take:
                if not fair_swap(got, given):
                    return (
                        f"it does not hand over {space_name(given)} for {space_name(got)}, "
                        "a clearly less valuable group"
                    )
        if not (offer.cash > 0 or me.cash + offer.cash >= KEEP):
            return f"it accepts only a trade that leaves it ${KEEP} in cash, or pays it"
        return ""


def what_it_does(game: ReadableGame, seat: int, space: int) -> str:
    """``"completes"`` if ``seat`` holds the rest of the lot's colour group, ``"blocks"`` if
    another player does, else ``"other"``."""
    group = GROUP[space]
    if group not in STREET_GROUPS:
        return "other"
    owners = {game.lots[s].owner for s in GROUP_SPACES[group] if s != space}
    if owners == {seat}:
        return "completes"
    return "blocks" if len(owners) == 1 and None not in owners else "other"


def fair_swap(got: int, given: int) -> bool:
    """Whether handing over the lot ``given`` for ``got`` gives away no group clearly better
    than the one the dealer gets (streets only; other lots are worth their price)."""
    if GROUP[given] not in STREET_GROUPS or GROUP[got] not in STREET_GROUPS:
        return PRICE[given] <= CLEARLY_BETTER * PRICE[got]
    return group_worth(GROUP[given]) <= CLEARLY_BETTER * group_worth(GROUP[got])
