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
    "Document": "testset_gen.documents.document",
    "Chunk": "testset_gen.documents.document",
    "load_documents": "testset_gen.documents.ingest",
    "chunk_documents": "testset_gen.documents.chunking",
    "KnowledgeGraph": "testset_gen.graph.knowledge_graph",
    "build_graph": "testset_gen.graph.knowledge_graph",
    "generate_offline": "testset_gen.offline.generator",
    "EVOLUTION_PROMPTS": "testset_gen.llm.evolutions",
    "SYNTHESIZER_PROMPTS": "testset_gen.llm.synthesizers",
    "Persona": "testset_gen.llm.personas",
    "load_personas": "testset_gen.llm.personas",
    "QUERY_STYLES": "testset_gen.llm.query_style",
    "QUERY_LENGTHS": "testset_gen.llm.query_style",
    "generate_conversations": "testset_gen.conversations.generator",
    "agenerate_conversations": "testset_gen.conversations.generator",
    "ConversationSet": "testset_gen.conversations.scenario",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'testset_gen' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
