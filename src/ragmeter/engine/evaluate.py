"""``evaluate``: every metric over every sample, concurrently, resumably, with no silent NaN.

Shape of a run:

1. inputs become a stream of samples (bad rows become named input errors; the rest go on);
2. a first pass over it gives the run its identity (samples, metric settings, judge, embedder); its journal, if
   one exists from an interrupted run, supplies the scores already finished;
3. the input is read again, sample by sample, into a bounded queue; ``concurrency`` workers
   take samples from it, each runs that sample's pending metrics at once over one shared
   facts store, and journals each score as it lands;
4. each finished sample goes to the sink: kept in memory (the result is sorted into row
   order) and/or written to a result file at once (``out=``), so memory does not grow with
   the input when the samples are not kept.

The judge's and embedder's disk cache makes a rerun free; the journal makes it instant.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import logging
import time
from pathlib import Path
from typing import Any, Callable, Coroutine, Mapping, Sequence, TypeVar

from ragmeter import __version__
from ragmeter.calls.cache import DiskCache, cache_key, default_cache_dir
from ragmeter.data import RowError, Sample
from ragmeter.data.stream import SampleStream, as_dataset, stream_samples
from ragmeter.embedders.protocol import Embedder
from ragmeter.engine.journal import Journal, ScoreKey
from ragmeter.engine.progress import progress_bar
from ragmeter.errors import AppFailed, MissingInput
from ragmeter.facts import SampleFacts
from ragmeter.judgements import DEFAULT_PROMPTS
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.protocol import Judge
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.metrics.score import MetricScore
from ragmeter.prompts.adapt import adapt
from ragmeter.prompts.template import PromptSet, TaskPrompt
from ragmeter.result import EvaluationResult, RunInfo, SampleResult, Streamed
from ragmeter.result.totals import Totals
from ragmeter.result.writers import ResultWriter, open_writer, result_format

log = logging.getLogger("ragmeter")
T = TypeVar("T")

DEFAULT_METRICS = ("faithfulness", "answer_similarity")
"""Without a judge key, answer_similarity scores and faithfulness says it needs an LLM judge."""


def _open_cache(cache: DiskCache | str | Path | bool | None) -> DiskCache | None:
    if cache is True:
        return DiskCache()
    if cache is False or cache is None:
        return None
    if isinstance(cache, DiskCache):
        return cache
    return DiskCache(cache)


def _check_inputs(sample: Sample, metric: Metric) -> MetricScore | None:
    missing = metric.missing_inputs(sample)
    if not missing:
        return None
    fields = ", ".join(f"'{f}'" for f in missing)
    if app_error := sample.metadata.get("app_error"):  # recorded by ``ragmeter run``
        return MetricScore.failed(AppFailed(f"the app failed on this row ({app_error}), so {fields} is missing"))
    return MetricScore.failed(
        MissingInput(f"field {fields} missing or empty; {metric.name} needs {', '.join(metric.required)}")
    )


async def _score_one(metric: Metric, sample: Sample, facts: SampleFacts) -> MetricScore:
    invalid = _check_inputs(sample, metric)
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


LLM_CONCURRENCY = 16
"""Samples in flight with an LLM judge: enough to hide latency, few enough for rate limits."""
LOCAL_CONCURRENCY = 64
"""Samples in flight with the local judge alone: they cost nothing but memory, and the more
there are, the larger the batches its models run on (19 samples/s at 16, 21.5 at 32 and 64,
bench/bench_local.py)."""


def default_concurrency(judge: Judge | None) -> int:
    """The ``concurrency`` used when none is given, for this judge."""
    return LOCAL_CONCURRENCY if isinstance(judge, LocalJudge) else LLM_CONCURRENCY


async def aevaluate(
    data: Any,
    metrics: Sequence[Metric | str] | None = None,
    *,
    judge: Judge | str | None = "local",
    embedder: Embedder | str | None = "local",
    concurrency: int | None = None,
    cache: DiskCache | str | Path | bool | None = True,
    journal: str | Path | bool | None = True,
    resume: bool = True,
    show_progress: bool = True,
    judge_options: dict[str, Any] | None = None,
    prompts: PromptSet | Mapping[str, TaskPrompt | str] | None = None,
    language: str | None = None,
    out: str | Path | None = None,
    keep_samples: bool | None = None,
    engine: str = "local",
    ray_address: str | None = None,
) -> EvaluationResult:
    """Async form of ``evaluate``, for code that already runs an event loop.

    ``out`` (``.json`` or ``.parquet``) writes each sample's scores as it finishes. With
    ``out`` the samples are not kept in memory (``keep_samples=True`` keeps them too): a
    file input is read lazily (JSONL, CSV, Parquet), at most a few times ``concurrency``
    samples are held at once, and memory stays flat however many samples there are. The
    returned result then carries the summary and ``streamed.path``;
    ``EvaluationResult.load(path)`` reads the samples back.

    ``concurrency`` is the number of samples in flight (default: ``default_concurrency``,
    16 with an LLM judge, 64 with the local judge alone).

    ``prompts`` replaces some or all of the judge's task prompts (by name, see
    ``ragmeter.facts.DEFAULT_PROMPTS``); ``language`` translates their few-shot examples
    through the judge once (cached), for data that is not in English.

    ``engine="ray"`` scores the samples on Ray workers (a local Ray, or the cluster at
    ``ray_address``), each building its own judge and embedder from their spec strings;
    the result is the same (see ``ragmeter.engine.ray_engine`` and docs/scale.md).
    """
    if concurrency is not None and concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    if engine not in ("local", "ray"):
        raise ValueError(f"unknown engine {engine!r}; use 'local' or 'ray'")
    if ray_address is not None and engine != "ray":
        raise ValueError("ray_address is only used with engine='ray'")
    if engine == "ray":
        from ragmeter.engine.ray_engine import prepare

        data = prepare(data, metrics, judge, embedder, DEFAULT_METRICS)  # checks before anything is built
    stream = stream_samples(data)
    chosen = [get_metric(m) for m in (metrics or DEFAULT_METRICS)]
    names = [m.name for m in chosen]
    if len(set(names)) != len(names):
        raise ValueError(f"a metric is listed twice: {names}")
    if keep_samples is None:
        keep_samples = out is None
    if out is not None:
        result_format(out)  # a bad extension fails before any work

    _check_needs_distinct(chosen)
    disk = _open_cache(cache)
    the_judge = _build_judge(judge, disk, judge_options or {}) if any(m.uses_judge for m in chosen) else None
    the_embedder = _build_embedder(embedder, disk, judge_options or {}) if any(m.uses_embedder for m in chosen) else None
    if concurrency is None:
        concurrency = default_concurrency(the_judge)
    prompt_set = _prompt_set(prompts)
    if language and the_judge is not None and not isinstance(the_judge, LocalJudge):
        prompt_set = await adapt(prompt_set, language, the_judge, cache=disk)

    # First pass: the run's identity (and its size, for the progress bar) without holding
    # the samples; a file is read again for the second pass.
    identity = hashlib.sha256()
    count = 0
    for row, item in stream:
        if isinstance(item, Sample):
            identity.update(f"{row}:{item.fingerprint()};".encode())
            count += 1
    run_id = cache_key(
        {
            "samples": identity.hexdigest(),
            "metrics": {m.name: m.config() for m in chosen},
            "judge": getattr(the_judge, "name", None),
            "embedder": getattr(the_embedder, "name", None),
            "prompts": prompt_set.fingerprint() if the_judge is not None else None,
        }
    )[:16]
    info = RunInfo(
        run_id=run_id,
        ragmeter_version=__version__,
        metrics={m.name: m.config() for m in chosen},
        judge=getattr(the_judge, "name", None),
        embedder=getattr(the_embedder, "name", None),
        source=stream.source,
        started=time.time(),
        summary_metrics=[m.name for m in chosen if not m.binary and m.higher_is_better],
        lower_is_better=[m.name for m in chosen if not m.higher_is_better],
        language=language,
    )

    the_journal: Journal | None = None
    if journal is not False and journal is not None:
        path = default_cache_dir() / "runs" / f"{run_id}.jsonl" if journal is True else Path(journal)
        the_journal = Journal(path, {"run_id": run_id, "ragmeter_version": __version__})
        info.journal = str(path)

    done: dict[ScoreKey, MetricScore] = {}
    if the_journal is not None and resume:
        done = {k: s for k, s in the_journal.read().items() if not s.transient}
    writer = open_writer(out, names) if out is not None else None

    if engine == "ray":  # the same identity, journal and sink; only the scoring moves to Ray workers
        from ragmeter.engine.ray_engine import run_on_ray

        return await run_on_ray(
            stream=stream, metrics=chosen, count=count, info=info, done=done, journal=the_journal, resume=resume,
            writer=writer, keep_samples=keep_samples, driver_judge=the_judge, driver_embedder=the_embedder,
            judge_spec=judge, embedder_spec=embedder, judge_options=judge_options or {}, cache=cache,
            prompts=prompt_set, concurrency=concurrency, show_progress=show_progress, ray_address=ray_address,
        )
    sink = _Sink(names, writer, keep_samples)
    if the_journal is not None:
        the_journal.open(fresh=not resume)
    try:
        with progress_bar(count * len(chosen), "evaluating", enabled=show_progress) as advance:
            info.resumed_scores = await _run(
                stream, chosen, done, sink, the_judge, the_embedder, prompt_set, the_journal, concurrency, advance
            )
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    finally:
        if the_journal is not None:
            the_journal.close()
        await close_models(the_judge, the_embedder)

    info.finished = time.time()
    usage = {}
    if the_judge is not None:
        usage["judge"] = the_judge.usage
    if the_embedder is not None:
        usage["embedder"] = the_embedder.usage
    return sink.finish(info, usage)


async def close_models(*models: Any) -> None:
    """Close judges' and embedders' connections while the run's event loop still exists."""
    for model in models:
        close = getattr(model, "aclose", None)
        if close is not None:
            await close()


class _Sink:
    """Where finished samples go: kept in memory, written to a result file, or both; the
    per-metric totals are kept either way."""

    def __init__(self, metrics: list[str], writer: ResultWriter | None, keep: bool) -> None:
        self.names = metrics
        self.writer = writer
        self.keep = keep
        self.samples: list[SampleResult] = []
        self.input_errors: list[RowError] = []
        self.totals = Totals(metrics)

    def add(self, row: int, sample: Sample, scores: dict[str, MetricScore]) -> None:
        result = SampleResult(row=row, id=sample.id, sample=sample,
                              scores={n: scores[n] for n in self.names if n in scores})
        self.totals.add(result)
        if self.writer is not None:
            self.writer.add(result)
        if self.keep:
            self.samples.append(result)

    def finish(self, info: RunInfo, usage: dict[str, Any]) -> EvaluationResult:
        self.samples.sort(key=lambda s: s.row)  # finished in completion order; shown in row order
        self.input_errors.sort(key=lambda e: e.row)
        streamed = None
        if self.writer is not None:
            path = self.writer.finish(info, usage, self.input_errors)
            streamed = Streamed(path=str(path), samples=self.totals.samples, summary=self.totals.summary())
        return EvaluationResult(info=info, samples=self.samples, input_errors=self.input_errors, usage=usage,
                                streamed=streamed)


async def _run(
    stream: SampleStream,
    chosen: list[Metric],
    done: dict[ScoreKey, MetricScore],
    sink: _Sink,
    judge: Judge | None,
    embedder: Embedder | None,
    prompts: PromptSet,
    journal: Journal | None,
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
        score = await _score_one(metric, sample, facts)
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
                plan = [need for m in chosen if _check_inputs(sample, m) is None for need in m.needs(sample)]
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


def _check_needs_distinct(metrics: Sequence[Metric]) -> None:
    """Two metrics may share a judgement only if they ask for the same one: two critiques
    whose names normalise to the same key but whose criteria differ would get one answer."""
    probe = Sample(question="q", answer="a", contexts=["c"], ground_truth="g")
    seen: dict[str, tuple[Any, str]] = {}
    for metric in metrics:
        for need in metric.needs(probe):
            if need.key in seen and seen[need.key][0] != need:
                raise ValueError(
                    f"metrics {seen[need.key][1]!r} and {metric.name!r} ask different questions under one "
                    f"name ({need.key!r}); give one of them another name"
                )
            seen[need.key] = (need, metric.name)


def _prompt_set(prompts: PromptSet | Mapping[str, TaskPrompt | str] | None) -> PromptSet:
    if prompts is None:
        return DEFAULT_PROMPTS
    if isinstance(prompts, PromptSet):
        return prompts
    return DEFAULT_PROMPTS.replace(prompts)


def _build_judge(spec: Judge | str | None, disk: DiskCache | None, options: dict[str, Any]) -> Judge:
    from ragmeter.judges.spec import get_judge

    return get_judge(spec, cache=disk, **options)


def _build_embedder(spec: Embedder | str | None, disk: DiskCache | None, options: dict[str, Any]) -> Embedder:
    from ragmeter.embedders.spec import get_embedder

    # the judge's call options bound the embedder's calls too (timeout, attempts)
    return get_embedder(spec if spec is not None else "local", cache=disk if disk is not None else False,
                        timeout=options.get("timeout"), max_attempts=options.get("max_attempts"))


def evaluate(data: Any, metrics: Sequence[Metric | str] | None = None, **options: Any) -> EvaluationResult:
    """Score ``data`` with ``metrics``; see ``aevaluate`` for the options.

    Works from a plain script and from a notebook or other code whose event loop is already
    running (there the run goes to a worker thread with a loop of its own). In async code,
    ``await aevaluate(...)`` instead, so the caller's loop is not blocked.
    """
    return run_sync(lambda: aevaluate(data, metrics, **options))


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``make()`` to completion from synchronous code: on a new event loop,
    or, when the caller already runs one (a notebook), on a worker thread with its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragmeter") as pool:
        return pool.submit(lambda: asyncio.run(make())).result()

