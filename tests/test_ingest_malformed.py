"""Malformed traces: each bad span or trace is named (file, line, trace, span, field, what is
wrong) and skipped, and every good trace is still written; ``ragmeter ingest`` never ends in
a traceback, exits 0 when it wrote the good traces and 1 when it could write nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.traces import InputProblem, TraceFileError, ingest_otlp, raise_problem

from otlp_spans import DEEP, attr, break_root, trace_id


def trace(i: int) -> list[dict[str, Any]]:
    """A root CHAIN span with the question and answer, and a RETRIEVER span under it."""
    start = (1_700_000_000 + i) * 1_000_000_000
    return [
        {"traceId": trace_id(i), "spanId": f"root{i}", "name": "chain", "startTimeUnixNano": str(start),
         "endTimeUnixNano": str(start + 9), "attributes": [
             attr("openinference.span.kind", "CHAIN"), attr("input.value", f"Question {i}?"),
             attr("output.value", f"Answer {i}.")]},
        {"traceId": trace_id(i), "spanId": f"ret{i}", "parentSpanId": f"root{i}", "name": "retriever",
         "startTimeUnixNano": str(start + 1), "endTimeUnixNano": str(start + 2), "attributes": [
             attr("openinference.span.kind", "RETRIEVER"), attr("retrieval.documents.0.document.content", f"Doc {i}.")]},
    ]


def request(spans: list[Any]) -> dict[str, Any]:
    return {"resourceSpans": [{"resource": {"attributes": [attr("service.name", "rag")]},
                               "scopeSpans": [{"spans": spans}]}]}


def deep_json(depth: int = DEEP) -> str:
    return "[" * depth + "]" * depth


def malformed(kind: str, i: int) -> list[Any]:
    """Trace ``i`` with one of its spans broken in the way ``kind`` says."""
    return break_root(trace(i), kind, start="soon", cycle_to=f"ret{i}")


KINDS = {  # kind -> (span id, field) the problem names
    "no traceId": ("root{i}", "traceId"),
    "start not an integer": ("root{i}", "startTimeUnixNano"),
    "attribute without key": ("root{i}", "attributes[1].key"),
    "attributes a dict": ("root{i}", "attributes"),
    "null value": ("root{i}", "attributes[1].value"),
    "parent cycle": (None, "parentSpanId"),
    "deep JSON": ("root{i}", "attributes[3].value"),
}
BAD = 99  # the malformed trace's number


def to_text(value: Any) -> str:
    return json.dumps(value).replace('"DEEP"', deep_json())


def collect(source: Any) -> tuple[list[dict[str, Any]], list[InputProblem]]:
    problems: list[InputProblem] = []
    return list(ingest_otlp(source, on_problem=problems.append)), problems


@pytest.mark.parametrize("kind", list(KINDS))
def test_one_malformed_span_costs_only_its_trace(kind, tmp_path):
    spans = [s for i in range(25) for s in trace(i)] + malformed(kind, BAD) + [s for i in range(25, 49) for s in trace(i)]
    path = tmp_path / "traces.json"
    path.write_text(to_text(request(spans)), encoding="utf-8")
    records, problems = collect(path)
    assert [r["id"] for r in records] == [trace_id(i) for i in range(49)]
    problem = problems[0]
    span, field = KINDS[kind]
    assert (problem.source, problem.field) == (str(path), field)
    assert problem.span == (span.format(i=BAD) if span else None)
    if kind == "no traceId":  # its trace is unknown, so the rest of the trace is read, and has no question
        assert problem.trace is None and len(problems) == 2
        assert str(problems[1]).endswith(f"trace {trace_id(BAD)}: its root span 'retriever' has no input.value to "
                                         "use as the question, and no LLM span a user message")
    else:
        assert problem.trace == trace_id(BAD) and len(problems) == 1, [str(p) for p in problems]
    done = CliRunner().invoke(app, ["ingest", str(path), "-o", str(tmp_path / "out.jsonl")])
    assert done.exit_code == 0, done.output
    assert "49 samples written" in done.output and str(problem) in done.output.replace("\n", "")
    written = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["id"] for r in written] == [trace_id(i) for i in range(49)]


def test_the_problems_say_what_is_wrong(tmp_path):
    messages = {}
    for kind in KINDS:
        _, problems = collect(json.loads(json.dumps(request(malformed(kind, BAD)))) if kind != "deep JSON" else
                              _write(tmp_path / "deep.json", to_text(request(malformed(kind, BAD)))))
        messages[kind] = str(problems[0]).replace(str(tmp_path / "deep.json"), "deep.json")
    t = trace_id(BAD)
    assert messages == {
        "no traceId": "span root99, field 'traceId': missing",
        "start not an integer": f"trace {t}, span root99, field 'startTimeUnixNano': expected an integer (nanoseconds "
                                "since the epoch), got the string 'soon'",
        "attribute without key": f"trace {t}, span root99, field 'attributes[1].key': missing",
        "attributes a dict": f"trace {t}, span root99, field 'attributes': expected a list of key-value objects, got "
                             "an object",
        "null value": f"trace {t}, span root99, field 'attributes[1].value': expected an AnyValue object, got null "
                      "(attribute 'input.value')",
        "parent cycle": f"trace {t}, field 'parentSpanId': spans root99 -> ret99 -> root99 are each other's parents "
                        "(a cycle)",
        "deep JSON": f"deep.json, trace {t}, span root99, field 'attributes[3].value': expected an AnyValue object, "
                     "got an array",
    }


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("value, why", [
    ({"kvlistValue": {"values": [{"key": "a", "value": {"stringValue": None}}]}},
     "field 'attributes[3].value.kvlistValue.values[0].value.stringValue': expected a string, got null"),
    ({"intValue": "12x"}, "field 'attributes[3].value.intValue': expected an integer, got the string '12x'"),
    ({"intValue": "9" * 5000}, "field 'attributes[3].value.intValue': expected an integer, got the string "
                               f"'{'9' * 37}...'"),
    ({"intValue": "9" * 19}, "field 'attributes[3].value.intValue': expected an integer from -9223372036854775808 to "
                             "9223372036854775807, got the number 9999999999999999999"),
    ({"boolValue": "yes"}, "field 'attributes[3].value.boolValue': expected true or false, got the string 'yes'"),
    ({"arrayValue": {"values": "abc"}}, "field 'attributes[3].value.arrayValue.values': expected a list, got the "
                                        "string 'abc'"),
    ({"stringValue": "\ud800"}, "field 'attributes[3].value.stringValue': a lone surrogate U+D800 at character 1 "
                                "(not valid Unicode)"),
])
def test_attribute_values_are_checked_by_type(value, why):
    spans = trace(BAD)
    spans[0]["attributes"].append({"key": "extra", "value": value})
    records, problems = collect(request(spans + trace(1)))
    assert [r["id"] for r in records] == [trace_id(1)]
    assert [str(p) for p in problems] == [f"trace {trace_id(BAD)}, span root{BAD}, {why}"]


def test_a_value_nested_deeper_than_the_limit_is_named_not_followed():
    value: dict[str, Any] = {"stringValue": "bottom"}
    for _ in range(200):
        value = {"kvlistValue": {"values": [{"key": "k", "value": value}]}}
    spans = trace(BAD)
    spans[0]["attributes"].append({"key": "nested", "value": value})
    records, problems = collect(request(spans + trace(1)))
    assert [r["id"] for r in records] == [trace_id(1)]
    assert [str(p) for p in problems] == [
        f"trace {trace_id(BAD)}, span root{BAD}, field 'attributes[3].value': nested deeper than 32 levels"]


def test_a_span_with_no_usable_id_is_named_by_its_place():
    spans = trace(1)
    spans[1]["spanId"] = 7
    records, problems = collect([request(trace(2)), request([None, *spans])])
    assert [r["id"] for r in records] == [trace_id(2)]
    assert [str(p) for p in problems] == [
        "[1].resourceSpans[0].scopeSpans[0].spans[0]: expected a span object, got null",
        f"trace {trace_id(1)}, [1].resourceSpans[0].scopeSpans[0].spans[2], field 'spanId': expected a non-empty "
        "string, got the number 7",
    ]


def test_a_malformed_structure_around_the_spans_is_named_and_the_rest_read():
    good = request(trace(1))
    bad = {"resourceSpans": [{"scopeSpans": {"spans": trace(2)}}, {"resource": {"attributes": [{"value": {}}]},
                                                                   "scopeSpans": [{"spans": trace(3)}]}, 5]}
    records, problems = collect([good, bad])
    assert [r["id"] for r in records] == [trace_id(1), trace_id(3)]
    assert "service" not in records[1]["metadata"]
    assert [str(p) for p in problems] == [
        "[1].resourceSpans[0], field 'scopeSpans': expected a list, got an object",
        "[1].resourceSpans[1], field 'resource.attributes[0].key': missing; the resource's attributes are ignored",
        "[1].resourceSpans[2]: expected an object, got the number 5",
    ]


def test_a_duplicated_span_counts_once_and_a_conflicting_one_skips_its_trace():
    same = trace(1) + trace(1)[:1]
    conflicting = trace(2) + [{**trace(2)[0], "name": "other"}]
    records, problems = collect(request(same + conflicting))
    assert [r["id"] for r in records] == [trace_id(1)]
    assert [str(p) for p in problems] == [f"trace {trace_id(2)}, span root2, field 'spanId': two different spans "
                                          "have this id"]


def test_raise_problem_stops_at_the_first():
    with pytest.raises(TraceFileError, match="field 'startTimeUnixNano'"):
        list(ingest_otlp(request(malformed("start not an integer", 1)), on_problem=raise_problem))


def test_every_trace_malformed_writes_nothing_and_exits_1(tmp_path):
    path = _write(tmp_path / "bad.json", json.dumps(request(malformed("no traceId", 1))))
    out = tmp_path / "out.jsonl"
    out.write_text("kept\n")
    done = CliRunner().invoke(app, ["ingest", str(path), "-o", str(out)])
    assert done.exit_code == 1, done.output
    assert "Traceback" not in done.output and "field 'traceId': missing" in done.output
    assert "nothing written: no trace could be read" in done.output
    assert out.read_text() == "kept\n"  # a run that read nothing leaves the last output as it was


# ------------------------------------------------------------------------- JSON Lines


def lines_file(path: Path, lines: list[str], *, bom: bool = False) -> Path:
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + "".join(line + "\n" for line in lines).encode("utf-8"))
    return path


def test_bad_lines_of_json_lines_are_named_and_the_good_ones_kept(tmp_path):
    good = [json.dumps(request(trace(i))) for i in range(50)]
    truncated = json.dumps(request(trace(60)))[:-40]
    lines = good[:10] + [truncated] + good[10:20] + ['{"nope": 1}', "[1, 2]", ""] + good[20:30] + ["not json at all"] \
        + good[30:]
    path = lines_file(tmp_path / "traces.jsonl", lines)
    records, problems = collect(path)
    assert [r["id"] for r in records] == [trace_id(i) for i in range(50)]
    assert [str(p) for p in problems] == [
        f"{path}, line 11: not JSON ({_json_error(truncated)})",
        f"{path}, line 22: not an OTLP export request (no 'resourceSpans')",
        f"{path}, line 23: expected an export request object, got an array",
        f"{path}, line 35: not JSON (Expecting value at column 1)",
    ]
    done = CliRunner().invoke(app, ["ingest", str(path), "-o", str(tmp_path / "out.jsonl")])
    assert done.exit_code == 0, done.output
    assert "50 samples written" in done.output and "line 11: not JSON" in done.output
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 50


def _json_error(text: str) -> str:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return f"{exc.msg}{'' if exc.msg.endswith(' at') else ' at'} column {exc.colno}"  # not "starting at at"
    raise AssertionError("valid JSON")


def test_a_byte_order_mark_is_accepted(tmp_path):
    lines = lines_file(tmp_path / "bom.jsonl", [json.dumps(request(trace(i))) for i in range(3)], bom=True)
    whole = lines_file(tmp_path / "bom.json", [json.dumps(request([s for i in range(3) for s in trace(i)]))], bom=True)
    for path in (lines, whole):
        records, problems = collect(path)
        assert [r["id"] for r in records] == [trace_id(i) for i in range(3)] and not problems


def test_a_line_separator_inside_a_string_does_not_split_the_line(tmp_path):
    spans = trace(1)
    spans[0]["attributes"][1]["value"]["stringValue"] = "Question\u2028one?"
    path = lines_file(tmp_path / "t.jsonl", [json.dumps(request(spans), ensure_ascii=False),
                                             json.dumps(request(trace(2)))])
    records, problems = collect(path)
    assert [r["question"] for r in records] == ["Question\u2028one?", "Question 2?"] and not problems


def test_a_broken_document_is_named_once_not_line_by_line(tmp_path):
    text = json.dumps(request([s for i in range(3) for s in trace(i)]), indent=2)
    path = tmp_path / "pretty.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    records, problems = collect(path)
    assert records == [] and len(problems) == 1
    assert re.fullmatch(rf"{re.escape(str(path))}: not JSON \(.* at line \d+, column \d+\)", str(problems[0]))


def test_a_file_of_records_is_not_otlp_and_says_so_once(tmp_path):
    path = lines_file(tmp_path / "records.jsonl", [json.dumps({"question": f"q{i}", "answer": "a"}) for i in range(5)])
    records, problems = collect(path)
    assert records == [] and [str(p) for p in problems] == [
        f"{path}: not OTLP JSON: no line is an export request (no 'resourceSpans')"]
    done = CliRunner().invoke(app, ["ingest", str(path), "-o", str(tmp_path / "out.jsonl")])
    assert done.exit_code == 1 and "nothing written" in done.output and "Traceback" not in done.output


def test_one_bad_file_among_good_ones_is_named_and_skipped(tmp_path):
    good = lines_file(tmp_path / "good.jsonl", [json.dumps(request(trace(i))) for i in range(3)])
    bad = lines_file(tmp_path / "bad.jsonl", ["{"])
    done = CliRunner().invoke(app, ["ingest", str(bad), str(good), "-o", str(tmp_path / "out.jsonl")])
    assert done.exit_code == 0, done.output
    assert "3 samples written" in done.output and f"{bad}, line 1: not JSON" in done.output.replace("\n", "")


# ------------------------------------------------------------------------- bytes and encodings


def test_a_byte_that_is_not_utf8_costs_only_its_trace(tmp_path):
    lines = [json.dumps(request(trace(i))).encode() for i in range(50)]
    lines[7] = lines[7].replace(b"Question 7?", b"Question \xff7?")
    lines[9] = lines[9].replace(b'"name": "chain"', b'"name": \xe9"chain"')  # in the JSON itself
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    records, problems = collect(path)
    assert [r["id"] for r in records] == [trace_id(i) for i in range(50) if i not in (7, 9)]
    at = lines[9].index(b"\xe9") + 1
    assert [str(p) for p in problems] == [
        f"{path}, line 8, trace {trace_id(7)}, span root7, field 'attributes[1].value.stringValue': invalid UTF-8: "
        "byte 0xff at character 10",
        f"{path}, line 10: not JSON (Expecting value at column {at}); invalid UTF-8: byte 0xe9 at character {at}",
    ]
    done = CliRunner().invoke(app, ["ingest", str(path), "-o", str(tmp_path / "out.jsonl")])
    assert done.exit_code == 0, done.output
    assert "48 samples written" in done.output and "byte 0xff" in done.output and "Traceback" not in done.output
    written = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(written) == 48


def test_a_bad_byte_in_one_document_costs_only_its_trace(tmp_path):
    text = json.dumps(request([s for i in range(5) for s in trace(i)])).encode()
    path = tmp_path / "one.json"
    path.write_bytes(text.replace(b"Doc 3.", b"Doc \xe93."))
    records, problems = collect(path)
    assert [r["id"] for r in records] == [trace_id(i) for i in (0, 1, 2, 4)]
    assert [str(p) for p in problems] == [
        f"{path}, trace {trace_id(3)}, span ret3, field 'attributes[1].value.stringValue': invalid UTF-8: byte 0xe9 "
        "at character 5"]


@pytest.mark.parametrize("encoding, bom", [("utf-16", b""), ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
                                           ("utf-16-le", b""), ("utf-32", b"")])
def test_a_utf16_file_is_read(encoding, bom, tmp_path):
    lines = tmp_path / "traces.jsonl"
    lines.write_bytes(bom + "".join(json.dumps(request(trace(i)), ensure_ascii=False) + "\n"
                                    for i in range(3)).replace("Question 1", "Qüestion 1").encode(encoding))
    whole = tmp_path / "traces.json"
    whole.write_bytes(bom + json.dumps(request([s for i in range(3) for s in trace(i)])).encode(encoding))
    for path in (lines, whole):
        records, problems = collect(path)
        assert [r["id"] for r in records] == [trace_id(i) for i in range(3)] and not problems
    assert collect(lines)[0][1]["question"] == "Qüestion 1?"
    done = CliRunner().invoke(app, ["ingest", str(lines), "-o", str(tmp_path / "out.jsonl")])
    assert done.exit_code == 0 and "3 samples written" in done.output


def test_a_broken_utf16_file_is_refused_in_one_line_naming_it(tmp_path):
    path = tmp_path / "broken.json"
    path.write_bytes("\ufeff".encode("utf-16-le") + json.dumps(request(trace(1))).encode("utf-16-le") + b"\x00\xd8")
    records, problems = collect(path)
    assert records == [] and [str(p) for p in problems] == [
        f"{path}: cannot be decoded as utf-16-le (its byte order mark or zero bytes say so): unexpected end of data"]
    done = CliRunner().invoke(app, ["ingest", str(path), "-o", str(tmp_path / "out.jsonl")])
    assert done.exit_code == 1 and "cannot be decoded as utf-16" in done.output and "Traceback" not in done.output


def test_a_file_that_cannot_be_read_is_named(tmp_path):
    folder = tmp_path / "folder.json"
    folder.mkdir()
    records, problems = collect(folder)
    assert records == [] and [str(p) for p in problems] == [f"{folder}: cannot be read (Is a directory)"]


def test_a_huge_id_is_cut_in_the_message():
    spans = trace(1)
    for span in spans:
        span["traceId"] = "f" * 100_000
    spans[0]["startTimeUnixNano"] = 1.5
    records, problems = collect(request(spans))
    assert records == [] and [str(p) for p in problems] == [
        f"trace {'f' * 61}..., span root1, field 'startTimeUnixNano': expected an integer (nanoseconds since the epoch), "
        "got the number 1.5"]
    assert problems[0].trace == "f" * 100_000  # the id itself is kept whole: it is what skips the trace


def test_a_bad_line_reads_the_same_before_and_after_the_first_request(tmp_path):
    bad = ["[1, 2]", '{"nope": 1}', "{"]
    path = lines_file(tmp_path / "t.jsonl", bad + [json.dumps(request(trace(1)))] + bad)
    records, problems = collect(path)
    assert [r["id"] for r in records] == [trace_id(1)]
    messages = [str(p).split(": ", 1)[1] for p in problems]
    assert messages[:3] == messages[3:] == ["expected an export request object, got an array",
                                            "not an OTLP export request (no 'resourceSpans')",
                                            "not JSON (Expecting property name enclosed in double quotes at column 2)"]


def test_the_old_module_name_still_imports_with_a_deprecation_warning():
    """``ragmeter.ingest`` (the name earlier docs gave) is ``ragmeter.traces`` under a warning."""
    import importlib
    import sys

    import ragmeter.traces as traces

    sys.modules.pop("ragmeter.ingest", None)
    with pytest.warns(DeprecationWarning, match="ragmeter.ingest is now ragmeter.traces"):
        old = importlib.import_module("ragmeter.ingest")
    assert old.ingest_otlp is traces.ingest_otlp
    assert old.langchain_handler is traces.langchain_handler
