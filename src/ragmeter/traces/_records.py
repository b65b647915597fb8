"""Sample records appended to a JSON Lines file as an app answers, one line per question."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any


class RecordFile:
    """Appends one JSON line per record and flushes it, under a lock (an app answers
    questions from many threads); the file can be read, ingested or evaluated at any time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.written = 0

    def write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            self.written += 1
