"""League fitness: each genome scored against several fields, so that evolution looks for a
way to play rather than a best response to one field of players.

A league is a list of fields. A field is ``"self"`` (the population itself, the paper's
relative fitness) or three players, ``"A,B,C"``: built-in strategy names, shipped runs
(``ega_trading``...) or saved genomes (a run folder: the best genome of its last
generation; ``runs/x@50``: of its generation 50). A genome's fitness is the mean over the
fields of its points in ``games_per_player`` games in each.

A hall of fame (every k generations) adds the best genome of generations k, 2k, 3k... to a
hall, which is one field more from then on: in each of its games a genome meets three of
the hall's members, drawn afresh. The hall is read from the run's best genomes, so a
resumed run has it as an unbroken run does.

>>> check_league(["self", "heuristic, always ,heuristic"])
['self', 'heuristic,always,heuristic']
>>> league_fields({"fitness": "vs:always,always,always:num_wins", "league": None})
['always,always,always']
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..checks import check_whole, is_list
from .files import _read_run
from .operators import SEATS, fitness_parts, genome_player

if TYPE_CHECKING:
    from ..game.fast import StrategyCodes

__all__ = [
    "SELF",
    "check_hall_of_fame",
    "check_league",
    "field_codes",
    "field_rng",
    "hall_genomes",
    "league_fields",
    "member_player",
]

SELF = "self"
"""The field that is the population itself (the paper's relative fitness)."""
_EXAMPLE = "e.g. ['self', 'heuristic,always,heuristic', 'ega_trading,always,runs/rga@50']"
_MEMBERS = (
    "a member is a strategy's name (always, heuristic...), a shipped run (ega_trading...) or "
    "a run folder (runs/x: its last generation's best genome; runs/x@50: generation 50's)"
)


def check_league(league: object, pinned: Sequence[str] = ()) -> list[str]:
    """The league checked and written out: each field ``"self"`` or ``"A,B,C"``, each member
    checked (a saved genome read once); a run folder named without a generation is pinned to
    its last one (``runs/x`` -> ``runs/x@50``), or to the generation ``pinned`` (a stored
    league's fields) gives it, so that a run resumed with the same command plays the same
    genomes. A ``ValueError`` or ``TypeError`` says which field is wrong and why."""
    if isinstance(league, (str, bytes)):
        raise TypeError(
            f"league must be a list of fields, got the single string {league!r}: "
            f"write [{league!r}]."
        )
    if not is_list(league):
        raise TypeError(f"league must be a list of fields ({_EXAMPLE}), got {league!r}.")
    if not len(league):  # type: ignore[arg-type]
        raise ValueError(f"league must hold at least one field ({_EXAMPLE}), got none.")
    stored = [str(field).split(",") for field in pinned or ()]
    return [
        _check_field(field, k, stored[k - 1] if k <= len(stored) else [])
        for k, field in enumerate(league, 1)  # type: ignore[arg-type]
    ]


def _check_field(field: object, k: int, pins: Sequence[str]) -> str:
    """Field number ``k`` written out (``"self"`` or ``"A,B,C"``), or a plain error; ``pins``
    are the members the stored run's field ``k`` names."""
    if isinstance(field, str):
        if field.strip().lower() == SELF:
            return SELF
        members = [name.strip() for name in field.split(",")]
    elif is_list(field):
        members = list(field)  # type: ignore[call-overload]
    else:
        raise TypeError(
            f"league field {k} must be 'self' or {SEATS - 1} players as 'A,B,C' (or a list "
            f"of {SEATS - 1} names), got {field!r}."
        )
    if len(members) != SEATS - 1 or not all(isinstance(m, str) and m for m in members):
        raise ValueError(
            f"league field {k} must be 'self' or {SEATS - 1} players, e.g. "
            f"'heuristic,always,heuristic'; got {field!r}."
        )
    if any(m.lower() == SELF for m in members):
        raise ValueError(
            f"league field {k} ({field!r}): 'self' is a field of its own (the population "
            f"itself), not one of a field's players; write it as a field: [..., 'self']."
        )
    pins = list(pins) if len(pins) == len(members) else [""] * len(members)
    return ",".join(_check_member(m, k, pin) for m, pin in zip(members, pins, strict=True))


def _check_member(name: str, k: int, pin: str) -> str:
    """A member written out (a run folder pinned to a generation: ``pin``, the stored run's
    member in its place, if it names the same folder), checked to be playable."""
    if "@" not in name:
        from ..game.fast import strategy_codes

        try:
            strategy_codes([name], f"league field {k}")  # names the field and the choices
            return name
        except ValueError:
            if not Path(name).is_dir():  # not a run folder either: the strategy's error
                raise
    folder, _, at = name.rpartition("@") if "@" in name else (name, "", "")
    stored, mark, _ = pin.rpartition("@")
    if not at and mark and os.path.normpath(stored) == os.path.normpath(folder):
        return pin
    generations = len(_read(folder, k).best)
    if not generations:
        raise ValueError(
            f"league field {k}: {folder} holds no completed generation yet; give a run "
            "with at least one."
        )
    if not at:
        at = str(generations)
    if not at.isdigit() or not 1 <= int(at) <= generations:
        raise ValueError(
            f"league field {k}: {name!r} names generation {at!r} of {folder}, which holds "
            f"generations 1 to {generations}; write {folder}@N with N from 1 to {generations}."
        )
    return f"{folder}@{int(at)}"


def _read(folder: str, k: int) -> Any:
    """The run in ``folder`` (a ValueError that names the field if it holds none)."""
    try:
        return _read_run(folder)
    except (TypeError, ValueError) as error:
        raise ValueError(f"league field {k}: {error} ({_MEMBERS}).") from None


def check_hall_of_fame(every: object, generations: int) -> int:
    """How often the best genome joins the hall of fame (0: no hall), below ``generations``
    (a hall that would fill only after the last generation plays no game)."""
    every = check_whole(every, "hall_of_fame", 0)
    if every and every >= generations:
        raise ValueError(
            f"hall_of_fame must be below generations ({generations}): the best genome of "
            f"every hall_of_fame-th generation joins the hall and plays the generations "
            f"after it; got {every} (0: no hall of fame)."
        )
    return every


def league_fields(parameters: Mapping[str, Any]) -> list[str]:
    """The fields a run's genomes are scored in: its league, else its fitness's own field
    (``"self"`` for the paper's relative fitness)."""
    if parameters.get("league"):
        return list(parameters["league"])
    _, field = fitness_parts(parameters["fitness"])
    return [SELF] if field is None else [",".join(field)]


def member_player(member: str) -> object:
    """A field's member as the fast engine plays it: a strategy's name as it is, a saved
    genome (``folder@generation``) as its chromosome player."""
    folder, at, generation = member.rpartition("@")
    if not at:
        return member
    run = _read_run(folder)
    return genome_player(run.parameters["chromosome"], run.best[int(generation) - 1])


@functools.lru_cache(maxsize=64)
def field_codes(field: str) -> StrategyCodes:
    """The compiled codes of a field's three members (not ``"self"``), read once a process:
    its saved genomes are pinned to a generation, which a run never writes again."""
    from ..game.fast import strategy_codes

    return strategy_codes([member_player(m) for m in field.split(",")], f"the field {field}")


def hall_genomes(best: Sequence[np.ndarray], every: int) -> np.ndarray | None:
    """The hall of fame after ``len(best)`` generations: the best genome of every
    ``every``-th one (None if it is empty or there is no hall)."""
    if not every or len(best) < every:
        return None
    return np.stack(list(best[every - 1 :: every]))


def field_rng(seed: int, generation: int, field: int) -> np.random.Generator:
    """The random numbers of a generation's games in field number ``field`` (from 0): the
    first field draws as a run without a league does (so a league of one field is that
    fitness), each other from its own stream."""
    key = (generation, 0) if field == 0 else (generation, 0, field)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))
