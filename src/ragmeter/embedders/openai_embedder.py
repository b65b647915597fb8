"""Embeddings from any OpenAI-compatible ``/embeddings`` endpoint, through the official SDK.

OpenAI itself, Azure's OpenAI-compatible endpoint, vLLM, Ollama, llama.cpp server, LM Studio
and ragmeter's own ``OpenAIMockServer`` all answer the same request. The SDK's own retry
loop is off (``max_retries=0``): ``call_with_retries`` owns retries so every 429 reaches the
adaptive limiter and Retry-After is honoured once, not twice.

The API key is read from the environment when the client is built and lives only inside the
SDK client: it is not an attribute of the embedder, not part of its name or repr, never in an
error message (messages echoed by a server are scrubbed), and never in a cache key.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
import weakref
from typing import TYPE_CHECKING, Any, Awaitable, Sequence
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from ragmeter.calls.limiter import AdaptiveLimiter
from ragmeter.calls.retry import RetryPolicy, TransientCallError, call_with_retries, parse_retry_after
from ragmeter.calls.usage import Prices, Usage
from ragmeter.embedders._texts import check_texts, nonblank_indices
from ragmeter.embedders.protocol import normalise_rows
from ragmeter.errors import EmbedderError, EmbedderRejected, JudgeError

if TYPE_CHECKING:  # pragma: no cover
    from openai import AsyncOpenAI

# Sizes of OpenAI's embedding models, used only to shape the all-blank-input answer before
# the first real response has told us the size.
KNOWN_DIMS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}

_SECRETISH = re.compile(r"\b(sk-[A-Za-z0-9_\-\*\.]{4,})")

# Statuses the SDK itself would retry besides 429 and 5xx: request timeout and lock conflict.
_TRANSIENT_4XX = {408, 409}


def public_url(url: str) -> str:
    """``url`` without user:password, query or fragment (where credentials sometimes hide)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


class OpenAIEmbedder:
    """``embed`` through ``client.embeddings.create`` with ragmeter's retries and limiter.

    ``base_url=None`` is OpenAI itself and needs ``$OPENAI_API_KEY`` (or whichever variable
    ``api_key_env`` names); a local server without auth works with no key set. Texts go in
    requests of ``batch_size``, up to ``max_concurrency`` at once (lowered automatically on
    429). Blank texts get a zero row (the API rejects empty input).
    """

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        batch_size: int = 256,
        policy: RetryPolicy | None = None,
        max_concurrency: int = 8,
        prices: Prices | dict[str, tuple[float, float]] | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be >= 1")
        self.model = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.batch_size = batch_size
        self.policy = policy or RetryPolicy()
        self.max_concurrency = max_concurrency
        self.prices = prices if isinstance(prices, Prices) else Prices(prices)
        self.name = f"openai:{model}" if base_url is None else f"openai:{model}@{public_url(base_url)}"
        self.usage = Usage()
        self.dim: int | None = KNOWN_DIMS.get(model) if base_url is None else None
        # One SDK client and limiter per event loop: an httpx connection pool and an
        # asyncio.Condition belong to the loop that first used them.
        self._per_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[AsyncOpenAI, AdaptiveLimiter]]" = (
            weakref.WeakKeyDictionary()
        )
        self._per_loop_lock = threading.Lock()

    def __repr__(self) -> str:
        where = "" if self.base_url is None else f", base_url={public_url(self.base_url)!r}"
        return f"OpenAIEmbedder(model={self.model!r}{where}, api_key_env={self.api_key_env!r})"

    # -- client --

    def _client(self) -> tuple["AsyncOpenAI", AdaptiveLimiter]:
        loop = asyncio.get_running_loop()
        with self._per_loop_lock:
            found = self._per_loop.get(loop)
            if found is not None:
                return found
            import openai

            key = os.environ.get(self.api_key_env)
            if not key:
                if self.base_url is None:
                    raise EmbedderError(
                        f"{self.name} needs an API key: set the environment variable "
                        f"{self.api_key_env}, or use a local endpoint 'openai:MODEL@http://host:port/v1'"
                    )
                key = "not-needed"  # local servers without auth still want some string
            client = openai.AsyncOpenAI(
                api_key=key, base_url=self.base_url, max_retries=0, timeout=self.policy.timeout
            )
            found = (client, AdaptiveLimiter(maximum=self.max_concurrency))
            self._per_loop[loop] = found
            return found

    async def aclose(self) -> None:
        """Close the HTTP connections opened from the running event loop."""
        loop = asyncio.get_running_loop()
        with self._per_loop_lock:
            found = self._per_loop.pop(loop, None)
        if found is not None:
            await found[0].close()

    # -- embedding --

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = check_texts(texts)
        keep = nonblank_indices(texts)
        if not keep:
            return np.zeros((len(texts), self.dim or 0), dtype=np.float32)
        sent = [texts[i] for i in keep]
        chunks = [sent[i : i + self.batch_size] for i in range(0, len(sent), self.batch_size)]
        parts = await _gather_or_cancel([self._embed_chunk(chunk) for chunk in chunks])
        vectors = np.concatenate(parts, axis=0)
        if len(keep) == len(texts):
            return vectors
        out = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
        out[keep] = vectors
        return out

    async def _embed_chunk(self, chunk: list[str]) -> np.ndarray:
        import openai

        client, limiter = self._client()

        async def attempt() -> Any:
            try:
                return await client.embeddings.create(
                    model=self.model, input=chunk, encoding_format="float"
                )
            except openai.RateLimitError as exc:
                raise TransientCallError(
                    self._describe(exc),
                    rate_limited=True,
                    retry_after=parse_retry_after(exc.response.headers),
                ) from None
            except openai.APIStatusError as exc:
                if exc.status_code >= 500 or exc.status_code in _TRANSIENT_4XX:
                    raise TransientCallError(
                        self._describe(exc), retry_after=parse_retry_after(exc.response.headers)
                    ) from None
                raise EmbedderRejected(f"{self.name} rejected the request: {self._describe(exc)}") from None
            except openai.APIConnectionError as exc:  # includes APITimeoutError
                raise TransientCallError(self._describe(exc)) from None
            except openai.OpenAIError as exc:
                raise EmbedderError(f"{self.name}: {self._describe(exc)}") from None

        try:
            response = await call_with_retries(
                attempt, self.policy, limiter, on_retry=self._on_retry, what=f"embedding request to {self.name}"
            )
        except JudgeError as exc:  # JudgeUnavailable, RateLimited, JudgeTimeout: retries spent
            self.usage.failures += 1
            raise EmbedderError(self._scrub(f"{exc.kind}: {exc}")) from None
        except EmbedderError:
            self.usage.failures += 1
            raise

        self.usage.calls += 1
        data = sorted(response.data, key=lambda item: item.index)
        if len(data) != len(chunk):
            self.usage.failures += 1
            raise EmbedderError(f"{self.name} returned {len(data)} vectors for {len(chunk)} texts")
        vectors = normalise_rows(np.asarray([item.embedding for item in data], dtype=np.float32))
        self.dim = int(vectors.shape[1])
        tokens = getattr(response.usage, "prompt_tokens", None) or 0
        self.usage.prompt_tokens += tokens
        self.usage.add_cost(self.prices.cost(self.model, tokens, 0))
        return vectors

    def _on_retry(self, number: int, error: BaseException, delay: float) -> None:
        self.usage.retries += 1

    # -- messages --

    def _describe(self, exc: Exception) -> str:
        status = getattr(exc, "status_code", None)
        message = None
        body = getattr(exc, "body", None)
        if isinstance(body, dict):
            inner = body.get("error", body)
            message = inner.get("message") if isinstance(inner, dict) else inner
        if not message:
            message = getattr(exc, "message", None) or str(exc)
        head = f"HTTP {status}" if status is not None else type(exc).__name__
        return self._scrub(f"{head}: {message}")

    def _scrub(self, text: str) -> str:
        # The key is looked up again rather than kept on the embedder, where a debugger,
        # vars() or pickle would show it.
        secret = os.environ.get(self.api_key_env)
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
        return _SECRETISH.sub("sk-***", text)


async def _gather_or_cancel(coros: list[Awaitable[np.ndarray]]) -> list[np.ndarray]:
    """``gather``, but the first failure cancels the requests still running."""
    if len(coros) == 1:
        return [await coros[0]]
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
