"""The suite itself: no test that cannot fail, nothing collected that is not a test.

A test whose every assertion sits inside a loop over data passes when the data is empty (a
moved file, a filter that drops everything): it must also assert that there is something to
loop over. Loops over a literal (a tuple written in the test, ``range(20)``) cannot be empty.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _literal(iterable: ast.expr) -> bool:
    if isinstance(iterable, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
        return bool(getattr(iterable, "elts", None) or getattr(iterable, "keys", None))
    return isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and \
        iterable.func.id == "range" and all(isinstance(a, ast.Constant) for a in iterable.args)


def _checks(node: ast.AST) -> bool:
    """An assert, ``pytest.raises``/``pytest.fail``, or a call to a helper named assert*/check*."""
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Call):
        name = ast.unparse(node.func)
        return name.split(".")[-1].lstrip("_").startswith(("assert", "check", "raises", "fail"))
    return False


def _outside_data_loops(node: ast.AST, in_loop: bool, found: list[bool]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if _checks(child) and not in_loop:
            found.append(True)
        loops = isinstance(child, (ast.For, ast.AsyncFor)) and not _literal(child.iter)
        _outside_data_loops(child, in_loop or loops or isinstance(child, ast.While), found)


def test_no_test_asserts_only_inside_a_loop_over_data():
    offenders = []
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                found: list[bool] = []
                _outside_data_loops(node, False, found)
                if not found and any(_checks(n) for n in ast.walk(node)):
                    offenders.append(f"{path.name}:{node.lineno} {node.name}")
    assert offenders == [], "assert that the loop has something to check:\n" + "\n".join(offenders)


def test_no_imported_helper_is_collected_as_a_test():
    collected_by_name = []
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name).startswith("test"):
                        collected_by_name.append(f"{path.name}: {alias.name}")
    assert collected_by_name == []
