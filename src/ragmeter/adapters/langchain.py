"""LangChain: run a chain over a test set, judge with a LangChain chat model, embed with
LangChain embeddings.

Optional extra: ``pip install "ragmeter[langchain]"`` (``langchain-core>=0.3``). Importing
this module is free; LangChain is imported when one of these functions is first called,
and a missing install raises an ``ImportError`` that says what to install.

* ``langchain_app(chain)`` turns any ``Runnable`` (an LCEL chain, a retrieval chain, any
  object with ``ainvoke``) into the ``question -> output`` callable that ``run_app`` runs. The answer
  and contexts are read from what the chain returns (``read_output``). A chain that returns
  only the answer still yields its contexts: every invocation gets its own callback handler,
  which records the documents of the retriever runs (``on_retriever_end``) in rank order.
  Per invocation, because ``run_app`` runs questions concurrently: one shared handler would
  mix up the documents of questions in flight.
* ``retriever_model_app(retriever, model)`` is the app for a retriever and a chat model with
  no chain around them: retrieve, stuff the documents into a prompt, ask.
* ``judge_from(chat_model)`` makes a LangChain chat model ragmeter's judge. It is a backend
  of ``LLMJudge``, so it gets the same disk cache, retries with backoff, adaptive concurrency,
  output repair and token accounting as ragmeter's OpenAI judge (tokens from the reply's
  ``usage_metadata``). Set ``max_retries=0`` on models that retry by themselves (ChatOpenAI
  does, twice): a retry loop inside the model hides 429s from ragmeter's limiter.
* ``embedder_from(embeddings)`` wraps LangChain ``Embeddings`` as a ragmeter ``Embedder``.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping
from uuid import UUID

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
from ragmeter.adapters.output import (
    ANSWER_KEYS,
    CONTEXT_KEYS,
    AppOutput,
    AppOutputError,
    context_text,
    read_output,
)
from ragmeter.calls.cache import DiskCache
from ragmeter.calls.options import LLMCallOptions
from ragmeter.judges.llm_judge import LLMJudge
from ragmeter.judges.protocol import ChatCompletion, ChatRequest
from ragmeter.errors import InvalidOption, InvalidOptionType

if TYPE_CHECKING:  # pragma: no cover
    from langchain_core.callbacks import BaseCallbackHandler

__all__ = [
    "DEFAULT_PROMPT",
    "LangChainChatBackend",
    "LangChainEmbedder",
    "embedder_from",
    "judge_from",
    "langchain_app",
    "retrieval_recorder",
    "retriever_model_app",
    "with_callback",
]

DEFAULT_PROMPT = (
    ("system", "Answer the question using only the context below. If the context does not "
               "hold the answer, say that you don't know.\n\nContext:\n{context}"),
    ("human", "{question}"),
)
"""The prompt ``retriever_model_app`` uses when given none: (role, template) messages."""

LangChainApp = Callable[[str], Awaitable[AppOutput]]


def _require() -> None:
    try:
        import langchain_core  # noqa: F401
    except ImportError as exc:
        raise missing_extra("langchain", "langchain-core", exc) from None


# --- running a chain -------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _recorder_class() -> type:
    """The callback handler class, built on first use so that LangChain is imported lazily."""
    _require()
    from langchain_core.callbacks import BaseCallbackHandler

    class RetrievalRecorder(BaseCallbackHandler):
        """Records the documents each retriever run returns, for one invocation.

        Run inline (in the thread or event loop that fires the event, not in an executor), so
        the start events arrive in the order the runs started. ``documents()`` returns the
        documents of the outermost retriever runs: a retriever that calls other retrievers
        (ensemble, multi-query, re-ranking) is counted once, with its final ranking. Several
        outermost runs (an agent that searches twice) are concatenated in start order.
        ``retriever_name`` keeps only runs of that name (``get_name()`` or ``run_name``).
        """

        run_inline = True
        raise_error = False

        def __init__(self, retriever_name: str | None = None) -> None:
            super().__init__()
            self.retriever_name = retriever_name
            self._lock = threading.Lock()
            self._parents: dict[UUID, UUID | None] = {}
            self._retrievers: dict[UUID, bool] = {}  # run -> matches the name filter; start order
            self._documents: dict[UUID, list[Any]] = {}

        def _note(self, run_id: UUID, parent_run_id: UUID | None) -> None:
            with self._lock:
                self._parents[run_id] = parent_run_id

        # Every kind of run is noted so that a retriever's ancestry can be walked.
        def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID,
                           parent_run_id: UUID | None = None, **kwargs: Any) -> None:
            self._note(run_id, parent_run_id)

        def on_tool_start(self, serialized: Any, input_str: Any, *, run_id: UUID,
                          parent_run_id: UUID | None = None, **kwargs: Any) -> None:
            self._note(run_id, parent_run_id)

        def on_llm_start(self, serialized: Any, prompts: Any, *, run_id: UUID,
                         parent_run_id: UUID | None = None, **kwargs: Any) -> None:
            self._note(run_id, parent_run_id)

        def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID,
                                parent_run_id: UUID | None = None, **kwargs: Any) -> None:
            self._note(run_id, parent_run_id)

        def on_retriever_start(self, serialized: Any, query: Any, *, run_id: UUID,
                               parent_run_id: UUID | None = None, **kwargs: Any) -> None:
            name = kwargs.get("name") or (serialized or {}).get("name")
            with self._lock:
                self._parents[run_id] = parent_run_id
                self._retrievers[run_id] = self.retriever_name is None or name == self.retriever_name

        def on_retriever_end(self, documents: Any, *, run_id: UUID, **kwargs: Any) -> None:
            with self._lock:
                self._documents[run_id] = list(documents)

        def documents(self) -> list[Any]:
            """The recorded documents, in rank order (see the class docstring)."""
            with self._lock:
                out: list[Any] = []
                for run_id, matches in self._retrievers.items():
                    if matches and run_id in self._documents and not self._inside_match(run_id):
                        out.extend(self._documents[run_id])
                return out

        def _inside_match(self, run_id: UUID) -> bool:
            seen: set[UUID] = set()
            parent = self._parents.get(run_id)
            while parent is not None and parent not in seen:
                if self._retrievers.get(parent):
                    return True
                seen.add(parent)
                parent = self._parents.get(parent)
            return False

    return RetrievalRecorder


def retrieval_recorder(retriever: Any = None) -> "BaseCallbackHandler":
    """A new callback handler that records retrieved documents; pass it in the
    ``config={"callbacks": [...]}`` of one invocation, then call its ``documents()``.

    ``retriever`` (a retriever or a run name) keeps only that retriever's runs."""
    return _recorder_class()(_retriever_name(retriever))


def _retriever_name(retriever: Any) -> str | None:
    if retriever is None or isinstance(retriever, str):
        return retriever
    run_name = (getattr(retriever, "config", None) or {}).get("run_name")  # .with_config(run_name=)
    if run_name:
        return str(run_name)
    get_name = getattr(retriever, "get_name", None)
    if callable(get_name):
        return str(get_name())
    raise InvalidOptionType(f"retriever must be a LangChain retriever or a run name, not {type(retriever).__name__}")


def with_callback(config: Mapping[str, Any] | None, handler: Any) -> dict[str, Any]:
    """``config`` plus ``handler``, keeping the callbacks the caller already set."""
    out = dict(config or {})
    callbacks = out.get("callbacks")
    if callbacks is None:
        out["callbacks"] = [handler]
    elif isinstance(callbacks, (list, tuple)):
        out["callbacks"] = [*callbacks, handler]
    else:  # a callback manager: a copy, so that the caller's one is not changed
        manager = callbacks.copy()
        manager.add_handler(handler, inherit=True)
        out["callbacks"] = manager
    return out


def message_text(value: Any) -> Any:
    """The text of a LangChain message (``.text`` is a property from 1.0, a method before);
    anything else unchanged."""
    from langchain_core.messages import BaseMessage

    if not isinstance(value, BaseMessage):
        return value
    text = value.text
    return str(text) if isinstance(text, str) else text()


def _read(value: Any, answer_key: str | None, context_key: str | None) -> AppOutput:
    value = message_text(value)
    if (answer_key or context_key) and isinstance(value, Mapping):
        missing = [k for k in (answer_key, context_key) if k and k not in value]
        if missing:
            raise AppOutputError(f"the chain's output has no key {missing[0]!r}; its keys: "
                                 f"{sorted(map(str, value))}")
        # The named keys replace whatever read_output would have picked by its own rules.
        remapped = {k: v for k, v in value.items()
                    if not (answer_key and k in ANSWER_KEYS) and not (context_key and k in CONTEXT_KEYS)}
        if answer_key:
            remapped["answer"] = message_text(value[answer_key])
        if context_key:
            remapped["contexts"] = value[context_key]
        value = remapped
    elif isinstance(value, Mapping) and any(k in value for k in ANSWER_KEYS):
        value = {**value, **{k: message_text(value[k]) for k in ANSWER_KEYS if k in value}}
    return read_output(value)


def langchain_app(
    runnable: Any,
    *,
    question_key: str | None = None,
    answer_key: str | None = None,
    context_key: str | None = None,
    retriever: Any = None,
    collect_from_callbacks: bool = True,
    inputs: Mapping[str, Any] | None = None,
    config: Mapping[str, Any] | None = None,
) -> LangChainApp:
    """An async ``question -> AppOutput`` callable for ``run_app`` from any LangChain Runnable.

    ``question_key``: send ``{question_key: question, **inputs}`` instead of the bare string
    (for chains whose input is a dict). ``answer_key``/``context_key``: where the answer and
    the contexts are in a dict output, when they are not under the usual names
    (``answer``/``result``/``output``..., ``context``/``source_documents``...). When the
    output carries no contexts and ``collect_from_callbacks`` is on, the contexts are the
    documents of the chain's retriever runs, recorded for that invocation only;
    ``retriever`` (the retriever object, or its run name) picks one retriever when the chain
    has several. ``config`` is passed to every invocation (tags, metadata, callbacks, ...).
    """
    _require()
    if not callable(getattr(runnable, "ainvoke", None)):
        raise InvalidOptionType(f"langchain_app takes a LangChain Runnable (with .ainvoke), not a "
                        f"{type(runnable).__name__}; wrap a plain function with RunnableLambda or "
                        "pass it to run_app directly")
    if inputs and not question_key:
        raise InvalidOption("inputs= goes with question_key=: the chain's input is then a dict")
    name = _retriever_name(retriever)

    async def app(question: str) -> AppOutput:
        payload: Any = {**(inputs or {}), question_key: question} if question_key else question
        recorder = _recorder_class()(name) if collect_from_callbacks else None
        call_config = with_callback(config, recorder) if recorder is not None else dict(config or {})
        value = await runnable.ainvoke(payload, config=call_config)
        output = _read(value, answer_key, context_key)
        if not output.contexts and recorder is not None:
            documents = recorder.documents()
            if documents:
                output = read_output((output.answer, documents))
        return output

    app.__name__ = f"langchain_app[{type(runnable).__name__}]"
    return app


def retriever_model_app(retriever: Any, model: Any, prompt: Any = None, *,
                        config: Mapping[str, Any] | None = None) -> LangChainApp:
    """The app for a retriever and a chat model (or LLM) with no chain around them.

    Each question: retrieve, join the documents' texts (blank line between) into ``{context}``
    of ``prompt``, ask ``model``. ``prompt`` is a LangChain prompt template or a template
    string with ``{context}`` and ``{question}``; None is ``DEFAULT_PROMPT``. The contexts are
    the retrieved documents, in rank order, with their ids.
    """
    _require()
    from langchain_core.prompts import BasePromptTemplate, ChatPromptTemplate

    if prompt is None:
        template: Any = ChatPromptTemplate.from_messages(list(DEFAULT_PROMPT))
    elif isinstance(prompt, str):
        template = ChatPromptTemplate.from_template(prompt)
    elif isinstance(prompt, BasePromptTemplate):
        template = prompt
    else:
        raise InvalidOptionType(f"prompt must be a LangChain prompt template or a string, not {type(prompt).__name__}")
    variables = set(template.input_variables)
    if "question" not in variables or not variables <= {"context", "question"}:
        raise InvalidOption(f"the prompt must use {{question}} (and {{context}}) and no other variable; "
                         f"it uses {sorted(variables)}")
    for role, thing in (("retriever", retriever), ("model", model)):
        if not callable(getattr(thing, "ainvoke", None)):
            raise InvalidOptionType(f"{role} must be a LangChain Runnable (with .ainvoke), not {type(thing).__name__}")
    call_config = dict(config or {})

    async def app(question: str) -> AppOutput:
        documents = list(await retriever.ainvoke(question, config=call_config))
        context = "\n\n".join(context_text(d) for d in documents)
        prompt_value = await template.ainvoke({"context": context, "question": question})
        reply = await model.ainvoke(prompt_value, config=call_config)
        return read_output((message_text(reply), documents))

    app.__name__ = f"retriever_model_app[{type(retriever).__name__}, {type(model).__name__}]"
    return app


# --- the judge -------------------------------------------------------------------------------


def _unwrap(model: Any) -> Any:
    """The model inside ``model.bind(...)`` / ``.with_config(...)`` bindings."""
    seen = 0
    while hasattr(model, "bound") and seen < 8:
        model = model.bound
        seen += 1
    return model


def model_name_of(model: Any) -> str:
    """The provider's model name where the integration keeps it, else the model's type."""
    inner = _unwrap(model)
    for attr in ("model_name", "model", "model_id", "deployment_name", "repo_id"):
        value = getattr(inner, attr, None)
        if isinstance(value, str) and value:
            return value
    llm_type = getattr(inner, "_llm_type", None)
    return llm_type if isinstance(llm_type, str) and llm_type else type(inner).__name__


def _identifying_params(model: Any) -> Any:
    try:
        params = _unwrap(model)._identifying_params
    except Exception:  # noqa: BLE001 (only a cache-key ingredient)
        return None
    extra = getattr(model, "kwargs", None)  # bound call arguments of a RunnableBinding
    return {"model": dict(params) if isinstance(params, Mapping) else params,
            "bound": dict(extra) if isinstance(extra, Mapping) else None}


def _to_message(message: Mapping[str, str]) -> Any:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    role, content = message.get("role"), message.get("content", "")
    if role == "system":
        return SystemMessage(content=content)
    if role == "assistant":
        return AIMessage(content=content)
    if role == "user":
        return HumanMessage(content=content)
    raise InvalidOption(f"unknown chat role {role!r}")


class LangChainChatBackend:
    """A ``ChatBackend`` over a LangChain chat model (or LLM): one ``ainvoke`` per request.

    The judge's sampling parameters (temperature, and max_tokens/seed when set) are passed
    as call arguments, which LangChain's provider integrations forward to the API; a
    ``response_format`` (structured modes other than "prompt") likewise. ``identity`` names
    the model and a hash of its parameters, so a different model, temperature or scripted
    fake never reuses another's cached replies; it holds no secret.
    """

    def __init__(self, model: Any, *, identity: str | None = None) -> None:
        _require()
        if not callable(getattr(model, "ainvoke", None)):
            raise InvalidOptionType(f"judge_from takes a LangChain chat model, not a {type(model).__name__}")
        self.chat_model = model
        self.model = model_name_of(model)
        kind = type(_unwrap(model)).__name__
        self.identity = identity or f"langchain:{kind}:{self.model}#{fingerprint(_identifying_params(model))}"

    async def complete(self, request: ChatRequest) -> ChatCompletion:
        messages = [_to_message(m) for m in request.messages]
        kwargs = call_params(request.params)
        if request.response_format is not None:
            kwargs["response_format"] = request.response_format
        try:
            reply = await self.chat_model.ainvoke(messages, **kwargs)
        except Exception as exc:  # noqa: BLE001 (sorted into retry / typed error)
            raise map_call_error(exc, self.identity, structured=request.response_format is not None) from exc
        content = message_text(reply)
        if not isinstance(content, str):
            content = str(content)
        metadata = getattr(reply, "response_metadata", None) or {}
        prompt_tokens, completion_tokens = token_counts(
            getattr(reply, "usage_metadata", None), metadata.get("token_usage"), metadata.get("usage"),
            metadata.get("usage_metadata"),
        )
        reason = metadata.get("finish_reason") or metadata.get("stop_reason") or metadata.get("done_reason")
        return ChatCompletion(content=content, finish_reason=finish_reason(reason),
                              prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)

    def __repr__(self) -> str:
        return f"LangChainChatBackend({self.identity!r})"


def judge_from(
    chat_model: Any,
    *,
    name: str | None = None,
    cache: DiskCache | bool | None = True,
    options: LLMCallOptions | None = None,
    **settings: Any,
) -> LLMJudge:
    """A ragmeter judge (``LLMJudge``) that asks ``chat_model``; pass it as ``judge=``.

    ``structured="prompt"`` (the default) puts the JSON schema in the prompt, which every
    model follows; "json_schema", "json_object" or "auto" also send ``response_format``, for
    integrations that forward it (ChatOpenAI). ``temperature=None`` keeps the model's own.
    ``options`` is the ``LLMCallOptions`` the other judges take (default ``ADAPTER_CALLS``:
    ``structured="prompt"``); single fields of it go as keywords (``timeout=30``).
    ``cache=True`` is the default disk cache, as with ``get_judge``.
    """
    backend = LangChainChatBackend(chat_model)
    return build_judge(backend, name=name or f"langchain:{backend.model}", cache=cache, options=options,
                       settings=settings)


# --- the embedder ----------------------------------------------------------------------------


class LangChainEmbedder(FrameworkEmbedder):
    """A ragmeter ``Embedder`` over LangChain ``Embeddings`` (``aembed_documents``).

    Questions, answers and contexts are all embedded as documents: ragmeter compares texts
    with each other, and one kind of vector keeps those comparisons symmetric."""

    def __init__(self, embeddings: Any, *, name: str | None = None, calls: LLMCallOptions | None = None,
                 max_concurrency: int = 8) -> None:
        _require()
        if not callable(getattr(embeddings, "aembed_documents", None)):
            raise InvalidOptionType(f"embedder_from takes LangChain Embeddings (with aembed_documents), "
                            f"not a {type(embeddings).__name__}")
        self.embeddings = embeddings
        model = next((v for a in ("model", "model_name", "model_id", "deployment")
                      if isinstance(v := getattr(embeddings, a, None), str) and v), None)
        super().__init__(name or f"langchain:{model or type(embeddings).__name__}", calls=calls,
                         max_concurrency=max_concurrency)

    async def _embed_texts(self, texts: list[str]) -> list[list[float]]:
        return await self.embeddings.aembed_documents(texts)


def embedder_from(embeddings: Any, *, name: str | None = None, calls: LLMCallOptions | None = None) -> LangChainEmbedder:
    """A ragmeter embedder over LangChain ``Embeddings``; pass it as ``embedder=``.

    ``name`` is what results record, and what a ``DiskCache`` keys vectors by: give a
    distinct one when two embedding models would otherwise share a name. ``calls`` (an
    ``LLMCallOptions``, as the judges take) sets the timeout and attempts per call."""
    return LangChainEmbedder(embeddings, name=name, calls=calls)
