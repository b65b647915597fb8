"""Token F1: how many words the answer and the ground truth share (SQuAD style).

Both texts become bags (multisets) of tokens A and G (see ``ragmeter.metrics.text.tokenize``:
NFKC, casefold, words of any script). The overlap counts each token as often as it
occurs in both, ``|A ∩ G| = sum_t min(A[t], G[t])``:

    precision = |A ∩ G| / |A|
    recall    = |A ∩ G| / |G|
    F1        = 2 * precision * recall / (precision + recall)   (0 when the overlap is 0)

When a side has no tokens (empty, or only punctuation), F1 is 1.0 if neither has any and
0.0 otherwise, as in the SQuAD evaluation script. No judge, no embedder.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ragmeter.data import Sample
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.text import tokenize

if TYPE_CHECKING:
    from ragmeter.facts import SampleFacts


def token_prf(
    answer_tokens: Sequence[str], truth_tokens: Sequence[str]
) -> tuple[float, float, float, int]:
    """Bag-of-tokens precision, recall and F1 of an answer against a ground truth.

    Parameters
    ----------
    answer_tokens, truth_tokens : sequence of str
        The tokens of each text; repeats count (a multiset).

    Returns
    -------
    precision, recall, f1 : float
        ``common / len(answer_tokens)``, ``common / len(truth_tokens)`` and their harmonic
        mean. With an empty side: (1, 1, 1) when both are empty, (0, 0, 0) otherwise.
    common : int
        ``sum_t min(count_answer(t), count_truth(t))``.

    Examples
    --------
    >>> token_prf(["the", "cat", "sat"], ["the", "cat", "sat", "down"])
    (1.0, 0.75, 0.8571428571428571, 3)
    """
    if not answer_tokens or not truth_tokens:
        same = float(not answer_tokens and not truth_tokens)
        return same, same, same, 0
    common = sum((Counter(answer_tokens) & Counter(truth_tokens)).values())
    if common == 0:
        return 0.0, 0.0, 0.0, 0
    precision = common / len(answer_tokens)
    recall = common / len(truth_tokens)
    return precision, recall, 2 * precision * recall / (precision + recall), common


def token_f1_score(answer: str, ground_truth: str) -> float:
    """F1 of the token overlap of two texts (see ``token_prf``); in [0, 1].

    Examples
    --------
    >>> round(token_f1_score("Paris is the capital", "The capital is Paris, France"), 4)
    0.8889
    """
    return token_prf(tokenize(answer), tokenize(ground_truth))[2]


@register
class TokenF1(Metric):
    name = "token_f1"
    required = ("answer", "ground_truth")

    def config(self) -> dict[str, Any]:
        return {}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        answer = tokenize(sample.answer or "")
        truth = tokenize(sample.ground_truth or "")
        precision, recall, f1, common = token_prf(answer, truth)
        verdicts = {
            "precision": round(precision, 6),
            "recall": round(recall, 6),
            "common_tokens": common,
            "answer_tokens": len(answer),
            "ground_truth_tokens": len(truth),
        }
        if not answer or not truth:
            which = "neither text has" if not answer and not truth else (
                "the answer has" if not answer else "the ground truth has"
            )
            reason = f"token F1 {f1:.3f}: {which} no word tokens"
        else:
            reason = (
                f"token F1 {f1:.3f}: {common} of the answer's {len(answer)} tokens are in the "
                f"ground truth (precision {precision:.3f}), covering {common} of its "
                f"{len(truth)} tokens (recall {recall:.3f})"
            )
        return MetricScore.ok(f1, reason, verdicts)
