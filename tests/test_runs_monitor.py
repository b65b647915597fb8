"""``ragmeter monitor``: a window of traffic sampled, scored with the local judge, recorded
with the production tag, and an alert (exit 1) when a metric falls below the recent
production runs by more than its interval."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.monitor import monitor, read_traffic, sample_window, watch_metric
from ragmeter.runs import RunStore

FACTS = [
    ("Where is the Eiffel Tower?", "The Eiffel Tower is in Paris."),
    ("When did the Berlin Wall fall?", "The Berlin Wall fell in 1989."),
    ("What do bees make?", "Bees make honey from nectar."),
    ("What is the boiling point of water at sea level?", "Water boils at 100 degrees Celsius at sea level."),
    ("Who wrote Hamlet?", "William Shakespeare wrote Hamlet."),
    ("What is the largest planet?", "Jupiter is the largest planet in the solar system."),
    ("How many legs does a spider have?", "A spider has eight legs."),
    ("What gas do plants absorb?", "Plants absorb carbon dioxide from the air."),
]
WRONG = [
    "The Eiffel Tower is in Rome.", "The Berlin Wall fell in 1961.", "Bees make silk from leaves.",
    "Water boils at 40 degrees Celsius at sea level.", "Charles Dickens wrote Hamlet.",
    "Mars is the largest planet in the solar system.", "A spider has six legs.", "Plants absorb helium from the air.",
]


def traffic(path: Path, *, wrong: bool, started: float = 1_000_000.0) -> Path:
    rows = []
    for i, (question, fact) in enumerate(FACTS):
        rows.append({"id": f"t{i}", "question": question, "answer": WRONG[i] if wrong else fact,
                     "contexts": [fact, "Unrelated text about the weather."], "metadata": {"started": started + i}})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_window_keeps_recent_records_and_samples_them_reproducibly():
    records = [{"id": i, "metadata": {"started": 1000.0 + i * 600}} for i in range(48)]  # every 10 min, 8 h
    records.append({"id": "no-time"})
    window, seen = sample_window(records, hours=2, size=None, now=1000.0 + 47 * 600)
    assert seen == 13 and [r["id"] for r in window] == list(range(35, 48))  # 2 h back, inclusive
    one, _ = sample_window(records, hours=None, size=5, seed=3)
    two, _ = sample_window(records, hours=None, size=5, seed=3)
    assert one == two and len(one) == 5
    starts = [(r.get("metadata") or {}).get("started") or 0 for r in one]
    assert starts == sorted(starts)


def test_watch_metric_alerts_only_beyond_the_interval():
    assert not watch_metric("f", 0.80, 0.75, 0.85, [0.84, 0.86]).alert  # drop 0.05 = margin 0.05
    dropped = watch_metric("f", 0.70, 0.65, 0.75, [0.84, 0.86])
    assert dropped.alert and dropped.drop == pytest.approx(0.15)
    assert not watch_metric("f", 0.70, 0.65, 0.75, []).alert  # nothing to compare with
    risen = watch_metric("noise", 0.40, 0.30, 0.45, [0.20], lower_is_better=True)
    assert risen.alert and risen.drop == pytest.approx(0.20)


def test_monitor_records_production_runs_and_alerts_on_a_drop(tmp_path, minilm):
    store = str(tmp_path / "runs.db")
    for day in range(2):  # two healthy days
        report = monitor([traffic(tmp_path / f"good{day}.jsonl", wrong=False)], metrics=["faithfulness"],
                         hours=None, size=8, store=store, show_progress=False, cache=False, journal=False)
        assert not report.alert and report.sampled == 8
    runs = RunStore(store).list(tag="production")
    assert len(runs) == 2 and all(r.dataset_name == "production-window.jsonl" for r in runs)
    healthy = runs[0].summary["faithfulness"].mean
    assert healthy > 0.8
    done = CliRunner().invoke(app, ["monitor", str(traffic(tmp_path / "bad.jsonl", wrong=True)), "-m", "faithfulness",
                                    "--window", "0", "--store", store, "-q", "--tag", "canary"])
    assert done.exit_code == 1, done.output
    assert "ALERT" in done.output and "faithfulness: DROPPED" in done.output
    latest = RunStore(store).list(tag="production")[0]
    assert latest.tags == ["production", "canary"] and latest.summary["faithfulness"].mean < healthy - 0.3


# ------------------------------------------------------------------------- malformed traffic


def test_bad_lines_of_traffic_are_named_and_skipped_and_the_good_ones_read(tmp_path):
    good = [json.dumps({"id": f"r{i}", "question": f"q{i}?", "answer": "a", "contexts": ["c"],
                        "metadata": {"started": 1000.0 + i}}).encode() for i in range(6)]
    lines = [b"\xef\xbb\xbf" + good[0], good[1][:-9], good[2], b"[1, 2]", good[3].replace(b"q3?", b"q\xe93?"),
             b'{"question": "q?", "answer": 42}', b"", good[4], good[5]]
    path = tmp_path / "traffic.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    problems = []
    records = list(read_traffic([path], on_problem=problems.append))
    assert [r["id"] for r in records] == ["r0", "r2", "r4", "r5"]
    assert records[0] == {"id": "r0", "question": "q0?", "answer": "a", "contexts": ["c"], "metadata": {"started": 1000.0}}
    assert [str(p) for p in problems] == [
        f"{path}, line 2: not JSON (Expecting value at column {len(good[1]) - 9 + 1})",
        f"{path}, line 4: expected a JSON object, got an array",
        f"{path}, line 5: invalid UTF-8: byte 0xe9 at character {good[3].index(b'q3?') + 2}",
        f"{path}, line 6, field 'answer': expected a string, got int",
    ]


def test_a_malformed_span_in_traced_traffic_is_named_not_a_key_error(tmp_path):
    span = {"traceId": "t1", "spanId": "s1", "name": "chain", "startTimeUnixNano": "5000000000",
            "attributes": [{"key": "input.value", "value": {"stringValue": "Where?"}}]}
    broken = {**span, "traceId": "t2"}
    del broken["spanId"]
    path = tmp_path / "traces.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span, broken]}]}]}), encoding="utf-8")
    problems = []
    records = list(read_traffic([path], on_problem=problems.append))
    assert [r["id"] for r in records] == ["t1"]
    assert [str(p) for p in problems] == [f"{path}, trace t2, resourceSpans[0].scopeSpans[0].spans[1], field 'spanId': "
                                          "missing"]


def test_utf16_traffic_is_read(tmp_path):
    path = tmp_path / "traffic.jsonl"
    path.write_bytes("".join(json.dumps({"id": f"r{i}", "question": "Qüestion?", "metadata": {"started": i}},
                                        ensure_ascii=False) + "\n" for i in range(3)).encode("utf-16"))
    assert [r["question"] for r in read_traffic([path])] == ["Qüestion?"] * 3


def test_monitor_that_can_read_nothing_exits_1_naming_each_line(tmp_path):
    path = tmp_path / "traffic.jsonl"
    path.write_bytes(b'{"question": "q?", "answer": "\xff"}\n{"question"\n')
    done = CliRunner().invoke(app, ["monitor", str(path), "--store", str(tmp_path / "runs.db"), "-q"])
    assert done.exit_code == 1, done.output
    assert "Traceback" not in done.output and "codec" not in done.output
    assert f"{path}, line 1: invalid UTF-8: byte 0xff" in done.output and f"{path}, line 2: not JSON" in done.output
    assert "nothing could be read from the traffic: 2 malformed part(s), each named above" in done.output


def test_monitor_with_no_traffic_in_the_window_exits_1(tmp_path):
    done = CliRunner().invoke(app, ["monitor", str(traffic(tmp_path / "old.jsonl", wrong=False, started=1000.0)),
                                    "--store", str(tmp_path / "runs.db"), "-q"])
    assert done.exit_code == 1, done.output
    assert "no traffic in the window: 8 records read, none in the last 24 hours; nothing scored" in done.output


def test_pretty_printed_traces_and_a_deep_record_line(tmp_path):
    span = {"traceId": "t1", "spanId": "s1", "name": "chain", "startTimeUnixNano": "5000000000",
            "attributes": [{"key": "input.value", "value": {"stringValue": "Where?"}}]}
    pretty = tmp_path / "traces.json"
    pretty.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}, indent=2), encoding="utf-8")
    records = tmp_path / "records.jsonl"
    records.write_text('{"id": "r1", "question": "Q?"}\n{"id": "r2", "metadata": ' + "[" * 100_000 + "]" * 100_000
                       + "}\n", encoding="utf-8")
    problems = []
    read = list(read_traffic([pretty, records], on_problem=problems.append))
    assert [r["id"] for r in read] == ["t1", "r1"]
    assert [str(p) for p in problems] == [f"{records}, line 2: not JSON Python can read (nested too deep)"]


# ------------------------------------------------------------------- chats in JSON Lines

PARIS, SEINE, BERLIN = "Paris is the capital of France.", "The Seine flows through Paris.", "Berlin is the capital of Germany."


def said(text: str, *contexts: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text, **({"contexts": list(contexts)} if contexts else {})}


def called(call_id: str, arguments: str) -> list[dict[str, Any]]:
    """The assistant's search call (arguments as the JSON string OpenAI sends) and its result."""
    return [{"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": "search", "arguments": arguments}}]},
            {"role": "tool", "tool_call_id": call_id, "content": "..."}]


CHAT_A = {"id": "chat-a", "messages": [{"role": "user", "content": "What is the capital of France?"}, said(PARIS, PARIS),
                                       {"role": "user", "content": "Which river flows through it?"},
                                       *called("c1", '{"query": "river Paris"}'), said(SEINE, SEINE)],
          "reference_tool_calls": [{"name": "search", "arguments": {"query": "river Paris"}}],
          "metadata": {"started": 1000.0}}
CHAT_B = {"id": "chat-b", "messages": [{"role": "user", "content": "Where is Berlin?"},
                                       *called("c2", '{"query": "Berlin"}'),
                                       said("Berlin is the capital of Italy.", BERLIN)],  # not what it read
          "reference_tool_calls": [{"name": "search", "arguments": {"query": "Berlin Germany"}}],  # a wrong argument
          "metadata": {"started": 2000.0}}
BAD_ARGUMENTS = {"id": "chat-x", "messages": [{"role": "user", "content": "Convert 3 km"},
                                              *called("c9", '{"amount": 3,')], "metadata": {"started": 1500.0}}
BAD_ROLE = {"id": "chat-y", "messages": [{"role": "user", "content": "Hi"}, said("Hello."),
                                         {"role": "robot", "content": "beep"}], "metadata": {"started": 1600.0}}


def chats_file(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def monitor_chats(path: Path, store: Path) -> Any:
    return CliRunner().invoke(app, ["monitor", str(path), "--conversations", "-m", "faithfulness,tool_call_accuracy",
                                    "--window", "0", "--store", str(store), "-q"], env={"COLUMNS": "250"})


def test_monitor_scores_a_json_lines_file_of_conversation_records(tmp_path, minilm):
    """Not OTLP: each line a conversation (OpenAI messages), scored as one, recorded as chats."""
    store = tmp_path / "runs.db"
    done = monitor_chats(chats_file(tmp_path / "chats.jsonl", [CHAT_A, CHAT_B]), store)
    assert done.exit_code == 0, done.output
    assert done.output.splitlines() == [
        f"scored 2 of 2 conversations in the window; recorded as run {RunStore(store).list()[0].id}",
        "faithfulness: no recent production run to compare with",
        "tool_call_accuracy: no recent production run to compare with"]
    run = RunStore(store).list(tag="production")[0]
    assert run.dataset_name == "production-chats-window.jsonl"
    # chat-a: both answers say what they read (1.0); chat-b's answer contradicts its passage (0.0)
    assert run.summary["faithfulness"].mean == 0.5
    # chat-a's call is the reference's (1.0); chat-b's one argument differs (0.0)
    assert run.summary["tool_call_accuracy"].mean == 0.5
    again = monitor_chats(chats_file(tmp_path / "chats2.jsonl", [CHAT_A, CHAT_B]), store)
    assert again.exit_code == 0, again.output
    assert "faithfulness: ok: 0.500 now against 0.500" in again.output


def test_monitor_names_a_bad_conversation_record_by_line_field_and_turn_and_scores_the_others(tmp_path, minilm):
    path = chats_file(tmp_path / "chats.jsonl", [CHAT_A, BAD_ARGUMENTS, CHAT_B, BAD_ROLE])
    store = tmp_path / "runs.db"
    done = monitor_chats(path, store)
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[:4] == [
        f"skipped: {path}, line 2, field 'messages[1].tool_calls[0].function.arguments': conversation 'chat-x': "
        "turn 2: is not valid JSON (Expecting property name enclosed in double quotes at character 13)",
        f"skipped: {path}, line 4, field 'messages[2].role': conversation 'chat-y': turn 3: unknown role 'robot'; "
        "expected one of user, assistant, tool, system",
        f"scored 2 of 2 conversations in the window; recorded as run {RunStore(store).list()[0].id}",
        "2 malformed part(s) of the traffic skipped, each named above"]
    run = RunStore(store).list(tag="production")[0]
    assert run.summary["faithfulness"].mean == 0.5 and run.summary["tool_call_accuracy"].mean == 0.5
    # the same from Python: the problems as values, the good conversations the ones scored
    problems: list[Any] = []
    report = monitor([path], metrics=["tool_call_accuracy"], hours=None, size=None, conversations=True,
                     store=str(tmp_path / "other.db"), on_problem=problems.append, show_progress=False, cache=False,
                     journal=False)
    assert report.conversations and report.records == 2 and report.sampled == 2
    assert [(p.line, p.field) for p in problems] == [(2, "messages[1].tool_calls[0].function.arguments"),
                                                     (4, "messages[2].role")]
    assert problems == report.skipped
