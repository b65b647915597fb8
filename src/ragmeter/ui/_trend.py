"""The trend chart's data: per metric a point per finished run, and the time axis they share.

Left to itself, plotly fits a date axis to the points: one run, or runs a few milliseconds
apart (a script, a test), give an axis a millisecond wide, labelled in sub-millisecond
steps. So the chart gets its range from here, padded by ``MIN_PAD`` each side at least (a
one-hour window, ticked in minutes), by a twentieth of the span beyond that. Every chart of a
test set shares it, so a metric scored in one run only lines up with the others. Times are
UTC strings, as in the runs table ("started (UTC)"), not the browser's local time.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Sequence

from ragmeter.runs import RunSummary

MIN_PAD = 1800.0
"""Seconds of axis before the first run and after the last, at least."""


def utc(epoch: float) -> str:
    """``epoch`` as plotly reads a date: ``2024-05-01 12:00:00.000``, UTC, to the millisecond."""
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def time_range(started: Sequence[float]) -> list[str] | None:
    """The x range of charts whose runs started at ``started``; ``None`` with no run."""
    if not started:
        return None
    first, last = min(started), max(started)
    pad = max(MIN_PAD, (last - first) / 20)
    return [utc(first - pad), utc(last + pad)]


def trend_data(dataset: str, runs: Sequence[RunSummary]) -> dict[str, Any]:
    """What ``/api/trend`` answers for ``runs`` (oldest first): per metric a point per run
    that scored it, and the shared ``time_range``."""
    metrics = list(dict.fromkeys(m for r in runs for m in r.metrics))
    series = {}
    for metric in metrics:
        series[metric] = [
            {"run": r.id, "started": r.started, "at": utc(r.started), "mean": r.summary[metric].mean,
             "ci_low": r.summary[metric].ci_low, "ci_high": r.summary[metric].ci_high, "branch": r.git_branch,
             "commit": r.git_commit, "tags": r.tags}
            for r in runs if r.summary and metric in r.summary and r.summary[metric].mean is not None
        ]
    return {"dataset": dataset, "runs": len(runs), "metrics": series,
            "time_range": time_range([r.started for r in runs])}
