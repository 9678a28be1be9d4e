"""axe-core, the accessibility rules engine, run in a Playwright page: WCAG 2.0 and 2.1, A and AA.

The pinned release of the npm package ``axe-core`` is fetched once from the npm registry,
checked against its published integrity hash, and kept in the user's cache; only its
``axe.min.js`` is used, injected into the page (nothing runs under Node). Without the
registry, and without a cached copy, the tests that need it are skipped, saying why.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import urllib.request
from pathlib import Path

import pytest

AXE_VERSION = "4.14.1"
AXE_TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE_VERSION}.tgz"
AXE_INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37"
    "OgudVGtQ=="
)
"""The npm registry's integrity hash of the tarball (``npm view axe-core@4.14.1 dist``)."""
WCAG_AA = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""The axe rule tags of WCAG 2.0 and 2.1, levels A and AA."""
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "monopoly-lesson"
NO_AXE = f"needs axe-core {AXE_VERSION} from the npm registry (registry.npmjs.org)"
"""The reason given for a test skipped without axe-core."""


def axe_source() -> str:
    """The text of ``axe.min.js``: from the cache, or fetched, checked and cached (else the
    calling test is skipped, saying why)."""
    kept = CACHE / f"axe-core-{AXE_VERSION}.min.js"
    if kept.exists():
        return kept.read_text(encoding="utf-8")
    try:
        with urllib.request.urlopen(AXE_TARBALL, timeout=60) as response:
            tarball = response.read()
    except OSError as error:
        pytest.skip(f"{NO_AXE}: {error}")
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
    if digest != AXE_INTEGRITY:
        raise AssertionError(f"axe-core {AXE_VERSION}: the tarball's hash is not the registry's")
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None, "axe-core's tarball holds package/axe.min.js"
        source = member.read().decode("utf-8")
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(".part")
    partial.write_text(source, encoding="utf-8")
    partial.replace(kept)
    return source


def axe_violations(page, context: str | None = None) -> list[dict]:
    """The WCAG 2.0/2.1 A and AA violations axe finds in ``page`` (within the CSS selector
    ``context``, else the whole document): each with its rule id, impact, help and nodes."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    result = page.evaluate(
        """async ([context, tags]) => {
            const where = context ? {include: [[context]]} : document;
            return await axe.run(where, {runOnly: {type: 'tag', values: tags}});
        }""",
        [context, list(WCAG_AA)],
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]],
        }
        for v in result["violations"]
    ]


def violations_words(violations: list[dict], nodes: int = 3) -> str:
    """The violations in a few lines, for an assertion's message."""
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}; {len(v['nodes'])} element(s), e.g. "
        f"{v['nodes'][:nodes]}"
        for v in violations
    )
