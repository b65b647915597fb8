"""Production traces into evaluation samples.

    from ragmeter.ingest import ingest_otlp
    records = list(ingest_otlp("traces.json"))     # OTLP JSON from OpenInference instrumentations

or record straight from the app with a callback handler that writes the same records::

    from ragmeter.ingest import langchain_handler, llamaindex_handler
    chain.invoke(q, config={"callbacks": [langchain_handler("traffic.jsonl")]})
    Settings.callback_manager = CallbackManager([llamaindex_handler("traffic.jsonl")])

A record has ``id``, ``question``, ``answer``, ``contexts`` (rank order), optionally
``retrieved_context_ids``, and ``metadata.started`` (epoch seconds), which ``ragmeter
monitor`` uses to pick a window of traffic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from ragmeter.ingest._otlp import Span, TraceFileError, read_spans
from ragmeter.ingest._records import RecordFile
from ragmeter.ingest._traces import sample_of_trace, samples_from_spans


def ingest_otlp(source: str | Path | dict[str, Any] | list[Any]) -> Iterator[dict[str, Any]]:
    """A sample record per trace in ``source`` (OTLP JSON file, JSON Lines, or request dicts)."""
    return samples_from_spans(read_spans(source))


def langchain_handler(path: str | Path, **options: Any) -> Any:
    """A LangChain callback handler appending a record per answered question to ``path``."""
    from ragmeter.ingest._langchain import RagmeterCallbackHandler

    return RagmeterCallbackHandler(path, **options)


def llamaindex_handler(path: str | Path, **options: Any) -> Any:
    """A LlamaIndex callback handler appending a record per answered query to ``path``."""
    from ragmeter.ingest._llamaindex import RagmeterLlamaIndexHandler

    return RagmeterLlamaIndexHandler(path, **options)


__all__ = ["RecordFile", "Span", "TraceFileError", "ingest_otlp", "langchain_handler", "llamaindex_handler",
           "read_spans", "sample_of_trace", "samples_from_spans"]
