"""Finding near-duplicate texts: word 5-gram shingles, MinHash-LSH candidates, exact check.

Folders repeat themselves (a README copied into two projects, a page exported to both PDF
and HTML, boilerplate footers). Duplicated chunks would give the test set duplicated
questions and inflate whatever they measure, so the chunker drops every chunk whose shingle
Jaccard similarity to an earlier kept chunk reaches the threshold.

Comparing all pairs is quadratic, so MinHash with locality-sensitive hashing proposes
candidates and the exact Jaccard similarity of the shingle sets decides; the result is the
exact answer except for pairs LSH fails to propose, which the band layout keeps below 1 in
1,000 at the threshold itself (and far rarer above it). Hashes are CRC-32 with fixed
coefficients: the same texts give the same answer on every machine and every run (Python's
own ``hash`` is salted per process).
"""

from __future__ import annotations

import re
import zlib
from typing import Sequence

import numpy as np

SHINGLE_WORDS = 5
NUM_PERMUTATIONS = 128
_PRIME = np.uint64(4294967291)  # largest prime below 2**32: (a * x + b) stays below 2**64
_rng = np.random.RandomState(20240521)
_A = _rng.randint(1, 2**32 - 6, size=NUM_PERMUTATIONS, dtype=np.uint64)
_B = _rng.randint(0, 2**32 - 6, size=NUM_PERMUTATIONS, dtype=np.uint64)
_WORD = re.compile(r"\w+")


def shingles(text: str, size: int = SHINGLE_WORDS) -> frozenset[str]:
    """The set of ``size``-word windows of ``text`` (case-folded words); a text shorter than
    ``size`` words is one shingle, and a text with no word has none."""
    words = _WORD.findall(text.casefold())
    if not words:
        return frozenset()
    if len(words) < size:
        return frozenset({" ".join(words)})
    return frozenset(" ".join(words[i:i + size]) for i in range(len(words) - size + 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def duplicate_indices(texts: Sequence[str], threshold: float) -> set[int]:
    """Indices of texts that are near-duplicates (Jaccard >= ``threshold``) of an earlier
    text that is kept. The first of a group is kept, so input order decides."""
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    rows = _rows_per_band(threshold)
    buckets: dict[tuple[int, bytes], list[int]] = {}
    kept: dict[int, frozenset[str]] = {}
    dropped: set[int] = set()
    for index, text in enumerate(texts):
        shingle_set = shingles(text)
        if not shingle_set:
            continue  # nothing to compare: never a duplicate
        signature = _minhash(shingle_set)
        keys = [(band, signature[band * rows:(band + 1) * rows].tobytes())
                for band in range(NUM_PERMUTATIONS // rows)]
        candidates = sorted({other for key in keys for other in buckets.get(key, ())})
        if any(jaccard(shingle_set, kept[other]) >= threshold for other in candidates):
            dropped.add(index)
            continue
        kept[index] = shingle_set
        for key in keys:
            buckets.setdefault(key, []).append(index)
    return dropped


def _minhash(shingle_set: frozenset[str]) -> np.ndarray:
    hashes = np.fromiter((zlib.crc32(s.encode("utf-8")) for s in shingle_set),
                         dtype=np.uint64, count=len(shingle_set))
    return ((_A[:, None] * hashes[None, :] + _B[:, None]) % _PRIME).min(axis=1)


def _rows_per_band(threshold: float) -> int:
    """The most rows per band (fewest false candidates) that still proposes a pair at the
    threshold with probability >= 0.999: P = 1 - (1 - t**r) ** (permutations / r)."""
    best = 1
    for rows in (1, 2, 4, 8, 16, 32, 64):
        bands = NUM_PERMUTATIONS // rows
        if 1.0 - (1.0 - threshold ** rows) ** bands >= 0.999:
            best = rows
    return best
