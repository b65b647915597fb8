"""Per-metric totals, kept as samples finish, so a streamed run needs no samples in memory."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ragmeter.metrics.score import MetricScore
from ragmeter.errors import NoMean


class MetricSummary(BaseModel):
    mean: float | None
    scored: int
    errors: int
    errors_by_kind: dict[str, int] = Field(default_factory=dict)

    def __float__(self) -> float:
        """The mean, so ``float(result.summary()["faithfulness"])`` is a plain number. A
        metric with no score has no mean: that is an error here, never a silent NaN."""
        if self.mean is None:
            raise NoMean(f"no score was computed ({self.errors} failed), so there is no mean")
        return float(self.mean)


class Totals:
    """Running sums per metric. Values are summed with Neumaier's compensation, so the mean of
    a million scores matches ``math.fsum`` of them to the last bits or so."""

    def __init__(self, metrics: list[str]) -> None:
        self._sum = {m: 0.0 for m in metrics}
        self._comp = {m: 0.0 for m in metrics}
        self._scored = {m: 0 for m in metrics}
        self._kinds: dict[str, dict[str, int]] = {m: {} for m in metrics}
        self.samples = 0

    def add_score(self, metric: str, score: MetricScore) -> None:
        if metric not in self._sum:
            return
        if score.value is not None:
            value, total = score.value, self._sum[metric]
            t = total + value
            self._comp[metric] += (total - t) + value if abs(total) >= abs(value) else (value - t) + total
            self._sum[metric] = t
            self._scored[metric] += 1
        elif score.error is not None:
            kinds = self._kinds[metric]
            kinds[score.error.kind] = kinds.get(score.error.kind, 0) + 1

    def add(self, sample) -> None:  # a SampleResult (not imported: the result package imports this)
        self.samples += 1
        for name, score in sample.scores.items():
            self.add_score(name, score)

    def summary(self) -> dict[str, MetricSummary]:
        out = {}
        for m, total in self._sum.items():
            n = self._scored[m]
            kinds = dict(self._kinds[m])
            mean = (total + self._comp[m]) / n if n else None
            if mean is not None:
                mean = min(1.0, max(0.0, mean))
            out[m] = MetricSummary(mean=mean, scored=n, errors=sum(kinds.values()), errors_by_kind=kinds)
        return out


__all__ = ["MetricSummary", "Totals"]
