"""Compare a run with a baseline run, metric by metric, on the samples both scored.

Samples are matched by ``id`` when both runs carry ids, otherwise by question text (the
n-th occurrence of a repeated question matches the n-th; a conversation's opening message),
otherwise by row. Only samples
scored in both runs enter the comparison; a metric that cannot be paired is reported as
"not comparable" rather than guessed.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel

from ragmeter.gate.bootstrap import paired_bootstrap_ci
from ragmeter.result import EvaluationResult, SampleResult

Status = Literal["regressed", "improved", "unchanged", "not comparable"]


class MetricComparison(BaseModel):
    """One metric, current run against baseline; ``delta`` = current - baseline on paired samples."""

    metric: str
    baseline_mean: float | None
    current_mean: float | None
    delta: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    paired: int = 0
    confidence: float = 0.95
    status: Status = "not comparable"
    note: str = ""

    def describe_delta(self) -> str:
        """``-0.12 [-0.18, -0.06]`` or ``n/a``."""
        if self.delta is None:
            return "n/a"
        return f"{self.delta:+.3f} [{self.ci_low:+.3f}, {self.ci_high:+.3f}]"


def sample_keys(samples: list[SampleResult]) -> list[str]:
    """A key per sample that finds the same sample in another run of the same test set."""
    ids = [s.id or s.sample.id for s in samples]
    if all(ids) and len(set(ids)) == len(ids):
        return [f"id:{i}" for i in ids]
    seen: dict[str, int] = {}
    keys = []
    for s in samples:
        # a conversation by its opening message: its last one (its ``question``) is often
        # the same "Thanks" in every conversation, which would pair them by position
        question = s.sample.headline
        if not question:
            return [f"row:{x.row}" for x in samples]
        n = seen[question] = seen.get(question, 0) + 1
        keys.append(f"q:{question}#{n}")
    return keys


def paired_scores(
    current: EvaluationResult, baseline: EvaluationResult, metric: str
) -> list[tuple[SampleResult, SampleResult]]:
    """(current, baseline) sample pairs where both runs have a value for ``metric``."""
    base_by_key = dict(zip(sample_keys(baseline.samples), baseline.samples))
    pairs = []
    for key, sample in zip(sample_keys(current.samples), current.samples):
        other = base_by_key.get(key)
        if other is None:
            continue
        a, b = sample.scores.get(metric), other.scores.get(metric)
        if a is not None and b is not None and a.value is not None and b.value is not None:
            pairs.append((sample, other))
    return pairs


def lower_is_better(result: EvaluationResult, metric: str) -> bool:
    """Whether a rise of ``metric`` is bad news (noise sensitivity), from the run's info or,
    for files written before it recorded this, from the metric's class."""
    if metric in result.info.lower_is_better:
        return True
    from ragmeter.metrics.base import available_metrics

    cls = available_metrics().get(metric)
    return cls is not None and not cls.higher_is_better


def _mean(values: list[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def compare_metric(
    current: EvaluationResult,
    baseline: EvaluationResult,
    metric: str,
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    max_drop: float = 0.0,
) -> MetricComparison:
    """Paired bootstrap comparison of one metric. A drop counts as a regression only when the
    whole interval lies below zero and the drop itself exceeds ``max_drop``; a rise counts as
    an improvement when the whole interval lies above zero. For a lower-is-better metric
    (noise sensitivity) the two are swapped."""
    cur_mean = _mean([v for v in current.scores(metric) if v is not None]) if metric in current.info.metrics else None
    base_mean = _mean([v for v in baseline.scores(metric) if v is not None]) if metric in baseline.info.metrics else None
    out = MetricComparison(metric=metric, baseline_mean=base_mean, current_mean=cur_mean, confidence=confidence)
    if metric not in current.info.metrics or metric not in baseline.info.metrics:
        out.note = "metric missing from " + ("the current run" if metric not in current.info.metrics else "the baseline")
        return out
    pairs = paired_scores(current, baseline, metric)
    out.paired = len(pairs)
    if len(pairs) < 2:
        out.note = f"{len(pairs)} sample(s) scored in both runs; need at least 2"
        return out
    cur = [a.scores[metric].value for a, _ in pairs]
    base = [b.scores[metric].value for _, b in pairs]
    out.delta, out.ci_low, out.ci_high = paired_bootstrap_ci(
        cur, base, confidence=confidence, resamples=resamples, seed=seed  # type: ignore[arg-type]
    )
    sign = -1.0 if lower_is_better(current, metric) else 1.0
    worse_low, worse_high = sorted((sign * out.ci_low, sign * out.ci_high))  # in "better is up" terms
    if worse_high < 0 and -sign * out.delta > max_drop:
        out.status = "regressed"
    elif worse_low > 0:
        out.status = "improved"
    else:
        out.status = "unchanged"
        if worse_high < 0:
            out.note = f"change {out.delta:+.3f} within the allowed {max_drop:.3f}"
    if sign < 0:
        out.note = (out.note + "; " if out.note else "") + "lower is better"
    return out


def compare(
    current: EvaluationResult,
    baseline: EvaluationResult,
    *,
    metrics: list[str] | None = None,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    max_drop: float = 0.0,
) -> list[MetricComparison]:
    """Every metric of either run (or ``metrics``), compared on the samples both scored."""
    names = metrics or list(dict.fromkeys([*current.metric_names, *baseline.metric_names]))
    return [
        compare_metric(current, baseline, name, confidence=confidence, resamples=resamples, seed=seed, max_drop=max_drop)
        for name in names
    ]
