"""String similarity: how close the answer is to the ground truth, character by character.

Two measures, both in [0, 1] with 1 for identical strings:

``levenshtein`` (default), with d the edit distance (insertions, deletions and
substitutions of one character, each costing 1; computed bit-parallel, so long answers
stay fast)::

    similarity = 1 - d(a, b) / max(|a|, |b|)

``jaro_winkler``, with m the characters that match (equal, and no farther apart than
``max(|a|, |b|) // 2 - 1``), t half the matched characters that are out of order, and
l the length of the common prefix, at most 4::

    jaro         = (m / |a| + m / |b| + (m - t) / m) / 3        (0 when m = 0)
    jaro_winkler = jaro + 0.1 * l * (1 - jaro)                  (only when jaro > 0.7)

By default both strings are first normalised as for exact match (NFKC, casefold,
punctuation removed, whitespace collapsed), so "Paris." and "paris" are identical;
``normalize=False`` compares them as written. Two empty strings have similarity 1, an
empty and a non-empty one 0. Characters are Unicode code points (after NFKC). No judge,
no embedder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ragmeter.data import Sample
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.text import normalize_text
from ragmeter.errors import InvalidOption

if TYPE_CHECKING:
    from ragmeter.facts import SampleFacts

MEASURES = ("levenshtein", "jaro_winkler")


def levenshtein_distance(a: str, b: str) -> int:
    """The minimum number of single-character insertions, deletions and substitutions
    that turn ``a`` into ``b``.

    Computed with the bit-parallel algorithm of Myers (1999) in Hyyrö's (2001) form: one
    column of the edit-distance table is held as bit vectors in a Python integer, so the
    cost is O(|b|) big-integer operations instead of O(|a| |b|) Python steps. It gives the
    same number as the textbook dynamic programme (the tests check it against one).

    Examples
    --------
    >>> levenshtein_distance("kitten", "sitting")
    3
    """
    if a == b:
        return 0
    # A shared prefix or suffix never needs an edit: trim it first.
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    end = 0
    while end < min(len(a), len(b)) and a[-1 - end] == b[-1 - end]:
        end += 1
    if end:
        a, b = a[:-end], b[:-end]
    if len(a) > len(b):
        a, b = b, a  # the shorter string is the bit-vector pattern
    m = len(a)
    if m == 0:
        return len(b)
    peq: dict[str, int] = {}
    for i, ch in enumerate(a):
        peq[ch] = peq.get(ch, 0) | (1 << i)
    mask = (1 << m) - 1
    top = 1 << (m - 1)
    pv, mv, distance = mask, 0, m  # vertical deltas +1 all the way down column 0
    for ch in b:
        eq = peq.get(ch, 0)
        xv = eq | mv
        xh = ((((eq & pv) + pv) & mask) ^ pv) | eq
        ph = (mv | ~(xh | pv)) & mask
        mh = pv & xh
        if ph & top:
            distance += 1
        elif mh & top:
            distance -= 1
        ph = ((ph << 1) | 1) & mask  # row 0 grows by one per text character
        mh = (mh << 1) & mask
        pv = (mh | ~(xv | ph)) & mask
        mv = ph & xv
    return distance


def levenshtein_similarity(a: str, b: str) -> float:
    """``1 - levenshtein_distance(a, b) / max(len(a), len(b))``; 1.0 for two empty strings.

    Examples
    --------
    >>> round(levenshtein_similarity("kitten", "sitting"), 4)  # 1 - 3/7
    0.5714
    """
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    return 1.0 - levenshtein_distance(a, b) / longest


def jaro_winkler_details(
    a: str, b: str, prefix_weight: float = 0.1, boost_threshold: float = 0.7
) -> dict[str, Any]:
    """Jaro and Jaro-Winkler similarity with their parts.

    Parameters
    ----------
    a, b : str
        The strings to compare.
    prefix_weight : float, default 0.1
        p in ``jaro + p * l * (1 - jaro)``; at most 0.25 keeps the result in [0, 1].
    boost_threshold : float, default 0.7
        The prefix bonus is applied only when ``jaro`` exceeds it (Winkler's original).

    Returns
    -------
    dict
        ``similarity`` (Jaro-Winkler), ``jaro``, ``matches`` (m), ``transpositions`` (t)
        and ``prefix`` (l).

    Examples
    --------
    >>> round(jaro_winkler_details("MARTHA", "MARHTA")["similarity"], 4)
    0.9611
    """
    if not a and not b:
        return {"similarity": 1.0, "jaro": 1.0, "matches": 0, "transpositions": 0, "prefix": 0}
    if not a or not b:
        return {"similarity": 0.0, "jaro": 0.0, "matches": 0, "transpositions": 0, "prefix": 0}
    window = max(max(len(a), len(b)) // 2 - 1, 0)
    a_matched = [False] * len(a)
    b_matched = [False] * len(b)
    matches = 0
    for i, ch in enumerate(a):
        for j in range(max(0, i - window), min(len(b), i + window + 1)):
            if not b_matched[j] and b[j] == ch:
                a_matched[i] = b_matched[j] = True
                matches += 1
                break
    if matches == 0:
        return {"similarity": 0.0, "jaro": 0.0, "matches": 0, "transpositions": 0, "prefix": 0}
    a_seq = [ch for ch, hit in zip(a, a_matched) if hit]
    b_seq = [ch for ch, hit in zip(b, b_matched) if hit]
    transpositions = sum(x != y for x, y in zip(a_seq, b_seq)) // 2
    jaro = (matches / len(a) + matches / len(b) + (matches - transpositions) / matches) / 3
    prefix = 0
    for x, y in zip(a[:4], b[:4]):
        if x != y:
            break
        prefix += 1
    similarity = jaro + prefix_weight * prefix * (1 - jaro) if jaro > boost_threshold else jaro
    return {
        "similarity": similarity,
        "jaro": jaro,
        "matches": matches,
        "transpositions": transpositions,
        "prefix": prefix,
    }


def jaro_winkler_similarity(a: str, b: str) -> float:
    """Jaro-Winkler similarity (prefix weight 0.1, bonus above a Jaro of 0.7).

    Examples
    --------
    >>> round(jaro_winkler_similarity("DWAYNE", "DUANE"), 4)
    0.84
    """
    return jaro_winkler_details(a, b)["similarity"]


def string_similarity_score(
    answer: str, ground_truth: str, measure: str = "levenshtein", normalize: bool = True
) -> float:
    """Similarity of two strings by ``measure`` ("levenshtein" or "jaro_winkler").

    Examples
    --------
    >>> string_similarity_score("Paris.", "paris")
    1.0
    """
    if measure not in MEASURES:
        raise InvalidOption(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    if normalize:
        answer, ground_truth = normalize_text(answer), normalize_text(ground_truth)
    if measure == "levenshtein":
        return levenshtein_similarity(answer, ground_truth)
    return jaro_winkler_similarity(answer, ground_truth)


@register
class StringSimilarity(Metric):
    name = "string_similarity"
    required = ("answer", "ground_truth")

    def __init__(self, measure: str = "levenshtein", normalize: bool = True) -> None:
        measure = str(measure).strip().lower().replace("-", "_")
        if measure not in MEASURES:
            raise InvalidOption(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")
        self.measure = measure
        self.normalize = bool(normalize)

    def config(self) -> dict[str, Any]:
        return {"measure": self.measure, "normalize": self.normalize}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        answer, truth = sample.answer or "", sample.ground_truth or ""
        if self.normalize:
            answer, truth = normalize_text(answer), normalize_text(truth)
        how = " after normalisation" if self.normalize else ""
        if self.measure == "levenshtein":
            distance = levenshtein_distance(answer, truth)
            longest = max(len(answer), len(truth))
            value = 1.0 - distance / longest if longest else 1.0
            verdicts: dict[str, Any] = {
                "measure": self.measure,
                "distance": distance,
                "max_length": longest,
            }
            reason = (
                f"Levenshtein similarity {value:.3f}: {distance} character edit(s) over "
                f"{longest} characters{how}"
            )
        else:
            d = jaro_winkler_details(answer, truth)
            value = d["similarity"]
            verdicts = {
                "measure": self.measure,
                "similarity": round(value, 6),
                "jaro": round(d["jaro"], 6),
                "matches": d["matches"],
                "transpositions": d["transpositions"],
                "prefix": d["prefix"],
            }
            reason = (
                f"Jaro-Winkler similarity {value:.3f}{how}: {d['matches']} matching "
                f"characters, {d['transpositions']} transposition(s), common prefix {d['prefix']}"
            )
        return MetricScore.ok(value, reason, verdicts)
