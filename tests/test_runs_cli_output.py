"""What ``ragmeter runs list/show/compare`` print: a warning naming what differs when two runs
of another test set, judge, embedder or judge prompts are compared; "did you mean" for a
metric neither run has; ``--json``; plain tab-separated rows, nothing cut, off a terminal."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.cli.console import out
from ragmeter.metrics.score import MetricScore
from ragmeter.result import RunInfo, SampleResult
from ragmeter.runs import RunRecorder, RunStore

runner = CliRunner()
LONG_JUDGE = "openai:a-judge-model-with-a-rather-long-name-2025-06-01@http://judge.internal.example:8000/v1"
LONG_TAG = "nightly-regression-suite-for-the-retrieval-service"


def record(store: str, *, judge: str | None = "local", questions: str = "q", prompts: str | None = "p1",
           broken: int = 0, tags=("t",), n: int = 12) -> str:
    info = RunInfo(run_id="r", ragmeter_version="0", metrics={"token_f1": {}, "exact_match": {}}, judge=judge,
                   started=1.0, source=f"{questions}.jsonl", summary_metrics=["token_f1"])
    recorder = RunRecorder(RunStore(store), info, tags=list(tags), prompts=prompts)
    for i in range(n):
        value = 0.0 if broken and i % broken == 0 else 1.0
        recorder.add(SampleResult(row=i, id=f"s{i}", sample={"question": f"{questions} {i}?", "answer": "a",
                                                           "ground_truth": "a"},
                                  scores={"token_f1": MetricScore(value=value, reason=f"f1 {value}"),
                                          "exact_match": MetricScore(value=value, reason=f"em {value}")}))
    info.finished = 2.0
    recorder.finish(info, {}, [])
    return recorder.id


@pytest.fixture
def store(tmp_path) -> str:
    return str(tmp_path / "runs.db")


def compare(store: str, a: str, b: str, *extra: str):
    return runner.invoke(app, ["runs", "compare", a, b, "--store", store, *extra])


def test_compare_warns_in_one_line_naming_what_differs(store):
    a = record(store)
    same = record(store, broken=3)
    other_judge = record(store, judge=LONG_JUDGE, prompts="p2")
    other_set = record(store, questions="other")
    quiet = compare(store, a, same)
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr
    judged = compare(store, a, other_judge)
    assert judged.exit_code == 0, judged.output
    assert judged.stderr.splitlines() == [
        f"warning: A and B differ in judge (A local, B {LONG_JUDGE}) and judge prompts (A p1, B p2): the deltas "
        "measure that change too, not only the app's"
    ]
    fingerprint = {r.id: r.dataset for r in RunStore(store).list()}
    assert compare(store, a, other_set).stderr == (
        f"warning: A and B differ in test set (A q.jsonl {fingerprint[a][:8]}, B other.jsonl "
        f"{fingerprint[other_set][:8]}): the deltas measure that change too, not only the app's\n"
    )
    as_json = json.loads(compare(store, a, other_judge, "--json").stdout)
    assert as_json["differences"] == [{"what": "judge", "baseline": "local", "current": LONG_JUDGE},
                                      {"what": "judge prompts", "baseline": "p1", "current": "p2"}]


def test_compare_metric_is_checked_with_a_suggestion(store):
    a, b = record(store), record(store, broken=3)
    typo = compare(store, a, b, "--metric", "tokn_f1")
    assert typo.exit_code == 2
    assert typo.output == "error: no metric 'tokn_f1' in these runs; did you mean 'token_f1'? they have token_f1, exact_match\n"
    nothing_close = compare(store, a, b, "-m", "faithfulness")
    assert nothing_close.exit_code == 2 and "did you mean" not in nothing_close.output
    assert "they have token_f1, exact_match" in nothing_close.output
    only = compare(store, a, b, "-m", "Token-F1", "--json")
    assert only.exit_code == 0, only.output
    compared = json.loads(only.stdout)
    assert [m["metric"] for m in compared["metrics"]] == ["token_f1"]
    assert {m["metric"] for m in compared["moved"]} == {"token_f1"}


def test_json_for_list_show_and_compare(store):
    a, b = record(store), record(store, broken=3, tags=["x", "y"])
    listed = json.loads(runner.invoke(app, ["runs", "list", "--json", "--store", store]).stdout)
    assert [r["id"] for r in listed] == [b, a] and listed[0]["tags"] == ["x", "y"]
    assert listed[0]["summary"]["token_f1"]["mean"] == pytest.approx(8 / 12) and "run_id" not in listed[0]
    shown = json.loads(runner.invoke(app, ["runs", "show", b[:5], "--json", "--store", store]).stdout)
    assert shown == listed[0]
    compared = json.loads(compare(store, a, b, "--json").stdout)
    assert compared["baseline"] == a and compared["current"] == b and compared["differences"] == []
    token_f1 = next(m for m in compared["metrics"] if m["metric"] == "token_f1")
    assert token_f1["status"] == "regressed" and token_f1["paired"] == 12
    assert json.loads(runner.invoke(app, ["runs", "list", "--json", "--tag", "none", "--store", store]).stdout) == []


def test_off_a_terminal_rows_are_plain_and_whole(store):
    a = record(store, judge=LONG_JUDGE, tags=[LONG_TAG])
    b = record(store, judge=LONG_JUDGE, tags=[LONG_TAG], broken=4)
    listed = runner.invoke(app, ["runs", "list", "--store", store])  # 80 columns, not a terminal
    assert listed.exit_code == 0, listed.output
    lines = listed.stdout.splitlines()
    assert lines[0] == "started (UTC)\tstatus\tdataset\tgit\tjudge\tsamples\ttoken_f1\texact_match\ttags\trun"
    assert [line.split("\t")[-1] for line in lines[1:]] == [b, a]
    assert lines[1].split("\t")[4:] == [LONG_JUDGE, "12", "0.750", "0.750", LONG_TAG, b]
    shown = runner.invoke(app, ["runs", "show", a, "--store", store]).stdout
    assert f"judge: {LONG_JUDGE}\n" in shown and f"tags: {LONG_TAG}\n" in shown
    assert "metric\tmean\t95% interval\tscored\terrors\n" in shown and "token_f1\t1.000\t[1.000, 1.000]\t12\t0\n" in shown
    compared = compare(store, a, b).stdout
    assert f"metric\tA {a}\tB {b}\tdelta B-A [95% CI]\tpaired\tstatus\n" in compared
    assert "token_f1: samples that moved most\nrow 0 (s0): 1.000 -> 0.000 (-1.000)  q 0?\n" in compared
    for text in (listed.stdout, shown, compared):
        assert "…" not in text and not set("┏┃│━─┡└") & set(text)


def test_on_a_terminal_they_are_tables(store, monkeypatch):
    a = record(store)
    monkeypatch.setattr(out, "_force_terminal", True)  # as rich sees a terminal
    monkeypatch.setattr(out, "_width", 200)
    listed = runner.invoke(app, ["runs", "list", "--store", store])
    assert listed.exit_code == 0, listed.output
    assert "┃ started (UTC)" in listed.stdout and a in listed.stdout
