"""Recording a run as it streams: one row for the run, its samples inserted in batches.

``evaluate`` hands each finished sample to ``add`` (the same moment the result file gets it)
and the run's info, usage and input errors to ``finish``. Nothing but the current batch is
held, so recording a 100,000-sample run adds no memory that grows with the run.

The run can be deleted from the store while it is recorded (``ragmeter runs delete --force``
from another shell). The recorder then stops recording and says so once; the evaluation goes
on and writes its result file, since losing the record is no reason to lose the scores.
"""

from __future__ import annotations

import hashlib
import logging
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import sqlalchemy as sa

from ragmeter.calls.redact import mask_data, mask_secrets
from ragmeter.errors import RunStoreError
from ragmeter.result.totals import Totals
from ragmeter.runs import _schema as schema
from ragmeter.runs._git import git_state
from ragmeter.runs._stats import RunningStats
from ragmeter.runs._store import RunStore, check_tags, recording_off_by_env, stored_branch

log = logging.getLogger("ragmeter")

BATCH = 500
"""Samples per insert: one transaction per 500 samples keeps the writer lock short (other
processes wait milliseconds) and the buffer small."""


@dataclass
class Record:
    """How ``evaluate(record=...)`` records: into which store, with which tags. After the run
    ``run`` holds the id it was recorded under."""

    store: str | Path | None = None
    tags: Sequence[str] = ()
    run: str | None = field(default=None, init=False)


def _fingerprint_part(sample: Any) -> int:
    """A sample's share of the test-set fingerprint: its row, id and what the test set fixes
    (``Sample.set_by_test_set``: the question and reference answer; a conversation's user turns
    and references), not the app's answer or contexts, so runs of two versions of an app over
    one test set share a fingerprint and form one trend."""
    data = sample.sample
    text = "\x1f".join(str(x) for x in (sample.row, sample.id or data.id or "", *data.set_by_test_set()))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")


class RunRecorder:
    """Records one run into a ``RunStore``; ``add`` per finished sample, then ``finish`` or ``abort``.

    The store's id is the run's one id for its user: it is set on ``info.recorded_as``, so
    the summary, the result file, the report and the gate name the run as ``ragmeter runs``
    does (``info.run_id``, the identity of the run's inputs, stays the journal's key)."""

    def __init__(self, store: RunStore, info: Any, *, tags: Sequence[str] = (), prompts: str | None = None,
                 owner: Record | None = None) -> None:
        self.tags = check_tags(tags)
        self.store = store
        self.id = uuid.uuid4().hex[:12]
        self.owner = owner
        self.lost = False  # the run was deleted from the store while recording: nothing more is written
        self.metrics = list(info.metrics)
        self._buffer: list[dict[str, Any]] = []
        self._seq = 0
        self._fingerprint = 0  # sum of the samples' hashes mod 2^256: the same whatever order they finish in
        self._totals = Totals(self.metrics)
        self._stats = {m: RunningStats() for m in self.metrics}
        commit, branch = git_state()
        with store.engine.begin() as conn:
            conn.execute(schema.runs.insert().values(
                id=self.id, run_id=info.run_id, status="running", started=info.started, source=mask_secrets(info.source) if info.source else None,
                git_commit=commit, git_branch=stored_branch(branch), judge=mask_secrets(info.judge) if info.judge else None,
                embedder=mask_secrets(info.embedder) if info.embedder else None, prompts=prompts,
                metrics=self.metrics, tags=self.tags, samples=0,
            ))
            if self.tags:
                conn.execute(schema.run_tags.insert(), [{"run": self.id, "tag": t} for t in self.tags])
        info.recorded_as = self.id
        if owner is not None:
            owner.run = self.id

    def add(self, sample: Any) -> None:
        """One finished ``SampleResult``."""
        if self.lost:
            return
        self._buffer.append({"run": self.id, "seq": self._seq, "row": sample.row, "data": sample.model_dump_json()})
        self._seq += 1
        self._fingerprint = (self._fingerprint + _fingerprint_part(sample)) % (1 << 256)
        self._totals.add(sample)
        for name, score in sample.scores.items():
            if score.value is not None and name in self._stats:
                self._stats[name].add(score.value)
        if len(self._buffer) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        if not self._buffer or self.lost:
            return
        try:
            with self.store.engine.begin() as conn:
                # The run's row first, in the batch's transaction: gone, the batch is not sent
                # (on PostgreSQL a failed batch also leaves psycopg logging its aborted pipeline).
                # On PostgreSQL the row is locked (FOR KEY SHARE) until the batch commits, so a
                # delete waits for the batch instead of racing it; SQLite has no row locks.
                gone = conn.execute(sa.select(schema.runs.c.id).where(schema.runs.c.id == self.id)
                                    .with_for_update(read=True, key_share=True)).first() is None
                if not gone:
                    conn.execute(schema.samples.insert(), self._buffer)
        except sa.exc.IntegrityError:
            # the samples' foreign key: the run row went after the check (SQLite). Anything
            # else is re-raised. The error itself is not shown: its message carries the
            # batch, ten samples' texts.
            if self._run_exists():
                raise
            gone = True
        if gone:
            self._lose()
        self._buffer = []

    def _run_exists(self) -> bool:
        with self.store.engine.connect() as conn:
            return conn.execute(sa.select(schema.runs.c.id).where(schema.runs.c.id == self.id)).first() is not None

    def _lose(self) -> None:
        """The run was deleted from the store under us: say so once, record no more."""
        self.lost = True
        self._buffer = []
        if self.owner is not None:
            self.owner.run = None
        log.warning("run %s was deleted from the run store while it ran; no longer recorded", self.id)

    def finish(self, info: Any, usage: dict[str, Any], input_errors: Iterable[Any]) -> str | None:
        """Write the last batch and the run's summary; returns the run's id in the store, or
        None when the run was deleted from the store meanwhile (``info.recorded_as`` is then
        cleared: the result file must not name a run the store no longer has)."""
        try:
            return self._finish(info, usage, input_errors)
        except BaseException:
            info.recorded_as = None
            raise
        finally:
            self.store.close()

    def _finish(self, info: Any, usage: dict[str, Any], input_errors: Iterable[Any]) -> str | None:
        from ragmeter.metrics.summary import summary_score

        self._flush()
        if self.lost:
            info.recorded_as = None
            return None
        summary = {}
        for name, totals in self._totals.summary().items():
            low, high = self._stats[name].interval()
            summary[name] = {**totals.model_dump(), "ci_low": low, "ci_high": high}
        costs = [u.cost for u in usage.values() if u.cost is not None]
        means = {n: summary[n]["mean"] for n in info.summary_metrics if n in summary}
        with self.store.engine.begin() as conn:
            updated = conn.execute(sa.update(schema.runs).where(schema.runs.c.id == self.id).values(
                status="finished", finished=info.finished or time.time(), samples=self._seq,
                dataset=f"{self._fingerprint:064x}"[:16], summary=summary, summary_score=summary_score(means),
                cost=sum(costs) if costs else None,
                usage={k: u.model_dump(mode="json") for k, u in usage.items()},
                info=mask_data(info.model_dump(mode="json")),
                input_errors=[e.model_dump(mode="json") for e in input_errors],
            )).rowcount
        if not updated:  # deleted after the last batch: nothing failed, the run is simply gone
            self._lose()
            info.recorded_as = None
            return None
        log.info("run recorded as %s in %s", self.id, self.store.display_url)
        return self.id

    def abort(self) -> None:
        """The run failed: its samples are dropped and the run is kept as ``failed`` (a rerun
        resumes from the journal and is recorded anew)."""
        self._buffer = []
        try:
            with self.store.engine.begin() as conn:
                conn.execute(sa.delete(schema.samples).where(schema.samples.c.run == self.id))
                conn.execute(sa.update(schema.runs).where(schema.runs.c.id == self.id)
                             .values(status="failed", finished=time.time()))
        except (sa.exc.SQLAlchemyError, RunStoreError) as exc:  # the run's own error is the one to raise
            # (a driver's message may quote the URL it was given)
            log.warning("could not mark run %s as failed in %s: %s", self.id, self.store.display_url,
                        mask_secrets(str(exc).splitlines()[0]) if str(exc) else type(exc).__name__)
        finally:
            self.store.close()


def open_recorder(record: bool | str | Path | Record | None, info: Any, *, prompts: str | None = None) -> RunRecorder | None:
    """The recorder ``evaluate(record=...)`` asks for: ``True`` the default store (unless
    ``$RAGMETER_RUNS=off``), a path or URL that store, a ``Record`` its store and tags,
    ``False``/``None`` no recording."""
    if record is None or record is False:
        return None
    if record is True:
        record = Record()
    elif not isinstance(record, Record):
        record = Record(store=record)
    if record.store is None and recording_off_by_env():
        return None
    check_tags(record.tags)  # before the store is opened
    return RunRecorder(RunStore(record.store), info, tags=record.tags, prompts=prompts, owner=record)


def recorder_for(record: bool | str | Path | Record | None) -> Callable[[Any, str | None], RunRecorder | None] | None:
    """What the engine takes as ``recorder=``: opens the store ``record`` names once the run's
    identity is known (``None`` when nothing is recorded)."""
    if record is None or record is False:
        return None
    return lambda info, prompts: open_recorder(record, info, prompts=prompts)
