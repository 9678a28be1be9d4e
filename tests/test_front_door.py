"""One front door: every name a chapter uses comes from ``monopoly_lesson`` (figures from
``monopoly_lesson.plots``), and both modules' ``__all__`` list exactly what they offer."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
import types
from pathlib import Path

import nbformat
import pytest

import monopoly_lesson
import monopoly_lesson.plots
from monopoly_lesson.game import plots as game_plots

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
FRONT_DOORS = {"monopoly_lesson": monopoly_lesson, "monopoly_lesson.plots": monopoly_lesson.plots}


def package_imports(notebook: Path) -> list[tuple[int, str, list[str]]]:
    """Each import of the package in a notebook's code cells: (cell, module, names)."""
    found = []
    for number, cell in enumerate(nbformat.read(notebook, as_version=4).cells):
        if cell.cell_type != "code":
            continue
        lines = cell.source.splitlines()
        code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("monopoly_"):
                found.append((number, node.module, [alias.name for alias in node.names]))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("monopoly_lesson"):
                        found.append((number, alias.name, []))
    return found


def test_the_chapters_are_found():
    assert len(NOTEBOOKS) >= 13
    assert any(package_imports(notebook) for notebook in NOTEBOOKS)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_a_chapter_imports_only_through_the_front_door(notebook):
    for cell, module, names in package_imports(notebook):
        assert module in FRONT_DOORS, (
            f"cell {cell} imports from {module}: import from monopoly_lesson "
            "(figures from monopoly_lesson.plots)"
        )
        offered = FRONT_DOORS[module].__all__
        missing = [name for name in names if name not in offered]
        assert not missing, f"cell {cell}: {missing} are not in {module}.__all__"


@pytest.mark.parametrize("module", sorted(FRONT_DOORS))
def test_every_listed_name_exists_and_says_what_it_is(module):
    front = FRONT_DOORS[module]
    assert len(set(front.__all__)) == len(front.__all__), "a name is listed twice"
    for name in front.__all__:
        value = getattr(front, name)  # the widgets are imported here, on first use
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{module}.{name} has no docstring"


def test_every_public_name_of_the_package_is_listed():
    """What ``__init__.py`` imports for the reader is in its ``__all__``: nothing hides."""
    source = ast.parse(Path(monopoly_lesson.__file__).read_text())
    imported = {
        alias.asname or alias.name
        for statement in source.body  # at the top, and under ``if TYPE_CHECKING:``
        for node in (statement.body if isinstance(statement, ast.If) else [statement])
        if isinstance(node, ast.ImportFrom) and node.level >= 1
        for alias in node.names
    }
    public = {
        name
        for name, value in vars(monopoly_lesson).items()
        if not isinstance(value, types.ModuleType) and name != "TYPE_CHECKING"
    }
    public = {name for name in imported | public if not name.startswith("_")}
    assert sorted(public - set(monopoly_lesson.__all__)) == []
    assert sorted(set(monopoly_lesson.__all__) - public) == []


def test_every_figure_of_the_whole_game_is_drawn_from_plots():
    figures = {
        name
        for name in game_plots.__all__
        if "Figure" in str(inspect.signature(getattr(game_plots, name)).return_annotation)
    }
    assert {"rounds_histogram", "win_rate_chart", "heat_map"} <= figures
    assert figures <= set(monopoly_lesson.plots.__all__)
    for name in figures:
        assert getattr(monopoly_lesson.plots, name) is getattr(game_plots, name)


def test_the_widgets_are_the_packages_own():
    from monopoly_lesson.game.widget import GameStepper
    from monopoly_lesson.widgets import TurnStepper

    assert monopoly_lesson.TurnStepper is TurnStepper
    assert monopoly_lesson.GameStepper is GameStepper
    assert {"GameStepper", "TurnStepper"} <= set(dir(monopoly_lesson))
    with pytest.raises(AttributeError, match="no attribute 'TurnSteper'"):
        _ = monopoly_lesson.TurnSteper


LOADED_WHEN_USED = (
    "dask",
    "distributed",
    "plotly",
    "ipywidgets",
    "kaleido",
    "numba",
    "scipy",
    "tqdm",
    "monopoly_lesson.game",
    "monopoly_lesson.evolution",
    "monopoly_lesson.rent_value",
    "monopoly_lesson.grading",
    "monopoly_lesson.widgets",
    "monopoly_lesson.plots",
)
"""What ``import monopoly_lesson`` leaves to load when used: figures, widgets, the cluster,
the compiler, and the package's whole game, rent values, genetic algorithm (whose money
tables are read from a file, and whose games are compiled) and grader's checks."""


def loaded_by(code: str) -> list[str]:
    """The modules of :data:`LOADED_WHEN_USED` (or inside them) that ``code`` loads, run in
    a fresh Python."""
    code += (
        "\nimport sys\n"
        f"print(sorted({{n for n in sys.modules for h in {LOADED_WHEN_USED!r} "
        "if n == h or n.startswith(h + '.')}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return ast.literal_eval(done.stdout)


def test_importing_the_package_loads_only_the_movement_lesson():
    """``import monopoly_lesson`` stays quick (every kernel start, command and test worker
    pays it): what a chapter on the movement rules does not need loads when first used."""
    assert loaded_by("import monopoly_lesson") == []


def test_a_name_imported_when_used_is_its_modules_own():
    """Each name of ``_WHEN_USED`` is imported from its module when first used, once, and
    the editors' imports under ``TYPE_CHECKING`` name the same module."""
    lazy = monopoly_lesson._WHEN_USED
    assert set(monopoly_lesson._MODULE_OF) <= set(monopoly_lesson.__all__)
    for module, names in lazy.items():
        for name in names:
            own = getattr(importlib.import_module(module, "monopoly_lesson"), name)
            assert getattr(monopoly_lesson, name) is own, name
    source = ast.parse(Path(monopoly_lesson.__file__).read_text())
    (checking,) = [
        node
        for node in source.body
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
    ]
    named = {
        f".{node.module}": tuple(alias.name for alias in node.names)
        for node in checking.body
        if isinstance(node, ast.ImportFrom)
    }
    assert named == lazy


def test_a_name_used_loads_only_what_it_needs():
    """The whole game loads its own modules, not the genetic algorithm's or the figures'."""
    loaded = loaded_by("from monopoly_lesson import play_monopoly")
    assert "monopoly_lesson.game.engine" in loaded
    assert not [n for n in loaded if n.startswith(("monopoly_lesson.evolution", "plotly"))]
