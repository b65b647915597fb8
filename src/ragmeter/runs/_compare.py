"""Two recorded runs side by side: the gate's paired comparison per metric, and the samples
whose scores moved most, with the judge's reasons before and after."""

from __future__ import annotations

from pydantic import BaseModel

from ragmeter.gate import MetricComparison, compare
from ragmeter.gate.compare import lower_is_better, paired_scores
from ragmeter.result import EvaluationResult


class MovedSample(BaseModel):
    """One sample scored in both runs, ``delta = after - before``."""

    metric: str
    row: int
    id: str | None = None
    question: str = ""
    before: float
    after: float
    delta: float
    reason_before: str = ""
    reason_after: str = ""
    better: bool = False  # the change is an improvement (a fall, where lower is better)


class RunComparison(BaseModel):
    """``baseline`` (A) against ``current`` (B)."""

    baseline: str
    current: str
    metrics: list[MetricComparison]
    moved: list[MovedSample]


def moved_samples(current: EvaluationResult, baseline: EvaluationResult, metric: str, k: int = 5) -> list[MovedSample]:
    """The ``k`` paired samples whose ``metric`` changed most, either way, largest change first
    (ties by row); samples that did not move are left out."""
    moved = []
    falling_is_better = lower_is_better(current, metric)
    for cur, base in paired_scores(current, baseline, metric):
        a, b = cur.scores[metric], base.scores[metric]
        assert a.value is not None and b.value is not None  # paired_scores keeps only scored pairs
        if a.value != b.value:
            moved.append(MovedSample(
                metric=metric, row=cur.row, id=cur.id, question=cur.sample.question or "", before=b.value,
                after=a.value, delta=a.value - b.value, reason_before=b.reason, reason_after=a.reason,
                better=(a.value < b.value) if falling_is_better else (a.value > b.value),
            ))
    moved.sort(key=lambda m: (-abs(m.delta), m.row))
    return moved[:k]


def compare_runs(current: EvaluationResult, baseline: EvaluationResult, *, current_id: str, baseline_id: str,
                 k: int = 5, seed: int = 0) -> RunComparison:
    """Per-metric deltas with paired-bootstrap intervals, and per metric the ``k`` samples that moved most."""
    metrics = compare(current, baseline, seed=seed)
    moved = [m for c in metrics if c.paired for m in moved_samples(current, baseline, c.metric, k)]
    return RunComparison(baseline=baseline_id, current=current_id, metrics=metrics, moved=moved)
