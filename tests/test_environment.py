"""pyproject.toml (pip) and environment.yml (conda) must list the same dependencies.

Packages that conda-forge does not carry are in environment.yml's ``pip:`` list."""

from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
CONDA_NAMES = {"python-kaleido": "kaleido"}  # conda-forge name -> PyPI name


def pip_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = list(project["dependencies"])
    for extra in ("lesson", "handouts", "student", "dev"):
        lines += project["optional-dependencies"][extra]
    return {Requirement(line).name.lower(): str(Requirement(line).specifier) for line in lines}


def conda_requirements() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    specs = {}
    pip_section = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    for item in env["dependencies"] + [line for lines in pip_section for line in lines]:
        if (
            not isinstance(item, str)
            or item in ("pip", "python", "-e .")
            or item.startswith("python>")
        ):
            continue
        requirement = Requirement(item)
        name = CONDA_NAMES.get(requirement.name.lower(), requirement.name.lower())
        specs[name] = str(requirement.specifier)
    return specs


def test_same_packages():
    assert sorted(conda_requirements()) == sorted(pip_requirements())


@pytest.mark.parametrize("name", sorted(pip_requirements()))
def test_same_ranges(name):
    assert conda_requirements().get(name) == pip_requirements()[name], (
        f"{name}: environment.yml and pyproject.toml pin different ranges"
    )


def test_every_range_is_bounded():
    """Compatible ranges: a lower bound and an upper bound for every dependency."""
    for name, spec in pip_requirements().items():
        assert ">=" in spec and "<" in spec.replace("<=", ""), f"{name} is not pinned: {spec!r}"


def test_python_versions_agree():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert f"python{project['requires-python']}" in env["dependencies"]
