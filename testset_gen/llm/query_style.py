"""How a question is phrased: its style (search box, conversation, typos, formal) and length.

Real users do not all type grammatical questions of ten words: some paste keywords into a
search box, some misspell, some write long formal requests. A test set written in one
register only measures a RAG app on that register, so each record gets a style and a length,
in shares the user can set (``--query-styles``, ``--query-lengths``).

The counts are exact, not drawn one by one: ``plan_counts`` gives each style its share of
the set (largest remainder, as for evolution types), and a seeded shuffle decides which
record gets which, so ``web_search=0.5`` on 10 records is 5 records, on every run.
"""

from __future__ import annotations

import random
from typing import Mapping

from testset_gen.distribution import parse_shares, plan_counts

QUERY_STYLES: dict[str, str] = {
    "web_search": (
        "like a query typed into a search engine: a few keywords or a fragment, mostly lower "
        "case, no question mark needed, no full sentence"
    ),
    "conversational": (
        "as a natural question a person would ask a knowledgeable colleague, in perfect "
        "grammar and everyday words"
    ),
    "misspelled": (
        "as a natural question typed in a hurry, with one or two realistic spelling mistakes "
        "(a swapped or missing letter); names may be misspelled too, but the question must "
        "stay understandable"
    ),
    "formal": (
        "as a formal, precise request in complete sentences, as in a written enquiry or a "
        "report"
    ),
}
"""Style name -> the instruction the writer gets (Ragas' styles: web-search-like, perfect
grammar, misspelled, plus formal)."""

QUERY_LENGTHS: dict[str, str] = {
    "short": "short: at most 10 words",
    "medium": "medium: 10 to 20 words",
    "long": "long: 20 to 40 words; it may describe the asker's situation before the question",
}

LENGTH_BOUNDS: dict[str, tuple[int, int]] = {"short": (1, 20), "medium": (5, 40), "long": (10, 80)}
"""Words a query of each length may have before it is rejected as mislabelled: twice the
asked range on the long side, half on the short side, so only a writer that ignored the
length is caught, not one that missed by a word."""


def length_problem(question: str, length: str) -> str | None:
    """``"wrong length: 27 words for short"`` when the query is far outside its length."""
    low, high = LENGTH_BOUNDS[length]
    n = len(question.split())
    return None if low <= n <= high else f"wrong length: {n} words for {length}"


DEFAULT_STYLES: dict[str, float] = {s: 1 / len(QUERY_STYLES) for s in QUERY_STYLES}
DEFAULT_LENGTHS: dict[str, float] = {n: 1 / len(QUERY_LENGTHS) for n in QUERY_LENGTHS}


def parse_styles(text: str | Mapping[str, float] | None) -> dict[str, float]:
    """``"web_search=0.5,conversational=0.5"`` -> shares (default: the four styles equally)."""
    return parse_shares(text, tuple(QUERY_STYLES), DEFAULT_STYLES, what="query style")


def parse_lengths(text: str | Mapping[str, float] | None) -> dict[str, float]:
    """``"short=0.5,long=0.5"`` -> shares (default: short, medium, long equally)."""
    return parse_shares(text, tuple(QUERY_LENGTHS), DEFAULT_LENGTHS, what="query length")


def assign(size: int, shares: Mapping[str, float], seed: int, salt: str) -> list[str]:
    """One name per record, ``size`` in all: each name exactly its ``plan_counts`` share, in
    an order shuffled by ``seed`` (and ``salt``, so styles and lengths are not shuffled alike
    and do not pair up the same way whatever the seed)."""
    counts = plan_counts(size, shares)
    names = [name for name, n in counts.items() for _ in range(n)]
    random.Random(f"{seed}:{salt}").shuffle(names)
    return names
