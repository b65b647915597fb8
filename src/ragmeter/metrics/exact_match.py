"""Exact match: is the answer the ground truth, up to case, punctuation and spacing?

    exact_match = 1  if norm(answer) == norm(ground_truth)  else 0

``norm`` is Unicode NFKC, casefold, punctuation removed, whitespace collapsed (see
``ragmeter.metrics.text.normalize_text``); with ``normalize=False`` the strings are
compared as they are. Binary, so it is left out of the summary score. No judge, no
embedder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ragmeter.data import Sample
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.text import normalize_text

if TYPE_CHECKING:
    from ragmeter.facts import SampleFacts


def exact_match_score(answer: str, ground_truth: str, normalize: bool = True) -> float:
    """1.0 when the two texts are equal (after normalisation), else 0.0.

    Parameters
    ----------
    answer, ground_truth : str
        The texts to compare.
    normalize : bool, default True
        Compare ``normalize_text(answer) == normalize_text(ground_truth)`` (NFKC, casefold,
        punctuation removed, whitespace collapsed) instead of the raw strings.

    Returns
    -------
    float
        1.0 or 0.0. Two texts that both normalise to "" (say "..." and "?") match.

    Examples
    --------
    >>> exact_match_score("Paris.", "  paris")
    1.0
    >>> exact_match_score("Paris.", "  paris", normalize=False)
    0.0
    """
    if normalize:
        answer, ground_truth = normalize_text(answer), normalize_text(ground_truth)
    return 1.0 if answer == ground_truth else 0.0


@register
class ExactMatch(Metric):
    name = "exact_match"
    required = ("answer", "ground_truth")
    binary = True

    def __init__(self, normalize: bool = True) -> None:
        self.normalize = bool(normalize)

    def config(self) -> dict[str, Any]:
        return {"normalize": self.normalize}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        answer, truth = sample.answer or "", sample.ground_truth or ""
        value = exact_match_score(answer, truth, self.normalize)
        if self.normalize:
            answer, truth = normalize_text(answer), normalize_text(truth)
        how = "after normalisation" if self.normalize else "as written"
        if value:
            reason = f"the answer equals the ground truth {how}"
        else:
            reason = f"the answer differs from the ground truth {how}"
        verdicts = {"match": bool(value), "answer": answer, "ground_truth": truth}
        return MetricScore.ok(value, reason, verdicts)
