"""The machine a benchmark runs on and how busy it is, in one line to print beside figures.

A speed means little without the processor, its cores and the load that other programs put
on it: print ``machine_line()`` before and after the timings, so a reader sees both.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path


def processor_model() -> str:
    """The processor's model name (from ``/proc/cpuinfo`` on Linux), else what ``platform``
    knows of it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown processor"


def machine_line() -> str:
    """The processor, its cores and the load averages now, for example
    ``AMD EPYC, 2 cores, load 1.52 1.10 0.97 (1, 5, 15 min)``."""
    if hasattr(os, "getloadavg"):
        load = "load " + " ".join(f"{value:.2f}" for value in os.getloadavg()) + " (1, 5, 15 min)"
    else:
        load = "load unknown on this system"
    return f"{processor_model()}, {os.cpu_count() or 1} cores, {load}"
