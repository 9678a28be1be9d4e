"""How alike two submissions' graded code is, on normalised syntax trees (a grader's report).

A check says whether a notebook's code does what the exercise asks; it cannot say whose code
it is. This module compares the code a check grades (the functions ``take_turn`` reaches, or
those a chapter-9 strategy is made of) with other code: the reference engine, the stored
solutions, and the rest of a class. Code is read, never run. Each function is normalised
first: its docstring dropped, its parameters and local names made one name, the notebook's
other functions' names another, and a function that only passes its
arguments on to another (a wrapper, a ``lambda``) followed to the one it calls. The code is
then the multiset of its subtrees of some size, so that renaming, reordering independent
statements and wrapping change little; two codes' similarity is the share of subtrees they
have in common (the Dice coefficient, 0 to 1).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .submission_code import SubmissionCode, read_code

__all__ = [
    "MIN_SUBTREE",
    "PAIR_THRESHOLD",
    "Code",
    "graded_code",
    "notebook_code",
    "reference_code",
    "similarity",
]

MIN_SUBTREE = 4
"""The fewest nodes a subtree must have to count (smaller ones are common to all code)."""
PAIR_THRESHOLD = 0.85
"""A class's pairs at least this alike are listed."""
STRATEGY_VARIABLES = ("mine", "trader")
ROOTS = ("take_turn",)


@dataclass(frozen=True)
class Code:
    """A submission's graded code: the functions' names and their normalised subtrees."""

    functions: tuple[str, ...]
    subtrees: Counter[str]

    def __bool__(self) -> bool:
        return bool(self.subtrees)


def similarity(one: Code, other: Code) -> float:
    """The share of subtrees two codes have in common (Dice's coefficient: 0 none, 1 the same
    code once normalised); 0 if either is empty."""
    total = sum(one.subtrees.values()) + sum(other.subtrees.values())
    if not total or not one or not other:
        return 0.0
    shared = sum((one.subtrees & other.subtrees).values())
    return 2 * shared / total


def graded_code(code: SubmissionCode) -> Code:
    """The code a check grades in a notebook: what ``take_turn`` reaches, else the functions
    the chapter-9 strategies (``mine``, ``trader``) are made of, and what they reach."""
    roots = [name for name in ROOTS if name in code.functions]
    if not roots:
        roots = _strategy_functions(code)
    found: dict[str, ast.AST] = {}
    for root in roots:
        for name, node in code._reachable(root):
            found.setdefault(name, node)
    return _normalised(found)


def notebook_code(path: str | Path) -> Code:
    """The graded code of the notebook at ``path`` (empty if it cannot be read)."""
    import nbformat

    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception:  # a broken file has no code to compare
        return Code((), Counter())
    sources = [(n, c.source) for n, c in enumerate(notebook.cells, 1) if c.cell_type == "code"]
    return graded_code(read_code(sources))


def reference_code() -> Code:
    """The reference engine's take_turn and every function of the rules it reaches."""
    from .. import rules

    return graded_code(read_code([(1, inspect.getsource(rules))]))


def _strategy_functions(code: SubmissionCode) -> list[str]:
    """The notebook's own functions named in the calls that make ``mine`` and ``trader``."""
    names = []
    for _, tree in code.cells:
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if not any(isinstance(t, ast.Name) and t.id in STRATEGY_VARIABLES for t in targets):
                continue
            for call in ast.walk(node.value):  # type: ignore[attr-defined]
                if isinstance(call, ast.Call):
                    values = [k.value for k in call.keywords] + list(call.args)
                    names += [v.id for v in values if isinstance(v, ast.Name)]
                    names += _lambdas(values, code)
    return [name for name in dict.fromkeys(names) if name in code.functions]


def _lambdas(values: Iterable[ast.expr], code: SubmissionCode) -> list[str]:
    """The notebook's functions that lambdas among ``values`` call."""
    found = []
    for value in values:
        if isinstance(value, ast.Lambda):
            found += [n.id for n in ast.walk(value) if isinstance(n, ast.Name)]
    return [name for name in found if name in code.functions]


def _normalised(functions: dict[str, ast.AST]) -> Code:
    """The functions' subtrees, each function normalised (wrappers followed, not counted)."""
    subtrees: Counter[str] = Counter()
    own = set(functions)
    for node in functions.values():
        if _is_wrapper(node, own):
            continue
        tree = _Renamer(own).visit(_without_docstring(node))
        for inner in ast.walk(tree):
            text = _shape(inner)
            if text is not None:
                subtrees[hashlib.sha1(text.encode()).hexdigest()[:16]] += 1
    return Code(tuple(sorted(functions)), subtrees)


def _shape(node: ast.AST) -> str | None:
    """A subtree as text, if it is big enough to count (its statements and expressions)."""
    if not isinstance(node, (ast.stmt, ast.expr)) or isinstance(node, ast.FunctionDef):
        return None
    if sum(1 for _ in ast.walk(node)) < MIN_SUBTREE:
        return None
    return ast.dump(node, annotate_fields=False, include_attributes=False)


def _without_docstring(node: ast.AST) -> ast.AST:
    body = getattr(node, "body", None)
    first = body[0] if isinstance(body, list) and body else None
    constant = first.value if isinstance(first, ast.Expr) else None
    text = constant.value if isinstance(constant, ast.Constant) else None
    if isinstance(text, str):
        return type(node)(**{**vars(node), "body": body[1:] or [ast.Pass()]})  # type: ignore[index]
    return node


def _is_wrapper(node: ast.AST, own: set[str]) -> bool:
    """A function whose whole body passes its work on to another of the notebook's."""
    body = node.body if isinstance(node, (ast.FunctionDef, ast.Lambda)) else None
    if isinstance(node, ast.Lambda):
        body = [ast.Return(node.body)]
    if not isinstance(body, list):
        return False
    body = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Expr)):
        return False
    call = body[0].value
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in own


class _Renamer(ast.NodeTransformer):
    """Makes a function's parameters and locals one name, and the notebook's functions
    another, so that neither names nor the order they first appear in hide a copy."""

    def __init__(self, own: set[str]) -> None:
        self.own, self.names = own, set()

    def _name(self, name: str) -> str:
        if name in self.own:
            return "F"
        self.names.add(name)
        return "v"

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = "F"
        self.generic_visit(node)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg, node.annotation = self._name(node.arg), None
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        local = isinstance(node.ctx, ast.Store) or node.id in self.names or node.id in self.own
        if local:
            node.id = self._name(node.id)
        return node
