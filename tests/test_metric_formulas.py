"""Every formula as a pure function, on the worked examples of METRICS.md and the edges."""

from __future__ import annotations

import math

import pytest

from ragmeter.metrics import (
    answer_correctness_score,
    answer_relevancy_score,
    claim_precision_recall_f1,
    context_precision_score,
    context_recall_score,
    context_relevancy_score,
    entity_recall_score,
    factual_f1,
    faithfulness_score,
    majority_vote,
    noise_sensitivity_score,
    normalise_entity,
    selection_agreement,
    summary_score,
)

TAJ_GE = ["Taj Mahal", "Yamuna", "Agra", "1631", "Shah Jahan", "Mumtaz Mahal"]


def test_faithfulness_einstein():
    # "born in Germany" supported, "born on 20th March 1879" not
    assert faithfulness_score([True, False]) == 0.5
    assert faithfulness_score([True, True]) == 1.0
    assert faithfulness_score([]) is None  # no claims: undefined, not 0 or 1


def test_context_precision_france():
    assert context_precision_score([False, True]) == 0.5  # precision@2 = 1/2
    assert context_precision_score([True, False]) == 1.0
    assert context_precision_score([False, False]) == 0.0
    # v = [1, 0, 1]: (1/1 + 2/3) / 2
    assert context_precision_score([True, False, True]) == pytest.approx((1 + 2 / 3) / 2)


def test_context_recall_france():
    assert context_recall_score([True, False]) == 0.5
    assert context_recall_score([]) is None


def test_context_entity_recall_taj_mahal():
    assert entity_recall_score(TAJ_GE, ["Taj Mahal", "Agra", "Shah Jahan", "Mumtaz Mahal", "India"]) == pytest.approx(4 / 6)
    assert entity_recall_score(TAJ_GE, ["Taj Mahal", "UNESCO", "India"]) == pytest.approx(1 / 6)
    assert entity_recall_score([], ["India"]) is None


def test_entities_match_after_normalisation():
    assert normalise_entity("the Taj Mahal") == normalise_entity("TAJ MAHAL,") == "taj mahal"
    assert normalise_entity("1,631") == "1631"
    assert entity_recall_score(["The Yamuna"], ["yamuna"]) == 1.0


def test_answer_correctness_einstein():
    # answer "born in Spain in 1879" vs truth "born in 1879 in Germany": TP 1, FP 1, FN 1
    assert factual_f1(1, 1, 1) == 0.5
    assert factual_f1(0, 0, 0) is None
    assert answer_correctness_score(0.5, 1.0) == pytest.approx(0.75 * 0.5 + 0.25 * 1.0)
    assert answer_correctness_score(0.5, 0.2, (1.0, 0.0)) == 0.5
    assert answer_correctness_score(1.0, -0.3) == 0.75  # a negative cosine counts as 0


def test_factual_correctness_precision_recall_f1():
    p, r, f = claim_precision_recall_f1(supported=1, answer_claims=2, stated=1, truth_claims=2)
    assert (p, r, f) == (0.5, 0.5, 0.5)
    assert claim_precision_recall_f1(0, 2, 0, 3) == (0.0, 0.0, 0.0)
    assert claim_precision_recall_f1(0, 0, 1, 2) == (None, 0.5, None)


def test_answer_relevancy():
    assert answer_relevancy_score([0.9, 0.7, 0.8], noncommittal=False) == pytest.approx(0.8)
    assert answer_relevancy_score([0.9, 0.7, 0.8], noncommittal=True) == 0.0
    assert answer_relevancy_score([-0.2, 0.6], noncommittal=False) == pytest.approx(0.3)


def test_context_relevancy_and_agreement():
    # two sentences about France and Paris, both needed, vs the same plus two about wines
    assert context_relevancy_score([{1, 2}], 2) == 1.0
    assert context_relevancy_score([{1, 2}], 4) == 0.5
    # strictness 3: votes {1}, {1,2}, {1}: majority {1}; agreement (1/2 + 1 + 1/2) / 3
    votes = [{1}, {1, 2}, {1}]
    assert selection_agreement(votes) == pytest.approx(2 / 3)
    assert context_relevancy_score(votes, 2) == pytest.approx(1 / 2 * 2 / 3)
    assert selection_agreement([set(), set()]) == 1.0
    assert context_relevancy_score([set()], 0) == 0.0


def test_majority_vote():
    assert majority_vote([True, False, True]) is True
    assert majority_vote([False, False, True]) is False
    assert majority_vote([True]) is True


def test_noise_sensitivity():
    # claims: correct & in contexts, wrong & in contexts, wrong & not in contexts
    assert noise_sensitivity_score([True, False, False], [True, True, False]) == pytest.approx(1 / 3)
    assert noise_sensitivity_score([], []) is None


def test_summary_score_is_the_harmonic_mean():
    assert summary_score({"retrieval": 0.2, "generation": 0.9}) == pytest.approx(2 / (1 / 0.2 + 1 / 0.9))
    assert summary_score({"a": 0.0, "b": 1.0}) == 0.0
    assert summary_score({"a": None}) is None
    assert summary_score({"a": 0.5, "b": None}) == 0.5
    assert not math.isnan(summary_score({"a": 1.0}))
