"""The store's tables (SQLAlchemy Core, so SQLite and PostgreSQL run the same statements).

``runs`` holds one row per recorded run with what lists and trends need (time, git, test
set fingerprint, judge, tags, per-metric summary with its interval, cost) and what an export
needs to give the result file back (run info, usage, input errors). ``samples`` holds one row
per scored sample: its ``SampleResult`` as JSON, in the order the run finished them (``seq``),
so an export writes the file ``--out`` wrote. ``run_tags`` makes the tag filter an index look-up.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("run_id", sa.String(32), nullable=False),  # the run's identity (same inputs, same id)
    sa.Column("status", sa.String(16), nullable=False),  # running | finished | failed
    sa.Column("started", sa.Float, nullable=False, index=True),
    sa.Column("finished", sa.Float),
    sa.Column("dataset", sa.String(64), index=True),  # fingerprint of the test set (questions, references)
    sa.Column("source", sa.Text),
    sa.Column("git_commit", sa.String(64)),
    sa.Column("git_branch", sa.String(255), index=True),
    sa.Column("judge", sa.Text),
    sa.Column("embedder", sa.Text),
    sa.Column("prompts", sa.String(64)),
    sa.Column("metrics", sa.JSON, nullable=False),
    sa.Column("tags", sa.JSON, nullable=False),
    sa.Column("samples", sa.Integer, nullable=False, default=0),
    sa.Column("summary", sa.JSON),
    sa.Column("summary_score", sa.Float),
    sa.Column("cost", sa.Float),
    sa.Column("usage", sa.JSON),
    sa.Column("info", sa.JSON),
    sa.Column("input_errors", sa.JSON),
)

run_tags = sa.Table(
    "run_tags",
    metadata,
    sa.Column("run", sa.String(32), sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("tag", sa.String(255), primary_key=True, index=True),
)

samples = sa.Table(
    "samples",
    metadata,
    sa.Column("run", sa.String(32), sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("row", sa.Integer, nullable=False),
    sa.Column("data", sa.Text, nullable=False),  # SampleResult JSON
)
