"""Content-addressed disk cache in sqlite.

Why sqlite: one file, safe under concurrent writers from several processes (WAL), and every
write is committed at once, so a run killed with SIGKILL keeps every answer it had received.
The key is a hash of everything that determines an answer (backend, model, parameters,
messages, schema) and never of credentials: API keys are not part of an answer's identity,
and nothing secret is ever written here.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Union

from ragmeter.errors import InvalidOptionType


def default_cache_dir() -> Path:
    """``$RAGMETER_CACHE_DIR``, else ``$XDG_CACHE_HOME/ragmeter``, else ``~/.cache/ragmeter``."""
    if env := os.environ.get("RAGMETER_CACHE_DIR"):
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ragmeter"


def cache_key(payload: Any) -> str:
    """SHA-256 of the canonical JSON of ``payload`` (sorted keys, no whitespace)."""
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class DiskCache:
    """A key -> bytes store in one sqlite file, split into namespaces ("chat", "embed", ...)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_dir() / "cache.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS entries ("
            " namespace TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL, created REAL NOT NULL,"
            " PRIMARY KEY (namespace, key))"
        )

    def get(self, namespace: str, key: str) -> bytes | None:
        with self._lock:
            row = self._db.execute(
                "SELECT value FROM entries WHERE namespace = ? AND key = ?", (namespace, key)
            ).fetchone()
        return None if row is None else bytes(row[0])

    def get_many(self, namespace: str, keys: list[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        # sqlite caps bound parameters; 500 a query stays well inside every build's limit.
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            with self._lock:
                rows = self._db.execute(
                    f"SELECT key, value FROM entries WHERE namespace = ? AND key IN ({marks})",
                    (namespace, *chunk),
                ).fetchall()
            found.update((k, bytes(v)) for k, v in rows)
        return found

    def put(self, namespace: str, key: str, value: bytes) -> None:
        self.put_many(namespace, {key: value})

    def put_many(self, namespace: str, items: dict[str, bytes]) -> None:
        now = time.time()
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO entries (namespace, key, value, created) VALUES (?, ?, ?, ?)",
                [(namespace, k, v, now) for k, v in items.items()],
            )

    def __bool__(self) -> bool:
        return True  # an empty cache is still a cache (``cache or None`` must keep it)

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    def clear(self, namespace: str | None = None) -> None:
        with self._lock:
            if namespace is None:
                self._db.execute("DELETE FROM entries")
            else:
                self._db.execute("DELETE FROM entries WHERE namespace = ?", (namespace,))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"DiskCache({str(self.path)!r})"


CacheSetting = Union[DiskCache, str, "os.PathLike[str]", bool, None]
"""What a ``cache=`` argument may be: True (the default location), a ``DiskCache``, a path to
a sqlite file, or False/None (no cache)."""


def open_cache(cache: CacheSetting) -> DiskCache | None:
    """The one reading of a ``cache=`` argument, so every entry point means the same by it."""
    if cache is True:
        return DiskCache()
    if cache is False or cache is None:
        return None
    if isinstance(cache, DiskCache):
        return cache
    if isinstance(cache, (str, os.PathLike)):
        return DiskCache(cache)
    raise InvalidOptionType(f"cache must be True, False, None, a path or a DiskCache; got {cache!r}")
