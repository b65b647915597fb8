"""Sentence boundaries as character offsets, by rules: fast, deterministic, no model.

The chunker needs boundaries, not linguistics: a rare wrong split costs a slightly odd chunk
edge, while a model (spaCy's parser) would cost seconds per document and tie chunk edges to a
model version. The rules:

* A blank line ends a paragraph, and so a sentence (headings, list blocks, table cells).
* A line break ends a sentence when the line ends in ``. ! ? : ;`` or the next line starts a
  list item (``-``, ``*``, ``•``, ``1.``, ``a)``); otherwise it is a soft wrap.
* ``!``, ``?`` and ``…`` end a sentence before whitespace and a capital, digit, quote or
  bracket. ``.`` does too, except after a known abbreviation ("Dr.", "e.g.", "Fig.") or a
  single capital letter (the initial in "J. Smith"). Decimals ("3.14") never qualify since
  no space follows the point.

Offsets are returned instead of strings so that chunks can point back into the document.
"""

from __future__ import annotations

import re

ABBREVIATIONS: frozenset[str] = frozenset({
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "rev", "gen", "col", "lt",
    "sgt", "capt", "gov", "sen", "rep", "pres", "hon", "vs", "v", "e.g", "i.e", "cf", "al",
    "approx", "ca", "fig", "figs", "eq", "eqs", "ref", "refs", "sec", "ch", "vol", "vols",
    "no", "nos", "pp", "p", "para", "art", "ed", "eds", "est", "dept", "univ", "assn", "inc",
    "ltd", "co", "corp", "bros", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "u.s", "u.k", "u.n", "a.m", "p.m", "ph.d", "b.sc", "m.sc",
})
"""Words (lower case, without the final point) after which ``.`` does not end a sentence."""

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_TERMINAL = re.compile(r"([.!?\u2026]+)[\"'\u201d\u2019)\]]*(?=\s)")
_NEXT_STARTS_SENTENCE = re.compile(r"\s+[\"'\u201c\u2018(\[]*[A-Z0-9\u00c0-\u00de]")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*\u2022\u25aa\u2023\u25e6]\s|\d{1,3}[.)]\s|[a-z][.)]\s)")
_WORD_BEFORE = re.compile(r"([\w.]+)$")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every sentence in ``text``, in order, without surrounding space."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        spans.extend(_paragraph_sentences(text, start, match.start()))
        start = match.end()
    spans.extend(_paragraph_sentences(text, start, len(text)))
    return spans


def _paragraph_sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    cuts = sorted(set(_line_cuts(text, start, end)) | set(_punctuation_cuts(text, start, end)))
    spans = []
    begin = start
    for cut in [*cuts, end]:
        span = _strip(text, begin, cut)
        if span is not None:
            spans.append(span)
        begin = cut
    return spans


def _line_cuts(text: str, start: int, end: int) -> list[int]:
    cuts = []
    position = text.find("\n", start, end)
    while position != -1:
        before = text[start:position].rstrip()
        if (before and before[-1] in ".!?:;\u2026") or _LIST_ITEM.match(text, position + 1):
            cuts.append(position + 1)
        position = text.find("\n", position + 1, end)
    return cuts


def _punctuation_cuts(text: str, start: int, end: int) -> list[int]:
    cuts = []
    segment = text[start:end]
    for match in _TERMINAL.finditer(segment):
        cut = match.end()
        if not _NEXT_STARTS_SENTENCE.match(segment, cut):
            continue
        if match.group(1) == "." and _is_abbreviation(segment[: match.start(1)]):
            continue
        cuts.append(start + cut)
    return cuts


def _is_abbreviation(before: str) -> bool:
    word = _WORD_BEFORE.search(before)
    if word is None:
        return False
    token = word.group(1).lower()
    if len(token) == 1 and token.isalpha():
        return True  # an initial: "J. Smith", "Fig. 3 (a."
    return token in ABBREVIATIONS


def _strip(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None
