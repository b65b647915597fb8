"""``evaluate``: every metric over every sample, concurrently, resumably, with no silent NaN.

Shape of a run:

1. inputs become a stream of samples (bad rows become named input errors; the rest go on);
2. a first pass over it gives the run its identity (samples, metric settings, judge, embedder); its journal, if
   one exists from an interrupted run, supplies the scores already finished;
3. the input is read again, sample by sample, into a bounded queue; ``concurrency`` workers
   take samples from it, each runs that sample's pending metrics at once over one shared
   facts store, and journals each score as it lands;
4. each finished sample goes to the sink: kept in memory (the result is sorted into row
   order) and/or written to a result file at once, so memory does not grow with the input
   when the samples are not kept.

The result file, the journal and the run recorder are opened by the caller and handed in
(``ragmeter.engine.sinks``; ``ragmeter.api`` builds them from ``out=``, ``journal=``,
``resume=``, ``record=``): the engine decides no path and opens no file itself.

The judge's and embedder's disk cache makes a rerun free; the journal makes it instant.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from typing import Any, Mapping, Sequence, TypeVar

from ragmeter.calls.cache import CacheSetting, cache_key, open_cache
from ragmeter.data import Sample
from ragmeter.data.stream import as_dataset, stream_samples
from ragmeter.embedders.protocol import Embedder
from ragmeter.engine.core import ResultSink, build_embedder, build_judge, close_models, score_stream
from ragmeter.engine.sinks import JournalOpener, RecorderOpener, ResultFileOpener, ScoreKey
from ragmeter.runtime.loop import synchronous
from ragmeter.runtime.progress import progress_bar
from ragmeter.judgements import DEFAULT_PROMPTS
from ragmeter.judgements.tasks import all_prompts
from ragmeter.judges.options import JudgeOptions
from ragmeter.judges.prompting import PROMPTING_CONCURRENCY
from ragmeter.judges.protocol import Judge
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.metrics.score import MetricScore
from ragmeter.judges.adapt import adapt
from ragmeter.prompts.template import PromptSet, TaskPrompt
from ragmeter.result import EvaluationResult, RunInfo
from ragmeter.version import __version__
from ragmeter.errors import InvalidOption

log = logging.getLogger("ragmeter")
T = TypeVar("T")

DEFAULT_METRICS = ("faithfulness", "answer_similarity")
"""Without a judge key, answer_similarity scores and faithfulness says it needs an LLM judge."""


async def aevaluate(
    data: Any,
    metrics: Sequence[Metric | str] | None = None,
    *,
    judge: Judge | str | None = "local",
    embedder: Embedder | str | None = "local",
    concurrency: int | None = None,
    cache: CacheSetting = True,
    show_progress: bool = True,
    judge_options: JudgeOptions | Mapping[str, Any] | None = None,
    prompts: PromptSet | Mapping[str, TaskPrompt | str] | None = None,
    language: str | None = None,
    keep_samples: bool | None = None,
    engine: str = "local",
    ray_address: str | None = None,
    result_file: ResultFileOpener | None = None,
    journal: JournalOpener | None = None,
    recorder: RecorderOpener | None = None,
) -> EvaluationResult:
    """Async form of ``evaluate``, for code that already runs an event loop.

    ``concurrency`` is the number of samples in flight (default: the judge's own
    ``concurrency``, 16 with an LLM judge, 64 with the local judge alone).

    ``judge_options`` (``JudgeOptions`` or a mapping of its fields) sets timeouts, retries,
    prices, the local verifier and threads, the cascade's band.

    ``prompts`` replaces some or all of the judge's task prompts (by name, see
    ``ragmeter.judgements.DEFAULT_PROMPTS``); ``language`` translates their few-shot examples
    through the judge once (cached), for data that is not in English.

    ``engine="ray"`` scores the samples on Ray workers (a local Ray, or the cluster at
    ``ray_address``), each building its own judge and embedder from their spec strings;
    the result is the same (see ``ragmeter.engine.ray_engine`` and docs/scale.md).

    ``result_file``, ``journal`` and ``recorder`` open the run's sinks (``ragmeter.engine.sinks``):
    the file each sample's scores stream into (then the samples are not kept in memory
    unless ``keep_samples=True``), the journal of finished scores (read first, to resume),
    the run store's recorder. The engine opens none itself: ``ragmeter.evaluate``
    (``ragmeter.api``), which takes ``out=``, ``journal=``, ``resume=`` and ``record=``,
    builds them.
    """
    if concurrency is not None and concurrency < 1:
        raise InvalidOption("concurrency must be at least 1")
    if engine not in ("local", "ray"):
        raise InvalidOption(f"unknown engine {engine!r}; use 'local' or 'ray'")
    if ray_address is not None and engine != "ray":
        raise InvalidOption("ray_address is only used with engine='ray'")
    if engine == "ray":
        from ragmeter.engine.ray_engine import prepare

        data = prepare(data, metrics, judge, embedder, DEFAULT_METRICS)  # checks before anything is built
    stream = stream_samples(data)
    chosen = [get_metric(m) for m in (metrics or DEFAULT_METRICS)]
    names = [m.name for m in chosen]
    if len(set(names)) != len(names):
        raise InvalidOption(f"a metric is listed twice: {names}")
    if keep_samples is None:
        keep_samples = result_file is None

    _check_needs_distinct(chosen)
    options = JudgeOptions.of(judge_options)
    disk = open_cache(cache)
    the_judge = build_judge(judge, disk, options) if any(m.uses_judge for m in chosen) else None
    the_embedder = build_embedder(embedder, disk, options) if any(m.uses_embedder for m in chosen) else None
    if concurrency is None:
        concurrency = the_judge.concurrency if the_judge is not None else PROMPTING_CONCURRENCY
    prompt_set = _prompt_set(prompts)
    if language and the_judge is not None and the_judge.generative:
        prompt_set = await adapt(prompt_set, language, the_judge, cache=disk)

    for metric in chosen:  # once per run, before any sample (G-Eval writes its steps)
        await metric.prepare(the_judge, prompt_set)

    # First pass: the run's identity (and its size, for the progress bar) without holding
    # the samples; a file is read again for the second pass.
    identity = hashlib.sha256()
    count = 0
    for row, item in stream:
        if isinstance(item, Sample):
            read_too = "".join(m.sample_identity(item) for m in chosen)  # per-sample rubrics
            identity.update(f"{row}:{item.fingerprint()}{read_too};".encode())
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

    the_journal = journal(run_id) if journal is not None else None
    done: dict[ScoreKey, MetricScore] = {}
    if the_journal is not None:
        info.journal = the_journal.location
        done = {k: s for k, s in the_journal.finished().items() if not s.transient}  # transient: tried again
    # the store before the result file: a store that cannot be opened (damaged, unreachable)
    # stops the run here, with nothing scored and no temporary result file left behind
    fingerprint = prompt_set.fingerprint() if the_judge is not None else None
    the_recorder = recorder(info, fingerprint) if recorder is not None else None
    try:
        writer = result_file(names) if result_file is not None else None
    except BaseException:
        if the_recorder is not None:
            the_recorder.abort()
        raise

    if engine == "ray":  # the same identity, journal and sink; only the scoring moves to Ray workers
        from ragmeter.engine.ray_engine import run_on_ray

        return await run_on_ray(
            stream=stream, metrics=chosen, count=count, info=info, done=done, journal=the_journal,
            writer=writer, keep_samples=keep_samples, driver_judge=the_judge, driver_embedder=the_embedder,
            judge_spec=judge, embedder_spec=embedder, judge_options=options, cache=cache,
            prompts=prompt_set, concurrency=concurrency, show_progress=show_progress, ray_address=ray_address,
            recorder=the_recorder,
        )
    sink = ResultSink(names, writer, keep_samples, the_recorder)
    if the_journal is not None:
        the_journal.open()
    try:
        with progress_bar(count * len(chosen), "evaluating", enabled=show_progress) as advance:
            info.resumed_scores = await score_stream(
                stream, chosen, done, sink, the_judge, the_embedder, prompt_set, the_journal, concurrency, advance
            )
    except BaseException:
        if writer is not None:
            writer.abort()
        if the_recorder is not None:
            the_recorder.abort()
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


def _check_needs_distinct(metrics: Sequence[Metric]) -> None:
    """Two metrics may share a judgement only if they ask for the same one: two critiques
    whose names normalise to the same key but whose criteria differ would get one answer."""
    probe = Sample(question="q", answer="a", contexts=["c"], ground_truth="g")
    seen: dict[str, tuple[Any, str]] = {}
    for metric in metrics:
        for need in metric.needs(probe):
            if need.key in seen and seen[need.key][0] != need:
                raise InvalidOption(
                    f"metrics {seen[need.key][1]!r} and {metric.name!r} ask different questions under one "
                    f"name ({need.key!r}); give one of them another name"
                )
            seen[need.key] = (need, metric.name)


def _prompt_set(prompts: PromptSet | Mapping[str, TaskPrompt | str] | None) -> PromptSet:
    if prompts is None:
        return DEFAULT_PROMPTS
    if isinstance(prompts, PromptSet):
        return prompts
    if all(name in DEFAULT_PROMPTS for name in prompts):
        return DEFAULT_PROMPTS.replace(prompts)
    return all_prompts().replace(prompts)  # a person's JudgedMetric prompt replaced too


evaluate = synchronous(aevaluate, """Score ``data`` (a file, a pandas DataFrame, a Hugging Face Dataset, a list of dicts or
    ``Sample``s) with ``metrics``; the arguments are ``aevaluate``'s.

    Works from a plain script and from a notebook whose event loop is already running: the
    run goes to ragmeter's one long-lived loop (``ragmeter.runtime.loop``). In async code,
    ``await aevaluate(...)`` instead, so the caller's loop is not blocked.
    """)
