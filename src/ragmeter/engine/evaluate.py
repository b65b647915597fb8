"""``evaluate``: every metric over every sample, concurrently, resumably, with no silent NaN.

Shape of a run:

1. inputs become a ``Dataset`` (bad rows become named input errors; the rest go on);
2. the run gets an identity (samples, metric settings, judge, embedder); its journal, if
   one exists from an interrupted run, supplies the scores already finished;
3. ``concurrency`` workers take samples from a queue; each runs that sample's pending
   metrics at once over one shared facts store, and journals each score as it lands;
4. the result is assembled in dataset order.

The judge's and embedder's disk cache makes a rerun free; the journal makes it instant.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from ragmeter import __version__
from ragmeter.calls.cache import DiskCache, cache_key, default_cache_dir
from ragmeter.data import Dataset, Sample
from ragmeter.embedders.protocol import Embedder
from ragmeter.engine.journal import Journal, ScoreKey
from ragmeter.engine.progress import progress_bar
from ragmeter.errors import MissingInput
from ragmeter.facts import DEFAULT_PROMPTS, SampleFacts
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.protocol import Judge
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.metrics.score import MetricScore
from ragmeter.prompts.adapt import adapt
from ragmeter.prompts.template import PromptSet, TaskPrompt
from ragmeter.result import EvaluationResult, RunInfo, SampleResult

log = logging.getLogger("ragmeter")

DEFAULT_METRICS = ("faithfulness", "answer_similarity")
"""Without a judge key, answer_similarity scores and faithfulness says it needs an LLM judge."""


def as_dataset(data: Any) -> Dataset:
    """Accept a Dataset, a path, a pandas DataFrame, a Hugging Face dataset or a list of dicts."""
    if isinstance(data, Dataset):
        return data
    if isinstance(data, (str, Path)):
        return Dataset.load(data)
    if isinstance(data, list):
        return Dataset.from_records(data)
    module = type(data).__module__
    if module.startswith("pandas"):
        return Dataset.from_pandas(data)
    if module.startswith("datasets"):
        return Dataset.from_hf(data)
    raise TypeError(f"cannot evaluate a {type(data).__name__}; pass a Dataset, a path, a DataFrame or records")


def _open_cache(cache: DiskCache | str | Path | bool | None) -> DiskCache | None:
    if cache is True:
        return DiskCache()
    if cache is False or cache is None:
        return None
    if isinstance(cache, DiskCache):
        return cache
    return DiskCache(cache)


def _check_inputs(sample: Sample, metric: Metric) -> MetricScore | None:
    missing = sample.missing(list(metric.required))
    if not missing:
        return None
    fields = ", ".join(f"'{f}'" for f in missing)
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
) -> EvaluationResult:
    """Async form of ``evaluate``, for code that already runs an event loop.

    ``concurrency`` is the number of samples in flight (default: ``default_concurrency``,
    16 with an LLM judge, 64 with the local judge alone).

    ``prompts`` replaces some or all of the judge's task prompts (by name, see
    ``ragmeter.facts.DEFAULT_PROMPTS``); ``language`` translates their few-shot examples
    through the judge once (cached), for data that is not in English.
    """
    if concurrency is not None and concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    dataset = as_dataset(data)
    chosen = [get_metric(m) for m in (metrics or DEFAULT_METRICS)]
    names = [m.name for m in chosen]
    if len(set(names)) != len(names):
        raise ValueError(f"a metric is listed twice: {names}")

    _check_needs_distinct(chosen)
    disk = _open_cache(cache)
    the_judge = _build_judge(judge, disk, judge_options or {}) if any(m.uses_judge for m in chosen) else None
    the_embedder = _build_embedder(embedder, disk) if any(m.uses_embedder for m in chosen) else None
    if concurrency is None:
        concurrency = default_concurrency(the_judge)
    prompt_set = _prompt_set(prompts)
    if language and the_judge is not None and not isinstance(the_judge, LocalJudge):
        prompt_set = await adapt(prompt_set, language, the_judge, cache=disk)

    fingerprints = [s.fingerprint() for s in dataset.samples]
    run_id = cache_key(
        {
            "samples": cache_key(list(zip(dataset.rows, fingerprints))),
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
        source=dataset.source,
        started=time.time(),
        summary_metrics=[m.name for m in chosen if not m.binary and m.higher_is_better],
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
    info.resumed_scores = len(done)

    results: list[dict[str, MetricScore]] = [{} for _ in dataset.samples]
    work: list[tuple[int, list[Metric]]] = []
    for index, (row, fp) in enumerate(zip(dataset.rows, fingerprints)):
        pending = []
        for metric in chosen:
            key = (row, fp, metric.name)
            if key in done:
                results[index][metric.name] = done[key]
            else:
                pending.append(metric)
        if pending:
            work.append((index, pending))

    total = len(dataset.samples) * len(chosen)
    if the_journal is not None:
        the_journal.open(fresh=not resume)
    try:
        with progress_bar(total, "evaluating", enabled=show_progress) as advance:
            advance(info.resumed_scores)
            await _run(
                work, dataset, fingerprints, results, the_judge, the_embedder, prompt_set, the_journal, concurrency, advance
            )
    finally:
        if the_journal is not None:
            the_journal.close()
        for model in (the_judge, the_embedder):
            close = getattr(model, "aclose", None)
            if close is not None:
                await close()

    info.finished = time.time()
    usage = {}
    if the_judge is not None:
        usage["judge"] = the_judge.usage
    if the_embedder is not None:
        usage["embedder"] = the_embedder.usage
    samples = [
        SampleResult(row=row, id=sample.id, sample=sample, scores={n: scores[n] for n in names if n in scores})
        for row, sample, scores in zip(dataset.rows, dataset.samples, results)
    ]
    return EvaluationResult(info=info, samples=samples, input_errors=list(dataset.errors), usage=usage)


async def _run(
    work: list[tuple[int, list[Metric]]],
    dataset: Dataset,
    fingerprints: list[str],
    results: list[dict[str, MetricScore]],
    judge: Judge | None,
    embedder: Embedder | None,
    prompts: PromptSet,
    journal: Journal | None,
    concurrency: int,
    advance: Any,
) -> None:
    queue: asyncio.Queue[tuple[int, list[Metric]]] = asyncio.Queue()
    for item in work:
        queue.put_nowait(item)

    async def score_and_record(index: int, metric: Metric, facts: SampleFacts) -> None:
        score = await _score_one(metric, dataset.samples[index], facts)
        results[index][metric.name] = score
        if journal is not None:
            journal.append((dataset.rows[index], fingerprints[index], metric.name), score)
        advance(1)

    async def worker() -> None:
        while True:
            try:
                index, pending = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            sample = dataset.samples[index]
            # every judgement this sample's metrics will ask for, so each phase is one call
            plan = [need for m in pending if _check_inputs(sample, m) is None for need in m.needs(sample)]
            facts = SampleFacts(sample, judge, embedder, plan=plan, prompts=prompts)
            await asyncio.gather(*(score_and_record(index, m, facts) for m in pending))

    await asyncio.gather(*(worker() for _ in range(min(concurrency, max(1, len(work))))))


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


def _build_embedder(spec: Embedder | str | None, disk: DiskCache | None) -> Embedder:
    from ragmeter.embedders.spec import get_embedder

    return get_embedder(spec if spec is not None else "local", cache=disk if disk is not None else False)


def evaluate(data: Any, metrics: Sequence[Metric | str] | None = None, **options: Any) -> EvaluationResult:
    """Score ``data`` with ``metrics``; see ``aevaluate`` for the options.

    Works from a plain script and from a notebook or other code whose event loop is already
    running (there the run goes to a worker thread with a loop of its own). In async code,
    ``await aevaluate(...)`` instead, so the caller's loop is not blocked.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(aevaluate(data, metrics, **options))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragmeter") as pool:
        return pool.submit(asyncio.run, aevaluate(data, metrics, **options)).result()

