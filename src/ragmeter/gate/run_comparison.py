"""Two recorded runs side by side: the gate's paired comparison per metric, and the samples
whose scores moved most, with the judge's reasons before and after."""

from __future__ import annotations

from typing import Sequence

from pydantic import BaseModel, Field

from ragmeter.errors import UnknownMetric
from ragmeter.gate.compare import MetricComparison, compare, lower_is_better, paired_scores
from ragmeter.names import did_you_mean, name_key
from ragmeter.result import EvaluationResult
from ragmeter.runs import RunDifference


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
    """``baseline`` (A) against ``current`` (B); ``differences``: the settings in which the two
    runs differ (test set, judge...), empty when their scores compare like for like."""

    baseline: str
    current: str
    metrics: list[MetricComparison]
    moved: list[MovedSample]
    differences: list[RunDifference] = Field(default_factory=list)


def chosen_metrics(wanted: Sequence[str], available: Sequence[str]) -> list[str]:
    """``wanted`` as the runs spell them (``Token-F1`` finds ``token_f1``); ``UnknownMetric``
    with the closest name for one that neither run has."""
    by_key = {name_key(name): name for name in available}
    chosen = []
    for name in wanted:
        key = name_key(name)
        if key not in by_key:
            hint = did_you_mean(name, available)
            raise UnknownMetric(f"no metric {name!r} in these runs; {hint}they have {', '.join(available)}")
        chosen.append(by_key[key])
    return list(dict.fromkeys(chosen))


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
                metric=metric, row=cur.row, id=cur.id, question=cur.sample.headline, before=b.value,
                after=a.value, delta=a.value - b.value, reason_before=b.reason, reason_after=a.reason,
                better=(a.value < b.value) if falling_is_better else (a.value > b.value),
            ))
    moved.sort(key=lambda m: (-abs(m.delta), m.row))
    return moved[:k]


def compare_runs(current: EvaluationResult, baseline: EvaluationResult, *, current_id: str, baseline_id: str,
                 k: int = 5, seed: int = 0, metrics: Sequence[str] | None = None,
                 differences: Sequence[RunDifference] = ()) -> RunComparison:
    """Per-metric deltas with paired-bootstrap intervals, and per metric the ``k`` samples that
    moved most; ``metrics`` (checked by ``chosen_metrics``) limits both to those metrics."""
    names = None
    if metrics:
        names = chosen_metrics(metrics, list(dict.fromkeys([*baseline.metric_names, *current.metric_names])))
    compared = compare(current, baseline, metrics=names, seed=seed)
    moved = [m for c in compared if c.paired for m in moved_samples(current, baseline, c.metric, k)]
    return RunComparison(baseline=baseline_id, current=current_id, metrics=compared, moved=moved,
                         differences=list(differences))
