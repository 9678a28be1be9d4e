"""What a drawn card does with money: one short function per effect of the cards table.

Moves are the movement rules' (:mod:`monopoly_lesson.rules`); the effects here come
from :mod:`monopoly_lesson.game.card_effects` (the game rules page,
``notebooks/game_rules.md``, "The cards").
"""

from __future__ import annotations

from collections.abc import Callable

from ..starter import CardDeck
from .card_effects import chance_effects, community_effects
from .money import Bankrupt, pay
from .narration import say
from .state import BANK, GameState, PlayerState

__all__ = ["CARD_RENT", "EFFECTS", "apply_card"]

CARDS = {
    (table.attrs["name"], int(row.index)): (row.effect, row.amount, row.per_house, row.per_hotel)
    for table in (chance_effects, community_effects)
    for row in table.itertuples()
}
"""``(deck name, card number) -> (effect, amount, per house, per hotel)``, from the tables."""
CARD_RENT = {
    row.card: (int(row.rent_multiplier), int(row.dice_multiplier))
    for table in (chance_effects, community_effects)
    for row in table.itertuples()
    if row.rent_multiplier != 1 or row.dice_multiplier != 0
}
"""The moving cards that change the rent where they land: ``text -> (rent x, dice x)``."""


def collect(game: GameState, me: PlayerState, amount: int, *_: int) -> None:
    """The bank pays ``me``."""
    game.transfer(BANK, me.seat, amount, "card")
    if game.verbose:
        say("collect", who=me.name, amount=amount, reason="card")


def pay_bank(game: GameState, me: PlayerState, amount: int, *_: int) -> None:
    """``me`` pays the bank (raising the cash, or going bankrupt to the bank)."""
    if game.verbose:
        say("pay", who=me.name, amount=amount, reason="card")
    pay(game, me.seat, BANK, amount, "card")


def collect_from_each(game: GameState, me: PlayerState, amount: int, *_: int) -> None:
    """Every other player pays ``me`` (Grand Opera Night); one who cannot is bankrupt to it."""
    for other in _others(game, me):
        if game.verbose:
            say("pays_player", who=other.name, amount=amount, owner=me.name, reason="card")
        try:
            pay(game, other.seat, me.seat, amount, "card")
        except Bankrupt as bankrupt:
            if bankrupt.seat != other.seat:
                raise  # the mover itself went bankrupt (the interest on a lot it took)


def pay_each(game: GameState, me: PlayerState, amount: int, *_: int) -> None:
    """``me`` pays every other player (Chairman of the Board), in seat order after it."""
    for other in _others(game, me):
        if game.verbose:
            say("pays_player", who=me.name, amount=amount, owner=other.name, reason="card")
        pay(game, me.seat, other.seat, amount, "card")


def repairs(game: GameState, me: PlayerState, _: int, per_house: int, per_hotel: int) -> None:
    """``me`` pays the bank for each house and each hotel it has."""
    houses, hotels = game.houses_and_hotels(me.seat)
    cost = houses * per_house + hotels * per_hotel
    if cost:
        pay_bank(game, me, cost)


def _others(game: GameState, me: PlayerState) -> list[PlayerState]:
    n = len(game.players)
    return sorted((p for p in game.in_game if p is not me), key=lambda p: (p.seat - me.seat) % n)


EFFECTS: dict[str, Callable[..., None]] = {
    "collect": collect,
    "pay": pay_bank,
    "collect_from_each": collect_from_each,
    "pay_each": pay_each,
    "repairs": repairs,
}
"""The money effects by the name the cards table gives them."""


def apply_card(game: GameState, me: PlayerState, deck: CardDeck, number: int) -> None:
    """Do what card ``number`` of ``deck`` does with money, or keep it (Get Out of Jail Free)."""
    effect, amount, per_house, per_hotel = CARDS[deck.name, number]
    if effect == "keep":
        deck.hold(number)
        me.jail_cards.append((deck.name, number))
        if game.verbose:
            say("keep_card", who=me.name)
    elif effect in EFFECTS:
        EFFECTS[effect](game, me, int(amount), int(per_house), int(per_hotel))
