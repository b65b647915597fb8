"""Running a chat app or an agent turn by turn over scripted conversations.

A script is the user's side of a conversation (``{"id", "turns": ["first message", "a
follow-up", ...]}``, plus whatever the conversation should be scored against:
``reference``, ``reference_tool_calls``, ``reference_topics``, ``retrieval_tools``). Each
user message is sent with the whole conversation so far; the app's reply becomes the
assistant's messages (its tool calls and their results too, when the app reports them), and
the next message follows. The result is a ``Dataset`` of ``ConversationSample``, ready for
``evaluate_conversations``.

A chat app is a callable taking the messages so far (OpenAI chat-format dicts) and
returning, sync or async, one of:

* the reply as text, or anything ``read_output`` reads (a dict with ``answer`` and
  ``contexts``, a LangChain / LlamaIndex response): one assistant message with its contexts;
* messages (a list, or ``{"messages": [...]}`` as LangChain agents return): OpenAI dicts or
  LangChain messages; when they start with the conversation sent, only the new ones count;
* a LlamaIndex ``AgentChatResponse`` (chat engines, agents): its ``sources`` become tool
  calls and results, its ``source_nodes`` the reply's contexts.

``langchain_chat`` and ``llamaindex_chat`` turn an agent runnable, a chat engine and a workflow agent into
such a callable. A turn that fails ends its conversation there (the error in the
conversation's ``metadata["app_error"]``), and the other conversations go on.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Sequence

from ragmeter.adapters.output import context_text, read_output
from ragmeter.adapters.run import AppError, defined_in, load_object
from ragmeter.conversations import Message, load_conversations, read_message
from ragmeter.data import Dataset, RowError
from ragmeter.runtime.loop import run_sync
from ragmeter.runtime.progress import progress_bar
from ragmeter.errors import AppFailed, InvalidOption, InvalidOptionType

ChatApp = Callable[[list[dict[str, Any]]], Any] | Callable[[list[dict[str, Any]]], Awaitable[Any]]

SCRIPT_FIELDS = ("reference", "reference_tool_calls", "reference_topics", "retrieval_tools")


@dataclass
class ChatRunResult:
    """The conversations the app had, the turns that failed, and timing."""

    dataset: Dataset
    errors: list[AppError] = field(default_factory=list)
    wall_s: float = 0.0


def _as_dicts(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages as the OpenAI chat format sends them (arguments as a JSON string)."""
    out = []
    for m in messages:
        item: dict[str, Any] = {"role": m.role, "content": m.content}
        if m.tool_calls:
            item["tool_calls"] = [{"id": c.id or f"call_{k}", "type": "function",
                                   "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
                                  for k, c in enumerate(m.tool_calls)]
        if m.tool_call_id:
            item["tool_call_id"] = m.tool_call_id
        if m.name and m.role == "tool":
            item["name"] = m.name
        out.append(item)
    return out


def _tool_exchange(call_id: str, name: str, arguments: dict[str, Any], texts: list[str] | None,
                   content: Any) -> list[dict[str, Any]]:
    """One tool use as the OpenAI chat format records it: the assistant's call, then the
    tool's result. The result is ``texts`` as a JSON list when the tool returned passages
    (a retriever's nodes, one text each, so the turn's contexts can be read back from it),
    else the tool's ``content`` as text. Arguments are JSON-encoded with ``str`` for what
    JSON cannot hold (a tool's Python objects)."""
    return [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": name, "arguments": json.dumps(arguments, default=str)}}]},
        {"role": "tool", "tool_call_id": call_id, "name": name,
         "content": json.dumps(texts) if texts is not None else str(content)},
    ]


def _agent_response(value: Any, turn: int) -> list[dict[str, Any]]:
    """A LlamaIndex ``AgentChatResponse``: each tool it used, then the reply with its nodes."""
    messages: list[dict[str, Any]] = []
    for k, tool in enumerate(getattr(value, "sources", None) or []):
        call_id = f"turn{turn}_call{k}"
        raw = getattr(tool, "raw_input", None)
        raw = raw if isinstance(raw, dict) else {}
        # a FunctionTool records {"args": (...), "kwargs": {...}}; a retriever {"message": ...}
        arguments = raw.get("kwargs") or {name: v for name, v in raw.items() if name != "args"}
        output = getattr(tool, "raw_output", None)
        texts = [context_text(n) for n in output] if isinstance(output, list) else None
        messages += _tool_exchange(call_id, getattr(tool, "tool_name", "tool"), arguments, texts,
                                   getattr(tool, "content", ""))
    nodes = getattr(value, "source_nodes", None)
    reply: dict[str, Any] = {"role": "assistant", "content": str(getattr(value, "response", "") or "")}
    if nodes:
        reply["contexts"] = [context_text(n) for n in nodes]
    return messages + [reply]


def new_part(returned: Sequence[Message], sent: Sequence[Message]) -> int:
    """Where the app's own messages start in ``returned``: after the conversation sent, when
    the whole conversation came back (agents return their state), else at 0."""
    if len(returned) >= len(sent) and [(m.role, m.content) for m in returned[:len(sent)]] == [(m.role, m.content) for m in sent]:
        return len(sent)
    return 0


def reply_messages(value: Any, sent: Sequence[Message], turn: int) -> list[Message]:
    """What the app added to the conversation, as messages (see the module docstring)."""
    if isinstance(value, dict) and "messages" in value:
        value = value["messages"]
    if hasattr(value, "sources") and hasattr(value, "response"):
        value = _agent_response(value, turn)
    if isinstance(value, (list, tuple)):
        read = [read_message(m, f"reply message {k}") for k, m in enumerate(value)]
        read = read[new_part(read, sent):]
        if not read:
            raise AppFailed("the app returned no new message")
        return read
    output = read_output(value)
    return [Message(role="assistant", content=output.answer, contexts=list(output.contexts))]


def _scripts(data: Any) -> list[tuple[int, dict[str, Any] | RowError]]:
    """(row, script) for each record; a record without user turns is a ``RowError`` naming
    its line (in a JSONL file) and its conversation's id."""
    numbers: list[int | None] = []  # the file's line of each record
    if isinstance(data, (str, bytes)) or hasattr(data, "read_text"):
        from pathlib import Path

        lines = Path(data).read_text(encoding="utf-8").splitlines()
        records: list[Any] = []
        for number, line in enumerate(lines, start=1):
            if line.strip():
                numbers.append(number)
                try:
                    records.append(json.loads(line))
                except ValueError as exc:
                    records.append(RowError(row=len(records), line=number, message=f"not valid JSON: {exc}"))
    else:
        records = list(data.to_dict("records")) if hasattr(data, "to_dict") else list(data)
    out: list[tuple[int, dict[str, Any] | RowError]] = []
    for row, record in enumerate(records):
        if isinstance(record, RowError):
            out.append((row, record))
            continue
        at_line = numbers[row] if row < len(numbers) else None
        named = record.get("id") if isinstance(record, dict) else None
        turns = record.get("turns") if isinstance(record, dict) else None
        if turns is not None and hasattr(turns, "tolist"):  # a DataFrame cell
            turns = turns.tolist()
        if turns is None and isinstance(record, dict) and "messages" in record:
            turns = [m.get("content") for m in record["messages"] if isinstance(m, dict) and m.get("role") == "user"]
        if not isinstance(turns, list) or not turns or not all(isinstance(t, str) and t.strip() for t in turns):
            whose = f"conversation {named!r}: " if isinstance(named, (str, int)) and not isinstance(named, bool) else ""
            out.append((row, RowError(row=row, line=at_line, field="turns",
                                      message=f"{whose}a script needs its user turns: a non-empty list of texts, or "
                                              "messages with a user message")))
            continue
        out.append((row, {**record, "turns": turns}))  # turns read from messages are the script's turns
    return out


def turn_references(script: dict[str, Any]) -> list[str | None]:
    """The reply expected after each user turn, from a script whose ``messages`` hold the
    reference conversation (``ragmeter generate --conversations`` writes them so): the
    ``reference`` (else ``content``) of the first assistant message after each user
    message; None where there is none. A script of bare ``turns`` has none, and neither has
    one whose messages do not hold its turns."""
    if not isinstance(script.get("messages"), list):
        return []
    out: list[str | None] = []
    for m in script["messages"]:
        if not isinstance(m, dict):
            continue
        if m.get("role") == "user":
            out.append(None)
        elif m.get("role") == "assistant" and out and out[-1] is None:
            reference = m.get("reference") or m.get("content")
            out[-1] = reference if isinstance(reference, str) and reference.strip() else None
    return out if len(out) == len(script.get("turns") or out) else []


def on_answer(messages: list[Message], since: int, **fields: Any) -> list[Message]:
    """``messages`` with ``fields`` set on the turn's answer: the last assistant message with
    text at or after ``since`` (the turn's reference, or what the turn retrieved, belong to
    the answer, not to a tool call before it)."""
    for k in range(len(messages) - 1, since - 1, -1):
        if messages[k].role == "assistant" and messages[k].content.strip():
            return [*messages[:k], messages[k].model_copy(update=fields), *messages[k + 1:]]
    return messages


async def _call(app: ChatApp, messages: list[dict[str, Any]]) -> Any:
    if inspect.iscoroutinefunction(app) or inspect.iscoroutinefunction(getattr(app, "__call__", None)):
        return await app(messages)
    result = await asyncio.to_thread(app, messages)
    return await result if inspect.isawaitable(result) else result


async def arun_chat(scripts: Any, app: ChatApp, *, system: str | None = None, concurrency: int = 4,
                    timeout: float | None = None, show_progress: bool = True) -> ChatRunResult:
    """Async form of ``run_chat``."""
    if concurrency < 1:
        raise InvalidOption("concurrency must be at least 1")
    items = _scripts(scripts)
    gate = asyncio.Semaphore(concurrency)
    records: dict[int, dict[str, Any]] = {}
    errors: list[AppError] = []
    started = time.perf_counter()

    async def one(row: int, script: dict[str, Any], advance: Callable[[int], None]) -> None:
        messages: list[Message] = [Message(role="system", content=system)] if system else []
        failure = None
        references = turn_references(script)
        async with gate:
            for turn, text in enumerate(script["turns"], start=1):
                messages.append(Message(role="user", content=text))
                try:
                    call = _call(app, _as_dicts(messages))
                    value = await (asyncio.wait_for(call, timeout) if timeout else call)
                    reference = references[turn - 1] if turn <= len(references) else None
                    new = reply_messages(value, messages, turn)
                    messages.extend(on_answer(new, 0, reference=reference) if reference is not None else new)
                except Exception as exc:  # noqa: BLE001 (recorded per conversation; the rest go on)
                    kind = "Timeout" if isinstance(exc, (asyncio.TimeoutError, TimeoutError)) else type(exc).__name__
                    failure = f"turn {turn}: {kind}: {exc}" if str(exc) else f"turn {turn}: {kind}"
                    errors.append(AppError(row, script.get("id"), text, failure))
                    break
                finally:
                    advance(1)
        metadata = dict(script.get("metadata") or {})
        if failure:
            metadata["app_error"] = failure
        records[row] = {"id": script.get("id"), "messages": [m.model_dump() for m in messages],
                        "metadata": metadata, **{k: script[k] for k in SCRIPT_FIELDS if k in script}}

    turns = sum(len(s["turns"]) for _, s in items if isinstance(s, dict))
    with progress_bar(turns, "running chats", enabled=show_progress) as advance:
        await asyncio.gather(*(one(row, s, advance) for row, s in items if isinstance(s, dict)))
    loaded = load_conversations([records[row] for row in sorted(records)])
    rows = sorted(records)
    dataset = Dataset(loaded.samples, [rows[r] for r in loaded.rows],
                      [*(s for _, s in items if isinstance(s, RowError)),
                       *(e.model_copy(update={"row": rows[e.row]}) for e in loaded.errors)])
    errors.sort(key=lambda e: e.row)
    return ChatRunResult(dataset=dataset, errors=errors, wall_s=time.perf_counter() - started)


def run_chat(scripts: Any, app: ChatApp, *, system: str | None = None, concurrency: int = 4,
             timeout: float | None = None, show_progress: bool = True) -> ChatRunResult:
    """Have ``app`` hold each scripted conversation of ``scripts`` (a JSONL path, records or
    a DataFrame; see the module docstring), one user message at a time; ``system`` opens
    every conversation. Conversations run ``concurrency`` at a time, their turns in order."""
    return run_sync(lambda: arun_chat(scripts, app, system=system, concurrency=concurrency, timeout=timeout,
                                      show_progress=show_progress))


def langchain_chat(agent: Any, *, retriever: Any = None, config: Mapping[str, Any] | None = None) -> ChatApp:
    """A LangChain agent as a chat app: any runnable taking ``{"messages": [...]}`` and
    returning the messages, as the graph ``langchain.agents.create_agent`` (LangGraph's
    ``create_react_agent`` too) builds. Its ``AIMessage`` tool calls and ``ToolMessage``
    results are kept in the conversation, in order.

    The turn's contexts are the documents its retriever runs returned, recorded by a callback
    handler of that turn's invocation (as ``langchain_app`` does for chains): a retriever
    tool's ``ToolMessage`` is the documents joined into one text, while the callbacks keep
    them one passage each, in rank order. They go on the turn's answer; a turn that
    retrieved nothing has none (a ``retrieval_tools`` entry of the script still reads the tool
    results then). ``retriever`` (the retriever or its run name) keeps only that retriever's
    documents; ``config`` is passed to every invocation (its callbacks kept)."""
    from langchain_core.messages import convert_to_messages

    from ragmeter.adapters.langchain import retrieval_recorder, with_callback

    if not callable(getattr(agent, "ainvoke", None)):
        raise InvalidOptionType(f"langchain_chat takes a LangChain agent (a runnable with .ainvoke), not a "
                                f"{type(agent).__name__}")

    async def chat(messages: list[dict[str, Any]]) -> Any:
        recorder = retrieval_recorder(retriever)
        value = await agent.ainvoke({"messages": convert_to_messages(messages)}, config=with_callback(config, recorder))
        documents = recorder.documents()  # type: ignore[attr-defined]
        if not documents:
            return value
        returned = value["messages"] if isinstance(value, Mapping) and "messages" in value else value
        if not isinstance(returned, (list, tuple)):
            return value
        read = [read_message(m, f"reply message {k}") for k, m in enumerate(returned)]
        sent = new_part(read, [read_message(m, f"message {k}") for k, m in enumerate(messages)])
        return on_answer(read, sent, contexts=[context_text(d) for d in documents])

    return chat


def _workflow_reply(output: Any, results: Sequence[Any]) -> list[dict[str, Any]]:
    """A LlamaIndex workflow agent's turn: each ``ToolCallResult`` as a call and its result
    (a retriever tool's nodes as a JSON list of their texts, one passage each), then the
    answer, whose contexts are the nodes the turn's tools returned."""
    messages: list[dict[str, Any]] = []
    contexts: list[str] = []
    for k, result in enumerate(results):
        call_id = str(getattr(result, "tool_id", "") or f"call_{k}")
        output_of_tool = getattr(result, "tool_output", None)
        raw = getattr(output_of_tool, "raw_output", None)
        nodes = raw if isinstance(raw, list) and raw and all(hasattr(n, "node") or hasattr(n, "text") for n in raw) else None
        texts = [context_text(n) for n in nodes] if nodes else None
        contexts.extend(texts or [])
        messages += _tool_exchange(call_id, result.tool_name, dict(result.tool_kwargs or {}), texts,
                                   getattr(output_of_tool, "content", ""))
    response = getattr(output, "response", None)
    reply: dict[str, Any] = {"role": "assistant", "content": str(getattr(response, "content", None) or "")}
    if contexts:
        reply["contexts"] = contexts
    return messages + [reply]


def llamaindex_chat(engine: Any) -> ChatApp:
    """A LlamaIndex chat engine (``achat(message, chat_history)``) or agent as a chat app.

    A chat engine's tools (a context chat engine's retriever too) become tool calls and the
    nodes it read the reply's contexts. An agent of the workflow kind (``FunctionAgent``,
    ``ReActAgent``, ``AgentWorkflow``: ``run(user_msg=, chat_history=)``) has its
    ``ToolCallResult`` events read from its event stream, in order: each becomes a call
    (name, arguments) and its result, and the nodes its retriever tools returned are the
    answer's contexts. The history sent is the conversation's text messages: what the
    agent's own memory would keep between turns."""
    from llama_index.core.llms import ChatMessage

    def history(messages: list[dict[str, Any]]) -> list[Any]:
        return [ChatMessage(role=m["role"], content=m.get("content") or "") for m in messages[:-1]
                if m["role"] in ("system", "user", "assistant") and m.get("content")]

    if callable(getattr(engine, "achat", None)):
        async def chat(messages: list[dict[str, Any]]) -> Any:
            return await engine.achat(messages[-1]["content"], chat_history=history(messages))

        return chat
    if not callable(getattr(engine, "run", None)):
        raise InvalidOptionType(f"llamaindex_chat takes a LlamaIndex chat engine (.achat) or agent (.run), not a "
                                f"{type(engine).__name__}")
    from llama_index.core.agent.workflow import ToolCallResult

    async def run_agent(messages: list[dict[str, Any]]) -> Any:
        handler = engine.run(user_msg=messages[-1]["content"], chat_history=history(messages))
        results = [event async for event in handler.stream_events() if isinstance(event, ToolCallResult)]
        return _workflow_reply(await handler, results)

    return run_agent


def _is_factory(target: Any) -> bool:
    """A plain function that takes no argument builds the app (a chat function takes the
    messages): ``--app my_agent.py:build_agent`` for an agent made at start-up."""
    if not inspect.isfunction(target) or inspect.iscoroutinefunction(target):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in inspect.signature(target).parameters.values())


def as_chat_app(target: Any, spec: str | None = None) -> ChatApp:
    """``target`` as a chat app: a LangChain runnable (an agent) or a LlamaIndex chat engine
    or agent wrapped with its adapter, any other callable as it is; a function of no
    argument is called first to build the app."""
    if _is_factory(target):
        target = target()
    if defined_in(target, "langchain_core", ("Runnable",)):
        return langchain_chat(target)
    if defined_in(target, "llama_index.core", ("BaseChatEngine", "BaseAgent", "BaseWorkflowAgent")):
        return llamaindex_chat(target)
    if not callable(target):
        raise InvalidOption(f"{spec or 'the app'} is a {type(target).__name__}, not a callable, a LangChain "
                         "runnable or a LlamaIndex chat engine")
    return target


def load_chat_app(spec: str) -> ChatApp:
    """``"module:NAME"`` (or ``"path/to/file.py:NAME"``) -> the chat app it names."""
    return as_chat_app(load_object(spec), spec)


__all__ = ["as_chat_app", "load_chat_app", "ChatApp", "ChatRunResult", "arun_chat", "langchain_chat", "llamaindex_chat", "reply_messages", "run_chat"]
