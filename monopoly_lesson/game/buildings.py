"""Houses, hotels and mortgages: what a player may do with its lots, and doing it.

Each ``why_not_...`` function says why a move is not allowed now (None if it is), in a
sentence a student can act on (a strategy may ask it of its read-only view of the game);
the action beside it does the move and writes the ledger. The rules are those of
"Buildings, mortgages and debt" on the game rules page, ``notebooks/game_rules.md``.
"""

from __future__ import annotations

import math

from ..starter import space_name
from .narration import say
from .state import (
    BANK,
    GROUP,
    GROUP_SPACES,
    HOTEL,
    HOUSE_COST,
    MORTGAGE,
    GameState,
    ReadableGame,
)

__all__ = [
    "build",
    "interest",
    "lift_cost",
    "lift_mortgage",
    "mortgage",
    "sale_price",
    "sell_building",
    "why_not_build",
    "why_not_lift",
    "why_not_mortgage",
    "why_not_sell",
]

BUILDING_NAMES = {**dict.fromkeys(range(1, HOTEL), "a house"), HOTEL: "a hotel"}


def _levels(game: ReadableGame, space: int) -> list[int]:
    return [game.lots[s].buildings for s in GROUP_SPACES[GROUP[space]]]


def _note_evenness(game: GameState, space: int) -> None:
    """Keep ``uneven_groups`` true: a hotel sold whole leaves its group uneven until the
    group's lots are within one building of each other again (built up, or sold down)."""
    levels = _levels(game, space)
    if max(levels) - min(levels) > 1:
        game.uneven_groups.add(GROUP[space])
    else:
        game.uneven_groups.discard(GROUP[space])


def _owned(game: ReadableGame, seat: int, space: object) -> str | None:
    if space not in game.lots:
        return f"{space!r} is not a lot (lots are on the spaces {sorted(game.lots)})"
    if game.lots[space].owner != seat:  # type: ignore[index]
        return f"{space_name(space)} is not {game.name(seat)}'s"  # type: ignore[arg-type]
    return None


def why_not_build(game: ReadableGame, seat: int, space: int) -> str | None:
    """Why ``seat`` may not put its next building on ``space`` now, or None if it may."""
    if reason := _owned(game, seat, space):
        return reason
    group, lot = GROUP[space], game.lots[space]
    if not HOUSE_COST[space]:
        return f"nothing is built on a {group}"
    if not game.holds_complete_group(seat, group):
        return f"the {group} group is not complete"
    if any(game.lots[s].mortgaged for s in GROUP_SPACES[group]):
        return f"a lot of the {group} group is mortgaged"
    if lot.buildings == HOTEL:
        return f"{space_name(space)} already has a hotel"
    if lot.buildings > min(_levels(game, space)):
        return f"building must be even: another {group} lot has fewer buildings"
    if lot.buildings == HOTEL - 1 and game.bank_hotels == 0:
        return "the bank has no hotel left"
    if lot.buildings < HOTEL - 1 and game.bank_houses == 0:
        return "the bank has no house left"
    if game.player(seat).cash < HOUSE_COST[space]:
        return f"a building on {space_name(space)} costs ${HOUSE_COST[space]}"
    return None


def build(game: GameState, seat: int, space: int) -> None:
    """Buy the next building on ``space`` from the bank (a hotel gives back 4 houses)."""
    lot = game.lots[space]
    game.transfer(seat, BANK, HOUSE_COST[space], "building")
    lot.buildings += 1
    if lot.buildings == HOTEL:
        game.bank_hotels -= 1
        game.bank_houses += HOTEL - 1
    else:
        game.bank_houses -= 1
    _note_evenness(game, space)
    if game.verbose:
        say(
            "built",
            who=game.name(seat),
            building=BUILDING_NAMES[lot.buildings],
            lot=space_name(space),
            amount=HOUSE_COST[space],
        )


def why_not_sell(game: ReadableGame, seat: int, space: int) -> str | None:
    """Why ``seat`` may not sell a building from ``space`` now, or None if it may."""
    if reason := _owned(game, seat, space):
        return reason
    if game.lots[space].buildings == 0:
        return f"{space_name(space)} has no building to sell"
    if game.lots[space].buildings < max(_levels(game, space)):
        return f"selling must be even: another {GROUP[space]} lot has more buildings"
    return None


def sell_building(game: GameState, seat: int, space: int) -> None:
    """Sell a building on ``space`` for half its cost; a hotel goes back to 4 houses if the
    bank has them, else it is sold with its houses at once."""
    lot, half = game.lots[space], sale_price(space)
    sold = 1
    if lot.buildings == HOTEL and game.bank_houses < HOTEL - 1:
        sold = HOTEL  # the hotel and the 4 houses it stands for
    elif lot.buildings == HOTEL:
        game.bank_houses -= HOTEL - 1
    if lot.buildings == HOTEL:
        game.bank_hotels += 1
    else:
        game.bank_houses += 1
    what = "a hotel and its houses" if sold == HOTEL else BUILDING_NAMES[lot.buildings]
    lot.buildings -= sold
    _note_evenness(game, space)
    game.transfer(BANK, seat, sold * half, "building sold")
    if game.verbose:
        say("sold", who=game.name(seat), building=what, lot=space_name(space), amount=sold * half)


def why_not_mortgage(game: ReadableGame, seat: int, space: int) -> str | None:
    """Why ``seat`` may not mortgage ``space`` now, or None if it may."""
    if reason := _owned(game, seat, space):
        return reason
    if game.lots[space].mortgaged:
        return f"{space_name(space)} is already mortgaged"
    if any(_levels(game, space)):
        return f"the {GROUP[space]} group has buildings: sell them first"
    return None


def mortgage(game: GameState, seat: int, space: int) -> None:
    """Mortgage ``space``: the bank pays half its price."""
    game.lots[space].mortgaged = True
    game.transfer(BANK, seat, MORTGAGE[space], "mortgage")
    if game.verbose:
        say("mortgaged", who=game.name(seat), lot=space_name(space), amount=MORTGAGE[space])


def sale_price(space: int) -> int:
    """What the bank pays for one building sold from ``space``: half its cost.

    >>> sale_price(2), sale_price(40)
    (25, 100)
    """
    return HOUSE_COST[space] // 2


def interest(space: int) -> int:
    """The 10% interest on the mortgage of ``space``, rounded up: paid when the mortgage is
    lifted, and by a creditor who takes the lot mortgaged.

    >>> interest(2), interest(40)
    (3, 20)
    """
    return math.ceil(MORTGAGE[space] / 10)


def lift_cost(space: int) -> int:
    """What lifting the mortgage on ``space`` costs: its value plus the interest.

    >>> lift_cost(2), lift_cost(40)
    (33, 220)
    """
    return MORTGAGE[space] + interest(space)


def why_not_lift(game: ReadableGame, seat: int, space: int) -> str | None:
    """Why ``seat`` may not lift the mortgage on ``space`` now, or None if it may."""
    if reason := _owned(game, seat, space):
        return reason
    if not game.lots[space].mortgaged:
        return f"{space_name(space)} is not mortgaged"
    if game.player(seat).cash < lift_cost(space):
        return f"lifting the mortgage on {space_name(space)} costs ${lift_cost(space)}"
    return None


def lift_mortgage(game: GameState, seat: int, space: int) -> None:
    """Pay the mortgage value plus 10% and take the mortgage off ``space``."""
    game.lots[space].mortgaged = False
    game.transfer(seat, BANK, lift_cost(space), "mortgage lifted")
    if game.verbose:
        say("lifted", who=game.name(seat), lot=space_name(space), amount=lift_cost(space))
