"""LlamaIndex: run a query engine over a test set, judge with a LlamaIndex LLM, embed with a
LlamaIndex embedding model.

Optional extra: ``pip install "ragmeter[llamaindex]"`` (``llama-index-core>=0.11``).
Importing this module is free; LlamaIndex is imported when one of these functions is first
called, and a missing install raises an ``ImportError`` that says what to install.

* ``llamaindex_app(query_engine)``: the ``question -> output`` callable for ``run_app``. The
  answer is ``response.response``; the contexts are ``response.source_nodes`` in rank order,
  their ids the node ids. ``aquery`` is used, so questions run concurrently.
* ``judge_from(llm)``: a LlamaIndex LLM (``achat``) as the backend of ragmeter's
  ``LLMJudge``, with its cache, retries, adaptive concurrency, output repair and token
  accounting (tokens from the response's ``additional_kwargs`` or ``raw.usage``). Set
  ``max_retries=0`` on LLMs that retry by themselves so that 429s reach ragmeter's limiter.
* ``embedder_from(embed_model)``: a LlamaIndex ``BaseEmbedding`` as a ragmeter ``Embedder``.

Offline use (no key, no network), as checked by ragmeter's tests with every socket refused:

* llama-index-core reaches for the network in three places, and all three can stay local.
  Token counting (prompt packing in the response synthesizers) uses tiktoken's
  ``cl100k_base``; llama-index-core ships that file in ``llama_index/core/_static/
  tiktoken_cache`` and points tiktoken there itself *unless* ``TIKTOKEN_CACHE_DIR`` is set.
  NLTK's stopwords and punkt tokenizer (sentence splitting, keyword tables) ship in
  ``_static/nltk_cache`` and are used *unless* ``NLTK_DATA`` is set. So: leave both
  variables unset, or point them at directories that hold the data, or set
  ``Settings.tokenizer`` to a local tokenizer (any ``str -> list`` callable, e.g. a
  ``tokenizers.Tokenizer``'s ``encode(text).ids``) before building an index.
* ``Settings.llm`` and ``Settings.embed_model`` default to OpenAI: pass ``llm=`` and
  ``embed_model=`` explicitly (or set ``Settings``) to local models, or ``MockLLM``.
* ``HF_HUB_OFFLINE=1`` keeps Hugging Face-based embedding models from looking for updates.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, Awaitable, Callable, Mapping

from ragmeter.adapters._framework import (
    FrameworkEmbedder,
    build_judge,
    call_params,
    finish_reason,
    fingerprint,
    map_call_error,
    missing_extra,
    token_counts,
)
from ragmeter.adapters.output import AppOutput, AppOutputError, context_text
from ragmeter.calls.cache import DiskCache
from ragmeter.calls.options import LLMCallOptions
from ragmeter.judges.llm_judge import LLMJudge
from ragmeter.judges.protocol import ChatCompletion, ChatRequest
from ragmeter.errors import InvalidOptionType

__all__ = [
    "LlamaIndexChatBackend",
    "LlamaIndexEmbedder",
    "embedder_from",
    "judge_from",
    "llamaindex_app",
]

LlamaIndexApp = Callable[[str], Awaitable[AppOutput]]

_SECRET_HINTS = ("key", "secret", "password", "credential")


def _require() -> None:
    try:
        import llama_index.core  # noqa: F401
    except ImportError as exc:
        raise missing_extra("llamaindex", "llama-index-core", exc) from None


# --- running a query engine ------------------------------------------------------------------


async def _settle(response: Any) -> Any:
    """A plain ``Response`` from a streaming or pydantic one (they hold the text elsewhere)."""
    get_response = getattr(response, "get_response", None)
    if not callable(get_response):
        return response
    if inspect.iscoroutinefunction(get_response):
        return await get_response()
    # a sync stream is consumed in a thread, so the event loop keeps serving other questions
    return await asyncio.to_thread(get_response)


def read_response(response: Any) -> AppOutput:
    """An ``AppOutput`` from a LlamaIndex ``Response``: the answer, and the source nodes'
    texts and node ids in rank order."""
    answer = getattr(response, "response", None)
    if answer is None:
        raise AppOutputError("the query engine returned no answer (response.response is None)")
    nodes = list(getattr(response, "source_nodes", None) or [])
    texts = [context_text(n) for n in nodes]
    ids = [str(getattr(getattr(n, "node", n), "node_id", "") or "") for n in nodes]
    return AppOutput(answer=str(answer), contexts=texts, context_ids=ids if any(ids) else None)


def llamaindex_app(query_engine: Any) -> LlamaIndexApp:
    """An async ``question -> AppOutput`` callable for ``run_app`` from a LlamaIndex query
    engine (``index.as_query_engine(...)``, a router, a sub-question engine, ...).

    Streaming engines work too: the stream is read to the end. A chat engine is refused:
    it keeps a conversation, and the questions of a test set are independent (and run
    concurrently)."""
    _require()
    aquery = getattr(query_engine, "aquery", None)
    if not callable(aquery):
        hint = (" (a chat engine keeps its conversation between questions: evaluate "
                "index.as_query_engine() instead)" if callable(getattr(query_engine, "achat", None)) else "")
        raise InvalidOptionType(f"llamaindex_app takes a LlamaIndex query engine (with .aquery), not a "
                        f"{type(query_engine).__name__}{hint}")

    async def app(question: str) -> AppOutput:
        return read_response(await _settle(await aquery(question)))

    app.__name__ = f"llamaindex_app[{type(query_engine).__name__}]"
    return app


# --- the judge -------------------------------------------------------------------------------


def _metadata(llm: Any) -> Any:
    try:
        return llm.metadata
    except Exception:  # noqa: BLE001 (metadata is optional information here)
        return None


def model_name_of(llm: Any) -> str:
    """The model name the LLM reports (``metadata.model_name``), else its ``model`` field,
    else its class name."""
    for value in (getattr(_metadata(llm), "model_name", None), getattr(llm, "model", None),
                  getattr(llm, "model_name", None)):
        if isinstance(value, str) and value and value != "unknown":
            return value
    return type(llm).__name__


def _identifying_params(llm: Any) -> Any:
    """The LLM's settings without credentials, for the cache key."""
    to_dict = getattr(llm, "to_dict", None)
    try:
        fields = dict(to_dict()) if callable(to_dict) else {}
    except Exception:  # noqa: BLE001
        fields = {}
    fields = {k: v for k, v in fields.items() if not any(h in k.lower() for h in _SECRET_HINTS)
              and not k.lower().endswith("token") and k != "callback_manager"}
    metadata = _metadata(llm)
    dump = getattr(metadata, "model_dump", None)
    return {"fields": fields, "metadata": dump() if callable(dump) else None}


class LlamaIndexChatBackend:
    """A ``ChatBackend`` over a LlamaIndex LLM: one ``achat`` per request.

    The judge's sampling parameters (and a ``response_format`` in the structured modes other
    than "prompt") are passed as ``achat`` keyword arguments, which LlamaIndex's provider
    integrations merge into the API call. ``identity`` is the class, model and a hash of the
    LLM's settings (credentials left out), so different settings never share cached replies.
    """

    def __init__(self, llm: Any, *, identity: str | None = None) -> None:
        _require()
        if not callable(getattr(llm, "achat", None)):
            raise InvalidOptionType(f"judge_from takes a LlamaIndex LLM (with .achat), not a {type(llm).__name__}")
        self.llm = llm
        self.model = model_name_of(llm)
        self.identity = identity or f"llamaindex:{type(llm).__name__}:{self.model}#{fingerprint(_identifying_params(llm))}"

    async def complete(self, request: ChatRequest) -> ChatCompletion:
        from llama_index.core.base.llms.types import ChatMessage, MessageRole

        messages = [ChatMessage(role=MessageRole(m["role"]), content=m["content"]) for m in request.messages]
        kwargs = call_params(request.params)
        if request.response_format is not None:
            kwargs["response_format"] = request.response_format
        try:
            reply = await self.llm.achat(messages, **kwargs)
        except Exception as exc:  # noqa: BLE001 (sorted into retry / typed error)
            raise map_call_error(exc, self.identity, structured=request.response_format is not None) from exc
        content = getattr(reply.message, "content", None) or ""
        raw = reply.raw
        usage = raw.get("usage") if isinstance(raw, Mapping) else getattr(raw, "usage", None)
        prompt_tokens, completion_tokens = token_counts(reply.additional_kwargs, usage, raw)
        return ChatCompletion(content=str(content), finish_reason=finish_reason(_raw_finish_reason(raw)),
                              prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)

    def __repr__(self) -> str:
        return f"LlamaIndexChatBackend({self.identity!r})"


def _raw_finish_reason(raw: Any) -> Any:
    """The stop reason in a provider's raw reply: OpenAI's choices, Anthropic's
    ``stop_reason``, Ollama's ``done_reason``."""
    choices = raw.get("choices") if isinstance(raw, Mapping) else getattr(raw, "choices", None)
    if choices:
        first = choices[0]
        return first.get("finish_reason") if isinstance(first, Mapping) else getattr(first, "finish_reason", None)
    for key in ("finish_reason", "stop_reason", "done_reason"):
        value = raw.get(key) if isinstance(raw, Mapping) else getattr(raw, key, None)
        if value:
            return value
    return None


def judge_from(
    llm: Any,
    *,
    name: str | None = None,
    cache: DiskCache | bool | None = True,
    options: LLMCallOptions | None = None,
    **settings: Any,
) -> LLMJudge:
    """A ragmeter judge (``LLMJudge``) that asks the LlamaIndex ``llm``; pass it as ``judge=``.

    ``structured="prompt"`` (the default) puts the JSON schema in the prompt, which every
    LLM follows; "json_schema", "json_object" or "auto" also send ``response_format`` for
    integrations that forward it (OpenAI). ``temperature=None`` keeps the LLM's own. The
    other settings are those of ``LLMCallOptions`` (``options=``, or single fields as
    keywords: ``timeout=30``); ``cache=True`` is the default disk cache, as with ``get_judge``.
    """
    backend = LlamaIndexChatBackend(llm)
    return build_judge(backend, name=name or f"llamaindex:{backend.model}", cache=cache, options=options,
                       settings=settings)


# --- the embedder ----------------------------------------------------------------------------


class LlamaIndexEmbedder(FrameworkEmbedder):
    """A ragmeter ``Embedder`` over a LlamaIndex ``BaseEmbedding``
    (``aget_text_embedding_batch``, which batches by the model's ``embed_batch_size``).

    All texts are embedded as text (not query) embeddings, so that comparisons between a
    question, an answer and a context are symmetric."""

    def __init__(self, embed_model: Any, *, name: str | None = None, calls: LLMCallOptions | None = None,
                 max_concurrency: int = 8) -> None:
        _require()
        if not callable(getattr(embed_model, "aget_text_embedding_batch", None)):
            raise InvalidOptionType(f"embedder_from takes a LlamaIndex embedding model (BaseEmbedding), "
                            f"not a {type(embed_model).__name__}")
        self.embed_model = embed_model
        model = getattr(embed_model, "model_name", None)
        label = model if isinstance(model, str) and model and model != "unknown" else type(embed_model).__name__
        super().__init__(name or f"llamaindex:{label}", calls=calls,
                         max_concurrency=max_concurrency)

    async def _embed_texts(self, texts: list[str]) -> list[list[float]]:
        return await self.embed_model.aget_text_embedding_batch(texts)


def embedder_from(embed_model: Any, *, name: str | None = None, calls: LLMCallOptions | None = None) -> LlamaIndexEmbedder:
    """A ragmeter embedder over a LlamaIndex embedding model; pass it as ``embedder=``.

    ``name`` is what results record, and what a ``DiskCache`` keys vectors by: give a
    distinct one when two embedding models would otherwise share a name. ``calls`` (an
    ``LLMCallOptions``, as the judges take) sets the timeout and attempts per call."""
    return LlamaIndexEmbedder(embed_model, name=name, calls=calls)
