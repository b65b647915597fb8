"""Running any callable over a test set: shapes of output, sync and async, errors, timeouts,
bounded concurrency, and the ``ragmeter run --app`` command."""

from __future__ import annotations

import asyncio
import json
import textwrap
import threading
import time

import pytest
from typer.testing import CliRunner

from ragmeter.adapters import AppOutput, load_app, read_output, run_app
from ragmeter.adapters.output import AppOutputError
from ragmeter.cli.app import app

QUESTIONS = [{"id": f"q{i}", "question": f"question {i}?", "ground_truth": f"answer {i}"} for i in range(6)]


class Doc:  # the shape of a LangChain Document
    def __init__(self, text, **metadata):
        self.page_content = text
        self.metadata = metadata


class Node:  # the shape of a LlamaIndex NodeWithScore
    def __init__(self, text, node_id):
        self.node = type("TextNode", (), {"text": text, "node_id": node_id, "metadata": {}})()
        self.score = 0.5


def test_read_output_understands_the_common_shapes():
    assert read_output("plain") == AppOutput("plain")
    assert read_output(("a", ["c1", "c2"])).contexts == ["c1", "c2"]
    lc = read_output({"answer": "a", "context": [Doc("d1", id="x1"), Doc("d2", id="x2")]})
    assert (lc.contexts, lc.context_ids) == (["d1", "d2"], ["x1", "x2"])
    qa = read_output({"result": "a", "source_documents": [Doc("s1")]})
    assert (qa.answer, qa.contexts, qa.context_ids) == ("a", ["s1"], None)
    li = read_output(type("Response", (), {"response": "r", "source_nodes": [Node("n1", "id1"), Node("n2", "id2")]})())
    assert (li.answer, li.contexts, li.context_ids) == ("r", ["n1", "n2"], ["id1", "id2"])
    assert read_output({"answer": "a", "contexts": [{"text": "t", "metadata": {"chunk_id": "c9"}}]}).context_ids == ["c9"]
    with pytest.raises(AppOutputError, match="without an answer key.*'reply'"):
        read_output({"reply": "a"})
    with pytest.raises(AppOutputError, match="cannot read an answer from a int"):
        read_output(42)


def test_sync_app_runs_in_threads_with_bounded_concurrency():
    running, peak, lock = [0], [0], threading.Lock()

    def rag(question: str):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return {"answer": question.upper(), "contexts": [f"ctx for {question}", "second"]}

    started = time.perf_counter()
    result = run_app(QUESTIONS, rag, concurrency=3, show_progress=False)
    assert peak[0] == 3  # three at a time, not one and not six
    assert time.perf_counter() - started < 6 * 0.05  # they overlapped
    assert [s.answer for s in result.dataset] == [q["question"].upper() for q in QUESTIONS]
    assert all(s.contexts == [f"ctx for {s.question}", "second"] for s in result.dataset)
    assert [s.ground_truth for s in result.dataset] == [q["ground_truth"] for q in QUESTIONS]  # kept
    assert not result.errors


def test_async_app_errors_and_timeouts_are_recorded_per_question():
    async def rag(question: str):
        n = int(question.split()[1].rstrip("?"))
        if n == 1:
            raise RuntimeError("vector store unavailable")
        if n == 2:
            await asyncio.sleep(5)
        if n == 3:
            return {"reply": "wrong shape"}
        return question, [f"ctx {n}"]

    records = QUESTIONS + [{"id": "empty", "ground_truth": "x"}]
    result = run_app(records, rag, concurrency=8, timeout=0.5, show_progress=False)
    by_id = {e.id: e.error for e in result.errors}
    assert by_id["q1"] == "RuntimeError: vector store unavailable"
    assert by_id["q2"].startswith("Timeout")
    assert by_id["q3"].startswith("AppOutputError")
    assert by_id["empty"].startswith("MissingInput")
    samples = {s.id: s for s in result.dataset}
    assert samples["q1"].answer is None and samples["q1"].metadata["app_error"] == by_id["q1"]
    assert samples["q0"].answer == "question 0?" and samples["q0"].contexts == ["ctx 0"]
    assert "app_latency_s" in samples["q4"].metadata
    assert result.answered == 3


def test_load_app_specs(tmp_path, monkeypatch):
    (tmp_path / "my_rag.py").write_text("def answer(q):\n    return q, ['c']\nvalue = 3\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert load_app("my_rag:answer")("q") == ("q", ["c"])
    assert load_app(str(tmp_path / "my_rag.py") + ":answer")("q") == ("q", ["c"])
    with pytest.raises(ValueError, match="MODULE:FUNCTION"):
        load_app("my_rag")
    with pytest.raises(ValueError, match="has no attribute 'nope'"):
        load_app("my_rag:nope")
    with pytest.raises(ValueError, match="not a callable"):
        load_app("my_rag:value")
    with pytest.raises(ValueError, match="cannot import app module"):
        load_app("no_such_module_here:f")


def test_cli_run(tmp_path, monkeypatch):
    (tmp_path / "rag_app.py").write_text(textwrap.dedent("""
        import asyncio

        async def answer(question):
            if "3" in question:
                raise ValueError("no documents for this one")
            await asyncio.sleep(0)
            return {"answer": "because " + question, "contexts": ["chunk A", "chunk B"]}
    """), encoding="utf-8")
    testset = tmp_path / "testset.jsonl"
    testset.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "dataset.jsonl"
    done = CliRunner().invoke(app, ["run", str(testset), "--app", "rag_app:answer", "--out", str(out), "-q"])
    assert done.exit_code == 0, done.output
    assert "5 of 6 questions answered" in done.output
    assert "q3" in done.output and "no documents for this one" in done.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 6
    assert rows[0]["answer"] == "because question 0?" and rows[0]["contexts"] == ["chunk A", "chunk B"]
    assert rows[3].get("answer") is None and "no documents" in rows[3]["metadata"]["app_error"]

    bad = CliRunner().invoke(app, ["run", str(testset), "--app", "rag_app", "--out", str(out)])
    assert bad.exit_code == 2 and "MODULE:FUNCTION" in bad.output
