"""A person's seat asked as a player decides: the turn's plan answers the rest.

The engine asks a person's seat exactly what it asks every strategy (the rules unchanged),
and many of those questions are routine: "Propose a trade?" at the end of every turn,
"Build?" once for each house. :class:`SeatPlan` stands between the seat
(:class:`~monopoly_lesson.game.person.You`) and the person, and asks the person only:

- every buy, bid, jail, raise-cash and trade-offer question (an offer of the same lots as
  one refused before, paying the person no more, is refused again without asking);
- a trade to propose when the person has asked to propose one (:attr:`SeatPlan.turn_end`)
  or a completion swap is on offer that was not before;
- one building plan a turn (buildings per lot), and one lift plan (mortgages to lift), when
  the person has asked to build or lift, or a group (a mortgage) can be built on (lifted)
  that could not before; the plan then answers the turn's successive questions.

Every answer the game takes is kept in :attr:`SeatPlan.answers`, with the ones the plan gave
without asking marked (:attr:`SeatPlan.auto`), so that a game replays exactly from them
and a take-back goes back to a question the person answered.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from .person import PLANS, Question, plan_question, plan_steps
from .state import GROUP

__all__ = ["TURN_END", "SeatPlan"]

TURN_END = ("propose_trade", "build", "lift")
"""The decisions of a turn's end that a person is asked only when they choose to be (or
when something new is possible)."""


class SeatPlan:
    """The answer function of a person's seat (``You(answer=SeatPlan(ask))``): answers from
    ``replay`` first (values as the game took them; ``auto`` the indices of those the plan
    gave), then the routine questions by itself and the rest through ``ask(question)``,
    which returns the person's answer to a question (a plan question included), checked.
    With ``plans=False`` every question is put to the person, one step at a time."""

    def __init__(
        self,
        ask: Callable[[Question], object],
        *,
        replay: Sequence[object] = (),
        auto: Iterable[int] = (),
        plans: bool = True,
        turn_end: Iterable[str] = (),
    ) -> None:
        self.ask, self.plans = ask, plans
        self.answers: list[object] = []
        """Every answer given to the seat's questions, in order, as the game took it."""
        self.auto: set[int] = set()
        """The indices in :attr:`answers` of those the plan gave without asking."""
        self.turn_end: set[str] = {d for d in turn_end if d in TURN_END}
        """The decisions of :data:`TURN_END` the person will be asked at their next turn's
        end (where the rules allow them): each is asked once, then taken out."""
        self.pending: Question | None = None
        """The game's question a plan question is asked for (the coach weighs it)."""
        self.force = False
        """Put the next question to the person, whatever the plan: after a take-back, the
        question of the answer taken back is asked again as it was."""
        self._replay = deque(replay)
        self._replay_auto = set(auto)
        self._steps: deque[int] = deque()
        self._asked_in: dict[str, int] = {}  # the round a decision is asked in this turn
        self._planned: dict[str, int] = {}  # the round whose build (lift) plan is played
        self._groups_offered: set[str] = set()
        self._lifts_offered: set[int] = set()
        self._swaps_offered: set[tuple] = set()
        self._refused: dict[tuple, int] = {}  # lots offered: the most cash refused for them

    @property
    def replaying(self) -> bool:
        """Whether answers are still to be replayed."""
        return bool(self._replay)

    def __call__(self, question: Question) -> object:
        """The answer to ``question``: replayed, the plan's, or the person's."""
        if self._replay:
            given = self._replay.popleft()
            index = len(self.answers)
            try:
                value = question.check(given)
            except ValueError as error:
                raise ValueError(
                    f"answers[{index}], {given!r}, does not answer the question it meets "
                    f"({question.text}): {error} Replay a game with its own strategies, "
                    "seed, max_rounds, trading and answers."
                ) from None
            self._note(question, value, asked=index not in self._replay_auto, replayed=True)
            return value
        value, asked = self._answer(question)
        self._note(question, value, asked=asked, replayed=False)
        return value

    @property
    def given(self) -> int:
        """How many answers the person gave (the plan's not counted)."""
        return len(self.answers) - len(self.auto)

    # -- deciding who answers ---------------------------------------------------------

    def _answer(self, question: Question) -> tuple[object, bool]:
        decision, forced = question.decision, self.force
        self.force = False
        if not self.plans:
            return self.ask(question), True
        if decision in PLANS:
            return self._plan_answer(question, forced)
        if decision == "propose_trade" and not (forced or self._asks_trade(question)):
            return None, False
        if decision == "accept_trade" and not forced and self._refused_before(question):
            print(
                f"{question.game.name(question.seat)} refused these lots for as much before: "
                "refused again without asking."
            )
            return False, False
        return self.ask(question), True

    def _asks_trade(self, question: Question) -> bool:
        """Whether to ask for a proposal: asked for, still proposing this turn, or a
        completion swap on offer that was not before."""
        now = question.game.round
        if "propose_trade" in self.turn_end or self._asked_in.get("propose_trade") == now:
            self.turn_end.discard("propose_trade")
            self._asked_in["propose_trade"] = now
            return True
        swaps = {_trade_key(t) for t in question.choices if t is not None}
        new = swaps - self._swaps_offered
        self._swaps_offered |= swaps
        if new:
            self._asked_in["propose_trade"] = now
        return bool(new)

    def _plan_answer(self, question: Question, forced: bool) -> tuple[object, bool]:
        """A build or lift question: the first of a turn asks for the plan (when asked for,
        or something new can be done), the rest are answered from it."""
        decision, now = question.decision, question.game.round
        if self._planned.get(decision) == now and not forced:
            return (self._steps.popleft() if self._steps else None), False
        self._planned[decision] = now
        lots = {s for s in question.choices if s is not None}
        if decision == "build":
            offered = self._groups_offered
            offered &= {g for g in offered if _holds_group(question, g)}
            new = {GROUP[s] for s in lots} - offered
            offered |= {GROUP[s] for s in lots}
        else:
            offered_lifts = self._lifts_offered
            offered_lifts &= {s for s in offered_lifts if question.game.lots[s].mortgaged}
            new = lots - offered_lifts
            offered_lifts |= lots
        if not (forced or new or decision in self.turn_end):
            self._steps.clear()
            return None, False
        self.turn_end.discard(decision)
        self.pending = question
        asked = plan_question(question)
        plan = self.ask(asked)
        self.pending = None
        steps = plan_steps(asked, plan)
        self._steps = deque(steps[1:])
        return (steps[0] if steps else None), True

    # -- bookkeeping, for replayed answers too -----------------------------------------

    def _note(self, question: Question, value: object, *, asked: bool, replayed: bool) -> None:
        if not asked:
            self.auto.add(len(self.answers))
        self.answers.append(value)
        if question.decision == "accept_trade" and value is False:
            lots, cash = _offer_lots(question)
            self._refused[lots] = max(cash, self._refused.get(lots, cash))
        if replayed and self.plans:  # what a replay saw counts as offered, as it was then
            self._replayed(question, value, asked)

    def _replayed(self, question: Question, value: object, asked: bool) -> None:
        decision, now = question.decision, question.game.round
        if decision in PLANS and self._planned.get(decision) != now:
            self._planned[decision] = now
            lots = {s for s in question.choices if s is not None}
            if decision == "build":
                self._groups_offered |= {GROUP[s] for s in lots}
            else:
                self._lifts_offered |= lots
        if decision == "propose_trade":
            self._swaps_offered |= {_trade_key(t) for t in question.choices if t is not None}
            if asked:
                self._asked_in["propose_trade"] = now

    def _refused_before(self, question: Question) -> bool:
        """Whether the person refused the same lots (each side's) from the same player for
        at least as much cash to the person."""
        lots, cash = _offer_lots(question)
        return lots in self._refused and cash <= self._refused[lots]


def _holds_group(question: Question, group: str) -> bool:
    return question.game.holds_complete_group(question.seat, group)


def _offer_lots(question: Question) -> tuple[tuple, int]:
    """An offer's proposer and each side's lots, and the cash it pays the person."""
    offer = question.offer
    return (offer.proposer, offer.give, offer.take), offer.cash  # type: ignore[union-attr]


def _trade_key(trade: object) -> tuple:
    return (
        getattr(trade, "partner", None),
        tuple(getattr(trade, "give", ())),
        tuple(getattr(trade, "take", ())),
        getattr(trade, "cash", 0),
    )
