"""What each chapter hands out: the functions its student edition writes, by fingerprint.

The student edition (``make student``, tools/student_edition.py) gives a student code to
start from: chapter 9's starter strategy (``my_buy``) and trade policy (``my_offer``,
``my_answer``), or chapter 5's ``take_turn_ch4``. A check must not take that code for the
student's own work, so each function the edition writes is kept here as a fingerprint of
its code (whatever its name, docstring, comments and layout), chapter by chapter, in
``data/handed_out/functions.json``; tools/handed_out.py writes that file from notebooks/,
and a test keeps it in step with the notebooks.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "DATA",
    "STARTERS",
    "cell_functions",
    "fingerprint",
    "handed_out",
    "handed_out_at",
    "handed_out_starters",
]

DATA = Path(__file__).resolve().parent.parent / "data" / "handed_out" / "functions.json"
"""Per chapter (its number, as text), each handed-out function's fingerprint and name."""
STARTERS = DATA.with_name("starters.json")
"""Per chapter, the source of each function its starter cells hand out (chapter 9's
``my_buy``, ``my_offer``, ``my_answer``), to play them as a strategy's answers are
compared with theirs."""
SKIPPED_FIELDS = {"ctx", "type_comment", "kind", "name", "type_params"}
"""Fields that do not change what a function does (or differ between Python versions)."""

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _canonical(node: object) -> str:
    """A node as text: its type and its fields, leaving out empty ones, so that the text is the
    same in every Python version that parses the code alike."""
    if isinstance(node, list):
        return "[" + ",".join(_canonical(item) for item in node) + "]"
    if not isinstance(node, ast.AST):
        return repr(node)
    fields = [
        f"{name}={_canonical(value)}"
        for name, value in ast.iter_fields(node)
        if name not in SKIPPED_FIELDS and value not in (None, [])
    ]
    return f"{type(node).__name__}({','.join(fields)})"


def fingerprint(function: Function) -> str:
    """A short hash of what ``function`` does: its arguments, decorators and body, without its
    name, docstring, comments or layout."""
    body = function.body
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        body = body[1:] if isinstance(first.value.value, str) else body
    text = _canonical([function.args, function.decorator_list, function.returns, body])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _parse(source: str) -> ast.Module | None:
    """A code cell's source as Python (``%magics`` turned into Python first); None if it is not."""
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        return ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError):
        return None


def cell_functions(source: str) -> list[Function]:
    """Every function defined in a code cell, nested ones too, in the order written."""
    tree = _parse(source)
    if tree is None:
        return []
    found = [node for node in ast.walk(tree) if isinstance(node, Function)]
    return sorted(found, key=lambda node: (node.lineno, node.col_offset))


@functools.cache
def handed_out() -> dict[int, dict[str, str]]:
    """Per chapter, the fingerprint and name of each function its student edition writes."""
    chapters = json.loads(DATA.read_text())
    return {int(chapter): dict(functions) for chapter, functions in chapters.items()}


def handed_out_starters(chapter: int | None) -> dict[str, Callable[..., object]]:
    """The starter functions ``chapter`` hands out, made from their stored source with the
    package's names in scope, as the student edition's cell makes them."""
    sources = _starter_sources().get(chapter, {}) if chapter is not None else {}
    made: dict[str, Callable[..., object]] = {}
    if sources:
        import monopoly_lesson

        for name, source in sources.items():
            namespace = {n: getattr(monopoly_lesson, n) for n in monopoly_lesson.__all__}
            exec(compile(source, f"<the chapter's starter {name}>", "exec"), namespace)
            made[name] = namespace[name]
    return made


@functools.cache
def _starter_sources() -> dict[int, dict[str, str]]:
    chapters = json.loads(STARTERS.read_text()) if STARTERS.is_file() else {}
    return {int(chapter): dict(functions) for chapter, functions in chapters.items()}


def handed_out_at(chapter: int | None, source: str, line: int) -> str | None:
    """The name of the handed-out function of ``chapter`` that the code cell ``source``
    defines at ``line`` (its ``def``, or its first decorator), unchanged; None if the code
    there is not one of them."""
    functions = handed_out().get(chapter, {}) if chapter is not None else {}
    for function in cell_functions(source) if functions else []:
        first = min([function.lineno, *(d.lineno for d in function.decorator_list)])
        if line in (first, function.lineno):
            return functions.get(fingerprint(function))
    return None
