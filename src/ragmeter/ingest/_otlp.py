"""OTLP JSON traces read into plain spans.

Accepted: a file holding one ``ExportTraceServiceRequest`` as JSON (``{"resourceSpans":
[...]}``), JSON Lines of them (the OpenTelemetry Collector's file exporter), or a list of
them. Span and trace ids are kept as the strings they are: hex in OTLP/JSON proper, base64
in protobuf's generic JSON mapping; either links parents to children the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from ragmeter.errors import RagmeterError


@dataclass
class Span:
    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    start: int  # ns since the epoch
    end: int
    attributes: dict[str, Any] = field(default_factory=dict)
    service: str | None = None

    @property
    def kind(self) -> str | None:
        """The OpenInference span kind (CHAIN, RETRIEVER, LLM, RERANKER...), upper case."""
        kind = self.attributes.get("openinference.span.kind")
        return str(kind).upper() if kind else None


class TraceFileError(RagmeterError, ValueError):
    """A trace file that is not OTLP JSON; the message names the file and line."""


def attribute_value(value: dict[str, Any]) -> Any:
    """The Python value of an OTLP ``AnyValue``."""
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        return int(value["intValue"])  # int64 is a string in OTLP JSON
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "arrayValue" in value:
        return [attribute_value(v) for v in value["arrayValue"].get("values", [])]
    if "kvlistValue" in value:
        return {kv["key"]: attribute_value(kv.get("value", {})) for kv in value["kvlistValue"].get("values", [])}
    if "bytesValue" in value:
        return value["bytesValue"]
    return None


def _attributes(items: Iterable[dict[str, Any]]) -> dict[str, Any]:
    return {item["key"]: attribute_value(item.get("value", {})) for item in items or []}


def spans_of_request(request: dict[str, Any]) -> Iterator[Span]:
    """The spans of one ``ExportTraceServiceRequest`` (as a dict)."""
    for resource_spans in request.get("resourceSpans", request.get("resource_spans", [])):
        resource = _attributes((resource_spans.get("resource") or {}).get("attributes", []))
        service = resource.get("service.name")
        for scope_spans in resource_spans.get("scopeSpans", resource_spans.get("scope_spans", [])):
            for span in scope_spans.get("spans", []):
                yield Span(
                    trace_id=span["traceId"],
                    span_id=span["spanId"],
                    parent_id=span.get("parentSpanId") or None,
                    name=span.get("name", ""),
                    start=int(span.get("startTimeUnixNano", 0)),
                    end=int(span.get("endTimeUnixNano", 0)),
                    attributes=_attributes(span.get("attributes", [])),
                    service=service,
                )


def read_spans(source: str | Path | dict[str, Any] | list[Any]) -> Iterator[Span]:
    """Every span in ``source``: a path (JSON or JSON Lines), a request dict or a list of them."""
    if isinstance(source, dict):
        yield from spans_of_request(source)
        return
    if isinstance(source, list):
        for request in source:
            yield from spans_of_request(request)
        return
    path = Path(source)
    text = path.read_text(encoding="utf-8")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if whole is not None:
        if not isinstance(whole, (dict, list)) or (isinstance(whole, dict) and "resourceSpans" not in whole
                                                  and "resource_spans" not in whole):
            raise TraceFileError(f"{path}: not OTLP JSON (no 'resourceSpans')")
        yield from read_spans(whole)
        return
    for number, line in enumerate(text.splitlines(), start=1):  # JSON Lines
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceFileError(f"{path}, line {number}: not JSON ({exc.msg})") from None
        if not isinstance(request, dict) or "resourceSpans" not in request:
            raise TraceFileError(f"{path}, line {number}: not an OTLP export request (no 'resourceSpans')")
        yield from spans_of_request(request)
