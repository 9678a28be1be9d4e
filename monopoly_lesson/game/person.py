"""A person at the table: the seat whose decisions a person answers.

:class:`You` is a strategy like any other: the game asks it exactly the questions it asks
every strategy, when it asks them (the game rules page, "A person at the table"), and it
puts each one to a person as a :class:`Question`: the decision, a sentence with the
amounts, the legal answers and what the rules' default would answer. An answer is checked
by the rules' own ``why_not_...`` functions (:mod:`~monopoly_lesson.game.buildings`,
:mod:`~monopoly_lesson.game.trading`) before the game takes it, so the engine never learns
whether a person or a program answered.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..starter import space_name
from .buildings import (
    build,
    lift_cost,
    lift_mortgage,
    sale_price,
    why_not_build,
    why_not_lift,
    why_not_mortgage,
    why_not_sell,
)
from .state import (
    GROUP,
    GROUP_SPACES,
    HOTEL,
    HOUSE_COST,
    MORTGAGE,
    PRICE,
    RENTS,
    GameView,
    OwnView,
    ReadableGame,
)
from .strategies import (
    BUILD_ORDER,
    DECISIONS,
    Strategy,
    completion_accepts,
    completion_swap,
    completion_swaps,
    default_build,
    default_lift,
    default_raise_cash,
    partners_to_ask,
)
from .trade import Trade
from .trading import MAX_PROPOSALS, tradable_lots, why_not_trade

__all__ = [
    "ASKED",
    "NOBODY_ANSWERS",
    "PERSON",
    "PLANS",
    "Question",
    "You",
    "buildings_words",
    "group_lots",
    "plan_question",
    "plan_steps",
    "question_for",
]

PERSON = "you"
"""The strategy name of a person's seat."""

NOBODY_ANSWERS = (
    "'you' is a person's seat, and nobody answers its questions here: it plays in "
    "GameStepperState, GameStepper and play --you (or as You(answer=...), with a function "
    "that answers)"
)
"""Why a seat of :class:`You` with nobody to answer it is refused (the entry point adds
its argument's name)."""
PLANS = {"build": "build_plan", "lift": "lift_plan"}
"""The person's plan questions: one answer (buildings per lot, mortgages to lift) for the
turn's successive ``build`` or ``lift`` questions."""
ASKED = {
    "buy": "whether to buy",
    "bid": "for a bid",
    "leave_jail": "whether to leave jail",
    "build": "where to build",
    "lift": "which mortgage to lift",
    "raise_cash": "how to raise cash",
    "propose_trade": "for a trade to propose",
    "accept_trade": "whether to accept a trade",
    "build_plan": "for a building plan",
    "lift_plan": "which mortgages to lift",
}
"""What each question asks, in a few words: "P1 you is asked whether to buy"."""
YES_NO = (True, False)
RAISE_ACTIONS = {"sell": why_not_sell, "mortgage": why_not_mortgage}


@dataclass(frozen=True, eq=False)
class Question:
    """One of the person's decisions, waiting for an answer.

    ``decision`` is one of :data:`~monopoly_lesson.game.strategies.DECISIONS`, or a plan of
    :data:`PLANS` (``build_plan``: ``{space: buildings to add}``; ``lift_plan``: the lots
    whose mortgages to lift), which answers the turn's successive questions; ``seat``
    the person's seat; ``text`` the question in a sentence, with the amounts; ``choices``
    the legal answers (for ``propose_trade``, ``None`` and the completion swaps available,
    while any legal :class:`~monopoly_lesson.game.trade.Trade` is also taken); ``default``
    what the rules' default strategy would answer (for ``buy``, which the rules leave to
    every strategy, always-buy's ``True``). ``space``, ``owed`` and ``offer`` are the lot,
    the debt and the trade the question is about, where it has one.
    """

    decision: str
    seat: int
    text: str
    choices: tuple[object, ...] | range
    default: object
    game: ReadableGame = field(repr=False)
    """The game as the person sees it (read-only and live)."""
    space: int | None = None
    owed: int | None = None
    offer: Trade | None = None

    def why_not(self, answer: object) -> str | None:
        """The rule ``answer`` breaks, in words (the rules' own ``why_not_...``, said to
        the person: "yours", "owned by P2 always"), or None if it is a legal answer.
        numpy's booleans and integers are answers too."""
        reason = self._settle(answer)[0]
        return None if reason is None else self._to_the_person(reason)

    def _to_the_person(self, reason: str) -> str:
        """A rule's reason with the owners named as a person reads them."""
        game, seat = self.game, self.seat

        def owner(found: re.Match) -> str:
            number = int(found.group(1))
            if number == seat:
                return "yours"
            known = 1 <= number <= len(game.players)
            return f"owned by {game.name(number)}" if known else found.group(0)

        reason = reason.replace(f" is not {game.name(seat)}'s", " is not yours")
        return re.sub(r"a lot of seat (\d+)'s", owner, reason)

    def check(self, answer: object) -> object:
        """``answer`` as the game takes it (plain ``bool``, ``int``, ``("sell", 19)``, a
        plain Trade, None), or a ValueError naming the rule it breaks."""
        reason, plain = self._settle(answer)
        if reason:
            reason = self._to_the_person(reason)
            raise ValueError(f"answer {_shown(answer)} to {self.decision}: {reason}.")
        return plain

    def describe(self, choice: object) -> str:
        """A few words for one of the choices (a button's or a menu's label)."""
        return _DESCRIBE[self.decision](self, choice)

    def _settle(self, answer: object) -> tuple[str | None, object]:
        return _SETTLE[self.decision](self, answer)


# ---------------------------------------------------------------------------
# The person's strategy
# ---------------------------------------------------------------------------


class You(Strategy):
    """A person's seat: each decision is a :class:`Question` put to ``answer(question)``,
    whose value is checked and played. ``You()`` alone plays only in a game stepper (or
    ``play --you``), which answers through its own questions; nobody answers elsewhere."""

    name = PERSON

    def __init__(self, answer: Callable[[Question], object] | None = None) -> None:
        if answer is not None and not callable(answer):
            raise TypeError(
                f"answer must be a function answer(question) -> value, or None, got {answer!r}."
            )
        self.answer = answer

    def buy(self, game: GameView, me: OwnView, space: int) -> bool:
        """Ask the person: buy this lot at its price?"""
        return self._ask("buy", game, me, space)

    def bid(self, game: GameView, me: OwnView, space: int) -> int:
        """Ask the person: the most it would bid in this auction."""
        return self._ask("bid", game, me, space)

    def leave_jail(self, game: GameView, me: OwnView) -> bool:
        """Ask the person: leave jail now (with its card, or $50)?"""
        return self._ask("leave_jail", game, me)

    def build(self, game: GameView, me: OwnView) -> int | None:
        """Ask the person where to build next (None: done), if anywhere is allowed."""
        return self._ask("build", game, me)

    def lift(self, game: GameView, me: OwnView) -> int | None:
        """Ask the person which mortgage to lift next (None: done), if one can be."""
        return self._ask("lift", game, me)

    def raise_cash(self, game: GameView, me: OwnView, owed: int) -> tuple[str, int] | None:
        """Ask the person what to sell or mortgage next to pay ``owed``."""
        return self._ask("raise_cash", game, me, owed)

    def propose_trade(self, game: GameView, me: OwnView) -> Trade | None:
        """Ask the person for a trade to propose (None: no trade), if one is possible."""
        return self._ask("propose_trade", game, me)

    def accept_trade(self, game: GameView, me: OwnView, offer: Trade) -> bool:
        """Ask the person: accept this offer?"""
        return self._ask("accept_trade", game, me, offer)

    def _ask(self, decision: str, game: GameView, me: OwnView, *args: object) -> Any:
        question = question_for(decision, game, me, *args)
        if question is None:  # nothing to choose: the only answer the rules allow
            return 0 if decision == "bid" else None
        if self.answer is None:
            raise RuntimeError(NOBODY_ANSWERS + ".")
        return question.check(self.answer(question))


def question_for(decision: str, game: GameView, me: OwnView, *args: object) -> Question | None:
    """The question ``decision`` puts to ``me`` now, or None when the rules leave only one
    answer (no bid with no cash; nothing to build, lift, sell or trade)."""
    if decision not in DECISIONS:
        raise ValueError(f"decision must be one of {', '.join(DECISIONS)}, got {decision!r}.")
    return _ASK[decision](game, me, *args)


# ---------------------------------------------------------------------------
# The questions, each with its sentence, its choices and the rules' default
# ---------------------------------------------------------------------------


def _money(amount: int) -> str:
    return f"${amount:,}"


def _whose(game: ReadableGame, seat: int, space: int) -> str:
    owner = game.lots[space].owner
    if owner is None:
        return f"{space_name(space)} is the bank's"
    return f"{space_name(space)} is " + (
        "yours" if owner == seat else f"owned by {game.name(owner)}"
    )


def _group_words(game: ReadableGame, seat: int, space: int) -> str:
    """``"; Park Place (38) is owned by P2 always"``: who owns the rest of the lot's group."""
    others = [s for s in GROUP_SPACES[GROUP[space]] if s != space]
    return "".join(f"; {_whose(game, seat, s)}" for s in others)


def _ask_buy(game: GameView, me: OwnView, space: int) -> Question:
    text = (
        f"Buy {space_name(space)} for {_money(PRICE[space])}? You have "
        f"{_money(me.cash)}{_group_words(game, me.seat, space)}. "
        "If you do not, it is auctioned."
    )
    return Question("buy", me.seat, text, YES_NO, True, game, space=space)


def _ask_bid(game: GameView, me: OwnView, space: int) -> Question | None:
    cash = me.cash
    if cash == 0:
        return None
    text = (
        f"{space_name(space)} (price {_money(PRICE[space])}) is auctioned: the most you "
        f"would pay, from $0 (no bid) to your cash, {_money(cash)}? The highest bid wins "
        f"and pays $1 more than the second highest"
        f"{_group_words(game, me.seat, space)}."
    )
    default = min(PRICE[space], cash)  # always-buy's bid: the price, capped at the cash
    return Question("bid", me.seat, text, range(cash + 1), default, game, space=space)


def _ask_leave_jail(game: GameView, me: OwnView) -> Question:
    how = "with your Get Out of Jail Free card" if me.jail_cards else "for $50"
    text = (
        f"You are in jail. Leave now {how}, before rolling, or stay (and roll for "
        f"doubles)? You have {_money(me.cash)}."
    )
    return Question("leave_jail", me.seat, text, YES_NO, False, game)


def _next_building(game: ReadableGame, space: int) -> str:
    return "a hotel" if game.lots[space].buildings == HOTEL - 1 else "a house"


def _rent_after_building(game: ReadableGame, space: int) -> int:
    """What ``space`` charges with one more building on it."""
    return RENTS[space][min(game.lots[space].buildings + 1, HOTEL)]


def _ask_build(game: GameView, me: OwnView) -> Question | None:
    seat = me.seat
    spaces = [s for s in sorted(me.lots) if why_not_build(game, seat, s) is None]
    if not spaces:
        return None
    where = ", ".join(
        f"{_next_building(game, s)} on {space_name(s)} for {_money(HOUSE_COST[s])} (its rent "
        f"then {_money(_rent_after_building(game, s))})"
        for s in spaces
    )
    text = f"Build? You have {_money(me.cash)}. You may build {where}; or be done building."
    return Question("build", seat, text, (*spaces, None), default_build(game, me), game)


def _ask_lift(game: GameView, me: OwnView) -> Question | None:
    seat = me.seat
    spaces = [s for s in sorted(me.lots) if why_not_lift(game, seat, s) is None]
    if not spaces:
        return None
    which = ", ".join(f"{space_name(s)} for {_money(lift_cost(s))}" for s in spaces)
    text = (
        f"Lift a mortgage? You have {_money(me.cash)}. You may lift the mortgage on "
        f"{which}; or be done."
    )
    return Question("lift", seat, text, (*spaces, None), default_lift(game, me), game)


def _ask_raise_cash(game: GameView, me: OwnView, owed: int) -> Question | None:
    seat, cash = me.seat, me.cash
    pairs = [
        (action, s)
        for action, why_not in RAISE_ACTIONS.items()
        for s in sorted(me.lots)
        if why_not(game, seat, s) is None
    ]
    if not pairs:
        return None
    sell = [space_name(s) for action, s in pairs if action == "sell"]
    mortgage = [f"{space_name(s)} ({_money(MORTGAGE[s])})" for a, s in pairs if a == "mortgage"]
    ways = ([f"sell a building (for half its cost) on {', '.join(sell)}"] if sell else []) + (
        [f"mortgage {', '.join(mortgage)}"] if mortgage else []
    )
    text = (
        f"You owe {_money(owed)} and have {_money(cash)}: raise {_money(owed - cash)} more, "
        f"one step at a time. You may {'; or '.join(ways)}."
    )
    default = default_raise_cash(game, me, owed)
    return Question("raise_cash", seat, text, tuple(pairs), default, game, owed=owed)


def _trade_possible(game: ReadableGame, seat: int) -> bool:
    """Whether any legal trade exists: another player in the game, and a lot of either
    side in a group without buildings."""
    playing = [p.seat for p in game.players if p.in_game]
    return len(playing) >= 2 and any(tradable_lots(game, s) for s in playing)


def _trade_words(trade: Trade, words: tuple[str, str]) -> str:
    """The trade's two sides in words: ``words`` name the side of ``trade.give`` (and of a
    positive ``cash``) and the side of ``trade.take``, ``("you give", "you get")``."""
    gives = [space_name(s) for s in trade.give] + ([_money(trade.cash)] if trade.cash > 0 else [])
    gets = [space_name(s) for s in trade.take] + ([_money(-trade.cash)] if trade.cash < 0 else [])
    return (
        f"{words[0]} {' and '.join(gives) or 'nothing'}, {words[1]} "
        f"{' and '.join(gets) or 'nothing'}"
    )


def _ask_propose_trade(game: GameView, me: OwnView) -> Question | None:
    seat = me.seat
    if not _trade_possible(game, seat):
        return None
    swaps = [
        t for partner in partners_to_ask(game, me) for t in completion_swaps(game, seat, partner)
    ]
    made = sum(p.round == game.round and p.proposer == seat for p in game.proposals)
    offered = "".join(
        f" {n}) to {game.name(t.partner)}: {_trade_words(t, ('you give', 'you get'))}."
        for n, t in enumerate(swaps, start=1)
    )
    text = (
        f"Propose a trade (proposal {made + 1} of {MAX_PROPOSALS} this turn)? You have "
        f"{_money(me.cash)}. "
        + (f"Completion swaps:{offered} " if swaps else "")
        + "Or no trade. Any other trade of lots and cash that the rules allow may be proposed "
        "too."
    )
    return Question("propose_trade", seat, text, (None, *swaps), completion_swap(game, me), game)


def _ask_accept_trade(game: GameView, me: OwnView, offer: Trade) -> Question:
    seat = me.seat
    words = _trade_words(offer, ("you get", "you give"))
    text = (
        f"{game.name(offer.proposer)} offers you a trade: {words}. Accept? You have "
        f"{_money(me.cash)}."
    )
    default = completion_accepts(game, me, offer)
    return Question("accept_trade", seat, text, YES_NO, default, game, offer=offer)


# ---------------------------------------------------------------------------
# Plans: one answer for the turn's successive build (or lift) questions
# ---------------------------------------------------------------------------


def plan_question(question: Question) -> Question:
    """The plan question for a ``build`` or ``lift`` question (the first of the turn's): how
    many buildings to add on each lot, or which mortgages to lift, all at once."""
    game, seat = question.game, question.seat
    me = game.player(seat)
    lots = [s for s in question.choices if s is not None]
    if question.decision == "build":
        where = "; ".join(
            f"{space_name(s)} has {buildings_words(game.lots[s].buildings)}, rents "
            f"{_money(RENTS[s][game.lots[s].buildings])}"
            for s in group_lots(lots)
        )
        costs = ", ".join(
            sorted({f"{GROUP[s]} {_money(HOUSE_COST[s])}" for s in lots}, key=str.lower)
        )
        text = (
            f"Build? You have {_money(me.cash)}. {where}. A building costs: {costs}; five "
            "make a hotel. Say how many buildings to add on each lot (a group's lots may "
            "differ by one at most), or none."
        )
        default = _default_plan(game, seat, default_build, build)
        return Question("build_plan", seat, text, tuple(lots), default, game)
    which = ", ".join(f"{space_name(s)} for {_money(lift_cost(s))}" for s in lots)
    text = (
        f"Lift mortgages? You have {_money(me.cash)}. You may lift the mortgage on {which}. "
        "Say which (any number of them), or none."
    )
    default = tuple(sorted(_default_plan(game, seat, default_lift, lift_mortgage)))
    return Question("lift_plan", seat, text, tuple(lots), default, game)


def buildings_words(buildings: int) -> str:
    """``no house``, ``1 house``, ``3 houses``, ``a hotel``."""
    if buildings == HOTEL:
        return "a hotel"
    return "no house" if not buildings else f"{buildings} house{'s' * (buildings > 1)}"


def group_lots(lots: list[int]) -> list[int]:
    """Every lot of the groups ``lots`` are in (a lot at its most, or waiting for the
    others to catch up, is in the question too)."""
    groups = {GROUP[s] for s in lots}
    return sorted(s for g in groups for s in GROUP_SPACES[g])


def _default_plan(
    game: ReadableGame, seat: int, decide: Callable[..., int | None], act: Callable
) -> dict[int, int]:
    """What the rules' default would build (or lift) this turn, one step after another."""
    trial = game.copy()
    trial.verbose = False
    plan: dict[int, int] = {}
    while (space := decide(trial, trial.player(seat))) is not None:
        act(trial, seat, space)
        plan[space] = plan.get(space, 0) + 1
    return dict(sorted(plan.items()))


def plan_steps(question: Question, plan: object) -> list[int]:
    """The successive answers (spaces) ``plan`` gives the turn's ``build`` or ``lift``
    questions, in the order the rules allow; a ValueError names the step that breaks one."""
    reason, steps = _plan(question, plan)
    if reason:
        raise ValueError(reason)
    return steps


def _plan(question: Question, plan: object) -> tuple[str | None, list[int]]:
    """``(None, steps)`` for a legal plan (None is no plan), or ``(why not, [])``."""
    game, seat = question.game, question.seat
    if plan is None:
        return None, []
    if question.decision == "build_plan":
        wanted = _counts(plan)
        if wanted is None:
            return (
                "a building plan maps each lot to the buildings to add on it, such as "
                "{16: 1, 18: 1, 19: 1} (or {} for none)",
                [],
            )
        why_not, act = why_not_build, build
    else:
        lots = _lots(plan) if not isinstance(plan, (set, frozenset)) else _lots(sorted(plan))
        if lots is None or len(set(lots)) != len(lots):
            return "a lift plan lists the lots to lift, each once, such as (12, 28) (or ())", []
        wanted, why_not, act = {s: 1 for s in lots}, why_not_lift, lift_mortgage
    trial = game.copy()
    trial.verbose = False
    left, steps = dict(wanted), []
    while left:
        # the first lot the rules allow, a group at a time (as the default builds), its
        # lots with the fewest buildings first: building stays even, and a group's hotels
        # give the bank back houses before the next group's are bought
        order = sorted(left, key=lambda s: (_build_rank(s), trial.lots[s].buildings, s))
        reasons = [why_not(trial, seat, s) for s in order]
        if all(reasons):
            step = "building" if question.decision == "build_plan" else "lift"
            where = space_name(order[0])
            return f"its {step} number {len(steps) + 1}, on {where}: {reasons[0]}", []
        space = order[reasons.index(None)]
        act(trial, seat, space)
        steps.append(space)
        left[space] -= 1
        if not left[space]:
            del left[space]
    return None, steps


def _build_rank(space: int) -> int:
    group = GROUP[space]
    return BUILD_ORDER.index(group) if group in BUILD_ORDER else len(BUILD_ORDER)


def _counts(plan: object) -> dict[int, int] | None:
    """``{space: count}`` from a mapping of lots to whole numbers from 0 (or None)."""
    if not isinstance(plan, dict):
        return None
    if not all(_whole(s) and _whole(n) and n >= 0 for s, n in plan.items()):
        return None
    return {int(s): int(n) for s, n in sorted(plan.items()) if n}


def _settle_plan(question: Question, answer: object) -> tuple[str | None, object]:
    reason, _ = _plan(question, answer)
    if reason:
        return reason, None
    if answer is None:
        return None, {} if question.decision == "build_plan" else ()
    if question.decision == "build_plan":
        return None, _counts(answer)
    lots = sorted(answer) if isinstance(answer, (set, frozenset)) else answer
    return None, tuple(sorted(_lots(lots)))  # type: ignore[arg-type]


def _describe_plan_lot(question: Question, space: object) -> str:
    lot = question.game.lots[space]  # type: ignore[index]
    if question.decision == "lift_plan":
        return f"Lift {space_name(space)} ({_money(lift_cost(space))})"  # type: ignore[arg-type]
    return f"{space_name(space)}: {buildings_words(lot.buildings)} now"  # type: ignore[arg-type]


_ASK: dict[str, Callable[..., Question | None]] = {
    "buy": _ask_buy,
    "bid": _ask_bid,
    "leave_jail": _ask_leave_jail,
    "build": _ask_build,
    "lift": _ask_lift,
    "raise_cash": _ask_raise_cash,
    "propose_trade": _ask_propose_trade,
    "accept_trade": _ask_accept_trade,
}


# ---------------------------------------------------------------------------
# Checking an answer: the rules' own why_not_..., and plain values for the game
# ---------------------------------------------------------------------------


def _shown(value: object) -> str:
    try:
        return repr(value)
    except Exception:  # a value whose repr fails is still refused, by its type
        return f"a {type(value).__name__}"


def _whole(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _yes_no(question: Question, answer: object) -> tuple[str | None, object]:
    if isinstance(answer, (bool, np.bool_)):
        return None, bool(answer)
    return "the answer is True or False", None


def _bid(question: Question, answer: object) -> tuple[str | None, object]:
    cash = question.choices[-1]
    if not _whole(answer):
        return f"a bid is whole dollars, from $0 (no bid) to your cash, {_money(cash)}", None
    if not 0 <= answer <= cash:
        return f"a bid must be from $0 to your cash, {_money(cash)}", None
    return None, int(answer)


def _space(why_not: Callable[[ReadableGame, int, int], str | None]) -> Callable[..., tuple]:
    def settle(question: Question, answer: object) -> tuple[str | None, object]:
        if answer is None:
            return None, None
        if not _whole(answer):
            return "name a space by its number (a whole number from 1 to 40), or None", None
        return why_not(question.game, question.seat, int(answer)), int(answer)

    return settle


def _raise(question: Question, answer: object) -> tuple[str | None, object]:
    pair = isinstance(answer, (tuple, list)) and len(answer) == 2
    if not (
        pair and isinstance(answer[0], str) and answer[0] in RAISE_ACTIONS and _whole(answer[1])
    ):
        return (
            "the answer is ('sell', space) or ('mortgage', space): the debt must be "
            f"raised; the default is {question.default!r}"
        ), None
    action, space = str(answer[0]), int(answer[1])
    return RAISE_ACTIONS[action](question.game, question.seat, space), (action, space)


def _lots(lots: object) -> tuple[int, ...] | None:
    if not isinstance(lots, (tuple, list)) or not all(_whole(s) for s in lots):
        return None
    return tuple(int(s) for s in lots)


def _proposal(question: Question, answer: object) -> tuple[str | None, object]:
    if answer is None:
        return None, None
    if not isinstance(answer, Trade):
        return "the answer is a Trade(partner, give=(...), take=(...), cash=...) or None", None
    give, take = _lots(answer.give), _lots(answer.take)
    if give is None or take is None or not (_whole(answer.partner) and _whole(answer.cash)):
        return (
            "a Trade names a seat, lots (tuples of spaces) and cash as whole numbers, "
            "such as Trade(2, give=(12,), take=(14,), cash=20)"
        ), None
    trade = Trade(int(answer.partner), give, take, int(answer.cash))
    return why_not_trade(question.game, question.seat, trade), trade


_SETTLE: dict[str, Callable[[Question, object], tuple[str | None, object]]] = {
    "buy": _yes_no,
    "bid": _bid,
    "leave_jail": _yes_no,
    "build": _space(why_not_build),
    "lift": _space(why_not_lift),
    "raise_cash": _raise,
    "propose_trade": _proposal,
    "accept_trade": _yes_no,
    "build_plan": _settle_plan,
    "lift_plan": _settle_plan,
}


# ---------------------------------------------------------------------------
# Words for each choice
# ---------------------------------------------------------------------------


def _describe_leave(question: Question, choice: object) -> str:
    if not choice:
        return "Stay"
    return "Use the card" if question.game.player(question.seat).jail_cards else "Pay $50"


def _describe_raise(question: Question, choice: object) -> str:
    action, space = choice
    if action == "sell":
        return f"Sell a building on {space_name(space)} ({_money(sale_price(space))})"
    return f"Mortgage {space_name(space)} ({_money(MORTGAGE[space])})"


def _describe_trade(question: Question, choice: object) -> str:
    if choice is None:
        return "No trade"
    trade: Trade = choice
    return f"To {question.game.name(trade.partner)}: " + _trade_words(
        trade, ("you give", "you get")
    )


_DESCRIBE: dict[str, Callable[[Question, object], str]] = {
    "buy": lambda q, c: "Buy" if c else "Do not buy",
    "bid": lambda q, c: f"Bid {_money(c)}" if c else "No bid",
    "leave_jail": _describe_leave,
    "build": lambda q, c: (
        "Done"
        if c is None
        else f"Build {_next_building(q.game, c)} on {space_name(c)} (rent then "
        f"{_money(_rent_after_building(q.game, c))})"
    ),
    "lift": lambda q, c: "Done" if c is None else f"Lift {space_name(c)} ({_money(lift_cost(c))})",
    "raise_cash": _describe_raise,
    "propose_trade": _describe_trade,
    "accept_trade": lambda q, c: "Accept" if c else "Refuse",
    "build_plan": _describe_plan_lot,
    "lift_plan": _describe_plan_lot,
}
