"""The engine's core, shared by the in-process and the Ray engines: score a stream of samples
with bounded concurrency, each sample's metrics at once over one shared facts store, and
hand each finished sample to a sink.

* ``score_stream``: the workers, the bounded queue and the journal;
* ``ResultSink``: where finished samples go (memory, a result file, a run recorder) and
  the per-metric totals; the file, the journal and the recorder are opened by the caller
  (``ragmeter.engine.sinks``), so the engine decides no path and knows no store;
* ``check_inputs`` / ``score_one``: one metric on one sample, every failure a typed score;
* ``build_judge`` / ``build_embedder`` / ``close_models``: the models a run uses.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ragmeter.calls.cache import DiskCache
from ragmeter.data import RowError, Sample
from ragmeter.data.stream import SampleStream
from ragmeter.embedders.protocol import Embedder
from ragmeter.engine.sinks import ResultFile, SampleRecorder, ScoreJournal, ScoreKey
from ragmeter.errors import AppFailed, MissingInput
from ragmeter.facts import SampleFacts
from ragmeter.judges.options import JudgeOptions
from ragmeter.judges.protocol import Judge
from ragmeter.metrics.base import Metric
from ragmeter.metrics.score import MetricScore
from ragmeter.prompts.template import PromptSet
from ragmeter.result import EvaluationResult, RunInfo, SampleResult, Streamed
from ragmeter.result.failures import FirstFailures
from ragmeter.result.totals import Totals


def check_inputs(sample: Sample, metric: Metric) -> MetricScore | None:
    """A ``MissingInput`` score when ``sample`` lacks a field ``metric`` needs, else None."""
    missing = metric.missing_inputs(sample)
    if not missing:
        return None
    fields = ", ".join(f"'{f}'" for f in missing)
    if app_error := sample.metadata.get("app_error"):  # recorded by ``ragmeter run``
        return MetricScore.failed(AppFailed(f"the app failed on this row ({app_error}), so {fields} is missing"))
    return MetricScore.failed(
        MissingInput(f"field {fields} missing or empty; {metric.name} needs {', '.join(metric.required)}")
    )


async def score_one(metric: Metric, sample: Sample, facts: SampleFacts) -> MetricScore:
    invalid = check_inputs(sample, metric)
    if invalid is not None:
        return invalid
    try:
        return await metric.score(sample, facts)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # every failure becomes a typed score, never a crash or a NaN
        if getattr(exc, "stops_run", False):  # e.g. an unreachable judge: one error ends the run
            raise
        return MetricScore.failed(exc)


class ResultSink:
    """Where finished samples go: kept in memory, written to a result file, or both; the
    per-metric totals are kept either way."""

    def __init__(self, metrics: list[str], writer: ResultFile | None, keep: bool,
                 recorder: SampleRecorder | None = None) -> None:
        self.names = metrics
        self.writer = writer
        self.recorder = recorder  # the run store's, when the run is recorded
        self.keep = keep
        self.samples: list[SampleResult] = []
        self.input_errors: list[RowError] = []
        self.totals = Totals(metrics)
        self.failures = FirstFailures()  # what a run that does not keep its samples can list

    def add(self, row: int, sample: Sample, scores: dict[str, MetricScore]) -> None:
        result = SampleResult(row=row, id=sample.id, sample=sample,
                              scores={n: scores[n] for n in self.names if n in scores})
        self.totals.add(result)
        self.failures.add(result)
        if self.writer is not None:
            self.writer.add(result)
        if self.recorder is not None:
            self.recorder.add(result)
        if self.keep:
            self.samples.append(result)

    def finish(self, info: RunInfo, usage: dict[str, Any]) -> EvaluationResult:
        self.samples.sort(key=lambda s: s.row)  # finished in completion order; shown in row order
        self.input_errors.sort(key=lambda e: e.row)
        streamed = None
        try:
            # the store first: a run deleted from it meanwhile loses ``info.recorded_as``, and
            # the result file, written next, must not name a run the store no longer has
            if self.recorder is not None:
                self.recorder.finish(info, usage, self.input_errors)
        finally:  # whatever became of the record, the scores reach the file
            if self.writer is not None:
                path = self.writer.finish(info, usage, self.input_errors)
                streamed = Streamed(path=str(path), samples=self.totals.samples, summary=self.totals.summary(),
                                    failures=self.failures.rows)
        return EvaluationResult(info=info, samples=self.samples, input_errors=self.input_errors, usage=usage,
                                streamed=streamed)


async def score_stream(
    stream: SampleStream,
    chosen: list[Metric],
    done: dict[ScoreKey, MetricScore],
    sink: ResultSink,
    judge: Judge | None,
    embedder: Embedder | None,
    prompts: PromptSet,
    journal: ScoreJournal | None,
    concurrency: int,
    advance: Any,
) -> int:
    """Score the stream with ``concurrency`` workers; returns how many scores the journal gave.

    The queue between the reader and the workers is bounded, so at most about
    ``3 x concurrency`` samples are in memory whatever the size of the input.
    """
    queue: asyncio.Queue[tuple[int, str, Sample, dict[str, MetricScore], list[Metric]] | None] = asyncio.Queue(
        maxsize=2 * concurrency
    )
    resumed = 0

    async def score_and_record(row: int, fp: str, sample: Sample, metric: Metric, facts: SampleFacts,
                               scores: dict[str, MetricScore]) -> None:
        score = await score_one(metric, sample, facts)
        scores[metric.name] = score
        if journal is not None:
            journal.append((row, fp, metric.name), score)
        advance(1)

    failures: list[BaseException] = []

    async def worker() -> None:
        while True:
            item = await queue.get()
            if item is None:
                return
            if failures:
                continue  # the run is failing: drain the queue so the reader never blocks
            row, fp, sample, scores, pending = item
            try:
                # every judgement the run's metrics ask of this sample, so each phase is one call;
                # planned from all of them, not just the pending ones, so that a resumed sample
                # sends the very requests (and cache keys) an uninterrupted run sends
                plan = [need for m in chosen if check_inputs(sample, m) is None for need in m.needs(sample)]
                facts = SampleFacts(sample, judge, embedder, plan=plan, prompts=prompts)
                await asyncio.gather(*(score_and_record(row, fp, sample, m, facts, scores) for m in pending))
                sink.add(row, sample, scores)
            except Exception as exc:  # a scoring error is a typed score; this is the sink (disk full...)
                failures.append(exc)

    workers = [asyncio.ensure_future(worker()) for _ in range(concurrency)]
    try:
        for row, item in stream:
            if failures:
                break
            if isinstance(item, RowError):
                sink.input_errors.append(item)
                continue
            fp = item.fingerprint()
            scores: dict[str, MetricScore] = {}
            pending = []
            for metric in chosen:
                finished = done.get((row, fp, metric.name))
                if finished is not None:
                    scores[metric.name] = finished
                else:
                    pending.append(metric)
            if scores:
                resumed += len(scores)
                advance(len(scores))
            if pending:
                await queue.put((row, fp, item, scores, pending))
            else:
                sink.add(row, item, scores)
        for _ in workers:
            await queue.put(None)
        await asyncio.gather(*workers)
    finally:
        for w in workers:
            w.cancel()
    if failures:
        raise failures[0]
    return resumed


def build_judge(spec: Judge | str | None, disk: DiskCache | None, options: JudgeOptions) -> Judge:
    from ragmeter.judges.spec import get_judge

    return get_judge(spec, cache=disk if disk is not None else False, options=options)


def build_embedder(spec: Embedder | str | None, disk: DiskCache | None, options: JudgeOptions | None = None) -> Embedder:
    from ragmeter.embedders.spec import get_embedder

    # the judge's call options bound the embedder's calls too (timeout, attempts)
    options = options or JudgeOptions()
    return get_embedder(spec if spec is not None else "local", cache=disk if disk is not None else False,
                        threads=options.local.threads, calls=options.llm)


async def close_models(*models: Any) -> None:
    """Close judges' and embedders' connections while the run's event loop still exists."""
    for model in models:
        close = getattr(model, "aclose", None)
        if close is not None:
            await close()
