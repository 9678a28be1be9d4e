"""Play a ``take_turn`` on games the checks chose and report what happened, as plain data.

:func:`~monopoly_lesson.grading.check_take_turn` plays a notebook's take_turn with these in
the notebook's own process (a submission's take_turn is graded elsewhere: see
:mod:`~monopoly_lesson.checker.graded_process`, whose copy of this game set-up a test keeps
equal). A game is built from data (the start, the dice faces or a dice seed, the first cards) with
the ordinary objects a student uses (``Player``, ``SpaceTracker``, ``PresetDice``,
``RandomDice``, ``CardDeck``), so a graded turn looks like any other. Each turn is observed:
the tallies, the token, the jail state, the rolls and cards used and what was narrated.
Nothing here decides whether a turn is right; the checker does, with the reference engine
on its side. The checker asks a submission's kernel its other questions here: the results of
its simulations (which it re-runs with the take_turn in the graded process, not
here) and the values of the variables that hold exercise answers (:func:`values_in`);
chapter 9's strategies are played in the graded process
(:mod:`monopoly_lesson.checker.strategy_probe`).
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import numbers
from collections.abc import Callable

from ..rules import LESSON_RULES, Rules, Seat
from ..starter import PresetDice, RandomDice, tallies
from . import strategy_probe

__all__ = [
    "REFERENCE_NAMES",
    "answer",
    "game_seat",
    "observe",
    "play_game",
    "values_in",
    "with_signature",
]

TEXT_LIMIT = 2000  # characters kept of a turn's narration or an error message
REFERENCE_NAMES = (
    "take_turn",
    "play_turn",
    "play_roll",
    "free_roll",
    "jail_roll",
    "move_and_land",
    "resolve_landing",
    "draw_card",
    "send_to_jail",
    "Seat",
)
"""The reference engine's functions (in ``rules``): a student's take_turn may not call them."""


def game_seat(game: dict, verbose: bool = True, rules: Rules = LESSON_RULES) -> Seat:
    """A seat set up as ``game`` says: start, dice (faces, or a ``dice_seed``), first cards;
    the reference engine plays it under ``rules`` (a student's take_turn plays its own)."""
    seat = Seat.preset(
        dice=game.get("dice") or [],
        start=game.get("start", 1),
        chance_order=game.get("chance_order", ()),
        chest_order=game.get("chest_order", ()),
        seed=game.get("seed", 0),
        verbose=verbose,
        jail_turns=game.get("jail_turns"),
        rules=rules,
    )
    if game.get("dice_seed") is not None:
        seat.dice = RandomDice(game["dice_seed"], verbose=verbose)
    return seat


def observe(seat: Seat, said: str = "") -> dict:
    """What the rules define about a seat now, as JSON-ready data (``rolls`` None: not known)."""
    player, dice = seat.player, seat.dice
    pos = player.pos
    if isinstance(pos, bool) or not isinstance(pos, numbers.Integral):
        pos = repr(pos)[:100]
    jail_turns = player.jail_turns
    return {
        "counts": tallies(seat.tracker),
        "pos": pos if isinstance(pos, str) else int(pos),
        "in_jail": bool(player.in_jail),
        "jail_turns": int(jail_turns) if isinstance(jail_turns, numbers.Integral) else -1,
        "rolls": dice.rolls_used if isinstance(dice, PresetDice) else None,
        "chance": int(seat.chance.draws),  # type: ignore[attr-defined]
        "chest": int(seat.community.draws),  # type: ignore[attr-defined]
        "said": _clip(said),
    }


def play_game(take_turn: Callable[..., None] | None, game: dict) -> dict:
    """Play ``game["turns"]`` turns; every turn observed, and the error that stopped it if any."""
    seat = game_seat(game)
    turns: list[dict] = []
    take_turn = take_turn if take_turn is None else with_signature(take_turn)
    for _ in range(game["turns"]):
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said):
                seat.play(take_turn)
        except Exception as error:  # a student's code may raise anything
            failed = {"type": type(error).__name__, "message": _clip(str(error))}
            return {"turns": turns, "failed": {**failed, "state": observe(seat, said.getvalue())}}
        turns.append(observe(seat, said.getvalue()))
    return {"turns": turns, "failed": None}


def results_in(namespace: dict) -> list[dict]:
    """The simulation results and 40-row results tables among the notebook's variables."""
    from ..simulation import SimulationResult

    found = []
    for name, value in list(namespace.items())[:5000]:
        if name.startswith("_") or len(found) >= 20:
            continue
        if isinstance(value, SimulationResult):
            found.append(
                {
                    "name": name,
                    "kind": "simulation",
                    "counts": _counts(value.counts),
                    "games": value.games,
                    "turns": value.turns,
                    "players": value.players,
                    "seed": value.seed,
                    "engine": value.engine,
                    "rules": _rules_data(value.rules),
                }
            )
        elif _is_table(value):
            by_space = value.sort_values("space")["tally"]  # type: ignore[attr-defined]
            found.append({"name": name, "kind": "table", "counts": _counts(by_space)})
    return found


def answer(request: str, namespace: dict) -> str:
    """Answer one of the checker's requests (JSON) about the notebook's variables, as JSON."""
    asked = json.loads(request)
    kind = asked["kind"]
    if kind == "results":
        return json.dumps(results_in(namespace))
    if kind == "values":
        return json.dumps(values_in(namespace, asked["names"]))
    raise ValueError(f"no such question: {kind!r}")


def values_in(namespace: dict, names: list[str]) -> dict:
    """The values of the variables ``names`` that the notebook defines, as data (see
    :func:`~monopoly_lesson.checker.strategy_probe.encode`); a name it does not define is
    left out."""
    return {name: strategy_probe.encode(namespace[name]) for name in names if name in namespace}


def with_signature(take_turn: Callable[..., None]) -> Callable[..., None]:
    """``take_turn`` behind a function that knows its signature already.

    The engine asks a take_turn's signature (does it take ``rules``?) on every turn; for a
    student's function Python works it out afresh each time, most of a simulation's time.
    """
    try:
        signature = inspect.signature(take_turn)
    except (TypeError, ValueError):
        return take_turn

    def play(*args: object, **kwargs: object) -> None:
        take_turn(*args, **kwargs)

    play.__signature__ = signature  # type: ignore[attr-defined]
    return play


def _counts(series: object) -> list[int]:
    return [int(n) for n in list(series)[:40]]  # type: ignore[call-overload]


def _rules_data(rules: Rules) -> dict:
    return {name: getattr(rules, name) for name in LESSON_RULES.__dataclass_fields__}


def _is_table(value: object) -> bool:
    columns = getattr(value, "columns", ())
    return (
        hasattr(value, "sort_values")
        and {"space", "tally"} <= set(columns)
        and (
            len(value) == 40  # type: ignore[arg-type]
        )
    )


def _clip(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + " [...]"
