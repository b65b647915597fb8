"""The samples that explain a failed check: lowest scores, or the biggest drops."""

from __future__ import annotations

from pydantic import BaseModel

from ragmeter.gate.compare import paired_scores
from ragmeter.result import EvaluationResult


class WorstSample(BaseModel):
    """A sample to look at first, with the judge's reason (and the baseline's, for a drop)."""

    row: int
    id: str | None = None
    question: str = ""
    value: float | None
    reason: str = ""
    error: str | None = None
    baseline_value: float | None = None
    baseline_reason: str | None = None


def lowest_scored(result: EvaluationResult, metric: str, k: int = 3, lower_is_better: bool = False) -> list[WorstSample]:
    """The ``k`` worst scores of ``metric`` (lowest, or highest where lower is better), then
    (if fewer) samples whose score failed."""
    scored: list[WorstSample] = []
    failed: list[WorstSample] = []
    for s in result.samples:
        score = s.scores.get(metric)
        if score is None:
            continue
        item = WorstSample(
            row=s.row, id=s.id, question=s.sample.headline, value=score.value, reason=score.reason,
            error=f"{score.error.kind}: {score.error.message}" if score.error else None,
        )
        (scored if score.value is not None else failed).append(item)
    scored.sort(key=lambda w: (-(w.value or 0.0) if lower_is_better else (w.value or 0.0), w.row))
    return (scored + failed)[:k]


def failed_scores(result: EvaluationResult, metric: str, k: int = 3) -> list[WorstSample]:
    """The first ``k`` samples (in row order) whose ``metric`` score failed, each with its
    error: what to look at when a check fails on its error rate, where the lowest scores
    (perhaps all 1.0) would say nothing about why."""
    out = []
    for s in result.samples:
        score = s.scores.get(metric)
        if score is None or score.value is not None or score.error is None:
            continue
        out.append(WorstSample(row=s.row, id=s.id, question=s.sample.headline, value=None, reason=score.reason,
                               error=f"{score.error.kind}: {score.error.message}"))
        if len(out) == k:
            break
    return out


def biggest_drops(current: EvaluationResult, baseline: EvaluationResult, metric: str, k: int = 3,
                  lower_is_better: bool = False) -> list[WorstSample]:
    """The ``k`` paired samples whose score got most worse than the baseline's."""
    drops = []
    for cur, base in paired_scores(current, baseline, metric):
        a, b = cur.scores[metric], base.scores[metric]
        assert a.value is not None and b.value is not None
        if (a.value > b.value) if lower_is_better else (a.value < b.value):
            drops.append(WorstSample(
                row=cur.row, id=cur.id, question=cur.sample.headline, value=a.value, reason=a.reason,
                baseline_value=b.value, baseline_reason=b.reason,
            ))
    sign = -1 if lower_is_better else 1
    drops.sort(key=lambda w: (sign * (w.value - w.baseline_value), w.row))  # type: ignore[operator]
    return drops[:k]
