"""The text toolkit (``ragmeter.text``) and the local judge (``ragmeter.judges.local``) as modules
of one concept each: one ``clear_caches`` that clears every cache, the toolkit below the judge,
no import cycle, no private name reached from another module."""

from __future__ import annotations

import ast
import collections
import functools
import importlib
import pkgutil
from pathlib import Path

import pytest

pytest.importorskip("spacy")

import ragmeter.judges.local as local  # noqa: E402
import ragmeter.text as text  # noqa: E402

LOCAL_DIR = Path(local.__file__).parent
TEXT_DIR = Path(text.__file__).parent
TEXT_MODULES = sorted(f"ragmeter.text.{m.name}" for m in pkgutil.iter_modules([str(TEXT_DIR)]))
JUDGE_MODULES = sorted(f"ragmeter.judges.local.{m.name}" for m in pkgutil.iter_modules([str(LOCAL_DIR)]))
MODULES = TEXT_MODULES + JUDGE_MODULES


def _path(module: str) -> Path:
    package, name = module.rsplit(".", 1)
    return (TEXT_DIR if package == "ragmeter.text" else LOCAL_DIR) / f"{name}.py"


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
    """Names of every module-level cache of the toolkit and the local judge that holds something."""
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
    wanted = {"LocalJudge", "extract_claims", "clauses_of", "question_coverage", "conciseness",
              "coherence", "default_encoder", "get_verifier", "RelevanceScorer"}
    assert wanted <= set(local.__all__)
    for name in wanted:
        assert callable(getattr(local, name)), name
    toolkit = {"analyse", "sentences", "parse", "detect", "unsupported_language", "normalise_entity",
               "normalise_text", "clear_caches"}
    assert toolkit <= set(text.__all__)
    for name in toolkit:
        assert callable(getattr(text, name)), name


def test_the_toolkit_does_not_import_the_judge():
    upward = [f"{m}:{line} imports {module}" for m in TEXT_MODULES
              for module, _, line in _imports(_path(m)) if module.startswith("ragmeter.judges")]
    assert upward == []


def test_clear_caches_clears_every_cache(minilm):
    from ragmeter.text import nlp
    from ragmeter.judges.local.coverage import question_coverage
    from ragmeter.judges.local.critiques import coherence
    from ragmeter.judges.local.verifier import SentenceEncoder, default_encoder

    encoder = default_encoder()
    own = SentenceEncoder()
    question = ["Where was Marie Curie born and what did she win?"]
    answer = ["Marie Curie was born in Warsaw. She won two Nobel Prizes."]
    question_coverage(question, answer, encoder)
    coherence(answer, own)
    own.encode(["another text"])
    nlp.analyse(["Paris is the capital of France."], entities=False)
    nlp.word_weight("physicist")
    assert {"ragmeter.text.nlp._CACHE", "ragmeter.text.nlp._SENTENCES",
            "ragmeter.text.nlp._DOCS", "ragmeter.text.nlp.word_weight"} <= set(_filled_caches())
    assert nlp._RANKS  # the vocabulary behind word_weight was read
    rows = [e for e in (encoder, own) if any(isinstance(v, collections.OrderedDict) and v
                                             for v in vars(e).values())]
    assert rows == [encoder, own]

    text.clear_caches()

    assert _filled_caches() == []
    assert nlp._RANKS is None
    assert not any(isinstance(v, collections.OrderedDict) and v
                   for e in (encoder, own) for v in vars(e).values())
    # and everything still works cold, with the same result
    again = question_coverage(question, answer, encoder)
    text.clear_caches()
    assert question_coverage(question, answer, encoder) == again


def test_no_import_cycle_between_local_modules():
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        deps = set()
        for module, names, _ in _imports(_path(name)):
            if module in ("ragmeter.judges.local", "ragmeter.text"):
                deps.update(f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES)
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
    assert graph["ragmeter.judges.local.claims"] >= {"ragmeter.judges.local.hedges", "ragmeter.text.nlp"}
    assert "ragmeter.judges.local.claims" in graph["ragmeter.judges.local.question_parts"]


def test_no_private_name_crosses_a_module():
    crossings = []
    for path in sorted([*LOCAL_DIR.glob("*.py"), *TEXT_DIR.glob("*.py")]):
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
