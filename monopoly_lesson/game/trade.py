"""A trade as a value: who gives which lots, and who pays how much (``game_rules.md``,
"Trading"). The rules that check and make a trade are :mod:`monopoly_lesson.game.trading`.

>>> Trade(partner=2, give=(12,), take=(14,), cash=20)
Trade(partner=2, give=(12,), take=(14,), cash=20)
>>> Trade(partner=3, give=(38,), take=(40,), cash=50).describe("P1", "P3")
'P1 offers P3 Park Place (38) and $50 in cash for Boardwalk (40)'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..starter import space_name

__all__ = ["Proposal", "Trade"]


@dataclass(frozen=True)
class Trade:
    """A proposal to the player in seat ``partner``: the proposer gives its lots ``give``
    and takes the partner's lots ``take``, and pays the partner ``cash`` dollars (a negative
    ``cash``: the partner pays the proposer)."""

    partner: int
    give: tuple[int, ...] = ()
    take: tuple[int, ...] = ()
    cash: int = 0
    proposer: int | None = field(default=None, repr=False, compare=False)
    """The seat that proposed it: filled in by the game before the partner is asked."""

    def copy(self) -> Trade:
        """A new plain Trade of the same terms and proposer: the game hands out copies, so
        that nothing done to one changes the trade the game checked, made and recorded."""
        return Trade(self.partner, self.give, self.take, self.cash, self.proposer)

    def describe(self, proposer: str, partner: str) -> str:
        """The trade in words, as the narration prints it (saying who pays the cash)."""
        paid = f"${abs(self.cash):,} in cash" + (f" from {partner}" if self.cash < 0 else "")
        gives = [space_name(s) for s in self.give] + ([paid] if self.cash > 0 else [])
        takes = [space_name(s) for s in self.take] + ([paid] if self.cash < 0 else [])
        return f"{proposer} offers {partner} {' and '.join(gives) or 'nothing'} for " + (
            " and ".join(takes) or "nothing"
        )


@dataclass(frozen=True)
class Proposal:
    """A trade proposed in round ``round`` by seat ``proposer``, and whether it was accepted."""

    round: int
    proposer: int
    trade: Trade
    accepted: bool

    def copy(self) -> Proposal:
        """A new Proposal of a copy of the trade (see :meth:`Trade.copy`)."""
        return Proposal(self.round, self.proposer, self.trade.copy(), self.accepted)
