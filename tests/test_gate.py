"""The gate: minimums, paired bootstrap regressions against a baseline, markdown, CLI exit codes."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from ragmeter.data import Sample
from ragmeter.errors import JudgeTimeout
from ragmeter.gate import check, compare, paired_bootstrap_ci, sample_keys
from ragmeter.metrics.score import MetricScore
from ragmeter.result import EvaluationResult, RunInfo, SampleResult

QUESTIONS = [f"Question number {i} about topic {i % 7}?" for i in range(60)]


def make_result(values: dict[str, list[float | None]], *, run_id: str = "run", ids: bool = True,
                questions: list[str] | None = None, order: list[int] | None = None) -> EvaluationResult:
    """A result with the given per-sample values; None becomes a failed (timed-out) score."""
    n = len(next(iter(values.values())))
    questions = questions or QUESTIONS[:n]
    samples = []
    for row in order or range(n):
        scores = {}
        for metric, column in values.items():
            v = column[row]
            scores[metric] = (MetricScore.ok(v, f"{metric} reason for row {row}") if v is not None
                              else MetricScore.failed(JudgeTimeout("no answer in 60 s")))
        sample = Sample(question=questions[row], answer=f"answer {row}", id=f"q{row}" if ids else None)
        samples.append(SampleResult(row=row, id=sample.id, sample=sample, scores=scores))
    info = RunInfo(run_id=run_id, ragmeter_version="test", metrics={m: {} for m in values}, judge="local",
                   started=0.0, summary_metrics=list(values))
    return EvaluationResult(info=info, samples=samples)


def quality(n: int = 60, seed: int = 1) -> list[float]:
    rng = np.random.default_rng(seed)
    return list(np.clip(rng.beta(5, 2, size=n), 0, 1))


def noisy(values: list[float], seed: int, sd: float = 0.06) -> list[float]:
    rng = np.random.default_rng(seed)
    return list(np.clip(np.asarray(values) + rng.normal(0, sd, size=len(values)), 0, 1))


# --- the bootstrap itself ----------------------------------------------------------------


def test_bootstrap_interval_contains_the_mean_difference_and_is_reproducible():
    cur, base = [0.9, 0.8, 0.7, 0.6, 0.5], [1.0, 0.9, 0.9, 0.7, 0.6]
    delta, low, high = paired_bootstrap_ci(cur, base, seed=3)
    assert delta == pytest.approx(-0.12)
    assert low <= delta <= high < 0
    assert paired_bootstrap_ci(cur, base, seed=3) == (delta, low, high)


def test_bootstrap_of_identical_runs_is_exactly_zero():
    assert paired_bootstrap_ci([0.3, 0.6, 0.9], [0.3, 0.6, 0.9]) == (0.0, 0.0, 0.0)


def test_pairing_cancels_what_samples_share():
    # Every sample loses about 0.02 while the samples differ widely (0.02..1.0): the spread
    # between samples would swamp an unpaired comparison; the paired one sees the drop.
    base = np.linspace(0.02, 1.0, 50)
    cur = base - 0.02 + np.random.default_rng(0).normal(0, 0.005, 50)
    delta, low, high = paired_bootstrap_ci(cur, base)
    assert delta == pytest.approx(-0.02, abs=0.002)
    assert high < 0
    unpaired_sd = np.sqrt(base.var() / 50 + cur.var() / 50)
    assert 1.96 * unpaired_sd > abs(delta)  # an unpaired interval would straddle zero


@pytest.mark.parametrize("bad", [([0.1], [0.1, 0.2]), ([], [])])
def test_bootstrap_rejects_unpaired_input(bad):
    with pytest.raises(ValueError):
        paired_bootstrap_ci(*bad)


def test_bootstrap_handles_many_samples_in_bounded_batches():
    rng = np.random.default_rng(0)
    base = rng.random(100_000)
    delta, low, high = paired_bootstrap_ci(base - 0.001, base, resamples=200)
    assert low == pytest.approx(-0.001) and high == pytest.approx(-0.001)


# --- regressions against a baseline --------------------------------------------------------


def test_a_real_drop_fails_and_names_the_samples_that_fell():
    base_values = quality()
    # The new version breaks the answers to a fifth of the questions.
    cur_values = [v * 0.3 if i % 5 == 0 else v for i, v in enumerate(noisy(base_values, seed=9, sd=0.03))]
    baseline = make_result({"faithfulness": base_values}, run_id="main")
    current = make_result({"faithfulness": cur_values}, run_id="pr")
    report = check(current, baseline=baseline)
    assert not report.passed
    [item] = report.checks
    assert item.comparison.status == "regressed" and item.comparison.ci_high < 0
    assert item.comparison.paired == 60
    assert all(w.row % 5 == 0 and w.baseline_value > w.value for w in item.worst)
    md = report.to_markdown()
    assert "❌ FAIL" in md and "regressed" in md and "biggest drops" in md
    assert f"faithfulness reason for row {item.worst[0].row}" in md


def test_a_noisy_identical_rerun_passes():
    base_values = quality()
    baseline = make_result({"faithfulness": base_values, "context_recall": quality(seed=2)}, run_id="main")
    flagged = 0
    for seed in range(20):
        rerun = make_result({"faithfulness": noisy(base_values, seed), "context_recall": noisy(quality(seed=2), seed + 100)},
                            run_id=f"rerun{seed}")
        report = check(rerun, {"faithfulness": 0.5}, baseline=baseline)
        flagged += not report.passed
    # Judge noise of sd 0.06 per sample: a 95% interval makes a false alarm rare (at most
    # 2.5% per metric per rerun in expectation).
    assert flagged <= 1
    rerun = make_result({"faithfulness": noisy(base_values, 0), "context_recall": noisy(quality(seed=2), 100)})
    report = check(rerun, {"faithfulness": 0.5}, baseline=baseline)
    assert report.passed, report.to_text()
    assert {c.comparison.status for c in report.checks} == {"unchanged"}


def test_max_drop_tolerates_a_small_significant_drop():
    base_values = quality()
    cur_values = [max(0.0, v - 0.02) for v in base_values]
    baseline, current = make_result({"m": base_values}), make_result({"m": cur_values})
    assert not check(current, baseline=baseline).passed
    assert check(current, baseline=baseline, max_drop=0.05).passed


def test_an_improvement_is_reported_and_passes():
    base_values = [v * 0.6 for v in quality()]
    report = check(make_result({"m": quality()}), baseline=make_result({"m": base_values}))
    assert report.passed and report.checks[0].comparison.status == "improved"


def test_samples_are_matched_by_id_whatever_their_order():
    values = quality()
    baseline = make_result({"m": values})
    shuffled = list(range(60))
    random.Random(0).shuffle(shuffled)
    current = make_result({"m": values}, order=shuffled)
    cmp = compare(current, baseline)[0]
    assert cmp.paired == 60 and cmp.delta == 0.0 and cmp.status == "unchanged"


def test_without_ids_samples_are_matched_by_question_with_repeats_in_order():
    questions = ["same?", "same?", "other?"]
    a = make_result({"m": [0.1, 0.9, 0.5]}, ids=False, questions=questions)
    assert sample_keys(a.samples) == ["q:same?#1", "q:same?#2", "q:other?#1"]
    b = make_result({"m": [0.1, 0.9, 0.5]}, ids=False, questions=questions, order=[2, 0, 1])
    assert compare(b, a)[0].delta == 0.0


def test_failed_scores_are_left_out_of_the_pairs_and_too_few_pairs_is_not_comparable():
    baseline = make_result({"m": [0.5, 0.6, 0.7]})
    current = make_result({"m": [None, None, 0.1]})
    cmp = compare(current, baseline)[0]
    assert cmp.paired == 1 and cmp.status == "not comparable" and "need at least 2" in cmp.note
    report = check(current, baseline=baseline)
    assert report.passed  # nothing to compare is not a regression...
    assert not check(current, {"m": 0.5}, baseline=baseline).passed  # ...but the minimum still holds


# --- minimums and errors --------------------------------------------------------------------


def test_minimums_fail_with_the_lowest_samples_and_their_reasons():
    result = make_result({"faithfulness": [0.9, 0.2, 0.8, 0.1], "answer_relevancy": [0.9, 0.9, 0.9, 0.9]})
    report = check(result, {"faithfulness": 0.8, "answer_relevancy": 0.8})
    assert not report.passed
    assert [c.metric for c in report.failed] == ["faithfulness"]
    assert [w.row for w in report.failed[0].worst] == [3, 1, 2]
    text = report.to_text()
    assert "FAIL faithfulness" in text and "mean 0.500 < minimum 0.800" in text
    assert "faithfulness reason for row 3" in text
    assert "ok   answer_relevancy" in text


def test_a_gated_metric_missing_or_never_scored_fails_with_the_cause():
    result = make_result({"faithfulness": [None, None]})
    report = check(result, {"faithfulness": 0.5, "context_recall": 0.5})
    causes = {c.metric: c.failures[0] for c in report.checks}
    assert "no sample was scored (JudgeTimeout x2)" == causes["faithfulness"]
    assert causes["context_recall"].startswith("context_recall is not in the result")


def test_error_rate_limit():
    result = make_result({"m": [0.9, 0.9, 0.9, None]})
    assert check(result, {"m": 0.5}).passed
    report = check(result, {"m": 0.5}, max_error_rate=0.1)
    assert not report.passed and "25.0% of scores failed" in report.failed[0].failures[0]


def test_a_check_failed_on_its_error_rate_lists_the_failed_rows_and_their_errors():
    result = make_result({"m": [1.0, None, 1.0, 1.0, None, 1.0]})
    report = check(result, max_error_rate=0.1)  # no minimum: only the error rate fails
    worst = report.failed[0].worst
    assert [(w.row, w.value, w.error) for w in worst] == [
        (1, None, "JudgeTimeout: no answer in 60 s"), (4, None, "JudgeTimeout: no answer in 60 s")]
    text = report.to_text()
    assert "failed samples for m:" in text and "row 1 (q1): JudgeTimeout: no answer in 60 s" in text
    assert "row 0" not in text  # a 1.0 explains nothing
    assert "<code>m</code>: failed scores" in report.to_markdown()
    # the mean failing too: the failed rows first, then the lowest scores
    both = check(make_result({"m": [0.2, None, 0.1, 0.9]}), {"m": 0.8}, max_error_rate=0.1)
    assert [(w.row, w.value) for w in both.failed[0].worst] == [(1, None), (2, 0.1), (0, 0.2), (3, 0.9)]


def test_minimum_out_of_range_is_an_error():
    with pytest.raises(ValueError, match="must be in"):
        check(make_result({"m": [0.5]}), {"m": 80})


def test_markdown_cells_cannot_break_the_table():
    result = make_result({"m": [0.1, 0.9]}, questions=["a | b\nnew line <b>x</b>?", "ok?"])
    md = check(result, {"m": 0.9}).to_markdown()
    row = next(line for line in md.splitlines() if line.startswith("| 0 "))
    assert "a \\| b new line &lt;b&gt;x&lt;/b&gt;?" in row


# --- the command --------------------------------------------------------------------------


@pytest.fixture()
def files(tmp_path):
    base_values = quality()
    paths = {
        "base": make_result({"faithfulness": base_values}, run_id="main").save(tmp_path / "base.json"),
        "same": make_result({"faithfulness": noisy(base_values, 1)}, run_id="rerun").save(tmp_path / "same.json"),
        "worse": make_result({"faithfulness": [v * 0.5 for v in base_values]}, run_id="pr").save(tmp_path / "worse.json"),
    }
    return paths


def test_cli_exit_codes_and_step_summary(files, tmp_path, monkeypatch):
    from ragmeter.cli.app import app

    runner = CliRunner()
    ok = runner.invoke(app, ["gate", str(files["same"]), "--min", "faithfulness=0.5", "--baseline", str(files["base"])])
    assert ok.exit_code == 0, ok.output
    assert "PASS" in ok.output

    summary = tmp_path / "step_summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    bad = runner.invoke(app, ["gate", str(files["worse"]), "--baseline", str(files["base"])])
    assert bad.exit_code == 1
    assert "regressed" in bad.output
    assert "### ragmeter gate: ❌ FAIL" in summary.read_text()

    low = runner.invoke(app, ["gate", str(files["same"]), "--min", "faithfulness=0.99", "--markdown"])
    assert low.exit_code == 1 and "| `faithfulness` |" in low.output


def test_cli_cannot_judge_bad_input(files, tmp_path):
    from ragmeter.cli.app import app

    runner = CliRunner()
    missing = runner.invoke(app, ["gate", str(tmp_path / "nope.json"), "--min", "faithfulness=0.5"])
    assert missing.exit_code == 2 and "does not exist" in " ".join(missing.output.split())
    (tmp_path / "junk.json").write_text(json.dumps({"not": "a result"}))
    junk = runner.invoke(app, ["gate", str(tmp_path / "junk.json")])
    assert junk.exit_code == 2 and "not a ragmeter result file" in " ".join(junk.output.split())
    syntax = runner.invoke(app, ["gate", str(files["same"]), "--min", "faithfulness"])
    assert syntax.exit_code == 2 and "METRIC=VALUE" in syntax.output


def test_lower_is_better_metrics_gate_the_other_way():
    base = [0.1 + 0.005 * i for i in range(60)]
    worse = [v + 0.2 for v in base]
    baseline = make_result({"noise_sensitivity": base})
    baseline.info.lower_is_better = ["noise_sensitivity"]
    current = make_result({"noise_sensitivity": worse})
    current.info.lower_is_better = ["noise_sensitivity"]
    report = check(current, {"noise_sensitivity": 0.3}, baseline=baseline)
    [item] = report.checks
    assert item.comparison.status == "regressed" and "lower is better" in item.comparison.note
    assert item.failures[0] == "mean 0.448 > maximum 0.300 (lower is better)"
    assert item.worst[0].value > item.worst[0].baseline_value
    assert "≤ 0.30" in report.to_markdown() and "biggest rises" in report.to_markdown()
    better = check(baseline, baseline=current)
    assert better.passed and better.checks[0].comparison.status == "improved"
    # an older result file without the field: the metric's class says which way is better
    current.info.lower_is_better = []
    assert compare(current, baseline)[0].status == "regressed"
