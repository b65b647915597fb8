"""An append-only journal of finished scores, so that an interrupted run loses nothing.

One JSON line per (sample, metric) score, flushed as soon as it is known; the operating
system keeps what was written even when the process is killed. A rerun with the same
identity reads the journal back and computes only what is missing (transient failures
are tried again). A torn last line (killed mid-write) is ignored.

Two runs of one identity may write one journal at once (the same command started twice).
So the file is opened with ``O_APPEND`` and each line goes out in one ``write`` call: the
kernel puts every line whole at the end of the file, whoever wrote last. A new journal
appears with its header already in it (written beside it, then linked into place), so a
second run never sees a headerless file and replaces it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ragmeter.metrics.score import MetricScore

ScoreKey = tuple[int, str, str]  # (row, sample fingerprint, metric name), as the engine keys scores


class Journal:
    """A journal file; ``resume=False`` starts it afresh (what was there is replaced)."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any], resume: bool = True) -> None:
        self.path = Path(path)
        self.location = str(self.path)
        self.header = header
        self.resume = resume
        self._fd: int | None = None

    def belongs_to_this_run(self) -> bool:
        """Whether the file on disk was written by a run with this identity."""
        try:
            with self.path.open(encoding="utf-8") as handle:
                first = json.loads(handle.readline())
        except (OSError, json.JSONDecodeError):
            return False
        return first.get("type") == "header" and first.get("run_id") == self.header.get("run_id")

    def read(self) -> dict[ScoreKey, MetricScore]:
        """Scores already finished by an earlier run with the same identity."""
        if not self.belongs_to_this_run():
            return {}
        done: dict[ScoreKey, MetricScore] = {}
        with self.path.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if record.get("type") != "score":
                    continue
                try:
                    score = MetricScore.model_validate(record["score"])
                except (KeyError, ValueError):
                    continue
                done[(record["row"], record["fp"], record["metric"])] = score
        return done

    def finished(self) -> dict[ScoreKey, MetricScore]:
        """What a resumed run reuses: the scores on disk, or none when starting afresh."""
        return self.read() if self.resume else {}

    def open(self, fresh: bool | None = None) -> None:
        """Open for appending; ``fresh`` (default: not ``resume``) replaces what is there."""
        fresh = not self.resume if fresh is None else fresh
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # another run's journal at this path is replaced, never mixed with ours
        if fresh or not self.belongs_to_this_run():
            self._install_header(replace=fresh or self.path.exists())
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        if not self._ends_with_newline():  # a killed writer left a torn line; start ours on a fresh one
            os.write(self._fd, b"\n")

    def _ends_with_newline(self) -> bool:
        with self.path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            if handle.tell() == 0:
                return True
            handle.seek(-1, os.SEEK_END)
            return handle.read(1) == b"\n"

    def _install_header(self, replace: bool) -> None:
        """Put a journal holding only the header at ``path``: replacing what is there, or,
        when nothing is, creating it unless an identical run got there first."""
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"type": "header", **self.header}, ensure_ascii=False) + "\n", encoding="utf-8")
        try:
            if replace:
                os.replace(tmp, self.path)
                return
            try:
                os.link(tmp, self.path)  # atomic, and fails if the file appeared meanwhile
            except FileExistsError:
                if not self.belongs_to_this_run():
                    os.replace(tmp, self.path)
        finally:
            tmp.unlink(missing_ok=True)

    def append(self, key: ScoreKey, score: MetricScore) -> None:
        row, fingerprint, metric = key
        self._write({"type": "score", "row": row, "fp": fingerprint, "metric": metric, "score": score.model_dump(mode="json")})

    def _write(self, record: dict[str, Any]) -> None:
        assert self._fd is not None, "journal not open"
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        written = os.write(self._fd, line)  # one call: the line lands whole (O_APPEND)
        while written < len(line):  # a short write (a full disk, a signal): finish the line
            written += os.write(self._fd, line[written:])

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
