"""What a submitted notebook's code does, read without running it (Python's ``ast``).

The checker uses it for two findings that no answer from the kernel can hide: a final
``take_turn`` that is the package's reference engine or calls it, and code that changes the
package's own functions, the libraries its randomness comes from (numpy, Python's random,
pandas: ``np.random.seed = ...``), or how the kernel runs code (input transformers and
other hooks). It also tells which variables hold results of the student's own simulation.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .probe import REFERENCE_NAMES

__all__ = ["SubmissionCode", "does_nothing", "read_code"]

PACKAGE = "monopoly_lesson"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
PACKAGE_MODULES = {
    ".".join((PACKAGE, *path.relative_to(PACKAGE_ROOT).with_suffix("").parts)).removesuffix(
        ".__init__"
    )
    for path in PACKAGE_ROOT.rglob("*.py")
}
"""Every module and subpackage of the package, dotted (``monopoly_lesson.game.rent``)."""
TALLY_MAKERS = {
    "fast_tallies",
    "fast_game_tallies",
    "expected_tallies",
    "expected_frequencies",
    "stationary",
    "turn_tallies",
    "play_preset",
    "play_game",
}
LIBRARIES = ("numpy", "random", "pandas")
"""The libraries the lesson's randomness comes from (dice, decks, shuffles, samples): a
notebook that changes what is in them changes what the checker's games deal out."""
LIBRARY_SETTINGS = ("pandas.options",)
"""What of those libraries a notebook may set: pandas' display options
(``pd.options.display.max_rows = 20``)."""
KERNEL_HOOKS = {
    "input_transformers_cleanup",
    "input_transformers_post",
    "ast_transformers",
    "input_transformer_manager",
    "register_magic_function",
    "set_custom_exc",
    "user_expressions",
    "display_formatter",
    "shell_handlers",
    "settrace",
    "setprofile",
    "run_cell",
    "transform_cell",
}


@dataclass
class SubmissionCode:
    """The notebook's code, cell by cell, and what its top-level names are bound to.

    ``names`` maps a name to ``ref:NAME`` (the reference engine), ``module:DOTTED`` or
    ``package:NAME`` (the package), ``own`` (defined here), ``result:own`` or
    ``result:package`` (a simulation by the student's take_turn or by the package's engine);
    ``imported`` a name imported from the package to what it imports
    (``monopoly_lesson.game.rent``), whatever the name it is given; ``libraries`` a name
    bound to one of :data:`LIBRARIES` or something in it to its dotted name (``np`` to
    ``numpy``, ``npr`` to ``numpy.random``).
    """

    cells: list[tuple[int, ast.Module]]
    names: dict[str, str] = field(default_factory=dict)
    imported: dict[str, str] = field(default_factory=dict)
    libraries: dict[str, str] = field(default_factory=dict)
    functions: dict[str, ast.AST] = field(default_factory=dict)
    where: dict[str, int] = field(default_factory=dict)

    def reference_use(self) -> str | None:
        """Why the final ``take_turn`` is the reference engine or calls it (None if it is not)."""
        kind = self.names.get("take_turn", "")
        if kind.startswith("ref:") or kind.startswith("package:"):
            return f"cell {self.where['take_turn']} makes take_turn the package's {kind[4:]}"
        for name, node in self._reachable("take_turn"):
            for used in _loads(node):
                found = self._resolve(used, _local_names(node))
                if found and found.startswith("ref:"):
                    via = "" if name == "take_turn" else f" through {name}"
                    cell = self.where.get(name, "?")
                    return f"take_turn calls the package's {found[4:]}{via} (cell {cell})"
        return None

    def tampering(self) -> list[str]:
        """Each place where the code changes the package's code, the code of the libraries the
        lesson's randomness comes from (:data:`LIBRARIES`), or how the kernel runs code."""
        found = []
        for number, tree in self.cells:
            for node in ast.walk(tree):
                what = self._tampers(node)
                if what:
                    found.append(f"cell {number} {what}")
        return sorted(set(found), key=found.index)

    def own_results(self) -> set[str]:
        """The variables that hold results of a simulation played with the student's take_turn."""
        return {name for name, kind in self.names.items() if kind == "result:own"}

    def _tampers(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Attribute) and node.attr in KERNEL_HOOKS:
            return f"changes how the kernel runs code ({ast.unparse(node)[:80]})"
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "register"
            and (isinstance(node.value, ast.Attribute) and node.value.attr == "events")
        ):
            return f"hooks into the kernel's events ({ast.unparse(node)[:80]})"
        for container, attribute, name in _changed(node):
            if attribute and self._resolve(container, set()):
                return f"changes the package's own code ({self.package_name(container, name)})"
            if _is_system(container):
                return f"changes the package's or Python's own code ({ast.unparse(container)[:80]})"
            changed = self.library_changed(container, attribute, name)
            if changed:
                return f"changes a library's own code ({changed})"
        return None

    def library_changed(self, container: ast.expr, attribute: bool, name: str | None) -> str:
        """The dotted name (``numpy.random.seed``) of what in :data:`LIBRARIES` a change to
        ``container`` sets or deletes: its attribute ``name``, or, for an item of its
        ``__dict__`` (``vars(np.random)["seed"]``), the item; '' when it is not theirs, or is
        one of their :data:`LIBRARY_SETTINGS`."""
        if not attribute:  # an item: of a library's namespace only
            if isinstance(container, ast.Attribute) and container.attr == "__dict__":
                container = container.value
            elif (
                isinstance(container, ast.Call)
                and isinstance(container.func, ast.Name)
                and container.func.id == "vars"
                and len(container.args) == 1
            ):
                container = container.args[0]
            else:
                return ""
        base = self.library(container)
        if base is None:
            return ""
        dotted = f"{base}.{name}" if name else base
        allowed = any(f"{dotted}.".startswith(f"{setting}.") for setting in LIBRARY_SETTINGS)
        return "" if allowed else dotted

    def library(self, node: ast.AST) -> str | None:
        """The dotted name of the module of :data:`LIBRARIES` (or what is in it) that ``node``
        refers to: a name the notebook bound to it, an attribute of one, ``sys.modules["x"]``,
        ``importlib.import_module("x")`` or ``__import__("x")``; None if it is not one."""
        if isinstance(node, ast.Name):
            return self.libraries.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.library(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Subscript):
            modules = isinstance(node.value, ast.Attribute) and _is_system(node.value)
            return _library_named(node.slice) if modules else None
        if isinstance(node, ast.Call) and node.args:
            called = node.func.attr if isinstance(node.func, ast.Attribute) else None
            called = node.func.id if isinstance(node.func, ast.Name) else called
            named = _library_named(node.args[0])
            if called == "import_module":
                return named
            if called == "__import__" and named:  # the top module, unless a fromlist is given
                fromlist = len(node.args) > 3 or any(k.arg == "fromlist" for k in node.keywords)
                return named if fromlist else named.split(".")[0]
        return None

    def package_name(self, node: ast.expr, attribute: str | None = None) -> str:
        """The package's own name of what ``node`` (and its ``attribute``) refers to, for
        example ``monopoly_lesson.game.rent.rent_due`` for ``_rent.rent_due``: the names the
        notebook gave are aliases."""
        dotted = self._dotted(node)
        if dotted is None:
            return ast.unparse(node)[:80]
        return ".".join([_home(dotted), *([attribute] if attribute else [])])

    def _dotted(self, node: ast.expr) -> str | None:
        """The dotted path of the package object a name or attribute chain refers to."""
        if isinstance(node, ast.Name):
            return self.imported.get(node.id) if node.id in self.names else None
        if isinstance(node, ast.Attribute):
            base = self._dotted(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _resolve(self, node: ast.AST, local: set[str]) -> str | None:
        """What a name or an attribute chain refers to, if it is the package's."""
        if isinstance(node, ast.Name):
            kind = None if node.id in local else self.names.get(node.id)
            return kind if kind and kind.split(":")[0] in ("ref", "module", "package") else None
        if not isinstance(node, ast.Attribute):
            return None
        base = self._resolve(node.value, local)
        if not base or not base.startswith("module:"):
            return None
        return _member(base[7:], node.attr)

    def _reachable(self, start: str) -> Iterator[tuple[str, ast.AST]]:
        """``start``'s function and the notebook's functions it calls, directly or not."""
        todo, seen = [start], set()
        while todo:
            name = todo.pop()
            if name in seen or name not in self.functions:
                continue
            seen.add(name)
            node = self.functions[name]
            yield name, node
            todo += [used.id for used in _loads(node) if isinstance(used, ast.Name)]


def read_code(sources: list[tuple[int, str]]) -> SubmissionCode:
    """Parse each code cell (``%magics`` turned into Python first) and bind the names."""
    from IPython.core.inputtransformer2 import TransformerManager

    transform = TransformerManager().transform_cell
    cells = []
    for number, source in sources:
        try:
            cells.append((number, ast.parse(transform(source))))
        except (SyntaxError, ValueError):
            continue  # a cell that cannot run defines nothing
    code = SubmissionCode(cells)
    for number, tree in cells:
        for statement in _top_level(tree.body):
            _bind(code, statement, number)
            _bind_library(code, statement)
    return code


def does_nothing(function: ast.AST | None) -> bool:
    """Whether ``function`` (a ``def`` or a ``lambda``) does nothing at all: a placeholder,
    whether as handed out or edited. Its body is only ``pass``, ``...``, texts (a docstring,
    say), ``return`` or ``return None``, and ``raise`` of any error."""
    if isinstance(function, ast.Lambda):
        return isinstance(function.body, ast.Constant) and function.body.value in (None, ...)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    return not function.decorator_list and all(map(_empty_statement, function.body))


def _empty_statement(statement: ast.stmt) -> bool:
    """``pass``, a constant on its own (``...``, a text), ``return [None]`` or any ``raise``."""
    if isinstance(statement, (ast.Pass, ast.Raise)):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant)
    return isinstance(statement, ast.Return) and (
        statement.value is None or _is_none(statement.value)
    )


def _library_named(node: ast.expr) -> str | None:
    """The module a text names (``"numpy.random"``), if it is of :data:`LIBRARIES`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if node.value.split(".")[0] in LIBRARIES else None
    return None


def _bind_library(code: SubmissionCode, statement: ast.stmt) -> None:
    """Record the names a top-level statement binds to :data:`LIBRARIES` or what is in them
    (``import numpy as np``, ``from numpy import random``, ``rnd = np.random``); any other
    binding of a name forgets it."""
    found: dict[str, str | None] = {}
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            top = alias.name.split(".")[0]
            name, dotted = (alias.asname, alias.name) if alias.asname else (top, top)
            found[name] = dotted if top in LIBRARIES else None
    elif isinstance(statement, ast.ImportFrom):
        module = statement.module if not statement.level else None
        for alias in statement.names:
            theirs = module is not None and module.split(".")[0] in LIBRARIES
            found[alias.asname or alias.name] = f"{module}.{alias.name}" if theirs else None
    elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        found[statement.name] = None
    elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        value = code.library(statement.value)
        found.update({t.id: value for t in targets if isinstance(t, ast.Name)})
    for name, dotted in found.items():
        if dotted is None or name == "*":
            code.libraries.pop(name, None)
        else:
            code.libraries[name] = dotted


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run at a cell's top level, inside ``if``, ``try``, ``with``, ``for`` too."""
    for statement in body:
        yield statement
        for name in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(statement, name, None)
            if isinstance(inner, list) and not isinstance(
                statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            ):
                handlers = [s for h in inner if isinstance(h, ast.ExceptHandler) for s in h.body]
                yield from _top_level([s for s in inner if isinstance(s, ast.stmt)] + handlers)


def _bind(code: SubmissionCode, statement: ast.stmt, number: int) -> None:
    """Record what the names a top-level statement binds refer to."""
    bound: dict[str, str] = {}
    imported: dict[str, str] = {}
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            if alias.name.split(".")[0] == PACKAGE:
                module = alias.name if alias.asname else PACKAGE
                bound[alias.asname or PACKAGE], imported[alias.asname or PACKAGE] = (
                    f"module:{module}",
                    module,
                )
    elif isinstance(statement, ast.ImportFrom) and (statement.module or "").startswith(PACKAGE):
        for alias in statement.names:
            names = ["take_turn", "Seat", "simulate"] if alias.name == "*" else [alias.name]
            for name in names:
                bound[alias.asname or name] = _member(statement.module or PACKAGE, name)
                imported[alias.asname or name] = f"{statement.module or PACKAGE}.{name}"
    elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        bound[statement.name] = "own"
        code.functions[statement.name] = statement
    elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        for target in targets:
            if isinstance(target, ast.Name):
                bound[target.id] = _value_kind(code, statement.value)
                _alias_function(code, target.id, statement.value)
    for name, kind in bound.items():
        code.names[name], code.where[name] = kind, number
        if name in imported:
            code.imported[name] = imported[name]
        else:
            code.imported.pop(name, None)
        if kind != "own":
            code.functions.pop(name, None)


def _alias_function(code: SubmissionCode, name: str, value: ast.expr) -> None:
    if isinstance(value, ast.Lambda):
        code.functions[name] = value
    elif isinstance(value, ast.Name) and value.id in code.functions:
        code.functions[name] = code.functions[value.id]


def _value_kind(code: SubmissionCode, value: ast.expr) -> str:
    """What an assigned value is: a package object, a simulation's results, or the student's."""
    alias = code._resolve(value, set())
    if alias:
        return alias
    kinds = set()
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            called = code._resolve(node.func, set()) or ""
            if called.endswith("simulate"):
                by_student = any(
                    k.arg == "take_turn" and not _is_none(k.value) for k in node.keywords
                )
                kinds.add("result:own" if by_student else "result:package")
            elif called.split(".")[-1].split(":")[-1] in TALLY_MAKERS:
                kinds.add("result:package")
        elif isinstance(node, ast.Name) and code.names.get(node.id, "").startswith("result:"):
            kinds.add(code.names[node.id])
    if "result:package" in kinds:
        return "result:package"
    return "result:own" if kinds else "own"


def _member(module: str, name: str) -> str:
    if name in REFERENCE_NAMES:
        return f"ref:{name}"
    if f"{module}.{name}" in PACKAGE_MODULES:
        return f"module:{module}.{name}"
    return f"package:{name}"


def _loads(node: ast.AST) -> Iterator[ast.expr]:
    """The names and attribute chains a function's body reads."""
    for inner in ast.walk(node):
        if isinstance(inner, (ast.Name, ast.Attribute)) and isinstance(inner.ctx, ast.Load):
            yield inner


def _local_names(node: ast.AST) -> set[str]:
    """A function's parameters and the names it assigns (they hide the notebook's names)."""
    names = {arg.arg for arg in ast.walk(node) if isinstance(arg, ast.arg)}
    stored = [n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    return names | {n.id for n in stored}


def _changed(node: ast.AST) -> list[tuple[ast.expr, bool, str | None]]:
    """What a statement changes: (object, True, the attribute's name if known) for an
    attribute set, deleted or ``setattr``, (object, False, the key if a text) for an item set
    or deleted; in a tuple of targets (``a, np.random.seed = ...``) each one."""
    if isinstance(node, (ast.Assign, ast.Delete)):
        targets = list(_unpacked(node.targets))
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.args
        and (node.func.id in ("setattr", "delattr"))
    ):
        named = node.args[1] if len(node.args) > 1 else None
        text = named.value if isinstance(named, ast.Constant) else None
        return [(node.args[0], True, text if isinstance(text, str) else None)]
    else:
        return []
    return [
        (
            target.value,
            isinstance(target, ast.Attribute),
            target.attr if isinstance(target, ast.Attribute) else _text(target.slice),
        )
        for target in targets
        if isinstance(target, (ast.Attribute, ast.Subscript))
    ]


def _unpacked(targets: list[ast.expr]) -> Iterator[ast.expr]:
    """Each target of an assignment, those inside tuples and lists (and starred) too."""
    for target in targets:
        if isinstance(target, ast.Starred):
            target = target.value
        if isinstance(target, (ast.Tuple, ast.List)):
            yield from _unpacked(target.elts)
        else:
            yield target


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _home(dotted: str) -> str:
    """Where the package object at ``dotted`` is defined (``monopoly_lesson.rent_due`` is
    ``monopoly_lesson.game.rent.rent_due``); ``dotted`` itself if it cannot be looked up."""
    if dotted in PACKAGE_MODULES:
        return dotted
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        if module not in PACKAGE_MODULES:
            continue
        try:
            found: object = importlib.import_module(module)
            for part in parts[cut:]:
                found = getattr(found, part)
        except Exception:  # not there (a name the package does not have): as written
            return dotted
        if isinstance(found, type(importlib)):
            return found.__name__
        home, name = getattr(found, "__module__", None), getattr(found, "__qualname__", None)
        if isinstance(home, str) and home.startswith(PACKAGE) and isinstance(name, str):
            return f"{home}.{name}"
        return dotted
    return dotted


def _is_system(node: ast.expr) -> bool:
    """``sys.modules``, ``builtins`` and ``__builtins__``: changing them changes Python itself."""
    if isinstance(node, ast.Name):
        return node.id in ("builtins", "__builtins__")
    return (
        isinstance(node, ast.Attribute)
        and node.attr in ("modules", "meta_path")
        and (isinstance(node.value, ast.Name) and node.value.id == "sys")
    )


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
