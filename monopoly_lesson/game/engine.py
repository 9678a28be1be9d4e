"""The whole game's reference engine: money and property on top of the movement rules.

A turn is the movement rules' own turn (:func:`monopoly_lesson.rules.play_turn`); this
module hooks the money into it at the places the rules name (passing Go, landing, a card
drawn, jail) and adds the end of the turn (building, lifting mortgages). Each rule is one
short function below or in the modules it calls: :mod:`~monopoly_lesson.game.buying`,
:mod:`~monopoly_lesson.game.rent`, :mod:`~monopoly_lesson.game.money`,
:mod:`~monopoly_lesson.game.buildings`, :mod:`~monopoly_lesson.game.cards`.

>>> result = play_monopoly(["always", "never"], seed=1, max_rounds=20)
>>> result.rounds, len(result.finish_order)
(20, 2)
"""

from __future__ import annotations

import numbers
import operator
import os
import sys
import warnings
import weakref
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..checks import at_the_call, check_flag, check_max_rounds, seed_or_fresh
from ..rules import Rules, Seat, play_turn
from ..starter import (
    NUM_SPACES,
    CardDeck,
    Player,
    PresetDice,
    RandomDice,
    community_deck,
    space_name,
    standard_chance_deck,
)
from .asking import ask, ask_space, ask_yes_no, shows_strategy_errors
from .buildings import build, lift_mortgage, why_not_build, why_not_lift
from .buying import offer_lot
from .cards import CARD_RENT, apply_card
from .lots import TAXES
from .money import Bankrupt, pay
from .narration import say, whereabouts
from .plugins import check_strategies, watched_decisions
from .rent import rent_due
from .result import GameResult, game_result
from .state import BANK, PRICE, GameState, PlayerRandom, PlayerState
from .strategies import GameChanged, StrategyError, trade_refusal
from .streams import GameStreams, StreamDice, seed_sources
from .trade import Proposal, Trade
from .trading import MAX_PROPOSALS, make_trade, why_not_trade

__all__ = ["GAME_MOVEMENT", "JAIL_FEE", "SALARY", "MonopolyGame", "play_monopoly"]

GAME_MOVEMENT = Rules(chance="standard")
"""The movement rules of the whole game: the standard 16-card Chance deck, real decks,
the long stay in jail (with the jail choice added by this module)."""
SALARY = 200
JAIL_FEE = 50


class _Tally:
    """A player's landing tallies (a plain list: the game counts, nobody prints)."""

    def __init__(self) -> None:
        self.counts = [0] * (NUM_SPACES + 1)

    def tally(self, space: int) -> None:
        self.counts[space] += 1


TRADE_DECISIONS = ("propose_trade", "accept_trade")
_PACKAGE = str(Path(__file__).parent.parent) + os.sep  # ".../monopoly_lesson/"
_TOLD: weakref.WeakSet[object] = weakref.WeakSet()  # the strategies already warned about


def own_trade_decisions(strategy: object) -> list[str]:
    """The trade decisions of ``strategy`` that run code of its own (not the package's)."""
    own = []
    for decision in TRADE_DECISIONS:
        function = getattr(strategy, decision, None)
        module = getattr(getattr(function, "__func__", function), "__module__", None) or ""
        if function is not None and module.partition(".")[0] != "monopoly_lesson":
            own.append(decision)
    return own


def warn_trades_not_asked(strategies: Sequence[object], trading: bool) -> None:
    """Warn, once for each strategy, that its own trade decisions are never asked in a game
    without trading; the warning points at the line that called the package."""
    for strategy in strategies if not trading else ():
        own = own_trade_decisions(strategy)
        try:
            if not own or strategy in _TOLD:
                continue
            _TOLD.add(strategy)
        except TypeError:  # unhashable: warned every time
            pass
        if own:
            name = getattr(strategy, "name", type(strategy).__name__)
            warnings.warn(
                f"strategy {name!r} has its own {' and '.join(own)}, which the game never "
                "asks: it is played without trading. Pass trading=True to play with trades.",
                UserWarning,
                stacklevel=_callers_level(),
            )


def _callers_level() -> int:
    """The ``stacklevel`` of the first frame outside the package: the student's own line."""
    frame, level = sys._getframe(2), 2  # the frame that called warnings.warn is level 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


class MonopolyGame:
    """One game in progress: its state, the players' seats, and the money rules' hooks.

    ``MonopolyGame(strategies, seed=1).play()`` plays it to the end; ``play_turn()``
    plays one turn at a time (for stepping through a game). For scenarios, ``dice``
    presets the die faces (two per roll) and ``chance_order``/``chest_order`` the first
    cards of each deck, and the state may be set up by hand before the first turn.
    With ``streams`` (:class:`~monopoly_lesson.game.streams.GameStreams`) every random
    draw comes from pre-drawn arrays instead of the seed: the fast engine, fed the
    same streams, must play the same game. ``trading=True`` adds the trading step to every
    turn (the game rules page, "Trading"); the paper's game, the default, has none.
    """

    def __init__(
        self,
        strategies: Sequence[object],
        *,
        seed: int | None = 0,
        max_rounds: int = 100,
        verbose: bool = False,
        dice: Sequence[int] | None = None,
        chance_order: Sequence[int] = (),
        chest_order: Sequence[int] = (),
        streams: GameStreams | None = None,
        trading: bool = False,
    ) -> None:
        strategies = check_strategies(strategies)
        if streams is not None and not isinstance(streams, GameStreams):
            raise TypeError(
                f"streams must be a GameStreams (the pre-drawn random draws of a game) or "
                f"None, got {streams!r}."
            )
        self.trading = check_flag(trading, "trading")
        warn_trades_not_asked(strategies, self.trading)
        self.max_rounds = check_max_rounds(max_rounds)
        verbose = check_flag(verbose, "verbose")
        sequence = np.random.SeedSequence(seed_or_fresh(seed, limit=None))
        self.seed: int = int(sequence.entropy)  # type: ignore[arg-type]
        dice_seed, chance_seed, chest_seed, player_seeds = seed_sources(self.seed, len(strategies))
        dice = (
            RandomDice(dice_seed, verbose=verbose)
            if dice is None
            else PresetDice(dice, verbose=verbose)
        )
        chance = CardDeck(
            standard_chance_deck, seed=chance_seed, order=chance_order, verbose=verbose
        )
        community = CardDeck(community_deck, seed=chest_seed, order=chest_order, verbose=verbose)
        players = [
            _player(seat, strategy, player_seeds[seat - 1], verbose)
            for seat, strategy in enumerate(strategies, start=1)
        ]
        self.state = GameState(
            players, decks={d.name: d for d in (chance, community)}, verbose=verbose
        )
        self.tallies = [_Tally() for _ in players]
        self.turns = [0] * len(players)  # turns each player has played
        if streams is not None:
            dice = _draw_from(streams, (chance, community), players)
        self.seats = [
            Seat(p.token, tally, dice, chance, community, GAME_MOVEMENT, game=self)
            for p, tally in zip(players, self.tallies, strict=True)
        ]
        self.ended_by: str | None = None
        self.failed: GameChanged | None = None
        """The cheat that ended the game as failed (None: none); it is raised again by
        every later :meth:`play_turn` and :meth:`play`."""

    def draw_from(self, streams: GameStreams) -> None:
        """Take every draw from now on (dice, deck shuffles, each player's decisions) from
        ``streams``: a game in progress played on given draws, as the fast engine plays it
        from the same state (:func:`~monopoly_lesson.game.fast.state_vector`)."""
        if not isinstance(streams, GameStreams):
            raise TypeError(f"streams must be a GameStreams, got {type(streams).__name__}.")
        dice = _draw_from(streams, tuple(self.state.decks.values()), self.state.players)
        for seat in self.seats:
            seat.dice = dice

    @property
    def over(self) -> bool:
        """Whether the game has ended (one player left, or the last round played)."""
        return self.ended_by is not None

    @property
    def mover(self) -> PlayerState:
        """The player whose turn it is."""
        return self.state.players[self.state.turn - 1]

    @shows_strategy_errors
    def play_turn(self) -> None:
        """Play the mover's whole turn, then pass the dice to the next player. A strategy
        caught changing the game (:class:`GameChanged`) ends it as failed: every later turn
        raises the same error."""
        if self.failed is not None:
            raise self.failed
        if self.over:
            raise RuntimeError("the game is over: start a new MonopolyGame to play again.")
        try:
            self._play_turn()
        except GameChanged as cheat:
            self.failed = cheat
            raise

    def _play_turn(self) -> None:
        state, me = self.state, self.mover
        if state.verbose:
            say("turn", round=state.round, who=me.name, cash=me.cash, where=whereabouts(me.token))
        self.turns[me.seat - 1] += 1
        try:
            play_turn(self.seats[me.seat - 1])
            if self.trading:
                trading_step(state, me)
            end_of_turn(state, me)
        except Bankrupt:
            if me.in_game:
                raise
        self._next_turn()
        if self.over and state.verbose:
            how = "one player left" if self.ended_by == "last player" else "the round limit"
            winner = state.player(self.result().winner).name
            say("end", rounds=self._rounds_played(), how=how, who=winner)

    @shows_strategy_errors
    def play(self) -> GameResult:
        """Play to the end and return the result (a failed game raises its error again)."""
        while not self.over:
            self.play_turn()
        return self.result()

    def result(self) -> GameResult:
        """The result so far (final once the game is over); a failed game has none, and
        raises its error again."""
        if self.failed is not None:
            raise self.failed
        tallies = [t.counts[1:] for t in self.tallies]
        return game_result(
            self.state, self.seed, self.ended_by, self._rounds_played(), list(self.turns), tallies
        )

    def _rounds_played(self) -> int:
        return min(self.state.round, self.max_rounds)

    def _next_turn(self) -> None:
        state = self.state
        alive = [p.seat for p in state.in_game]
        if len(alive) <= 1:
            self.ended_by = "last player"
            return
        later = [seat for seat in alive if seat > state.turn]
        if later:
            state.turn = later[0]
            return
        state.turn = alive[0]
        if state.round == self.max_rounds:
            self.ended_by = "rounds"
            return
        state.round += 1

    # -- the hooks the movement rules call (rules.GameHooks) --------------------------

    def passed_go(self, seat: Seat) -> None:
        """Passing or landing on Go moving forward: the salary."""
        collect_salary(self.state, self.mover)

    def landed(self, seat: Seat, card: str | None) -> None:
        """A landing: tax, rent, or the chance to buy."""
        land(self.state, self.mover, seat, card)

    def card_drawn(self, seat: Seat, deck: CardDeck, number: int) -> None:  # type: ignore[override]
        """A card's money, or keeping a Get Out of Jail Free card."""
        apply_card(self.state, self.mover, deck, number)

    def leave_jail_now(self, seat: Seat) -> bool:
        """The jail choice before rolling."""
        return leave_jail_early(self.state, self.mover)

    def pay_to_leave_jail(self, seat: Seat) -> None:
        """The third failed roll: a card or $50."""
        use_card_or_pay(self.state, self.mover)


def play_monopoly(
    strategies: Sequence[object],
    *,
    seed: int | None = 0,
    max_rounds: int = 100,
    verbose: bool = False,
    trading: bool = False,
) -> GameResult:
    """Play one whole game with ``strategies`` in seat order; the same seed, the same game.

    A strategy is a name (``"always"``, ``"never"``, ``"heuristic"``, ``"random:0.5"``,
    ``"rga"``, ``"tga"``, ``"sga"``, ``"ega"``, or a shipped evolved player: ``"ega_trading"``,
    ``"ega_always"``, ``"rga_level"``, ``"rga_finish_order"``), a Strategy, or a student's
    own (see :mod:`monopoly_lesson.game.plugins`). A person's seat, ``"you"``, plays in a
    game stepper (:class:`~monopoly_lesson.game.stepper.GameStepperState`), where someone
    answers it; here it is refused. With ``verbose=True`` every event is printed. A game
    lasts at most ``max_rounds`` rounds, from 1 to :data:`~monopoly_lesson.checks.MAX_ROUNDS`.
    ``trading=True`` plays with trading (off in the paper's game).
    """
    with at_the_call():  # a mistake in an argument is shown from here, not from the checks
        game = MonopolyGame(
            strategies, seed=seed, max_rounds=max_rounds, verbose=verbose, trading=trading
        )
    with at_the_call(StrategyError):  # a strategy's error, from here: not the engine's frames
        return game.play()


# ---------------------------------------------------------------------------
# The rules of a turn, each one short function
# ---------------------------------------------------------------------------


def collect_salary(game: GameState, me: PlayerState) -> None:
    """$200 from the bank for passing or landing on Go."""
    game.transfer(BANK, me.seat, SALARY, "salary")
    if game.verbose:
        say("salary", who=me.name)


def land(game: GameState, me: PlayerState, seat: Seat, card: str | None) -> None:
    """What landing on the token's space costs or offers: a tax, rent, or a lot to buy."""
    space = seat.player.pos
    if space in TAXES:
        name, amount = TAXES[space]
        if game.verbose:
            say("tax", who=me.name, amount=amount, reason=name)
        pay(game, me.seat, BANK, amount, "tax")
    elif space in PRICE:
        lot = game.lots[space]
        if lot.owner is None:
            offer_lot(game, me, space)
        elif lot.owner != me.seat:
            pay_rent(game, me, seat, space, card)


def pay_rent(game: GameState, me: PlayerState, seat: Seat, space: int, card: str | None) -> None:
    """Pay the owner its rent (none if mortgaged); a card may double it or roll afresh."""
    lot = game.lots[space]
    if lot.mortgaged:
        if game.verbose:
            say("no_rent", who=me.name, lot=space_name(space))
        return
    multiplier, dice_times = CARD_RENT.get(card, (1, 0)) if card else (1, 0)
    dice = sum(seat.dice.roll()) if dice_times else seat.last_roll
    amount = rent_due(game, space, dice, multiplier, dice_times)
    if game.verbose:
        say("rent", who=me.name, amount=amount, owner=game.name(lot.owner), lot=space_name(space))
    pay(game, me.seat, lot.owner, amount, "rent")  # type: ignore[arg-type]
    lot.rent_collected += amount


def leave_jail_early(game: GameState, me: PlayerState) -> bool:
    """The strategy may leave jail before rolling, with a card or $50 (if it has either)."""
    if not me.jail_cards and me.cash < JAIL_FEE:
        return False
    if not ask_yes_no("leave_jail", game, me):
        return False
    use_card_or_pay(game, me)
    return True


def use_card_or_pay(game: GameState, me: PlayerState) -> None:
    """Leave jail with a Get Out of Jail Free card if held (back to its deck), else $50."""
    if me.jail_cards:
        deck_name, number = me.jail_cards.pop(0)
        game.decks[deck_name].put_back(number)
        if game.verbose:
            say("use_card", who=me.name)
        return
    if game.verbose:
        say("bail", who=me.name)
    pay(game, me.seat, BANK, JAIL_FEE, "bail")


def end_of_turn(game: GameState, me: PlayerState) -> None:
    """After its turn a player may build, then lift mortgages, as its strategy says."""
    while (space := ask_space("build", game, me)) is not None:
        _check_choice(me, "build", space, why_not_build(game, me.seat, space))
        build(game, me.seat, space)
    while (space := ask_space("lift", game, me)) is not None:
        _check_choice(me, "lift", space, why_not_lift(game, me.seat, space))
        lift_mortgage(game, me.seat, space)


def trading_step(game: GameState, me: PlayerState) -> None:
    """The mover's proposals, at most :data:`MAX_PROPOSALS`, each answered by its partner;
    an illegal proposal or answer is the strategy's error. The game checks, shows the
    partner (a copy), makes and records a Trade of its own, never the strategy's object."""
    for _ in range(MAX_PROPOSALS):
        proposal = ask("propose_trade", game, me)
        if proposal is None:
            return
        trade = _checked_proposal(game, me, proposal)
        partner = game.player(trade.partner)
        if game.verbose:
            say("proposal", what=trade.describe(me.name, partner.name))
        accepted = ask_yes_no("accept_trade", game, partner, trade.copy())
        game.proposals.append(Proposal(game.round, me.seat, trade, accepted))
        if game.verbose and accepted:
            say("accepted", who=partner.name)
        elif game.verbose:
            say("refused", who=partner.name, why=refusal_words(game, partner, trade))
        if accepted:
            make_trade(game, me.seat, trade)
            if game.verbose:
                say("traded", who=me.name, partner=partner.name)


def refusal_words(game: GameState, partner: PlayerState, trade: Trade) -> str:
    """``": why"`` the partner refused ``trade``, in its own terms, if its strategy's answer
    is one of the package's (see :func:`~monopoly_lesson.game.strategies.trade_refusal`);
    else ''."""
    why = trade_refusal(partner.strategy, game, partner, trade)
    return f": {why}" if why else ""


def _checked_proposal(game: GameState, me: PlayerState, proposal: object) -> Trade:
    """The proposal as a new Trade of the game's own, built from each of its fields read
    once and made plain (ints, tuples of ints) and checked by the rules; or the error."""
    if not isinstance(proposal, Trade):
        raise StrategyError(
            f"{me.name}'s propose_trade decision must return a Trade or None, got "
            f"{_shown(proposal)}."
        )
    try:
        partner, give, take, cash = proposal.partner, proposal.give, proposal.take, proposal.cash
    except Exception as error:
        raise StrategyError(
            f"{me.name}'s propose_trade decision returned a Trade whose terms cannot be read "
            f"({type(error).__name__}: {error})."
        ) from error
    give, take = _plain_lots(give), _plain_lots(take)
    if give is None or take is None:
        raise StrategyError(
            f"{me.name}'s propose_trade decision must name the lots given and taken as tuples "
            f"of spaces, such as give=(12,), take=(14,), got {_shown(proposal)}."
        )
    numbers_ = [_plain_int(value) for value in (partner, cash, *give, *take)]
    if None in numbers_:
        raise StrategyError(
            f"{me.name}'s propose_trade decision must name seats, lots and cash as whole "
            f"numbers, got {_shown(proposal)}."
        )
    partner, cash, *lots = numbers_
    trade = Trade(partner, tuple(lots[: len(give)]), tuple(lots[len(give) :]), cash, me.seat)
    if reason := why_not_trade(game, me.seat, trade):
        raise StrategyError(f"{me.name}'s propose_trade decision proposed {trade!r}, but {reason}.")
    return trade


def _plain_lots(lots: object) -> tuple[object, ...] | None:
    """The items of a tuple or list, read once from the container itself (a subclass's own
    ``__iter__`` is not called), or None if ``lots`` is neither."""
    try:
        if isinstance(lots, tuple):
            return tuple(tuple.__iter__(lots))
        if isinstance(lots, list):
            return tuple(list.__iter__(lots))
    except TypeError:  # an object that only claims to be a tuple or a list
        pass
    return None


def _plain_int(value: object) -> int | None:
    """``value`` as a plain int if it is a whole number (numpy's too, not a bool), read
    once; else None."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        return None
    try:
        number = operator.index(value)
    except Exception:  # a number that only claims to be whole
        return None
    return int.__int__(number) if type(number) is not int else number


def _shown(value: object) -> str:
    """``repr(value)``, or its type's name if its repr fails."""
    try:
        return repr(value)
    except Exception:
        return f"a {type(value).__name__} that cannot be shown"


def _check_choice(me: PlayerState, decision: str, space: object, reason: str | None) -> None:
    if reason:
        raise StrategyError(f"{me.name}'s {decision} decision chose {space!r}, but {reason}.")


# ---------------------------------------------------------------------------
# Checking what a user gives
# ---------------------------------------------------------------------------


def _player(seat: int, strategy: object, seed: int, verbose: bool) -> PlayerState:
    name = f"P{seat} {strategy.name}"  # type: ignore[attr-defined]
    token = Player(verbose=verbose, name=name)
    rng = PlayerRandom(seed)
    return PlayerState(
        seat=seat,
        name=name,
        strategy=strategy,
        token=token,
        rng=rng,
        watched=watched_decisions(strategy),
    )


def _draw_from(
    streams: GameStreams, decks: tuple[CardDeck, CardDeck], players: list[PlayerState]
) -> StreamDice:
    """Point the decks and the players' draws at ``streams``; return its dice."""
    for index, deck in enumerate(decks):
        deck.rng = streams.deck_source(index)  # type: ignore[assignment]
    for player in players:
        player.rng = streams.player_source(player.seat)  # type: ignore[assignment]
    return streams.dice()
