"""The whole game's state, for a reader to inspect: players, lots, the bank and the ledger.

Nothing here plays: the rules of :mod:`monopoly_lesson.game.engine` change the state, and
strategies read it to decide. :meth:`GameState.check` asserts the invariants that hold
after every turn (each lot owned at most once, buildings even and on complete
unmortgaged groups, 32 houses and 12 hotels in all, a ledger that balances).

A strategy never holds the state itself: it reads a :class:`GameView`, what a player at
the table may see (no deck order, no other player's generator), which refuses every
change; :meth:`GameState.fingerprint` sums up what a decision must leave as it was, so
that a change made some other way is caught too.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Any, NamedTuple

import pandas as pd

from ..starter import CardDeck, Player, space_name
from .lots import GROUPS, HOTELS, HOUSES, RENT_COLUMNS, lots
from .trade import Proposal, Trade

__all__ = [
    "BANK",
    "HOTEL",
    "LOT_SPACES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "STARTING_CASH",
    "STREET_GROUPS",
    "GameState",
    "GameView",
    "LotState",
    "LotView",
    "OwnView",
    "Payment",
    "PlayerRandom",
    "PlayerState",
    "PlayerView",
    "ReadableGame",
    "TokenView",
]

STARTING_CASH = 1500
MIN_PLAYERS, MAX_PLAYERS = 2, 8
"""A game's players: from 2 to 8, as the rules page says."""
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


class PlayerRandom(random.Random):
    """A player's own generator: Python's, drawing exactly as ``random.Random`` does, which
    also counts its uses, so that a draw made by anyone else shows in the game's fingerprint."""

    uses = 0

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """Seed as ``random.Random.seed`` does (counted as a use)."""
        super().seed(*args, **kwargs)
        self.uses += 1

    def setstate(self, state: tuple) -> None:
        """Restore a state as ``random.Random.setstate`` does (counted as a use)."""
        super().setstate(state)
        self.uses += 1

    def random(self) -> float:
        """The next number in [0, 1), as ``random.Random.random``."""
        self.uses += 1
        return _RANDOM(self)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits, as ``random.Random.getrandbits`` (randint, choice... use it)."""
        self.uses += 1
        return _GETRANDBITS(self, k)


_RANDOM, _GETRANDBITS = random.Random.random, random.Random.getrandbits


@dataclass(eq=False)
class PlayerState:
    """One player: seat (from 1), strategy, cash, token (position and jail), kept cards.

    ``lots`` is the set of spaces the player owns; ``jail_cards`` the Get Out of Jail
    Free cards held, as ``(deck name, card number)``. A bankrupt player has left the
    game: ``bankrupt_round`` and ``creditor`` (a seat, or 0 for the bank) say when and to
    whom. ``watched`` names the decisions whose every answer is checked for changes to
    the game (None: all of them; the package's own strategies' code is not watched).
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
    watched: frozenset[str] | None = None

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
    """Everything about a game in progress; the rules change it, strategies read it
    through their :meth:`view` of it.

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
    proposals: list[Proposal] = field(default_factory=list)  # trades proposed (trading on)
    _views: dict[int, GameView] = field(default_factory=dict, init=False, repr=False)

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

        The payer must have the cash: debts are settled first (:mod:`monopoly_lesson.game.money`).
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
            dict(
                space=s,
                title=lots.at[s, "title"],
                group=GROUP[s],
                owner=lot.owner,
                mortgaged=lot.mortgaged,
                buildings=lot.buildings,
                rent_collected=lot.rent_collected,
            )
            for s, lot in self.lots.items()
        ]
        return pd.DataFrame(rows).set_index("space")

    # -- what a strategy sees, and what it must not change ----------------------------

    def copy(self) -> GameState:
        """A detached copy to try changes on ("what if?"): lots, cash, positions, ledger and
        proposals, without decks, generators nor strategies (as :meth:`GameView.copy`)."""
        return self.view(self.players[0].seat).copy()

    def view(self, seat: int) -> GameView:
        """The game as the player in ``seat`` sees it: read-only and live, what its strategy
        is given (``view.player(seat)`` is its own view, ``me``, with its generator)."""
        try:
            return self._views[seat]
        except KeyError:
            self._views.update(_views_of(self))
            return self._views[seat]

    def fingerprint(self, seat: int) -> tuple:
        """A cheap summary of all that a decision of ``seat`` must leave as it was: every
        player's cash, position, jail, cards, lots, bankruptcy, strategy and (the others')
        generator; every lot; the bank, round, turn and ledger; every trade proposed, by
        value; the decks' piles."""
        players = [
            (
                p.cash,
                p.token.pos,
                p.token.in_jail,
                p.token.jail_turns,
                tuple(p.jail_cards),
                frozenset(p.lots),
                p.bankrupt_round,
                p.creditor,
                id(p.strategy),
                None if p.seat == seat else (id(p.rng), getattr(p.rng, "uses", None)),
            )
            for p in self.players
        ]
        lot_states = [
            (lot.owner, lot.mortgaged, lot.buildings, lot.rent_collected)
            for lot in self.lots.values()
        ]
        proposals = [  # by value, so that a proposal rewritten in place shows
            (
                p.round,
                p.proposer,
                p.accepted,
                p.trade.partner,
                p.trade.give,
                p.trade.take,
                p.trade.cash,
                p.trade.proposer,
            )
            for p in self.proposals
        ]
        table = (
            self.bank_houses,
            self.bank_hotels,
            self.round,
            self.turn,
            len(self.ledger),
            self.ledger[-1] if self.ledger else None,
            len(self.bankruptcies),
            tuple(self.uneven_groups),
            proposals,
        )
        decks = [
            (deck.to_deal, tuple(deck.held), deck.draws, id(deck.rng))
            for deck in self.decks.values()
        ]
        return players, lot_states, table, decks

    def __getstate__(self) -> dict[str, object]:
        """The state without its views (made again when asked), to pickle or copy it."""
        return {**self.__dict__, "_views": {}}

    def changes(self, before: tuple, after: tuple) -> str:
        """What differs between two fingerprints, in words ("" if nothing does)."""
        found = []
        for player, old, new in zip(self.players, before[0], after[0], strict=False):
            found += _differences(f"{player.name}'s", PLAYER_PARTS, old, new)
        for space, old, new in zip(self.lots, before[1], after[1], strict=False):
            found += _differences(f"{space_name(space)}'s", LOT_PARTS, old, new)
        found += _differences("the game's", TABLE_PARTS, before[2], after[2])
        for deck, old, new in zip(self.decks, before[3], after[3], strict=False):
            found += _differences(f"the {deck} deck's", DECK_PARTS, old, new)
        if not found and before != after:
            found.append("its players, lots or decks")
        return "; ".join(found[:3]) + ("; ..." if len(found) > 3 else "")

    # -- the invariants --------------------------------------------------------------

    def check(self) -> None:
        """Assert every invariant of the game rules, the game's proof of honesty (an
        AssertionError names the first broken): every lot in exactly one place, buildings
        as the rules allow and 32 houses and 12 hotels in all, every player's cash what the
        ledger says and never negative, every proposal recorded as plain values."""
        self._check_ownership()
        self._check_buildings()
        self._check_ledger()
        self._check_proposals()

    def _check_ownership(self) -> None:
        """Every lot in exactly one place: the bank's, or one player's, whose set of lots
        holds it and no other player's does; the players hold nothing but lots."""
        assert list(self.lots) == list(LOT_SPACES), "the lots are not the board's 28"
        seats = {p.seat for p in self.players}
        for p in self.players:
            strange = sorted(repr(s) for s in p.lots if type(s) is not int or s not in self.lots)
            assert not strange, f"seat {p.seat} holds {', '.join(strange)}, not lots of the board"
        for space, lot in self.lots.items():
            assert lot.owner is None or (type(lot.owner) is int and lot.owner in seats), (
                f"lot {space} is owned by {lot.owner!r}, not a player's seat"
            )
            holders = [p.seat for p in self.players if space in p.lots]
            assert holders == ([lot.owner] if lot.owner is not None else []), (
                f"lot {space} is owned by {lot.owner} but held by seats {holders}"
            )
            if lot.owner is not None:
                assert self.player(lot.owner).in_game, f"lot {space} owned by a bankrupt"
            assert not (lot.mortgaged and lot.owner is None), f"bank lot {space} mortgaged"

    def _check_buildings(self) -> None:
        """Buildings stand evenly on complete unmortgaged groups, and those on the board
        plus the bank's are the set's 32 houses and 12 hotels."""
        for space, lot in self.lots.items():
            assert type(lot.buildings) is int and 0 <= lot.buildings <= HOTEL, (
                f"lot {space} has {lot.buildings!r} buildings, not 0 to {HOTEL}"
            )
            assert lot.buildings == 0 or GROUP[space] in STREET_GROUPS, (
                f"buildings on lot {space}, which is not a street"
            )
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
            uneven = max(levels) - min(levels) > 1
            assert uneven == (group in self.uneven_groups), (
                f"uneven buildings on {group}: {levels}"
                if uneven
                else f"{group} is counted uneven, but its buildings are {levels}"
            )
            houses += sum(b for b in levels if b < HOTEL)
            hotels += sum(b == HOTEL for b in levels)
        assert type(self.bank_houses) is int and type(self.bank_hotels) is int, "bank's stock"
        assert self.bank_houses >= 0 and houses + self.bank_houses == HOUSES, "houses"
        assert self.bank_hotels >= 0 and hotels + self.bank_hotels == HOTELS, "hotels"

    def _check_ledger(self) -> None:
        """Money is conserved: every player's cash is $1,500 plus what the ledger paid it,
        minus what it paid, and never negative; a player out of the game has none."""
        balance = {p.seat: STARTING_CASH for p in self.players}
        for payment in self.ledger:
            payer, payee, amount = payment.payer, payment.payee, payment.amount
            assert type(amount) is int and amount > 0 and payer != payee, payment
            assert {payer, payee} <= balance.keys() | {BANK}, payment
            for seat, sign in ((payer, -1), (payee, 1)):
                if seat != BANK:
                    balance[seat] += sign * amount
        for p in self.players:
            assert type(p.cash) is int and balance[p.seat] == p.cash, (
                f"seat {p.seat} has ${p.cash!r} but the ledger says ${balance[p.seat]}"
            )
            assert p.cash >= 0, f"seat {p.seat} has negative cash"
            assert p.in_game or (p.cash == 0 and not p.lots), f"bankrupt seat {p.seat} holds"

    def _check_proposals(self) -> None:
        """Every proposal recorded as the game made it: a plain Trade of whole numbers."""
        seats = {p.seat for p in self.players}
        for proposal in self.proposals:
            trade = proposal.trade
            whole = (
                proposal.round,
                proposal.proposer,
                trade.partner,
                trade.cash,
                *trade.give,
                *trade.take,
            )
            assert type(proposal) is Proposal and type(trade) is Trade, proposal
            assert type(proposal.accepted) is bool, proposal
            assert all(type(v) is int for v in whole), proposal
            assert type(trade.give) is tuple and type(trade.take) is tuple, proposal
            assert trade.proposer == proposal.proposer and proposal.proposer in seats, proposal
            assert trade.partner in seats and proposal.round <= self.round, proposal


# ---------------------------------------------------------------------------
# What a decision must not change, in words
# ---------------------------------------------------------------------------

PLAYER_PARTS = (
    "cash",
    "position",
    "jail",
    "turns in jail",
    "Get Out of Jail Free cards",
    "lots",
    "bankruptcy round",
    "creditor",
    "strategy",
    "random generator",
)
LOT_PARTS = ("owner", "mortgage", "buildings", "rent collected")
TABLE_PARTS = (
    "bank's houses",
    "bank's hotels",
    "round",
    "turn",
    "ledger",
    "ledger",
    "bankruptcies",
    "uneven groups",
    "trade proposals",
)
DECK_PARTS = ("cards to deal", "held cards", "draws", "random generator")
SHOWN = {
    "cash",
    "position",
    "owner",
    "mortgage",
    "buildings",
    "bank's houses",
    "bank's hotels",
    "round",
    "turn",
    "bankruptcy round",
}
"""The parts whose old and new values are worth showing (the rest only say they changed)."""


def _differences(whose: str, parts: tuple[str, ...], old: tuple, new: tuple) -> list[str]:
    """``["P1 always's cash (1500 -> 2000)", ...]``: each part that differs, once."""
    found = []
    for part, was, now in zip(parts, old, new, strict=True):
        entry = f"{whose} {part}"
        if was != now and not any(f.startswith(entry) for f in found):
            found.append(f"{entry} ({was} -> {now})" if part in SHOWN else entry)
    return found


# ---------------------------------------------------------------------------
# The views: the game as a player at the table sees it
# ---------------------------------------------------------------------------

HIDDEN = {
    "decks": "the order of the cards is secret",
    "rng": "a player's generator is its own, only me.rng is yours",
    "strategy": "another player's strategy is its own (strategy_name says which it is)",
}
"""Why a view has no such attribute, for the names a strategy might look for."""


class _ReadOnly:
    """Refuses every change: a strategy reads the game through views, never changes it."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(
            f"{type(self).__name__} is read-only: a strategy reads the game and cannot change "
            f"it (it tried to set {name!r}); to try a change, work on game.copy()."
        )

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only: {name!r} cannot be deleted.")

    def __getattr__(self, name: str) -> Any:  # only for names it does not have
        why = HIDDEN.get(name, "a strategy sees what a player at the table may see")
        raise AttributeError(f"{type(self).__name__} has no {name!r}: {why}.")

    def __reduce_ex__(self, protocol: object) -> Any:
        raise TypeError(
            f"a {type(self).__name__} cannot be copied or pickled: to try changes, work on "
            "game.copy(), a GameState of your own."
        )


def _reads(path: str, doc: str) -> property:
    """A read-only property that reads ``path`` (``"_lot.owner"``) of the view."""
    return property(attrgetter(path), doc=doc)


class LotView(_ReadOnly):
    """One lot as every player sees it: its owner, mortgage, buildings and rent collected."""

    __slots__ = ("_lot",)

    def __init__(self, lot: LotState) -> None:
        object.__setattr__(self, "_lot", lot)

    space = _reads("_lot.space", "The lot's space (1 to 40).")
    owner = _reads("_lot.owner", "The owner's seat, or None for the bank.")
    mortgaged = _reads("_lot.mortgaged", "Whether the lot is mortgaged.")
    buildings = _reads("_lot.buildings", "Its buildings: 0 to 4 houses, 5 a hotel.")
    rent_collected = _reads("_lot.rent_collected", "The rent it has collected so far.")

    def __repr__(self) -> str:
        lot = self._lot
        return (
            f"LotView(space={lot.space}, owner={lot.owner}, mortgaged={lot.mortgaged}, "
            f"buildings={lot.buildings})"
        )


class TokenView(_ReadOnly):
    """A player's token as everyone sees it: where it stands and whether it is in jail."""

    __slots__ = ("_token",)

    def __init__(self, token: Player) -> None:
        object.__setattr__(self, "_token", token)

    pos = _reads("_token.pos", "The space the token stands on (1 to 40).")
    in_jail = _reads("_token.in_jail", "Whether the player is in jail.")
    jail_turns = _reads("_token.jail_turns", "The turns it has started in jail.")
    name = _reads("_token.name", "The player's name.")

    def __repr__(self) -> str:
        return f"TokenView(pos={self._token.pos}, in_jail={self._token.in_jail})"


class PlayerView(_ReadOnly):
    """A player as everyone at the table sees it: seat, name, cash, lots, cards, token, and
    whether it is still in the game (not its generator nor its strategy object)."""

    __slots__ = ("_player", "name", "seat", "token")

    def __init__(self, player: PlayerState) -> None:
        for name, value in (
            ("_player", player),
            ("seat", player.seat),
            ("name", player.name),
            ("token", TokenView(player.token)),
        ):
            object.__setattr__(self, name, value)

    cash = _reads("_player.cash", "Its cash in dollars.")
    bankrupt_round = _reads("_player.bankrupt_round", "The round it went bankrupt, or None.")
    creditor = _reads("_player.creditor", "Whom it went bankrupt to (0: the bank), or None.")

    @property
    def lots(self) -> frozenset[int]:
        """The spaces of the lots it owns."""
        return frozenset(self._player.lots)

    @property
    def jail_cards(self) -> tuple[tuple[str, int], ...]:
        """The Get Out of Jail Free cards it holds, as ``(deck name, card number)``."""
        return tuple(self._player.jail_cards)

    @property
    def in_game(self) -> bool:
        """Whether it is still playing (not bankrupt)."""
        return self._player.bankrupt_round is None

    @property
    def strategy_name(self) -> str:
        """The name of its strategy."""
        return str(getattr(self._player.strategy, "name", "?"))

    def __repr__(self) -> str:
        return f"{type(self).__name__} of {self._player!r}"


class OwnView(PlayerView):
    """The deciding player's own view, ``me``: what everyone sees, plus its own generator
    (``me.rng``, to draw its decisions from) and its strategy."""

    __slots__ = ()

    rng = _reads("_player.rng", "Its own seeded random generator.")
    strategy = _reads("_player.strategy", "Its own strategy.")


class GameView(_ReadOnly):
    """The game as one player at the table sees it, read-only and live: the lots, every
    player, the bank's houses and hotels, the round, the ledger; not the decks' order nor
    the other players' generators. Strategies are given it as ``game``."""

    __slots__ = ("_state", "lots", "players")

    def __init__(
        self, state: GameState, players: tuple[PlayerView, ...], lot_views: Mapping[int, LotView]
    ) -> None:
        for name, value in (("_state", state), ("players", players), ("lots", lot_views)):
            object.__setattr__(self, name, value)

    bank_houses = _reads("_state.bank_houses", "The houses the bank still has.")
    bank_hotels = _reads("_state.bank_hotels", "The hotels the bank still has.")
    round = _reads("_state.round", "The round being played.")
    turn = _reads("_state.turn", "The seat whose turn it is.")
    verbose = _reads("_state.verbose", "Whether the game prints its events.")

    @property
    def ledger(self) -> tuple[Payment, ...]:
        """Every payment so far (round, payer, payee, amount, reason; 0 is the bank)."""
        return tuple(self._state.ledger)

    @property
    def bankruptcies(self) -> tuple[tuple[int, int, int], ...]:
        """Every ``(seat, round, creditor)`` so far, in order."""
        return tuple(self._state.bankruptcies)

    @property
    def uneven_groups(self) -> frozenset[str]:
        """Groups left uneven by a hotel sold with its houses (see the rules)."""
        return frozenset(self._state.uneven_groups)

    @property
    def proposals(self) -> tuple[Proposal, ...]:
        """Every trade proposed so far (with trading on), with its answer, in order: copies,
        so that nothing done to them changes the game's record."""
        return tuple(p.copy() for p in self._state.proposals)

    @property
    def in_game(self) -> list[PlayerView]:
        """The players still playing, in seat order."""
        return [view for view in self.players if view._player.bankrupt_round is None]

    def player(self, seat: int) -> PlayerView:
        """The player in ``seat`` (from 1)."""
        return self.players[seat - 1]

    def owner(self, space: int) -> int | None:
        """The seat owning the lot on ``space``, or None."""
        return self._state.lots[space].owner

    def group_owners(self, group: str) -> list[int | None]:
        """The owner of each lot of ``group``, in board order."""
        return self._state.group_owners(group)

    def holds_complete_group(self, seat: int, group: str) -> bool:
        """Whether ``group`` is a complete group of ``seat``'s (see :class:`GameState`)."""
        return self._state.holds_complete_group(seat, group)

    def monopolies(self, seat: int) -> list[str]:
        """The complete groups ``seat`` holds, in board order."""
        return self._state.monopolies(seat)

    def unowned(self) -> list[int]:
        """The lot spaces nobody owns."""
        return self._state.unowned()

    def name(self, seat: int) -> str:
        """The name of the player in ``seat``, or "the bank" for seat 0."""
        return self._state.name(seat)

    def net_worth(self, seat: int) -> int:
        """Cash, plus each lot's price (mortgage value if mortgaged), plus buildings at cost."""
        return self._state.net_worth(seat)

    def houses_and_hotels(self, seat: int) -> tuple[int, int]:
        """How many houses and hotels ``seat`` has on its lots."""
        return self._state.houses_and_hotels(seat)

    def table(self) -> pd.DataFrame:
        """The lots as a DataFrame: title, group, owner, mortgaged, buildings, rent collected."""
        return self._state.table()

    def copy(self) -> GameState:
        """A detached copy of what this player sees, to try changes on ("what if I owned
        it?"): the lots, cash, positions and ledger; no decks, generators nor strategies."""
        state = self._state
        players = [
            dataclasses.replace(
                p,
                strategy=None,
                token=copy.copy(p.token),
                rng=None,
                lots=set(p.lots),
                jail_cards=list(p.jail_cards),
            )
            for p in state.players
        ]
        return GameState(
            players,
            {space: dataclasses.replace(lot) for space, lot in state.lots.items()},
            state.bank_houses,
            state.bank_hotels,
            state.round,
            state.turn,
            list(state.ledger),
            list(state.bankruptcies),
            uneven_groups=set(state.uneven_groups),
            proposals=[p.copy() for p in state.proposals],
        )

    def __copy__(self) -> GameState:
        """``copy.copy(game)`` is :meth:`copy`: a GameState to try changes on."""
        return self.copy()

    def __deepcopy__(self, memo: dict) -> GameState:
        """``copy.deepcopy(game)`` is :meth:`copy`: a GameState to try changes on."""
        return self.copy()

    def __repr__(self) -> str:
        return f"GameView(round {self._state.round}, {len(self.players)} players)"


ReadableGame = GameState | GameView
"""What the rules that only read a game accept: the game itself or a player's view of it."""


def _views_of(state: GameState) -> dict[int, GameView]:
    """Each seat's view of ``state``: the same lots and public players, its own view of
    itself."""
    lot_views = MappingProxyType({space: LotView(lot) for space, lot in state.lots.items()})
    public = [PlayerView(p) for p in state.players]
    return {
        p.seat: GameView(
            state,
            tuple(OwnView(p) if q is p else public[q.seat - 1] for q in state.players),
            lot_views,
        )
        for p in state.players
    }
