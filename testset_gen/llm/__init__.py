"""The LLM paths: seed-chunk evolutions (``evolution_writer``) and the knowledge-graph
synthesizers with personas and query styles (``synthesis``), both spending their calls
through one loop (``attempts``).
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "generate_with_llm": "testset_gen.llm.evolution_writer",
    "summarise": "testset_gen.llm.evolution_writer",
    "EVOLUTION_PROMPTS": "testset_gen.llm.evolutions",
    "SYNTHESIZER_PROMPTS": "testset_gen.llm.synthesizers",
    "Persona": "testset_gen.llm.personas",
    "load_personas": "testset_gen.llm.personas",
    "QUERY_STYLES": "testset_gen.llm.query_style",
    "QUERY_LENGTHS": "testset_gen.llm.query_style",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    # lazy, as the top-level package: importing the package loads no parser or model
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
