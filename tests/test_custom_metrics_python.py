"""``@ragmeter.metric``: a Python function of a sample is a judge-free metric whose scores
are exactly what the function returns, through ``evaluate``, the result file, the report
and the gate; bad return values are typed errors, never NaN."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import ragmeter
from ragmeter.cli.app import app
from ragmeter.metrics import FunctionMetric, get_metric

ROWS = [
    {"question": "What is the capital of France?", "answer": "Paris [1]."},
    {"question": "How tall is it?", "answer": "It is tall, see the guide."},
    {"question": "Who wrote it?", "answer": "Victor Hugo [2] and [3]."},
]


@ragmeter.metric(name="cites_source", required=("answer",))
def cites_source(sample):
    """Share of the answer's sentences that carry a [n] citation."""
    sentences = [s for s in sample.answer.split(".") if s.strip()]
    cited = sum("[" in s for s in sentences)
    return cited / len(sentences), f"{cited} of {len(sentences)} sentences cite"


@ragmeter.metric(name="answer_words")
async def answer_words(sample):
    return min(1.0, len(sample.answer.split()) / 10)


def expected(row):
    return cites_source.function(ragmeter.Sample(**row))[0]


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)


def test_the_decorator_makes_a_registered_judge_free_metric():
    assert isinstance(cites_source, FunctionMetric)
    assert cites_source.name == "cites_source" and not cites_source.uses_judge and not cites_source.uses_embedder
    assert isinstance(get_metric("cites_source"), FunctionMetric)
    assert cites_source(ragmeter.Sample(answer="A [1]. B.")) == (0.5, "1 of 2 sentences cite")  # still callable
    assert cites_source.__doc__.startswith("Share of the answer's sentences")


def test_scores_equal_what_the_function_returns_through_evaluate_file_report_and_gate(tmp_path):
    result = ragmeter.evaluate(ROWS, [cites_source, "answer_words"], judge=None, journal=False, record=False,
                               show_progress=False, cache=False)
    assert result["cites_source"] == [1.0, 0.0, 1.0] == [expected(r) for r in ROWS]
    assert result["answer_words"] == [0.2, 0.6, 0.5]
    assert result.samples[1].scores["cites_source"].reason == "0 of 1 sentences cite"
    assert result.usage == {} or "judge" not in result.usage  # no judge at all

    path = result.save(tmp_path / "result.json")
    loaded = ragmeter.EvaluationResult.load(path)
    assert loaded["cites_source"] == [1.0, 0.0, 1.0]
    assert loaded.summary()["cites_source"].mean == pytest.approx(2 / 3)

    from ragmeter.report import render_report

    page = render_report(loaded)
    data = json.loads(page.split('id="report-data">')[1].split("</script>")[0])
    assert [m["name"] for m in data["metrics"]] == ["cites_source", "answer_words"]
    assert [s["v"][0] for s in data["samples"]] == [1.0, 0.0, 1.0]
    assert data["samples"][1]["s"][0]["r"] == "0 of 1 sentences cite"

    runner = CliRunner()
    passed = runner.invoke(app, ["gate", str(path), "--min", "cites_source=0.6"])
    failed = runner.invoke(app, ["gate", str(path), "--min", "cites_source=0.7"])
    assert passed.exit_code == 0, passed.output
    assert failed.exit_code == 1, failed.output
    assert "cites_source" in failed.output and "0.667" in failed.output


@pytest.mark.parametrize("returned, kind", [("high", "InvalidScore"), (float("nan"), "InvalidScore"),
                                            (1.5, "InvalidScore"), (None, "InvalidScore")])
def test_a_bad_return_value_is_a_typed_error_naming_the_metric(returned, kind):
    @ragmeter.metric(name="bad_return")
    def bad_return(sample):
        return returned

    result = ragmeter.evaluate(ROWS[:1], [bad_return], judge=None, journal=False, record=False, show_progress=False,
                               cache=False)
    score = result.samples[0].scores["bad_return"]
    assert score.value is None and score.error.kind == kind


def test_a_missing_required_field_and_a_raising_function_fail_alone():
    @ragmeter.metric(name="needs_truth", required=("ground_truth",))
    def needs_truth(sample):
        return 1.0

    @ragmeter.metric(name="raises")
    def raises(sample):
        raise RuntimeError("boom")

    result = ragmeter.evaluate(ROWS[:1], [needs_truth, raises, cites_source], judge=None, journal=False,
                               record=False, show_progress=False, cache=False)
    scores = result.samples[0].scores
    assert scores["needs_truth"].error.kind == "MissingInput"
    assert scores["raises"].error.kind == "MetricFailed" and "boom" in scores["raises"].reason
    assert scores["cites_source"].value == 1.0


def test_a_built_in_name_is_refused():
    with pytest.raises(ValueError, match="built-in metric"):
        @ragmeter.metric(name="faithfulness")
        def mine(sample):
            return 1.0


def test_editing_the_function_is_a_new_run_identity():
    def one(sample):
        return 1.0

    def two(sample):
        return 0.5

    first = ragmeter.metric(name="edited")(one).config()["code"]
    second = ragmeter.metric(name="edited")(two).config()["code"]
    assert first != second


def test_a_decorated_metric_pickles_by_reference():
    import pickle

    assert pickle.loads(pickle.dumps(cites_source)) is cites_source
