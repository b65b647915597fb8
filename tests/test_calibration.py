"""Calibrated local verdicts: the map (pure), its fit (bench/calibrate.py), the verdicts that carry
it, and the cascade's default that keeps only what the calibration says is right 95% of the time."""

from __future__ import annotations

import json

import pytest

from bench_modules import bench_module
from ragmeter import evaluate
from ragmeter.judges.cascade import CascadeJudge
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.local.calibration import (
    ADDRESSING,
    CHUNK_RELEVANCE,
    SUPPORT,
    Calibration,
    calibrations,
    load_calibrations,
)
from ragmeter.judges.options import DEFAULT_BAND
from ragmeter.testing import OpenAIMockServer, scripted_judge

calibrate = bench_module("calibrate")

EINSTEIN = "Albert Einstein (born 14 March 1879) was a German-born theoretical physicist."


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


# --- the map -------------------------------------------------------------------------------

def test_probability_is_linear_between_knots_and_flat_outside():
    cal = Calibration("support", (0.2, 0.4, 0.8), (0.1, 0.3, 0.9))
    assert cal.probability([0.0, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0]) == pytest.approx([0.1, 0.1, 0.2, 0.3, 0.6, 0.9, 0.9])
    assert cal.probability([]) == []


@pytest.mark.parametrize("knots, values, message", [
    ((0.5, 0.2), (0.1, 0.2), "knots must not decrease"),
    ((0.2, 0.5), (0.6, 0.2), "values must not decrease"),
    ((0.2,), (0.1, 0.2), "pair up"),
    ((), (), "pair up"),
])
def test_a_map_that_would_reorder_verdicts_is_refused(knots, values, message):
    with pytest.raises(ValueError, match=message):
        Calibration("support", knots, values)


def test_the_shipped_file_has_every_kind_monotone_and_says_what_it_was_fitted_on():
    shipped = load_calibrations()
    assert set(shipped) == {SUPPORT, CHUNK_RELEVANCE, ADDRESSING}
    for cal in shipped.values():
        assert "development part" in cal.data
        assert all(0.0 < v < 1.0 for v in cal.values)  # smoothed: never certain from a finite sample


def test_a_missing_file_means_no_calibration(tmp_path):
    assert load_calibrations(tmp_path / "absent.json") == {}
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"kinds": {"support": {"knots": [0, 1], "values": [0.2, 0.8]}}}))
    assert load_calibrations(path)["support"].probability([0.5]) == pytest.approx([0.5])


def test_an_nli_verifier_has_no_support_calibration_but_keeps_the_others():
    assert SUPPORT in calibrations("alignment")
    assert set(calibrations("nli:/models/x")) == {CHUNK_RELEVANCE, ADDRESSING}


# --- the fit (bench/calibrate.py) -------------------------------------------------------------

def test_fit_pools_violators_and_smooths_each_block():
    # raw:   0.1 0.2 0.3 0.4 0.5 0.6   labels 0 0 1 0 1 1
    # isotonic blocks: {0.1, 0.2} mean 0, {0.3, 0.4} mean 0.5, {0.5, 0.6} mean 1
    # smoothed (yes + 1) / (n + 2): 1/4, 2/4, 3/4
    knots, values = calibrate.fit_isotonic([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0, 0, 1, 0, 1, 1])
    assert knots == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert values == pytest.approx([0.25, 0.25, 0.5, 0.5, 0.75, 0.75])


def test_fit_keeps_the_map_monotone_after_smoothing():
    # a big sure block of "no", then a tiny block of "no": smoothing alone would lift the tiny one
    # above the next block (1/3 > 11/102); the second pass pools it back
    raw = [0.01 * k for k in range(100)] + [0.995, 0.996]
    labels = [0] * 50 + [0] * 40 + [1] * 10 + [1, 1]
    knots, values = calibrate.fit_isotonic(raw, labels)
    assert all(b >= a for a, b in zip(values, values[1:]))
    assert all(b > a for a, b in zip(knots, knots[1:]))


def test_reliability_and_expected_calibration_error():
    probs, labels = [0.05, 0.15, 0.95, 0.95], [0, 1, 1, 1]
    bins = calibrate.reliability(probs, labels)
    assert [b["count"] for b in bins] == [1, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    # bins: |0.05 - 0| * 1/4 + |0.15 - 1| * 1/4 + |0.95 - 1| * 2/4
    assert calibrate.expected_calibration_error(probs, labels) == pytest.approx(0.05 / 4 + 0.85 / 4 + 0.05 / 2)


# --- the verdicts carry it --------------------------------------------------------------------

def test_support_verdicts_say_how_sure_they_are(minilm):
    result = evaluate([{"question": "When was Einstein born?", "contexts": [EINSTEIN],
                        "answer": "Einstein was born on 14 March 1879."}],
                      ["faithfulness"], judge="local", cache=False, journal=False, show_progress=False)
    verdicts = result.samples[0].scores["faithfulness"].verdicts
    assert verdicts and all("calibrated" in v["reason"] for v in verdicts)


def test_the_solver_lists_the_calibrated_tasks(minilm):
    import asyncio

    from ragmeter.judgements import needs
    from ragmeter.judgements.tasks import make_task

    sections = {"context": [EINSTEIN], "answer_claim": ["Einstein was born in 1879."],
                "question": "When was Einstein born?", "sentence": ["Einstein was born in 1879."]}
    support = make_task(needs.ANSWER_SUPPORT, sections)
    sentences = make_task(needs.relevant_sentences(), sections)
    solved = asyncio.run(LocalJudge().solve_with_probabilities([support, sentences], sections))
    assert support.key in solved.calibrated and sentences.key not in solved.calibrated
    raw = float(solved.outcomes[support.key].verdicts[0].reason.split("support ")[1].split(";")[0])
    expected = calibrations("alignment")[SUPPORT].probability([raw])[0]
    assert solved.probabilities[support.key] == pytest.approx([expected], abs=0.006)  # the reason rounds raw


# --- the cascade's default -------------------------------------------------------------------

def test_default_keeps_only_calibrated_verdicts_outside_the_sure_band():
    judge = CascadeJudge(LocalJudge(), LocalJudge())  # the second stands in for the LLM: only its name is read
    low, high = DEFAULT_BAND
    assert (low, high) == (0.05, 0.95)
    assert not judge.uncertain(0.97, calibrated=True) and not judge.uncertain(0.03, calibrated=True)
    assert judge.uncertain(0.94, calibrated=True) and judge.uncertain(0.5, calibrated=True)
    assert judge.uncertain(0.999, calibrated=False)  # no calibration: never sure by default
    explicit = CascadeJudge(LocalJudge(), LocalJudge(), band=(0.25, 0.75))
    assert not explicit.uncertain(0.999, calibrated=False) and explicit.uncertain(0.5, calibrated=True)
    assert judge.name == "local+local" and explicit.name == "local+local[band=0.25-0.75]"


def test_default_cascade_escalates_what_the_local_judge_is_not_sure_of(minilm):
    records = [{"question": "When was Einstein born?", "contexts": [EINSTEIN],
                "answer": "Einstein was born on 14 March 1879. He was a physicist.",
                "ground_truth": "Einstein was born on 14 March 1879."}]
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        result = evaluate(records, ["faithfulness", "context_precision"], judge=f"local+openai:mock@{server.base_url}",
                          cache=False, journal=False, show_progress=False)
        requests = [r.json for r in server.calls("/chat/completions")]
    usage = result.usage["judge"]
    # no support calibration reaches 0.95 on the development pairs, and chunk usefulness has none
    top = max(calibrations("alignment")[SUPPORT].values)
    assert top < 0.95
    assert usage.local_judgements == 0 and usage.escalated_judgements >= 3
    content = " ".join(r["messages"][-1]["content"] for r in requests)
    assert "Task answer_support" in content and "Task context_usefulness" in content
