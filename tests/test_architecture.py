"""The import rules the code base keeps, checked on every module's syntax tree (package
``__init__`` files included):

* each package sits in one layer of ``LAYERS`` and imports only from its own package or
  from a layer below (docs/concepts.md draws the same list);
* no module imports a private name (``_x``) from another module, and no private module
  (``_x.py``) is imported from outside its own package;
* no import cycle between modules (imports inside functions count: a lazy import still
  ties two modules together; those under ``if TYPE_CHECKING:`` do not);
* only ``ragmeter/judges/`` asks whether an object is some kind of judge;
* ``testset_gen`` may use only its share of ``ragmeter`` (``TESTSET_GEN_MAY_USE``);
  ``ragmeter`` reaches ``testset_gen`` only lazily, inside the functions of its faces (CLI,
  Hub, demo) that handle test sets;
* the docs send users only to the public modules (``PUBLIC``); the others are internal.
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

LAYERS: list[set[str]] = [
    {"errors", "version", "names"},
    {"extras"},
    {"calls", "text", "data", "testing", "runtime"},
    {"conversations"},
    {"prompts"},
    {"judgements"},
    {"embedders"},
    {"judges"},
    {"facts"},
    {"metrics"},
    {"result"},
    {"engine", "runs", "sinks", "traces"},
    {"api", "gate", "ingest"},
    {"align", "adapters", "monitor"},
    {"report"},
    {"ragmeter"},
    {"testset_gen"},
    {"hub", "demo", "ui", "pytest_plugin"},
    {"cli"},
]
"""Lowest first. ``ragmeter.X`` (module or package) is the unit ``X``; ``ragmeter`` is the
package's own ``__init__`` (the public API); ``testset_gen`` is one unit, which ragmeter's
faces reach only lazily. Packages in one layer do not import each other: the run store does
not know the gate, the engine does not know the store or the files (its caller hands it a recorder and the
file sinks)."""

TESTSET_GEN_MAY_USE = {
    "ragmeter", "ragmeter.calls", "ragmeter.data", "ragmeter.embedders", "ragmeter.errors",
    "ragmeter.extras", "ragmeter.judgements", "ragmeter.judges", "ragmeter.prompts", "ragmeter.testing",
    "ragmeter.runtime", "ragmeter.text",
}
"""The ragmeter packages testset_gen builds on: data, the judge seam and its vocabulary,
prompts, text tools, the engine's loop. Not metrics, facts, results, the store or the faces."""

PUBLIC = {
    "ragmeter", "ragmeter.adapters", "ragmeter.adapters.chat", "ragmeter.adapters.langchain",
    "ragmeter.adapters.llamaindex", "ragmeter.conversations",
    "ragmeter.align", "ragmeter.api", "ragmeter.calls.options", "ragmeter.data", "ragmeter.embedders",
    "ragmeter.embedders.sentence_transformer", "ragmeter.engine", "ragmeter.errors", "ragmeter.extras",
    "ragmeter.gate", "ragmeter.gate.run_comparison", "ragmeter.hub", "ragmeter.ingest", "ragmeter.judgements",
    "ragmeter.judges", "ragmeter.judges.adapt", "ragmeter.metrics", "ragmeter.monitor", "ragmeter.pytest_plugin",
    "ragmeter.report", "ragmeter.result", "ragmeter.runs", "ragmeter.runtime", "ragmeter.testing", "ragmeter.traces",
}
"""The modules users import (docs/concepts.md lists them). Every other module, ``_x.py`` or
not, is internal: it may change without notice, and the docs do not send users to it."""


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


def unit(module: str) -> str:
    parts = module.split(".")
    return "testset_gen" if parts[0] == "testset_gen" else parts[1] if len(parts) > 1 else "ragmeter"


def layer(module: str) -> int:
    found = [n for n, units in enumerate(LAYERS) if unit(module) in units]
    assert found, f"{module}: package {unit(module)!r} is in no layer of LAYERS; add it where it belongs"
    return found[0]


def test_every_package_is_in_exactly_one_layer():
    units = [u for layer_units in LAYERS for u in layer_units]
    assert len(units) == len(set(units))
    assert {unit(m) for m in ALL} == set(units)


def upward_imports() -> list[str]:
    problems = []
    for module in ALL:
        for line, target, _, _ in imports(module):
            if unit(target) != unit(module) and layer(target) >= layer(module):
                problems.append(f"{module}:{line} imports {target} (layer {layer(target)}: "
                                f"{unit(target)}) from layer {layer(module)} ({unit(module)})")
    return problems


def test_no_module_imports_from_its_own_layer_or_above():
    problems = upward_imports()
    assert not problems, "\n".join(problems)


def test_testset_gen_uses_only_its_share_of_ragmeter():
    outside = [
        f"{module}:{line} imports {target}"
        for module in ALL
        if module.startswith("testset_gen")
        for line, target, _, _ in imports(module)
        if target.startswith("ragmeter") and not any(
            target == allowed or target.startswith(allowed + ".") for allowed in TESTSET_GEN_MAY_USE - {"ragmeter"}
        ) and target != "ragmeter"
    ]
    assert not outside, "\n".join(outside)


def test_no_import_cycle_between_modules():
    """``__init__`` files count: a module that imports its own package's ``__init__``, which
    imports it back, is a cycle (one of them then sees the other half-built)."""
    graph = nx.DiGraph()
    for module in ALL:
        for _, target, _, _ in imports(module):
            target = target if target in ALL else target.rpartition(".")[0]
            if target in ALL and target != module:
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


def test_the_docs_send_users_only_to_public_modules():
    pattern = re.compile(r"(?:from|import) (ragmeter(?:\.\w+)*)")
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "recipes").glob("*.py"))]
    found = {(path.name, m) for path in texts for m in pattern.findall(path.read_text())}
    assert {m for _, m in found} <= PUBLIC, sorted((name, m) for name, m in found if m not in PUBLIC)
    assert PUBLIC <= set(ALL), sorted(PUBLIC - set(ALL))


def test_concepts_lists_the_public_modules_and_the_layers():
    concepts = (ROOT / "docs" / "concepts.md").read_text()
    listed = set(re.findall(r"`(ragmeter(?:\.\w+)*)`", concepts.split("## Public modules", 1)[1].split("\n## ", 1)[0]))
    assert listed == PUBLIC
    drawn = concepts.split("Layers depend downward only.", 1)[1].split("```", 2)[1]
    rows = [line.split(None, 1)[1].split("(")[0] for line in drawn.strip().splitlines() if line[:3].strip().isdigit()]
    assert [set(r.replace(",", " ").split()) for r in rows] == LAYERS
