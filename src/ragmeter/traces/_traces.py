"""Traces of a RAG app turned into evaluation samples, following OpenInference's conventions:

- the question is the root span's ``input.value`` (from a JSON input, its ``question``,
  ``query``, ``input`` or ``query_str`` field), else the last user message of the first LLM
  span (an agent's root span holds its state, LangGraph's ``{"messages": [...]}``);
- the contexts are the documents of the RETRIEVER spans (``retrieval.documents.N.document.
  content``), in rank order N; a retriever inside another (ensemble, multi-query) counts
  once, with the outer one's ranking, and several outermost retrievers are joined in start
  order; a RERANKER span's output documents replace those of the retriever they rerank;
- the answer is the last LLM span's first output message (``llm.output_messages.0.message.
  content``, else its text parts ``...message.contents.K.message_content.text``, else its
  ``output.value``); with no LLM span, the root's ``output.value``.

A trace is left out, and named, when its spans contradict each other: two different spans
with one id (an identical copy, as a retried export writes, counts once), or parents that
form a cycle, so that no span is the root. Following either would pick a root and a
ranking at random, or never end.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from pathlib import Path
from typing import Any, Container, Iterable, Iterator

from ragmeter.traces._otlp import Malformed, Span, read_spans
from ragmeter.traces._problems import InputProblem, ProblemHandler, log_problem, trace_problems

log = logging.getLogger("ragmeter")

QUESTION_KEYS = ("question", "query", "input", "query_str")
MAX_INPUT_DEPTH = 8
"""Levels of ``{"input": {"input": ...}}`` followed to find the question."""


def text_of(value: Any, keys: tuple[str, ...] = QUESTION_KEYS, depth: int = 0) -> str | None:
    """A string, or from a JSON object the first of ``keys`` that holds a string. A string
    that is not JSON (or is JSON nested too deep to parse) is the text itself."""
    if value is None:
        return None
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("{"):
            try:
                value = json.loads(stripped)
            except (ValueError, RecursionError):
                return value
        else:
            return value
    if isinstance(value, dict) and depth < MAX_INPUT_DEPTH:
        for key in keys:
            if isinstance(value.get(key), str):
                return value[key]
            if isinstance(value.get(key), dict):  # {"input": {"question": ...}}
                inner = text_of(value[key], keys, depth + 1)
                if inner:
                    return inner
    return None


def _documents(span: Span, prefix: str) -> list[tuple[str, str | None]]:
    """``(content, id)`` of the span's documents under ``prefix`` in index order."""
    found: dict[int, dict[str, Any]] = defaultdict(dict)
    start = prefix + "."
    for key, value in span.attributes.items():
        if not key.startswith(start):
            continue
        index, _, rest = key[len(start):].partition(".")
        if index.isdigit() and rest in ("document.content", "document.id"):
            found[int(index)][rest] = value
    return [(str(doc["document.content"]), str(doc["document.id"]) if "document.id" in doc else None)
            for _, doc in sorted(found.items()) if "document.content" in doc]


def indexed(span: Span, prefix: str) -> dict[int, dict[str, Any]]:
    """The span's flattened list ``prefix.N.rest`` as ``{N: {rest: value}}``, N in order."""
    found: dict[int, dict[str, Any]] = defaultdict(dict)
    start = prefix + "."
    for key, value in span.attributes.items():
        if key.startswith(start):
            index, _, rest = key[len(start):].partition(".")
            if index.isdigit() and rest:
                found[int(index)][rest] = value
    return dict(sorted(found.items()))


def input_messages(span: Span) -> list[dict[str, Any]]:
    """An LLM span's input messages (``llm.input_messages.N.``), each its flattened fields."""
    return list(indexed(span, "llm.input_messages").values())


def question_of_trace(root: Span, llms: list[Span]) -> str | None:
    """What the trace was asked: the root's ``input.value`` (a JSON input's question field),
    else the last user message of the first of ``llms`` (its LLM spans in start order) that
    has one. An agent framework's root span records its whole state (LangGraph's
    ``{"messages": [...]}``, the conversation so far), which names no question; the model
    was sent the user's message."""
    question = text_of(root.attributes.get("input.value"))
    if question:
        return question
    for span in llms:
        users = [message_text(m) for m in input_messages(span) if m.get("message.role") == "user"]
        if users and users[-1] and users[-1].strip():
            return users[-1]
    return None


def message_text(message: dict[str, Any]) -> str | None:
    """The text of one flattened OpenInference message (its attributes after
    ``llm.output_messages.N.``): ``message.content``, else its text parts
    ``message.contents.K.message_content.text`` joined in order, as LangChain's ``.text``
    joins them. A model that answers in content blocks (LangChain's ``output_version="v1"``,
    Anthropic, the Responses API) has only the parts; None when there is no text at all."""
    content = message.get("message.content")
    if isinstance(content, str):
        return content
    parts: dict[int, str] = {}
    for key, value in message.items():
        index, _, rest = key.removeprefix("message.contents.").partition(".")
        if key.startswith("message.contents.") and index.isdigit() and rest == "message_content.text" \
                and isinstance(value, str) and message.get(f"message.contents.{index}.message_content.type",
                                                           "text") == "text":
            parts[int(index)] = value
    return "".join(text for _, text in sorted(parts.items())) if parts else None


def _answer(span: Span) -> str | None:
    prefix = "llm.output_messages.0."
    content = message_text({k[len(prefix):]: v for k, v in span.attributes.items() if k.startswith(prefix)})
    if content is not None:
        return content
    return text_of(span.attributes.get("output.value"), ("answer", "response", "output", "text", "content"))


def distinct_spans(spans: list[Span]) -> list[Span]:
    """The trace's spans with identical copies dropped; ``Malformed`` when two different
    spans share an id or the parents form a cycle."""
    by_id: dict[str, Span] = {}
    for span in spans:
        seen = by_id.setdefault(span.span_id, span)
        if seen is not span and seen != span:
            raise Malformed("spanId", "two different spans have this id", span=span.span_id)
    reach_a_root: set[str] = set()
    for first in by_id:
        path: list[str] = []
        on_path: set[str] = set()
        current: str | None = first
        while current is not None and current in by_id and current not in reach_a_root:
            if current in on_path:
                cycle = path[path.index(current):] + [current]
                shown = " -> ".join(cycle if len(cycle) <= 6 else [*cycle[:5], "..."])
                raise Malformed("parentSpanId", f"spans {shown} are each other's parents (a cycle)")
            path.append(current)
            on_path.add(current)
            current = by_id[current].parent_id
        reach_a_root.update(path)
    return list(by_id.values())


def trace_root(spans: list[Span]) -> Span:
    """The span with no parent in the trace (the earliest, if several lost theirs)."""
    ids = {s.span_id for s in spans}
    return min((s for s in spans if s.parent_id not in ids), key=lambda s: s.start)


def within(span: Span, kind: str, by_id: dict[str, Span]) -> bool:
    """Whether an ancestor of ``span`` (its trace's spans by id) is of OpenInference ``kind``:
    a retriever inside a retriever, an LLM call inside another, is the same work seen twice."""
    seen = set()
    parent = by_id.get(span.parent_id or "")
    while parent is not None and parent.span_id not in seen:
        if parent.kind == kind:
            return True
        seen.add(parent.span_id)
        parent = by_id.get(parent.parent_id or "")
    return False


def retrieved_documents(spans: list[Span]) -> list[tuple[str, str | None]]:
    """``(content, id)`` of the documents the trace's app used, in rank order: the outermost
    RERANKER spans' output documents when there are any, else the outermost RETRIEVER spans'
    documents, in start order."""
    by_id = {s.span_id: s for s in spans}

    def inside(span: Span, kind: str) -> bool:
        return within(span, kind, by_id)

    ordered = sorted(spans, key=lambda s: s.start)
    rerankers = [s for s in ordered if s.kind == "RERANKER" and not inside(s, "RERANKER")]
    if rerankers:  # the documents the app finally used
        return [doc for span in rerankers for doc in _documents(span, "reranker.output_documents")]
    retrievers = [s for s in ordered if s.kind == "RETRIEVER" and not inside(s, "RETRIEVER")]
    return [doc for span in retrievers for doc in _documents(span, "retrieval.documents")]


def sample_of_trace(spans: list[Span]) -> dict[str, Any]:
    """One trace's spans as a sample record (``question``, ``answer``, ``contexts``, ``id`` =
    the trace id, ``metadata`` with the trace's start time, root span and service).
    ``Malformed`` for spans that contradict each other (see ``distinct_spans``)."""
    spans = distinct_spans(spans)
    root = trace_root(spans)
    documents = retrieved_documents(spans)
    llms = sorted((s for s in spans if s.kind == "LLM"), key=lambda s: s.end)
    answer = _answer(llms[-1]) if llms else _answer(root)
    record: dict[str, Any] = {
        "id": root.trace_id,
        "question": question_of_trace(root, sorted(llms, key=lambda s: s.start)),
        "answer": answer,
        "contexts": [content for content, _ in documents],
    }
    ids = [doc_id for _, doc_id in documents]
    if ids and all(ids):
        record["retrieved_context_ids"] = ids
    record["metadata"] = {"trace_id": root.trace_id, "started": root.start / 1e9, "root_span": root.name,
                          **({"service": root.service} if root.service else {})}
    return record


def samples_from_spans(spans: Iterable[Span], on_problem: ProblemHandler | None = None,
                       skip: Container[str] = ()) -> Iterator[dict[str, Any]]:
    """A sample record per trace, in the order the traces started. A trace in ``skip`` (one
    of its spans was malformed, and named as it was read) is left out; so is a trace whose
    spans contradict each other or that has no question, reported to ``on_problem``
    (default: a warning). ``skip`` is looked at only once every span has been read."""
    report = on_problem or log_problem
    traces: dict[str, list[Span]] = defaultdict(list)
    for span in spans:
        traces[span.trace_id].append(span)
    records = []
    for trace_id, members in traces.items():
        if trace_id in skip:
            continue
        try:
            records.append(sample_of_trace(members))
        except Malformed as error:
            report(InputProblem(trace=trace_id, span=error.span, field=error.field, message=error.message))
    records.sort(key=lambda r: r["metadata"]["started"])
    for record in records:
        if not record["question"]:
            report(InputProblem(trace=record["id"], message=f"its root span {record['metadata']['root_span']!r} has no "
                                                            "input.value to use as the question, and no LLM span "
                                                            "a user message"))
            continue
        yield record


def ingest_otlp(source: str | Path | dict[str, Any] | list[Any],
                on_problem: ProblemHandler | None = None) -> Iterator[dict[str, Any]]:
    """A sample record per trace in ``source`` (OTLP JSON file, JSON Lines, or request dicts).
    Each malformed part is reported to ``on_problem`` (default: a warning) and skipped; a
    trace with a malformed span is left out whole."""
    noted, bad_traces = trace_problems(source, on_problem)
    return samples_from_spans(read_spans(source, noted), noted, skip=bad_traces)
