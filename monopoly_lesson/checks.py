"""What every entry point checks, written once: whole numbers, seeds, True or False,
rounds, tallies by space, names, and sizes that must fit in memory before any of it is spent.

One home for each check, so that the starter classes, ``simulate``, ``play_monopoly``,
``play_games``, ``fast_games``, ``evolve`` and the command line refuse the same things with
the same words. (The rules' options are checked by :func:`monopoly_lesson.rules.check_rules`,
a list of strategies by :func:`monopoly_lesson.game.plugins.check_strategies`.)

>>> check_max_rounds(100)
100
>>> check_max_rounds(MAX_ROUNDS + 1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: max_rounds must be from 1 to 10,000 (a game is stopped after at most ...
"""

from __future__ import annotations

import numbers
import os
from pathlib import Path
from types import TracebackType

import numpy as np
import pandas as pd

__all__ = [
    "MAX_ROUNDS",
    "SEED_LIMIT",
    "available_memory",
    "check_fits",
    "check_flag",
    "check_max_rounds",
    "check_seed",
    "check_space_counts",
    "check_whole",
    "damaged_data",
    "describe_bytes",
    "is_list",
    "seed_or_fresh",
]

MAX_ROUNDS = 10_000
"""The most rounds a game may be given: enough for any game people play (the paper stops
at 100), and a bound on the time and memory one game can take."""
SEED_LIMIT = 2**32
"""Seeds are whole numbers from 0 to 2**32 - 1 (the fast engine's generator takes 32
bits; a larger seed would silently wrap)."""
DAMAGED_DATA = (
    "the package's data is damaged: install monopoly-lesson again (or restore "
    "the folder from the package's repository)"
)
"""What to do about a file of the package's data that is missing or damaged."""


class at_the_call:  # lower case: it reads as a statement, with at_the_call(): ...
    """``with at_the_call():`` around a public function's checks of its arguments, at its top:
    a ``TypeError`` or ``ValueError`` they raise is shown from that line of the public
    function, the frames of the checks below it left out. The student's traceback is their
    own line, one line of the package, and the message that names the argument.

    Other kinds of error may be named instead (``at_the_call(StrategyError)``).

    >>> def evolve_like(population):
    ...     with at_the_call():
    ...         check_whole(population, "population", 4)
    >>> evolve_like(2)
    Traceback (most recent call last):
    ...
    ValueError: population must be at least 4, got 2.
    """

    def __init__(self, *kinds: type[BaseException]) -> None:
        self.kinds = kinds or (TypeError, ValueError)

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool:
        if trace is not None and isinstance(error, self.kinds):
            trace.tb_next = None  # the traceback ends at the public function's own line
        return False  # the error goes on, from there


def check_whole(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int, or a plain error: a whole number (from ``low``, to ``high``).

    >>> check_whole(3, "games", 1)
    3
    >>> check_whole(2.0, "games", 1)
    Traceback (most recent call last):
    ...
    TypeError: games must be a whole number, got 2.0.
    """
    if type(value) is int and low is None and high is None:  # the common case, cheap
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be a whole number, got {value!r}.")
    if low is not None and value < low:
        raise ValueError(f"{what} must be at least {low:,}, got {value}.")
    if high is not None and value > high:
        raise ValueError(f"{what} must be at most {high:,}, got {value}.")
    return int(value)


def damaged_data(path: Path, what: str) -> ValueError:
    """The error for a file of the package's data (``monopoly_lesson/data/``) that is missing
    or damaged: the file, what is wrong with it, and how to restore it."""
    return ValueError(f"{path.name} in {path.parent} {what}; {DAMAGED_DATA}.")


def check_flag(value: object, what: str) -> bool:
    """``value`` as a bool if it is True or False (numpy's too); else a TypeError."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be True or False, got {value!r}.")
    return bool(value)


def check_max_rounds(value: object) -> int:
    """``max_rounds`` as an int from 1 to :data:`MAX_ROUNDS`, or a plain error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"max_rounds must be a whole number, got {value!r}.")
    if not 1 <= value <= MAX_ROUNDS:
        raise ValueError(
            f"max_rounds must be from 1 to {MAX_ROUNDS:,} (a game is stopped after at most "
            f"{MAX_ROUNDS:,} rounds), got {value}."
        )
    return int(value)


def check_seed(value: object, what: str = "seed", limit: int | None = SEED_LIMIT) -> int:
    """A seed as an int from 0 to ``limit - 1`` (no limit: any whole number of 0 or more),
    or a plain error (nothing wraps silently)."""
    allowed = "0 or more" if limit is None else f"from 0 to {_power_of_2(limit)} - 1"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be a whole number {allowed}, got {value!r}.")
    if value < 0 or (limit is not None and value >= limit):
        spelt = "" if limit is None else f" ({limit - 1:,})"
        raise ValueError(f"{what} must be {allowed}{spelt}, got {value}.")
    return int(value)


def check_seeds(values: object, what: str = "seeds") -> list[int]:
    """A list of seeds (each as :func:`check_seed` has it), at least one; a single whole
    number is refused with the list it was likely meant to be.

    >>> check_seeds(2)
    Traceback (most recent call last):
    ...
    TypeError: seeds must be a list of whole numbers, for example [2]; got 2.
    """
    example = f"[{values}]" if _is_whole(values) else "[1, 2, 3]"
    if not is_list(values):
        raise TypeError(
            f"{what} must be a list of whole numbers, for example {example}; got {values!r}."
        )
    seeds = list(values)  # type: ignore[call-overload]
    if not seeds:
        raise ValueError(
            f"{what} must hold at least one seed (a whole number from 0 to "
            "2**32 - 1), for example [1]."
        )
    return [check_seed(seed, "each seed") for seed in seeds]


def _is_whole(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_list(value: object) -> bool:
    """Whether ``value`` is a list, a tuple, a range, an array...: values in an order (not
    a string, a set or a dict)."""
    return (
        hasattr(value, "__len__")
        and hasattr(value, "__iter__")
        and not isinstance(value, (str, bytes, set, frozenset, dict))
    )


def check_name(value: object, what: str, known: object, fold_case: bool = True) -> str:
    """``value`` if it is one of the names ``known`` (any case unless ``fold_case=False``;
    returned in the known spelling), else a plain error that lists them.

    >>> check_name("NET_WORTH", "fitness", ["finish_order", "net_worth"])
    'net_worth'
    """
    names = [str(name) for name in known]  # type: ignore[attr-defined]
    allowed = ", ".join(names)
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a name, one of {allowed}; got {value!r}.")
    spelt = {name.lower(): name for name in names} if fold_case else {n: n for n in names}
    name = spelt.get(value.strip().lower() if fold_case else value)
    if name is None:
        raise ValueError(f"{what} must be one of {allowed}, got {value!r}.")
    return name


def _power_of_2(number: int) -> str:
    """``2**32`` for 4294967296: how a limit that is a power of 2 is read."""
    return f"2**{number.bit_length() - 1}" if number & (number - 1) == 0 else f"{number:,}"


def seed_or_fresh(value: object, what: str = "seed", limit: int | None = SEED_LIMIT) -> int:
    """A seed as :func:`check_seed` has it, or for None a fresh one below 2**32 (to be
    recorded with the results, so that the run can be repeated)."""
    if value is None:
        return int(np.random.SeedSequence().entropy % SEED_LIMIT)
    return check_seed(value, what, limit)


def check_space_counts(counts: object, spaces: int, what: str = "counts") -> pd.Series:
    """``counts`` if it is a pandas Series indexed by the board's ``spaces`` (1, 2, ...),
    else a plain error."""
    if not isinstance(counts, pd.Series) or list(counts.index) != list(range(1, spaces + 1)):
        raise ValueError(
            f"{what} must be a pandas Series indexed by the spaces 1..{spaces} (as "
            f"SpaceTracker.counts gives), got {type(counts).__name__}."
        )
    return counts


def available_memory() -> int:
    """The bytes of memory this machine has free now (all of it if that cannot be told)."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except ImportError:  # psutil comes with the lesson; without it, the physical memory
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def describe_bytes(nbytes: float) -> str:
    """A size as people write it: ``'3.2 GB'``, ``'510 MB'``, ``'18 TB'``.

    >>> describe_bytes(3.2e9), describe_bytes(5.1e8), describe_bytes(1.8e13)
    ('3.2 GB', '510 MB', '18 TB')
    """
    if nbytes >= 1e12:
        return f"{nbytes / 1e12:,.0f} TB"
    if nbytes >= 1e9:
        return f"{nbytes / 1e9:.1f} GB"
    return f"{nbytes / 1e6:.0f} MB"


def check_fits(nbytes: float, what: str, advice: str) -> None:
    """Refuse, before any of it is spent, work that needs more memory than is free.

    ``what`` names the work ("a tournament of 100,000,000 games"), ``advice`` says what
    would fit ("at most 3,000,000 games fit"); the ``ValueError`` is one line with both.
    """
    free = available_memory()
    if nbytes > free:
        raise ValueError(
            f"{what} would need about {describe_bytes(nbytes)} of memory and "
            f"{describe_bytes(free)} is free: {advice}."
        )
