"""Agreement of one metric's judge scores with people's labels: every statistic with its
bootstrap interval, the confusion table, and the disagreements with both sides' reasons."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from pydantic import BaseModel, Field

from ragmeter.align import statistics as st

DEFAULT_THRESHOLD = 0.5
"""A score or graded label at or above this is a "yes" (a metric's pass mark)."""


class Estimate(BaseModel):
    """A statistic and its bootstrap interval; ``value`` None when undefined on these data."""

    value: float | None
    low: float | None = None
    high: float | None = None

    def text(self) -> str:
        if self.value is None:
            return "n/a"
        if self.low is None or self.high is None:
            return f"{self.value:.3f}"
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


class Disagreement(BaseModel):
    """A sample where the judge's decision differs from the person's."""

    row: int
    id: str | None = None
    question: str | None = None
    answer: str | None = None
    score: float
    label: float
    reason: str = ""
    note: str | None = None


class MetricAgreement(BaseModel):
    """Agreement of one metric's scores with the labels of the same samples.

    ``n`` counts the labelled samples the judge scored; ``judge_errors`` those it could not
    (by error kind), which are left out of every statistic rather than counted as wrong."""

    metric: str
    n: int
    binary_labels: bool
    threshold: float
    accuracy: Estimate
    balanced_accuracy: Estimate
    cohen_kappa: Estimate
    spearman: Estimate
    kendall: Estimate
    pairwise_accuracy: Estimate
    confusion: dict[str, int]
    judge_mean: float | None = None
    label_mean: float | None = None
    judge_errors: dict[str, int] = Field(default_factory=dict)
    disagreements: list[Disagreement] = Field(default_factory=list)
    scores: list[float] = Field(default_factory=list)
    labels: list[float] = Field(default_factory=list)
    """The paired values behind the statistics, kept so that a saved report can still correct
    a run's means (prediction-powered means need the judge's error on each labelled sample)."""

    @property
    def primary(self) -> float | None:
        """The one number an optimiser maximises: balanced accuracy at the threshold (robust
        to a lopsided label mix), or pairwise accuracy when the labels have one class."""
        return self.balanced_accuracy.value if self.balanced_accuracy.value is not None else self.pairwise_accuracy.value


def estimate(statistic: st.Statistic, scores: np.ndarray, labels: np.ndarray, *,
             confidence: float, resamples: int, seed: int) -> Estimate:
    value = statistic(scores, labels)
    if value is None:
        return Estimate(value=None)
    interval = st.bootstrap_interval(statistic, scores, labels, confidence=confidence, resamples=resamples, seed=seed)
    return Estimate(value=value, low=interval[0] if interval else None, high=interval[1] if interval else None)


def measure_agreement(
    metric: str,
    scores: Sequence[float],
    labels: Sequence[float],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    confidence: float = 0.95,
    resamples: int = 1000,
    seed: int = 0,
    disagreements: list[Disagreement] | None = None,
    judge_errors: dict[str, int] | None = None,
) -> MetricAgreement:
    """Every statistic of ``scores`` against ``labels`` (paired, judge failures already
    removed), each with its percentile bootstrap interval (same ``seed``, same interval)."""
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    at = threshold

    def common(stat: st.Statistic) -> Estimate:
        return estimate(stat, s, y, confidence=confidence, resamples=resamples, seed=seed)

    return MetricAgreement(
        metric=metric,
        n=int(s.size),
        binary_labels=bool(np.isin(y, (0.0, 1.0)).all()),
        threshold=threshold,
        accuracy=common(lambda a, b: st.accuracy(a, b, at)),
        balanced_accuracy=common(lambda a, b: st.balanced_accuracy(a, b, at)),
        cohen_kappa=common(lambda a, b: st.cohen_kappa(a, b, at)),
        spearman=common(st.spearman),
        kendall=common(st.kendall),
        pairwise_accuracy=common(st.pairwise_accuracy),
        confusion=st.confusion_table(s, y, at),
        judge_mean=float(s.mean()) if s.size else None,
        label_mean=float(y.mean()) if y.size else None,
        judge_errors=dict(judge_errors or {}),
        disagreements=list(disagreements or []),
        scores=s.tolist(),
        labels=y.tolist(),
    )
