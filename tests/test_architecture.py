"""The import rules the code base keeps, checked on every module's syntax tree:

* no module imports a private name (``_x``) from another module, and no private module
  (``_x.py``) is imported from outside its own package;
* no import cycle between modules (imports inside functions count: a lazy import still
  ties two modules together; those under ``if TYPE_CHECKING:`` do not);
* only ``ragmeter/judges/`` asks whether an object is some kind of judge;
* ``testset_gen`` may use ``ragmeter``; ``ragmeter`` reaches ``testset_gen`` only lazily,
  inside the functions of its faces (CLI, Hub, demo) that handle test sets.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"ragmeter": ROOT / "src" / "ragmeter", "testset_gen": ROOT / "testset_gen"}


def module_name(path: Path) -> str:
    for top, base in PACKAGES.items():
        if base in path.parents or path == base:
            parts = [top, *path.relative_to(base).with_suffix("").parts]
            return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    raise ValueError(path)


def modules() -> dict[str, Path]:
    return {module_name(p): p for base in PACKAGES.values() for p in sorted(base.rglob("*.py"))}


ALL = modules()


def package_of(module: str) -> str:
    path = ALL[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = package_of(module).split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports(module: str) -> list[tuple[int, str, str | None, bool]]:
    """(line, imported module, imported name or None, at module level) for each import."""
    tree = ast.parse(ALL[module].read_text())
    skip = type_checking_lines(tree)
    top = {id(n) for n in tree.body}
    found = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, None, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = resolve(module, node)
            for alias in node.names:
                as_module = f"{source}.{alias.name}"
                if as_module in ALL:
                    found.append((node.lineno, as_module, None, id(node) in top))
                else:
                    found.append((node.lineno, source, alias.name, id(node) in top))
    return [f for f in found if f[1].split(".")[0] in PACKAGES]


def owner(module: str) -> str:
    return module.rpartition(".")[0] if ALL[module].name != "__init__.py" else module


def test_no_private_name_crosses_a_package():
    problems = []
    for module in ALL:
        for line, target, name, _ in imports(module):
            last = target.rpartition(".")[2]
            if last.startswith("_") and not last.startswith("__") and not package_of(module).startswith(owner(target)):
                problems.append(f"{module}:{line} imports private module {target}")
            if name and name.startswith("_") and not name.startswith("__"):
                problems.append(f"{module}:{line} imports private name {name} from {target}")
    assert not problems, "\n".join(problems)


def test_no_import_cycle_between_modules():
    graph = nx.DiGraph()
    for module in ALL:
        for _, target, _, _ in imports(module):
            target = target if target in ALL else target.rpartition(".")[0]
            # a package's __init__ re-exporting its own modules is not a cycle of concepts
            if target in ALL and target != module and not module.startswith(target + "."):
                graph.add_edge(module, target)
    cycles = sorted(sorted(c) for c in nx.simple_cycles(graph))
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_only_judges_ask_what_kind_of_judge_an_object_is():
    pattern = re.compile(r"isinstance\([^)]*Judge")
    found = [
        f"{module}:{n}"
        for module, path in ALL.items()
        if not module.startswith("ragmeter.judges")
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)


def test_ragmeter_reaches_testset_gen_only_lazily():
    eager = [
        f"{module}:{line}"
        for module in ALL
        if module.startswith("ragmeter")
        for line, target, _, top in imports(module)
        if target.startswith("testset_gen") and top
    ]
    assert not eager, "\n".join(eager)
