"""Reliability edge cases (issue 15): nothing wrong stays cached, nothing is dropped silently.

Each test drives a real run against the OpenAI-compatible test server on 127.0.0.1.
"""

from __future__ import annotations

import json

import pytest

from ragmeter import evaluate
from ragmeter.calls import DiskCache
from ragmeter.testing import scripted_judge
from ragmeter.testing.openai_server import OpenAIMockServer, Reply

SECRET = "sk-test-reliability-SECRET-77"
PARIS = {
    "id": "paris",
    "question": "What is the capital of France?",
    "answer": "Paris is the capital of France.",
    "contexts": ["France is in Western Europe. Its capital is Paris."],
    "ground_truth": "The capital of France is Paris.",
}


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as srv:
        yield srv


def run(server, data, metrics=("faithfulness",), **options):
    options.setdefault("show_progress", False)
    options.setdefault("judge_options", {"timeout": 2.0})
    return evaluate(data, list(metrics), judge=f"openai:mock-judge@{server.base_url}",
                    embedder=f"openai:mock-embed@{server.base_url}", **options)


# --- 1. only replies that validated enter the cache; a failed score is retried on resume ---


def test_an_invalid_reply_is_not_cached_and_the_failed_score_is_retried_on_resume(server, tmp_path):
    cut = Reply(content='{"claims": ["Paris is', finish_reason="length")
    server.chat_responder = lambda request: cut  # the server truncates every reply
    first = run(server, [PARIS], journal=tmp_path / "journal.jsonl")
    failed = first.samples[0].scores["faithfulness"]
    assert failed.value is None and failed.error.kind == "JudgeOutputInvalid"
    assert failed.error.transient  # a resumed run tries it again

    server.chat_responder = scripted_judge.respond  # the server recovers
    calls = len(server.calls())
    again = run(server, [PARIS], journal=tmp_path / "journal.jsonl")  # same command, resume on
    assert again.samples[0].scores["faithfulness"].value == 1.0
    assert len(server.calls()) > calls  # asked again, not replayed from the cache
    assert again.info.resumed_scores == 0


def test_no_resume_does_not_replay_an_invalid_reply_from_the_cache(server, tmp_path):
    server.chat_responder = lambda request: Reply(content="not json at all")
    assert run(server, [PARIS], journal=False).samples[0].scores["faithfulness"].error.kind == "JudgeOutputInvalid"
    server.chat_responder = scripted_judge.respond
    assert run(server, [PARIS], journal=False).samples[0].scores["faithfulness"].value == 1.0


def test_a_repaired_conversation_caches_only_the_reply_that_validated(server, tmp_path):
    cache = DiskCache(tmp_path / "c.sqlite")
    server.script.append(Reply(content="{oops"))  # the first reply is malformed; the re-ask repairs it
    first = run(server, [PARIS], cache=cache, journal=False)
    assert first.samples[0].scores["faithfulness"].value == 1.0
    stored = [json.loads(v) for v in cache.get_many("chat", _keys(cache)).values()]
    assert stored and all(entry["content"] != "{oops" for entry in stored)


def _keys(cache: DiskCache) -> list[str]:
    return [k for (k,) in cache._db.execute("SELECT key FROM entries WHERE namespace = 'chat'")]


# --- 4. a resumed, partly finished sample sends the requests an uninterrupted run sends ---


def test_resuming_a_partly_finished_sample_replays_its_requests_from_the_cache(server, tmp_path):
    metrics = ["faithfulness", "answer_relevancy", "context_recall"]
    journal = tmp_path / "journal.jsonl"
    first = run(server, [PARIS], metrics, journal=journal)
    # as if killed after one of the sample's scores was journaled and before the others
    lines = journal.read_text().splitlines()
    kept = [line for line in lines if json.loads(line).get("metric") not in ("answer_relevancy", "context_recall")]
    assert len(kept) == len(lines) - 2
    journal.write_text("\n".join(kept) + "\n")
    calls = len(server.calls())
    again = run(server, [PARIS], metrics, journal=journal)
    assert again.info.resumed_scores == 1
    assert len(server.calls()) == calls  # the cache served every request: they were the same
    assert {n: s.value for n, s in again.samples[0].scores.items()} == {
        n: s.value for n, s in first.samples[0].scores.items()
    }
