"""Chat completions from any OpenAI-compatible endpoint through the official SDK.

OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp server, LM Studio, LiteLLM... all speak
``POST /chat/completions``. This backend sends exactly one request per ``complete`` call;
caching, retries, limits and parsing live in ``LLMJudge``, the same for every backend.
"""

from __future__ import annotations

import json
from typing import Any

from ragmeter.calls.openai_client import OpenAIConnection, public_url
from ragmeter.calls.retry import TransientCallError
from ragmeter.errors import JudgeRequestRejected, JudgeUnavailable
from ragmeter.judges.protocol import ChatCompletion, ChatRequest, LogprobsUnsupported, StructuredOutputUnsupported


class OpenAIChatBackend:
    """One model behind one OpenAI-compatible base URL.

    ``identity`` names the endpoint and model for the cache key; it holds no secret.
    A required key that is unset fails here, before any sample is evaluated.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        azure_api_version: str | None = None,
    ) -> None:
        self.model = model
        self.connection = OpenAIConnection(base_url, api_key_env, azure_api_version=azure_api_version)
        if (problem := self.connection.missing_key()) is not None:
            raise JudgeUnavailable(f"{problem}, or use judge 'local'")
        kind = "azure" if azure_api_version else "openai"
        self.identity = f"{kind}:{model}" + (f"@{public_url(base_url)}" if base_url else "")

    async def complete(self, request: ChatRequest) -> ChatCompletion:
        import openai

        kwargs: dict[str, Any] = dict(request.params)
        if request.response_format is not None:
            kwargs["response_format"] = request.response_format
        try:
            response = await self.connection.client().chat.completions.create(
                model=self.model, messages=request.messages, **kwargs
            )
        except openai.OpenAIError as exc:
            if (
                isinstance(exc, openai.BadRequestError)
                and request.response_format is not None
                and any(w in str(exc).lower() for w in ("response_format", "json_schema", "json_object", "structured"))
            ):
                raise StructuredOutputUnsupported(f"{self.identity}: {self.connection.describe(exc)}") from None
            if isinstance(exc, openai.BadRequestError) and "logprobs" in kwargs and "logprob" in str(exc).lower():
                raise LogprobsUnsupported(f"{self.identity}: {self.connection.describe(exc)}") from None
            self.connection.raise_mapped(exc, self.identity, JudgeRequestRejected, JudgeUnavailable)
        except json.JSONDecodeError as exc:  # a 200 whose body is not JSON (a proxy's error page, a cut stream)
            raise TransientCallError(f"{self.identity}: the response body is not JSON ({exc})") from None
        if not response.choices:
            raise JudgeRequestRejected(f"{self.identity}: the response had no choices")
        choice = response.choices[0]
        usage = response.usage
        return ChatCompletion(
            content=choice.message.content or "",
            finish_reason=choice.finish_reason or "stop",
            prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
            completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
            logprobs=_token_logprobs(choice) if "logprobs" in kwargs else None,
        )

    async def aclose(self) -> None:
        """Close the HTTP connections opened from the running event loop."""
        await self.connection.aclose()

    def __repr__(self) -> str:
        return f"OpenAIChatBackend({self.identity!r})"


def _token_logprobs(choice: Any) -> list[Any] | None:
    """The reply's tokens with their top alternatives, as JSON-able lists (None when the
    server returned none: G-Eval then uses the level as given)."""
    content = getattr(getattr(choice, "logprobs", None), "content", None)
    if not content:
        return None
    return [[t.token, [[a.token, a.logprob] for a in (t.top_logprobs or [])]] for t in content]
