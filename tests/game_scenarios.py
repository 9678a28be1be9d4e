"""Helpers to set up whole-game scenarios by hand (tests/test_game_rules.py).

A scenario is a :class:`MonopolyGame` with preset dice and decks, whose state is set by
hand before a turn is played: who owns what, cash (moved through the ledger, so that
``state.check()`` still balances), positions and jail.
"""

from __future__ import annotations

import copy
import os

import numpy as np

from monopoly_lesson.game import fast_loop as loop
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.fast import _movement, state_vector, strategy_codes
from monopoly_lesson.game.plugins import make_strategy
from monopoly_lesson.game.state import BANK, HOTEL, LOT_SPACES, PlayerState
from monopoly_lesson.game.strategies import Passive, Strategy
from monopoly_lesson.roll_table import state_of
from monopoly_lesson.starter import CardDeck, PresetDice

CHANCE, CHEST = "Chance", "Community Chest"
JAIL = 11


def no_choice(game, me):
    """A build or lift decision that never builds nor lifts anything."""
    return None


def passive(buy: bool = False, name: str = "passive", **decisions) -> Strategy:
    """A strategy that answers ``buy`` with a constant and never builds nor lifts
    (unless ``decisions`` say otherwise); the other decisions are the defaults."""
    if not decisions and name == "passive":
        return Passive(buy)  # a built-in: the fast whole game plays it too
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
    return MonopolyGame(seated, dice=list(dice), chance_order=chance, chest_order=chest, **options)


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


# ---------------------------------------------------------------------------
# The same turn on the fast whole game: its state vector made from the scenario's
# ---------------------------------------------------------------------------

SHUFFLES_AHEAD = 4  # each deck's next shuffles, as the reference's generators will draw them
BOTH_ENGINES: list[str] = []  # the scenarios whose turns both engines played (for reports)


def compiled_twin(g: MonopolyGame) -> tuple[np.ndarray, np.ndarray] | None:
    """The fast whole game's state vector and genes for ``g`` as it is now (the package's
    own :func:`state_vector`), with ``g``'s remaining preset dice and its decks' next
    shuffles as streams; None when a strategy is one the fast engine does not play."""
    try:
        codes = strategy_codes([p.strategy for p in g.state.players])
    except ValueError:
        return None
    dice = g.seats[0].dice
    if not isinstance(dice, PresetDice):
        return None
    decks = [g.state.decks[CHANCE], g.state.decks[CHEST]]
    faces = dice.faces[2 * dice.rolls_used :]
    shuffles = [_next_shuffles(deck) for deck in decks]
    streams = np.concatenate([np.array(faces, np.int64), *[s.ravel() for s in shuffles]])
    s = loop.new_game(
        len(g.state.players), 1, streams, np.array([len(faces), SHUFFLES_AHEAD, 0], np.int64)
    )
    loop.start_from(s, state_vector(g.state))
    for p in range(len(g.state.players)):
        s[loop.KIND + p], s[loop.GENE_AT + p] = codes.kind[p], codes.offsets[p]
    s[loop.TRADING], s[loop.UNI_AT] = int(g.trading), codes.genes.size
    return s, codes.genes


def _next_shuffles(deck: CardDeck) -> np.ndarray:
    """The permutations the deck's generator gives its next shuffles (held cards left in)."""
    rng = copy.deepcopy(deck.rng)
    return np.array([rng.permutation(len(deck.cards)) + 1 for _ in range(SHUFFLES_AHEAD)])


def compiled_view(s: np.ndarray, players: int) -> dict:
    """What both engines are compared on, from the fast whole game's state vector."""
    spaces = np.array(LOT_SPACES)
    owners = s[loop.OWNER + spaces]
    return {
        "cash": s[loop.CASH : loop.CASH + players].tolist(),
        "in game": s[loop.ALIVE : loop.ALIVE + players].astype(bool).tolist(),
        "tokens": [int(s[loop.ST + p]) if s[loop.ALIVE + p] else None for p in range(players)],
        "owners": [None if o == loop.BANK else int(o) + 1 for o in owners],
        "mortgaged": s[loop.MORT + spaces].astype(bool).tolist(),
        "buildings": s[loop.BLD + spaces].tolist(),
        "bank": [int(s[loop.HOUSES_LEFT]), int(s[loop.HOTELS_LEFT])],
        "cards held": s[loop.NCARDS : loop.NCARDS + players].tolist(),
    }


def reference_view(g: MonopolyGame) -> dict:
    """The same, from the reference engine's game."""
    players = g.state.players
    lots = [g.state.lots[space] for space in LOT_SPACES]
    return {
        "cash": [p.cash for p in players],
        "in game": [p.in_game for p in players],
        "tokens": [state_of(p.token) if p.in_game else None for p in players],
        "owners": [lot.owner for lot in lots],
        "mortgaged": [lot.mortgaged for lot in lots],
        "buildings": [lot.buildings for lot in lots],
        "bank": [g.state.bank_houses, g.state.bank_hotels],
        "cards held": [len(p.jail_cards) for p in players],
    }


def on_both_engines(play_turn):  # type: ignore[no-untyped-def]
    """``MonopolyGame.play_turn`` that also plays the turn on the fast whole game, from the
    same state, when it can, and requires the same state after it."""

    def both(g: MonopolyGame) -> None:
        seat, twin = g.state.turn, compiled_twin(g)
        play_turn(g)
        if twin is not None:
            assert compiled_view(play_compiled(twin, seat), len(g.state.players)) == (
                reference_view(g)
            ), "the fast whole game played this turn otherwise"
            BOTH_ENGINES.append(os.environ.get("PYTEST_CURRENT_TEST", "?"))

    return both


def play_compiled(twin: tuple[np.ndarray, np.ndarray], seat: int) -> np.ndarray:
    """The turn of ``seat`` on the fast whole game, from ``twin``; its state after it."""
    s, genes = twin
    loop.play_turn(s, genes, _movement(), seat - 1)
    assert not s[loop.ERROR], "the fast engine ran out of the scenario's preset draws"
    return s


def compile_the_turn() -> None:
    """Compile (or load from numba's cache) the fast engine's single turn, which every
    scenario plays again: its own entry point, apart from the whole games'. ``make test``'s
    set-up runs this file for it, so that no test waits for the compiler."""
    play_compiled(compiled_twin(new_game(dice=[1, 3])), 1)


if __name__ == "__main__":
    compile_the_turn()
