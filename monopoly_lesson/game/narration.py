"""The whole game's narration: one fixed line per event, printed with ``verbose=True``.

The movement's own lines (rolls, moves, cards drawn, jail) are the lesson's
(:data:`monopoly_lesson.starter.NARRATION`); these add money and property. The wording
is stable, so a printed game can be read, searched and compared.
"""

from __future__ import annotations

from ..starter import JAIL, Player, space_name

__all__ = ["GAME_NARRATION", "say", "whereabouts"]

GAME_NARRATION = {
    "turn": "Round {round}, {who}: ${cash}, {where}.",
    "salary": "{who} collects $200 salary.",
    "rent": "{who} pays ${amount} rent to {owner} for {lot}.",
    "no_rent": "{who} owes no rent: {lot} is mortgaged.",
    "bought": "{who} buys {lot} for ${amount}.",
    "declined": "{who} declines to buy {lot}.",
    "auction": "{who} wins the auction for {lot} for ${amount} (bids: {bids}).",
    "no_bids": "No bids for {lot} (bids: {bids}): it stays with the bank.",
    "tax": "{who} pays ${amount} {reason}.",
    "collect": "{who} collects ${amount} from the bank ({reason}).",
    "pay": "{who} pays ${amount} to the bank ({reason}).",
    "pays_player": "{who} pays ${amount} to {owner} ({reason}).",
    "keep_card": "{who} keeps the Get Out of Jail Free card.",
    "use_card": "{who} uses a Get Out of Jail Free card to leave jail.",
    "bail": "{who} pays $50 to leave jail.",
    "built": "{who} builds {building} on {lot} for ${amount}.",
    "sold": "{who} sells {building} on {lot} for ${amount}.",
    "mortgaged": "{who} mortgages {lot} for ${amount}.",
    "lifted": "{who} lifts the mortgage on {lot} for ${amount}.",
    "interest": "{who} pays ${amount} interest on mortgaged {lot}.",
    "bankrupt": "{who} is bankrupt to {owner}.",
    "proposal": "{what}.",
    "accepted": "{who} accepts the trade.",
    "refused": "{who} refuses the trade{why}.",
    "traded": "{who} and {partner} make the trade.",
    "end": "The game ends after {rounds} rounds ({how}); the winner is {who}.",
}
"""The whole game's narration templates, one line per event (a stable wording)."""


def say(event: str, **fields: object) -> None:
    """Print the line for ``event`` (the caller checks ``verbose`` first, to stay fast)."""
    print(GAME_NARRATION[event].format(**fields))


def whereabouts(token: Player) -> str:
    """Where a token stands, in words that tell jail from a visit: ``"on Boardwalk (40)"``,
    ``"in jail"``, ``"on Jail (11), just visiting"``."""
    if token.in_jail:
        return "in jail"
    visiting = ", just visiting" if token.pos == JAIL else ""
    return f"on {space_name(token.pos)}{visiting}"
