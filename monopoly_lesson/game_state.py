"""The whole game's state, for a reader to inspect: players, lots, the bank and the ledger.

Nothing here plays: the rules of :mod:`monopoly_lesson.game` change the state, and
strategies read it to decide. :meth:`GameState.check` asserts the invariants that hold
after every turn (each lot owned at most once, buildings even and on complete
unmortgaged groups, 32 houses and 12 hotels in all, a ledger that balances).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

import pandas as pd

from .lots import GROUPS, HOTELS, HOUSES, RENT_COLUMNS, lots
from .starter import CardDeck, Player

__all__ = [
    "BANK",
    "HOTEL",
    "LOT_SPACES",
    "STARTING_CASH",
    "STREET_GROUPS",
    "GameState",
    "LotState",
    "Payment",
    "PlayerState",
]

STARTING_CASH = 1500
BANK = 0
"""The bank's seat number in the ledger and as a creditor (players are seated from 1)."""
HOTEL = 5
"""A lot's ``buildings`` count with a hotel (0 to 4 are houses)."""

LOT_SPACES = tuple(int(space) for space in lots.index)
GROUP_SPACES: dict[str, tuple[int, ...]] = {
    group: tuple(int(s) for s in lots.index[lots["group"] == group]) for group in GROUPS
}
STREET_GROUPS = tuple(group for group in GROUPS if GROUPS[group][1] > 0)
"""The eight groups that take buildings, in board order."""
# Plain dicts of the lots table, read on every landing (a DataFrame lookup is slower).
PRICE = {int(s): int(p) for s, p in lots["price"].items()}
GROUP = {int(s): str(g) for s, g in lots["group"].items()}
HOUSE_COST = {int(s): int(c) for s, c in lots["house_cost"].items()}
MORTGAGE = {int(s): int(m) for s, m in lots["mortgage"].items()}
RENTS = {int(s): tuple(int(r) for r in row) for s, row in lots[RENT_COLUMNS].iterrows()}


class Payment(NamedTuple):
    """One entry of the ledger: ``amount`` dollars from ``payer`` to ``payee`` (0 is the bank)."""

    round: int
    payer: int
    payee: int
    amount: int
    reason: str


@dataclass(eq=False)
class PlayerState:
    """One player: seat (from 1), strategy, cash, token (position and jail), kept cards.

    ``lots`` is the set of spaces the player owns; ``jail_cards`` the Get Out of Jail
    Free cards held, as ``(deck name, card number)``. A bankrupt player has left the
    game: ``bankrupt_round`` and ``creditor`` (a seat, or 0 for the bank) say when and to
    whom.
    """

    seat: int
    name: str
    strategy: object
    token: Player
    rng: random.Random
    cash: int = STARTING_CASH
    lots: set[int] = field(default_factory=set)
    jail_cards: list[tuple[str, int]] = field(default_factory=list)
    bankrupt_round: int | None = None
    creditor: int | None = None

    @property
    def in_game(self) -> bool:
        """Whether the player is still playing (not bankrupt)."""
        return self.bankrupt_round is None

    def __repr__(self) -> str:
        where = "bankrupt" if not self.in_game else f"on {self.token.pos}"
        return f"PlayerState(seat={self.seat}, {self.name!r}, ${self.cash}, {where})"


@dataclass(eq=False)
class LotState:
    """One lot: its ``owner`` (a seat, or None for the bank), mortgage and buildings (0-5)."""

    space: int
    owner: int | None = None
    mortgaged: bool = False
    buildings: int = 0
    rent_collected: int = 0


@dataclass(eq=False)
class GameState:
    """Everything about a game in progress; strategies read it, the rules change it.

    ``players`` are in seat order (seat ``k`` is ``players[k - 1]``); ``lots`` maps each
    of the 28 lot spaces to its :class:`LotState`; ``bank_houses`` and ``bank_hotels``
    are what the bank still has; ``round`` is the round being played and ``turn`` the
    seat whose turn it is; ``ledger`` lists every payment and ``bankruptcies`` every
    ``(seat, round, creditor)`` in the order they happened; ``decks`` are the two card
    decks by name.
    """

    players: list[PlayerState]
    lots: dict[int, LotState] = field(
        default_factory=lambda: {space: LotState(space) for space in LOT_SPACES}
    )
    bank_houses: int = HOUSES
    bank_hotels: int = HOTELS
    round: int = 1
    turn: int = 1
    ledger: list[Payment] = field(default_factory=list)
    bankruptcies: list[tuple[int, int, int]] = field(default_factory=list)
    decks: dict[str, CardDeck] = field(default_factory=dict)
    verbose: bool = False
    uneven_groups: set[str] = field(default_factory=set)  # a hotel sold whole (rules)

    # -- who owns what ---------------------------------------------------------------

    def player(self, seat: int) -> PlayerState:
        """The player in ``seat`` (from 1)."""
        return self.players[seat - 1]

    @property
    def in_game(self) -> list[PlayerState]:
        """The players still playing, in seat order."""
        return [p for p in self.players if p.bankrupt_round is None]

    def owner(self, space: int) -> int | None:
        """The seat owning the lot on ``space``, or None."""
        return self.lots[space].owner

    def group_owners(self, group: str) -> list[int | None]:
        """The owner of each lot of ``group``, in board order."""
        return [self.lots[s].owner for s in GROUP_SPACES[group]]

    def holds_complete_group(self, seat: int, group: str) -> bool:
        """Whether ``group`` is a complete group of ``seat``'s: a colour group of streets
        every lot of which it owns, mortgaged ones included. Railroads and utilities never
        form one, however many the owner holds (their rent counts them instead)."""
        return group in STREET_GROUPS and all(
            self.lots[s].owner == seat for s in GROUP_SPACES[group]
        )

    def monopolies(self, seat: int) -> list[str]:
        """The complete groups ``seat`` holds, in board order."""
        return [g for g in STREET_GROUPS if self.holds_complete_group(seat, g)]

    def unowned(self) -> list[int]:
        """The lot spaces nobody owns."""
        return [s for s, lot in self.lots.items() if lot.owner is None]

    def name(self, seat: int) -> str:
        """The name of the player in ``seat``, or "the bank" for seat 0."""
        return "the bank" if seat == BANK else self.players[seat - 1].name

    # -- money -----------------------------------------------------------------------

    def transfer(self, payer: int, payee: int, amount: int, reason: str) -> None:
        """Move ``amount`` from ``payer`` to ``payee`` (0 is the bank) and write the ledger.

        The payer must have the cash: debts are settled first (:mod:`monopoly_lesson.money`).
        """
        if amount <= 0:
            return
        if payer != BANK:
            self.players[payer - 1].cash -= amount
        if payee != BANK:
            self.players[payee - 1].cash += amount
        self.ledger.append(Payment(self.round, payer, payee, amount, reason))

    def net_worth(self, seat: int) -> int:
        """Cash, plus each lot's price (mortgage value if mortgaged), plus buildings at cost."""
        player = self.player(seat)
        worth = player.cash
        for space in player.lots:
            lot = self.lots[space]
            worth += MORTGAGE[space] if lot.mortgaged else PRICE[space]
            worth += lot.buildings * HOUSE_COST[space]
        return worth

    def houses_and_hotels(self, seat: int) -> tuple[int, int]:
        """How many houses and hotels ``seat`` has on its lots."""
        levels = [self.lots[s].buildings for s in self.player(seat).lots]
        return sum(b for b in levels if b < HOTEL), sum(b == HOTEL for b in levels)

    def table(self) -> pd.DataFrame:
        """The lots as a DataFrame: title, group, owner, mortgaged, buildings, rent collected."""
        rows = [
            dict(space=s, title=lots.at[s, "title"], group=GROUP[s], owner=lot.owner,
                 mortgaged=lot.mortgaged, buildings=lot.buildings,
                 rent_collected=lot.rent_collected)
            for s, lot in self.lots.items()
        ]  # fmt: skip
        return pd.DataFrame(rows).set_index("space")

    # -- the invariants --------------------------------------------------------------

    def check(self) -> None:
        """Assert every invariant of the game rules (an AssertionError names the first broken)."""
        self._check_ownership()
        self._check_buildings()
        self._check_ledger()

    def _check_ownership(self) -> None:
        for space, lot in self.lots.items():
            holders = [p.seat for p in self.players if space in p.lots]
            assert holders == ([lot.owner] if lot.owner is not None else []), (
                f"lot {space} is owned by {lot.owner} but held by seats {holders}"
            )
            if lot.owner is not None:
                assert self.player(lot.owner).in_game, f"lot {space} owned by a bankrupt"
            assert not (lot.mortgaged and lot.owner is None), f"bank lot {space} mortgaged"

    def _check_buildings(self) -> None:
        houses = hotels = 0
        for group in STREET_GROUPS:
            levels = [self.lots[s].buildings for s in GROUP_SPACES[group]]
            if any(levels):
                owner = self.lots[GROUP_SPACES[group][0]].owner
                assert owner is not None and self.holds_complete_group(owner, group), (
                    f"buildings on the incomplete group {group}"
                )
                assert not any(self.lots[s].mortgaged for s in GROUP_SPACES[group]), (
                    f"buildings on the group {group}, which has a mortgaged lot"
                )
            even = [b for b in levels if b] if group in self.uneven_groups else levels
            assert max(even, default=0) - min(even, default=0) <= 1, (
                f"uneven buildings on {group}: {levels}"
            )
            houses += sum(b for b in levels if b < HOTEL)
            hotels += sum(b == HOTEL for b in levels)
        assert self.bank_houses >= 0 and houses + self.bank_houses == HOUSES, "houses"
        assert self.bank_hotels >= 0 and hotels + self.bank_hotels == HOTELS, "hotels"

    def _check_ledger(self) -> None:
        balance = {p.seat: STARTING_CASH for p in self.players}
        for payment in self.ledger:
            assert payment.amount > 0 and payment.payer != payment.payee, payment
            for seat, sign in ((payment.payer, -1), (payment.payee, 1)):
                if seat != BANK:
                    balance[seat] += sign * payment.amount
        for p in self.players:
            assert balance[p.seat] == p.cash, (
                f"seat {p.seat} has ${p.cash} but the ledger says ${balance[p.seat]}"
            )
            assert p.cash >= 0, f"seat {p.seat} has negative cash"
