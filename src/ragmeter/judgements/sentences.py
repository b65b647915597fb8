"""Splitting text into sentences without a model, for any script.

Context relevancy counts sentences, so the split must be the same on every run and for
every judge. A rule-based split on sentence-final punctuation (Latin, CJK, Devanagari,
Arabic) and line breaks is deterministic and needs no language model; abbreviations such
as "e.g." or "Dr." are kept inside their sentence.
"""

from __future__ import annotations

import re

_ABBREVIATIONS = {"e.g", "i.e", "etc", "vs", "dr", "mr", "mrs", "ms", "prof", "st", "no", "fig", "approx", "ca", "jr", "sr", "inc", "ltd", "co"}
_END = re.compile(r"(?<=[.!?。！？।۔])[\"'”’)\]]*\s+|(?<=[。！？])|\n\s*\n|\n(?=\s*[-*•]\s)")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` in order, stripped, none empty."""
    pieces: list[str] = []
    carry = ""
    for piece in _END.split(text):
        if piece is None:
            continue
        piece = (carry + " " + piece).strip() if carry else piece.strip()
        carry = ""
        if not piece:
            continue
        last_word = piece.rsplit(None, 1)[-1].rstrip(".").lower()
        if piece.endswith(".") and (last_word in _ABBREVIATIONS or re.fullmatch(r"[a-z]", last_word)):
            carry = piece  # "Dr." or "J." ends a word, not the sentence
            continue
        pieces.append(piece)
    if carry:
        pieces.append(carry)
    return pieces
