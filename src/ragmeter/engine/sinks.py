"""What the engine writes to as samples finish, and reads from to resume: the sinks its caller
opens and hands it (``ragmeter.api`` builds them from ``out=``, ``journal=``, ``resume=`` and
``record=``). The engine decides no path and opens no file; it only calls these methods, so
the same engine runs with files, with a store, or with nothing (``align``, ``annotate``).
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ragmeter.data import RowError
from ragmeter.metrics.score import MetricScore
from ragmeter.result import RunInfo, SampleResult

ScoreKey = tuple[int, str, str]
"""(row, sample fingerprint, metric name): one score's place in a run."""


class ScoreJournal(Protocol):
    """Every finished score, kept as it lands, so an interrupted run loses nothing.

    ``finished`` is read once, before any scoring (empty when the run starts afresh);
    ``open``, each ``append`` and ``close`` follow."""

    location: str
    """Where the journal is, for ``RunInfo.journal`` (a path for a file)."""

    def finished(self) -> dict[ScoreKey, MetricScore]: ...

    def open(self) -> None: ...

    def append(self, key: ScoreKey, score: MetricScore) -> None: ...

    def close(self) -> None: ...


JournalOpener = Callable[[str], ScoreJournal]
"""The run's journal, once its identity is known: run id -> journal."""


class ResultFile(Protocol):
    """The result file samples stream into (``ragmeter.result.writers`` writes one): each
    finished sample, then the run's info (``finish`` returns where it is), or ``abort``."""

    def add(self, result: SampleResult) -> None: ...

    def finish(self, info: RunInfo, usage: dict[str, Any], input_errors: list[RowError]) -> Any: ...

    def abort(self) -> None: ...


ResultFileOpener = Callable[[list[str]], ResultFile]
"""Opens the result file for the run's metrics (their names, in order)."""


class SampleRecorder(Protocol):
    """A sink the caller opens for a run (the run store's recorder is one): it gets each
    finished sample, then the run's info, or ``abort`` when the run fails."""

    def add(self, sample: SampleResult) -> None: ...

    def finish(self, info: RunInfo, usage: dict[str, Any], input_errors: list[RowError]) -> Any: ...

    def abort(self) -> None: ...


RecorderOpener = Callable[[RunInfo, "str | None"], "SampleRecorder | None"]
"""Opens the recorder once the run's identity is known: (info, prompts fingerprint) -> recorder."""
