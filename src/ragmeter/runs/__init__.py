"""The run store: every ``evaluate`` recorded, to list, compare, export and chart over time.

    from ragmeter.runs import RunStore
    store = RunStore()                        # .ragmeter/runs.db, or $RAGMETER_RUNS
    runs = store.list(dataset="testset.jsonl", tag="nightly")
    store.export(runs[0].id, "result.json")   # the file `evaluate --out` wrote

``evaluate(..., record=True)`` (the default) records into the default store; ``record=PATH
or URL`` into another, ``record=Record(tags=["nightly"])`` with tags, ``record=False`` not at
all. Credentials in judge and store URLs are masked (``ragmeter.calls.redact.mask_secrets``)
before anything is stored or shown.
"""

from ragmeter.runs._differences import RunDifference, describe_differences, run_differences
from ragmeter.runs._models import MetricStats, RunSummary
from ragmeter.runs._recorder import Record, RunRecorder, open_recorder, recorder_for
from ragmeter.runs._stats import RunningStats
from ragmeter.runs._store import ENV_STORE, RunNotFound, RunStore, store_url

__all__ = [
    "ENV_STORE",
    "MetricStats",
    "Record",
    "RunDifference",
    "RunNotFound",
    "RunRecorder",
    "RunningStats",
    "RunStore",
    "RunSummary",
    "describe_differences",
    "open_recorder",
    "recorder_for",
    "run_differences",
    "store_url",
]
