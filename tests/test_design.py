"""The package's shape: no import cycles, arrows that point one way, short functions, one
home for each rule."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "monopoly_lesson"


def dotted(path: Path) -> str:
    """A module's name inside the package: ``rules``, ``game.rent``, ``game`` (its __init__)."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "__init__"


MODULES = {dotted(path): ast.parse(path.read_text()) for path in PACKAGE.rglob("*.py")}
TOP_LEVEL = sorted(path.stem for path in PACKAGE.glob("*.py"))
FOLDERS = sorted(path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists())


NAMED_MODULE = re.compile(r"monopoly_lesson(\.\w+)+")
"""A package module named in a string, as ``importlib.import_module`` takes it."""
IMPORTS_BY_NAME = ("import_module", "__import__")
"""The functions that import a module named in a string."""


def imports_of(name: str) -> set[str]:
    """The package modules a module imports, at its top or inside its functions: by an import
    statement (relative, or from ``monopoly_lesson``), or by its name in a string
    (``importlib.import_module("monopoly_lesson.evolution.shipped")``, ``"..evolution"``)."""
    package = name.split(".")[:-1] if (PACKAGE / f"{name.replace('.', '/')}.py").exists() else []
    if name != "__init__" and (PACKAGE / name.replace(".", "/") / "__init__.py").exists():
        package = name.split(".")
    found = set()
    for node in ast.walk(MODULES[name]):
        targets = []
        if isinstance(node, ast.ImportFrom):
            module = package_module(node.module or "", node.level, package)
            if module is not None:
                targets = [module] if node.module else []
                targets += [[*module, alias.name] for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [package_module(alias.name, 0, package) or [] for alias in node.names]
        elif named := imported_by_name(node):
            level = len(named) - len(named.lstrip("."))
            targets = [package_module(named[level:], level, package) or []]
        elif isinstance(node, ast.Constant) and NAMED_MODULE.fullmatch(str(node.value)):
            targets = [node.value.split(".")[1:]]
        found.update(".".join(target) for target in targets)
    return found & set(MODULES)


def package_module(dotted: str, level: int, package: list[str]) -> list[str] | None:
    """The module ``dotted`` (relative to ``package`` at ``level`` dots, or absolute) as its
    parts inside the package; None if it is not one of the package's."""
    parts = dotted.split(".") if dotted else []
    if level:
        return [*package[: len(package) - (level - 1)], *parts]
    return parts[1:] if parts[:1] == ["monopoly_lesson"] else None


def imported_by_name(node: ast.AST) -> str:
    """The module name ``importlib.import_module("...")`` or ``__import__("...")`` is given
    as a string, else ``""``."""
    if not isinstance(node, ast.Call) or not node.args:
        return ""
    called = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
    first = node.args[0]
    is_name = isinstance(first, ast.Constant) and isinstance(first.value, str)
    return first.value if called in IMPORTS_BY_NAME and is_name else ""


def test_no_module_imports_one_that_imports_it_back():
    graph = {name: imports_of(name) for name in MODULES}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, "import cycle: " + " -> ".join((*path, name))
        if name not in done:
            for other in sorted(graph[name]):
                visit(other, (*path, name))
            done.add(name)

    for name in sorted(graph):
        visit(name, ())


def reachable(name: str) -> set[str]:
    """Every package module that importing ``name`` can load, directly or through others."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for other in imports_of(todo.pop()) - seen:
            seen.add(other)
            todo.append(other)
    return seen


@pytest.mark.parametrize("rules", ["asking", "buying", "money", "buildings", "rent"])
def test_the_game_asks_its_questions_without_the_chromosome_players(rules):
    """Putting a question to a strategy needs no genetic-algorithm player loaded."""
    assert "game.chromosomes" not in reachable(f"game.{rules}"), f"{rules}.py loads chromosomes"


KNOWS_NOTHING_OF = {
    "game": ("evolution", "cli"),
}
"""What the modules of a folder may not load, by any import or through other modules: the
rules and engines (game/) know nothing of what uses them, the genetic algorithm (evolution/)
and the command line. What they need from above comes as data: the shipped evolved players
are files of genes (data/players/), not the genetic algorithm's shipped runs."""


def part_of(module: str, part: str) -> bool:
    """Whether ``module`` is ``part`` (a folder or a top-level module) or inside it."""
    return module == part or module.startswith(f"{part}.")


@pytest.mark.parametrize(
    ("lower", "higher"),
    [(lower, higher) for lower, above in KNOWS_NOTHING_OF.items() for higher in above],
)
def test_the_arrows_point_one_way(lower, higher):
    """No module of ``lower`` imports one of ``higher``, or one that loads it."""
    arrows = [
        f"{name} -> {other}"
        for name in sorted(MODULES)
        if part_of(name, lower)
        for other in sorted(imports_of(name))
        if not part_of(other, lower)
        and (part_of(other, higher) or any(part_of(m, higher) for m in reachable(other)))
    ]
    assert not arrows, f"{lower}/ must not load {higher}: {', '.join(arrows)}"


def test_the_top_level_holds_what_a_student_reads_and_three_folders():
    """The back office lives in subpackages; the top level is the lesson's own modules."""
    assert FOLDERS == ["checker", "evolution", "game"]
    assert len(TOP_LEVEL) <= 22, f"move back-office modules into a folder: {TOP_LEVEL}"
    for student_reads in ("starter", "rules", "simulation", "plots", "widgets", "rent_value"):
        assert student_reads in TOP_LEVEL


def test_every_subpackage_is_reached_only_through_its_modules():
    """A folder's __init__ imports nothing, so importing one of its modules loads only that."""
    for folder in FOLDERS:
        assert not imports_of(folder), f"{folder}/__init__.py imports {imports_of(folder)}"


def code_lines(node: ast.FunctionDef) -> int:
    """A function's body, without its signature and docstring."""
    body = node.body
    if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return node.end_lineno - body[0].lineno + 1


@pytest.mark.parametrize("module", sorted(MODULES))
def test_functions_fit_on_a_screen(module):
    long = {
        node.name: code_lines(node)
        for node in ast.walk(MODULES[module])
        if isinstance(node, ast.FunctionDef) and code_lines(node) > 50
    }
    assert not long, f"split these functions of {module}.py: {long}"


def test_the_landing_procedure_is_written_once():
    """Only rules.py resolves landings; the other engines enumerate it (roll_table.py)."""
    writes_landings = [
        name
        for name, tree in MODULES.items()
        if any(
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and node.id in {"GO_TO_JAIL", "CHANCE_SPACES"}
            for node in ast.walk(tree)
        )
    ]
    assert writes_landings == ["rules"]
