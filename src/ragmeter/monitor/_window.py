"""A window of production traffic: the records of the last hours, sampled down to a size.

Traffic is OTLP JSON traces (turned into records by ``ragmeter.traces``) or the JSON Lines
records ragmeter's callback handlers write; a record's time is ``metadata.started``. A
malformed line, span or record is named and skipped (``ragmeter.traces.read_traffic_file``),
so one bad byte in a day of traffic costs its line, not the day's monitoring.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ragmeter.traces import ProblemHandler, read_conversation_traffic_file, read_traffic_file


def read_traffic(paths: Iterable[str | Path], on_problem: ProblemHandler | None = None) -> Iterator[dict[str, Any]]:
    """Every good record in ``paths``: OTLP JSON trace files or JSON Lines of records, each
    checked as a sample; each bad part is reported to ``on_problem`` (default: a warning)."""
    for path in paths:
        yield from read_traffic_file(path, on_problem)


def read_conversation_traffic(paths: Iterable[str | Path], on_problem: ProblemHandler | None = None, *,
                              retrieval_tools: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    """Every good conversation in ``paths`` as a record: OTLP JSON traces grouped by session,
    or JSON Lines of conversation records; each bad part is reported to ``on_problem``. A
    conversation's time (``metadata.started``) is when its first turn started."""
    for path in paths:
        yield from read_conversation_traffic_file(path, on_problem, retrieval_tools=retrieval_tools)


def sample_window(records: Iterable[dict[str, Any]], *, hours: float | None, size: int | None, seed: int = 0,
                  now: float | None = None) -> tuple[list[dict[str, Any]], int]:
    """Records of the last ``hours`` (all with ``None``; records with no time are left out of
    a window), then a uniform sample of ``size`` of them (reservoir sampling, so the traffic
    is read once and never held whole). Returns the sample in time order and how many
    records the window held."""
    since = (now if now is not None else time.time()) - hours * 3600 if hours is not None else None
    rng = random.Random(seed)
    kept: list[dict[str, Any]] = []
    seen = 0
    for record in records:
        started = (record.get("metadata") or {}).get("started")
        if since is not None and (not isinstance(started, (int, float)) or started < since):
            continue
        seen += 1
        if size is None or len(kept) < size:
            kept.append(record)
        else:
            slot = rng.randrange(seen)
            if slot < size:
                kept[slot] = record
    kept.sort(key=lambda r: (r.get("metadata") or {}).get("started") or 0)
    return kept, seen
