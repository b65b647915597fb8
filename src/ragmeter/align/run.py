"""``align``: score people's labelled samples with a judge and measure how far it agrees.

Each layout (``bundled``: a sample's judgements of a phase in one call; ``per_task``: one
call per kind of judgement) is a separate ``evaluate`` run over the labelled samples, so
agreement, calls and tokens can be read side by side: the cost of the cheaper layout, if
any, is visible in one command.
"""

from __future__ import annotations

import time
from dataclasses import replace
from collections import Counter
from pathlib import Path
from typing import Any, Mapping, Sequence

from pydantic import BaseModel, Field

from ragmeter.align.agreement import DEFAULT_THRESHOLD, Disagreement, MetricAgreement, measure_agreement
from ragmeter.align.benchmark import BenchmarkFigures, benchmark_figures, load_benchmark
from ragmeter.align.labels import LabelSet, describe_errors, load_labels
from ragmeter.align.ppi import MeanInterval, labels_mean, naive_mean, ppi_mean
from ragmeter.api import aevaluate
from ragmeter.runtime.loop import run_sync
from ragmeter.judges.options import JudgeOptions
from ragmeter.judges.prompting import LAYOUTS
from ragmeter.judges.protocol import Judge
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.prompts.template import PromptSet
from ragmeter.result import EvaluationResult
from ragmeter.errors import InvalidOption


class LayoutRun(BaseModel):
    """One judge layout's agreement per metric, and what it cost."""

    layout: str
    judge: str | None = None
    metrics: dict[str, MetricAgreement] = Field(default_factory=dict)
    calls: int = Field(default=0, description="judge requests, cache hits included and retried attempts not (what a clean cold run sends)")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = Field(default=0, description="attempts that failed and were repeated (not in calls)")
    seconds: float = 0.0


class AlignmentReport(BaseModel):
    """Agreement of a judge with a labels file (or a bundled benchmark), per layout."""

    source: str | None = None
    labelled: int = 0
    input_errors: list[str] = Field(default_factory=list)
    runs: list[LayoutRun]
    benchmark: BenchmarkFigures | None = None

    def to_json(self) -> str:
        return self.model_dump_json(indent=2)

    @classmethod
    def load(cls, path: str | Path) -> "AlignmentReport":
        """Read a report written by ``to_json`` (``ragmeter align --json``)."""
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))


def _labels_of(labels: LabelSet | str | Path | None, benchmark: str | None, limit: int | None) -> LabelSet:
    if benchmark is not None:
        if labels is not None:
            raise InvalidOption("give a labels file or a benchmark, not both")
        return load_benchmark(benchmark, limit)
    if labels is None:
        raise InvalidOption("align needs a labels file (or benchmark='halueval')")
    loaded = labels if isinstance(labels, LabelSet) else load_labels(labels)
    if limit is not None:
        loaded = LabelSet(loaded.samples[:limit], loaded.errors, loaded.source)
    return loaded


def agreement_of(
    result: EvaluationResult,
    labels: LabelSet,
    metrics: Sequence[str],
    *,
    thresholds: Mapping[str, float] | None = None,
    confidence: float = 0.95,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, MetricAgreement]:
    """Per metric, the agreement of ``result``'s scores with ``labels`` (matched by row)."""
    by_row = {s.row: s for s in result.with_samples().samples}
    out: dict[str, MetricAgreement] = {}
    for metric in metrics:
        threshold = (thresholds or {}).get(metric, DEFAULT_THRESHOLD)
        scores: list[float] = []
        wanted: list[float] = []
        errors: Counter[str] = Counter()
        disagreements: list[Disagreement] = []
        for item in labels.samples:
            if metric not in item.labels:
                continue
            scored = by_row.get(item.row)
            score = scored.scores.get(metric) if scored is not None else None
            if score is None or score.value is None:
                errors[score.error.kind if score is not None and score.error else "NotScored"] += 1
                continue
            label = item.labels[metric]
            scores.append(score.value)
            wanted.append(label)
            if (score.value >= threshold) != (label >= threshold):
                disagreements.append(Disagreement(
                    row=item.row, id=item.sample.id, question=item.sample.question, answer=item.sample.answer,
                    score=score.value, label=label, reason=score.reason, note=item.note,
                ))
        out[metric] = measure_agreement(
            metric, scores, wanted, threshold=threshold, confidence=confidence, resamples=resamples, seed=seed,
            disagreements=disagreements, judge_errors=dict(errors),
        )
    return out


async def aalign(
    labels: LabelSet | str | Path | None = None,
    metrics: Sequence[str | Metric] | None = None,
    *,
    judge: Judge | str = "local",
    embedder: Any = "local",
    layouts: Sequence[str] = ("bundled",),
    benchmark: str | None = None,
    limit: int | None = None,
    thresholds: Mapping[str, float] | None = None,
    judge_options: JudgeOptions | Mapping[str, Any] | None = None,
    prompts: PromptSet | None = None,
    cache: Any = True,
    confidence: float = 0.95,
    resamples: int = 1000,
    seed: int = 0,
    show_progress: bool = False,
) -> AlignmentReport:
    """Async form of ``align``."""
    the_labels = _labels_of(labels, benchmark, limit)
    if not the_labels.samples:
        raise InvalidOption(f"no labelled samples in {the_labels.source or 'the labels'}: "
                         + "; ".join(describe_errors(the_labels, 3)))
    to_run = list(metrics or the_labels.metrics())  # names, or metric objects (a rubric)
    chosen = [get_metric(m).name for m in to_run]
    unlabelled = [m for m in chosen if m not in the_labels.metrics()]
    if unlabelled:
        raise InvalidOption(f"no sample of {the_labels.source or 'the labels'} has a label for "
                         f"{', '.join(map(repr, unlabelled))}; labelled metrics: {', '.join(the_labels.metrics())}")
    unknown_layouts = [lay for lay in layouts if lay not in LAYOUTS]
    if unknown_layouts or not layouts:
        raise InvalidOption(f"layouts must be some of {LAYOUTS}, got {list(layouts)}")
    if not isinstance(judge, str) and list(layouts) != ["bundled"]:
        raise InvalidOption("comparing layouts needs the judge by name (e.g. 'openai:gpt-4o-mini'), not a Judge object")
    report = AlignmentReport(source=the_labels.source, labelled=len(the_labels),
                             input_errors=describe_errors(the_labels, 50), runs=[])
    for layout in layouts:
        options = JudgeOptions.of(judge_options)
        if isinstance(judge, str):
            options = replace(options, llm=replace(options.llm, layout=layout))
        started = time.perf_counter()
        result = await aevaluate(the_labels.dataset(), to_run, judge=judge, embedder=embedder, cache=cache,
                                 journal=False, show_progress=show_progress, judge_options=options, prompts=prompts)
        usage = result.usage.get("judge")
        run = LayoutRun(
            layout=layout, judge=result.info.judge, seconds=time.perf_counter() - started,
            metrics=agreement_of(result, the_labels, chosen, thresholds=thresholds, confidence=confidence,
                                 resamples=resamples, seed=seed),
        )
        if usage is not None:
            # a retried attempt is transport noise, not the layout's cost: counted apart
            run.calls = usage.calls - usage.retries + usage.cache_hits
            run.prompt_tokens = usage.prompt_tokens + usage.cached_prompt_tokens
            run.completion_tokens = usage.completion_tokens + usage.cached_completion_tokens
            run.retries = usage.retries
        report.runs.append(run)
        if benchmark is not None and report.benchmark is None:
            metric = chosen[0]
            by_row = {s.row: s.scores.get(metric) for s in result.samples}
            items = the_labels.samples
            report.benchmark = benchmark_figures(
                benchmark, [s.sample.id or "" for s in items], [s.sample.answer or "" for s in items],
                [int(s.labels[metric]) for s in items],
                [sc.value if (sc := by_row.get(s.row)) is not None else None for s in items],
            )
    return report


def align(labels: LabelSet | str | Path | None = None, metrics: Sequence[str | Metric] | None = None,
          **options: Any) -> AlignmentReport:
    """Score labelled samples with ``judge`` and measure agreement per metric and layout.

    ``labels``: a labels file or ``LabelSet`` (or ``benchmark="halueval"`` for the bundled
    set). ``metrics`` default to every metric that has labels. ``layouts`` lists judge
    layouts to compare ("bundled", "per_task"). ``thresholds`` maps a metric to its pass
    mark (default 0.5). Intervals are percentile bootstraps with ``resamples`` and ``seed``.
    """
    return run_sync(lambda: aalign(labels, metrics, **options))


class PPISummary(BaseModel):
    """A metric's mean over a run three ways: the judge's own, the people's on the labelled
    samples alone, and prediction-powered (the judge's, corrected by its measured bias)."""

    metric: str
    naive: MeanInterval
    labels_only: MeanInterval
    ppi: MeanInterval


def ppi_summary(result: EvaluationResult, agreement: AlignmentReport, *, layout: str | None = None,
                confidence: float = 0.95) -> dict[str, PPISummary]:
    """For every metric of ``result`` that ``agreement`` measured (same judge), the three
    means of ``PPISummary``. The judge's bias is read from ``agreement``'s labelled pairs."""
    runs = [r for r in agreement.runs if layout is None or r.layout == layout]
    if not runs:
        raise InvalidOption(f"no agreement run with layout {layout!r}")
    measured = runs[0].metrics
    whole = result.with_samples()
    out: dict[str, PPISummary] = {}
    for metric in whole.metric_names:
        if metric not in measured or len(measured[metric].labels) < 2:
            continue
        scores = [v for v in whole.scores(metric) if v is not None]
        if len(scores) < 2:
            continue
        m = measured[metric]
        out[metric] = PPISummary(
            metric=metric,
            naive=naive_mean(scores, confidence),
            labels_only=labels_mean(m.labels, confidence),
            ppi=ppi_mean(scores, m.scores, m.labels, confidence),
        )
    return out


def ppi_lines(result: EvaluationResult, agreement: AlignmentReport, confidence: float = 0.95) -> str:
    """The three means of ``ppi_summary`` as plain text, one line per metric (for the gate)."""
    means = ppi_summary(result, agreement, confidence=confidence)
    if not means:
        return "prediction-powered means: the alignment file measured none of this run's metrics"
    lines = [f"means corrected by the judge's measured bias ({confidence:.0%} intervals; "
             f"{agreement.labelled} labelled samples):"]
    for name, s in means.items():
        shown = ", ".join(f"{label} {m.mean:.3f} [{m.low:.3f}, {m.high:.3f}]" for label, m in
                          (("judge", s.naive), ("people only", s.labels_only), ("prediction-powered", s.ppi)))
        lines.append(f"  {name}: {shown}")
    return "\n".join(lines)
