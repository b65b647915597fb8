"""``ragmeter.local`` as modules of one concept each: one ``clear_caches`` that clears every
cache, no import cycle, no private name reached from another module."""

from __future__ import annotations

import ast
import collections
import functools
import importlib
import pkgutil
from pathlib import Path

import pytest

pytest.importorskip("spacy")

import ragmeter.local as local  # noqa: E402

LOCAL_DIR = Path(local.__file__).parent
MODULES = sorted(f"ragmeter.local.{m.name}" for m in pkgutil.iter_modules([str(LOCAL_DIR)]))


def _imports(path: Path) -> list[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for every import in a file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.module, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            out.extend((a.name, [], node.lineno) for a in node.names)
    return out


def _filled_caches() -> list[str]:
    """Names of every module-level cache of ``ragmeter.local`` that holds something."""
    full = []
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if isinstance(value, functools._lru_cache_wrapper) and value.cache_info().currsize:
                full.append(f"{name}.{attr}")
            elif isinstance(value, collections.OrderedDict) and value:
                full.append(f"{name}.{attr}")
    return full


def test_public_surface_is_lazy_and_complete():
    wanted = {"extract_claims", "question_coverage", "conciseness", "coherence", "analyse",
              "sentences", "default_encoder", "get_verifier", "RelevanceScorer", "clear_caches"}
    assert wanted <= set(local.__all__)
    for name in wanted:
        assert callable(getattr(local, name)), name


def test_clear_caches_clears_every_cache(minilm):
    from ragmeter.local import nlp
    from ragmeter.local.coverage import question_coverage
    from ragmeter.local.critiques import coherence
    from ragmeter.local.verifier import SentenceEncoder, default_encoder

    encoder = default_encoder()
    own = SentenceEncoder()
    question = ["Where was Marie Curie born and what did she win?"]
    answer = ["Marie Curie was born in Warsaw. She won two Nobel Prizes."]
    question_coverage(question, answer, encoder)
    coherence(answer, own)
    own.encode(["another text"])
    nlp.analyse(["Paris is the capital of France."], entities=False)
    nlp.word_weight("physicist")
    assert {"ragmeter.local.nlp._CACHE", "ragmeter.local.nlp._SENTENCES",
            "ragmeter.local.nlp._DOCS", "ragmeter.local.nlp.word_weight"} <= set(_filled_caches())
    assert nlp._RANKS  # the vocabulary behind word_weight was read
    rows = [e for e in (encoder, own) if any(isinstance(v, collections.OrderedDict) and v
                                             for v in vars(e).values())]
    assert rows == [encoder, own]

    local.clear_caches()

    assert _filled_caches() == []
    assert nlp._RANKS is None
    assert not any(isinstance(v, collections.OrderedDict) and v
                   for e in (encoder, own) for v in vars(e).values())
    # and everything still works cold, with the same result
    again = question_coverage(question, answer, encoder)
    local.clear_caches()
    assert question_coverage(question, answer, encoder) == again


def test_no_import_cycle_between_local_modules():
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        path = LOCAL_DIR / (name.rsplit(".", 1)[1] + ".py")
        deps = set()
        for module, names, _ in _imports(path):
            if module == "ragmeter.local":
                deps.update(f"ragmeter.local.{n}" for n in names if f"ragmeter.local.{n}" in MODULES)
            elif module in MODULES:
                deps.add(module)
        graph[name] = deps - {name}

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo.extend(graph.get(m, ()))
        return seen

    cycles = [m for m in graph if m in reach(m)]
    assert cycles == []
    assert graph["ragmeter.local.claims"] >= {"ragmeter.local.hedges", "ragmeter.local.nlp"}
    assert "ragmeter.local.claims" in graph["ragmeter.local.question_parts"]


def test_no_private_name_crosses_a_module():
    crossings = []
    for path in sorted(LOCAL_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = set()
        for module, names, line in _imports(path):
            if not module.startswith("ragmeter"):
                continue
            crossings += [f"{path.name}:{line} {module}.{n}" for n in names if n.startswith("_")]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ragmeter"):
                aliases.update(a.asname or a.name for a in node.names)
            elif isinstance(node, ast.Import):
                aliases.update(a.asname or a.name for a in node.names if a.name.startswith("ragmeter"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in aliases):
                crossings.append(f"{path.name}:{node.lineno} {node.value.id}.{node.attr}")
    assert crossings == []
