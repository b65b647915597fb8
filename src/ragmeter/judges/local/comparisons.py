"""Which of two things comes first or is larger, decided from the figures the premise gives each.

A comparison claim ("Hinder was formed earlier than Alice in Chains") shares every word but
the comparative with a premise that gives each band its year ("Hinder ... formed in 2001",
"Alice in Chains ... formed in 1987"), and word alignment supported it and its reverse
alike (0.64 and 0.66). Nothing in the words says which is earlier; the years do.

The check (``comparison``): the claim's compared things are its subject and the object of
its "than" (or of "before"/"after"), both names (capitalised: "than any other club" or
"than 30" compare with no one the premise names); each must be named by a premise sentence
that names not the other (a sentence naming both may state the comparison in words, which
the other signals read), and that sentence's first figure of the comparison's kind is its
value: a year for time ("earlier", "before", "older", "first, before"), else a quantity of
one kind in both (``quantities``: a length for "longer", a count for "more"). The
comparison holds (1) when the values are ordered as the comparative says, fails (0) when
they are not, and, for time, fails too when the premise does not give both years: a
comparison the passages cannot decide is not supported by them (a missing magnitude is
left to the other signals: passages state those comparisons in words). Not a comparison of two names: None.

The other compared thing may be only in the question ("Which band was formed earlier,
Hinder or Alice in Chains?" answered "Hinder was formed earlier."): the claim extractor
completes such a claim from the question (``claims``), so the claim carries both.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Sequence

from ragmeter.judges.local.families import enabled
from ragmeter.text import quantities, syntax

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Token

EARLIER, LATER = "earlier", "later"
_TIME = {"earlier": EARLIER, "sooner": EARLIER, "older": EARLIER, "before": EARLIER,
         "first": EARLIER, "later": LATER, "newer": LATER, "younger": LATER, "after": LATER}
"""Comparatives of time: "older" of a founding or a birth means earlier (an age in years
would say "older" of the larger count; such premises give ages rarely beside dates)."""
_MORE = frozenset("larger bigger more higher longer taller greater heavier deeper wider "
                  "faster further farther hotter warmer costlier".split())
_LESS = frozenset("smaller fewer less lower shorter lighter shallower narrower slower "
                  "colder cooler cheaper".split())
COMPARING = frozenset(_TIME) | _MORE | _LESS
"""The words that make a comparison of two things (``claims`` completes a claim that has
one from its question)."""

_CUE = re.compile(r"\b(?:than|before|after)\b", re.IGNORECASE)
_FILLER = frozenset("the a an".split())


def _phrase(token: "Token") -> list[str]:
    """The words of the noun phrase under ``token`` (its subtree), lowercased, without
    articles: "Alice in Chains" -> ["alice", "in", "chains"]."""
    return [t.lower_ for t in token.subtree if (t.is_alpha or t.like_num)
            and t.lower_ not in _FILLER]


def _named(token: "Token") -> bool:
    words = [t for t in token.subtree if t.is_alpha and t.lower_ not in _FILLER]
    return bool(words) and words[0].text[:1].isupper() and not any(
        t.lower_ in ("any", "other", "all", "most", "every") for t in words)


_FIRST_BEFORE = re.compile(r"\bfirst\b,?\s+(?:before|after)\b", re.IGNORECASE)


def ordering_first(claim: str) -> bool:
    """Whether the claim's "first" orders two things ("was formed first, before Hinder"):
    no rank one for the premise to state, the comparison decides it."""
    return _FIRST_BEFORE.search(claim) is not None


def _object(prep: "Token | None") -> "Token | None":
    return next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None


def _compared(claim: str) -> tuple[list[str], list[str], str] | None:
    """The claim's subject, its other compared thing and the comparative, or None.

    "before"/"after" compare only beside "first" ("was formed first, before Alice in
    Chains", as ``claims`` completes a claim): alone they place an event in time ("moved
    to the US before World War II"), which is no comparison of two like things."""
    if not _CUE.search(claim):
        return None  # most claims: no parse
    [doc] = syntax.parse([claim], entities=False)
    for token in doc:
        word = token.lower_
        if word in ("before", "after"):
            if token.dep_ != "prep" or not any(c.lower_ == "first" for c in token.head.children):
                continue
            other = _object(token)
        elif word in COMPARING and word != "first":
            other = _object(next((c for c in (*token.children, *token.head.children)
                                  if c.dep_ == "prep" and c.lower_ == "than"), None))
        else:
            continue
        if other is None:
            continue
        verb = token.head
        # by index: spaCy builds a new Token object on every ``.head``, so ``is`` never holds
        # at the root and a verbless clause looped for ever
        while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:
            verb = verb.head
        subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is None or not _named(subject) or not _named(other):
            return None
        return _phrase(subject), _phrase(other), word
    return None


def _names(sentence: str, words: Sequence[str]) -> bool:
    return re.search(r"\b" + r"\W+".join(map(re.escape, words)) + r"\b", sentence,
                     re.IGNORECASE) is not None


def _value(sentence: str, kind: str | None) -> tuple[str, Fraction] | None:
    for q in quantities.quantities(sentence):
        if q.difference or (kind == "years") != (q.kind == "years"):
            continue
        if kind in (None, "years") or q.kind == kind:
            return q.kind, q.low
    return None


def comparison(claim: str, sentences: Sequence[str]) -> float | None:
    """1 when the premise ``sentences`` give the claim's two compared names figures ordered
    as its comparative says, 0 when they give them the other way or do not give both, None
    when the claim compares no two names or a sentence names both (see the module
    docstring)."""
    if not enabled("comparisons"):
        return None
    found = _compared(claim)
    if found is None:
        return None
    mine, theirs, word = found
    if not mine or not theirs or mine == theirs:
        return None
    if any(_names(s, mine) and _names(s, theirs) for s in sentences):
        return None
    kind = "years" if word in _TIME else None
    # a year missing fails a comparison of time (a passage dates what it founds); a missing
    # magnitude leaves it to the other signals: measured on the support pairs, three faithful
    # claims ("NMC cells hold more energy per kilogram than LFP cells") compare what their
    # passage states in words in separate sentences ("LFP stores less energy")
    missing = 0.0 if kind else None
    a = next((v for s in sentences if _names(s, mine) for v in [_value(s, kind)] if v), None)
    if a is None:
        return missing
    b = next((v for s in sentences if _names(s, theirs) for v in [_value(s, a[0])] if v), None)
    if b is None:
        return missing
    if a[1] == b[1]:
        return 0.0
    smaller = a[1] < b[1]
    if word in _TIME:
        return 1.0 if smaller == (_TIME[word] == EARLIER) else 0.0
    return 1.0 if smaller == (word in _LESS) else 0.0
