"""The faces of a conversation run beyond the result and the report: the gate (CLI exit code
and message, ``assert_metrics``), the run store (recorded by default by ``evaluate
--conversations``, listed, shown, compared and exported by ``ragmeter runs``) and the UI's
API and report page. Judge-free metrics only (tool calls, and token F1 per reply), so the
scores are known by hand and nothing leaves the machine."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.conversations import ConversationSample
from ragmeter.result import EvaluationResult
from ragmeter.runs import RunStore

CITIES = ["Paris", "Berlin", "Rome", "Madrid", "Vienna", "Lisbon", "Prague", "Oslo"]
METRICS = "tool_call_accuracy,tool_call_f1,token_f1"
LOCAL = "http://127.0.0.1:8765"  # the UI refuses the test client's own "testserver" host


def chat(i: int, wrong: bool) -> dict:
    """A two-turn weather chat: the app calls the weather tool for the city asked (or, when
    ``wrong``, for Lyon) and says what it read; the second turn has no contexts."""
    city = CITIES[i]
    called = "Lyon" if wrong else city
    return {
        "id": f"chat-{i}",
        "messages": [
            {"role": "user", "content": f"Weather in {city}?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": "weather", "arguments": json.dumps({"city": called})}}]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": f"Sunny in {called}."},
            {"role": "assistant", "content": f"It is sunny in {called}.", "contexts": [f"Sunny in {called}."],
             "reference": f"It is sunny in {city}."},
            {"role": "user", "content": "Thanks"},
            {"role": "assistant", "content": "You are welcome."},
        ],
        "reference_tool_calls": [{"name": "weather", "arguments": {"city": city}}],
    }


def write_chats(path: Path, wrong: set[int] | frozenset[int] = frozenset()) -> Path:
    path.write_text("".join(json.dumps(chat(i, i in wrong)) + "\n" for i in range(len(CITIES))), encoding="utf-8")
    return path


# 6 of 8 calls go to Lyon: tool_call_accuracy and tool_call_f1 fall to 2/8 = 0.25; the reply
# "It is sunny in Lyon." against "It is sunny in <city>." shares 4 of 5 tokens (F1 0.8), so
# token_f1 is (2 x 1.0 + 6 x 0.8) / 8 = 0.85
WRONG = {1, 2, 3, 5, 6, 7}


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RAGMETER_RUNS", raising=False)  # the default store: .ragmeter/runs.db here
    monkeypatch.chdir(tmp_path)


def ragmeter(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def evaluate_chats(path: Path, out: Path):
    done = ragmeter("evaluate", str(path), "--conversations", "-m", METRICS, "-q", "--out", str(out))
    assert done.exit_code == 0, done.output
    return done


@pytest.fixture
def two_runs(tmp_path) -> tuple[str, str, Path, Path]:
    """Run A (every call right) and run B (six wrong), both of ``chats.jsonl``, recorded by default."""
    ids = []
    for name, wrong in (("a", set()), ("b", WRONG)):
        done = evaluate_chats(write_chats(tmp_path / "chats.jsonl", wrong), tmp_path / f"{name}.json")
        ids.append(re.search(r"run recorded as (\w+)", done.output).group(1))
    return ids[0], ids[1], tmp_path / "a.json", tmp_path / "b.json"


# --- the gate -------------------------------------------------------------------------------


def test_gate_fails_a_conversation_run_below_its_minimums_naming_the_conversations_and_why(two_runs):
    _, _, _, b = two_runs
    done = ragmeter("gate", str(b), "--min", "tool_call_accuracy=0.8,token_f1=0.9", "--worst", "2")
    assert done.exit_code == 1, done.output
    lines = [line.rstrip() for line in done.output.splitlines()]
    assert lines[0].startswith("ragmeter gate: FAIL (8 samples, run ")
    assert "  FAIL tool_call_accuracy  mean 0.250, min 0.80" in lines
    assert "  FAIL token_f1            mean 0.850, min 0.90" in lines  # the per-reply metric, gated on its mean
    assert "-> mean 0.250 < minimum 0.800" in done.output and "-> mean 0.850 < minimum 0.900" in done.output
    # the worst conversations, by id, with the tool-call and the per-turn reasons
    worst = done.output.split("worst samples for tool_call_accuracy:")[1]
    assert "row 1 (chat-1): 0.000  'Weather in Berlin? (+1 more user turn)'" in worst
    assert "reason: called weather(city='Lyon'); expected weather(city='Berlin') (in order)" in worst
    assert "reason: mean of 1 turn: turn 1 0.80" in done.output.split("worst samples for token_f1:")[1]


def test_gate_passes_a_conversation_run_that_meets_its_minimums_and_fails_a_missing_metric(two_runs):
    _, _, a, _ = two_runs
    done = ragmeter("gate", str(a), "--min", "tool_call_accuracy=1,tool_call_f1=1,token_f1=1")
    assert done.exit_code == 0 and done.output.startswith("ragmeter gate: PASS (8 samples"), done.output
    missing = ragmeter("gate", str(a), "--min", "agent_goal_accuracy=0.5")
    assert missing.exit_code == 1
    assert "agent_goal_accuracy is not in the result (metrics: tool_call_accuracy, tool_call_f1, token_f1)" in missing.output


def test_gate_finds_the_regression_of_a_conversation_run_against_its_baseline(two_runs):
    _, _, a, b = two_runs
    done = ragmeter("gate", str(b), "--baseline", str(a), "--resamples", "500")
    assert done.exit_code == 1, done.output
    assert re.search(r"FAIL tool_call_accuracy\s+mean 0\.250, vs baseline 1\.000: -0\.750 \[-1\.000, -0\.[0-9]+\] regressed",
                     done.output), done.output
    # the conversations that dropped, paired by id, named by their opening message (their
    # last, "Thanks", would not say which)
    assert "row 1 (chat-1): 1.000 -> 0.000  'Weather in Berlin? (+1 more user turn)'" in done.output
    assert "'Thanks'" not in done.output


def test_conversations_without_ids_pair_by_their_opening_message_not_their_last(tmp_path):
    from ragmeter.gate import sample_keys

    def without_ids(path: Path, order: list[int], wrong: set[int]) -> EvaluationResult:
        records = [{k: v for k, v in chat(i, i in wrong).items() if k != "id"} for i in order]
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        evaluate_chats(path, path.with_suffix(".json"))
        return EvaluationResult.load(path.with_suffix(".json"))

    base = without_ids(tmp_path / "base.jsonl", list(range(8)), set())
    shuffled = without_ids(tmp_path / "now.jsonl", [7, 6, 5, 4, 3, 2, 1, 0], {1})
    assert sample_keys(shuffled.samples)[0] == "q:Weather in Oslo? (+1 more user turn)#1"
    from ragmeter.gate import biggest_drops

    # every conversation found its own: only Berlin's dropped (paired by position, as their
    # last messages would pair them, Berlin against Prague and Oslo against Paris...)
    drops = biggest_drops(shuffled, base, "tool_call_accuracy", k=8)
    assert [d.question for d in drops] == ["Weather in Berlin? (+1 more user turn)"]


def test_assert_metrics_on_a_conversation_result(two_runs):
    from ragmeter.pytest_plugin import assert_metrics

    _, _, a, b = two_runs
    assert assert_metrics(str(a), tool_call_accuracy=1.0, token_f1=0.9).passed
    with pytest.raises(AssertionError) as failed:
        assert_metrics(EvaluationResult.load(b), tool_call_f1=0.5)
    assert "FAIL tool_call_f1" in str(failed.value) and "mean 0.250 < minimum 0.500" in str(failed.value)
    assert "expected weather(city='Berlin')" in str(failed.value)


# --- the run store and `ragmeter runs` ------------------------------------------------------


def test_evaluate_conversations_records_by_default_and_runs_lists_shows_compares_and_exports(two_runs, tmp_path):
    a, b, _, _ = two_runs
    assert (tmp_path / ".ragmeter" / "runs.db").exists()  # the default store, nothing asked
    store = RunStore()
    runs = store.list()
    assert [r.id for r in runs] == [b, a] and all(r.status == "finished" and r.samples == 8 for r in runs)
    assert runs[0].metrics == ["tool_call_accuracy", "tool_call_f1", "token_f1"]
    assert runs[0].summary["tool_call_accuracy"].mean == pytest.approx(0.25)
    assert runs[0].summary["token_f1"].mean == pytest.approx(0.85)
    assert runs[0].dataset == runs[1].dataset  # one test set, two versions of the app: one trend

    listed = ragmeter("runs", "list")
    assert listed.exit_code == 0, listed.output
    rows = [line.split("\t") for line in listed.output.splitlines()]
    assert rows[0][6:9] == ["tool_call_accuracy", "tool_call_f1", "token_f1"]
    assert [r[-1] for r in rows[1:]] == [b, a] and rows[1][6:9] == ["0.250", "0.250", "0.850"]

    shown = ragmeter("runs", "show", b[:6])
    assert shown.exit_code == 0 and "tool_call_accuracy\t0.250\t" in shown.output, shown.output

    compared = ragmeter("runs", "compare", a, b, "--moved", "2", "--seed", "0")
    assert compared.exit_code == 0, compared.output
    assert re.search(r"tool_call_accuracy\t1\.000\t0\.250\t-0\.750 \[[-0-9.]+, [-0-9.]+\]\t8\tregressed", compared.output)
    assert ("row 1 (chat-1): 1.000 -> 0.000 (-1.000)  Weather in Berlin? (+1 more user turn)" in compared.output
            and "after:  called weather(city='Lyon'); expected weather(city='Berlin') (in order)" in compared.output)
    assert "before: mean of 1 turn: turn 1 1.00" in compared.output.split("token_f1: samples that moved most")[1]

    exported = ragmeter("runs", "export", b, "--out", str(tmp_path / "back.json"))
    assert exported.exit_code == 0, exported.output
    back = EvaluationResult.load(tmp_path / "back.json")
    sample = back.samples[1].sample
    assert isinstance(sample, ConversationSample) and sample.tool_calls[0].arguments == {"city": "Lyon"}
    assert back.samples[1].scores["token_f1"].verdicts[0]["value"] == pytest.approx(0.8)  # the turn's own score


# --- the UI ---------------------------------------------------------------------------------


def test_ui_api_gives_the_conversation_run_its_comparison_and_each_conversations_turns(two_runs):
    pytest.importorskip("fastapi", reason="the UI needs fastapi: pip install 'ragmeter[ui]'")
    from fastapi.testclient import TestClient

    from ragmeter.ui import create_app

    a, b, _, _ = two_runs
    client = TestClient(create_app(), base_url=LOCAL)
    assert [r["id"] for r in client.get("/api/runs").json()] == [b, a]
    run = client.get(f"/api/runs/{b}").json()
    assert run["samples"] == 8 and run["summary"]["tool_call_f1"]["mean"] == pytest.approx(0.25)
    cmp = client.get("/api/compare", params={"a": a, "b": b, "k": 2}).json()
    accuracy = next(m for m in cmp["metrics"] if m["metric"] == "tool_call_accuracy")
    assert accuracy["status"] == "regressed" and accuracy["paired"] == 8
    moved = [m for m in cmp["moved"] if m["metric"] == "tool_call_accuracy"]
    assert [m["id"] for m in moved] == ["chat-1", "chat-2"] and moved[0]["reason_after"].startswith("called weather(city='Lyon')")
    assert moved[0]["question"] == "Weather in Berlin? (+1 more user turn)"

    page = client.get("/report", params={"run": b, "baseline": a})
    assert page.status_code == 200 and "conversationBlock" in page.text  # the report's conversation view
    blob = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page.text, re.S).group(1)
    data = json.loads(blob)
    berlin = next(s for s in data["samples"] if s["id"] == "chat-1")
    assert [m["role"] for m in berlin["conv"]] == ["user", "assistant", "tool", "assistant", "user", "assistant"]
    assert berlin["conv"][1]["tool_calls"] == [{"name": "weather", "arguments": {"city": "Lyon"}}]
    metrics = [m["name"] for m in data["metrics"]]
    token = metrics.index("token_f1")
    turns = berlin["s"][token]["vd"]  # each turn's score and reason on the conversation's card
    assert [(t["turn"], t["question"], t["value"]) for t in turns] == [(1, "Weather in Berlin?", pytest.approx(0.8))]
    assert berlin["v"][metrics.index("tool_call_accuracy")] == 0.0 and berlin["b"][metrics.index("tool_call_accuracy")] == 1.0


def test_the_test_set_fingerprint_of_chats_reads_every_user_turn_and_the_references(tmp_path):
    """Two chat sets that differ only in an expected tool call, or in an earlier user turn, are
    two test sets; the same set answered differently by the app is one."""
    def fingerprint(rows: list[dict], name: str) -> str:
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        evaluate_chats(path, tmp_path / f"{name}.json")
        return RunStore().list()[0].dataset

    base = [chat(i, False) for i in range(2)]
    answered_otherwise = [chat(i, True) for i in range(2)]
    other_reference = [dict(r) for r in base]
    other_reference[1] = {**base[1], "reference_tool_calls": [{"name": "weather", "arguments": {"city": "Lyon"}}]}
    other_opening = [dict(r) for r in base]
    other_opening[0] = {**base[0], "messages": [{"role": "user", "content": "Weather in Paris, please?"},
                                                *base[0]["messages"][1:]]}
    first = fingerprint(base, "base")
    assert fingerprint(answered_otherwise, "answered") == first
    assert fingerprint(other_reference, "reference") != first
    assert fingerprint(other_opening, "opening") != first
