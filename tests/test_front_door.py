"""One front door: every name a chapter uses comes from ``monopoly_lesson`` (figures from
``monopoly_lesson.plots``), and both modules' ``__all__`` list exactly what they offer."""

from __future__ import annotations

import ast
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


def test_importing_the_package_loads_no_figures_widgets_or_cluster():
    """``import monopoly_lesson`` stays quick: plotly, ipywidgets and Dask load when used."""
    heavy = ("dask", "distributed", "plotly", "ipywidgets", "kaleido")
    code = (
        "import sys, monopoly_lesson\n"
        f"print(sorted(name for name in {heavy!r} if name in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "[]"
