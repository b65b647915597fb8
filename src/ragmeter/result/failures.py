"""The failed scores a run lists, and the first of them kept while a run streams.

Why keep any: a streamed run (``out=``) does not keep its samples, so that memory stays flat
however many there are; its failures were then only counted, and ``ragmeter evaluate -o``
said "N score(s) failed" where a run without ``-o`` listed each (row, metric, kind,
message). ``FirstFailures`` keeps the ``FAILURES_KEPT`` failures first in row order (samples
finish in any order), a fixed number whatever the input's size: what the CLI shows before
"... and N more".
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from pydantic import BaseModel

FAILURES_KEPT = 20
"""How many failures a streamed run keeps: as many as the CLI lists."""


class ErrorRow(BaseModel):
    """One line of ``EvaluationResult.errors()``: where, what, why."""

    row: int
    id: str | None = None
    metric: str | None = None
    kind: str
    message: str

    def __str__(self) -> str:
        where = f"row {self.row}" + (f" ({self.id})" if self.id else "")
        what = f" {self.metric}" if self.metric else ""
        return f"{where}{what}: {self.kind}: {self.message}"

    def order(self) -> tuple[int, str]:
        """Where this line goes in a list: by row, then metric (a row's input error first)."""
        return self.row, self.metric or ""


class FirstFailures:
    """The first ``limit`` failed scores in row order, of the samples given to ``add``."""

    def __init__(self, limit: int = FAILURES_KEPT) -> None:
        self.limit = limit
        self.rows: list[ErrorRow] = []

    def add(self, sample: Any) -> None:  # a SampleResult (not imported: the result package imports this)
        for name, score in sample.scores.items():
            if score.error is None:
                continue
            if len(self.rows) == self.limit and (sample.row, name) >= self.rows[-1].order():
                continue
            failure = ErrorRow(row=sample.row, id=sample.id, metric=name, kind=score.error.kind,
                               message=score.error.message)
            insort(self.rows, failure, key=ErrorRow.order)
            del self.rows[self.limit:]
