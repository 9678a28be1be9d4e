"""The rent a lot charges: one function reading the lots table and the lot's state.

Streets charge by their buildings, double when unimproved in a complete group;
railroads by how many the owner holds; utilities a multiple of the dice (the game
rules page, ``notebooks/game_rules.md``, "Rent"). A card can double a railroad's rent or
fix a utility's multiple.
"""

from __future__ import annotations

from .lots import RAILROAD_RENTS, UTILITY_MULTIPLIERS
from .state import GROUP, GROUP_SPACES, RENTS, ReadableGame

__all__ = ["rent_due"]


def rent_due(
    game: ReadableGame, space: int, dice: int, multiplier: int = 1, dice_times: int = 0
) -> int:
    """The rent the owner of ``space`` charges (0 if mortgaged or unowned); a strategy may
    ask it of its view of the game, or of ``game.copy()`` changed to try a "what if".

    ``dice`` is the roll that brought the mover (utilities); ``multiplier`` multiplies a
    railroad's rent and ``dice_times``, when not 0, replaces a utility's 4 or 10 (cards).
    """
    lot = game.lots[space]
    if lot.owner is None or lot.mortgaged:
        return 0
    group = GROUP[space]
    if group == "railroad" or group == "utility":
        held = sum(game.lots[s].owner == lot.owner for s in GROUP_SPACES[group])
        if group == "railroad":
            return RAILROAD_RENTS[held - 1] * multiplier
        return (dice_times or UTILITY_MULTIPLIERS[held - 1]) * dice
    if lot.buildings:
        return RENTS[space][lot.buildings]
    doubled = game.holds_complete_group(lot.owner, group)
    return RENTS[space][0] * (2 if doubled else 1)
