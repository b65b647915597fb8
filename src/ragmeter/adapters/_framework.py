"""What the LangChain and LlamaIndex adapters share: error mapping, fingerprints, the judge
factory and the embedder base.

Both frameworks wrap many provider SDKs (OpenAI, Anthropic, Google, Ollama, Bedrock...),
each with its own exception classes. ragmeter's retry loop needs only to know whether
another attempt may help, so failures are sorted by what every SDK exposes in some form:
an HTTP status (``status_code``, ``status``, ``code`` or ``response.status_code``), the
``Retry-After`` headers, and class names that say rate limit, timeout or connection. Nothing
here imports either framework.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, replace
from typing import Any, Mapping, Sequence

import numpy as np

from ragmeter.calls.cache import CacheSetting, DiskCache, open_cache
from ragmeter.calls.limiter import AdaptiveLimiter
from ragmeter.calls.options import DEFAULT_CALLS, LLMCallOptions, options_of
from ragmeter.calls.retry import TransientCallError, call_with_retries, parse_retry_after
from ragmeter.calls.usage import Usage
from ragmeter.embedders.texts import check_texts, nonblank_indices
from ragmeter.embedders.protocol import normalise_rows
from ragmeter.errors import (
    InvalidOption,
    EmbedderError,
    EmbedderRejected,
    JudgeError,
    JudgeRequestRejected,
    JudgeUnavailable,
)
from ragmeter.extras import MissingExtra
from ragmeter.judges.llm_judge import LLMJudge
from ragmeter.judges.protocol import ChatBackend, StructuredOutputUnsupported

# 408 request timeout, 409 conflict, 425 too early: the server says "try again".
_TRANSIENT_4XX = (408, 409, 425)
_LENGTH_REASONS = {"length", "max_tokens", "max_output_tokens", "model_length"}


def missing_extra(extra: str, package: str, error: ImportError) -> ImportError:
    """The error to raise when an optional framework is not installed: names the extra."""
    return MissingExtra(extra, package)


def status_of(exc: BaseException) -> int | None:
    """The HTTP status an SDK exception carries, wherever that SDK keeps it."""
    for attr in ("status_code", "status", "http_status", "code"):
        value = getattr(exc, attr, None)
        if isinstance(value, int) and not isinstance(value, bool) and 100 <= value < 600:
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None) or getattr(response, "status", None)
    if isinstance(value, int) and not isinstance(value, bool) and 100 <= value < 600:
        return value
    return None


def _class_names(exc: BaseException) -> str:
    return " ".join(cls.__name__.lower() for cls in type(exc).__mro__)


def map_call_error(
    exc: BaseException,
    what: str,
    *,
    rejected: type[Exception] = JudgeRequestRejected,
    unavailable: type[Exception] = JudgeUnavailable,
    structured: bool = False,
) -> Exception:
    """The exception to raise in place of ``exc``, a framework or provider SDK error.

    ``TransientCallError`` (retried by ``call_with_retries``) for rate limits, timeouts,
    dropped connections and 5xx; ``unavailable`` for refused credentials; ``rejected`` for
    any other refusal and for errors with no status at all (a bug or a bad argument does
    not get better when retried). With ``structured``, a refusal that names the response
    format becomes ``StructuredOutputUnsupported`` so that the judge steps down a mode.
    """
    text = f"{what}: {type(exc).__name__}: {exc}" if str(exc) else f"{what}: {type(exc).__name__}"
    status = status_of(exc)
    names = _class_names(exc)
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if status == 429 or "ratelimit" in names or "resourceexhausted" in names:
        return TransientCallError(text, rate_limited=True, retry_after=parse_retry_after(headers))
    if status is not None and (status >= 500 or status in _TRANSIENT_4XX):
        return TransientCallError(text, retry_after=parse_retry_after(headers))
    if status is None and (
        isinstance(exc, (TimeoutError, ConnectionError)) or "timeout" in names or "connection" in names
    ):
        return TransientCallError(text)
    lowered = str(exc).lower()
    if structured and (
        isinstance(exc, TypeError)
        or any(w in lowered for w in ("response_format", "json_schema", "json_object", "structured"))
    ):
        return StructuredOutputUnsupported(text)
    if status in (401, 403):
        return unavailable(f"{text} (the endpoint refused the credentials)")
    return rejected(text)


def fingerprint(value: Any) -> str:
    """A short, stable hash of a model's parameters, for cache keys.

    Objects that are not JSON (clients, callbacks) count by their type name only, so the
    hash is the same in every process; secrets are never shown, only hashed."""
    text = json.dumps(value, sort_keys=True, default=lambda o: f"<{type(o).__name__}>")
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def finish_reason(value: Any) -> str:
    """A provider's stop reason in OpenAI's words; what matters to the judge is "length"."""
    if not isinstance(value, str) or not value:
        return "stop"
    return "length" if value.lower() in _LENGTH_REASONS else value.lower()


def token_counts(*sources: Any) -> tuple[int, int]:
    """(prompt, completion) tokens from the first source that reports them.

    Sources are mappings or objects with ``input_tokens``/``output_tokens`` (LangChain's
    ``usage_metadata``, Anthropic) or ``prompt_tokens``/``completion_tokens`` (OpenAI)."""
    for source in sources:
        if source is None:
            continue
        for prompt_key, completion_key in (("input_tokens", "output_tokens"),
                                           ("prompt_tokens", "completion_tokens"),
                                           ("prompt_token_count", "candidates_token_count")):
            prompt = _field(source, prompt_key)
            completion = _field(source, completion_key)
            if isinstance(prompt, int) or isinstance(completion, int):
                return int(prompt or 0), int(completion or 0)
    return 0, 0


def _field(source: Any, key: str) -> Any:
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


ADAPTER_CALLS = replace(DEFAULT_CALLS, structured="prompt")
"""The call settings of a framework model as judge: the JSON schema goes in the prompt,
which every model follows (a framework may not forward ``response_format``)."""


def build_judge(backend: ChatBackend, *, name: str, cache: CacheSetting, options: LLMCallOptions | None,
                settings: Mapping[str, Any]) -> LLMJudge:
    """An ``LLMJudge`` around a framework backend, with ``get_judge``'s cache convention
    (``True`` the default disk cache, a ``DiskCache`` that one, ``False``/``None`` none) and
    the call settings ``options`` (an ``LLMCallOptions``; default ``ADAPTER_CALLS``) with
    ``settings`` (single fields of it, ``timeout=30``) on top."""
    base = options if options is not None else ADAPTER_CALLS
    calls = options_of(LLMCallOptions, {**asdict(base), **settings}, "judge options") if settings else base
    return LLMJudge.with_options(backend, calls, name=name, cache=open_cache(cache))


def call_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """The judge's sampling parameters to pass on to a model call (unset ones dropped)."""
    return {key: value for key, value in params.items() if value is not None}


class FrameworkEmbedder:
    """Base of the embedders that wrap a framework's embedding model.

    Subclasses implement ``_embed_texts`` (one framework call for a list of non-blank texts).
    This class gives them what every ragmeter embedder promises: blank texts get zero rows
    without a call, rows come back L2-normalised, failures are retried with backoff and end
    as a typed ``EmbedderError``, and calls are counted in ``usage``. The framework does
    its own batching (``chunk_size``, ``embed_batch_size``), so all texts go in one call.
    """

    def __init__(self, name: str, *, calls: LLMCallOptions | None = None, max_concurrency: int = 8) -> None:
        if max_concurrency < 1:
            raise InvalidOption("max_concurrency must be >= 1")
        self.name = name
        self.usage = Usage()
        self.policy = (calls or DEFAULT_CALLS).retry_policy()
        self.limiter = AdaptiveLimiter(maximum=max_concurrency)
        self.dim: int | None = None

    async def _embed_texts(self, texts: list[str]) -> Sequence[Sequence[float]]:
        raise NotImplementedError

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = check_texts(texts)
        keep = nonblank_indices(texts)
        if not keep:
            return np.zeros((len(texts), self.dim or 0), dtype=np.float32)
        sent = [texts[i] for i in keep]

        async def attempt() -> Sequence[Sequence[float]]:
            try:
                return await self._embed_texts(sent)
            except EmbedderError:
                raise
            except Exception as exc:  # noqa: BLE001 (sorted into retry / typed error)
                raise map_call_error(exc, self.name, rejected=EmbedderRejected,
                                     unavailable=EmbedderError) from None

        try:
            rows = await call_with_retries(attempt, self.policy, self.limiter, on_retry=self._on_retry,
                                           what=f"embedding request to {self.name}")
        except JudgeError as exc:  # retries spent: JudgeUnavailable, RateLimited, JudgeTimeout
            self.usage.failures += 1
            raise EmbedderError(f"{exc.kind}: {exc}") from None
        except EmbedderError:
            self.usage.failures += 1
            raise
        self.usage.calls += 1
        vectors = np.asarray(rows, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(sent):
            self.usage.failures += 1
            raise EmbedderError(f"{self.name} returned {len(rows)} vectors for {len(sent)} texts")
        vectors = normalise_rows(vectors)
        self.dim = int(vectors.shape[1])
        if len(keep) == len(texts):
            return vectors
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        out[keep] = vectors
        return out

    def _on_retry(self, number: int, error: BaseException, delay: float) -> None:
        self.usage.retries += 1

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"
