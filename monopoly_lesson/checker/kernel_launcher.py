"""Start a submission's kernel under the checker's limits, then become that kernel.

Run as a script (``python -I kernel_launcher.py PARENT MEMORY -- KERNEL COMMAND``) so that it
imports nothing but the standard library: it caps the address space at MEMORY bytes (every
process the kernel starts inherits the cap), turns core dumps off, asks Linux to kill the
kernel if the checker (PARENT) dies, points stdin, stdout and stderr at ``/dev/null`` (the
kernel's output reaches the checker only as Jupyter messages), and execs the kernel (or the
sandbox that starts it, which then lives under the same limits). With ``--pipes`` before
``--`` it keeps stdin and stdout (the graded process answers on them).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys

PR_SET_PDEATHSIG = 1


def limit(memory: int) -> None:
    """Cap this process's address space and turn core dumps off."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def die_with(parent: int) -> None:
    """Be killed when the checker ends (Linux); exit at once if it has already gone."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def silence(keep: tuple[int, ...] = ()) -> None:
    """Send the standard streams but ``keep`` to /dev/null; no other descriptor of the
    checker is kept open."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        if fd not in keep:
            os.dup2(null, fd)
    os.closerange(3, 65536)


def main(argv: list[str]) -> None:
    """``PARENT MEMORY [--pipes] -- COMMAND...``: limit, silence and exec the command."""
    parent, memory, *rest = argv
    pipes = rest[:1] == ["--pipes"]
    separator, *command = rest[1:] if pipes else rest
    if separator != "--" or not command:
        raise SystemExit("usage: kernel_launcher.py PARENT MEMORY [--pipes] -- COMMAND...")
    limit(int(memory))
    die_with(int(parent))
    silence((0, 1) if pipes else ())
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
