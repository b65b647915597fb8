"""Cutting documents into chunks: sentence-aware, token-sized, overlapping, deduplicated.

A chunk is what a generated question is written from and what the reference context
cites, so it should read as whole sentences, fit the embedder's window, and not repeat
another chunk. The procedure, per document:

1. Split the text into sentences (``sentence_split``; paragraphs are boundaries too) and
   count each one's tokens (``token_count``: MiniLM's WordPiece by default).
2. A sentence longer than ``max_tokens`` is cut into pieces at word boundaries (mid-word
   only for a single "word" longer than the budget, such as a long URL).
3. Pack sentences greedily into chunks of at most ``max_tokens``. Each next chunk starts by
   repeating the previous chunk's last whole sentences, up to ``overlap_tokens``, so a fact
   that straddles a boundary is whole in one of them.
4. A last chunk under ``min_tokens`` is merged into the one before when both fit in
   ``max_tokens``; otherwise it takes in more preceding sentences until it is big enough.
   (A document shorter than ``min_tokens`` stays one small chunk: dropping text is worse.)

Then, across all documents, a chunk whose word 5-gram Jaccard similarity to an earlier
kept chunk reaches ``dedupe_threshold`` is dropped (``near_duplicates``). Surviving chunks
keep their ``index`` (position among their document's chunks), so a gap marks a removed
duplicate.

Every chunk's ``text`` is exactly ``document.text[chunk.start:chunk.end]``. Nothing here is
random: the same documents and settings give the same chunks, ids included.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Iterable

from testset_gen.documents.document import Chunk, Document
from testset_gen.documents.near_duplicates import duplicate_indices
from testset_gen.documents.sentence_split import sentence_spans
from testset_gen.documents.token_count import TokenCounter, default_counter


@dataclass(frozen=True)
class _Unit:
    """A sentence, or a piece of an over-long one: the smallest thing a chunk holds."""

    start: int
    end: int
    tokens: int


def chunk_documents(
    documents: Iterable[Document],
    *,
    max_tokens: int = 256,
    overlap_tokens: int = 32,
    min_tokens: int = 24,
    dedupe_threshold: float | None = 0.9,
    token_counter: TokenCounter | None = None,
) -> list[Chunk]:
    """Chunks of every document, in document order then reading order.

    ``dedupe_threshold=None`` keeps near-duplicates. ``token_counter`` replaces the MiniLM
    WordPiece counter (use your embedder's tokenizer if it is not MiniLM). ``overlap_tokens``
    and ``min_tokens`` are capped by ``max_tokens`` rather than refused, so that a caller who
    only shrinks ``max_tokens`` below the defaults gets chunks, not an error."""
    _check_settings(max_tokens, overlap_tokens, min_tokens, dedupe_threshold)
    overlap_tokens = min(overlap_tokens, max_tokens - 1)
    min_tokens = min(min_tokens, max_tokens)
    counter = token_counter or default_counter()
    chunks: list[Chunk] = []
    for document in documents:
        chunks.extend(_chunk_document(document, counter, max_tokens, overlap_tokens, min_tokens))
    if dedupe_threshold is None:
        return chunks
    dropped = duplicate_indices([c.text for c in chunks], dedupe_threshold)
    return [c for i, c in enumerate(chunks) if i not in dropped]


def _check_settings(max_tokens: int, overlap_tokens: int, min_tokens: int,
                    dedupe_threshold: float | None) -> None:
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
    if overlap_tokens < 0:
        raise ValueError(f"overlap_tokens must be at least 0, got {overlap_tokens}")
    if min_tokens < 0:
        raise ValueError(f"min_tokens must be at least 0, got {min_tokens}")
    if dedupe_threshold is not None and not 0.0 < dedupe_threshold <= 1.0:
        raise ValueError(f"dedupe_threshold must be in (0, 1] or None, got {dedupe_threshold}")


def _chunk_document(document: Document, counter: TokenCounter, max_tokens: int,
                    overlap_tokens: int, min_tokens: int) -> list[Chunk]:
    text = document.text
    token_spans = counter.spans(text)  # one pass over the document
    token_starts = [start for start, _ in token_spans]
    units: list[_Unit] = []
    for start, end in sentence_spans(text):
        units.extend(_units(text, start, end, token_spans, token_starts, max_tokens))
    ranges = _pack(units, max_tokens, overlap_tokens)
    ranges = _absorb_tiny_tail(ranges, units, max_tokens, min_tokens)
    chunks = []
    for index, (first, last) in enumerate(ranges):
        start, end = units[first].start, units[last - 1].end
        tokens = sum(u.tokens for u in units[first:last])
        chunks.append(Chunk.make(document, text[start:end], index, start, end, tokens))
    return chunks


def _units(text: str, start: int, end: int, token_spans: list[tuple[int, int]],
           token_starts: list[int], max_tokens: int) -> list[_Unit]:
    """The sentence ``[start, end)`` as one unit, or as pieces of at most ``max_tokens``."""
    lo = bisect.bisect_left(token_starts, start)
    hi = bisect.bisect_left(token_starts, end)
    if hi - lo <= max_tokens:
        return [_Unit(start, end, hi - lo)]
    pieces: list[_Unit] = []
    first = lo
    while first < hi:
        last = min(first + max_tokens, hi)
        if last < hi:
            # Back off to the last token that begins a word, unless that leaves nothing.
            cut = last
            while cut > first + 1 and not _starts_word(text, token_spans, cut):
                cut -= 1
            if cut > first + 1 or _starts_word(text, token_spans, cut):
                last = cut
        piece_start = start if first == lo else token_spans[first][0]
        piece_end = end if last == hi else token_spans[last - 1][1]
        pieces.append(_Unit(piece_start, piece_end, last - first))
        first = last
    return pieces


def _starts_word(text: str, token_spans: list[tuple[int, int]], i: int) -> bool:
    """Whether token ``i`` follows whitespace (so cutting before it splits no word)."""
    gap = text[token_spans[i - 1][1]:token_spans[i][0]]
    return any(ch.isspace() for ch in gap)


def _pack(units: list[_Unit], max_tokens: int, overlap_tokens: int) -> list[tuple[int, int]]:
    """Greedy packing into ``[first, last)`` unit ranges, with whole-sentence overlap."""
    ranges: list[tuple[int, int]] = []
    first = 0
    while first < len(units):
        last, total = first, 0
        while last < len(units) and total + units[last].tokens <= max_tokens:
            total += units[last].tokens
            last += 1
        ranges.append((first, last))
        if last == len(units):
            break
        # Repeat trailing sentences of this chunk, as long as they fit in the overlap budget
        # and leave room for the next new sentence (else the next chunk would add nothing).
        room = max_tokens - units[last].tokens
        next_first, overlap = last, 0
        while next_first - 1 > first:
            size = units[next_first - 1].tokens
            if overlap + size > overlap_tokens or overlap + size > room:
                break
            overlap += size
            next_first -= 1
        first = next_first
    return ranges


def _absorb_tiny_tail(ranges: list[tuple[int, int]], units: list[_Unit], max_tokens: int,
                      min_tokens: int) -> list[tuple[int, int]]:
    if len(ranges) < 2:
        return ranges

    def size(first: int, last: int) -> int:
        return sum(u.tokens for u in units[first:last])

    (prev_first, _), (tail_first, tail_last) = ranges[-2], ranges[-1]
    if size(tail_first, tail_last) >= min_tokens:
        return ranges
    if size(prev_first, tail_last) <= max_tokens:
        return [*ranges[:-2], (prev_first, tail_last)]
    # Too big to merge: let the tail start earlier, overlapping its predecessor more.
    total = size(tail_first, tail_last)
    while (tail_first - 1 > prev_first and total < min_tokens
           and total + units[tail_first - 1].tokens <= max_tokens):
        tail_first -= 1
        total += units[tail_first].tokens
    return [*ranges[:-1], (tail_first, tail_last)]
