"""The local judge: judgements from small models that ship on PyPI, with no key and no network.

``LocalJudge`` answers the facts layer's tasks (claims of a text, support of a claim by
passages, relevance of a chunk, entities, coverage of the question, a few critiques) with
MiniLM sentence embeddings, spaCy (through the text toolkit, ``ragmeter.text``) and the rules
below. Nothing heavy is imported until a model is first used, so importing this package is
cheap. One concept per module:

* ``judge``: ``LocalJudge``, the judge protocol over the models; ``solver``: ``LocalModels``
  (each model loaded once) and the batched answering of tasks;
* ``hedges``: ``noncommittal`` (refusals, "I don't know", "it depends");
* ``claims``: ``extract_claims`` and the clause API (``clauses_of``, ``Clause``);
* ``question_parts``: what a question asks, part by part;
* ``coverage``: ``question_coverage``, answer relevancy without generation;
* ``critiques``: ``conciseness`` and ``coherence``;
* ``verifier``: ``Verifier`` (premise, claim) -> probability of support; ``AlignmentVerifier``
  (default, ours), ``get_verifier("alignment" | "nli:NAME_OR_PATH[?OPTION=VALUE&...]")``,
  ``default_encoder`` (MiniLM rows); ``cross_encoder``: ``CrossEncoderVerifier`` (any
  Hugging Face NLI cross-encoder); ``verifier_spec``: the spec string and its options;
  ``alignment``, ``support``, ``support_head``, ``polarity``, ``roles``, ``token_encoder``:
  its parts;
* ``relevance``: ``RelevanceScorer``, how useful each sentence is to a question;
  ``chunk_relevance`` and ``question_focus``: how useful each whole chunk is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ragmeter.judges.local.judge import LOCAL_CONCURRENCY, LocalJudge
    from ragmeter.judges.local.solver import THRESHOLD, LocalModels
    from ragmeter.judges.local.claims import Clause, clauses_of, extract_claims
    from ragmeter.judges.local.coverage import CoverageResult, question_coverage
    from ragmeter.judges.local.critiques import coherence, conciseness
    from ragmeter.judges.local.hedges import noncommittal
    from ragmeter.judges.local.question_parts import QuestionPart, question_parts
    from ragmeter.judges.local.relevance import RelevanceScorer
    from ragmeter.judges.local.cross_encoder import CrossEncoderVerifier
    from ragmeter.judges.local.verifier_spec import NLISpec, parse_verifier_spec
    from ragmeter.judges.local.verifier import (
        AlignmentVerifier,
        Verifier,
        default_encoder,
        get_verifier,
    )

_EXPORTS = {
    "LocalJudge": "ragmeter.judges.local.judge",
    "LOCAL_CONCURRENCY": "ragmeter.judges.local.judge",
    "LocalModels": "ragmeter.judges.local.solver",
    "THRESHOLD": "ragmeter.judges.local.solver",
    "AlignmentVerifier": "ragmeter.judges.local.verifier",
    "CrossEncoderVerifier": "ragmeter.judges.local.cross_encoder",
    "NLISpec": "ragmeter.judges.local.verifier_spec",
    "parse_verifier_spec": "ragmeter.judges.local.verifier_spec",
    "Verifier": "ragmeter.judges.local.verifier",
    "get_verifier": "ragmeter.judges.local.verifier",
    "default_encoder": "ragmeter.judges.local.verifier",
    "RelevanceScorer": "ragmeter.judges.local.relevance",
    "Clause": "ragmeter.judges.local.claims",
    "clauses_of": "ragmeter.judges.local.claims",
    "extract_claims": "ragmeter.judges.local.claims",
    "noncommittal": "ragmeter.judges.local.hedges",
    "QuestionPart": "ragmeter.judges.local.question_parts",
    "question_parts": "ragmeter.judges.local.question_parts",
    "CoverageResult": "ragmeter.judges.local.coverage",
    "question_coverage": "ragmeter.judges.local.coverage",
    "conciseness": "ragmeter.judges.local.critiques",
    "coherence": "ragmeter.judges.local.critiques",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    # Lazy: "import ragmeter.judges.local.claims" should not pay for the verifier's imports,
    # and none of these modules imports torch or spaCy before a model is first used anyway.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ragmeter.judges.local' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
