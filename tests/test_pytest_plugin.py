"""The pytest plugin, run as a user would: a project's test file in a pytester sandbox."""

from __future__ import annotations

import json
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_gate import make_result, noisy, quality  # noqa: E402

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _project_ini(pytester):
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")


def test_the_plugin_is_registered_for_every_project():
    eps = [ep for ep in entry_points(group="pytest11") if ep.name == "ragmeter"]
    assert eps and eps[0].value == "ragmeter.pytest_plugin"


def test_assert_metrics_passes_and_fails_with_a_readable_table(pytester):
    make_result({"faithfulness": [0.9, 0.2, 0.8, 0.1], "context_recall": [1.0, 0.9, 0.8, 0.9]}).save(
        pytester.path / "result.json")
    pytester.makepyfile(test_quality="""
        from ragmeter.pytest_plugin import assert_metrics

        def test_recall_is_fine():
            report = assert_metrics("result.json", context_recall=0.8)
            assert report.passed

        def test_faithfulness_falls_short():
            assert_metrics("result.json", faithfulness=0.8, context_recall=0.8)
    """)
    run = pytester.runpytest("-p", "no:cacheprovider")
    run.assert_outcomes(passed=1, failed=1)
    out = run.stdout.str()
    assert "FAIL faithfulness" in out and "mean 0.500 < minimum 0.800" in out
    assert "ok   context_recall" in out
    # the worst samples, lowest first, with the judge's reasons
    assert out.index("row 3 (q3): 0.100") < out.index("row 1 (q1): 0.200")
    assert "faithfulness reason for row 3" in out


def test_assert_metrics_against_a_baseline(pytester):
    values = quality()
    make_result({"faithfulness": values}, run_id="main").save(pytester.path / "base.json")
    make_result({"faithfulness": noisy(values, 3)}, run_id="rerun").save(pytester.path / "rerun.json")
    make_result({"faithfulness": [v * 0.5 for v in values]}, run_id="pr").save(pytester.path / "worse.json")
    pytester.makepyfile(test_regression="""
        from ragmeter.pytest_plugin import assert_metrics

        def test_rerun_holds():
            assert_metrics("rerun.json", baseline="base.json")

        def test_worse_regresses():
            assert_metrics("worse.json", baseline="base.json")
    """)
    run = pytester.runpytest("-p", "no:cacheprovider")
    run.assert_outcomes(passed=1, failed=1)
    assert "regressed" in run.stdout.str() and "baseline 0." in run.stdout.str()


def test_evaluate_fixture_uses_the_session_judge_and_keeps_results(pytester):
    rows = [
        {"question": "Capital of France?", "answer": "Paris", "ground_truth": "Paris"},
        {"question": "Capital of Italy?", "answer": "Milan", "ground_truth": "Rome"},
    ]
    (pytester.path / "answers.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    pytester.makepyfile(test_app="""
        from ragmeter.pytest_plugin import assert_metrics

        def test_answers(ragmeter_evaluate):
            result = ragmeter_evaluate("answers.jsonl", ["exact_match", "token_f1"])
            assert result.info.judge is None or "local" in result.info.judge
            assert_metrics(result, exact_match=0.5)

        def test_answers_strict(ragmeter_evaluate):
            result = ragmeter_evaluate("answers.jsonl", ["exact_match"])
            assert_metrics(result, exact_match=0.9)
    """)
    run = pytester.runpytest("-p", "no:cacheprovider", "--ragmeter-out", "results")
    run.assert_outcomes(passed=1, failed=1)
    out = run.stdout.str()
    assert "ragmeter" in out and "test_app.py::test_answers: 2 samples; exact_match 0.500, token_f1 0.500" in out
    saved = sorted(p.name for p in (pytester.path / "results").iterdir())
    assert saved == ["test_app.py_test_answers.json", "test_app.py_test_answers_strict.json"]


def test_assert_metrics_needs_something_to_check():
    from ragmeter.pytest_plugin import assert_metrics

    with pytest.raises(TypeError, match="at least one"):
        assert_metrics(make_result({"m": [0.5]}))
