"""The processes of one notebook check: started under limits, watched, and all ended.

A check starts the submission's kernel through ``kernel_launcher.py`` (a memory cap, output
to /dev/null, killed with the checker). While it runs the checker is a *child subreaper*
(Linux), so a process the submission detaches (double fork, ``setsid``) is re-parented to
the checker instead of init; when the check ends, for any reason, every process that
appeared under the checker during the check is killed. A watchdog thread enforces the time
limit from outside the kernel: at the deadline it kills them all, whatever they are doing.

Where bubblewrap allows it, the launcher starts the kernel inside a sandbox (see
:mod:`~monopoly_lesson.checker.isolation`): the limits, the watchdog and the killing at the
end apply to it and to everything in it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

__all__ = ["LAUNCHER", "ProcessGuard", "launcher_command", "process_began"]

LAUNCHER = Path(__file__).with_name("kernel_launcher.py")
PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 4, 36, 37


def launcher_command(
    parent: int, memory: int, pipes: bool = False, wrap: Sequence[str] = ()
) -> list[str]:
    """The command that starts a kernel (the rest of the command line) under the limits;
    with ``pipes`` it keeps its stdin and stdout (the graded process answers on them).
    ``wrap`` (a sandbox's command, see :mod:`~monopoly_lesson.checker.isolation`) goes
    between the launcher and the kernel, so the limits apply to the sandbox too."""
    keep = ["--pipes"] if pipes else []
    return [sys.executable, "-I", str(LAUNCHER), str(parent), str(memory), *keep, "--", *wrap]


def process_began() -> float:
    """When this process started, on the ``time.monotonic()`` clock (Linux; elsewhere: now).

    A command's time limit counts from here, so that the seconds spent importing the
    package before the check begins are inside the limit the user gave, not after it.
    """
    now = time.monotonic()
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        ran = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - ran if 0 <= ran < 600 else now


def _prctl(option: int, value: int) -> bool:
    """Call Linux's prctl; False where it is not available."""
    if not sys.platform.startswith("linux"):
        return False
    return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0


def _subreaper() -> int:
    flag = ctypes.c_int(0)
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0)
    return flag.value


class ProcessGuard:
    """Within ``with ProcessGuard(timeout) as guard:``, the check's processes are tracked.

    ``guard.expired`` says whether the watchdog stopped them at the deadline; on leaving
    the block every process started during it (the kernel and all it started) is killed.
    """

    def __init__(self, timeout: float, started: float | None = None) -> None:
        """``started``: when the check began (``time.monotonic()``); the limit counts from it,
        less a moment kept for stopping everything."""
        self.timeout, self.expired = timeout, False
        begun = time.monotonic() if started is None else started
        self.deadline = begun + timeout - min(1.0, timeout / 10)
        self._before: set[tuple[int, float]] = set()
        self._timer = threading.Timer(self.remaining(), self.expire)
        self._timer.daemon = True
        self._was_subreaper = 0

    def __enter__(self) -> ProcessGuard:
        self._was_subreaper = _subreaper()
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
        _prctl(PR_SET_DUMPABLE, 0)  # other processes of this user cannot open our pipes
        self._before = {_key(p) for p in _descendants()}
        self._timer.start()
        return self

    def __exit__(
        self, kind: type | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._timer.cancel()
        self.kill_all()
        _prctl(PR_SET_CHILD_SUBREAPER, self._was_subreaper)
        _prctl(PR_SET_DUMPABLE, 1)

    def remaining(self) -> float:
        """Seconds left before the deadline (0 once it has passed)."""
        return max(0.0, self.deadline - time.monotonic())

    def expire(self) -> None:
        """The deadline: stop every process of the check at once."""
        self.expired = True
        self.kill_all()

    def processes(self) -> list:
        """The processes started during the check that are still there (zombies included)."""
        return [p for p in _descendants() if _key(p) not in self._before]

    def kill_all(self) -> None:
        """Kill every process of the check, again until none is left, and reap them."""
        import psutil

        for _ in range(50):
            found = self.processes()
            if not found:
                return
            for process in found:
                with contextlib.suppress(psutil.Error):
                    process.kill()
            psutil.wait_procs(found, timeout=0.5)


def _descendants() -> list:
    import psutil

    try:
        return psutil.Process().children(recursive=True)
    except psutil.Error:
        return []


def _key(process: object) -> tuple[int, float]:
    import psutil

    try:
        return process.pid, process.create_time()  # type: ignore[attr-defined]
    except psutil.Error:
        return process.pid, 0.0  # type: ignore[attr-defined]
