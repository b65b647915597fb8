"""A window of production traffic: the records of the last hours, sampled down to a size.

Traffic is OTLP JSON traces (turned into records by ``ragmeter.ingest``) or the JSON Lines
records ragmeter's callback handlers write; a record's time is ``metadata.started``.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, Iterable, Iterator


def _is_otlp(path: Path) -> bool:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                return '"resourceSpans"' in line or '"resource_spans"' in line
    return False


def read_traffic(paths: Iterable[str | Path]) -> Iterator[dict[str, Any]]:
    """Every record in ``paths``: OTLP JSON trace files or JSON Lines of records."""
    from ragmeter.ingest import ingest_otlp

    for path in map(Path, paths):
        if _is_otlp(path):
            yield from ingest_otlp(path)
            continue
        with path.open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, start=1):
                if line.strip():
                    try:
                        yield json.loads(line)
                    except json.JSONDecodeError as exc:
                        raise ValueError(f"{path}, line {number}: not JSON ({exc.msg})") from None


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
