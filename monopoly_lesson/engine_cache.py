"""The fast engines' compiled code: in numba's cache or not, and compiled by one process at
a time (``python -m monopoly_lesson compile`` compiles them ahead of use).

numba turns each fast engine into machine code the first time it runs and keeps that code
in its cache (beside the package, or in ``NUMBA_CACHE_DIR``); every later process loads it
in a second or two. There are two: the movement engine (chapters 1 to 8; a few seconds to
compile) and the whole-game engine (chapter 9 on; under a minute). ``make lesson``
compiles the movement engine before it opens the lesson, and the whole game in a process
of its own, in the background (:func:`compile_in_background`), while the first chapters
are read.

One process at a time compiles an engine: each engine's first call in a process goes
through :func:`first_call`, which holds a lock in numba's cache folder while the call
compiles it. A process that needs the engine meanwhile (a kernel at chapter 9) waits for
the lock and then loads the engine, showing how long the compile has run and took last
time, rather than compiling it beside it (two compilers would only slow each other down,
and write the same cache files at once). Each compile's time is kept there too, so that
the next one can say how long it should take. Where the operating system has no file
locks (``fcntl``), or the cache folder cannot be written, nothing is locked: numba writes
each cache file whole.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

__all__ = [
    "COMPILING",
    "FAST_ENGINES",
    "LOADING",
    "compile_in_background",
    "engine_cached",
    "engine_ready",
    "engines_cached",
    "engines_ready",
    "expected_seconds",
    "first_call",
]

FAST_ENGINES = {"movement": "the movement engine", "game": "the whole-game engine"}
"""The fast engines, by the names ``python -m monopoly_lesson compile`` takes."""
FIRST_ESTIMATE = {"movement": 5.0, "game": 60.0}
"""About how many seconds an engine takes to compile on one core, said until this machine
has compiled it once (then its own last time is said)."""
COMPILING = "compiling the whole-game engine"
"""What a progress bar says while the fast whole game is compiled (numba's cache lacks it),
followed by how long that should take."""
LOADING = "loading the whole-game engine"
"""What a progress bar says while the fast whole game is loaded from numba's cache (a
second)."""
_held_here = threading.local()
"""The engines whose compile lock this thread holds."""


def engines_ready(movement: bool = True) -> bool:
    """Whether this process has the fast whole game's machine code already (compiled
    or loaded from numba's cache), and the fast movement engine's unless ``movement=False``.
    With numba's compiling switched off (``NUMBA_DISABLE_JIT=1``) they are plain Python,
    always ready."""
    return all(engine_ready(engine) for engine in _engines(movement))


def engines_cached(movement: bool = True) -> bool:
    """Whether numba's cache holds the fast whole game's machine code (and the movement
    engine's unless ``movement=False``) for this machine and this version of its source, so
    that a new process loads it in a second instead of compiling it.

    numba's own cache index is read (the key it would look up: the machine's, the source's
    and the numba version's); a cache that cannot be read counts as not holding them.
    """
    return all(engine_cached(engine) for engine in _engines(movement))


@contextmanager
def first_call(engine: str, progress: bool = True) -> Iterator[None]:
    """Around a call of ``engine`` ("movement" or "game"), its first in this process: if
    numba's cache lacks the engine, the call compiles it holding its lock, with a progress
    bar of seconds (``progress=False``: silently), and the time it took is kept; if another
    process is compiling it, the call waits for that one first (saying so), then loads it.
    Once the engine is ready in this process, nothing is done."""
    held = _held_here.__dict__.setdefault("engines", set())
    if engine_ready(engine) or engine in held:  # (held: a first call within a first call)
        yield
        return
    with _compile_lock(engine, progress) as lock:
        if not engine_cached(engine):
            held.add(engine)
            try:
                yield from _compiling(engine, lock, progress)
            finally:
                held.discard(engine)
            return
    yield  # numba loads it from its cache as the call begins


def _compiling(engine: str, lock: IO[str] | None, progress: bool) -> Iterator[None]:
    """:func:`first_call`'s call, compiling ``engine`` (its lock held): shown, and timed."""
    started = _mark_start(lock)
    expected, words = expected_seconds(engine)
    title = f"Compiling {FAST_ENGINES[engine]}, once ({words})"
    with _seconds_bar(title, expected, started, progress) as bar:
        yield
        seconds = time.time() - started
        bar(f"Compiled {FAST_ENGINES[engine]} in {seconds:.0f} s")
    with suppress(AttributeError, OSError):  # no cache folder, or a read-only one
        _cache_file(engine, ".seconds").write_text(f"{seconds:.1f}\n")


def expected_seconds(engine: str) -> tuple[float, str]:
    """How long ``engine`` should take to compile, in seconds, and in words: this machine's
    last time, or a first estimate."""
    last = _last_seconds(engine)
    if last is None:
        seconds = FIRST_ESTIMATE[engine]
        return seconds, f"about {seconds:.0f} s the first time"
    return last, f"{last:.0f} s last time"


def compile_in_background(engine: str) -> str:
    """Start a process of its own that compiles ``engine`` (at a lower priority, its output
    in a log file beside numba's cache), unless numba's cache holds it or another process is
    compiling it; what was done, in a sentence. A process that needs the engine meanwhile
    waits for it (:func:`first_call`)."""
    title = FAST_ENGINES[engine]
    if not hasattr(_loop(engine), "_cache"):  # NUMBA_DISABLE_JIT=1: plain Python
        return f"{title.capitalize()} is not compiled: numba's compiling is switched off."
    if engine_cached(engine):
        return f"{title.capitalize()} is compiled (numba's cache holds it)."
    if _being_compiled(engine):
        return f"{title.capitalize()} is being compiled by another process already."
    log = _cache_file(engine, ".log")
    with open(log, "w") as out:
        subprocess.Popen(
            [sys.executable, "-m", "monopoly_lesson", "compile", engine],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # not stopped with the command that started it
            preexec_fn=_lower_priority if os.name == "posix" else None,
        )
    return (
        f"Compiling {title} in the background ({expected_seconds(engine)[1]}); a kernel "
        f"that needs it sooner waits for it. Its log: {log}"
    )


# ---------------------------------------------------------------------------
# The engines' compiled functions and numba's cache
# ---------------------------------------------------------------------------


def _engines(movement: bool) -> tuple[str, ...]:
    """The whole game's name, after the movement engine's unless ``movement=False``."""
    return ("movement", "game") if movement else ("game",)


def _loop(engine: str) -> Any:
    """The engine's outer compiled function (numba compiles the others for it)."""
    if engine == "movement":
        from .fast_loop import play_games

        return play_games
    if engine == "game":
        from .game.fast_loop import play_many

        return play_many
    raise ValueError(f"engine must be one of {', '.join(map(repr, FAST_ENGINES))}, got {engine!r}.")


def engine_ready(engine: str) -> bool:
    """Whether this process has compiled or loaded ``engine`` ("movement" or "game"); with
    numba's compiling switched off it is plain Python, always ready."""
    return bool(getattr(_loop(engine), "signatures", True))


def engine_cached(engine: str) -> bool:
    """Whether numba's cache holds ``engine`` ("movement" or "game") for this machine and
    this version of its source (see :func:`engines_cached`)."""
    try:
        return _in_cache(_loop(engine))
    except Exception:  # numba's cache read through its internals: unknown counts as not held
        return False


def _in_cache(loop: Any) -> bool:
    """Whether numba's cache index holds ``loop`` compiled for this machine and source."""
    cache = loop._cache
    if not hasattr(cache, "_cache_file"):  # caching off: numba's NullCache
        return False
    wanted = cache._index_key(None, loop.targetctx.codegen())[1:]  # all but the signature
    return any(key[1:] == wanted for key in cache._cache_file._load_index())


def _cache_file(engine: str, suffix: str) -> Path:
    """The engine's own file in numba's cache folder (its lock, last time, log)."""
    folder = Path(_loop(engine)._cache._cache_path)
    return folder / f"{engine}-engine{suffix}"


def _last_seconds(engine: str) -> float | None:
    """How long the last compile of ``engine`` on this machine took, if one was timed."""
    try:
        return float(_cache_file(engine, ".seconds").read_text())
    except (AttributeError, OSError, ValueError):  # never timed, or no cache folder
        return None


def _mark_start(lock: IO[str] | None) -> float:
    """Now, written in the lock file for a process that waits meanwhile: since when."""
    started = time.time()
    if lock is not None:
        lock.seek(0)
        lock.truncate()
        lock.write(f"{started}\n")
        lock.flush()
    return started


# ---------------------------------------------------------------------------
# The lock, and the wait
# ---------------------------------------------------------------------------


@contextmanager
def _compile_lock(engine: str, progress: bool) -> Iterator[IO[str] | None]:
    """Hold ``engine``'s compile lock (waiting, with a progress bar, while another process
    holds it); yields the lock file, or None where nothing can be locked."""
    try:  # (closed below, after the yield)
        handle = open(_cache_file(engine, ".lock"), "a+")  # noqa: SIM115
    except (AttributeError, OSError):  # no cache folder, or one this process cannot write
        handle = None
    if handle is None:
        yield None
        return
    with handle:  # closing the file lets go of the lock, even if this process is killed
        if not _try_lock(handle):
            _wait_for_lock(engine, handle, progress)
        yield handle


def _try_lock(handle: IO[str]) -> bool:
    """Take the lock on ``handle`` if no other process holds it (True where there are no
    file locks)."""
    try:
        import fcntl
    except ImportError:  # Windows: no locks (numba still writes each cache file whole)
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _being_compiled(engine: str) -> bool:
    """Whether another process holds ``engine``'s compile lock now."""
    try:
        with open(_cache_file(engine, ".lock"), "a+") as handle:
            return not _try_lock(handle)
    except (AttributeError, OSError):
        return False


def _wait_for_lock(engine: str, handle: IO[str], progress: bool) -> None:
    """Wait until the process compiling ``engine`` lets go of its lock, then take it; the
    progress bar counts the seconds since that process began."""
    try:
        handle.seek(0)
        began = float(handle.read().split()[0])
    except (IndexError, ValueError):  # it has not written when it began yet
        began = time.time()
    expected, words = expected_seconds(engine)
    title = f"Waiting for {FAST_ENGINES[engine]}, compiled by another process ({words})"
    with _seconds_bar(title, expected, began, progress) as bar:
        while not _try_lock(handle):
            time.sleep(0.2)
        bar(f"{FAST_ENGINES[engine].capitalize()} compiled by another process")


@contextmanager
def _seconds_bar(title: str, expected: float, since: float, progress: bool) -> Iterator[Any]:
    """A progress bar of the seconds since ``since`` out of about ``expected``, moved by a
    thread of its own while the caller works; yields a function that sets its last words.
    Without ``progress``, nothing is shown."""
    if not progress:
        yield lambda words: None
        return
    from tqdm.auto import tqdm

    bar = tqdm(
        total=max(1, round(expected)),
        desc=title,
        bar_format="{desc}: {bar} {n:.0f} of about {total:.0f} s",
    )
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(0.25):
            seconds = round(time.time() - since)
            if seconds != bar.n:  # a second more
                bar.total, bar.n = max(bar.total, seconds), seconds
                bar.refresh()

    ticker = threading.Thread(target=tick, name="compile progress", daemon=True)
    ticker.start()
    last = [title]
    try:
        yield lambda words: last.__setitem__(0, words)
    finally:
        stop.set()
        ticker.join()
        bar.n = bar.total = max(1, round(time.time() - since))
        bar.bar_format = "{desc}"
        bar.set_description_str(last[0], refresh=False)
        bar.close()


def _lower_priority() -> None:  # pragma: no cover  (runs in the child, before it starts)
    """A background compile yields the processor to the lesson's own work."""
    os.nice(10)
