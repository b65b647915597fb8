"""testset_gen: documents -> knowledge graph -> evolved questions with ground truth.

    from testset_gen import generate
    result = generate("docs/", 50, judge="openai:gpt-4o-mini")
    result.testset.to_jsonl("testset.jsonl")

The pipeline and its settings are described in docs/testset.md. Names are imported lazily:
``import testset_gen`` does not load the document parsers or the models.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "generate": "testset_gen.generator",
    "agenerate": "testset_gen.generator",
    "GenerationResult": "testset_gen.generator",
    "Testset": "testset_gen.record",
    "TestsetRecord": "testset_gen.record",
    "Document": "testset_gen.document",
    "Chunk": "testset_gen.document",
    "load_documents": "testset_gen.ingest",
    "chunk_documents": "testset_gen.chunking",
    "KnowledgeGraph": "testset_gen.graph",
    "build_graph": "testset_gen.graph",
    "generate_offline": "testset_gen.offline",
    "EVOLUTION_PROMPTS": "testset_gen.evolutions",
    "SYNTHESIZER_PROMPTS": "testset_gen.synthesizers",
    "Persona": "testset_gen.personas",
    "load_personas": "testset_gen.personas",
    "QUERY_STYLES": "testset_gen.query_style",
    "QUERY_LENGTHS": "testset_gen.query_style",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'testset_gen' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
