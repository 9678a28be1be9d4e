"""Strategies: what a player decides, as plug-ins, with the rules' defaults.

A strategy answers the game's questions (the game rules page, ``notebooks/game_rules.md``,
"Strategies: what a player decides"):

- ``buy(game, me, space) -> bool``: buy this unowned lot at its price?
- ``bid(game, me, space) -> int``: the most it would pay in an auction (0: no bid);
- ``leave_jail(game, me) -> bool``: leave jail now, with a card or $50?
- ``build(game, me) -> space or None``: the next building to buy at the end of its turn;
- ``lift(game, me) -> space or None``: the next mortgage to lift at the end of its turn;
- ``raise_cash(game, me, owed) -> ("sell" or "mortgage", space) or None``: what to sell
  or mortgage next to pay a debt.

``game`` is a :class:`~monopoly_lesson.game.state.GameView`, the game as a player at the
table sees it (read-only: the lots, every player's cash, position and cards, the bank;
not the decks' order), and ``me`` the deciding player's own view; ``me.rng`` is its own
seeded random generator. A decision that tries to change the game stops it with a
:class:`StrategyError` (to try a change, work on ``game.copy()``). Only ``buy`` is
required: subclass :class:`Strategy` and the others are the rules' defaults below; a
plain class or a few functions work too (:mod:`monopoly_lesson.game.plugins`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from .buildings import lift_cost, why_not_build, why_not_mortgage, why_not_sell
from .state import (
    GROUP,
    GROUP_SPACES,
    HOUSE_COST,
    PRICE,
    STREET_GROUPS,
    GameView,
    OwnView,
    PlayerState,
    ReadableGame,
)
from .trade import Trade
from .trading import make_trade, tradable

__all__ = [
    "BUILD_ORDER",
    "COMPLETES_ONE",
    "DECISIONS",
    "RESERVE",
    "AlwaysBuy",
    "GameChanged",
    "Heuristic",
    "NeverBuy",
    "Passive",
    "RandomBuy",
    "Strategy",
    "StrategyError",
    "accepts_words",
    "completion_accepts",
    "completion_refusal",
    "completion_swap",
    "completion_swaps",
    "default_build",
    "groups_gained",
    "lots_to_complete",
    "only_lot_missing",
    "partners_to_ask",
    "swap_with",
    "swappable",
    "swappable_lots",
    "trade_refusal",
]

RESERVE = 200
"""The cash the default build and lift decisions keep in hand."""
STREETS = tuple(s for s in sorted(PRICE) if GROUP[s] in STREET_GROUPS)
"""The street lots (the colour groups' lots), in board order."""
BUILD_ORDER = ("orange", "light blue", "red", "purple", "dark blue", "yellow", "green", "brown")
"""The groups the default build decision develops, in order (the paper's code's order)."""
LIFT_ORDER = ("complete groups", "railroad", "utility", "others")
DECISIONS = (
    "buy",
    "bid",
    "leave_jail",
    "build",
    "lift",
    "raise_cash",
    "propose_trade",
    "accept_trade",
)
"""The questions a strategy answers, in the order the docs list them."""


class StrategyError(RuntimeError):
    """A strategy's decision is missing, raised an error, or returned something invalid."""


class GameChanged(StrategyError):
    """A strategy's decision changed the game, which a strategy may only read."""


class Strategy:
    """A strategy with the rules' defaults; subclasses answer ``buy`` and any others."""

    name = "strategy"
    accepts = (
        "only a trade that completes one of its colour groups, leaves the proposer no more "
        "complete groups than it gains, and leaves it $200 in cash (or pays it)"
    )
    """What its answer to a trade accepts, in words (see :func:`accepts_words`)."""

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """Buy the unowned lot on ``space`` at its price? (Every strategy must answer.)"""
        raise NotImplementedError(
            f"the {self.name!r} strategy has no buy decision: define buy(self, game, me, space)"
        )

    def bid(self, game: GameView, me: OwnView, space: int) -> int:
        """Default: the lot's price (capped at the cash) if it would buy the lot, else 0."""
        return min(PRICE[space], me.cash) if self.buy(game, me, space) else 0

    def leave_jail(self, game: GameView, me: OwnView) -> bool:
        """Default: no, stay (the long stay)."""
        return False

    def build(self, game: GameView, me: OwnView) -> int | None:
        """Default: evenly, in :data:`BUILD_ORDER`, while the next keeps $200 in hand."""
        return default_build(game, me)

    def lift(self, game: GameView, me: OwnView) -> int | None:
        """Default: complete groups' lots first, then railroads, utilities, others."""
        return default_lift(game, me)

    def raise_cash(self, game: GameView, me: OwnView, owed: int) -> tuple[str, int] | None:
        """Default: sell buildings from the cheapest group, then mortgage (see the rules)."""
        return default_raise_cash(game, me, owed)

    def propose_trade(self, game: GameView, me: OwnView) -> Trade | None:
        """Default (with trading on): the completion swap, one partner at a time."""
        return completion_swap(game, me)

    def accept_trade(self, game: GameView, me: OwnView, offer: Trade) -> bool:
        """Default (with trading on): accept a trade that completes a group of mine."""
        return completion_accepts(game, me, offer)

    def trade_refusal(self, game: ReadableGame, me: PlayerState | OwnView, offer: Trade) -> str:
        """Why the default answer refuses ``offer``, in its terms ('' when it accepts)."""
        return completion_refusal(game, me, offer)

    def __repr__(self) -> str:
        return f"<{self.name} strategy>"


def default_build(
    game: ReadableGame, me: PlayerState | OwnView, reserve: int = RESERVE
) -> int | None:
    """The next building in :data:`BUILD_ORDER` if it leaves ``reserve`` (by default
    :data:`RESERVE`) in hand."""
    for group in BUILD_ORDER:
        spaces = GROUP_SPACES[group]
        if game.lots[spaces[0]].owner != me.seat or not game.holds_complete_group(me.seat, group):
            continue
        for space in sorted(spaces, key=lambda s: game.lots[s].buildings):
            if why_not_build(game, me.seat, space) is None:
                return space if me.cash - HOUSE_COST[space] >= reserve else None
    return None


def default_lift(game: ReadableGame, me: PlayerState | OwnView) -> int | None:
    """The next mortgage to lift, if its cost leaves :data:`RESERVE` in hand."""
    mortgaged = [s for s in sorted(me.lots) if game.lots[s].mortgaged]
    if not mortgaged:
        return None
    first = min(mortgaged, key=lambda s: (_lift_rank(game, me, s), s))
    return first if me.cash - lift_cost(first) >= RESERVE else None


def _lift_rank(game: ReadableGame, me: PlayerState | OwnView, space: int) -> int:
    group = GROUP[space]
    if game.holds_complete_group(me.seat, group):
        return LIFT_ORDER.index("complete groups")
    if group in ("railroad", "utility"):
        return LIFT_ORDER.index(group)
    return LIFT_ORDER.index("others")


def default_raise_cash(
    game: ReadableGame, me: PlayerState | OwnView, owed: int
) -> tuple[str, int] | None:
    """Sell buildings, cheapest group first; then mortgage lots outside complete groups
    (railroads and utilities are never in one), cheapest first; then the rest."""
    by_price = sorted(me.lots, key=lambda s: (PRICE[s], s))
    for space in by_price:
        if why_not_sell(game, me.seat, space) is None:
            return ("sell", space)
    mortgageable = [s for s in by_price if why_not_mortgage(game, me.seat, s) is None]
    if not mortgageable:
        return None
    loose = [s for s in mortgageable if not game.holds_complete_group(me.seat, GROUP[s])]
    return ("mortgage", (loose or mortgageable)[0])


def only_lot_missing(game: ReadableGame, seat: int, space: int) -> bool:
    """Whether ``space`` is the only lot of its group that ``seat`` does not hold."""
    return all(game.lots[s].owner == seat for s in GROUP_SPACES[GROUP[space]] if s != space)


def lots_to_complete(game: ReadableGame, seat: int) -> list[int]:
    """The streets that are each the only lot of their colour group that ``seat`` does not
    hold, in board order: the lots a completion swap could give it."""
    held = Counter(GROUP[s] for s in game.player(seat).lots)
    return sorted(
        s
        for group in STREET_GROUPS
        if held[group] == len(GROUP_SPACES[group]) - 1
        for s in GROUP_SPACES[group]
        if game.lots[s].owner != seat
    )


def swappable(game: ReadableGame, seat: int, space: int) -> bool:
    """Whether ``seat`` may give ``space`` in a completion swap: its own unmortgaged street,
    in a group without buildings."""
    lot = game.lots[space]
    return lot.owner == seat and not lot.mortgaged and tradable(game, seat, space)


def swappable_lots(game: ReadableGame, seat: int) -> list[int]:
    """``seat``'s unmortgaged street lots in groups without buildings, in board order."""
    return [s for s in sorted(game.player(seat).lots) if s in STREETS and swappable(game, seat, s)]


def swap_with(game: ReadableGame, me: int, partner: int) -> Trade | None:
    """The first completion swap with ``partner``, in board order of the lot received then
    of the lot given, whose payer has the price difference; None if there is none."""
    return next(completion_swaps(game, me, partner), None)


def completion_swaps(game: ReadableGame, me: int, partner: int) -> Iterator[Trade]:
    """Every completion swap with ``partner`` whose payer has the price difference, in
    board order of the lot received, then of the lot given: the default proposes the first."""
    cash = {me: game.player(me).cash, partner: game.player(partner).cash}
    for take in lots_to_complete(game, me):
        if not swappable(game, partner, take):
            continue
        for give in lots_to_complete(game, partner):
            if GROUP[give] == GROUP[take] or not swappable(game, me, give):
                continue
            pay = PRICE[take] - PRICE[give]  # the side receiving the dearer lot pays
            if (pay >= 0 and cash[me] >= pay) or (pay < 0 and cash[partner] >= -pay):
                yield Trade(partner, give=(give,), take=(take,), cash=pay)


def partners_to_ask(game: ReadableGame, me: PlayerState | OwnView) -> list[int]:
    """The other players still in the game, in seat order after ``me``, that ``me`` has not
    yet proposed a trade to this turn."""
    asked = {
        p.trade.partner for p in game.proposals if p.round == game.round and p.proposer == me.seat
    }
    seats = [p.seat for p in game.players]
    after = seats[me.seat :] + seats[: me.seat - 1]
    return [s for s in after if s not in asked and game.player(s).in_game]


def groups_gained(game: ReadableGame, me: PlayerState | OwnView, offer: Trade) -> tuple[int, int]:
    """How many more complete groups ``me`` and the proposer of ``offer`` would hold after
    it (tried on a copy of the game)."""
    before = len(game.monopolies(me.seat)), len(game.monopolies(offer.proposer))
    after = game.copy()
    make_trade(after, offer.proposer, offer)  # type: ignore[arg-type]
    return (
        len(after.monopolies(me.seat)) - before[0],
        len(after.monopolies(offer.proposer)) - before[1],
    )


def completion_swap(game: ReadableGame, me: PlayerState | OwnView) -> Trade | None:
    """The default proposal: to each other player in seat order after ``me`` not yet asked
    this turn, the first completion swap with it (see the rules page); None when none."""
    if not lots_to_complete(game, me.seat):  # most turns early on: no swap could help it
        return None
    for partner in partners_to_ask(game, me):
        if (trade := swap_with(game, me.seat, partner)) is not None:
            return trade
    return None


def completion_accepts(game: ReadableGame, me: PlayerState | OwnView, offer: Trade) -> bool:
    """The default answer: yes when after the trade ``me`` holds more complete groups than
    before, the proposer holds no more complete groups than ``me`` gains, and ``me`` keeps
    at least $200 in cash (or is paid cash)."""
    return not completion_refusal(game, me, offer)


def trade_refusal(
    strategy: object, game: ReadableGame, me: PlayerState | OwnView, offer: Trade
) -> str:
    """Why ``strategy`` refuses ``offer``, in its own terms: what its ``trade_refusal``
    says, if that and its ``accept_trade`` are one class's of the package ('' otherwise: a
    student's answer is the student's to explain)."""
    if "accept_trade" in getattr(strategy, "__dict__", {}):
        return ""
    answers, explains = (
        _defined_by(strategy, "accept_trade"),
        _defined_by(strategy, "trade_refusal"),
    )
    if explains is None or explains is not answers or not explains.__module__.startswith(PACKAGE):
        return ""
    return strategy.trade_refusal(game, me, offer)  # type: ignore[attr-defined]


def accepts_words(strategy: object) -> str:
    """What ``strategy`` accepts in a trade, in words, if its answer is one of the
    package's (``accepts`` of the class whose ``accept_trade`` it plays); else that it has
    a rule of its own."""
    if "accept_trade" in getattr(strategy, "__dict__", {}):
        return "by a rule of its own"
    answers = _defined_by(strategy, "accept_trade")
    if answers is None or not answers.__module__.startswith(PACKAGE):
        return "by a rule of its own"
    return str(vars(answers).get("accepts", Strategy.accepts))


def _defined_by(strategy: object, name: str) -> type | None:
    """The class whose own ``name`` ``strategy`` uses (None: none defines it)."""
    return next((kind for kind in type(strategy).__mro__ if name in vars(kind)), None)


PACKAGE = "monopoly_lesson."
"""The start of the package's modules' names."""
COMPLETES_ONE = "it accepts only a trade that completes one of its colour groups"
"""Why a strategy that trades to complete its groups refuses a trade that completes none."""


def completion_refusal(game: ReadableGame, me: PlayerState | OwnView, offer: Trade) -> str:
    """Why the default answer refuses ``offer``, in its terms ('' when it accepts)."""
    before = len(game.monopolies(me.seat))
    after = game.copy()
    make_trade(after, offer.proposer, offer)
    gain = len(after.monopolies(me.seat)) - before
    if gain <= 0:
        return COMPLETES_ONE
    if len(after.monopolies(offer.proposer)) > gain:
        return "it accepts no trade that leaves the proposer more complete groups than it gains"
    if not (offer.cash > 0 or after.player(me.seat).cash >= RESERVE):
        return f"it accepts only a trade that leaves it ${RESERVE} in cash, or pays it"
    return ""


# ---------------------------------------------------------------------------
# Built-in strategies
# ---------------------------------------------------------------------------


class AlwaysBuy(Strategy):
    """Buy every lot it lands on and can pay for."""

    name = "always"

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """Always."""
        return True


class NeverBuy(Strategy):
    """Never buy at the price; bids nothing in auctions either (the default bid)."""

    name = "never"

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """Never."""
        return False


class RandomBuy(Strategy):
    """Buy with probability ``p`` (a fresh draw each time, from the player's generator)."""

    def __init__(self, p: float) -> None:
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"p must be a probability from 0 to 1, got {p!r}.")
        self.p = float(p)
        self.name = f"random:{p:g}"

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """A fresh draw: True with probability ``p``."""
        return me.rng.random() < self.p


class Passive(Strategy):
    """Buys every lot it can (``buy=True``) or none, and never builds nor lifts a mortgage:
    a player that stays as it is set, to see one rule at work (the rules' scenarios)."""

    name = "passive"

    def __init__(self, buy: bool = False) -> None:
        if not isinstance(buy, bool):
            raise TypeError(f"buy must be True or False, got {buy!r}.")
        self.buys = buy

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """As it was told."""
        return self.buys

    def build(self, game: GameView, me: OwnView) -> int | None:
        """Never."""
        return None

    def lift(self, game: GameView, me: OwnView) -> int | None:
        """Never."""
        return None


UNOWNED_TO_LEAVE_JAIL = 14
"""The heuristic leaves jail at once while at least this many lots (half) are unowned."""


def nobody_owns_group(game: GameView, me: OwnView, space: int) -> bool:
    """Heuristic 1: nobody owns a lot of this group yet."""
    return all(game.lots[s].owner is None for s in GROUP_SPACES[GROUP[space]])


def adds_to_my_group(game: GameView, me: OwnView, space: int) -> bool:
    """Heuristic 2: a second or third lot of a group only ``me`` owns lots of."""
    owners = {game.lots[s].owner for s in GROUP_SPACES[GROUP[space]]} - {None}
    return owners == {me.seat}


def blocks_a_group(game: GameView, me: OwnView, space: int) -> bool:
    """Heuristic 3: one other player owns every other lot of the group (buy to block)."""
    others = [game.lots[s].owner for s in GROUP_SPACES[GROUP[space]] if s != space]
    return len(set(others)) == 1 and others[0] not in (None, me.seat)


def is_orange(game: GameView, me: OwnView, space: int) -> bool:
    """Heuristic 4: always buy orange."""
    return GROUP[space] == "orange"


class Heuristic(Strategy):
    """The paper's six heuristics: buy if nobody owns the group, to add to one's own group,
    to block, or if orange; leave jail early while many lots are unowned, stay late
    when the board is developed."""

    name = "heuristic"
    rules = (nobody_owns_group, adds_to_my_group, blocks_a_group, is_orange)

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """Buy when any of the four buying heuristics says so."""
        return any(rule(game, me, space) for rule in self.rules)

    def leave_jail(self, game: GameView, me: OwnView) -> bool:
        """Heuristics 5 and 6: leave at once early (many lots unowned), stay late."""
        return len(game.unowned()) >= UNOWNED_TO_LEAVE_JAIL
