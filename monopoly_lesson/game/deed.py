"""A lot's deed and a trade's effect, in words: what a person reads before deciding.

The numbers come from the lots table (:mod:`monopoly_lesson.game.lots`) and the rent rule
(:func:`~monopoly_lesson.game.rent.rent_due`); nothing here decides anything.
"""

from __future__ import annotations

from ..starter import space_name
from .lots import RAILROAD_RENTS, UTILITY_MULTIPLIERS
from .rent import rent_due
from .state import GROUP, GROUP_SPACES, HOTEL, HOUSE_COST, MORTGAGE, PRICE, RENTS, ReadableGame
from .trade import Trade
from .trading import make_trade

__all__ = ["deed", "trade_effect"]

TYPICAL_DICE = 7
"""The roll a utility's rent is shown for (the likeliest total of two dice)."""


def _money(amount: int) -> str:
    return f"${amount:,}"


def _rents(space: int) -> str:
    """What the lot charges at each stage, as its deed prints it."""
    group = GROUP[space]
    if group == "railroad":
        rents = ", ".join(_money(r) for r in RAILROAD_RENTS)
        return f"rent {rents} as its owner holds 1 to 4 railroads"
    if group == "utility":
        one, both = UTILITY_MULTIPLIERS
        return f"rent {one} times the dice, or {both} times with both utilities"
    base, *houses, hotel = RENTS[space]
    return (
        f"rent {_money(base)} ({_money(2 * base)} with the whole group), with 1 to 4 houses "
        f"{', '.join(_money(r) for r in houses)}, with a hotel {_money(hotel)}; "
        f"houses {_money(HOUSE_COST[space])} each"
    )


def _whose(game: ReadableGame, seat: int | None, space: int) -> str:
    owner = game.lots[space].owner
    if owner is None:
        return "owned by nobody yet"
    return "yours" if owner == seat else f"owned by {game.name(owner)}"


def _state(game: ReadableGame, space: int) -> str:
    """Its buildings or mortgage, and the rent it charges now (if owned)."""
    lot = game.lots[space]
    if lot.owner is None:
        return ""
    parts = []
    if lot.mortgaged:
        parts.append("mortgaged")
    elif lot.buildings == HOTEL:
        parts.append("a hotel")
    elif lot.buildings:
        parts.append(f"{lot.buildings} house{'s' * (lot.buildings > 1)}")
    rent = rent_due(game, space, dice=TYPICAL_DICE)
    dice = f" (on a roll of {TYPICAL_DICE})" if GROUP[space] == "utility" else ""
    parts.append(f"its rent now {_money(rent)}{dice}")
    return ", " + ", ".join(parts)


def deed(game: ReadableGame, space: int, seat: int | None = None) -> str:
    """``space``'s deed in words: price, rent at each stage, building cost, mortgage value;
    who owns it (``seat``'s: "yours"), its buildings and its rent now; who owns the rest
    of its group. A space that is not a lot says so."""
    if space not in game.lots:
        return f"{space_name(space)} is not a lot: nobody owns it."
    group = GROUP[space]
    rest = [s for s in GROUP_SPACES[group] if s != space]
    others = "; ".join(f"{space_name(s)} is {_whose(game, seat, s)}" for s in rest)
    return (
        f"{space_name(space)}, {group}: price {_money(PRICE[space])}; {_rents(space)}; "
        f"mortgage {_money(MORTGAGE[space])}. It is {_whose(game, seat, space)}"
        f"{_state(game, space)}." + (f" {others}." if others else "")
    )


def trade_effect(game: ReadableGame, trade: Trade, seat: int) -> str:
    """What ``trade`` (proposed by ``trade.proposer``, or ``seat`` if unset) would complete
    for each side, with the rent each completed group's lots would then charge; said to
    the person in ``seat``."""
    proposer = seat if trade.proposer is None else trade.proposer
    after = game.copy()
    make_trade(after, proposer, trade)  # type: ignore[arg-type]
    said = []
    for side in (proposer, trade.partner):
        new = [g for g in after.monopolies(side) if g not in game.monopolies(side)]
        who = "you" if side == seat else game.name(side)
        for group in new:
            rents = ", ".join(
                _money(rent_due(after, s, dice=TYPICAL_DICE)) for s in GROUP_SPACES[group]
            )
            said.append(f"{group} for {who} (its rents then {rents})")
    if not said:
        return "It completes no group for either side."
    return "It completes " + " and ".join(said) + "."
