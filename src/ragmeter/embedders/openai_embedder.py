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
import json
from typing import Any, Awaitable, Sequence

import numpy as np

from ragmeter.calls.breaker import new_breaker
from ragmeter.calls.limiter import AdaptiveLimiter
from ragmeter.calls.openai_client import OpenAIConnection, public_url
from ragmeter.calls.options import DEFAULT_CALLS
from ragmeter.calls.retry import RetryPolicy, TransientCallError, call_with_retries
from ragmeter.calls.usage import Prices, Usage
from ragmeter.embedders.texts import check_texts, nonblank_indices
from ragmeter.embedders.replies import checked_vectors
from ragmeter.errors import (
    EmbedderError,
    EmbedderRejected,
    EndpointUnreachable,
    InvalidOption,
    JudgeError,
)

# Sizes of OpenAI's embedding models, used only to shape the all-blank-input answer before
# the first real response has told us the size.
KNOWN_DIMS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}

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
            raise InvalidOption("batch_size must be >= 1")
        if max_concurrency < 1:
            raise InvalidOption("max_concurrency must be >= 1")
        self.model = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.batch_size = batch_size
        self.policy = policy or DEFAULT_CALLS.retry_policy()
        self.max_concurrency = max_concurrency
        self.prices = prices if isinstance(prices, Prices) else Prices(prices)
        self.name = f"openai:{model}" if base_url is None else f"openai:{model}@{public_url(base_url)}"
        self.usage = Usage()
        self.dim: int | None = KNOWN_DIMS.get(model) if base_url is None else None
        self._answered_dim: int | None = None  # the dimension of the endpoint's replies so far
        self.connection = OpenAIConnection(base_url, api_key_env, timeout=self.policy.timeout)
        self.limiter = AdaptiveLimiter(maximum=max_concurrency)
        self.breaker = new_breaker()  # an unreachable endpoint stops the run early

    def __repr__(self) -> str:
        where = "" if self.base_url is None else f", base_url={public_url(self.base_url)!r}"
        return f"OpenAIEmbedder(model={self.model!r}{where}, api_key_env={self.api_key_env!r})"

    async def aclose(self) -> None:
        """Close the HTTP connections opened from the running event loop."""
        await self.connection.aclose()

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

        if (problem := self.connection.missing_key()) is not None:
            raise EmbedderRejected(f"{self.name} needs an API key: {problem}")
        client = self.connection.client()

        async def attempt() -> Any:
            try:
                return await client.embeddings.create(model=self.model, input=chunk, encoding_format="float")
            except openai.OpenAIError as exc:
                self.connection.raise_mapped(exc, self.name, EmbedderRejected, EmbedderError)
            except json.JSONDecodeError as exc:  # a 200 whose body is not JSON: worth another try
                raise TransientCallError(f"{self.name}: the response body is not JSON ({exc})") from None

        try:
            response = await call_with_retries(
                attempt, self.policy, self.limiter, on_retry=self._on_retry, what=f"embedding request to {self.name}",
                breaker=self.breaker,
            )
        except EndpointUnreachable:  # stops the run as it is, not as one more EmbedderError
            self.usage.failures += 1
            raise
        except JudgeError as exc:  # JudgeUnavailable, RateLimited, JudgeTimeout: retries spent
            self.usage.failures += 1
            raise EmbedderError(self.connection.scrub(f"{exc.kind}: {exc}")) from None
        except EmbedderError:
            self.usage.failures += 1
            raise

        self.usage.calls += 1
        try:  # a reply that is not the vectors asked for is an error, never a score (see replies.py)
            vectors = checked_vectors(self.name, getattr(response, "data", None), len(chunk), self._answered_dim)
        except EmbedderError:
            self.usage.failures += 1
            raise
        self.dim = self._answered_dim = int(vectors.shape[1])
        tokens = getattr(response.usage, "prompt_tokens", None) or 0
        self.usage.prompt_tokens += tokens
        self.usage.add_cost(self.prices.cost(self.model, tokens, 0))
        return vectors

    def _on_retry(self, number: int, error: BaseException, delay: float) -> None:
        self.usage.retries += 1


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
