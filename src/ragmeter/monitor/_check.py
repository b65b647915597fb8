"""Whether a production run dropped against the recent ones.

For each metric, with ``m`` this run's mean, ``[lo, hi]`` its 95% interval and ``r`` the
mean of the means of the last K recorded production runs that scored the metric:

    drop  = r - m        (m - r for a metric where lower is better)
    alert when drop > m - lo   (resp. hi - m): the fall is larger than this run's own
                               uncertainty, so it is not just which samples were drawn.
"""

from __future__ import annotations

import math
from typing import Sequence

from pydantic import BaseModel


class MetricWatch(BaseModel):
    metric: str
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    recent_mean: float | None
    recent_runs: int
    drop: float | None = None
    alert: bool = False
    unscored: str | None = None
    """Why no sample got a score, when none did (the first error: a local judge's
    ``NeedsLLMJudge`` for a conversation judgement, a missing input...)."""

    def message(self) -> str:
        if self.mean is None and self.unscored:
            return f"{self.metric}: not scored in this window ({self.unscored})"
        if self.recent_mean is None or self.mean is None:
            return f"{self.metric}: no recent production run to compare with"
        margin = self.mean - self.ci_low if self.ci_low is not None else 0.0
        verdict = "DROPPED" if self.alert else "ok"
        return (f"{self.metric}: {verdict}: {self.mean:.3f} now against {self.recent_mean:.3f}, the mean of the last "
                f"{self.recent_runs} production run(s) (change {-(self.drop or 0.0):+.3f}, this run's interval "
                f"±{margin:.3f})")


def watch_metric(metric: str, mean: float | None, ci_low: float | None, ci_high: float | None,
                 recent_means: Sequence[float], *, lower_is_better: bool = False) -> MetricWatch:
    """The check above for one metric."""
    recent = math.fsum(recent_means) / len(recent_means) if recent_means else None
    out = MetricWatch(metric=metric, mean=mean, ci_low=ci_low, ci_high=ci_high, recent_mean=recent,
                      recent_runs=len(recent_means))
    if recent is None or mean is None:
        return out
    out.drop = (mean - recent) if lower_is_better else (recent - mean)
    bound = ci_high if lower_is_better else ci_low
    margin = abs(bound - mean) if bound is not None else 0.0
    out.alert = out.drop > margin
    return out
