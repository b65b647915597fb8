"""Dry run: the calls and tokens a run would spend, against the calls the run then makes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragmeter import estimate, evaluate
from ragmeter.judges.dry_run import estimated_claims, synthetic_reply
from ragmeter.testing import scripted_judge
from ragmeter.testing.openai_server import OpenAIMockServer

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluate import RECORDS  # noqa: E402

METRICS = ["faithfulness", "answer_relevancy", "context_precision", "context_recall", "answer_correctness",
           "context_entity_recall", "answer_similarity"]


def records(copies: int = 8) -> list[dict]:
    out = []
    for i in range(copies):
        for r in RECORDS:
            r = dict(r)
            r["id"] = f"{r.get('id', 'paris')}-{i}"
            for k in ("answer", "response"):
                if k in r:
                    r[k] += f" This is note {i}."
            out.append(r)
    return out


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-dry-run")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as srv:
        yield srv


def options(server) -> dict:
    return dict(judge=f"openai:mock-judge@{server.base_url}", embedder=f"openai:mock-embed@{server.base_url}",
                show_progress=False, judge_options={"timeout": 10.0, "prices": {"mock-judge": (1.0, 2.0)}})


def test_estimate_sends_nothing_and_predicts_the_calls_of_the_run(server):
    data = records()
    est = estimate(data, METRICS, **options(server))
    assert server.requests == []  # nothing was sent
    assert est.samples == 32 and est.calls > 0
    result = evaluate(data, METRICS, journal=False, **options(server))
    usage = result.usage["judge"]
    sent = usage.calls - usage.retries  # distinct requests (a retry resends one)
    assert abs(est.calls - sent) <= 0.05 * sent
    assert est.prompt_tokens == pytest.approx(usage.prompt_tokens, rel=0.25)
    assert est.cost == pytest.approx((est.prompt_tokens * 1.0 + est.completion_tokens * 2.0) / 1e6)
    # the cache is taken into account: a rerun would cost nothing
    again = estimate(data, METRICS, **options(server))
    assert again.calls == 0 and again.cache_hits == est.calls and again.cost is None
    assert "answered by the cache" in again.to_text()


def test_votes_are_separate_calls(server):
    from ragmeter.metrics import AspectCritique

    data = records(2)
    est = estimate(data, [AspectCritique("politeness", "Is the answer polite?", strictness=3)], **options(server))
    assert est.calls == 3 * len(data)


def test_local_judge_costs_nothing_and_loads_no_model(monkeypatch):
    import ragmeter.judges.local as local

    def boom(*a, **k):
        raise AssertionError("a dry run with the local judge must not load models")

    monkeypatch.setattr(local.LocalJudge, "generate", boom, raising=False)
    est = estimate(records(2), ["faithfulness", "answer_similarity"], judge="local", embedder="local", show_progress=False)
    assert est.calls == 0 and est.samples == 8 and est.total_cost is None
    assert "local judge makes no LLM calls" in est.to_text()


def test_synthetic_replies_validate_and_claims_follow_sentences():
    from ragmeter.judges.bundle import bundle_type
    from ragmeter.judgements.outputs import Claims, verdicts_type

    assert estimated_claims("Paris is big; it is old. Lyon is small, and it is near the Alps.") == [
        "Paris is big", "it is old.", "Lyon is small", "it is near the Alps."]
    messages = [{"role": "user", "content": "<answer>\nOne. Two.\n</answer>"}]
    bundle = bundle_type((("answer_claims", Claims), ("answer_support", verdicts_type(3))))
    reply = synthetic_reply(bundle, messages)
    assert '"claims": ["One.", "Two."]' in reply and reply.count('"verdict"') == 3


def test_cli_dry_run(server, tmp_path):
    import json

    from ragmeter.cli.app import app

    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records(2)) + "\n")
    done = CliRunner().invoke(app, ["evaluate", str(path), "-m", "faithfulness,context_recall", "--dry-run",
                                    "--judge", f"openai:mock-judge@{server.base_url}", "--price", "mock-judge=0.15,0.6"])
    assert done.exit_code == 0, done.output
    text = " ".join(done.output.split())
    assert "dry run: 8 samples x 2 metrics" in text and "calls (" in text and "~$" in text
    assert server.requests == []
