"""The agreement statistics against values computed by hand, and against scikit-learn/scipy
where the code writes a formula itself; the prediction-powered interval's coverage."""

from __future__ import annotations

import numpy as np
import pytest

from ragmeter.align import statistics as st
from ragmeter.align.ppi import labels_mean, naive_mean, ppi_mean

# 8 samples: judge scores and 0/1 labels (the same as tests/test_align_run.py's scripted run)
SCORES = [1.0, 1.0, 0.0, 0.0, 0.5, 1.0, 0.0, 1 / 3]
LABELS = [1, 1, 0, 0, 0, 0, 1, 0]
# decisions at 0.5: judge [1,1,0,0,1,1,0,0], person [1,1,0,0,0,0,1,0]
# tp = 2 (rows 0, 1), fp = 2 (4, 5), fn = 1 (6), tn = 3 (2, 3, 7)


def test_binary_statistics_by_hand():
    assert st.confusion_table(SCORES, LABELS) == {"tp": 2, "fp": 2, "fn": 1, "tn": 3}
    assert st.accuracy(SCORES, LABELS) == pytest.approx(5 / 8)
    # recall on yes 2/3, on no 3/5
    assert st.balanced_accuracy(SCORES, LABELS) == pytest.approx((2 / 3 + 3 / 5) / 2)
    # p_o = 5/8; p_e = P(judge yes) P(person yes) + P(no) P(no) = 4/8 * 3/8 + 4/8 * 5/8 = 1/2
    assert st.cohen_kappa(SCORES, LABELS) == pytest.approx((5 / 8 - 1 / 2) / (1 - 1 / 2))  # 0.25


def test_rank_statistics_by_hand():
    # average ranks: scores [7,7,2,2,5,7,2,4], labels [7,7,3,3,3,3,7,3]; sum of products of
    # deviations 10, sums of squares 38 and 30
    assert st.spearman(SCORES, LABELS) == pytest.approx(10 / np.sqrt(38 * 30))
    # 28 pairs: concordant 8, discordant 3, tied in scores only 4, in labels only 11, both 2
    assert st.kendall(SCORES, LABELS) == pytest.approx((8 - 3) / np.sqrt((8 + 3 + 4) * (8 + 3 + 11)))
    # 3 positives x 5 negatives: a positive at 1.0 beats 0, 0, 0.5, 1/3 and ties 1.0 (4.5 each,
    # twice); the positive at 0 ties two zeros (1): (9 + 1) / 15
    assert st.pairwise_accuracy(SCORES, LABELS) == pytest.approx(10 / 15)
    assert st.auroc(SCORES, LABELS) == pytest.approx(10 / 15)  # equal for 0/1 labels
    assert st.pair_accuracy([(1.0, 0.0), (0.5, 0.5), (0.2, 0.9)]) == pytest.approx(1.5 / 3)


def test_graded_labels_cut_at_the_threshold():
    scores, grades = [0.9, 0.6, 0.4, 0.1], [0.8, 0.3, 0.7, 0.0]
    # at 0.5: judge [1,1,0,0], person [1,0,1,0]
    assert st.accuracy(scores, grades) == 0.5
    assert st.accuracy(scores, grades, threshold=0.65) == 0.75  # judge [1,0,0,0], person [1,0,1,0]
    assert st.accuracy(scores, grades, threshold=0.2) == 1.0  # judge [1,1,1,0], person [1,1,1,0]
    # pairs the person orders (all 6): the judge gets 5 right, (0.6 vs 0.4) wrong
    assert st.pairwise_accuracy(scores, grades) == pytest.approx(5 / 6)


def test_numpy_formulas_match_scikit_learn():
    from sklearn.metrics import balanced_accuracy_score, cohen_kappa_score

    rng = np.random.default_rng(3)
    for _ in range(20):
        s, y = rng.random(40), rng.integers(0, 2, 40)
        pred = (s >= 0.5).astype(int)
        assert st.balanced_accuracy(s, y) == pytest.approx(balanced_accuracy_score(y, pred))
        assert st.cohen_kappa(s, y) == pytest.approx(cohen_kappa_score(y, pred))


def test_undefined_statistics_are_none_not_nan():
    assert st.balanced_accuracy([0.2, 0.9], [1, 1]) is None  # one class of labels
    assert st.cohen_kappa([0.9, 0.9], [1, 1]) is None  # p_e = 1
    assert st.spearman([0.5, 0.5, 0.5], [0, 1, 1]) is None  # constant scores
    assert st.kendall([0.1, 0.2], [1, 1]) is None
    assert st.pairwise_accuracy([0.1, 0.2], [1, 1]) is None
    assert st.auroc([0.1, 0.2], [0, 0]) is None
    assert st.accuracy([], []) is None
    with pytest.raises(ValueError):
        st.accuracy([0.1, 0.2], [1])


def test_bootstrap_interval_is_the_percentile_of_seeded_resamples():
    agree = (np.array(SCORES) >= 0.5).astype(int) == np.array(LABELS)
    rng = np.random.default_rng(7)
    means = [agree[rng.integers(0, 8, size=8)].mean() for _ in range(500)]
    expected = tuple(np.quantile(means, [0.05, 0.95]))
    got = st.bootstrap_interval(st.accuracy, SCORES, LABELS, confidence=0.9, resamples=500, seed=7)
    assert got == pytest.approx(expected)
    assert st.bootstrap_interval(st.accuracy, SCORES, LABELS, confidence=0.9, resamples=500, seed=7) == got
    assert st.bootstrap_interval(st.accuracy, SCORES, LABELS, confidence=0.9, resamples=500, seed=8) != got
    assert st.bootstrap_interval(st.accuracy, [1.0], [1], resamples=100) is None  # one sample: no interval


def test_ppi_by_hand():
    # judge mean on the run 0.8; on the labelled samples the judge says 0.2 more than people
    got = ppi_mean([0.6, 1.0, 0.8, 0.8], [1.0, 0.6], [0.8, 0.4], confidence=0.95)
    assert got.mean == pytest.approx(0.8 - 0.2)
    se = np.sqrt(np.var([0.6, 1.0, 0.8, 0.8], ddof=1) / 4 + 0.0 / 2)  # the rectifier is constant
    assert (got.low, got.high) == pytest.approx((0.6 - 1.959964 * se, 0.6 + 1.959964 * se), rel=1e-5)
    assert labels_mean([0.0, 1.0]).mean == 0.5
    with pytest.raises(ValueError):
        ppi_mean([0.5], [0.5, 0.5], [1, 0])


def test_ppi_interval_covers_the_true_mean_where_the_naive_one_does_not():
    """A judge that says "yes" too often: on 1,000 simulated runs (2,000 judged samples, 200 of
    them labelled) the prediction-powered 90% interval holds the true mean about 90% of the
    time; the judge's own interval almost never does."""
    rng = np.random.default_rng(0)
    true_rate, reps, big_n, small_n = 0.6, 1000, 2000, 200
    ppi_hits = naive_hits = labels_width = ppi_width = 0.0
    for _ in range(reps):
        y = rng.random(big_n + small_n) < true_rate
        # the judge agrees with a "yes" 95% of the time and calls a "no" a "yes" 30% of the time
        f = np.where(y, rng.random(y.size) < 0.95, rng.random(y.size) < 0.30).astype(float)
        y = y.astype(float)
        ppi = ppi_mean(f[:big_n], f[big_n:], y[big_n:], confidence=0.9)
        naive = naive_mean(f[:big_n], confidence=0.9)
        labelled = labels_mean(y[big_n:], confidence=0.9)
        ppi_hits += ppi.covers(true_rate)
        naive_hits += naive.covers(true_rate)
        ppi_width += ppi.high - ppi.low
        labels_width += labelled.high - labelled.low
    # binomial sd of the coverage over 1,000 runs is about 0.0095
    assert 0.87 <= ppi_hits / reps <= 0.93
    assert naive_hits / reps < 0.05  # the judge's mean is 0.69, its interval +/- 0.017
    assert ppi_width < labels_width  # the judge's scores narrow the labels-only interval
