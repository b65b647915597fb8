"""evaluate() end to end through a real local OpenAI-compatible server and a scripted judge."""

from __future__ import annotations

import asyncio
import json
import logging
import math

import pytest

from ragmeter.testing import scripted_judge
from ragmeter import Dataset, EvaluationResult, aevaluate, evaluate
from ragmeter.calls import DiskCache
from ragmeter.testing.openai_server import OpenAIMockServer, Reply

SECRET = "sk-test-NEVER-STORED-0987654321"

EINSTEIN_CONTEXT = (
    "Albert Einstein (born 14 March 1879) was a German-born theoretical physicist, widely held "
    "to be one of the greatest scientists of all time."
)
RECORDS = [
    {
        "id": "einstein-wrong-date",
        "question": "Where and when was Einstein born?",
        "answer": "Einstein was born in Germany. Einstein was born on 20th March 1879.",
        "contexts": [EINSTEIN_CONTEXT],
        "ground_truth": "Einstein was born in Germany on 14 March 1879.",
    },
    {
        "id": "einstein-right-date",
        "question": "Where and when was Einstein born?",
        "answer": "Einstein was born in Germany. Einstein was born on 14 March 1879.",
        "contexts": [EINSTEIN_CONTEXT],
        "ground_truth": "Einstein was born in Germany on 14 March 1879.",
    },
    {
        "id": "refusal",
        "question": "What is the capital of Atlantis?",
        "answer": "I don't know based on the documents.",
        "contexts": ["Atlantis is a fictional island in a work by Plato."],
        "ground_truth": "Atlantis is fictional and has no capital.",
    },
    {
        "id": "paris",
        "user_input": "What is the capital of France?",  # Ragas column names are accepted
        "response": "Paris is the capital of France.",
        "retrieved_contexts": ["France is in Western Europe. Its capital is Paris."],
        "reference": "The capital of France is Paris.",
    },
]
EXPECTED_FAITHFULNESS = {"einstein-wrong-date": 0.5, "einstein-right-date": 1.0, "refusal": None, "paris": 1.0}


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as srv:
        yield srv


def run(server, data=RECORDS, metrics=("faithfulness", "answer_similarity"), **options):
    options.setdefault("show_progress", False)
    options.setdefault("judge_options", {"timeout": 2.0})
    return evaluate(
        data,
        list(metrics),
        judge=f"openai:mock-judge@{server.base_url}",
        embedder=f"openai:mock-embed@{server.base_url}",
        **options,
    )


def by_id(result: EvaluationResult, metric: str) -> dict:
    return {s.id: s.scores[metric].value for s in result.samples}


def assert_no_nan(result: EvaluationResult) -> None:
    for sample in result.samples:
        for name, score in sample.scores.items():
            assert score.value is None or math.isfinite(score.value), (sample.id, name)
            assert (score.value is None) == (score.error is not None), (sample.id, name)


def test_scores_reasons_and_verdicts(server):
    result = run(server)
    assert by_id(result, "faithfulness") == EXPECTED_FAITHFULNESS
    wrong = result.samples[0].scores["faithfulness"]
    assert wrong.reason.startswith("1 of 2 claims are supported")
    assert [v["supported"] for v in wrong.verdicts] == [True, False]
    assert "20th March 1879" in wrong.verdicts[1]["claim"]
    refusal = result.samples[2].scores["faithfulness"]
    assert refusal.error.kind == "NoClaims" and "no_claims" in refusal.reason
    similarity = by_id(result, "answer_similarity")
    assert all(0.0 <= v <= 1.0 for v in similarity.values())
    assert similarity["einstein-right-date"] > similarity["refusal"]
    assert_no_nan(result)
    # 2 judge calls per sample (claims, verdicts) except the refusal, which has no claims to verify
    assert result.usage["judge"].calls == 7
    summary = result.summary()
    assert summary["faithfulness"].scored == 3 and summary["faithfulness"].errors_by_kind == {"NoClaims": 1}
    assert summary["faithfulness"].mean == pytest.approx((0.5 + 1 + 1) / 3)


def test_result_to_pandas_and_json_round_trip(server, tmp_path):
    result = run(server)
    frame = result.to_pandas()
    assert list(frame["id"]) == [r["id"] for r in RECORDS]
    assert {"faithfulness", "faithfulness_reason", "faithfulness_error", "answer_similarity"} <= set(frame.columns)
    assert frame.loc[2, "faithfulness_error"].startswith("NoClaims")
    path = result.save(tmp_path / "out" / "result.json")
    loaded = EvaluationResult.load(path)
    assert loaded == result


@pytest.mark.parametrize(
    "failures",
    [
        [Reply(status=429, headers={"Retry-After": "0.2"})],
        [Reply(status=500), Reply(status=502)],
        [Reply(content="{}", delay=2.0)],  # hung past the timeout
        [Reply(content='{"claims": "not a list"}')],  # malformed: repaired
        [Reply(content='{"claims": ["Einstein was', finish_reason="length")],  # truncated: repaired
    ],
    ids=["429-retry-after", "5xx", "hung", "malformed", "truncated"],
)
def test_failures_recover_to_the_same_scores(server, failures):
    server.script.extend(failures)
    result = run(server, data=RECORDS[:1], metrics=["faithfulness"], concurrency=1,
                 judge_options={"timeout": 0.5})
    score = result.samples[0].scores["faithfulness"]
    assert score.value == 0.5, score
    usage = result.usage["judge"]
    assert usage.retries + usage.repairs == len(failures)


def test_failures_that_do_not_recover_are_typed_and_the_run_goes_on(server):
    # the first sample's claim call fails on every attempt; the others are scored
    server.script.extend([Reply(status=503)] * 2)
    result = run(server, metrics=["faithfulness"], concurrency=1,
                 judge_options={"timeout": 2.0, "max_attempts": 2})
    first = result.samples[0].scores["faithfulness"]
    assert first.value is None and first.error.kind == "JudgeUnavailable" and first.error.transient
    assert by_id(result, "faithfulness")["paris"] == 1.0
    assert_no_nan(result)


def test_second_identical_run_makes_no_http_calls(server):
    first = run(server)
    calls = len(server.calls())
    second = run(server, journal=False)  # no journal: only the cache can make it free
    assert len(server.calls()) == calls
    assert second.usage["judge"].calls == 0 and second.usage["judge"].cache_hits == first.usage["judge"].calls
    assert second.usage["embedder"].calls == 0
    assert by_id(second, "faithfulness") == by_id(first, "faithfulness")


def test_rerun_resumes_from_the_journal(server):
    first = run(server)
    again = run(server)
    assert again.info.resumed_scores == len(RECORDS) * 2
    assert again.usage["judge"].cache_hits == 0  # nothing was even asked of the cache
    assert by_id(again, "faithfulness") == by_id(first, "faithfulness")


def test_malformed_rows_are_named_and_the_rest_scored(server, tmp_path):
    good = RECORDS[3]
    bad_rows = {
        3: {**good, "response": 42},  # non-text answer
        7: {**good, "retrieved_contexts": "Paris"},  # a string where a list belongs
        11: {**good, "retrieved_contexts": []},  # empty list
        15: {k: v for k, v in good.items() if k != "response"},  # missing answer
        19: {**good, "user_input": {"text": "capital?"}},  # non-text question
        23: {**good, "retrieved_contexts": ["ok", 7]},  # a non-text chunk
        27: {**good, "response": "   "},  # blank answer
        31: None,  # not even a JSON object: written as a broken line below
        35: {**good, "reference": ["Paris"]},  # a list where text belongs
        39: {**good, "retrieved_contexts": None},  # null contexts
    }
    path = tmp_path / "fifty.jsonl"
    with path.open("w") as handle:
        for i in range(50):
            if i == 31:
                handle.write('{"user_input": "broken\n')
            else:
                handle.write(json.dumps(bad_rows.get(i, {**good, "id": f"ok-{i}"})) + "\n")
    result = run(server, data=str(path), metrics=["faithfulness", "answer_similarity"])
    errors = result.errors()
    assert sorted({e.row for e in errors}) == sorted(bad_rows)
    named = {e.row: str(e) for e in errors}
    # a field is named as the user spelled it (Ragas 'response') or by its canonical name
    for row, fields in [(3, "response"), (7, "retrieved_contexts"), (11, "contexts"), (15, "answer"),
                        (19, "user_input"), (23, "retrieved_contexts"), (27, "answer"), (35, "reference"),
                        (39, "contexts")]:
        assert named[row].startswith(f"row {row}") and fields in named[row], named[row]
    assert "line 32" in named[31] or "row 31" in named[31]
    fully_scored = [s for s in result.samples if all(sc.value is not None for sc in s.scores.values())]
    assert len(fully_scored) == 40
    assert_no_nan(result)


def test_async_api_and_running_loop(server):
    async def from_async_code():
        return await aevaluate(RECORDS, ["faithfulness"], judge=f"openai:mock-judge@{server.base_url}",
                               show_progress=False, journal=False)

    result = asyncio.run(from_async_code())
    assert by_id(result, "faithfulness") == EXPECTED_FAITHFULNESS

    async def notebook_cell():
        # a notebook calls the sync function while its own loop is running
        return evaluate(RECORDS, ["faithfulness"], judge=f"openai:mock-judge@{server.base_url}",
                        show_progress=False, journal=False)

    assert by_id(asyncio.run(notebook_cell()), "faithfulness") == EXPECTED_FAITHFULNESS


def test_local_judge_gives_a_typed_error_for_llm_only_metrics(server):
    result = evaluate(RECORDS[:1], ["harmfulness"], judge="local", show_progress=False, journal=False)
    score = result.samples[0].scores["harmfulness"]
    assert score.value is None and score.error.kind == "NeedsLLMJudge"


def test_api_key_is_never_stored_or_logged(server, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    server.script.extend([Reply(status=429, headers={"Retry-After": "0"}), Reply(status=401)])
    result = run(server, concurrency=1)
    result.save(tmp_path / "result.json")
    assert any(s.error for s in result.samples for s in s.scores.values())  # the 401 was recorded
    DiskCache(tmp_path / "cache" / "cache.sqlite").close()
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".jsonl" for p in files) and any(p.name.startswith("cache.sqlite") for p in files)
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in caplog.text
    assert SECRET not in result.model_dump_json()


def test_bad_metric_name_is_a_clear_error(server):
    with pytest.raises(ValueError, match="unknown metric 'faithfullness'.*available"):
        run(server, metrics=["faithfullness"])


def test_dataset_object_and_pandas_inputs(server):
    dataset = Dataset.from_records(RECORDS)
    assert by_id(run(server, data=dataset, metrics=["faithfulness"]), "faithfulness") == EXPECTED_FAITHFULNESS
    frame = dataset.to_pandas()
    assert by_id(run(server, data=frame, metrics=["faithfulness"]), "faithfulness") == EXPECTED_FAITHFULNESS


def test_a_journal_path_reused_by_another_run_is_replaced_not_mixed(server, tmp_path):
    path = tmp_path / "journal.jsonl"
    run(server, metrics=["faithfulness"], journal=path)
    other = run(server, data=RECORDS[:2], metrics=["faithfulness"], journal=path)
    assert other.info.resumed_scores == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [l["type"] for l in lines] == ["header", "score", "score"]
    assert lines[0]["run_id"] == other.info.run_id
    again = run(server, data=RECORDS[:2], metrics=["faithfulness"], journal=path)
    assert again.info.resumed_scores == 2
