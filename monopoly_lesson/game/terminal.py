"""A person's seat in the terminal: ``python -m monopoly_lesson play --you SEAT``.

:class:`Terminal` answers a :class:`~monopoly_lesson.game.person.You` seat by asking the
person each :class:`~monopoly_lesson.game.person.Question` on the command line: a line
typed is read as an answer (:func:`read_answer`), checked by the question (the rules' own
``why_not_...``) and asked again with the reason if it breaks a rule. Every answer is kept
in the words that give it (:func:`answer_text`), so that a game can be replayed from them.
``c`` at any question shows the coach's estimates (:mod:`~monopoly_lesson.game.coach`),
which change nothing in the game.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import sys
import textwrap
from collections import deque
from collections.abc import Callable, Iterable

from ..starter import space_name
from .deed import deed, trade_effect
from .narration import whereabouts
from .person import Question
from .seat_plan import SeatPlan
from .state import GROUP_SPACES, HOTEL, STREET_GROUPS, ReadableGame
from .strategies import accepts_words
from .trade import Trade

__all__ = [
    "LeftTheTable",
    "TakeBack",
    "Terminal",
    "answer_text",
    "answers_file_text",
    "board_lines",
    "board_text",
    "choices_help",
    "decision_facts",
    "prompt",
    "question_words",
    "read_answer",
    "space_of",
    "split_answers",
    "table_line",
]

YES, NO = ("y", "yes", "true"), ("n", "no", "false")
DONE = ("n", "no", "none", "done")
"""Words for ``None``: done building or lifting, no trade."""
SEPARATOR = ";"
"""Separates answers written on one line (``--answers 'y;150;n'``)."""
COMMENT = "#"
"""Starts a comment, to the end of its line, in answers to replay (a file's notes)."""
TRADE_WORDS = ("give", "take", "pay", "get", "to")
TRADE_HELP = """\
A trade of your own: give LOTS take LOTS pay N (or get N) to SEAT, any part left out,
  e.g. "give 12,14 take 22 pay 50 to 3" or "take boardwalk pay 450"; lots by number
  or name, commas between them; "to" may be left out when the lots you take are one
  player's."""
HELP_KEYS = (
    "Enter takes the default (*); b shows the board; d SPACE shows a lot's deed (d 17, d "
    "boardwalk); c asks the coach; u takes back your last answer; t, build or lift: be asked "
    "at your turn's end for a trade to propose, a building plan or mortgages to lift; Ctrl-C "
    "or Ctrl-D stops the game."
)
HELP_WIDTH = 96
"""The width of the help's own paragraphs (its lines of choices are as long as they are)."""
TURN_END_WORDS = {
    "t": "propose_trade",
    "trade": "propose_trade",
    "build": "build",
    "lift": "lift",
}
"""The commands that ask to be asked at the turn's end, and the decision each asks for."""
TURN_END_SAID = {
    "propose_trade": "a trade to propose",
    "build": "a building plan",
    "lift": "mortgages to lift",
}
COACH_WORDS = ("c", "coach")
UNDO_WORDS = ("u", "undo")
DEED_WORDS = ("d", "deed")


class LeftTheTable(BaseException):
    """The person left before the game ended: the input ran out (Ctrl-D), or an answer
    replayed does not fit its question. Not an Exception, so no strategy handler takes it."""

    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.reason, self.status = reason, status


class TakeBack(BaseException):
    """The person takes back the last answer (``u``): whoever holds the game plays it again
    from its seed with the answers before it. Not an Exception, so no strategy handler
    takes it."""


# ---------------------------------------------------------------------------
# Reading an answer as typed, and writing one back
# ---------------------------------------------------------------------------


def read_answer(question: Question, text: str) -> object:
    """What ``text``, as typed, answers to ``question`` (not yet checked by the rules): an
    empty line is the default; a ValueError says what was expected."""
    text = " ".join(text.split())
    if not text:
        return question.default
    return _READ[question.decision](question, text)


def _yes_no(question: Question, text: str) -> bool:
    if text.lower() in YES + NO:
        return text.lower() in YES
    raise ValueError(f"type y or n, not {text!r}")


def _bid(question: Question, text: str) -> int:
    if text.lower() in DONE:
        return 0
    amount = text.removeprefix("$").replace(",", "")
    if not re.fullmatch(r"-?\d+", amount):
        raise ValueError(f"a bid is a whole number of dollars (0: no bid), not {text!r}")
    return int(amount)


def _space_or_done(question: Question, text: str) -> int | None:
    return None if text.lower() in DONE else space_of(text)


def _raise_cash(question: Question, text: str) -> tuple[str, int]:
    """``sell SPACE`` or ``mortgage SPACE``, or the lot alone when only one of the two is
    allowed on it: a lot is named (by its number or name), never a choice's place in a list
    that changes after each step."""
    action, _, where = text.partition(" ")
    if action.lower() in ("sell", "mortgage") and where:
        return action.lower(), space_of(where)
    try:
        space = space_of(text)
    except ValueError:
        raise ValueError(
            f"type sell SPACE or mortgage SPACE (? lists them), not {text!r}"
        ) from None
    actions = [a for a, s in question.choices if s == space]
    if len(actions) == 1:
        return actions[0], space
    if actions:
        raise ValueError(
            f"sell a building on it or mortgage it? type sell {space} or mortgage {space}"
        )
    raise ValueError(f"{space_name(space)} has nothing to sell or mortgage now (? lists what has)")


def _build_plan(question: Question, text: str) -> dict[int, int]:
    """``16x2, 18x2, 19x2``, ``orange x2``, ``16 18 19`` (one building each), or ``n``."""
    if text.lower() in DONE:
        return {}
    items = text.split() if all(w.isdigit() for w in text.split()) else text.split(",")
    plan: dict[int, int] = {}
    for item in (i.strip() for i in items if i.strip()):
        found = re.fullmatch(r"(.+?)(?:\s*[x*]\s*(\d+))?", item, flags=re.IGNORECASE)
        what, count = found.group(1).strip(), int(found.group(2) or 1)  # type: ignore[union-attr]
        group = what.lower()
        lots = GROUP_SPACES[group] if group in STREET_GROUPS else (space_of(what),)
        for space in lots:
            plan[space] = plan.get(space, 0) + count
    return plan


def _lift_plan(question: Question, text: str) -> tuple[int, ...]:
    """``12, 28`` (or ``12 28``), ``all``, or ``n``."""
    if text.lower() in DONE:
        return ()
    if text.lower() == "all":
        return tuple(question.choices)  # type: ignore[arg-type]
    items = text.split() if all(w.isdigit() for w in text.split()) else text.split(",")
    return tuple(space_of(i) for i in items if i.strip())


def _trade(question: Question, text: str) -> Trade | None:
    if text.lower() in DONE:
        return None
    swaps = len(question.choices) - 1  # after None, the completion swaps
    if text.lower() in YES:
        if swaps == 1:
            return question.choices[1]
        raise ValueError(
            f"which trade? type a swap's number, 1 to {swaps}, or write a trade of your own"
            if swaps
            else "there is no completion swap to propose: write a trade of your own (give "
            "SPACE take SPACE pay DOLLARS to SEAT), or n for no trade"
        )
    if text.isdigit():
        if not 1 <= int(text) <= swaps:
            raise ValueError(
                f"a swap's number is from 1 to {swaps} (see ?), not {text}"
                if swaps
                else "there is no completion swap to pick; see ?"
            )
        return question.choices[int(text)]
    if text.startswith("Trade("):
        return _python_trade(text)
    return _written_trade(question, text)


_READ: dict[str, Callable[[Question, str], object]] = {
    "buy": _yes_no,
    "bid": _bid,
    "leave_jail": _yes_no,
    "build": _space_or_done,
    "lift": _space_or_done,
    "raise_cash": _raise_cash,
    "propose_trade": _trade,
    "accept_trade": _yes_no,
    "build_plan": _build_plan,
    "lift_plan": _lift_plan,
}


def space_of(text: str) -> int:
    """A space from its number (1 to 40) or its name (any case, without its last word, or
    the start of it when only one space's name starts so: ``boardwalk``, ``B&O``, ``st. ch``)."""
    text = text.strip()
    if re.fullmatch(r"\d+", text):
        if not 1 <= int(text) <= 40:
            raise ValueError(f"a space is a number from 1 to 40, not {text}")
        return int(text)
    wanted = _simple(text)
    titles = {space: space_name(space).rsplit(" (", 1)[0] for space in range(1, 41)}
    names = {space: _simple(title) for space, title in titles.items()}
    short = {space: _simple(title.rsplit(" ", 1)[0]) for space, title in titles.items()}
    exact = [space for space in titles if wanted in (names[space], short[space])]
    found = exact or [space for space, name in names.items() if wanted and name.startswith(wanted)]
    if len(set(map(names.get, found))) != 1:
        which = "names more than one space" if found else "is not a space's number or name"
        raise ValueError(f"{text!r} {which}")
    return found[0]


def _simple(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _written_trade(question: Question, text: str) -> Trade:
    """``give 12,14 take 22 pay 50 to 3``: the parts in any order, each at most once."""
    pieces = re.split(rf"\b({'|'.join(TRADE_WORDS)})\b", text, flags=re.IGNORECASE)
    if pieces[0].strip():
        raise ValueError(f"a trade starts with give, take, pay, get or to, not {text!r}")
    parts: dict[str, str] = {}
    for word, value in zip(pieces[1::2], pieces[2::2], strict=True):
        if word.lower() in parts or not value.strip():
            raise ValueError(f"say {word.lower()} once, with what follows it, in {text!r}")
        parts[word.lower()] = value.strip()
    if "pay" in parts and "get" in parts:
        raise ValueError("a trade either pays cash or gets it, not both")
    give, take = (
        tuple(space_of(s) for s in parts.get(w, "").split(",") if s.strip())
        for w in ("give", "take")
    )
    cash = _dollars(parts["pay"]) if "pay" in parts else -_dollars(parts.get("get", "0"))
    partner = _partner(parts["to"]) if "to" in parts else _owner_of(question.game, take)
    return Trade(partner, give=give, take=take, cash=cash)


def _dollars(text: str) -> int:
    amount = text.removeprefix("$").replace(",", "")
    if not amount.isdigit():
        raise ValueError(f"pay and get take whole dollars, not {text!r}")
    return int(amount)


def _partner(text: str) -> int:
    seat = text.lower().removeprefix("p")
    if not seat.isdigit():
        raise ValueError(f"to names a seat, such as 3 or P3, not {text!r}")
    return int(seat)


def _owner_of(game: ReadableGame, take: tuple[int, ...]) -> int:
    owners = {game.lots[s].owner for s in take if s in game.lots}
    unowned = [space_name(s) for s in take if s in game.lots and game.lots[s].owner is None]
    if unowned:
        raise ValueError(
            f"{unowned[0]} is owned by nobody yet: a trade takes lots another player owns"
        )
    if len(owners) != 1:
        raise ValueError("say who the trade is with: to SEAT")
    return owners.pop()


def _python_trade(text: str) -> Trade:
    """``Trade(3, give=(12,), take=(22,), cash=50)``, as the question's sentence writes one."""
    try:
        call = ast.parse(text, mode="eval").body
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        return Trade(*args, **kwargs)
    except (SyntaxError, ValueError, TypeError, AssertionError):
        raise ValueError(
            f"could not read {text!r} as a trade: write one in words, such as give 12 take "
            "22 pay 50 to 3"
        ) from None


def answer_text(question: Question, value: object) -> str:
    """The words that give ``value`` (a legal answer) to ``question``, as :func:`read_answer`
    reads them: ``y``, ``150``, ``12``, ``n``, ``sell 12``, ``give 12 take 14 pay 50 to 3``."""
    if isinstance(value, bool):
        return "y" if value else "n"
    if value is None or value == {} or value == ():
        return "n"
    if isinstance(value, dict):  # a building plan
        return ", ".join(f"{s}x{n}" if n > 1 else str(s) for s, n in value.items())
    if question.decision == "lift_plan":
        return ", ".join(map(str, value))  # type: ignore[call-overload]
    if isinstance(value, tuple):
        return f"{value[0]} {value[1]}"
    if isinstance(value, Trade):
        parts = [f"give {','.join(map(str, value.give))}"] if value.give else []
        parts += [f"take {','.join(map(str, value.take))}"] if value.take else []
        parts += [f"pay {value.cash}"] if value.cash > 0 else []
        parts += [f"get {-value.cash}"] if value.cash < 0 else []
        return " ".join([*parts, f"to {value.partner}"])
    return str(value)


def split_answers(lines: Iterable[str]) -> list[str]:
    """Answers written one a line, or several on a line separated by ``;`` (an empty one
    takes the default); ``#`` starts a comment, and a line of a comment alone is no answer."""
    answers = []
    for line in lines:
        words, hash_sign, _ = line.partition(COMMENT)
        if hash_sign and not words.strip():
            continue
        answers += [answer.strip() for answer in words.split(SEPARATOR)]
    return answers


QUESTION_WORDS = {
    "buy": "buy {lot}?",
    "bid": "your bid for {lot}",
    "leave_jail": "leave jail now?",
    "build": "build?",
    "lift": "lift a mortgage?",
    "raise_cash": "raise cash (you owe {owed})",
    "propose_trade": "propose a trade?",
    "accept_trade": "accept the trade {proposer} offers?",
    "build_plan": "a building plan",
    "lift_plan": "mortgages to lift",
}
"""A few words for each question, beside its answer in a file of answers."""


def question_words(question: Question) -> str:
    """A few words that name ``question``: ``buy St. Charles Place (12)?``."""
    game, offer = question.game, question.offer
    return QUESTION_WORDS[question.decision].format(
        lot=space_name(question.space) if question.space is not None else "",
        owed=_money(question.owed or 0),
        proposer=game.name(offer.proposer) if offer is not None else "",
    )


def answers_file_text(game: str, answers: list[str], asked: list[str]) -> str:
    """A file of answers to replay (``--answers @FILE``): the game they belong to, then one
    answer a line, each with its number and question in a comment."""
    width = min(max((len(answer) for answer in answers), default=0) + 2, 30)
    lines = [
        f"{COMMENT} The answers given in: {game}",
        f"{COMMENT} One a line, in order; what follows {COMMENT} is a note. Replay them with "
        "--answers @FILE.",
        *(
            f"{answer:<{width}}{COMMENT} {n}, {what}"
            for n, (answer, what) in enumerate(zip(answers, asked, strict=True), start=1)
        ),
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# What the person sees: the table, the question, the choices
# ---------------------------------------------------------------------------


def _money(amount: int) -> str:
    return f"${amount:,}"


def decision_facts(question: Question) -> list[str]:
    """What the person reads under a question before answering: the deed of the lot it is
    about, or what a trade on offer would complete for each side."""
    game, seat = question.game, question.seat
    if question.space is not None:
        return [deed(game, question.space, seat)]
    if question.offer is not None:
        return [trade_effect(game, question.offer, seat)]
    if question.decision == "propose_trade":
        swaps = [c for c in question.choices if c is not None]
        return [f"{n}) {trade_effect(game, t, seat)}" for n, t in enumerate(swaps, start=1)]
    return []


def table_line(game: ReadableGame) -> str:
    """``Round 3 | P1 you $1,230 | P2 ega_trading $900 | P3 always out``: who has what."""
    players = [f"{p.name} {_money(p.cash)}" if p.in_game else f"{p.name} out" for p in game.players]
    return " | ".join([f"Round {game.round}", *players])


def board_lines(game: ReadableGame) -> list[str]:
    """One line per player: cash, space, jail, and each lot with its buildings or mortgage."""
    lines = []
    for p in game.players:
        if not p.in_game:
            lines.append(f"  {p.name}: out of the game")
            continue
        where = whereabouts(p.token)
        lots = ", ".join(_lot_words(game, s) for s in sorted(p.lots)) or "no lots"
        cards = f"; {len(p.jail_cards)} Get Out of Jail Free card(s)" if p.jail_cards else ""
        lines.append(f"  {p.name}: {_money(p.cash)}, {where}; {lots}{cards}")
    return lines


def board_text(game: ReadableGame, width: int) -> str:
    """:func:`board_lines` wrapped to ``width`` (the terminal's), never inside a word, and
    a lot's words kept on one line where it fits; a player's further lines indented."""
    return "\n".join(_wrap_board_line(line, width) for line in board_lines(game))


def _wrap_board_line(line: str, width: int) -> str:
    parts = re.split(r"(?<=[,;]) ", line.strip())  # the player, the space, each lot
    kept = [part.replace(" ", NO_BREAK) if len(part) + 4 <= width else part for part in parts]
    wrapped = textwrap.fill(
        " ".join(kept),
        width,
        initial_indent="  ",
        subsequent_indent="    ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    return wrapped.replace(NO_BREAK, " ")


NO_BREAK = "\xa0"
"""A space that textwrap does not break a line at (it breaks at ASCII spaces only)."""


def _lot_words(game: ReadableGame, space: int) -> str:
    lot = game.lots[space]
    extra = (
        "a hotel"
        if lot.buildings == HOTEL
        else f"{lot.buildings} house(s)"
        if lot.buildings
        else "mortgaged"
        if lot.mortgaged
        else ""
    )
    return space_name(space) + (f" {extra}" if extra else "")


def choices_help(question: Question) -> str:
    """The legal answers, each with what to type and a few words, the default marked."""
    if question.decision == "bid":
        cash = question.choices[-1]
        lines = [
            f"  a whole number of dollars from 0 (no bid) to {cash} (your cash); "
            f"the default bids {question.default}"
        ]
    else:
        rows = [
            (_key(question, k, c), question.describe(c), c == question.default)
            for k, c in enumerate(question.choices)
        ]
        width = max(len(key) for key, _, _ in rows)
        lines = [
            f"  {key:<{width}}  {words}{' *' if default else ''}" for key, words, default in rows
        ]
    if question.decision == "propose_trade":
        lines.append(TRADE_HELP)
        lines += others_accept(question)
    return "\n".join(["Type one of:", *lines, textwrap.fill(HELP_KEYS, HELP_WIDTH)])


def others_accept(question: Question) -> list[str]:
    """What each other player still in the game accepts in a trade, in words."""
    from .plugins import strategy_named

    lines = ["What the others accept:"]
    for player in question.game.players:
        if player.seat == question.seat or not player.in_game:
            continue
        try:
            words = accepts_words(strategy_named(player.strategy_name))
        except (ValueError, TypeError, KeyError):  # a strategy of its own, not a name
            words = "by a rule of its own"
        lines.append(
            textwrap.fill(
                f"{player.name} accepts {words}.",
                HELP_WIDTH,
                initial_indent="  ",
                subsequent_indent="    ",
            )
        )
    return lines


def _key(question: Question, index: int, choice: object) -> str:
    """What to type for a choice: its words, and its number where numbers pick choices."""
    words = answer_text(question, choice)
    if question.decision == "propose_trade" and choice is not None:
        return f"{index} ({words})"
    return words


HINTS = {
    "buy": "y/n",
    "leave_jail": "y/n",
    "accept_trade": "y/n",
    "build": "space or n",
    "lift": "space or n",
    "raise_cash": "sell/mortgage SPACE",
    "propose_trade": "n, a swap's number, or give/take/to",
    "build_plan": "lots and how many (16x2, orange x2) or n",
    "lift_plan": "lots (12, 28), all or n",
}


def prompt(question: Question) -> str:
    """The prompt under a question: what to type, and what Enter answers."""
    hint = HINTS.get(question.decision) or f"bid 0 to {question.choices[-1]}"
    default = answer_text(question, question.default)
    if question.decision == "propose_trade" and question.default in question.choices[1:]:
        default = str(question.choices.index(question.default))  # the swap's number
    return f"{hint} [Enter: {default}, ?: help] > "


# ---------------------------------------------------------------------------
# The dialogue
# ---------------------------------------------------------------------------


class Terminal:
    """Asks the person each question on the terminal (``You(answer=Terminal())``): the
    answers in ``replay`` first (as :func:`read_answer` reads them), then lines typed or
    piped in. An answer that breaks a rule is asked again, with the rule. :attr:`answers`
    keeps every answer given, in :func:`answer_text`'s words, and :attr:`values` as the
    game took them, and :attr:`asked` the questions they answered.
    :attr:`coach` (set by whoever holds the game) is what ``c`` shows."""

    def __init__(self, replay: Iterable[str] = (), quiet: bool = False) -> None:
        """``replay``: answers given first, as typed; ``quiet``: print nothing (the game's
        narration included) until they are used up, as after ``u``."""
        self.answers: list[str] = []
        self.values: list[object] = []
        self.asked: list[str] = []
        """The round and a few words of each question answered (:func:`question_words`)."""
        self.coach: Callable[[Question], str] | None = None
        """The coach's words at a question (None: no coach)."""
        self.seat: SeatPlan | None = None
        """The person's seat plan, which t, build and lift ask (set by whoever holds the
        game; None: nothing to ask)."""
        self._game: ReadableGame | None = None
        self._replay = deque(replay)
        self._width = min(shutil.get_terminal_size((100, 24)).columns, 100)
        self._speaking = sys.stdout
        if quiet and self._replay:
            sys.stdout = io.StringIO()  # until speak(): the replay was seen before

    def speak(self) -> None:
        """Print again, if quiet (see the constructor)."""
        sys.stdout = self._speaking

    @property
    def round(self) -> int:
        """The game's round now (1 before the first question)."""
        return 1 if self._game is None else self._game.round

    def __call__(self, question: Question) -> object:
        """The person's answer to ``question``, checked by the rules."""
        self._game = question.game
        if not self._replay:
            self.speak()
        print(f"\n{table_line(question.game)}")
        print(textwrap.fill(question.text, self._width))
        for fact in decision_facts(question):
            print(textwrap.fill(fact, self._width, initial_indent="  ", subsequent_indent="  "))
        while True:
            text, replayed = self._next_line(question)
            if self._command(question, text):
                continue
            try:
                value = read_answer(question, text)
                reason = question.why_not(value)
            except ValueError as error:
                reason = str(error)
            if reason is None:
                value = question.check(value)
                self.answers.append(answer_text(question, value))
                self.values.append(value)
                self.asked.append(f"round {self.round}: {question_words(question)}")
                return value
            if replayed:
                raise LeftTheTable(
                    f"--answers: answer {len(self.answers) + 1}, {text!r}, does "
                    f"not answer its question ({question.text}): {reason}.",
                    2,
                )
            refused = f"Not allowed: {reason}. Try again (? lists the choices)."
            print(textwrap.fill(refused, self._width, break_on_hyphens=False))

    def _command(self, question: Question, text: str) -> bool:
        """Carry out ``text`` if it is one of the commands at a question (help, the board,
        a deed, the coach, taking back); whether it was one."""
        word, _, rest = text.partition(" ")
        if text in ("?", "help"):
            print(choices_help(question))
        elif text.lower() in ("b", "board"):
            print(board_text(question.game, shutil.get_terminal_size((80, 24)).columns))
        elif text.lower() in COACH_WORDS and self.coach is not None:
            print(self.coach(question))
        elif text.lower() in TURN_END_WORDS and self.seat is not None:
            wanted = TURN_END_WORDS[text.lower()]
            self.seat.turn_end.add(wanted)
            self.answers.append(text.lower())  # replayed too: the plan asks as it did
            self.asked.append(f"round {self.round}: be asked for {TURN_END_SAID[wanted]}")
            print(f"You will be asked for {TURN_END_SAID[wanted]} at your turn's end.")
        elif word.lower() in DEED_WORDS and rest:
            try:
                said = deed(question.game, space_of(rest), question.seat)
                print(textwrap.fill(said, self._width))
            except ValueError as error:
                print(f"Not a space: {error}.")
        elif text.lower() in UNDO_WORDS and not self.given:
            print("Nothing to take back yet: this is your first question.")
        elif text.lower() in UNDO_WORDS:
            raise TakeBack
        else:
            return False
        return True

    @property
    def given(self) -> list[str]:
        """The answers given, in words, without the commands (t, build, lift) among them."""
        return [a for a in self.answers if a not in TURN_END_WORDS]

    def taken_back(self) -> tuple[str, list[str]]:
        """The last answer given, and what to replay without it (the commands typed after
        it kept: they are asked at the question again)."""
        last = max(k for k, a in enumerate(self.answers) if a not in TURN_END_WORDS)
        return self.answers[last], self.answers[:last] + self.answers[last + 1 :]

    def _next_line(self, question: Question) -> tuple[str, bool]:
        """The next answer, replayed or read (echoed when piped in), and whether replayed."""
        if self._replay:
            text = self._replay.popleft()
            print(f"{prompt(question)}{text}  (replayed)")
            return text, True
        try:
            text = input(prompt(question))
        except EOFError:
            print()
            raise LeftTheTable("the input ended (Ctrl-D) before the game did", 1) from None
        if not (sys.stdin and sys.stdin.isatty()):
            print(text)  # piped in: shown, so that the transcript reads as typed
        return text.strip(), False
