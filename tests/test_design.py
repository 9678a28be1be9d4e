"""The package's shape: no import cycles, short functions, one home for each rule."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "monopoly_lesson"
MODULES = {path.stem: ast.parse(path.read_text()) for path in PACKAGE.glob("*.py")}


def imports_of(tree: ast.Module) -> set[str]:
    """The package modules a module imports, at its top or inside its functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found & set(MODULES)


def test_no_module_imports_one_that_imports_it_back():
    graph = {name: imports_of(tree) for name, tree in MODULES.items()}
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
        for other in imports_of(MODULES[todo.pop()]) - seen:
            seen.add(other)
            todo.append(other)
    return seen


@pytest.mark.parametrize("rules", ["asking", "buying", "money", "buildings", "rent"])
def test_the_game_asks_its_questions_without_the_chromosome_players(rules):
    """Putting a question to a strategy needs no genetic-algorithm player loaded."""
    assert "chromosomes" not in reachable(rules), f"{rules}.py loads chromosomes.py"


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
