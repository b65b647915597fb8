"""``ragmeter monitor``: score a window of production traffic, record it, alert on a drop.

    from ragmeter.monitor import monitor
    report = monitor(["traffic.jsonl"], hours=24, size=200, metrics=["faithfulness"], judge="local")
    report.alert  # True when a metric fell below the recent production runs by more than its interval

Each monitored run is recorded in the run store with the ``production`` tag, so the next
run compares with it and ``ragmeter ui`` charts it over time. A malformed part of the
traffic is named (``report.skipped``, and ``on_problem`` as it is met) and left out; the
good records are sampled and scored.

Chats: when the traces carry session ids (OpenInference's ``session.id``), each session is
one conversation (``ragmeter.traces.ingest_otlp_conversations``) and the window is sampled
and scored by conversation: single-turn metrics on every turn that retrieved something, with
the earlier turns as context, conversation metrics once per conversation. ``conversations=``
forces either reading (``False``: every trace a sample of its own, as before).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any, Iterator, Sequence

from pydantic import BaseModel

from ragmeter.traces import InputProblem, ProblemHandler, log_problem, traffic_has_sessions
from ragmeter.monitor._check import MetricWatch, watch_metric
from ragmeter.monitor._window import read_conversation_traffic, read_traffic, sample_window

PRODUCTION_TAG = "production"
WINDOW_FILE = "production-window.jsonl"
"""The name the sampled window is written under, so every monitored run has the same source
and ``ragmeter runs list --dataset production-window.jsonl`` lists them."""
CHATS_WINDOW_FILE = "production-chats-window.jsonl"
"""The window's name when it holds conversations: a trend of chats is not one of single
questions, so the two are recorded as two sources."""


class MonitorReport(BaseModel):
    run: str | None
    window: int
    """Good records in the time window."""
    sampled: int
    metrics: list[MetricWatch]
    records: int = 0
    """Good records read from the traffic, in the window or not."""
    skipped: list[InputProblem] = []
    """The malformed parts of the traffic, each named, that were left out."""
    conversations: bool = False
    """Whether the traffic was read and scored as conversations (one record per session)."""

    @property
    def alert(self) -> bool:
        return any(m.alert for m in self.metrics)


def monitor(
    traffic: Sequence[str | Path],
    *,
    metrics: Sequence[Any] = ("faithfulness", "answer_relevancy"),
    hours: float | None = 24.0,
    size: int | None = 200,
    seed: int = 0,
    judge: Any = "local",
    store: str | Path | None = None,
    tags: Sequence[str] = (),
    recent: int = 5,
    now: float | None = None,
    on_problem: ProblemHandler | None = None,
    conversations: bool | None = None,
    retrieval_tools: Sequence[str] = (),
    **evaluate_options: Any,
) -> MonitorReport:
    """Sample the traffic window, evaluate it (recorded with the ``production`` tag plus
    ``tags``), and compare each metric with the last ``recent`` production runs. Each
    malformed part of the traffic goes to ``on_problem`` (default: a warning) and into
    ``skipped``.

    ``conversations``: ``None`` (the default) scores chats when any OTLP file's spans carry a
    session id, single samples otherwise; ``True`` reads every file as conversations (OTLP
    traces grouped by session, or JSON Lines of conversation records), ``False`` never.
    ``retrieval_tools`` names tools whose results are a turn's contexts (for turns with no
    RETRIEVER span)."""
    from ragmeter.api import evaluate, evaluate_conversations
    from ragmeter.runs import Record, RunStore

    skipped: list[InputProblem] = []
    read = 0

    def noted(problem: InputProblem) -> None:
        skipped.append(problem)
        (on_problem or log_problem)(problem)

    def counted(records: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        nonlocal read
        for record in records:
            read += 1
            yield record

    chats = any(traffic_has_sessions(p) for p in traffic) if conversations is None else conversations
    records = read_conversation_traffic(traffic, noted, retrieval_tools=retrieval_tools) if chats \
        else read_traffic(traffic, noted)
    window, seen = sample_window(counted(records), hours=hours, size=size, seed=seed, now=now)
    if not window:
        return MonitorReport(run=None, window=seen, sampled=0, metrics=[], records=read, skipped=skipped,
                             conversations=chats)
    the_store = RunStore(store)
    before = [r for r in the_store.list(tag=PRODUCTION_TAG, status="finished")]
    with tempfile.TemporaryDirectory(prefix="ragmeter-monitor-") as folder:
        path = Path(folder) / (CHATS_WINDOW_FILE if chats else WINDOW_FILE)
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in window), encoding="utf-8")
        record = Record(store=the_store.url, tags=[PRODUCTION_TAG, *tags])
        if chats:
            result = evaluate_conversations(path, list(metrics), retrieval_tools=list(retrieval_tools) or None,
                                            judge=judge, record=record, **evaluate_options)
        else:
            result = evaluate(path, list(metrics), judge=judge, record=record, **evaluate_options)
    current = the_store.get(record.run) if record.run else None
    watches = []
    for name in result.metric_names:
        stats = current.summary.get(name) if current and current.summary else None
        means = (r.summary[name].mean for r in before if r.summary and name in r.summary)
        recent_means = [m for m in means if m is not None][:recent]
        watch = watch_metric(
            name, stats.mean if stats else None, stats.ci_low if stats else None, stats.ci_high if stats else None,
            recent_means, lower_is_better=name in result.info.lower_is_better,
        )
        if watch.mean is None:
            failed = next((s.scores[name].error for s in result.samples
                           if name in s.scores and s.scores[name].error is not None), None)
            watch.unscored = f"{failed.kind}: {failed.message}" if failed is not None else None
        watches.append(watch)
    the_store.close()
    return MonitorReport(run=record.run, window=seen, sampled=len(window), metrics=watches, records=read,
                         skipped=skipped, conversations=chats)


__all__ = ["MetricWatch", "MonitorReport", "PRODUCTION_TAG", "monitor", "read_conversation_traffic", "read_traffic",
           "sample_window", "watch_metric"]
