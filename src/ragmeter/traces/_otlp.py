"""OTLP JSON traces read into plain spans.

Accepted: a file holding one ``ExportTraceServiceRequest`` as JSON (``{"resourceSpans":
[...]}``), JSON Lines of them (the OpenTelemetry Collector's file exporter), or a list of
them. Span and trace ids are kept as the strings they are: hex in OTLP/JSON proper, base64
in protobuf's generic JSON mapping; either links parents to children the same way.

Why every field is checked here, by type: a span read loosely fails later and far away (a
``KeyError`` for a missing ``traceId``, a ``TypeError`` for attributes written as an object)
and takes the whole file with it, or worse, passes: a ``stringValue`` of ``null`` would
become an answer of ``None``. So each span is checked as it is read, and a bad one becomes
one ``InputProblem`` naming its trace, its span (or its place in the request when it has
no usable id), the field and what was wrong; the reader goes on with the next span.
``ingest_otlp`` then leaves out the whole trace of a bad span: a trace missing its
retriever or LLM span gives a sample that looks right and scores wrong.

What is accepted as absent, as protobuf's JSON mapping allows: a missing or ``null``
``parentSpanId``, ``name``, time or ``attributes``; an attribute with no ``value`` (an empty
``AnyValue``). What is not: a missing or empty trace or span id, an attribute with no key,
an attribute whose value is ``null`` or not an ``AnyValue`` object, a time that is not a
whole number of nanoseconds, a value nested deeper than ``MAX_VALUE_DEPTH`` levels, and
text that is not valid UTF-8.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ragmeter.traces._json import loads
from ragmeter.traces._problems import InputProblem, ProblemHandler, bad_text, describe, log_problem, not_json
from ragmeter.traces._text import read_text, undecodable

MAX_VALUE_DEPTH = 32
"""Levels of ``arrayValue`` / ``kvlistValue`` an attribute may nest. OpenInference writes
flat attributes; a deeper value is a broken or hostile file, and following it would end in a
RecursionError."""

_INTEGER = re.compile(r"-?[0-9]{1,20}")
_DOUBLE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|NaN|-?Infinity")
_INT64 = (-(2**63), 2**63 - 1)
_UINT64 = (0, 2**64 - 1)


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


class Malformed(ValueError):
    """A field of a span or request that is not what OTLP JSON says it is."""

    def __init__(self, field: str | None, message: str, *, span: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
        self.span = span


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise Malformed(field, f"expected a string, got {describe(value)}")
    if (why := bad_text(value)) is not None:
        raise Malformed(field, why)
    return value


def _identifier(span: dict[str, Any], name: str) -> str:
    if name not in span:
        raise Malformed(name, "missing")
    value = span[name]
    if not isinstance(value, str) or not value:
        raise Malformed(name, f"expected a non-empty string, got {describe(value)}")
    return _text(value, name)


def _integer(value: Any, field: str, bounds: tuple[int, int], what: str = "an integer") -> int:
    if isinstance(value, str) and _INTEGER.fullmatch(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(field, f"expected {what}, got {describe(value)}")
    if not bounds[0] <= value <= bounds[1]:
        raise Malformed(field, f"expected {what} from {bounds[0]} to {bounds[1]}, got {describe(value)}")
    return value


def _double(value: Any, field: str) -> float:
    if isinstance(value, str) and _DOUBLE.fullmatch(value):
        return float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Malformed(field, f"expected a number, got {describe(value)}")
    return float(value)


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Malformed(field, f"expected an object, got {describe(value)}")
    return value


def _list(value: Any, field: str, what: str = "a list") -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Malformed(field, f"expected {what}, got {describe(value)}")
    return value


def attribute_value(value: Any, field: str = "value", depth: int = 0, top: str | None = None) -> Any:
    """The Python value of an OTLP ``AnyValue``; ``Malformed`` naming the field when
    ``value`` is not one. ``top`` is the field a too-deep value is reported under."""
    top = top or field
    if depth > MAX_VALUE_DEPTH:
        raise Malformed(top, f"nested deeper than {MAX_VALUE_DEPTH} levels")
    if not isinstance(value, dict):
        raise Malformed(field, f"expected an AnyValue object, got {describe(value)}")
    if "stringValue" in value:
        return _text(value["stringValue"], f"{field}.stringValue")
    if "intValue" in value:
        return _integer(value["intValue"], f"{field}.intValue", _INT64)  # int64 is a string in OTLP JSON
    if "doubleValue" in value:
        return _double(value["doubleValue"], f"{field}.doubleValue")
    if "boolValue" in value:
        if not isinstance(value["boolValue"], bool):
            raise Malformed(f"{field}.boolValue", f"expected true or false, got {describe(value['boolValue'])}")
        return value["boolValue"]
    if "arrayValue" in value:
        here = f"{field}.arrayValue"
        values = _list(_object(value["arrayValue"], here).get("values"), f"{here}.values")
        return [attribute_value(v, f"{here}.values[{i}]", depth + 1, top) for i, v in enumerate(values)]
    if "kvlistValue" in value:
        here = f"{field}.kvlistValue"
        return attributes(_object(value["kvlistValue"], here).get("values"), f"{here}.values", depth + 1, top)
    if "bytesValue" in value:
        return _text(value["bytesValue"], f"{field}.bytesValue")  # base64, kept as it is
    return None  # an empty AnyValue, or a kind of value newer than this reader


def attributes(items: Any, field: str = "attributes", depth: int = 0, top: str | None = None) -> dict[str, Any]:
    """A list of OTLP ``KeyValue`` as a dict; ``Malformed`` naming the field when it is not one."""
    found: dict[str, Any] = {}
    for i, item in enumerate(_list(items, field, "a list of key-value objects")):
        here = f"{field}[{i}]"
        if not isinstance(item, dict):
            raise Malformed(here, f"expected a key-value object, got {describe(item)}")
        if "key" not in item:
            raise Malformed(f"{here}.key", "missing")
        key = item["key"]
        if not isinstance(key, str) or not key:
            raise Malformed(f"{here}.key", f"expected a non-empty string, got {describe(key)}")
        _text(key, f"{here}.key")
        if "value" not in item:
            found[key] = None  # an empty AnyValue
        elif item["value"] is None:
            raise Malformed(f"{here}.value", f"expected an AnyValue object, got null (attribute {key!r})")
        else:
            found[key] = attribute_value(item["value"], f"{here}.value", depth, top or f"{here}.value")
    return found


def span_of(raw: Any, service: str | None = None) -> Span:
    """One OTLP span object as a ``Span``; ``Malformed`` naming the first bad field."""
    if not isinstance(raw, dict):
        raise Malformed(None, f"expected a span object, got {describe(raw)}")
    for name in raw:
        if (why := bad_text(name)) is not None:
            raise Malformed(None, f"a field name holds {why}")
    trace_id = _identifier(raw, "traceId")
    span_id = _identifier(raw, "spanId")
    parent = raw.get("parentSpanId")
    name = raw.get("name")
    times = [0 if raw.get(key) is None else _integer(raw[key], key, _UINT64, "an integer (nanoseconds since the epoch)")
             for key in ("startTimeUnixNano", "endTimeUnixNano")]
    return Span(
        trace_id=trace_id,
        span_id=span_id,
        parent_id=_text(parent, "parentSpanId") if parent else None,
        name=_text(name, "name") if name is not None else "",
        start=times[0],
        end=times[1],
        attributes=attributes(raw.get("attributes")),
        service=service,
    )


def _usable_id(raw: Any, name: str) -> str | None:
    """The span's ``name`` id, if it is one, to name a bad span by."""
    value = raw.get(name) if isinstance(raw, dict) else None
    return value if isinstance(value, str) and value and bad_text(value) is None else None


def _field(container: dict[str, Any], *names: str) -> Any:
    """The first of ``names`` (camelCase, then protobuf's snake_case) the container has."""
    for name in names:
        if name in container:
            return container[name]
    return None


def spans_of_request(request: Any, on_problem: ProblemHandler | None = None, *, source: str | None = None,
                     line: int | None = None, where: str = "") -> Iterator[Span]:
    """The spans of one ``ExportTraceServiceRequest`` (as a dict). A malformed part is
    reported to ``on_problem`` (default: a warning) and skipped; ``source``, ``line`` and
    ``where`` (a prefix of the place in the request) say where it came from."""
    report = on_problem or log_problem

    def problem(path: str | None, error: Malformed, **ids: str | None) -> None:
        report(InputProblem(source=source, line=line, path=path, field=error.field, message=error.message, **ids))

    if (why := _not_a_request(request)) is not None:
        problem(where.rstrip(".") or None, Malformed(None, why))
        return
    try:
        resources = _list(_field(request, "resourceSpans", "resource_spans"), "resourceSpans")
    except Malformed as error:
        problem(where.rstrip(".") or None, error)
        return
    for r, resource_spans in enumerate(resources):
        here = f"{where}resourceSpans[{r}]"
        try:
            resource_spans = _object(resource_spans, "")
            scopes = _list(_field(resource_spans, "scopeSpans", "scope_spans"), "scopeSpans")
        except Malformed as error:
            problem(here, Malformed(error.field or None, error.message))
            continue
        service = None
        try:
            resource = resource_spans.get("resource")
            found = attributes(_object(resource, "resource").get("attributes"), "resource.attributes") \
                if resource is not None else {}
            service = found.get("service.name") if isinstance(found.get("service.name"), str) else None
        except Malformed as error:
            problem(here, Malformed(error.field, f"{error.message}; the resource's attributes are ignored"))
        for s, scope_spans in enumerate(scopes):
            scope_here = f"{here}.scopeSpans[{s}]"
            try:
                spans = _list(_object(scope_spans, "").get("spans"), "spans")
            except Malformed as error:
                problem(scope_here, Malformed(error.field or None, error.message))
                continue
            for n, raw in enumerate(spans):
                try:
                    span = span_of(raw, service)
                except Malformed as error:
                    problem(f"{scope_here}.spans[{n}]", error, trace=_usable_id(raw, "traceId"),
                            span=_usable_id(raw, "spanId"))
                    continue
                yield span


def _not_a_request(value: Any) -> str | None:
    """Why a parsed JSON value is not an export request, or None when it is one."""
    if not isinstance(value, dict):
        return f"expected an export request object, got {describe(value)}"
    if "resourceSpans" not in value and "resource_spans" not in value:
        return "not an OTLP export request (no 'resourceSpans')"
    return None


def requests_in_text(text: str, source: str, report: ProblemHandler) -> Iterator[tuple[int | None, str, Any]]:
    """``(line, place, request)`` for each export request in a file's text: the whole text
    when it is one JSON document (a request, or a list of them), else each line (JSON
    Lines). A line that is not JSON or not a request is reported and skipped, the others
    are read. When no line is a request the file is reported once, as a whole: a broken
    document or a file of something else, not hundreds of bad lines."""
    try:
        whole = loads(text)
    except ValueError as exc:
        whole_error = exc
    else:
        if isinstance(whole, list):
            for i, request in enumerate(whole):
                yield None, f"[{i}].", request
        else:
            yield None, "", whole
        return
    waiting: list[InputProblem] = []  # problems of the lines before the first request
    seen_request = False
    for number, line in enumerate(text.split("\n"), start=1):  # not splitlines: U+2028 may sit in a string
        if not line.strip():
            continue
        try:
            request = loads(line)
        except ValueError as exc:
            broken = InputProblem(source=source, line=number, message=not_json(exc, whole=False) + (
                f"; {bad}" if (bad := bad_text(line)) else ""))
            if seen_request:
                report(broken)
            else:
                waiting.append(broken)
            continue
        if not seen_request and (why := _not_a_request(request)) is not None:
            waiting.append(InputProblem(source=source, line=number, message=why))
            continue
        if not seen_request:
            seen_request = True
            for problem in waiting:
                report(problem)
        yield number, "", request
    if seen_request or not waiting:
        return
    if len(waiting) == 1:
        report(waiting[0])
    elif isinstance(whole_error, json.JSONDecodeError) and whole_error.msg != "Extra data":
        report(InputProblem(source=source, message=not_json(whole_error, whole=True)))  # one broken document
    else:  # JSON Lines of something else
        report(InputProblem(source=source, message="not OTLP JSON: no line is an export request (no 'resourceSpans')"))


def read_spans(source: str | Path | dict[str, Any] | list[Any],
               on_problem: ProblemHandler | None = None) -> Iterator[Span]:
    """Every span in ``source``: a path (JSON or JSON Lines), a request dict or a list of them.
    A malformed line or span is reported to ``on_problem`` (default: a warning) and skipped."""
    report = on_problem or log_problem
    if isinstance(source, dict):
        yield from spans_of_request(source, report)
        return
    if isinstance(source, list):
        for i, request in enumerate(source):
            yield from spans_of_request(request, report, where=f"[{i}].")
        return
    path = Path(source)
    try:
        text = read_text(path)
    except OSError as exc:
        report(InputProblem(source=str(path), message=f"cannot be read ({exc.strerror or exc})"))
        return
    except UnicodeDecodeError as exc:
        report(InputProblem(source=str(path), message=undecodable(exc)))
        return
    for line, where, request in requests_in_text(text, str(path), report):
        yield from spans_of_request(request, report, source=str(path), line=line, where=where)
