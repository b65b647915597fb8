"""Building blocks of OTLP/JSON traces for the trace-ingestion tests: the malformed spans
that once ended `ragmeter ingest` and `monitor` in a traceback, and the real spans an
instrumented app writes (``instrumented``), encoded as an exporter sends them
(``otlp_json``). OpenTelemetry is imported only by those two, so a test file needing none of
it runs without the SDK."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

DEEP = 100_000
"""How deep the "deep JSON" kind nests its array (deeper than Python's recursion limit)."""

MALFORMED_KINDS = ("no traceId", "start not an integer", "attribute without key", "attributes a dict",
                   "null value", "parent cycle", "deep JSON")


def attr(key: str, value: str) -> dict[str, Any]:
    return {"key": key, "value": {"stringValue": value}}


def trace_id(i: int) -> str:
    return f"{i:032x}"


def break_root(spans: list[dict[str, Any]], kind: str, *, start: str, cycle_to: str) -> list[dict[str, Any]]:
    """``spans`` with the root (first) span broken as ``kind`` says: ``start`` is the start time
    that is not an integer, ``cycle_to`` the span id the root's parent becomes. A value the JSON
    encoder cannot write (the deep array) is the placeholder "DEEP", replaced in the text."""
    root = spans[0]
    if kind == "no traceId":
        del root["traceId"]
    elif kind == "start not an integer":
        root["startTimeUnixNano"] = start
    elif kind == "attribute without key":
        del root["attributes"][1]["key"]
    elif kind == "attributes a dict":
        root["attributes"] = {"input.value": "When?"}
    elif kind == "null value":
        root["attributes"][1]["value"] = None
    elif kind == "parent cycle":
        root["parentSpanId"] = cycle_to
    elif kind == "deep JSON":
        root["attributes"].append({"key": "deep", "value": "DEEP"})
    else:
        raise ValueError(kind)
    return spans


def otlp_json(spans: Any, *, hex_ids: bool = False) -> dict[str, Any]:
    """What an OTLP exporter sends: ExportTraceServiceRequest in protobuf's JSON mapping
    (base64 ids), or with hex ids as OTLP/JSON and the Collector's file exporter write them."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    data: dict[str, Any] = MessageToDict(encode_spans(spans))
    if hex_ids:
        for rs in data["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for span in ss["spans"]:
                    for key in ("traceId", "spanId", "parentSpanId"):
                        if key in span:
                            span[key] = base64.b64decode(span[key]).hex()
    return data


@contextmanager
def instrumented(instrumentor: Any) -> Iterator[Any]:
    """The spans an OpenInference ``instrumentor`` (``LangChainInstrumentor()``,
    ``LlamaIndexInstrumentor()``) records while the block runs, in an in-memory exporter
    (``.get_finished_spans()``). The instrumentation is removed on the way out, failed or
    not: an instrumented framework would otherwise trace every later test of the session."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    instrumentor.instrument(tracer_provider=provider)
    try:
        yield exporter
    finally:
        instrumentor.uninstrument()


def bag_of_words_embedding(vocabulary: list[str]) -> Any:
    """A LlamaIndex embedding that marks which ``vocabulary`` words a text holds: a real (if
    plain) embedding, offline and exact, for the instrumented LlamaIndex apps of the tests."""
    import re

    from llama_index.core.base.embeddings.base import BaseEmbedding

    class BagOfWords(BaseEmbedding):
        def _vector(self, text: str) -> list[float]:
            found = set(re.findall(r"[a-z]+", text.lower()))
            return [1.0 if w in found else 0.0 for w in vocabulary]

        def _get_text_embedding(self, text: str) -> list[float]:
            return self._vector(text)

        def _get_query_embedding(self, query: str) -> list[float]:
            return self._vector(query)

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._vector(query)

    return BagOfWords()
