"""An append-only journal of finished scores, so that an interrupted run loses nothing.

One JSON line per (sample, metric) score, flushed as soon as it is known; the operating
system keeps what was written even when the process is killed. A rerun with the same
identity reads the journal back and computes only what is missing (transient failures
are tried again). A torn last line (killed mid-write) is ignored.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

from ragmeter.metrics.score import MetricScore

ScoreKey = tuple[int, str, str]  # (row, sample fingerprint, metric name)


class Journal:
    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = header
        self._file: TextIO | None = None

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

    def open(self, fresh: bool) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # another run's journal at this path is replaced, never mixed with ours
        start_new = fresh or not self.belongs_to_this_run()
        self._file = self.path.open("w" if start_new else "a", encoding="utf-8")
        if start_new:
            self._write({"type": "header", **self.header})
        else:
            # a killed writer may have left a torn line; start ours on a fresh one
            self._file.write("\n")

    def append(self, key: ScoreKey, score: MetricScore) -> None:
        row, fingerprint, metric = key
        self._write({"type": "score", "row": row, "fp": fingerprint, "metric": metric, "score": score.model_dump(mode="json")})

    def _write(self, record: dict[str, Any]) -> None:
        assert self._file is not None, "journal not open"
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
