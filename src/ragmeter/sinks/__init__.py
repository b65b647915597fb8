"""The files a run writes as it goes, opened for the engine by its caller (``ragmeter.api``).

* ``journal_for(journal, resume)``: the journal of finished scores, one per run identity
  in the cache dir by default (``journal=True``), at a path, or none (``False``/``None``);
* ``result_file_for(out)``: the result file samples stream into (``.json`` / ``.parquet``).

The engine gets what these return and only writes to it (``ragmeter.engine.sinks`` declares
what it calls), so where a run's files live is decided here, beside the run store's
recorder (``ragmeter.runs.recorder_for``), and nowhere in the engine.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable

from ragmeter.calls.cache import default_cache_dir
from ragmeter.result.writers import ResultWriter, open_writer, result_format
from ragmeter.sinks.journal import Journal
from ragmeter.version import __version__


def journal_for(journal: str | Path | bool | None, resume: bool = True) -> Callable[[str], Journal] | None:
    """Opens the run's journal once its id is known: ``True`` ``<cache dir>/runs/<run id>.jsonl``,
    a path that file, ``False`` or ``None`` no journal. ``resume=False`` starts it afresh."""
    if journal is False or journal is None:
        return None

    def open_journal(run_id: str) -> Journal:
        path = default_cache_dir() / "runs" / f"{run_id}.jsonl" if journal is True else Path(journal)
        return Journal(path, {"run_id": run_id, "ragmeter_version": __version__}, resume=resume)

    return open_journal


def result_file_for(out: str | Path | None) -> Callable[[list[str]], ResultWriter] | None:
    """Opens the result file at ``out`` for the run's metrics; a bad extension fails here,
    before any work (``BadFile``)."""
    if out is None:
        return None
    result_format(out)
    return functools.partial(open_writer, out)


__all__ = ["Journal", "journal_for", "result_file_for"]
