"""A metrics file (YAML or TOML) holds a CI job's metric set: built-ins with options,
critiques, rubrics, G-Eval criteria and Python metrics by import path. ``ragmeter metrics
--file`` checks it; ``evaluate --metrics-file``, ``--rubric`` and ``--g-eval`` run it, and
the gate takes the written metrics' names."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.errors import InvalidMetricsFile
from ragmeter.metrics import AspectCritique, FunctionMetric, GEval, Rubric
from ragmeter.metrics.metrics_file import load_metrics_file
from ragmeter.testing import OpenAIMockServer, scripted_judge


def flat(text: str) -> str:
    """Console output with rich's boxes and wrapping undone."""
    return " ".join(text.replace("│", " ").split())

YAML = """\
metrics:
  - faithfulness
  - {name: answer_similarity, threshold: 0.8}
critiques:
  polite: Is the answer polite?
rubrics:
  tone:
    criterion: Does the answer follow our tone guide?
    levels: {1: rude, 3: neutral, 5: warm}
g_eval:
  helpful:
    criterion: Does the answer help the user?
    scale: [1, 10]
python:
  - team_metrics_cm:cites_source
"""

TOML = """\
metrics = ["faithfulness", {name = "answer_similarity", threshold = 0.8}]
python = ["team_metrics_cm:cites_source"]

[critiques]
polite = "Is the answer polite?"

[rubrics.tone]
criterion = "Does the answer follow our tone guide?"
levels = {1 = "rude", 3 = "neutral", 5 = "warm"}

[g_eval.helpful]
criterion = "Does the answer help the user?"
scale = [1, 10]
"""

PYTHON = """\
import ragmeter

@ragmeter.metric(name="cites_source", required=("answer",))
def cites_source(sample):
    return (1.0 if "[" in sample.answer else 0.0), "looked for [n]"
"""

ROWS = [
    {"question": "Where is Paris?", "answer": "Paris is in France [1].", "contexts": ["Paris is the capital of France."]},
    {"question": "What is the Seine?", "answer": "The Seine is a river in Paris.", "contexts": ["The Seine flows through Paris."]},
]


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("RAGMETER_RUNS", str(tmp_path / "runs.db"))
    (tmp_path / "team_metrics_cm.py").write_text(PYTHON, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))


@pytest.mark.parametrize("suffix, text", [(".yaml", YAML), (".toml", TOML)])
def test_yaml_and_toml_declare_the_same_metrics(tmp_path, suffix, text):
    path = tmp_path / f"metrics{suffix}"
    path.write_text(text, encoding="utf-8")
    metrics = load_metrics_file(path)
    assert [m.name for m in metrics] == ["faithfulness", "answer_similarity", "polite", "tone", "helpful", "cites_source"]
    assert metrics[1].config()["threshold"] == 0.8
    assert isinstance(metrics[2], AspectCritique) and metrics[2].criterion == "Is the answer polite?"
    assert isinstance(metrics[3], Rubric) and metrics[3].levels == {1: "rude", 3: "neutral", 5: "warm"}
    assert isinstance(metrics[4], GEval) and metrics[4].scale == (1, 10)
    assert isinstance(metrics[5], FunctionMetric)


@pytest.mark.parametrize("text, message", [
    ("rubric:\n  tone: x\n", "unknown section(s) 'rubric'"),
    ("rubrics:\n  tone: {criterion: c, levels: {one: rude, 5: warm}}\n", "rubrics.tone: rubric 'tone': level 'one'"),
    ("rubrics:\n  tone: {levels: {1: a, 5: b}}\n", "rubrics.tone: a criterion is required"),
    ("metrics: [faithfulnes]\n", "metrics[0]: unknown metric 'faithfulnes'"),
    ("python: [no_such_module_cm:x]\n", "python[0]: No module named 'no_such_module_cm'"),
    ("python: [team_metrics_cm:ragmeter]\n", "python[0]: 'team_metrics_cm:ragmeter' is a module, not a metric"),
    ("g_eval:\n  helpful: {criterion: c, scale: [5, 1]}\n", "g_eval.helpful: g_eval 'helpful': the scale's highest"),
    ("rubrics:\n  polite: c\ncritiques:\n  polite: c\n", "metric(s) named twice: polite"),
    ("metrics: [faithfulness\n", "not valid YAML"),
])
def test_a_bad_file_is_one_error_naming_the_file_and_entry(tmp_path, text, message):
    path = tmp_path / "metrics.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidMetricsFile) as caught:
        load_metrics_file(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_metrics_file_check_command(tmp_path):
    good, bad = tmp_path / "metrics.toml", tmp_path / "bad.toml"
    good.write_text(TOML, encoding="utf-8")
    bad.write_text("[rubrics.tone]\nlevels = {1 = 'a'}\n", encoding="utf-8")
    runner = CliRunner()
    ok = runner.invoke(app, ["metrics", "--file", str(good)], terminal_width=200)
    assert ok.exit_code == 0, ok.output
    assert "6 metric(s), all valid" in flat(ok.output) and "helpful" in ok.output and "GEval" in ok.output
    failed = runner.invoke(app, ["metrics", "--file", str(bad)], terminal_width=200)
    assert failed.exit_code == 2
    assert "rubrics.tone: a criterion is required" in flat(failed.output)


def test_evaluate_runs_the_file_and_the_options_and_the_gate_reads_them(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    metrics = tmp_path / "metrics.yaml"
    metrics.write_text("rubrics:\n  tone:\n    criterion: Friendly?\n    levels: {1: rude, 5: warm}\n"
                       "python:\n  - team_metrics_cm:cites_source\n", encoding="utf-8")
    out = tmp_path / "result.json"
    runner = CliRunner()
    responder = scripted_judge.make_responder(levels={"rubric_tone": 4, "rubric_format": 2, "g_eval_helpful": 3})
    with OpenAIMockServer(chat_responder=responder) as server:
        judge = f"openai:mock@{server.base_url}"
        ran = runner.invoke(app, ["evaluate", str(data), "--metrics-file", str(metrics), "--judge", judge,
                                  "--rubric", "format=Are citations in [n] form?; 1: none; 3: all",
                                  "--g-eval", "helpful=Does the answer help the user?",
                                  "-o", str(out), "-q", "--no-record"], terminal_width=200)
        assert ran.exit_code == 0, ran.output
        users = [c.json["messages"][-1]["content"] for c in server.calls("/chat/completions")]
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert list(saved["info"]["metrics"]) == ["tone", "cites_source", "format", "helpful"]  # the file replaces the default set
    assert saved["info"]["metrics"]["helpful"]["steps"][0] == "Read the answer against: Does the answer help the user?"
    scores = [{k: v["value"] for k, v in s["scores"].items()} for s in sorted(saved["samples"], key=lambda s: s["row"])]
    assert scores == [{"tone": 0.75, "cites_source": 1.0, "format": 0.5, "helpful": 0.5},
                      {"tone": 0.75, "cites_source": 0.0, "format": 0.5, "helpful": 0.5}]
    assert len(users) == 1 + len(ROWS)  # the steps once, then one bundled call per sample
    assert all("Task rubric_tone:" in u and "Task rubric_format:" in u and "Task g_eval_helpful:" in u for u in users[1:])

    assert runner.invoke(app, ["gate", str(out), "--min", "tone=0.7"]).exit_code == 0
    failed = runner.invoke(app, ["gate", str(out), "--min", "tone=0.8,cites_source=0.4"])
    assert failed.exit_code == 1 and "tone" in failed.output


def test_bad_rubric_options_exit_2_with_the_reason(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(ROWS[0]) + "\n", encoding="utf-8")
    runner = CliRunner()
    for spec, message in (("tone", "--rubric takes NAME=CRITERION"), ("tone=c; one: rude", "each level is 'LEVEL: DESCRIPTION'"),
                          ("tone=c; 1: only", "at least two levels"), ("tone=@missing.txt", "cannot read missing.txt")):
        ran = runner.invoke(app, ["evaluate", str(data), "--rubric", spec, "--judge", "openai:x@http://127.0.0.1:9/v1", "-q"],
                            terminal_width=200)
        assert ran.exit_code == 2, (spec, ran.output)
        assert message in flat(ran.output), (spec, ran.output)


def test_a_rubric_from_a_file(tmp_path):
    from ragmeter.cli.metric_options import parse_rubric

    (tmp_path / "tone.txt").write_text("Is the tone warm?\n1: cold\n2: lukewarm\n3: warm\n", encoding="utf-8")
    rubric = parse_rubric(f"tone=@{tmp_path / 'tone.txt'}")
    assert rubric.criterion == "Is the tone warm?" and rubric.levels == {1: "cold", 2: "lukewarm", 3: "warm"}
