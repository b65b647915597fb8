"""The gate: does a run meet its minimums and hold its ground against a baseline?

A check fails when a metric's mean is below its minimum, when the metric has no score at
all, when more than ``max_error_rate`` of its scores failed, or when it regressed against
the baseline (paired bootstrap; see ``compare``). Everything a reader needs to see why is in
the ``GateReport``: per-metric numbers and the worst samples with the judge's reasons.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ragmeter.gate.compare import MetricComparison, compare_metric, lower_is_better
from ragmeter.gate.render import render_markdown, render_text
from ragmeter.gate.worst import WorstSample, biggest_drops, failed_scores, lowest_scored
from ragmeter.result import EvaluationResult
from ragmeter.errors import InvalidOption


class MetricCheck(BaseModel):
    metric: str
    mean: float | None
    scored: int
    errors: int
    minimum: float | None = None
    lower_is_better: bool = False  # then ``minimum`` is a ceiling: the worst acceptable mean
    comparison: MetricComparison | None = None
    failures: list[str] = Field(default_factory=list)
    worst: list[WorstSample] = Field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


class GateReport(BaseModel):
    """The gate's verdict. ``passed`` is the exit code's source; ``to_markdown()`` is for a
    CI step summary or a PR comment, ``to_text()`` for a terminal or an assertion message."""

    passed: bool
    checks: list[MetricCheck]
    samples: int
    run_id: str
    judge: str | None = None
    baseline_run_id: str | None = None
    confidence: float = 0.95

    @property
    def failed(self) -> list[MetricCheck]:
        return [c for c in self.checks if not c.passed]

    def to_markdown(self) -> str:
        return render_markdown(self)

    def to_text(self) -> str:
        return render_text(self)

    def __str__(self) -> str:
        return self.to_text()


def check(
    result: EvaluationResult,
    minimums: dict[str, float] | None = None,
    *,
    baseline: EvaluationResult | None = None,
    max_drop: float = 0.0,
    max_error_rate: float | None = None,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    worst: int = 3,
) -> GateReport:
    """Apply the gate to ``result``.

    ``minimums`` maps metric names to the worst acceptable mean: a floor, or for a metric
    where lower is better (noise sensitivity) a ceiling. With a ``baseline``, every
    metric the two runs share is compared, and a significant drop larger than ``max_drop``
    fails. ``worst`` samples are listed for each failed check (and for each gated metric,
    so a passing report still shows where to look).
    """
    result = result.with_samples()
    if baseline is not None:
        baseline = baseline.with_samples()
    minimums = dict(minimums or {})
    for name, floor in minimums.items():
        if not 0.0 <= floor <= 1.0:
            raise InvalidOption(f"minimum for {name!r} must be in [0, 1], got {floor}")
    summary = result.summary()
    # Every metric of the run is listed; those with a minimum or a baseline are gated.
    names = list(dict.fromkeys([*minimums, *result.metric_names]))
    checks: list[MetricCheck] = []
    for name in names:
        stats = summary.get(name)
        item = MetricCheck(
            metric=name,
            mean=stats.mean if stats else None,
            scored=stats.scored if stats else 0,
            errors=stats.errors if stats else 0,
            minimum=minimums.get(name),
            lower_is_better=lower_is_better(result, name),
        )
        if stats is None:
            item.failures.append(f"{name} is not in the result (metrics: {', '.join(result.metric_names) or 'none'})")
        elif stats.mean is None and (name in minimums or baseline is not None):
            kinds = ", ".join(f"{k} x{v}" for k, v in stats.errors_by_kind.items()) or "no samples"
            item.failures.append(f"no sample was scored ({kinds})")
        elif stats.mean is None or item.minimum is None:
            pass  # nothing scored and nothing asked of it, or no minimum to meet
        elif item.lower_is_better and stats.mean > item.minimum:
            item.failures.append(f"mean {stats.mean:.3f} > maximum {item.minimum:.3f} (lower is better)")
        elif not item.lower_is_better and stats.mean < item.minimum:
            item.failures.append(f"mean {stats.mean:.3f} < minimum {item.minimum:.3f}")
        mean_failed = bool(item.failures)
        too_many_errors = False
        if stats is not None and max_error_rate is not None and stats.scored + stats.errors:
            rate = stats.errors / (stats.scored + stats.errors)
            if rate > max_error_rate:
                too_many_errors = True
                item.failures.append(f"{rate:.1%} of scores failed (allowed {max_error_rate:.1%})")
        if baseline is not None and stats is not None and name in baseline.info.metrics:
            item.comparison = compare_metric(result, baseline, name, confidence=confidence,
                                             resamples=resamples, seed=seed, max_drop=max_drop)
            cmp = item.comparison
            if cmp.status == "regressed":
                item.failures.append(
                    f"regressed {cmp.delta:+.3f} vs baseline ({confidence:.0%} CI [{cmp.ci_low:+.3f}, {cmp.ci_high:+.3f}], "
                    f"{cmp.paired} paired samples)"
                )
        if worst > 0 and stats is not None and (item.failures or item.minimum is not None):
            regressed = item.comparison is not None and item.comparison.status == "regressed"
            if regressed and baseline:
                item.worst = biggest_drops(result, baseline, name, worst, item.lower_is_better)
            elif too_many_errors:
                # the failed rows and their errors explain this failure; the lowest scores
                # follow only when the mean failed too
                item.worst = failed_scores(result, name, worst) + (
                    [w for w in lowest_scored(result, name, worst, item.lower_is_better) if w.value is not None]
                    if mean_failed else [])
            else:
                item.worst = lowest_scored(result, name, worst, item.lower_is_better)
        checks.append(item)
    return GateReport(
        passed=all(c.passed for c in checks),
        checks=checks,
        samples=len(result.samples),
        run_id=result.info.display_id,
        judge=result.info.judge,
        baseline_run_id=baseline.info.display_id if baseline is not None else None,
        confidence=confidence,
    )
