"""Building blocks of OTLP/JSON traces for the trace-ingestion tests, and the malformed spans
that once ended `ragmeter ingest` and `monitor` in a traceback."""

from __future__ import annotations

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
