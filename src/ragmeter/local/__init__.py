"""Local models behind the no-key judge: spaCy analysis, claims, verifiers, relevance, coverage.

Everything here runs offline on models that ship on PyPI (MiniLM through
sentence-transformers, spaCy's small English pipeline). Nothing heavy is imported until a
model is first used, so importing this package is cheap. One concept per module:

* ``nlp``: the one place spaCy runs and its results are cached: ``analyse`` (sentences,
  entities, numbers, dates, negations, content words) and ``parse`` (docs for the clause
  rules);
* ``normalise``: the text and entity normal forms every comparison uses;
* ``words``: the English word lists the rules share;
* ``hedges``: ``noncommittal`` (refusals, "I don't know", "it depends");
* ``claims``: ``extract_claims`` and the clause API (``clauses_of``, ``Clause``);
* ``question_parts``: what a question asks, part by part;
* ``coverage``: ``question_coverage``, answer relevancy without generation;
* ``critiques``: ``conciseness`` and ``coherence``;
* ``verifier``: ``Verifier`` (premise, claim) -> probability of support; ``AlignmentVerifier``
  (default, ours), ``CrossEncoderVerifier`` (any Hugging Face NLI cross-encoder),
  ``get_verifier("alignment" | "nli:NAME_OR_PATH")``, ``default_encoder`` (MiniLM rows);
* ``relevance``: ``RelevanceScorer``, how useful each passage is to a question;
* ``caches``: ``clear_caches()``, which forgets every cached result of the modules above.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ragmeter.local.caches import clear_caches
    from ragmeter.local.claims import Clause, clauses_of, extract_claims
    from ragmeter.local.coverage import CoverageResult, question_coverage
    from ragmeter.local.critiques import coherence, conciseness
    from ragmeter.local.hedges import noncommittal
    from ragmeter.local.nlp import LocalModelUnavailable, analyse, sentences
    from ragmeter.local.question_parts import QuestionPart, question_parts
    from ragmeter.local.relevance import RelevanceScorer
    from ragmeter.local.verifier import (
        AlignmentVerifier,
        CrossEncoderVerifier,
        Verifier,
        default_encoder,
        get_verifier,
    )

_EXPORTS = {
    "AlignmentVerifier": "ragmeter.local.verifier",
    "CrossEncoderVerifier": "ragmeter.local.verifier",
    "Verifier": "ragmeter.local.verifier",
    "get_verifier": "ragmeter.local.verifier",
    "default_encoder": "ragmeter.local.verifier",
    "RelevanceScorer": "ragmeter.local.relevance",
    "LocalModelUnavailable": "ragmeter.local.nlp",
    "analyse": "ragmeter.local.nlp",
    "sentences": "ragmeter.local.nlp",
    "Clause": "ragmeter.local.claims",
    "clauses_of": "ragmeter.local.claims",
    "extract_claims": "ragmeter.local.claims",
    "noncommittal": "ragmeter.local.hedges",
    "QuestionPart": "ragmeter.local.question_parts",
    "question_parts": "ragmeter.local.question_parts",
    "CoverageResult": "ragmeter.local.coverage",
    "question_coverage": "ragmeter.local.coverage",
    "conciseness": "ragmeter.local.critiques",
    "coherence": "ragmeter.local.critiques",
    "clear_caches": "ragmeter.local.caches",
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
