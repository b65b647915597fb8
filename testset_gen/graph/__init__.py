"""The knowledge graph: documents and chunks linked by shared entities, keyphrases and
similarity (``knowledge_graph``), and the LLM profiles that enrich it (``enrichment``,
``relationships``).
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "KnowledgeGraph": "testset_gen.graph.knowledge_graph",
    "build_graph": "testset_gen.graph.knowledge_graph",
    "Bridge": "testset_gen.graph.knowledge_graph",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    # lazy, as the top-level package: importing the package loads no parser or model
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
