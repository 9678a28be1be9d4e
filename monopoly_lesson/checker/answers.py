"""Read what a student's kernel answered, strictly: the expected shape, types and sizes.

The kernel runs the student's code, so its answers are data to check, never to trust: an
answer of the wrong shape raises :class:`MalformedAnswer`, and the check it belongs to fails.
"""

from __future__ import annotations

import math

from ..game.strategies import DECISIONS
from .probe import TEXT_LIMIT
from .strategy_probe import BIG
from .strategy_probe import TEXT_LIMIT as STRATEGY_TEXT

__all__ = [
    "MalformedAnswer",
    "read_game",
    "read_results",
    "read_strategy",
    "read_strategy_games",
    "read_tallies",
    "read_values",
]

TURN_KEYS = {"counts", "pos", "in_jail", "jail_turns", "rolls", "chance", "chest", "said"}
MAX_COUNT = 10**12  # no simulation tallies more often than this
RULE_FIELDS = {
    "dice_sides": int,
    "jail": str,
    "chance": str,
    "counting": str,
    "replacement": bool,
    "go_to_jail": bool,
    "cards": bool,
    "doubles": bool,
}


class MalformedAnswer(ValueError):
    """An answer from the kernel that does not have the shape the checker asked for."""


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise MalformedAnswer(what)


def _is_int(value: object, low: int = 0, high: int = MAX_COUNT) -> bool:
    return type(value) is int and low <= value <= high


def _text(value: object, limit: int = TEXT_LIMIT + 10) -> bool:
    return isinstance(value, str) and len(value) <= limit


def read_tallies(value: object) -> list[int]:
    """Forty whole tallies of 0 or more."""
    _require(isinstance(value, list) and len(value) == 40, "tallies are not 40 numbers")
    _require(all(_is_int(n) for n in value), "a tally is not a whole number of 0 or more")  # type: ignore[union-attr]
    return value  # type: ignore[return-value]


def _read_turn(turn: object) -> dict:
    _require(isinstance(turn, dict) and set(turn) == TURN_KEYS, "a turn has the wrong fields")
    read_tallies(turn["counts"])  # type: ignore[index]
    pos, rolls = turn["pos"], turn["rolls"]  # type: ignore[index]
    _require(_is_int(pos, -(10**9), 10**9) or _text(pos, 100), "the token's space is unreadable")
    _require(type(turn["in_jail"]) is bool, "in_jail is not True or False")  # type: ignore[index]
    _require(_is_int(turn["jail_turns"], -1, 10**9), "jail_turns is unreadable")  # type: ignore[index]
    _require(rolls is None or _is_int(rolls), "the rolls are unreadable")
    _require(_is_int(turn["chance"]) and _is_int(turn["chest"]), "the cards drawn are unreadable")  # type: ignore[index]
    _require(_text(turn["said"]), "the narration is too long or not text")  # type: ignore[index]
    return turn  # type: ignore[return-value]


def read_game(answer: object, turns: int) -> tuple[list[dict], dict | None]:
    """The observed turns of a game and the error that stopped it (None if every turn ran)."""
    if isinstance(answer, dict) and set(answer) == {"unanswered"}:
        raise MalformedAnswer(str(answer["unanswered"])[:200])
    _require(
        isinstance(answer, dict) and set(answer) == {"turns", "failed"},
        "the answer is not a game's turns",
    )
    played, failed = answer["turns"], answer["failed"]  # type: ignore[index]
    _require(isinstance(played, list) and len(played) <= turns, "too many turns")
    for turn in played:
        _read_turn(turn)
    if failed is None:
        _require(len(played) == turns, f"{len(played)} of {turns} turns were played")
        return played, None
    _require(
        isinstance(failed, dict) and set(failed) == {"type", "message", "state"},
        "the error is unreadable",
    )
    _require(_text(failed["type"], 200) and _text(failed["message"]), "the error is unreadable")
    _read_turn(failed["state"])
    return played, failed


def _read_run(found: dict) -> None:
    for key in ("games", "turns", "players"):
        _require(_is_int(found.get(key), 1, 10**9), f"the run's {key} are unreadable")
    _require(_is_int(found.get("seed"), 0, 2**63), "the run's seed is unreadable")
    _require(found.get("engine") in ("reference", "fast"), "the run's engine is unreadable")
    rules = found.get("rules")
    _require(
        isinstance(rules, dict)
        and set(rules) == set(RULE_FIELDS)
        and all(type(rules[k]) is kind for k, kind in RULE_FIELDS.items()),  # type: ignore[index]
        "the run's rules are unreadable",
    )


def read_results(answer: object) -> list[dict]:
    """The simulation results and results tables found among the notebook's variables."""
    _require(isinstance(answer, list) and len(answer) <= 20, "not a list of results")
    for found in answer:  # type: ignore[union-attr]
        _require(
            isinstance(found, dict) and _text(found.get("name"), 200), "a result is unreadable"
        )
        _require(found.get("kind") in ("simulation", "table"), "a result is unreadable")
        read_tallies(found["counts"])
        if found["kind"] == "simulation":
            _read_run(found)
    return answer  # type: ignore[return-value]


# -- chapter 9: the student's strategy ---------------------------------------------------

MAX_GAME_ANSWERS = 200_000  # no legal game asks one strategy this many questions
PLACE_KEYS = {"cell", "line"}


def _read_place(place: object) -> None:
    _require(
        place is None
        or (
            isinstance(place, dict)
            and set(place) == PLACE_KEYS
            and _is_int(place["cell"], 0, 10**6)
            and _is_int(place["line"], 0, 10**6)
        ),  # type: ignore[index]
        "a place in the notebook is unreadable",
    )


def read_strategy(answer: object) -> dict:
    """The student's strategy as the kernel found it (``strategy_probe.describe_strategy``)."""
    keys = {"variable", "candidates", "name", "builtin", "error", "where"}
    _require(isinstance(answer, dict) and set(answer) == keys, "not a description of a strategy")
    found: dict = answer  # type: ignore[assignment]
    _require(
        found["variable"] is None or _text(found["variable"], 200), "the variable is unreadable"
    )
    candidates = found["candidates"]
    names = isinstance(candidates, list) and len(candidates) <= 20
    _require(names and all(_text(name, 200) for name in candidates), "unreadable candidates")
    for key in ("name", "builtin", "error"):
        _require(_text(found[key], 400), f"the strategy's {key} is unreadable")
    where = found["where"]
    _require(
        isinstance(where, dict) and set(where) <= set(DECISIONS), "the decisions are unreadable"
    )
    for place in where.values():
        _read_place(place)
    return found


def _read_value(value: object, depth: int = 0, top: bool = False) -> None:
    """An answer as ``strategy_probe.encode`` writes it (or, at the top, an error raised)."""
    if value is None or type(value) in (bool, str, float):
        _require(
            not isinstance(value, str) or len(value) <= STRATEGY_TEXT + 10, "a text is too long"
        )
        _require(not isinstance(value, float) or math.isfinite(value), "a number is unreadable")
        return
    if type(value) is int:
        _require(abs(value) <= BIG, "a whole number is too large")
        return
    _require(
        isinstance(value, dict) and len(value) in (1, 2, 3) and depth <= 4,
        "an answer is unreadable",
    )
    found: dict = value  # type: ignore[assignment]
    if set(found) in ({"tuple"}, {"list"}):
        items = next(iter(found.values()))
        _require(isinstance(items, list) and len(items) <= 10, "an answer is unreadable")
        for item in items:
            _read_value(item, depth + 1)
    elif set(found) == {"trade"}:
        fields = found["trade"]
        _require(isinstance(fields, list) and len(fields) == 4, "a trade is unreadable")
        for item in fields:
            _read_value(item, depth + 1)
    elif set(found) == {"float"}:
        _require(found["float"] in ("nan", "inf", "-inf"), "an answer is unreadable")
    elif set(found) == {"other", "repr"}:
        _require(
            _text(found["other"], 210) and _text(found["repr"], 210), "an answer is unreadable"
        )
    else:
        _require(top and set(found) == {"raised", "place"}, "an answer is unreadable")
        raised = found["raised"]
        _require(
            isinstance(raised, list)
            and len(raised) == 2
            and _text(raised[0], 110)
            and _text(raised[1], 210),
            "an error raised is unreadable",
        )
        _read_place(found["place"])


def read_strategy_games(answer: object, games: list[dict]) -> list[dict]:
    """Per game asked: the strategy's answers in order (``[decision, value]``), the line
    that returned each (None: not known), the finish order and rounds, or the error that
    stopped the game."""
    _require(isinstance(answer, list) and len(answer) == len(games), "not one record per game")
    for record, game in zip(answer, games, strict=True):  # type: ignore[arg-type]
        fields = {"answers", "lines", "finish", "rounds", "error"}
        _require(
            isinstance(record, dict) and set(record) == fields, "a game's record is unreadable"
        )
        answers, lines = record["answers"], record["lines"]
        _require(isinstance(answers, list) and len(answers) <= MAX_GAME_ANSWERS, "too many answers")
        _require(
            isinstance(lines, list)
            and len(lines) == len(answers)
            and all(line is None or _is_int(line, 1, 10**6) for line in lines),
            "the lines of the answers are unreadable",
        )
        for item in answers:
            _require(
                isinstance(item, list) and len(item) == 2 and item[0] in DECISIONS,
                "an answer is not [decision, value]",
            )
            _read_value(item[1], top=True)
        finish, rounds, error = record["finish"], record["rounds"], record["error"]
        players = len(game["seats"])
        if error is None:
            seats = isinstance(finish, list) and all(type(seat) is int for seat in finish)
            _require(seats and sorted(finish) == list(range(1, players + 1)), "unreadable finish")
            _require(_is_int(rounds, 0, 10**6), "the rounds played are unreadable")
        else:
            _require(
                _text(error, 410) and finish is None and rounds is None, "the error is unreadable"
            )
    return answer  # type: ignore[return-value]


# -- chapters 10 to 12: the variables that hold exercise answers -------------------------


def read_values(answer: object, names: list[str]) -> dict:
    """The values of the asked variables that the notebook defines (as encoded answers)."""
    _require(isinstance(answer, dict) and set(answer) <= set(names), "not the values asked for")
    for value in answer.values():  # type: ignore[union-attr]
        _read_value(value)
    return answer  # type: ignore[return-value]
