"""The machine a benchmark ran on, in one line: its processor, cores and load.

Benchmarks here give ratios against a peer run side by side, because machines differ in
speed from day to day; this line says how busy the machine was while they ran.
"""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import time
from pathlib import Path


def processor() -> str:
    """The processor's model name (from /proc/cpuinfo where there is one)."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def machine_line() -> str:
    """Processor, architecture, cores, Python and the load averages (1, 5, 15 minutes)."""
    load = (
        "load {:.2f} {:.2f} {:.2f} (1, 5, 15 min)".format(*os.getloadavg())
        if hasattr(os, "getloadavg")
        else "load unknown"
    )
    return (
        f"{processor()} ({platform.machine()}), {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {load}"
    )


def timed_process(
    command: list[str], **options: object
) -> tuple[subprocess.CompletedProcess, float, float]:
    """Run ``command`` to its end (its output captured as text; ``options`` go to
    :func:`subprocess.run`): the finished process, its wall time and its CPU time (user and
    system, its children's too), in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, **options)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return done, wall, cpu
