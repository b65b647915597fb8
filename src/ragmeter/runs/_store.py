"""The run store: every recorded run, its summary and its samples, in one database.

The default is an SQLite file, ``.ragmeter/runs.db`` under the current folder (created on
first use), in WAL mode with a long busy timeout, so several processes can record at once:
SQLite lets one writer in at a time and the others wait their turn for the few
milliseconds a batch takes. ``$RAGMETER_RUNS`` (a path or any SQLAlchemy URL, e.g.
``postgresql+psycopg://host/db`` for a team) moves it; the same code serves both.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

import sqlalchemy as sa

from ragmeter.calls.redact import mask_secrets
from ragmeter.errors import InvalidTag, RagmeterError, RunStillRecording, RunStoreError
from ragmeter.runs import _schema as schema
from ragmeter.runs._damage import note_if_empty, probe, raise_on_damage
from ragmeter.runs._models import RunSummary

ENV_STORE = "RAGMETER_RUNS"
"""A path or SQLAlchemy URL for the store; ``off`` turns recording off by default."""
DEFAULT_PATH = Path(".ragmeter") / "runs.db"
OFF_VALUES = ("off", "none", "0", "false", "no")
SQLITE_BUSY_TIMEOUT_S = 120.0
"""How long a writer waits for another process's transaction: a batch takes milliseconds, but
a busy disk under a 100,000-sample run can stretch one to seconds."""


TEXT_MAX = 255
"""The longest tag and git branch the store keeps (``VARCHAR(255)``: PostgreSQL enforces the
length, SQLite does not)."""


Runs = list[RunSummary]
"""(``RunStore.list`` shadows the builtin inside the class.)"""


class RunNotFound(RagmeterError, LookupError):
    """No run (or more than one) matches the id or prefix given."""


def _with_id(info: dict[str, Any], run_id: str) -> dict[str, Any]:
    """A stored run's info naming the run by its store id: runs recorded before the info
    carried ``recorded_as`` get it here, so their report and gate name them as the store does."""
    return info if info.get("recorded_as") else {**info, "recorded_as": run_id}


def check_tags(tags: Sequence[str]) -> list[str]:
    """``tags`` without repeats; ``InvalidTag`` for one the store cannot hold."""
    for tag in tags:
        if len(tag) > TEXT_MAX:
            raise InvalidTag(f"the tag {tag[:30]!r}... is {len(tag)} characters long; a tag has at most {TEXT_MAX}")
        if "\x00" in tag:
            raise InvalidTag(f"the tag {tag!r} holds a NUL character (\\x00), which the run store cannot hold")
    return list(dict.fromkeys(tags))


def stored_branch(branch: str | None) -> str | None:
    """A git branch as the store keeps it: cut to ``TEXT_MAX`` characters (git allows longer)."""
    return branch[:TEXT_MAX] if branch else branch


def recording_off_by_env() -> bool:
    return os.environ.get(ENV_STORE, "").strip().lower() in OFF_VALUES and bool(os.environ.get(ENV_STORE))


def store_url(spec: str | Path | None = None) -> str:
    """The SQLAlchemy URL for ``spec`` (a URL, a file path) or, without one, for
    ``$RAGMETER_RUNS`` or ``.ragmeter/runs.db`` in the current folder."""
    if spec is None:
        env = os.environ.get(ENV_STORE, "").strip()
        spec = env if env and env.lower() not in OFF_VALUES else DEFAULT_PATH
    text = str(spec)
    if "://" in text:
        return text
    return "sqlite:///" + str(Path(text).expanduser().resolve())


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across a process crash
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _create_engine(url: str) -> sa.Engine:
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return sa.create_engine(url, pool_pre_ping=True)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        note_if_empty(Path(parsed.database))
        probe(Path(parsed.database))
    engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S})
    sa.event.listen(engine, "connect", _on_sqlite_connect)
    raise_on_damage(engine, parsed.database or url)
    return engine


CREATE_LOCK = int.from_bytes(b"ragmeter", "big")
"""The PostgreSQL advisory lock (per database) held while the tables are checked and created."""


def _create_tables(engine: sa.Engine) -> None:
    """The store's tables, created where missing. On PostgreSQL two processes creating them
    at once (two evaluations starting on a new database) would both find them missing and
    one CREATE TABLE would fail on the catalogue's unique index, so the check and the
    creation hold a transaction-scoped advisory lock: the second waits, then finds them.
    SQLite serialises writers itself; a lost race there is the caller's retry."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(CREATE_LOCK)))
        schema.metadata.create_all(conn)


class RunStore:
    """Runs recorded by ``evaluate``: list, look up, load, export, delete.

        store = RunStore()                      # .ragmeter/runs.db or $RAGMETER_RUNS
        store.list(tag="nightly", branch="main")
        store.load("3f2a").summary()            # an id or a unique prefix of one
        store.export("3f2a", "result.json")     # the file --out wrote
    """

    def __init__(self, url: str | Path | None = None) -> None:
        """Open (and on first use create) the store. A damaged SQLite file raises
        ``RunStoreDamaged``, a store that cannot be opened at all (a folder that cannot be
        written, a server that is down) ``RunStoreError``: one line each, before any run starts."""
        self.url = store_url(url)
        self.engine = _create_engine(self.url)
        for attempt in range(3):  # two processes creating the tables at once: one loses the race
            try:
                _create_tables(self.engine)
                break
            except sa.exc.OperationalError as exc:
                if attempt == 2:
                    self.engine.dispose()
                    why = str(exc.orig).strip() or type(exc.orig).__name__
                    raise RunStoreError(f"cannot open the run store {self.display_url} ({why}); "
                                        "check it, or run evaluate with --no-record") from exc
                time.sleep(0.2 * (attempt + 1))
            except BaseException:
                self.engine.dispose()
                raise

    @property
    def display_url(self) -> str:
        """The URL with any password masked, for messages."""
        return mask_secrets(self.url)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "RunStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- reading -------------------------------------------------------------------------

    def list(
        self,
        *,
        tag: str | None = None,
        branch: str | None = None,
        dataset: str | None = None,
        status: str | None = None,
        limit: int | None = None,
    ) -> Runs:
        """Runs, newest first. ``dataset`` matches a fingerprint prefix or the source file's name."""
        query = sa.select(schema.runs).order_by(schema.runs.c.started.desc())
        if tag:
            query = query.where(schema.runs.c.id.in_(sa.select(schema.run_tags.c.run).where(schema.run_tags.c.tag == tag)))
        if branch:
            query = query.where(schema.runs.c.git_branch == stored_branch(branch))
        if status:
            query = query.where(schema.runs.c.status == status)
        if dataset:
            # LIKE ignores ASCII case on SQLite, not on PostgreSQL: the i- forms ignore it on both
            query = query.where(
                sa.or_(
                    schema.runs.c.dataset.istartswith(dataset, autoescape=True),
                    schema.runs.c.source == dataset,
                    schema.runs.c.source.iendswith("/" + dataset, autoescape=True),
                )
            )
        if limit:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [RunSummary.from_row(row) for row in conn.execute(query)]

    def resolve(self, run: str) -> str:
        """The full id of the one run whose id starts with ``run``; ``RunNotFound`` otherwise."""
        with self.engine.connect() as conn:
            ids = conn.execute(
                # ids are lower-case hex; a prefix typed in capitals finds them on PostgreSQL as on SQLite
                sa.select(schema.runs.c.id).where(schema.runs.c.id.istartswith(run, autoescape=True)).limit(2)
            ).scalars().all()
        if not run or not ids:
            raise RunNotFound(f"no run {run!r} in {self.display_url}")
        if len(ids) > 1:
            raise RunNotFound(f"{run!r} matches more than one run in {self.display_url}; give more of the id")
        return ids[0]

    def get(self, run: str) -> RunSummary:
        run_id = self.resolve(run)
        with self.engine.connect() as conn:
            return RunSummary.from_row(conn.execute(sa.select(schema.runs).where(schema.runs.c.id == run_id)).one())

    def _head(self, run_id: str) -> dict[str, Any]:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(schema.runs.c.status, schema.runs.c.info, schema.runs.c.usage, schema.runs.c.input_errors)
                .where(schema.runs.c.id == run_id)
            ).one()
        if row.status != "finished":
            raise RunNotFound(f"run {run_id} is {row.status}: only finished runs have a result")
        return dict(row._mapping)

    def iter_samples(self, run: str, *, batch: int = 1000) -> Iterator[Any]:
        """The run's ``SampleResult``s in the order the run finished them, read in batches
        (memory stays flat however long the run)."""
        from ragmeter.result import SampleResult

        run_id = self.resolve(run)
        last = -1
        while True:
            with self.engine.connect() as conn:
                rows = conn.execute(
                    sa.select(schema.samples.c.seq, schema.samples.c.data)
                    .where(schema.samples.c.run == run_id, schema.samples.c.seq > last)
                    .order_by(schema.samples.c.seq)
                    .limit(batch)
                ).all()
            for row in rows:
                yield SampleResult.model_validate_json(row.data)
            if len(rows) < batch:
                return
            last = rows[-1].seq

    def load(self, run: str) -> Any:
        """The run as an ``EvaluationResult`` (samples in row order, as ``EvaluationResult.load`` gives them)."""
        from ragmeter.result import EvaluationResult

        run_id = self.resolve(run)
        head = self._head(run_id)
        result = EvaluationResult.model_validate(
            {"info": _with_id(head["info"], run_id), "usage": head["usage"] or {},
             "input_errors": head["input_errors"] or [], "samples": []}
        )
        result.samples = sorted(self.iter_samples(run_id), key=lambda s: s.row)
        return result

    def export(self, run: str, path: str | Path) -> Path:
        """Write the run's result file (``.json`` or ``.parquet``), the same file ``--out``
        wrote for it; samples are streamed from the store, not held."""
        from ragmeter.calls.usage import Usage
        from ragmeter.data import RowError
        from ragmeter.result import RunInfo
        from ragmeter.result.writers import open_writer, result_format

        result_format(path)
        run_id = self.resolve(run)
        head = self._head(run_id)
        info = RunInfo.model_validate(_with_id(head["info"], run_id))
        with open_writer(path, list(info.metrics)) as writer:
            for sample in self.iter_samples(run_id):
                writer.add(sample)
            writer.finish(
                info,
                {k: Usage.model_validate(v) for k, v in (head["usage"] or {}).items()},
                [RowError.model_validate(e) for e in head["input_errors"] or []],
            )
        return Path(path)

    def trend(self, dataset: str, *, tag: str | None = None, limit: int | None = None) -> Runs:
        """Finished runs of one test set (fingerprint prefix or source name), oldest first."""
        runs = self.list(dataset=dataset, tag=tag, status="finished", limit=limit)
        return list(reversed(runs))

    # --- writing -------------------------------------------------------------------------

    def delete(self, run: str, *, force: bool = False) -> str:
        """Delete the run and its samples; returns its full id.

        A run still being recorded (``running``) raises ``RunStillRecording`` unless
        ``force``: its evaluation would lose the run at its next batch. Forced, that
        evaluation finds the run gone, says so once and finishes its result file unrecorded;
        ``force`` is for a run left ``running`` by a process that was killed."""
        run_id = self.resolve(run)
        with self.engine.begin() as conn:
            if not force:  # checked in the deleting transaction: no batch can slip in between
                self._refuse_running(conn, run_id)
            conn.execute(sa.delete(schema.samples).where(schema.samples.c.run == run_id))
            conn.execute(sa.delete(schema.run_tags).where(schema.run_tags.c.run == run_id))
            conn.execute(sa.delete(schema.runs).where(schema.runs.c.id == run_id))
        return run_id

    def check_deletable(self, run: str) -> None:
        """``RunStillRecording`` when ``delete(run)`` would refuse it (no ``force``)."""
        run_id = self.resolve(run)
        with self.engine.connect() as conn:
            self._refuse_running(conn, run_id)

    def _refuse_running(self, conn: sa.Connection, run_id: str) -> None:
        status = conn.execute(sa.select(schema.runs.c.status).where(schema.runs.c.id == run_id)).scalar_one_or_none()
        if status == "running":
            raise RunStillRecording(
                f"run {run_id} is still being recorded by an evaluation: wait for it to finish, or use --force "
                "(for a run left running by a process that was killed)"
            )

    def add_tags(self, run: str, tags: Sequence[str]) -> None:
        wanted = check_tags(tags)
        run_id = self.resolve(run)
        with self.engine.begin() as conn:
            # the row locked on PostgreSQL (FOR UPDATE; SQLite has no row locks and renders
            # nothing): two callers tagging one run at once would both insert one (run, tag)
            current: list[str] = conn.execute(
                sa.select(schema.runs.c.tags).where(schema.runs.c.id == run_id).with_for_update()).scalar_one()
            new = [t for t in wanted if t not in current]
            if new:
                conn.execute(schema.run_tags.insert(), [{"run": run_id, "tag": t} for t in new])
                conn.execute(sa.update(schema.runs).where(schema.runs.c.id == run_id).values(tags=[*current, *new]))
