"""Production traces into evaluation samples.

    from ragmeter.traces import ingest_otlp
    records = list(ingest_otlp("traces.json"))     # OTLP JSON from OpenInference instrumentations

or record straight from the app with a callback handler that writes the same records::

    from ragmeter.traces import langchain_handler, llamaindex_handler
    chain.invoke(q, config={"callbacks": [langchain_handler("traffic.jsonl")]})
    Settings.callback_manager = CallbackManager([llamaindex_handler("traffic.jsonl")])

Chats: the traces of one session (``session.id``, see ``ingest_otlp_conversations``) become
one ``ConversationSample``, a trace per turn, tool spans as tool calls and retriever spans as
the turn's contexts::

    from ragmeter.traces import ingest_otlp_conversations
    chats = list(ingest_otlp_conversations("traces.json"))

A record has ``id``, ``question``, ``answer``, ``contexts`` (rank order), optionally
``retrieved_context_ids``, and ``metadata.started`` (epoch seconds), which ``ragmeter
monitor`` uses to pick a window of traffic.

A malformed part of the input (a line that is not JSON, a span without a trace id, an
attribute without a key, a cycle of parents...) is named and skipped, with the whole trace
it belongs to, and the good traces are read on: each problem goes to ``on_problem`` (by
default a warning naming file, line, trace, span and field); pass ``raise_problem`` to stop
at the first instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragmeter.traces._otlp import Span, read_spans
from ragmeter.traces._problems import InputProblem, ProblemHandler, TraceFileError, log_problem, raise_problem
from ragmeter.traces._records import RecordFile
from ragmeter.traces._sessions import (conversations_from_spans, has_sessions, ingest_otlp_conversations,
                                       session_of_span)
from ragmeter.traces._traces import ingest_otlp, sample_of_trace, samples_from_spans
from ragmeter.traces._traffic import (read_conversation_traffic_file, read_records, read_traffic_file,
                                      traffic_has_sessions)


def langchain_handler(path: str | Path, **options: Any) -> Any:
    """A LangChain callback handler appending a record per answered question to ``path``."""
    from ragmeter.traces._langchain import RagmeterCallbackHandler

    return RagmeterCallbackHandler(path, **options)


def llamaindex_handler(path: str | Path, **options: Any) -> Any:
    """A LlamaIndex callback handler appending a record per answered query to ``path``."""
    from ragmeter.traces._llamaindex import RagmeterLlamaIndexHandler

    return RagmeterLlamaIndexHandler(path, **options)


__all__ = ["InputProblem", "ProblemHandler", "RecordFile", "Span", "TraceFileError", "conversations_from_spans",
           "has_sessions", "ingest_otlp", "ingest_otlp_conversations", "langchain_handler", "llamaindex_handler",
           "log_problem", "raise_problem", "read_conversation_traffic_file", "read_records", "read_spans", "read_traffic_file", "sample_of_trace",
           "samples_from_spans", "session_of_span", "traffic_has_sessions"]
