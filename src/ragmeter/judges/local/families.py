"""The local judge's rule families, and the switch that turns each off.

Eight rounds of hand rules made the local judge; which of them still earn their keep is a
question for a benchmark (``bench/ablation.py``), and a benchmark can only answer it if each
family can be removed alone. So every family below has one entry point (named in its line)
that returns the neutral value the rest of the code expects when the family is off: the
value the judgement would get if the rule had never been written. Everything is on by
default; switching nothing off changes no score.

Three ways to switch families off:

* ``families_off("roles", "negation")``: a context manager (tests, ``bench/ablation.py``);
* ``RAGMETER_LOCAL_OFF=roles,negation`` in the environment, read when a ``LocalJudge`` is
  built (the CLI and bench scripts; ``from_environment``);
* both at once: a family is off when either says so.

Why a module-level set under a lock and not a ``contextvars`` variable: the local judge's
models run in a worker thread (``solver.LocalSolver``), and ``loop.run_in_executor`` does not
carry the caller's context there; a process-wide state does, and the judge has one worker.
Why the caches are cleared on every change: the local judge memoises by text (prepared
premises, parses, question foci); a result computed with one state must not be served under
another, and ``caches.clear_caches`` is the one call that forgets them all.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import Iterable, Iterator, Mapping

from ragmeter.text import caches
from ragmeter.errors import InvalidOption

__all__ = ["ENV", "FAMILIES", "disabled", "enabled", "families_off", "from_environment", "parse_names"]

ENV = "RAGMETER_LOCAL_OFF"
"""Environment variable naming the families to switch off, comma-separated."""

FAMILIES: Mapping[str, str] = {
    # --- claim support (verifier: faithfulness, context recall, answer correctness, usefulness)
    "support_head": (
        "claim support: the learned logistic head over the alignment signals; off, the hand "
        "formula combines them (verifier.AlignmentVerifier.probability)"),
    "meaning": (
        "claim support: reading a claim by meaning, its words' MiniLM counterparts in context "
        "in its best premise sentences (verifier.AlignmentVerifier._read_by_meaning)"),
    "antonyms": (
        "claim support: an antonym of a claim word in the evidence breaks support, from the "
        "fixed antonym list (support.opposed)"),
    "roles": (
        "claim support: who did what to whom, claim frames against premise frames from the "
        "parse; off, every role check is unknown (roles.role_agreement)"),
    "negation": (
        "claim support: a claim denying what its evidence asserts or the other way round, "
        "window cue confirmed by the parse; off, negation always agrees "
        "(polarity.polarity_conflict)"),
    "quantities": (
        "claim support: numbers, dates and quantities stated, restated in other forms, "
        "contradicted or bounded the other way; off, figures always agree "
        "(verifier._values)"),
    "comparisons": (
        "claim support: a claim comparing two names ('formed earlier than', 'larger than') is "
        "decided by the year or quantity the premise gives each; the claim extractor completes "
        "a bare comparative from the question's two alternatives (comparisons.comparison, "
        "claims._compared_with)"),
    # --- claims of a text (faithfulness and every claim-based metric; answer clauses)
    "claim_pronouns": (
        "claims: a leading pronoun or possessive of a claim is replaced by its referent, from "
        "the text or the question (claims._Resolver.resolve); also the answer clauses that "
        "question coverage and the critiques read"),
    "hedges": (
        "claims: clauses that are hedges, refusals or fillers ('I'm not sure', 'Hope this "
        "helps') are not claims; off, every clause is a claim (hedges.piece_kind)"),
    "noncommittal": (
        "claims and answer addressing: a whole answer that is a refusal, 'I don't know' or a "
        "vague hedge has no claims and addresses nothing; off, no answer is noncommittal "
        "(hedges.noncommittal)"),
    # --- answer addressing (answer relevancy; conciseness reads the parts too)
    "question_parts": (
        "answer addressing: a question cut into the parts it asks (several '?', conjoined "
        "wh-clauses, noun lists) with pronouns resolved between them; off, the whole question "
        "is one part (question_parts._question_parts)"),
    # --- chunk relevance (context relevance)
    "question_focus": (
        "chunk relevance: the question's focus present in the chunk with an answer of the "
        "expected kind beside it (presence, evidence, answer type, predicate, asked); off, "
        "only the lexical score (chunk_relevance.ChunkRelevanceScorer.combine)"),
    "chunk_cosine": (
        "chunk relevance: the MiniLM cosine of question and whole chunk in the lexical score "
        "(chunk_relevance.ChunkRelevanceScorer.combine)"),
    "lexical_overlap": (
        "chunk relevance: best-sentence coverage and BM25-like focus of the question's key "
        "terms in the lexical score (chunk_relevance.ChunkRelevanceScorer.combine); sentence "
        "relevance always keeps them, they are its whole signal"),
}
"""Every rule family of the local judge: name -> what it does, which judgement it serves and
where its switch sits.

Deleted on 2026-11-27 after the blind ablation (bench/HISTORY.md), because switching each off
moved no blind figure the right way: ``premise_pronouns`` (a premise sentence opening on a
pronoun read with the previous subject), ``anchoring`` (a claim's names and figures held to
its own evidence sentence; blind RAG pairwise +0.042 without it). ``lexical_overlap`` was
deleted from chunk relevance too (pairwise +0.050 blind, +0.023 development without it) and
restored the same day: on MS MARCO dev, real queries, it is worth 0.07. ``comparisons``, ``hedges`` and ``noncommittal`` moved nothing there
either, but only because no blind pair holds a comparative, a hedge or a whole refusal; the
hand cases in the tests, which the metrics' contract requires, need them."""

_LOCK = threading.Lock()
_SWITCHED: frozenset[str] = frozenset()  # by families_off, nested blocks included
_FROM_ENV: frozenset[str] = frozenset()  # by from_environment
_OFF: frozenset[str] = frozenset()  # their union: what enabled() reads


def parse_names(names: "str | Iterable[str]") -> frozenset[str]:
    """Family names from a comma-separated string or an iterable of names, checked.

    An unknown name is a ``ValueError`` naming the known ones: a typo would otherwise switch
    nothing off and the benchmark would report a family adding nothing."""
    if isinstance(names, str):
        names = names.split(",")
    wanted = frozenset(n.strip() for n in names if n and n.strip())
    unknown = sorted(wanted - FAMILIES.keys())
    if unknown:
        raise InvalidOption(f"unknown rule famil{'y' if len(unknown) == 1 else 'ies'} "
                         f"{', '.join(unknown)}; known: {', '.join(FAMILIES)}")
    return wanted


def enabled(name: str) -> bool:
    """Whether the family ``name`` is on (the default). Cheap: one set look-up, no lock (the
    set is replaced whole, never changed in place)."""
    return name not in _OFF


def disabled() -> frozenset[str]:
    """The families switched off now, by either switch."""
    return _OFF


def _set(switched: frozenset[str] | None = None, from_env: frozenset[str] | None = None) -> None:
    global _SWITCHED, _FROM_ENV, _OFF
    with _LOCK:
        if switched is not None:
            _SWITCHED = switched
        if from_env is not None:
            _FROM_ENV = from_env
        changed = (_SWITCHED | _FROM_ENV) != _OFF
        _OFF = _SWITCHED | _FROM_ENV
    if changed:
        caches.clear_caches()


@contextmanager
def families_off(*names: str) -> Iterator[frozenset[str]]:
    """Switch the named families off inside the block (and back on after it).

    Nested blocks add up. Process-wide, not per task: meant for tests and benchmarks that
    score one configuration at a time, not for two configurations at once."""
    wanted = parse_names(names)
    with _LOCK:
        before = _SWITCHED
    _set(switched=before | wanted)
    try:
        yield _OFF
    finally:
        _set(switched=before)


def from_environment(environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """Read ``RAGMETER_LOCAL_OFF`` (``LocalJudge`` calls this when it is built) and switch
    those families off; unset or empty switches none. Returns the families it read."""
    env = os.environ if environ is None else environ
    names = parse_names(env.get(ENV, ""))
    _set(from_env=names)
    return names
