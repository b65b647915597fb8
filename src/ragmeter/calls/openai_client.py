"""Building ``AsyncOpenAI`` clients and turning the SDK's exceptions into ragmeter's.

Shared by the chat judge and the embedder. The SDK's own retries are switched off
(``max_retries=0``): ragmeter's retry loop must see every 429 to steer its adaptive limit.
The API key is read from the environment and handed to the SDK only; it is never stored on
ragmeter objects, written to a cache or put in a message.
"""

from __future__ import annotations

import os
from typing import Any, NoReturn

from ragmeter.calls.retry import TransientCallError, parse_retry_after
from ragmeter.errors import JudgeRequestRejected, JudgeUnavailable

# A local server (Ollama, vLLM, llama.cpp) accepts any key, but the SDK insists on one.
PLACEHOLDER_KEY = "not-needed"


def make_client(
    base_url: str | None,
    api_key_env: str = "OPENAI_API_KEY",
    *,
    azure_api_version: str | None = None,
    timeout: float = 600.0,
) -> Any:
    """An ``AsyncOpenAI`` (or ``AsyncAzureOpenAI``) client with retries off.

    ``timeout`` is only the SDK's outer bound; ragmeter's per-attempt timeout is tighter.
    """
    import openai

    key = os.environ.get(api_key_env)
    if not key:
        if base_url is None or "api.openai.com" in base_url or azure_api_version is not None:
            raise JudgeUnavailable(
                f"{api_key_env} is not set: export it, or point the judge at a local server "
                "(openai:MODEL@http://127.0.0.1:8000/v1), or use judge 'local'"
            )
        key = PLACEHOLDER_KEY
    if azure_api_version is not None:
        return openai.AsyncAzureOpenAI(
            api_key=key,
            azure_endpoint=base_url,
            api_version=azure_api_version,
            max_retries=0,
            timeout=timeout,
        )
    return openai.AsyncOpenAI(api_key=key, base_url=base_url, max_retries=0, timeout=timeout)


def raise_mapped(exc: Exception, what: str) -> NoReturn:
    """Re-raise an SDK exception as a ``TransientCallError`` or a typed, final error."""
    import openai

    if isinstance(exc, openai.RateLimitError):
        raise TransientCallError(
            f"{what}: HTTP 429 rate limited",
            rate_limited=True,
            retry_after=parse_retry_after(exc.response.headers),
        ) from None
    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError)):
        raise TransientCallError(f"{what}: {type(exc).__name__}: {exc}") from None
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status >= 500 or status in (408, 409):
            raise TransientCallError(
                f"{what}: HTTP {status}", retry_after=parse_retry_after(exc.response.headers)
            ) from None
        if status in (401, 403):
            raise JudgeUnavailable(f"{what}: HTTP {status}: the endpoint refused the credentials") from None
        raise JudgeRequestRejected(f"{what}: HTTP {status}: {_message(exc)}") from None
    raise exc


def _message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])[:500]
    return str(getattr(exc, "message", exc))[:500]
