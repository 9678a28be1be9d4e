"""Helpers to set up whole-game scenarios by hand (tests/test_game_rules.py).

A scenario is a :class:`MonopolyGame` with preset dice and decks, whose state is set by
hand before a turn is played: who owns what, cash (moved through the ledger, so that
``state.check()`` still balances), positions and jail.
"""

from __future__ import annotations

from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.plugins import make_strategy
from monopoly_lesson.game.state import BANK, HOTEL, PlayerState
from monopoly_lesson.game.strategies import Strategy

CHANCE, CHEST = "Chance", "Community Chest"
JAIL = 11


def no_choice(game, me):
    """A build or lift decision that never builds nor lifts anything."""
    return None


def passive(buy: bool = False, name: str = "passive", **decisions) -> Strategy:
    """A strategy that answers ``buy`` with a constant and never builds nor lifts
    (unless ``decisions`` say otherwise); the other decisions are the defaults."""
    decisions.setdefault("build", no_choice)
    decisions.setdefault("lift", no_choice)
    return make_strategy(name, buy=lambda game, me, space: buy, **decisions)


def bids(amount: int):
    """A bid decision that always bids ``amount``."""
    return lambda game, me, space: amount


def choices(*spaces: int):
    """A build or lift decision that names ``spaces`` in turn, then None."""
    pending = iter(spaces)
    return lambda game, me: next(pending, None)


def new_game(*strategies: Strategy, players: int = 2, dice=(), chance=(), chest=(), **options):
    """A game with ``strategies`` in seats 1, 2, ... (the rest passive) and preset dice and
    decks (no dice: any roll is an error)."""
    seated = [*strategies, *(passive() for _ in range(players - len(strategies)))]
    return MonopolyGame(seated, dice=list(dice), chance_order=chance, chest_order=chest,
                        **options)  # fmt: skip


def player(g: MonopolyGame, seat: int) -> PlayerState:
    """The player in ``seat``."""
    return g.state.player(seat)


def give(g: MonopolyGame, seat: int, *spaces: int, buildings: int = 0, mortgaged: bool = False):
    """Make ``seat`` the owner of ``spaces``, each with ``buildings`` (5: a hotel) from the
    bank's stock, mortgaged or not."""
    for space in spaces:
        lot = g.state.lots[space]
        lot.owner, lot.buildings, lot.mortgaged = seat, buildings, mortgaged
        player(g, seat).lots.add(space)
        if buildings == HOTEL:
            g.state.bank_hotels -= 1
        else:
            g.state.bank_houses -= buildings


def set_cash(g: MonopolyGame, seat: int, amount: int) -> None:
    """Give ``seat`` exactly ``amount`` in cash, through the ledger (from or to the bank)."""
    change = amount - player(g, seat).cash
    if change > 0:
        g.state.transfer(BANK, seat, change, "setup")
    elif change < 0:
        g.state.transfer(seat, BANK, -change, "setup")


def hold_card(g: MonopolyGame, seat: int, deck: str = CHANCE, number: int = 12) -> None:
    """``seat`` holds a Get Out of Jail Free card (out of its deck)."""
    g.state.decks[deck].hold(number)
    player(g, seat).jail_cards.append((deck, number))


def put_in_jail(g: MonopolyGame, seat: int, turns_there: int = 0) -> None:
    """``seat`` is in jail, having already started ``turns_there`` turns there."""
    token = player(g, seat).token
    token.pos, token.in_jail, token.jail_turns = JAIL, True, turns_there


def play(g: MonopolyGame, seat: int = 1, start: int | None = None) -> None:
    """Play the turn of ``seat`` (from space ``start`` if given)."""
    if start is not None:
        player(g, seat).token.pos = start
    g.state.turn = seat
    g.play_turn()


def cash(g: MonopolyGame) -> list[int]:
    """Every player's cash, in seat order."""
    return [p.cash for p in g.state.players]
