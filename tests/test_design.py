"""The package's shape: no import cycles, short functions, one home for each rule."""

from __future__ import annotations

import ast
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


def imports_of(name: str) -> set[str]:
    """The package modules a module imports, at its top or inside its functions."""
    package = name.split(".")[:-1] if (PACKAGE / f"{name.replace('.', '/')}.py").exists() else []
    if name != "__init__" and (PACKAGE / name.replace(".", "/") / "__init__.py").exists():
        package = name.split(".")
    found = set()
    for node in ast.walk(MODULES[name]):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            base = package[: len(package) - (node.level - 1)]
            module = [*base, *(node.module.split(".") if node.module else [])]
            targets = [module] if node.module else []
            targets += [[*module, alias.name] for alias in node.names]
            found.update(".".join(target) for target in targets)
    return found & set(MODULES)


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
