"""The command line: evaluate, metrics, demo; and the recipe runs offline."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragmeter.testing import scripted_judge
from ragmeter import EvaluationResult
from ragmeter.cli.app import app
from ragmeter.testing import OpenAIMockServer

runner = CliRunner()


@pytest.fixture
def data_file(tmp_path):
    path = tmp_path / "data.jsonl"
    rows = [
        {"id": "a", "question": "Capital of France?", "answer": "Paris is the capital of France.",
         "contexts": ["Paris is the capital of France."], "ground_truth": "Paris."},
        {"id": "b", "question": "Capital of France?", "answer": "Lyon is the capital of France.",
         "contexts": ["Paris is the capital of France."], "ground_truth": "Paris."},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def test_metrics_lists_what_each_needs():
    result = runner.invoke(app, ["metrics"])
    assert result.exit_code == 0
    assert "faithfulness" in result.stdout and "answer, contexts" in result.stdout
    assert "answer_similarity" in result.stdout


def test_evaluate_writes_the_result_and_prints_the_table(data_file, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-cli-test")
    out = tmp_path / "result.json"
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        result = runner.invoke(app, [
            "evaluate", str(data_file), "-m", "faithfulness", "--judge", f"openai:m@{server.base_url}",
            "--cache-dir", str(tmp_path / "cache"), "--out", str(out), "--samples", "-q",
        ])
    assert result.exit_code == 0, result.output
    assert "faithfulness" in result.stdout and "0.500" in result.stdout  # mean of 1.0 and 0.0
    saved = EvaluationResult.load(out)
    assert [s.scores["faithfulness"].value for s in saved.samples] == [1.0, 0.0]
    assert saved.usage["judge"].calls == 4


def test_unknown_metric_exits_2_with_the_list(data_file, tmp_path):
    result = runner.invoke(app, ["evaluate", str(data_file), "-m", "faithfullness", "--cache-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown metric" in result.output and "answer_similarity" in result.output


def test_demo_runs_the_whole_chain_offline(minilm, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "demo"
    result = runner.invoke(app, ["demo", "-q", "--out", str(out), "--size", "8"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    for step in ("1. test set:", "2. app:", "3. scores (local judge):", "4. report", "5. gate:"):
        assert step in text
    # rich may break the long temporary path inside the path itself: look for it without spaces
    assert "Openthereport:" + str(out / "report.html") in "".join(text.split())
    for name in ("testset.jsonl", "dataset.jsonl", "result.json", "report.html", "graph.json"):
        assert (out / name).exists(), name
    rows = [json.loads(line) for line in (out / "dataset.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and all(r.get("answer") and len(r["contexts"]) == 3 and r["reference_context_ids"] for r in rows)


def test_recipe_runs_offline(minilm, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["evaluate_jsonl.py"])
    runpy.run_path(str(Path(__file__).resolve().parents[1] / "recipes" / "evaluate_jsonl.py"), run_name="__main__")
    assert "answer_similarity: mean" in capsys.readouterr().out


def test_evaluate_with_the_local_embedder_and_one_thread(minilm, data_file, tmp_path, monkeypatch):
    import ragmeter.embedders.spec as spec

    built = []

    class Spy(spec.SentenceTransformerEmbedder):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(spec, "SentenceTransformerEmbedder", Spy)
    result = runner.invoke(app, ["evaluate", str(data_file), "-m", "answer_similarity", "--threads", "1",
                                 "--cache-dir", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    assert "answer_similarity" in result.stdout
    assert [e.threads for e in built] == [1] and built[0].usage.calls >= 1
