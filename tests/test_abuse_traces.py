"""Abused traffic through the real CLI: 50 good traces with, mixed in among them, one
malformed span of each kind that used to end `ragmeter ingest` and `ragmeter monitor` in a
traceback (no traceId, a start time that is not an integer, an attribute without key,
attributes as an object, a null value, a cycle of parents, JSON nested 100,000 deep), bad
JSON Lines (truncated, not OTLP, not an object, not JSON), a UTF-8 byte order mark and bytes
that are not UTF-8. Every good trace must be written and scored, every bad part named.

No network: the local judge scores; the models are the bundled ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.runs import RunStore

from otlp_spans import DEEP, attr, break_root, trace_id

GOOD = 50


def trace(i: int) -> list[dict[str, Any]]:
    """A question answered from one retrieved document, as OpenInference records it."""
    start = (1_700_000_000 + i) * 1_000_000_000
    fact = f"Station {i} opened in {1900 + i}."
    return [
        {"traceId": trace_id(i), "spanId": f"root{i}", "name": "chain", "startTimeUnixNano": str(start),
         "endTimeUnixNano": str(start + 9), "attributes": [
             attr("openinference.span.kind", "CHAIN"), attr("input.value", f"When did station {i} open?")]},
        {"traceId": trace_id(i), "spanId": f"ret{i}", "parentSpanId": f"root{i}", "name": "retriever",
         "startTimeUnixNano": str(start + 1), "endTimeUnixNano": str(start + 2), "attributes": [
             attr("openinference.span.kind", "RETRIEVER"),
             attr("retrieval.documents.0.document.content", f"{fact} It stands in the north of the city."),
             attr("retrieval.documents.1.document.content", "Unrelated text about the weather.")]},
        {"traceId": trace_id(i), "spanId": f"llm{i}", "parentSpanId": f"root{i}", "name": "llm",
         "startTimeUnixNano": str(start + 3), "endTimeUnixNano": str(start + 8), "attributes": [
             attr("openinference.span.kind", "LLM"), attr("llm.output_messages.0.message.content", fact)]},
    ]


def broken(kind: str, i: int) -> list[Any]:
    """Trace ``i`` with its root span broken as ``kind`` says ("DEEP" stands for the deep array)."""
    return break_root(trace(i), kind, start="12:00", cycle_to=f"llm{i}")


KINDS = {  # kind -> what its line on stderr names
    "no traceId": "span root101, field 'traceId': missing",
    "start not an integer": "field 'startTimeUnixNano': expected an integer (nanoseconds since the epoch), got the "
                            "string '12:00'",
    "attribute without key": "field 'attributes[1].key': missing",
    "attributes a dict": "field 'attributes': expected a list of key-value objects, got an object",
    "null value": "field 'attributes[1].value': expected an AnyValue object, got null",
    "parent cycle": "field 'parentSpanId': spans root106 -> llm106 -> root106 are each other's parents (a cycle)",
    "deep JSON": "field 'attributes[2].value': expected an AnyValue object, got an array",
}


def request(spans: list[Any]) -> bytes:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}).replace(
        '"DEEP"', "[" * DEEP + "]" * DEEP).encode()


def abused_traces(path: Path) -> tuple[Path, set[str]]:
    """JSON Lines of export requests, with a byte order mark; one request holds several
    traces, good and bad, so a bad span must cost its trace and not its line."""
    lines: list[bytes] = []
    good = list(range(GOOD))
    for n, kind in enumerate(KINDS):
        lines.append(request(trace(good.pop(0)) + broken(kind, 101 + n) + trace(good.pop(0))))
        lines.append(request(trace(good.pop(0))))
    lines.insert(3, request(trace(130))[:-25])  # truncated
    lines.insert(6, b'{"nope": 1}')  # JSON, not OTLP
    lines.insert(9, b"[1, 2, 3]")  # JSON, not an object
    lines.insert(12, b"")  # blank: not a record, not a problem
    bad_byte = trace(120)
    bad_byte[1]["attributes"][1]["value"]["stringValue"] = "Caf\udce9 du Nord"  # a Latin-1 byte in UTF-8
    lines.insert(14, request(bad_byte).replace(b"Caf\\udce9", b"Caf\xe9"))
    lines.insert(16, request(trace(121)).replace(b'"name": "llm"', b'"name": \xff"llm"'))  # a bad byte in the syntax
    lines.extend(request(trace(i)) for i in good)
    path.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n")
    return path, {trace_id(i) for i in range(GOOD)}


def abused_records(path: Path) -> tuple[Path, set[str]]:
    """JSON Lines of records as the callback handlers write them, with bad lines among them."""
    records = []
    for i in range(200, 210):
        fact = f"Station {i} opened in {1900 + i - 200}."
        records.append(json.dumps({"id": f"rec{i}", "question": f"When did station {i} open?", "answer": fact,
                                   "contexts": [fact, "Unrelated text."], "metadata": {"started": 1_700_000_500.0 + i}}
                                  ).encode())
    lines = [b"\xef\xbb\xbf" + records[0], *records[1:4], records[4][:-30], b'{"question": "Q?", "answer": 42}',
             records[5].replace(b"Station", b"St\xe4tion", 1), b"not json", *records[6:]]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, {f"rec{i}" for i in (200, 201, 202, 203, 206, 207, 208, 209)}


def test_abused_traffic_loses_no_good_trace(tmp_path, minilm):
    traces, good_traces = abused_traces(tmp_path / "traces.jsonl")
    runner = CliRunner()

    done = runner.invoke(app, ["ingest", str(traces), "-o", str(tmp_path / "dataset.jsonl")])
    assert done.exit_code == 0, done.output
    assert "Traceback" not in done.output and "Error" not in done.output
    for named in KINDS.values():
        assert named in done.output.replace("\n", ""), named
    for line in (4, 7, 10, 15, 17):  # the truncated, not-OTLP, not-an-object and bad-byte lines
        assert f"{traces}, line {line}" in done.output.replace("\n", ""), line
    written = {json.loads(line)["id"] for line in (tmp_path / "dataset.jsonl").read_text(encoding="utf-8").splitlines()}
    print(f"traces written of traces good: {len(written & good_traces)}/{len(good_traces)}")
    assert written == good_traces

    records, good_records = abused_records(tmp_path / "records.jsonl")
    store = str(tmp_path / "runs.db")
    done = runner.invoke(app, ["monitor", str(traces), str(records), "-m", "faithfulness", "--judge", "local",
                               "--window", "0", "--sample", "500", "--store", store, "-q"])
    assert done.exit_code == 0, done.output
    assert "Traceback" not in done.output and "codec" not in done.output
    for line in (5, 6, 7, 8):  # truncated, a number for an answer, a bad byte, not JSON
        assert f"{records}, line {line}" in done.output.replace("\n", ""), line
    the_store = RunStore(store)
    run = the_store.list(tag="production")[0]
    scored_ids = {s.id for s in the_store.iter_samples(run.id) if s.scores["faithfulness"].value is not None}
    good = good_traces | good_records
    print(f"rows scored of rows good: {len(scored_ids & good)}/{len(good)}")
    assert f"scored {len(good)} of {len(good)} samples in the window" in done.output
    assert scored_ids == good and run.summary["faithfulness"].scored == len(good)
