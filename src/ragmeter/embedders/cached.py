"""A per-text, content-addressed disk cache in front of any embedder.

A text's vector depends only on the embedder (its ``name``: backend, model, endpoint) and the
text, so each text is cached on its own: a rerun, or a second dataset sharing questions and
contexts, embeds only the texts it has not seen. Only misses reach the inner embedder, in
one call. Repeated texts within a call, and texts another coroutine is embedding right now,
are embedded once.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Sequence

import numpy as np

from ragmeter.calls.cache import DiskCache, cache_key
from ragmeter.calls.usage import Usage
from ragmeter.embedders.texts import check_texts
from ragmeter.embedders.protocol import Embedder
from ragmeter.errors import EmbedderError, EmbedderRejected

NAMESPACE = "embed"


class CachedEmbedder:
    """Wraps ``inner``; ``name`` and ``usage`` are the inner embedder's (hits counted there)."""

    namespace = NAMESPACE

    def __init__(self, inner: Embedder, cache: DiskCache) -> None:
        self.inner = inner
        self.cache = cache
        # Per event loop: key -> the task embedding that text now (tasks belong to one loop).
        self._inflight: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Task]]" = (
            weakref.WeakKeyDictionary()
        )
        self._inflight_lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def usage(self) -> Usage:
        return self.inner.usage

    async def aclose(self) -> None:
        close = getattr(self.inner, "aclose", None)
        if close is not None:
            await close()

    def __repr__(self) -> str:
        return f"CachedEmbedder({self.inner!r}, {self.cache!r})"

    def key(self, text: str) -> str:
        """The cache key of ``text``'s vector: depends on the embedder's name and the text only."""
        return cache_key({"embedder": self.inner.name, "text": text})

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = check_texts(texts)
        blank = [not text.strip() for text in texts]
        if all(blank):  # nothing worth caching; the inner embedder answers without a call
            return await self.inner.embed(texts)

        keys = [None if b else self.key(t) for t, b in zip(texts, blank)]
        unique: dict[str, str] = {}
        for key, text in zip(keys, texts):
            if key is not None:
                unique.setdefault(key, text)

        loop = asyncio.get_running_loop()
        inflight = self._inflight_for(loop)
        waiting: dict[str, asyncio.Task] = {k: inflight[k] for k in unique if k in inflight}
        lookup = [k for k in unique if k not in waiting]
        found: dict[str, np.ndarray] = {}
        stored_keys: set[str] = set()
        if lookup:
            stored = self.cache.get_many(NAMESPACE, lookup)
            stored_keys.update(stored)
            for key, blob in stored.items():
                found[key] = np.frombuffer(blob, dtype="<f4").astype(np.float32)
            self.usage.cache_hits += len(stored)
            missing = [k for k in lookup if k not in stored]
            if missing:
                task = loop.create_task(self._compute(missing, [unique[k] for k in missing]))
                for key in missing:
                    inflight[key] = task
                task.add_done_callback(_forget(inflight, missing))
                waiting.update(dict.fromkeys(missing, task))

        if waiting:
            tasks = list({id(t): t for t in waiting.values()}.values())
            # shield: a caller that gives up does not cancel a computation others wait on.
            await asyncio.gather(*(asyncio.shield(t) for t in tasks))
            for task in tasks:
                result = task.result()
                found.update((k, result[k]) for k in waiting if k in result)

        dims = {key: found[key].shape[0] for key in unique}
        if len(set(dims.values())) > 1:
            raise self._mixed(dims, stored_keys)
        dim = next(iter(dims.values()))
        out = np.zeros((len(texts), dim), dtype=np.float32)
        for i, key in enumerate(keys):
            if key is not None:
                out[i] = found[key]
        return out

    async def _compute(self, keys: list[str], texts: list[str]) -> dict[str, np.ndarray]:
        vectors = np.asarray(await self.inner.embed(texts), dtype=np.float32)
        if vectors.shape[0] != len(texts):
            raise EmbedderError(f"{self.name} returned {vectors.shape[0]} rows for {len(texts)} texts")
        self.cache.put_many(
            NAMESPACE, {key: row.astype("<f4").tobytes() for key, row in zip(keys, vectors)}
        )
        return dict(zip(keys, vectors))

    def _mixed(self, dims: dict[str, int], stored: set[str]) -> EmbedderRejected:
        """Why vectors of two dimensions cannot make one answer: the cache was filled by
        another model under this embedder's name (an endpoint whose model was swapped).
        Mixed in, they failed as a numpy broadcast error; compared, they would mean nothing."""
        cached = sorted({d for k, d in dims.items() if k in stored})
        fresh = sorted({d for k, d in dims.items() if k not in stored})
        if cached and fresh:
            return EmbedderRejected(
                f"{self.name}: the cache holds vectors of dimension {', '.join(map(str, cached))} for some of these "
                f"texts, and the embedder now returns {', '.join(map(str, fresh))}: the model behind this name "
                f"changed. Use another cache (--cache-dir, or cache= in Python) or --no-cache")
        return EmbedderRejected(f"{self.name} gave vectors of different dimensions "
                                f"({', '.join(map(str, sorted(set(dims.values()))))}) for one request")

    def _inflight_for(self, loop: asyncio.AbstractEventLoop) -> dict[str, asyncio.Task]:
        with self._inflight_lock:
            table = self._inflight.get(loop)
            if table is None:
                table = self._inflight[loop] = {}
            return table


def _forget(inflight: dict[str, asyncio.Task], keys: list[str]):
    def done(task: asyncio.Task) -> None:
        for key in keys:
            if inflight.get(key) is task:
                del inflight[key]
        if not task.cancelled():
            task.exception()  # retrieved: no "exception was never retrieved" if all callers left

    return done
