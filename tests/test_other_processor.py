"""The stored notebook outputs are the same on another processor.

numpy's OpenBLAS picks its compute kernel by processor, and kernels may differ in a float's
last bits. The notebooks are re-run here under a second kernel (``OPENBLAS_CORETYPE``) and
compared with their stored outputs, as a grader's CI on other hardware would compare them.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SECOND_KERNELS = {
    "x86_64": ("Prescott", "Haswell"),  # SSE3 runs on every x86-64; else AVX2
    "AMD64": ("Prescott", "Haswell"),
    "aarch64": ("ARMV8", "NEOVERSEN1"),
    "arm64": ("ARMV8", "NEOVERSEN1"),
}
"""OpenBLAS kernels to try, by machine: the first that is not the default one is used."""
ARCHITECTURE = (
    "import json, numpy, threadpoolctl; print(json.dumps([i.get('architecture') for i in "
    "threadpoolctl.threadpool_info() if i.get('internal_api') == 'openblas']))"
)


def openblas_kernel(coretype: str | None) -> str | None:
    """The kernel numpy's OpenBLAS runs with ``OPENBLAS_CORETYPE=coretype`` (None: unset)."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    if coretype:
        env["OPENBLAS_CORETYPE"] = coretype
    out = subprocess.run(
        [sys.executable, "-c", ARCHITECTURE], env=env, capture_output=True, text=True, check=True
    )
    kernels = json.loads(out.stdout)
    return kernels[0] if kernels else None


def second_kernel() -> tuple[str, str]:
    """``(OPENBLAS_CORETYPE value, the kernel it gives)``, other than the default kernel."""
    default = openblas_kernel(os.environ.get("OPENBLAS_CORETYPE"))
    if default is None:
        pytest.skip("numpy here does not use OpenBLAS: there is no second kernel to try")
    for coretype in SECOND_KERNELS.get(platform.machine(), ()):
        kernel = openblas_kernel(coretype)
        if kernel and kernel != default:
            return coretype, kernel
    pytest.skip(
        f"no second OpenBLAS kernel can be chosen on {platform.machine()} "
        f"(default {default}; numpy's OpenBLAS may not be built for several)"
    )


def test_a_second_kernel_is_really_chosen():
    coretype, kernel = second_kernel()
    assert openblas_kernel(coretype) == kernel != openblas_kernel(None)


NOTEBOOKS = sorted(
    name
    for name in (
        p.relative_to(ROOT / "notebooks").as_posix() for p in (ROOT / "notebooks").rglob("*.ipynb")
    )
    if not any(part.startswith(".") for part in name.split("/"))
)
"""Every notebook nbval collects under notebooks/ (pytest skips folders named with a dot)."""


PARTS = {
    "chapters 0 to 8": [name for name in NOTEBOOKS if name < "09"],
    "chapters 9 to 12": [name for name in NOTEBOOKS if name >= "09"],
}
"""The notebooks in two runs of about the same length (the capstones are the long ones):
one pytest start each, shared out between pytest-xdist's workers."""


def test_the_parts_hold_every_notebook_once():
    assert sorted(name for part in PARTS.values() for name in part) == NOTEBOOKS
    assert all(PARTS.values())


@pytest.mark.slow
@pytest.mark.parametrize("part", list(PARTS))  # each part its own group (conftest.py)
def test_stored_outputs_under_a_second_openblas_kernel(part):
    coretype, kernel = second_kernel()
    env = {**os.environ, "OPENBLAS_CORETYPE": coretype}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval",
            *(f"notebooks/{notebook}" for notebook in PARTS[part]),
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:hypothesispytest",  # about a second of start-up, for no test of its own
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    tail = "\n".join(run.stdout.splitlines()[-40:])
    assert run.returncode == 0, (
        f"The stored outputs of {part} differ under OpenBLAS kernel {kernel}:\n{tail}"
    )
