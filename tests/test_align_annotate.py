"""``ragmeter annotate`` in the terminal: one key per label, notes, corrections, a bad key
asked again, quitting and resuming without relabelling; and the key-to-label rules."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter.align import load_labels
from ragmeter.align.annotate import label_from_answer
from ragmeter.cli.app import app
from ragmeter.testing import OpenAIMockServer, scripted_judge

CONTEXT = ["Paris is the capital of France. The Eiffel Tower is 330 metres tall."]
ANSWERS = ["Paris is the capital of France.", "Lyon is the capital of France.",
           "The Eiffel Tower is 330 metres tall. Lyon is big.", "The tower is in Paris."]


def test_label_rules():
    assert label_from_answer("y", 0.8) == 0.8  # agree: the score is the label
    assert label_from_answer("n", 0.8) == 0.0  # disagree with a yes
    assert label_from_answer("N", 0.2) == 1.0  # disagree with a no
    assert label_from_answer("n", 0.6, threshold=0.7) == 1.0
    assert label_from_answer("0.3", None) == 0.3
    for bad, score in (("maybe", 0.5), ("1.5", 0.5), ("y", None)):
        with pytest.raises(ValueError):
            label_from_answer(bad, score)


def test_annotate_in_the_terminal_and_resume(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({"id": f"s{i}", "question": "Tell me about Paris.", "answer": a,
                                        "contexts": CONTEXT}) + "\n" for i, a in enumerate(ANSWERS)))
    labels = tmp_path / "labels.jsonl"
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        args = ["annotate", str(data), "--metrics", "faithfulness", "--judge", f"openai:mock@{server.base_url}",
                "--out", str(labels), "-q"]
        # s0 (judge 1.0): agree; s1 (judge 0.0): a bad key, then disagree with a note; s2: quit
        first = CliRunner().invoke(app, args, input="y\nwhat\nn Lyon is the capital in this test\nq\n")
        assert first.exit_code == 0, first.output
        assert "4 samples to label" in first.output
        assert "type y (agree), n (disagree) or a score in [0, 1]" in first.output
        assert "judge 0.50: 1 of 2 claims are supported" in " ".join(first.output.split())
        done = load_labels(labels)
        assert [(s.sample.id, s.labels, s.note) for s in done.samples] == [
            ("s0", {"faithfulness": 1.0}, None), ("s1", {"faithfulness": 1.0}, "Lyon is the capital in this test")]
        # resume: s0 and s1 are not shown again; s2 gets a corrected score, s3 is skipped
        second = CliRunner().invoke(app, args, input="0.25\ns\n")
        assert second.exit_code == 0, second.output
        assert "2 samples to label (2 already in" in " ".join(second.output.split())
    done = load_labels(labels)
    assert [(s.sample.id, s.labels["faithfulness"]) for s in done.samples] == [("s0", 1.0), ("s1", 1.0), ("s2", 0.25)]
    assert done.samples[0].sample.contexts == CONTEXT and not done.errors
