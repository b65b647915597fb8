"""Local models behind the no-key judge: spaCy analysis, claim verifiers, relevance scoring.

Everything here runs offline on models that ship on PyPI (MiniLM through
sentence-transformers, spaCy's small English pipeline). Nothing heavy is imported until a
model is first used, so importing this package is cheap.

* ``nlp``: sentences, entities, numbers, dates, negations and content words, one spaCy pass
  per text (cached).
* ``verifier``: ``Verifier`` (premise, claim) -> probability of support; ``AlignmentVerifier``
  (default, ours), ``CrossEncoderVerifier`` (any Hugging Face NLI cross-encoder),
  ``get_verifier("alignment" | "nli:NAME_OR_PATH")``.
* ``relevance``: ``RelevanceScorer``, how useful each passage is to a question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ragmeter.local.nlp import LocalModelUnavailable
    from ragmeter.local.relevance import RelevanceScorer
    from ragmeter.local.verifier import (
        AlignmentVerifier,
        CrossEncoderVerifier,
        Verifier,
        get_verifier,
    )

_EXPORTS = {
    "AlignmentVerifier": "ragmeter.local.verifier",
    "CrossEncoderVerifier": "ragmeter.local.verifier",
    "Verifier": "ragmeter.local.verifier",
    "get_verifier": "ragmeter.local.verifier",
    "RelevanceScorer": "ragmeter.local.relevance",
    "LocalModelUnavailable": "ragmeter.local.nlp",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    # Lazy: "import ragmeter.local.nlp" should not pay for the verifier's imports, and none
    # of these modules imports torch or spaCy before a model is first used anyway.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ragmeter.local' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
