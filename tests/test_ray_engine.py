"""engine="ray": the same run as the local engine, scored by Ray actors on a local Ray.

One local Ray (2 CPUs, so two workers, each loading its own models) serves the module.
What is compared with the single-process run, and how exactly:

* rows, sample ids, input errors, run id and run settings: equal;
* judge-free scores (values, reasons, verdicts): equal;
* model-based scores (MiniLM, spaCy): values equal to 1e-6, same errors;
* usage: an embedder's ``calls`` depend on how requests happen to be micro-batched, so a
  cold run is not comparable call for call; with a warm cache every lookup is a hit, and the
  hits are per sample, so the merged totals must equal the local run's exactly. An LLM judge
  (the OpenAI mock on 127.0.0.1, no cache) makes a fixed number of calls and tokens per
  sample: those must be equal too.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter import EvaluationResult, evaluate
from ragmeter.judges.local import LocalJudge

# Ray Data's own context warns about its deprecated settings whenever a dataset is built
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data.context")

JUDGE_FREE = ["exact_match", "token_f1", "rouge_l", "id_context_recall"]
MODEL_BASED = ["answer_similarity", "faithfulness"]


def records(n: int = 40) -> list[dict]:
    out = []
    for i in range(n):
        colour = "red" if i % 3 else "blue"
        out.append({
            "id": f"s{i}",
            "question": f"What colour is item {i}?",
            "answer": f"Item {i} is {colour}. It was made in {1990 + i}.",
            "contexts": [f"Item {i} is red and was made in {1990 + i}.", "Unrelated text about boats."],
            "ground_truth": f"Item {i} is red.",
            "retrieved_context_ids": [f"c{i}", f"c{i + 1}"],
            "reference_context_ids": [f"c{i}"] if i % 4 else [f"c{i + 5}"],
        })
    out.insert(7, {"question": 42, "answer": "not text"})  # bad rows: named, skipped, kept as input errors
    out.insert(min(20, len(out)), {"question": "q", "contexts": "not a list"})
    return out


@pytest.fixture(scope="module")
def ray_local(tmp_path_factory):
    ray = pytest.importorskip("ray")
    with pytest.MonkeyPatch.context() as mp:
        # set before ray.init: the workers inherit the driver's environment
        mp.setenv("RAGMETER_CACHE_DIR", str(tmp_path_factory.mktemp("ray-cache-dir")))
        mp.setenv("OPENAI_API_KEY", "sk-test")
        mp.setenv("RAY_USAGE_STATS_ENABLED", "0")  # nothing leaves the machine
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            yield ray
        finally:
            ray.shutdown()


def run(data, metrics, **options):
    options.setdefault("journal", False)
    return evaluate(data, metrics, show_progress=False, **options)


def dumped(result: EvaluationResult) -> list[dict]:
    return [s.model_dump(mode="json") for s in result.samples]


def test_ray_gives_the_local_run_scores_errors_identity_and_usage(ray_local, tmp_path, minilm):
    cache = str(tmp_path / "cache.sqlite")
    metrics = JUDGE_FREE + MODEL_BASED
    local = run(records(), metrics, cache=cache)  # cold: fills the cache
    on_ray = run(records(), metrics, cache=cache, engine="ray")  # warm

    assert [s.row for s in on_ray.samples] == [s.row for s in local.samples]
    assert len(on_ray.samples) == 40 and on_ray.samples[7].row == 8  # rows as in the source
    assert on_ray.input_errors == local.input_errors and [e.row for e in on_ray.input_errors] == [7, 20]
    assert on_ray.info.run_id == local.info.run_id
    same = ("metrics", "judge", "embedder", "source", "summary_metrics", "lower_is_better", "language")
    assert {k: getattr(on_ray.info, k) for k in same} == {k: getattr(local.info, k) for k in same}

    for mine, theirs in zip(on_ray.samples, local.samples):
        assert mine.sample == theirs.sample
        for name in JUDGE_FREE:
            assert mine.scores[name] == theirs.scores[name]
        for name in MODEL_BASED:
            a, b = mine.scores[name], theirs.scores[name]
            assert a.error == b.error
            assert (a.value is None) == (b.value is None)
            if a.value is not None:
                assert a.value == pytest.approx(b.value, abs=1e-6)
    assert on_ray.summary().keys() == local.summary().keys()

    # usage: every worker's embedder looked every text up in the warm cache; merged, the
    # hits are those of a warm local run, and nothing was embedded again
    warm_local = run(records(), metrics, cache=cache)
    assert set(on_ray.usage) == {"judge", "embedder"}
    assert on_ray.usage["embedder"].calls == 0
    assert on_ray.usage["embedder"].cache_hits > 0
    assert on_ray.usage == warm_local.usage


def test_an_llm_judge_on_ray_spends_what_the_local_run_spends(ray_local):
    from ragmeter.testing import scripted_judge
    from ragmeter.testing.openai_server import OpenAIMockServer

    data = records(16)
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        options = dict(judge=f"openai:mock@{server.base_url}", cache=False, language="German",
                       judge_options={"prices": {"mock": (1.0, 2.0)}})
        local = run(data, ["faithfulness", "context_recall"], **options)
        sent_locally = len(server.calls("/chat/completions"))
        on_ray = run(data, ["faithfulness", "context_recall"], engine="ray", **options)
        sent_on_ray = len(server.calls("/chat/completions")) - sent_locally

    assert dumped(on_ray) == dumped(local)  # the scripted judge is deterministic
    assert on_ray.info.run_id == local.info.run_id
    mine, theirs = on_ray.usage["judge"], local.usage["judge"]
    assert mine.calls == theirs.calls == sent_on_ray == sent_locally > 0
    assert (mine.prompt_tokens, mine.completion_tokens) == (theirs.prompt_tokens, theirs.completion_tokens)
    assert mine.cost == pytest.approx(theirs.cost)


def test_out_parquet_streams_the_ray_run(ray_local, tmp_path):
    local = run(records(), JUDGE_FREE, cache=False)
    path = tmp_path / "result.parquet"
    streamed = run(records(), JUDGE_FREE, cache=False, engine="ray", out=path)
    assert streamed.samples == [] and streamed.streamed is not None and streamed.streamed.samples == 40
    assert streamed.summary() == local.summary()
    back = EvaluationResult.load(path)
    assert dumped(back) == dumped(local)
    assert back.input_errors == local.input_errors and back.info.run_id == local.info.run_id


def test_a_ray_dataset_is_read_in_order(ray_local):
    good = [r for r in records(24) if "id" in r]
    from_ray = run(ray_local.data.from_items(good, override_num_blocks=3), JUDGE_FREE, cache=False, engine="ray")
    local = run(good, JUDGE_FREE, cache=False)
    assert dumped(from_ray) == dumped(local)
    assert from_ray.info.run_id == local.info.run_id


def test_a_ray_run_resumes_from_its_journal(ray_local, tmp_path):
    journal = tmp_path / "run.jsonl"
    first = run(records(12), JUDGE_FREE, cache=False, engine="ray", journal=journal)
    lines = [json.loads(line) for line in journal.read_text().splitlines() if line.strip()]
    assert sum(1 for line in lines if line["type"] == "score") == 12 * len(JUDGE_FREE)
    again = run(records(12), JUDGE_FREE, cache=False, engine="ray", journal=journal)
    assert again.info.resumed_scores == 12 * len(JUDGE_FREE)
    assert dumped(again) == dumped(first)


def test_cli_engine_ray(ray_local, tmp_path):
    from ragmeter.cli.app import app

    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in records(10)) + "\n")
    out = tmp_path / "result.json"
    result = CliRunner().invoke(app, ["evaluate", str(data), "-m", ",".join(JUDGE_FREE), "--engine", "ray",
                                      "--no-cache", "--journal", str(tmp_path / "j.jsonl"), "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(EvaluationResult.load(out).samples) == 10
    bad = CliRunner().invoke(app, ["evaluate", str(data), "-m", "exact_match", "--engine", "spark", "-q"])
    assert bad.exit_code == 2 and "unknown engine" in bad.output


def test_an_unknown_engine_or_a_stray_ray_address_is_refused():
    with pytest.raises(ValueError, match="unknown engine 'spark'"):
        evaluate(records(3), JUDGE_FREE, engine="spark")
    with pytest.raises(ValueError, match="ray_address"):
        evaluate(records(3), JUDGE_FREE, ray_address="auto")


def test_a_live_judge_object_is_refused_on_ray():
    pytest.importorskip("ray")
    with pytest.raises(TypeError, match="spec string.*LocalJudge"):
        evaluate(records(3), ["faithfulness"], judge=LocalJudge(), engine="ray", show_progress=False)
    # a judge no metric uses is never sent anywhere, so it is no reason to refuse the run
    with pytest.raises(TypeError, match="embedder"):
        evaluate(records(3), ["answer_similarity"], judge=LocalJudge(), embedder=object(), engine="ray")
