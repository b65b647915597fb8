"""Traces of a chat app grouped into conversations, following OpenInference's conventions.

One trace is one turn: the app was asked one thing and answered it. The turns of one chat
share a session id, which OpenInference puts on the spans (``using_session(...)``, or the
LangChain instrumentation copying a run's ``session_id`` / ``thread_id`` metadata). Read, in
this order, on the trace's root span and then on its other spans in start order:

- ``session.id`` (OpenInference's name);
- ``gen_ai.conversation.id`` (OpenTelemetry's GenAI conventions, which other exporters write);
- ``conversation.id``;
- the ``session_id``, ``thread_id`` or ``conversation_id`` key of the span's ``metadata``
  (a JSON object: what LangChain and LangGraph runs carry when nothing copied it out).

A trace with none of them is a conversation of its own (one turn): a question asked outside
any session is still a chat the app held.

Per turn (trace), the messages are:

- the user's message: the root span's ``input.value`` (from a JSON input, its ``question``,
  ``query``, ``input`` or ``query_str`` field), else the last ``user`` message of the first
  LLM span that has one in ``llm.input_messages`` (an agent framework's root span records
  its whole workflow state, not the question);
- the assistant's tool calls: each outermost LLM span whose output message has
  ``message.tool_calls.K.tool_call.function.name`` / ``.arguments`` (a JSON string) / ``.id``
  gives an assistant message with those calls, placed when the span ended (an LLM span
  inside another is the same call seen twice, as LlamaIndex's ``achat`` wraps ``chat``).
  Each outermost TOOL span is a call's result, matched by ``tool_call.id`` or ``tool.id``
  when the span has one, else by the tool's name (``tool.name``) in call order. The result
  is what the model was given back (the ``tool`` input message of an LLM span with the call's
  id), else the span's ``output.value``: a framework often records its own result object
  there, while the model read the text. A TOOL span no LLM span asked for (a tool the app
  calls itself) is a call of its own: its arguments are ``tool_call.function.arguments``,
  else its ``input.value`` when that is a JSON object (LlamaIndex's ``{"kwargs": {...}}``
  unwrapped), else ``{"input": <the text>}``. ``tool.parameters`` is not read for arguments:
  the conventions define it as the tool's parameter schema, not the values of one call;
- the final answer: the last LLM span (by end) whose output message has text and no tool
  calls, else the root's ``output.value``. A message's text is its ``message.content``, else
  its text parts ``message.contents.K.message_content.text`` joined: a model answering in
  content blocks (LangChain's ``output_version="v1"``, Anthropic's models) writes only those,
  and reading ``message.content`` alone lost every answer of such an agent;
- the turn's contexts: the documents the trace retrieved, as ``ingest_otlp`` reads them
  (RETRIEVER spans' ``retrieval.documents.N.document.content``, a RERANKER's output documents
  winning), set on the final answer. A trace with no RETRIEVER span leaves them unset, so a
  retrieval tool (``retrieval_tools``) can supply them from its results.

Why a bad turn takes its whole conversation out: a chat missing one turn reads as a different
chat (a follow-up with nothing before it, a fact the user gave that is no longer there), and
knowledge retention or per-turn answers scored on it look right and are wrong. The bad trace
is named as ``ingest_otlp`` names one, and its session is named once more as left out. A bad
span is attributed to a session through its trace's other spans; when none of them carries
the session id, the problem is still named but its session cannot be.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from ragmeter.conversations import ConversationSample, Message, ToolCall, tool_arguments
from ragmeter.errors import InvalidInput
from ragmeter.traces._otlp import Malformed, Span, read_spans
from ragmeter.traces._problems import InputProblem, ProblemHandler, describe, log_problem, trace_problems
from ragmeter.traces._traces import (distinct_spans, indexed, input_messages, message_text, question_of_trace,
                                     retrieved_documents, text_of, trace_root, within)

SESSION_ATTRIBUTES = ("session.id", "gen_ai.conversation.id", "conversation.id")
"""Span attributes naming the conversation a trace belongs to, the first found winning."""
SESSION_METADATA_KEYS = ("session_id", "thread_id", "conversation_id")
"""Keys of a span's ``metadata`` JSON naming it, read when no attribute does."""
ANSWER_KEYS = ("answer", "response", "output", "text", "content")


def session_of_span(span: Span) -> str | None:
    """The session id a span carries (see the module's list), or None."""
    for key in SESSION_ATTRIBUTES:
        value = span.attributes.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return str(value)
    metadata = span.attributes.get("metadata")
    if isinstance(metadata, str) and metadata.lstrip().startswith("{"):
        try:
            metadata = json.loads(metadata)
        except (ValueError, RecursionError):
            return None
    if isinstance(metadata, dict):
        for key in SESSION_METADATA_KEYS:
            value = metadata.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
                return str(value)
    return None


def session_of_trace(spans: Sequence[Span]) -> str | None:
    """The session id of a trace: its root's, else that of its earliest span carrying one."""
    if not spans:
        return None
    root = trace_root(list(spans))
    for span in [root, *sorted(spans, key=lambda s: s.start)]:
        if (session := session_of_span(span)) is not None:
            return session
    return None


def _arguments(value: Any, attribute: str, span: Span) -> dict[str, Any]:
    """A call's arguments read by the conversations' one reader; its ``InvalidInput`` becomes
    ``Malformed`` here, naming the span too, so the problem reports the trace and span it came from."""
    try:
        return tool_arguments(value, attribute)
    except InvalidInput as exc:
        raise Malformed(attribute, getattr(exc, "detail", str(exc)), span=span.span_id) from None


def _output_message(span: Span) -> tuple[str, list[ToolCall]]:
    """The text and tool calls of an LLM span's first output message."""
    content = message_text(indexed(span, "llm.output_messages").get(0, {}))
    calls = []
    prefix = "llm.output_messages.0.message.tool_calls"
    for k, call in indexed(span, prefix).items():
        where = f"{prefix}.{k}.tool_call"
        name = call.get("tool_call.function.name")
        if not isinstance(name, str) or not name.strip():
            raise Malformed(f"{where}.function.name", f"a tool call needs the tool's name, got {describe(name)}",
                            span=span.span_id)
        call_id = call.get("tool_call.id")
        calls.append(ToolCall(name=name, id=str(call_id) if call_id is not None else None,
                              arguments=_arguments(call.get("tool_call.function.arguments"),
                                                   f"{where}.function.arguments", span)))
    return (content if isinstance(content, str) else ""), calls


def _tool_span_call(span: Span) -> ToolCall:
    """The call a TOOL span made when no LLM span asked for it."""
    name = span.attributes.get("tool.name")
    name = name if isinstance(name, str) and name.strip() else span.name
    if not name.strip():
        raise Malformed("tool.name", "a TOOL span needs the tool's name (tool.name or the span's name)",
                        span=span.span_id)
    if span.attributes.get("tool_call.function.arguments") is not None:
        arguments = _arguments(span.attributes["tool_call.function.arguments"], "tool_call.function.arguments", span)
    else:
        given = span.attributes.get("input.value")
        try:
            parsed = json.loads(given) if isinstance(given, str) else given
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, dict) and set(parsed) <= {"args", "kwargs"} and isinstance(parsed.get("kwargs"), dict) \
                and not parsed.get("args"):
            arguments = parsed["kwargs"]  # a Python tool's bound call, as LlamaIndex records it
        elif isinstance(parsed, dict):
            arguments = parsed
        else:
            arguments = {"input": given} if isinstance(given, str) and given.strip() else {}
    return ToolCall(name=name, arguments=arguments, id=_tool_span_id(span) or f"call_{span.span_id}")


def _tool_span_id(span: Span) -> str | None:
    for key in ("tool_call.id", "tool.id"):
        value = span.attributes.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return str(value)
    return None


def _tool_span_name(span: Span) -> str:
    name = span.attributes.get("tool.name")
    return name if isinstance(name, str) and name.strip() else span.name


def _result(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else json.dumps(value, ensure_ascii=False)


@dataclass
class TraceTurn:
    """One trace read as a turn: its messages, when it started, the session it belongs to."""

    trace_id: str
    session: str | None
    started: float  # epoch seconds
    ended: float
    messages: list[Message] = field(default_factory=list)
    service: str | None = None


def turn_of_trace(spans: list[Span]) -> TraceTurn:
    """One trace's spans as a turn of a conversation (see the module's rules); ``Malformed``
    naming the span and field when a part cannot be read."""
    spans = distinct_spans(spans)
    root = trace_root(spans)
    by_id = {s.span_id: s for s in spans}

    def inside(span: Span, kind: str) -> bool:
        return within(span, kind, by_id)

    ordered = sorted(spans, key=lambda s: s.start)
    # an LLM span inside another is the same call seen twice (achat wrapping chat)
    llms = [s for s in ordered if s.kind == "LLM" and not inside(s, "LLM")]
    user = question_of_trace(root, llms)
    if not user:
        raise Malformed("input.value", f"the root span {root.name!r} has no input.value and no LLM span a user "
                                       "message, so the turn has no question", span=root.span_id)
    # what each call returned as the model was given it, by call id: the text the assistant read
    given = {m.get("message.tool_call_id"): message_text(m) for span in llms for m in input_messages(span)
             if m.get("message.role") == "tool" and m.get("message.tool_call_id") is not None}
    # (time, order, messages): an LLM's calls when it ended, a tool the app called itself when it started
    steps: list[tuple[int, int, list[Message]]] = []
    asked: list[tuple[ToolCall, list[Message]]] = []  # each call an LLM made, with where its result goes
    answer: tuple[int, str] | None = None
    for span in llms:
        content, calls = _output_message(span)
        if calls:
            results: list[Message] = []
            steps.append((span.end, len(steps), [Message(role="assistant", content=content, tool_calls=calls)]))
            steps.append((span.end, len(steps), results))
            asked.extend((call, results) for call in calls)
        elif content.strip() and (answer is None or span.end >= answer[0]):
            answer = (span.end, content)
    answered: set[int] = set()
    for span in (s for s in ordered if s.kind == "TOOL" and not inside(s, "TOOL")):
        call_id, name = _tool_span_id(span), _tool_span_name(span)
        match = next((k for k, (c, _) in enumerate(asked) if k not in answered and call_id and c.id == call_id), None)
        if match is None:
            match = next((k for k, (c, _) in enumerate(asked) if k not in answered and c.name == name), None)
        result = _result(span.attributes.get("output.value"))
        if match is not None:
            answered.add(match)
            call, results = asked[match]
            shown = given.get(call.id) if call.id is not None else None
            results.append(Message(role="tool", content=_result(shown) if shown is not None else result,
                                   tool_call_id=call.id, name=call.name))
            continue
        own = _tool_span_call(span)
        steps.append((span.start, len(steps), [Message(role="assistant", tool_calls=[own]),
                                               Message(role="tool", content=result, tool_call_id=own.id,
                                                       name=own.name)]))
    for k, (call, results) in enumerate(asked):  # a call no TOOL span answered
        if k not in answered and call.id is not None and call.id in given:
            results.append(Message(role="tool", content=_result(given[call.id]), tool_call_id=call.id,
                                   name=call.name))
    messages = [Message(role="user", content=user)]
    for _, _, step in sorted(steps, key=lambda s: (s[0], s[1])):
        messages.extend(step)
    reply = answer[1] if answer else text_of(root.attributes.get("output.value"), ANSWER_KEYS)
    if reply:
        retrieves = any(s.kind in ("RETRIEVER", "RERANKER") for s in spans)
        contexts = [content for content, _ in retrieved_documents(spans)] if retrieves else None
        messages.append(Message(role="assistant", content=reply, contexts=contexts))
    return TraceTurn(trace_id=root.trace_id, session=session_of_trace(spans), started=root.start / 1e9,
                     ended=max(s.end for s in spans) / 1e9, messages=messages, service=root.service)


def conversations_from_spans(spans: Iterable[Span], on_problem: ProblemHandler | None = None,
                             skip: Container[str] = (), *,
                             retrieval_tools: Sequence[str] = ()) -> Iterator[ConversationSample]:
    """A ``ConversationSample`` per session (a trace with no session id: one of its own), in
    the order the conversations started, their turns in the order the traces started.

    A trace in ``skip`` (one of its spans was malformed, and named as it was read) or one
    that cannot be read as a turn (reported to ``on_problem``, default a warning) takes its
    conversation out with it, and the conversation is named as left out. ``retrieval_tools``
    names tools whose results are a turn's contexts when it has no RETRIEVER span."""
    report = on_problem or log_problem
    traces: dict[str, list[Span]] = defaultdict(list)
    for span in spans:
        traces[span.trace_id].append(span)
    turns: dict[str, list[TraceTurn]] = defaultdict(list)
    broken: dict[str, list[str]] = defaultdict(list)
    for trace_id, members in traces.items():
        if trace_id in skip:
            session = session_of_trace(members)
            if session is not None:
                broken[session].append(trace_id)
            continue
        try:
            turn = turn_of_trace(members)
        except Malformed as error:
            report(InputProblem(trace=trace_id, span=error.span, field=error.field, message=error.message,
                                session=session_of_trace(members)))
            session = session_of_trace(members)
            if session is not None:
                broken[session].append(trace_id)
            continue
        turns[turn.session or turn.trace_id].append(turn)
    for session, traces_out in broken.items():
        bad = ", ".join(traces_out[:3]) + (", ..." if len(traces_out) > 3 else "")
        report(InputProblem(session=session, message=f"conversation left out whole: its turn(s) in trace(s) {bad} "
                                                     "could not be read (named above), and a chat missing a turn "
                                                     "would score as a different chat"))
    conversations = []
    for session, session_turns in turns.items():
        if session in broken:
            continue
        session_turns.sort(key=lambda t: (t.started, t.trace_id))
        first = session_turns[0]
        metadata: dict[str, Any] = {"started": first.started, "ended": max(t.ended for t in session_turns),
                                    "traces": [t.trace_id for t in session_turns]}
        if first.session is not None:
            metadata["session_id"] = first.session
        if first.service:
            metadata["service"] = first.service
        try:
            conversations.append(ConversationSample.model_validate({
                "id": session, "messages": [m for t in session_turns for m in t.messages],
                "retrieval_tools": list(retrieval_tools), "metadata": metadata}))
        except InvalidInput as exc:
            report(InputProblem(session=session, field=getattr(exc, "field", None),
                                message=getattr(exc, "detail", str(exc))))
    conversations.sort(key=lambda c: c.metadata["started"])
    yield from conversations


def ingest_otlp_conversations(source: str | Path | dict[str, Any] | list[Any], on_problem: ProblemHandler | None = None,
                              *, retrieval_tools: Sequence[str] = ()) -> Iterator[ConversationSample]:
    """A ``ConversationSample`` per session in ``source`` (OTLP JSON file, JSON Lines, or
    request dicts); see ``conversations_from_spans``. Each malformed part is reported to
    ``on_problem`` (default: a warning) and skipped, with the conversation it belongs to."""
    noted, bad_traces = trace_problems(source, on_problem)
    return conversations_from_spans(read_spans(source, noted), noted, skip=bad_traces,
                                    retrieval_tools=retrieval_tools)


SESSION_PROBE_SPANS = 1_000
"""Spans read to tell a chat's traffic from single questions. An instrumented chat app puts its
session id on every turn's spans, so the first spans tell; reading to the end of a file with
none parsed every single-question file twice (once here, once for its samples)."""


def has_sessions(source: str | Path | dict[str, Any] | list[Any]) -> bool:
    """Whether a span among the first ``SESSION_PROBE_SPANS`` of ``source`` carries a session
    id (problems are not reported here: the read that follows names them)."""
    spans = islice(read_spans(source, lambda problem: None), SESSION_PROBE_SPANS)
    return any(session_of_span(span) is not None for span in spans)
