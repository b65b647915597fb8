"""BLEU: n-gram overlap of the answer with the ground truth (one sentence, one reference).

The answer is the hypothesis and the ground truth the single reference, both tokenised by
``ragmeter.metrics.text.tokenize`` (NFKC, casefold, words of any script, punctuation
dropped). With ``c`` answer tokens, ``r`` ground-truth tokens and, for each order n, ``m_n``
the clipped n-gram matches (each answer n-gram counted at most as often as it occurs in
the ground truth) out of ``l_n = max(c - n + 1, 0)`` answer n-grams:

    p_1  = m_1 / l_1
    p_n  = (m_n + 1) / (l_n + 1)                   for n = 2 .. N   (add-one smoothing)
    BP   = 1 if c > r else exp(1 - r / c)          (brevity penalty)
    BLEU = BP * exp( (1/N) * sum_{n=1..N} log p_n )

The add-one smoothing for n >= 2 is that of Lin & Och (2004), "method 2" in Chen & Cherry
(2014): without it a short answer with no 4-gram in common with the ground truth scores 0
however good it is. Unigrams are not smoothed, so an answer sharing no word with the
ground truth scores 0. Identical texts score 1.

Scores are not comparable with corpus BLEU from sacrebleu (other tokenisation, one
sentence, smoothing). No judge, no embedder.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ragmeter.data import Sample
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.text import tokenize
from ragmeter.errors import InvalidOption

if TYPE_CHECKING:
    from ragmeter.facts import SampleFacts


def _ngrams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def bleu_details(
    hypothesis: Sequence[str], reference: Sequence[str], max_n: int = 4
) -> dict[str, Any]:
    """Sentence BLEU with its parts: per-order matches and precisions, brevity penalty.

    Parameters
    ----------
    hypothesis : sequence of str
        The answer's tokens.
    reference : sequence of str
        The ground truth's tokens.
    max_n : int, default 4
        The highest n-gram order N; the geometric mean has weight 1/N per order.

    Returns
    -------
    dict
        ``bleu`` (float in [0, 1]); ``precisions``, one ``{"n", "matches", "total",
        "precision"}`` per order (``precision`` smoothed for n >= 2);
        ``brevity_penalty``; ``answer_length`` (c); ``ground_truth_length`` (r).
        An empty hypothesis scores 0, or 1 when the reference is empty too.

    Examples
    --------
    >>> d = bleu_details("the cat sat on the mat".split(), "the cat is on the mat".split())
    >>> [p["matches"] for p in d["precisions"]], round(d["bleu"], 4)
    ([5, 3, 1, 0], 0.4855)
    """
    if max_n < 1:
        raise InvalidOption("max_n must be at least 1")
    c, r = len(hypothesis), len(reference)
    orders = []
    log_sum = 0.0
    for n in range(1, max_n + 1):
        hyp, ref = _ngrams(hypothesis, n), _ngrams(reference, n)
        matches = sum(min(count, ref[gram]) for gram, count in hyp.items())
        total = max(c - n + 1, 0)
        if n == 1:
            precision = matches / total if total else 0.0
        else:
            precision = (matches + 1) / (total + 1)
        orders.append({"n": n, "matches": matches, "total": total, "precision": precision})
        log_sum += math.log(precision) if precision > 0 else -math.inf
    if c == 0:
        bp = 0.0
        bleu = 1.0 if r == 0 else 0.0
    else:
        bp = 1.0 if c > r else math.exp(1.0 - r / c)
        bleu = bp * math.exp(log_sum / max_n) if log_sum > -math.inf else 0.0
    return {
        "bleu": bleu,
        "precisions": orders,
        "brevity_penalty": bp,
        "answer_length": c,
        "ground_truth_length": r,
    }


def bleu_score(answer: str, ground_truth: str, max_n: int = 4) -> float:
    """Smoothed sentence BLEU of ``answer`` against ``ground_truth`` (see ``bleu_details``).

    Examples
    --------
    >>> bleu_score("The cat is on the mat.", "the cat is on the mat")
    1.0
    """
    return bleu_details(tokenize(answer), tokenize(ground_truth), max_n)["bleu"]


@register
class Bleu(Metric):
    name = "bleu"
    required = ("answer", "ground_truth")

    def __init__(self, max_n: int = 4) -> None:
        if isinstance(max_n, bool) or not isinstance(max_n, int) or max_n < 1:
            raise InvalidOption("max_n must be an integer of at least 1")
        self.max_n = max_n

    def config(self) -> dict[str, Any]:
        return {"max_n": self.max_n}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        answer = tokenize(sample.answer or "")
        d = bleu_details(answer, tokenize(sample.ground_truth or ""), self.max_n)
        c, r = d["answer_length"], d["ground_truth_length"]
        if c == 0:
            reason = (
                f"BLEU {d['bleu']:.3f}: the answer has no word tokens"
                + (" and neither has the ground truth" if r == 0 else "")
            )
        else:
            precisions = "/".join(f"{p['precision']:.2f}" for p in d["precisions"])
            reason = (
                f"BLEU {d['bleu']:.3f}: 1..{self.max_n}-gram precisions {precisions}"
                + (" (n>=2 smoothed)" if self.max_n > 1 else "")
                + f", brevity penalty {d['brevity_penalty']:.3f} "
                f"(answer {c} tokens, ground truth {r})"
            )
        verdicts = {
            **d,
            "bleu": round(d["bleu"], 6),
            "brevity_penalty": round(d["brevity_penalty"], 6),
            "precisions": [{**p, "precision": round(p["precision"], 6)} for p in d["precisions"]],
        }
        return MetricScore.ok(d["bleu"], reason, verdicts)
