"""ROUGE-L: the longest run of words the answer and the ground truth share, in order.

Both texts are tokenised by ``ragmeter.metrics.text.tokenize`` (NFKC, casefold, words of
any script, punctuation dropped). With ``LCS`` the length of their longest common
subsequence (tokens in the same order, not necessarily adjacent), ``c`` answer tokens and
``r`` ground-truth tokens:

    P    = LCS / c
    R    = LCS / r
    F_β  = (1 + β²) * P * R / (R + β² * P)          (0 when LCS = 0)

β = 1 (the default) weighs precision and recall equally; β > 1 favours recall. When a
side has no tokens the score is 1.0 if neither has any and 0.0 otherwise. No judge, no
embedder.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ragmeter.data import Sample
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.text import tokenize
from ragmeter.errors import InvalidOption

if TYPE_CHECKING:
    from ragmeter.facts import SampleFacts


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token sequences.

    Bit-parallel (Allison & Dix 1986, Crochemore et al. 2001): one row of the LCS table is
    held as a bit vector in a Python integer, so the cost is O(len(b)) big-integer
    operations instead of O(len(a) * len(b)) Python steps. It gives the same number as the
    textbook dynamic programme (the tests check it against one).

    Examples
    --------
    >>> lcs_length("the cat sat on the mat".split(), "the cat is on the mat".split())
    5
    """
    if not a or not b:
        return 0
    positions: dict[str, int] = {}
    for i, token in enumerate(a):
        positions[token] = positions.get(token, 0) | (1 << i)
    mask = (1 << len(a)) - 1
    row = mask  # a 1 bit is a position of ``a`` not yet used by the subsequence
    for token in b:
        matches = row & positions.get(token, 0)
        row = ((row + matches) | (row - matches)) & mask
    return len(a) - bin(row).count("1")


def rouge_l_prf(
    answer_tokens: Sequence[str], truth_tokens: Sequence[str], beta: float = 1.0
) -> tuple[float, float, float, int]:
    """ROUGE-L precision, recall and F-measure of an answer against a ground truth.

    Parameters
    ----------
    answer_tokens, truth_tokens : sequence of str
        The tokens of each text.
    beta : float, default 1.0
        Weight of recall relative to precision in the F-measure (must be > 0).

    Returns
    -------
    precision, recall, f : float
        ``LCS / len(answer_tokens)``, ``LCS / len(truth_tokens)`` and
        ``(1 + β²) P R / (R + β² P)``. With an empty side: (1, 1, 1) when both are empty,
        (0, 0, 0) otherwise.
    lcs : int
        The length of the longest common subsequence.

    Examples
    --------
    >>> rouge_l_prf("a b c d".split(), "a c e".split())
    (0.5, 0.6666666666666666, 0.5714285714285715, 2)
    """
    if not beta > 0 or not math.isfinite(beta):
        raise InvalidOption("beta must be a positive number")
    if not answer_tokens or not truth_tokens:
        same = float(not answer_tokens and not truth_tokens)
        return same, same, same, 0
    lcs = lcs_length(answer_tokens, truth_tokens)
    if lcs == 0:
        return 0.0, 0.0, 0.0, 0
    precision, recall = lcs / len(answer_tokens), lcs / len(truth_tokens)
    b2 = beta * beta
    return precision, recall, (1 + b2) * precision * recall / (recall + b2 * precision), lcs


def rouge_l_score(answer: str, ground_truth: str, beta: float = 1.0) -> float:
    """ROUGE-L F-measure of two texts (see ``rouge_l_prf``).

    Examples
    --------
    >>> rouge_l_score("Paris is the capital.", "The capital is Paris")
    0.5
    """
    return rouge_l_prf(tokenize(answer), tokenize(ground_truth), beta)[2]


@register
class RougeL(Metric):
    name = "rouge_l"
    required = ("answer", "ground_truth")

    def __init__(self, beta: float = 1.0) -> None:
        if isinstance(beta, bool) or not isinstance(beta, (int, float)):
            raise InvalidOption("beta must be a positive number")
        if not beta > 0 or not math.isfinite(beta):
            raise InvalidOption("beta must be a positive number")
        self.beta = float(beta)

    def config(self) -> dict[str, Any]:
        return {"beta": self.beta}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        answer = tokenize(sample.answer or "")
        truth = tokenize(sample.ground_truth or "")
        precision, recall, f, lcs = rouge_l_prf(answer, truth, self.beta)
        verdicts = {
            "lcs": lcs,
            "precision": round(precision, 6),
            "recall": round(recall, 6),
            "answer_tokens": len(answer),
            "ground_truth_tokens": len(truth),
        }
        label = "ROUGE-L F1" if self.beta == 1.0 else f"ROUGE-L F(beta={self.beta:g})"
        if not answer or not truth:
            which = "neither text has" if not answer and not truth else (
                "the answer has" if not answer else "the ground truth has"
            )
            reason = f"{label} {f:.3f}: {which} no word tokens"
        else:
            reason = (
                f"{label} {f:.3f}: longest common subsequence of {lcs} tokens; "
                f"{lcs}/{len(answer)} of the answer (precision {precision:.3f}), "
                f"{lcs}/{len(truth)} of the ground truth (recall {recall:.3f})"
            )
        return MetricScore.ok(f, reason, verdicts)
