"""``evaluate(..., engine="ray")``: the same run as the local engine, scored by Ray workers.

What stays on the driver, and why: everything that makes a run *this* run. The input is
read there with ``stream_samples`` (so row numbers and input errors are exactly those of the
local engine), the run's identity, journal and ``RunInfo`` come from ``aevaluate`` before it
hands over to this module, and finished samples go into the same ``ResultSink`` (so result
file streaming, totals and ``keep_samples`` behave identically). Only the scoring moves.

What the workers do: a pool of Ray actors (``_BatchScorer``), each building its own judge
and embedder from their spec strings once, when it starts (models load lazily in the
actor, never in the driver, and live objects are never pickled: a loaded model is hundreds
of MB and an HTTP client or a sqlite handle does not survive pickling). The driver sends
batches of ``(row, Sample)``; an actor scores a batch with the local engine's own
``score_stream`` (same concurrency, same facts store, same typed errors) and sends back each
sample's scores as JSON plus the batch's usage *delta* (after minus before, field by
field), which the driver sums, so usage totals are exact however batches are spread.

Why an actor pool and not ``ray.data.Dataset.map_batches``: ``map_batches`` builds its
actor pool per dataset execution, so feeding a large lazy input block by block (to keep the
driver's memory bounded) would reload spaCy and MiniLM in every actor for every block.
Here the actors live for the whole run, the driver holds at most
``workers x QUEUED_PER_WORKER`` batches, and results stream back as they finish. A
``ray.data.Dataset`` is accepted as input (read in order on the driver).

Ray is imported only here, and only when ``engine="ray"`` is asked for.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable, Sequence

from pydantic import BaseModel

from ragmeter.calls.breaker import breakers_from
from ragmeter.calls.cache import CacheSetting, DiskCache, default_cache_dir, open_cache
from ragmeter.calls.usage import Usage
from ragmeter.data import Dataset, RowError, Sample
from ragmeter.data.dataset import parse_items
from ragmeter.data.stream import SampleStream, stream_samples
from ragmeter.engine.core import ResultSink, build_judge, close_models, score_stream
from ragmeter.engine.sinks import ResultFile, SampleRecorder, ScoreJournal, ScoreKey
from ragmeter.runtime.progress import progress_bar
from ragmeter.engine.ray_breaker import BreakerKeeper, SharedBreaker
from ragmeter.errors import InvalidOption, InvalidOptionType, RagmeterError
from ragmeter.extras import MissingExtra
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.metrics.score import MetricScore
from ragmeter.prompts.template import PromptSet
from ragmeter.result import EvaluationResult, RunInfo
from ragmeter.judges.options import JudgeOptions

if TYPE_CHECKING:  # pragma: no cover
    from ragmeter.embedders.protocol import Embedder
    from ragmeter.judges.protocol import Judge

log = logging.getLogger("ragmeter")

INSTALL_HINT = "engine='ray' needs Ray: pip install 'ragmeter[ray]'"

DEFAULT_BATCH_SIZE = 128
"""Samples per batch sent to a worker (at least twice ``concurrency``): large enough that
the per-call overhead of Ray is noise and the local models see full micro-batches, small
enough that work spreads over the workers and a failed batch costs little."""

QUEUED_PER_WORKER = 2
"""Batches given to each worker at once: one being scored, one waiting in its queue, so a
worker never idles while the driver reads the next batch. It bounds the driver's memory."""

ENV_WORKERS = "RAGMETER_RAY_WORKERS"
"""Number of actors (default: one per CPU in the cluster)."""
ENV_BATCH_SIZE = "RAGMETER_RAY_BATCH_SIZE"
"""Largest batch (default: ``DEFAULT_BATCH_SIZE``, or twice ``concurrency`` if larger)."""


class RayNotInstalled(MissingExtra):
    """Raised when ``engine="ray"`` is asked for and Ray cannot be imported (a
    ``MissingExtra``, so an ``ImportError`` as before, and the CLI's exit 2)."""

    def __init__(self, message: str) -> None:
        ImportError.__init__(self, message)
        self.extra, self.module = "ray", "ray"


def import_ray() -> Any:
    """The ``ray`` module, or ``RayNotInstalled`` saying how to get it."""
    try:
        import ray
        import ray.data  # noqa: F401  (the extra is ray[data]; a ray.data.Dataset input needs it)
    except ImportError as exc:
        raise RayNotInstalled(f"{INSTALL_HINT} ({exc})") from exc
    return ray


# --- before the run: checks, and a ray.data.Dataset as a sample stream -------------------------


def prepare(
    data: Any,
    metrics: Sequence[Metric | str] | None,
    judge: Any,
    embedder: Any,
    default_metrics: Sequence[str],
) -> Any:
    """Checks made before ``aevaluate`` builds anything; returns the input to stream.

    Raises ``RayNotInstalled`` without Ray, and ``TypeError`` for a judge or embedder given
    as an object to a metric that would use it: each worker builds its own from a spec
    string, and an object cannot be rebuilt from its state (loaded models, HTTP clients and
    sqlite handles do not pickle, and pickling the models would ship hundreds of MB to every
    worker). A ``ray.data.Dataset`` becomes a stream read in order on the driver."""
    ray = import_ray()
    chosen = [get_metric(m) for m in (metrics or default_metrics)]
    for role, value, used in (
        ("judge", judge, any(m.uses_judge for m in chosen)),
        ("embedder", embedder, any(m.uses_embedder for m in chosen)),
    ):
        if used and value is not None and not isinstance(value, str):
            name = getattr(value, "name", None)
            hint = f" (this one is named {name!r}; if that is a spec, pass {role}={name!r})" if name else ""
            raise InvalidOptionType(
                f"engine='ray' builds the {role} inside each Ray worker from its spec string, so it "
                f"takes {role}='local', 'openai:MODEL', ... and not a {type(value).__name__} object{hint}"
            )
    if isinstance(data, ray.data.Dataset):
        return ray_dataset_stream(data)
    return data


def ray_dataset_stream(ds: Any) -> SampleStream:
    """A ``ray.data.Dataset`` as a sample stream: rows numbered from 0 in the dataset's order
    (``preserve_order`` is set while it is read, so both passes of the run see one order),
    validated like a list of records. Each pass executes the dataset again."""

    def rows() -> Iterator[tuple[int, Sample | RowError]]:
        context = ds.context
        saved = (context.execution_options.preserve_order, context.enable_progress_bars)
        context.execution_options.preserve_order = True
        context.enable_progress_bars = False  # the run has its own bar
        try:
            yield from parse_items(((i, None, record) for i, record in enumerate(ds.iter_rows())), True)
        finally:
            context.execution_options.preserve_order, context.enable_progress_bars = saved

    return SampleStream(rows, "ray.data.Dataset", lazy=True)


# --- the worker ------------------------------------------------------------------------------------


class _Scored(BaseModel):
    """One sample's scores, as a worker sends them back (JSON)."""

    row: int
    scores: dict[str, MetricScore]


Batch = list[tuple[int, Sample, dict[str, MetricScore]]]
"""``(row, sample, scores already in the journal)`` for each sample of a batch."""


class _BatchScorer:
    """A Ray actor: one judge and one embedder, built from their specs once, score batches.

    Run with ``max_concurrency=1`` so a batch's usage delta is that batch's alone. The judge's
    and the embedder's circuit breakers are the run's, held by the ``keepers`` (one per
    role, see ``ragmeter.engine.ray_breaker``), not each worker's own."""

    def __init__(
        self,
        metrics: list[Metric],
        judge: str | None,
        embedder: str | None,
        judge_options: JudgeOptions,
        cache: str | bool,
        prompts: PromptSet,
        concurrency: int,
        keepers: dict[str, Any],
    ) -> None:
        from ragmeter.embedders.spec import get_embedder

        self.metrics = metrics
        self.prompts = prompts
        self.concurrency = concurrency
        disk = open_cache(cache)
        with breakers_from(lambda: SharedBreaker(keepers["judge"])):
            self.judge = build_judge(judge, disk, judge_options) if any(m.uses_judge for m in metrics) else None
        # threads as the CLI gives it (judge and embedder); Ray already sets OMP_NUM_THREADS
        # to the actor's CPUs, so without it torch uses one thread per actor
        with breakers_from(lambda: SharedBreaker(keepers["embedder"])):
            self.embedder = (
                get_embedder(embedder or "local", cache=disk if disk is not None else False,
                             threads=judge_options.local.threads, calls=judge_options.llm)
                if any(m.uses_embedder for m in metrics) else None
            )

    async def score(self, batch: Batch) -> dict[str, Any]:
        """Scores of every sample in ``batch`` (JSON), the journal scores it reused, and the
        usage this batch cost."""
        before = {role: model.usage.model_copy() for role, model in self._models()}
        samples = [sample for _, sample, _ in batch]
        done: dict[ScoreKey, MetricScore] = {}
        for row, sample, finished in batch:
            if finished:
                fp = sample.fingerprint()
                done.update(((row, fp, name), score) for name, score in finished.items())
        sink = ResultSink([m.name for m in self.metrics], None, True)
        stream = stream_samples(Dataset(samples, [row for row, _, _ in batch]))
        resumed = await score_stream(stream, self.metrics, done, sink, self.judge, self.embedder, self.prompts,
                             None, self.concurrency, lambda n: None)
        return {
            "samples": [_Scored(row=s.row, scores=s.scores).model_dump_json() for s in sink.samples],
            "resumed": resumed,
            "usage": {role: model.usage.since(before[role]).model_dump() for role, model in self._models()},
        }

    def _models(self) -> list[tuple[str, Any]]:
        return [(role, m) for role, m in (("judge", self.judge), ("embedder", self.embedder)) if m is not None]


# --- the driver ------------------------------------------------------------------------------------


def _worker_cache(cache: CacheSetting) -> str | bool:
    """The cache as a worker opens it: a path, its own default (True), or none (False).

    A ``DiskCache`` object holds a sqlite handle, so the workers get its path; sqlite in WAL
    mode takes writers from several processes. ``True`` is each worker's default location,
    which is the driver's when ``RAGMETER_CACHE_DIR`` names it (or Ray is local)."""
    if cache is None or cache is False:
        return False
    if isinstance(cache, DiskCache):
        return str(cache.path)
    if cache is True:
        if os.environ.get("RAGMETER_CACHE_DIR"):
            return str(default_cache_dir() / "cache.sqlite")
        return True
    return str(cache)


def _env_int(name: str) -> int | None:
    value = os.environ.get(name)
    if not value:
        return None
    try:
        number = int(value)
    except ValueError:
        raise InvalidOption(f"${name} must be a whole number, not {value!r}") from None
    if number < 1:
        raise InvalidOption(f"${name} must be at least 1, not {number}")
    return number


def _check_reachable(address: str | None, timeout: float = 5.0) -> None:
    """Fail in seconds (``ValueError``: a bad ``ray_address``) on a ``HOST:PORT`` nobody
    listens on, where ``ray.init`` would retry for minutes. Other forms (``auto``,
    ``ray://...``, none) are left to Ray."""
    if address is None or "://" in address or ":" not in address:
        return
    host, _, port = address.rpartition(":")
    if not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise InvalidOption(f"no Ray cluster answers at ray_address={address!r}: {exc}") from exc


class _Pool:
    """Ray and the actors, started on the first batch (a run fully resumed from its journal
    starts nothing), and stopped at the end: the actors always, Ray only if we started it.
    Beside the workers, one ``BreakerKeeper`` per role holds the run's circuit breaker."""

    def __init__(self, ray_address: str | None, make_actor: Callable[[Any, dict[str, Any]], Any]) -> None:
        self.address = ray_address
        self.make_actor = make_actor
        self.actors: list[Any] = []
        self.keepers: dict[str, Any] = {}
        self.started_ray = False
        self.ray: Any = None

    def start(self, wanted: int) -> list[Any]:
        ray = self.ray = import_ray()
        if ray.is_initialized():
            if self.address is not None:
                log.warning("Ray is already initialised; ray_address=%r is not used", self.address)
        else:
            _check_reachable(self.address)
            # Ray's usage statistics go over the network: off unless the caller's environment
            # says otherwise (Ray's processes read it when they start, so it is set only then)
            saved = os.environ.get("RAY_USAGE_STATS_ENABLED")
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            try:
                ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING)
            finally:
                if saved is None:
                    os.environ.pop("RAY_USAGE_STATS_ENABLED", None)
            self.started_ray = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        count = _env_int(ENV_WORKERS) or max(1, cpus)
        # no CPU of their own: they answer a few small calls, and must not take a worker's place
        keeper = ray.remote(num_cpus=0)(BreakerKeeper)
        self.keepers = {role: keeper.remote() for role in ("judge", "embedder")}
        self.actors = [self.make_actor(ray, self.keepers) for _ in range(min(count, wanted))]
        return self.actors

    def stop(self) -> None:
        if self.ray is None:
            return
        for actor in [*self.actors, *self.keepers.values()]:
            try:
                self.ray.kill(actor)
            except Exception:  # noqa: BLE001 (a dead actor is already stopped)
                pass
        self.actors, self.keepers = [], {}
        if self.started_ray:
            self.ray.shutdown()


async def run_on_ray(
    *,
    stream: SampleStream,
    metrics: list[Metric],
    count: int,
    info: RunInfo,
    done: dict[ScoreKey, MetricScore],
    journal: ScoreJournal | None,
    writer: ResultFile | None,
    keep_samples: bool,
    driver_judge: "Judge | None",
    driver_embedder: "Embedder | None",
    judge_spec: object,
    embedder_spec: object,
    judge_options: JudgeOptions,
    cache: CacheSetting,
    prompts: PromptSet,
    concurrency: int,
    show_progress: bool,
    ray_address: str | None,
    recorder: SampleRecorder | None = None,
) -> EvaluationResult:
    """Score ``stream`` on Ray and return the result ``aevaluate`` would have returned.

    Called by ``aevaluate`` once the run's identity (``info``), journal and prompts are set;
    ``driver_judge`` and ``driver_embedder`` are the driver's (built for their names and for
    translating prompts; they score nothing here, and their usage is added to the workers')."""
    names = [m.name for m in metrics]
    sink = ResultSink(names, writer, keep_samples, recorder)
    # an object here belongs to no metric that uses it (``prepare`` checked): not sent
    judge_name = judge_spec if isinstance(judge_spec, str) else None
    embedder_name = embedder_spec if isinstance(embedder_spec, str) else None
    worker_cache = _worker_cache(cache)
    batch_size = _env_int(ENV_BATCH_SIZE) or max(DEFAULT_BATCH_SIZE, 2 * concurrency)

    def make_actor(ray: Any, keepers: dict[str, Any]) -> Any:
        actor_class = ray.remote(num_cpus=1, max_concurrency=1, max_restarts=1, max_task_retries=1)(_BatchScorer)
        return actor_class.remote(metrics, judge_name, embedder_name, judge_options, worker_cache, prompts,
                                  concurrency, keepers)

    pool = _Pool(ray_address, make_actor)
    totals = {"judge": Usage(), "embedder": Usage()}
    resumed = 0
    Sent = dict[int, tuple[Sample, dict[str, MetricScore]]]
    in_flight: dict[asyncio.Future[Any], tuple[int, Sent]] = {}
    load: list[int] = []

    def batches() -> Iterator[Batch]:
        """The stream cut into batches; input errors and fully journaled samples stay here.
        Ray starts with the first sample to score; the batch size then spreads a small run
        over every worker (one batch each) rather than giving it all to one."""
        nonlocal resumed, load
        size = batch_size
        batch: Batch = []
        for row, item in stream:
            if isinstance(item, RowError):
                sink.input_errors.append(item)
                continue
            fp = item.fingerprint() if done else ""
            finished = {m.name: done[(row, fp, m.name)] for m in metrics if (row, fp, m.name) in done}
            if len(finished) == len(metrics):
                resumed += len(finished)
                advance(len(finished))
                sink.add(row, item, finished)
                continue
            if not pool.actors:
                load = [0] * len(pool.start(max(1, count)))
                size = min(batch_size, max(1, math.ceil(count / len(load))))
            advance(len(finished))  # scores the journal gave; the worker counts them as resumed
            batch.append((row, item, finished))
            if len(batch) >= size:
                yield batch
                batch = []
        if batch:
            yield batch

    async def collect_one() -> None:
        nonlocal resumed
        finished, _ = await asyncio.wait(list(in_flight), return_when=asyncio.FIRST_COMPLETED)
        for future in finished:
            worker, sent = in_flight.pop(future)
            load[worker] -= 1
            try:
                reply = future.result()
            except Exception as exc:  # a worker's failure (a metric's is a score) ends the run
                rows = sorted(sent)
                note = f"ragmeter: raised by the Ray worker scoring rows {rows[0]}..{rows[-1]}"
                cause = getattr(exc, "cause", None)  # a RayTaskError carries the worker's exception
                if isinstance(cause, RagmeterError):
                    # a typed error (an unreachable judge) as a local run raises it: its message
                    # is one line for the CLI, not the Ray wrapper's worker traceback
                    cause.add_note(note)
                    raise cause from exc
                exc.add_note(note)
                raise
            resumed += reply["resumed"]
            for role, delta in reply["usage"].items():
                totals[role] = totals[role].merged(Usage(**delta))
            for text in reply["samples"]:
                scored = _Scored.model_validate_json(text)
                sample, previous = sent[scored.row]
                if journal is not None:
                    fp = sample.fingerprint()
                    for name, score in scored.scores.items():
                        if name not in previous:
                            journal.append((scored.row, fp, name), score)
                sink.add(scored.row, sample, scored.scores)
                advance(len(scored.scores) - len(previous))

    if journal is not None:
        journal.open()
    try:
        with progress_bar(count * len(metrics), "evaluating on Ray", enabled=show_progress) as advance:
            for batch in batches():
                while min(load) >= QUEUED_PER_WORKER:
                    await collect_one()
                worker = load.index(min(load))
                ref = pool.actors[worker].score.remote(batch)
                in_flight[asyncio.wrap_future(ref.future())] = (worker, {r: (s, f) for r, s, f in batch})
                load[worker] += 1
            while in_flight:
                await collect_one()
    except BaseException:
        for future in in_flight:
            future.cancel()
        if writer is not None:
            writer.abort()
        if recorder is not None:
            recorder.abort()
        raise
    finally:
        pool.stop()
        if journal is not None:
            journal.close()
        await close_models(driver_judge, driver_embedder)

    info.finished = time.time()
    info.resumed_scores = resumed
    usage: dict[str, Usage] = {}
    if driver_judge is not None:
        usage["judge"] = driver_judge.usage.merged(totals["judge"])
    if driver_embedder is not None:
        usage["embedder"] = driver_embedder.usage.merged(totals["embedder"])
    return sink.finish(info, usage)
