"""One connection to an OpenAI-compatible endpoint, shared by the chat judge and the embedder.

* The SDK's own retries are off (``max_retries=0``): ragmeter's retry loop must see every
  429 to steer its adaptive limit, and Retry-After must be waited once, not twice.
* One SDK client per event loop: an HTTP connection pool belongs to the loop that opened
  it, and a judge object may serve several ``evaluate()`` calls, each with its own loop.
* The API key is read from the environment and handed to the SDK only. It is not kept on
  ragmeter objects, and any echo of it in a server's error message is masked before the
  message can reach a result file or a log.
"""

from __future__ import annotations

from ragmeter.errors import JudgeUnavailable

import asyncio
import os
import re
import threading
import weakref
from typing import Any, NoReturn
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from ragmeter.calls.redact import mask_http_logs, mask_secrets
from ragmeter.calls.retry import TransientCallError, parse_retry_after

# A local server (Ollama, vLLM, llama.cpp) accepts any key, but the SDK insists on one.
PLACEHOLDER_KEY = "not-needed"
_SECRETISH = re.compile(r"\b(sk-[A-Za-z0-9_\-\*\.]{4,})")
# Statuses the SDK itself would retry besides 429 and 5xx: request timeout, lock conflict.
_TRANSIENT_4XX = {408, 409}


def split_query(url: str | None) -> tuple[str | None, dict[str, str] | None]:
    """``url`` without its query string, and the query as a dict. The SDK appends each
    endpoint's path to the base URL, so a query left in it (``/v1?api-key=K``) would end up
    before the path (``/v1?api-key=K/chat/completions``); it goes as ``default_query``
    instead, sent with every request."""
    if url is None:
        return None, None
    parts = urlsplit(url)
    if not parts.query:
        return url, None
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", parts.fragment)), dict(parse_qsl(parts.query))


def public_url(url: str) -> str:
    """``url`` without user:password, query or fragment (where credentials sometimes hide)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


class OpenAIConnection:
    """Where to send requests and how to authenticate, without holding the key itself."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        *,
        azure_api_version: str | None = None,
        timeout: float | None = None,
    ) -> None:
        # Imported now, when the judge or embedder is built, not on the first request: the
        # import takes 0.5-3 s (hundreds of pydantic types); inside the first call's timeout it
        # made that call time out, and it is set-up that belongs before a run, not in it.
        import openai  # noqa: F401

        self.base_url = base_url
        self.api_key_env = api_key_env
        self.azure_api_version = azure_api_version
        # the SDK's own bound; None leaves it to ragmeter's per-attempt timeout
        # (``call_with_retries``), the one setting users see as --timeout
        self.timeout = timeout
        self._clients: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any]" = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    @property
    def needs_key(self) -> bool:
        return self.base_url is None or "api.openai.com" in self.base_url or self.azure_api_version is not None

    def missing_key(self) -> str | None:
        """Why no request can be sent (the key is required and unset), or None."""
        if os.environ.get(self.api_key_env) or not self.needs_key:
            return None
        return (
            f"{self.api_key_env} is not set: export it, or point at a local server "
            "(openai:MODEL@http://127.0.0.1:8000/v1)"
        )

    def client(self) -> Any:
        """The SDK client for the running event loop (made on first use in that loop)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            found = self._clients.get(loop)
            if found is None:
                found = self._make()
                self._clients[loop] = found
            return found

    def _make(self) -> Any:
        import openai

        mask_http_logs()  # the HTTP stack logs each request's URL, credentials included
        key = os.environ.get(self.api_key_env) or PLACEHOLDER_KEY
        base_url, query = split_query(self.base_url)
        if self.azure_api_version is not None:
            if base_url is None:
                raise JudgeUnavailable("an Azure OpenAI judge needs its endpoint: azure:DEPLOYMENT@https://NAME.openai.azure.com")
            return openai.AsyncAzureOpenAI(
                api_key=key,
                azure_endpoint=base_url,
                api_version=self.azure_api_version,
                max_retries=0,
                timeout=self.timeout,
                default_query=query,
            )
        return openai.AsyncOpenAI(
            api_key=key, base_url=base_url, max_retries=0, timeout=self.timeout, default_query=query
        )

    async def aclose(self) -> None:
        """Close the connections opened from the running event loop."""
        with self._lock:
            found = self._clients.pop(asyncio.get_running_loop(), None)
        if found is not None:
            await found.close()

    # --- messages and errors ----------------------------------------------------------------

    def scrub(self, text: str) -> str:
        """Mask the key (looked up again, never stored), anything shaped like one, and the
        credentials of any URL in ``text``."""
        secret = os.environ.get(self.api_key_env)
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
        return mask_secrets(_SECRETISH.sub("sk-***", text))

    def describe(self, exc: Exception) -> str:
        status = getattr(exc, "status_code", None)
        message = None
        body = getattr(exc, "body", None)
        if isinstance(body, dict):
            inner = body.get("error", body)
            message = inner.get("message") if isinstance(inner, dict) else inner
        if not message:
            message = getattr(exc, "message", None) or str(exc)
        head = f"HTTP {status}" if status is not None else type(exc).__name__
        return self.scrub(f"{head}: {str(message)[:500]}")

    def raise_mapped(
        self,
        exc: Exception,
        what: str,
        rejected: type[Exception],
        unavailable: type[Exception],
    ) -> NoReturn:
        """Re-raise an SDK exception: ``TransientCallError`` for what a retry may fix,
        ``unavailable`` for refused credentials, ``rejected`` for any other refusal."""
        import openai

        text = f"{what}: {self.describe(exc)}"
        if isinstance(exc, openai.RateLimitError):
            raise TransientCallError(
                text, rate_limited=True, retry_after=parse_retry_after(exc.response.headers)
            ) from None
        if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
            raise TransientCallError(text, connection=not isinstance(exc, openai.APITimeoutError)) from None
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            if status >= 500 or status in _TRANSIENT_4XX:
                raise TransientCallError(text, retry_after=parse_retry_after(exc.response.headers)) from None
            if status in (401, 403):
                raise unavailable(f"{text} (the endpoint refused the credentials)") from None
            raise rejected(text) from None
        raise unavailable(text) from None
