"""bench/risk_coverage.py's pure functions on hand-made verdicts (no model is loaded)."""

from __future__ import annotations

import math

import pytest

from bench_modules import bench_module

rc = bench_module("risk_coverage")

# right?  yes/1 right, no/0 right, yes/0 WRONG, no/0 right, yes/1 right
PROBS = [0.9, 0.1, 0.6, 0.45, 0.8]
LABELS = [1, 0, 0, 0, 1]
# by confidence |p - 0.5|: 0.9 (0.4), 0.1 (0.4), 0.8 (0.3), 0.6 (0.1), 0.45 (0.05)
# right in that order: T, T, T, F, T


def test_risk_coverage_curve_most_confident_first():
    curve = rc.risk_coverage(PROBS, LABELS, (0.2, 0.4, 0.6, 0.8, 1.0))
    assert [(c, k) for c, k, _ in curve] == [(0.2, 1), (0.4, 2), (0.6, 3), (0.8, 4), (1.0, 5)]
    assert [right for _, _, right in curve] == pytest.approx([1.0, 1.0, 1.0, 0.75, 0.8])


def test_kept_count_rounds_up_and_keeps_one():
    assert rc.kept_count(0.1, 5) == 1
    assert rc.kept_count(0.3, 10) == 3
    assert rc.kept_count(0.7, 10) == 7
    assert rc.kept_count(0.01, 5) == 1
    assert rc.kept_count(1.0, 5) == 5
    assert rc.kept_count(0.5, 0) == 0


def test_kept_at_95_largest_coverage_still_right_enough():
    assert rc.kept_at(PROBS, LABELS, 0.95) == pytest.approx(0.6)
    assert rc.kept_at(PROBS, LABELS, 0.8) == pytest.approx(1.0)
    assert rc.kept_at([0.9, 0.2], [0, 1], 0.95) == 0.0  # nothing right: 0


def test_kept_at_never_cuts_inside_equal_confidences():
    # 0.9 right and 0.1 wrong have the same confidence: no threshold keeps one without the other
    assert rc.kept_at([0.9, 0.1], [1, 1], 0.95) == 0.0
    assert rc.kept_at([0.9, 0.1, 0.7], [1, 0, 0], 0.95) == pytest.approx(2 / 3)


def test_band_shares_default_band_and_half_half():
    default = rc.band_shares(PROBS, LABELS, 0.25, 0.75)
    # kept 0.9, 0.1, 0.8 (all right); escalated 0.6 and 0.45, which the LLM is taken to answer right
    assert default == {"kept": pytest.approx(0.6), "right": pytest.approx(1.0), "right_with_llm": 1.0, "escalated": 2}
    none_escalated = rc.band_shares(PROBS, LABELS, 0.5, 0.5)
    assert none_escalated == {"kept": 1.0, "right": pytest.approx(0.8), "right_with_llm": pytest.approx(0.8),
                              "escalated": 0}


def test_band_edges_are_kept():
    # the cascade escalates LOW < p < HIGH: p on an edge stays local
    shares = rc.band_shares([0.25, 0.75, 0.5], [0, 1, 1], 0.25, 0.75)
    assert shares["kept"] == pytest.approx(2 / 3)
    assert shares["right"] == 1.0
    assert shares["escalated"] == 1
    everything = rc.band_shares([0.4, 0.6], [0, 1], 0.25, 0.75)
    assert everything["kept"] == 0.0 and math.isnan(everything["right"])


def test_reliability_bins():
    bins = rc.reliability([0.05, 0.15, 0.95, 1.0, 0.99], [0, 1, 1, 1, 0])
    assert len(bins) == 10
    assert [b["count"] for b in bins] == [1, 1, 0, 0, 0, 0, 0, 0, 0, 3]
    assert bins[0]["mean_p"] == pytest.approx(0.05) and bins[0]["positive"] == 0.0
    assert bins[1]["mean_p"] == pytest.approx(0.15) and bins[1]["positive"] == 1.0
    assert bins[9]["mean_p"] == pytest.approx(0.98) and bins[9]["positive"] == pytest.approx(2 / 3)
    assert math.isnan(bins[5]["mean_p"]) and math.isnan(bins[5]["positive"])


def test_rank_probabilities():
    assert rc.rank_probabilities([3.0, 1.0, 2.0]) == pytest.approx([1.0, 0.0, 0.5])
    assert rc.rank_probabilities([1.0, 1.0, 2.0]) == pytest.approx([0.25, 0.25, 1.0])
    assert rc.rank_probabilities([7.0]) == [0.5]


def test_summary_and_figure_keys():
    s = rc.summary(PROBS, LABELS)
    assert s["n"] == 5 and s["positive_rate"] == pytest.approx(0.4)
    assert s["kept_at_95"] == pytest.approx(0.6)
    raw = rc.summary([1.0, 0.0, 1.0, 0.0, 1.0], LABELS)
    report = {"chunk_relevance": {"blind": {"data": "d", "local": s, "raw": raw, "baseline": s}}}
    keys = {k: v for k, v, _, kind in rc.figures(report)}
    assert keys["risk.chunk_relevance.blind.right_with_llm_at_band_0.05_0.95"] == pytest.approx(1.0)
    # raw 1, 0, 1, 0, 1 against 1, 0, 0, 0, 1: bins [0, 0.1) 2 of 0 yes, [0.9, 1] 3 of which 2 yes
    assert keys["risk.chunk_relevance.blind.ece_raw"] == pytest.approx(3 / 5 * (1 - 2 / 3))
    assert keys["risk.chunk_relevance.blind.kept_at_95"] == pytest.approx(0.6)
    assert keys["risk.chunk_relevance.blind.right_at_band_0.25_0.75"] == pytest.approx(1.0)
    assert keys["risk.chunk_relevance.blind.kept_at_band_0.25_0.75"] == pytest.approx(0.6)
    assert keys["risk.chunk_relevance.blind.right_at_band_0.5_0.5"] == pytest.approx(0.8)
    assert keys["risk.chunk_relevance.blind.baseline.minilm_cosine_rank.kept_at_95"] == pytest.approx(0.6)
