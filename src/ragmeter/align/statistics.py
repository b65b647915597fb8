"""Agreement between a judge's scores and people's labels: pure functions, one per statistic.

Inputs are paired arrays over the same samples: ``scores`` (the judge, in [0, 1]) and
``labels`` (the people: 0/1, or a grade in [0, 1]). Binary statistics compare yes/no
decisions, the judge's being ``score >= threshold`` and the person's ``label >= threshold``
(so a 0/1 label is itself and a graded label is cut at the same point as the judge).
Rank statistics compare the raw values; Spearman, Kendall and AUROC come from scipy and
scikit-learn, which handle ties the standard way (average ranks, Kendall's tau-b). Kappa and
balanced accuracy are two-line formulas written in numpy because the bootstrap calls them
a thousand times per metric and scikit-learn's input checks cost about 1 ms a call (the
tests check them against scikit-learn).

A statistic that is undefined on the data (one class only, constant scores) is ``None``,
never NaN, so a table can say "n/a" instead of printing a number that is not one.
"""

from __future__ import annotations

import math
import warnings
from typing import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ragmeter.extras import require
from ragmeter.errors import InvalidOption

Statistic = Callable[[ArrayLike, ArrayLike], "float | None"]


def _arrays(scores: ArrayLike, labels: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    if s.shape != y.shape or s.ndim != 1:
        raise InvalidOption(f"scores and labels must be paired 1-d arrays, got {s.shape} and {y.shape}")
    return s, y


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def decisions(values: ArrayLike, threshold: float) -> np.ndarray:
    """Yes/no decisions: ``value >= threshold`` (as 0/1 integers)."""
    return (np.asarray(values, dtype=float) >= threshold).astype(int)


def accuracy(scores: ArrayLike, labels: ArrayLike, threshold: float = 0.5) -> float | None:
    """Share of samples where judge and person decide the same.

        accuracy = (1/n) sum_i [ (s_i >= t) == (y_i >= t) ]
    """
    s, y = _arrays(scores, labels)
    if s.size == 0:
        return None
    return float(np.mean(decisions(s, threshold) == decisions(y, threshold)))


def balanced_accuracy(scores: ArrayLike, labels: ArrayLike, threshold: float = 0.5) -> float | None:
    """Mean of the recall on each class, so a judge that says "yes" to everything scores 0.5
    on a set where most samples are "yes" (plain accuracy would reward it).

        balanced accuracy = (TP / (TP + FN) + TN / (TN + FP)) / 2

    None when the labels hold only one class.
    """
    s, y = _arrays(scores, labels)
    pred, truth = decisions(s, threshold), decisions(y, threshold)
    positives = truth.sum()
    if positives == 0 or positives == truth.size:
        return None
    recall_yes = (pred[truth == 1] == 1).mean()
    recall_no = (pred[truth == 0] == 0).mean()
    return float((recall_yes + recall_no) / 2)


def cohen_kappa(scores: ArrayLike, labels: ArrayLike, threshold: float = 0.5) -> float | None:
    """Agreement of the yes/no decisions beyond what chance would give.

        kappa = (p_o - p_e) / (1 - p_e)
        p_o   = observed agreement (accuracy)
        p_e   = p_judge(yes) p_person(yes) + p_judge(no) p_person(no)

    None when ``p_e = 1`` (both say the same single class throughout: kappa is 0/0).
    """
    s, y = _arrays(scores, labels)
    pred, truth = decisions(s, threshold), decisions(y, threshold)
    if s.size == 0:
        return None
    p_yes_judge, p_yes_person = pred.mean(), truth.mean()
    p_e = p_yes_judge * p_yes_person + (1 - p_yes_judge) * (1 - p_yes_person)
    if p_e >= 1.0:
        return None
    p_o = float(np.mean(pred == truth))
    return _finite((p_o - p_e) / (1 - p_e))


def spearman(scores: ArrayLike, labels: ArrayLike) -> float | None:
    """Spearman's rank correlation: Pearson's r between the average ranks of the two.

        rho = cov(rank(s), rank(y)) / (sd(rank(s)) sd(rank(y)))

    None when either side is constant.
    """
    s, y = _arrays(scores, labels)
    if s.size < 2 or np.ptp(s) == 0 or np.ptp(y) == 0:
        return None
    spearmanr = require("align", "scipy.stats", "Spearman's rank correlation").spearmanr

    return _finite(spearmanr(s, y).statistic)


def kendall(scores: ArrayLike, labels: ArrayLike) -> float | None:
    """Kendall's tau-b: concordant minus discordant pairs, corrected for ties.

        tau_b = (C - D) / sqrt((C + D + T_s) (C + D + T_y))

    where T_s (T_y) counts pairs tied only in the scores (only in the labels). None when
    either side is constant.
    """
    s, y = _arrays(scores, labels)
    if s.size < 2 or np.ptp(s) == 0 or np.ptp(y) == 0:
        return None
    kendalltau = require("align", "scipy.stats", "Kendall's rank correlation").kendalltau

    return _finite(kendalltau(s, y).statistic)


def pairwise_accuracy(scores: ArrayLike, labels: ArrayLike) -> float | None:
    """Of the pairs of samples the person ranks differently, the share the judge orders the
    same way; a tie in the judge's scores counts half.

        pairwise = (1/|P|) sum_{(i,j) in P} ( [s_i > s_j] + 0.5 [s_i = s_j] ),
        P = {(i, j) : y_i > y_j}

    With 0/1 labels this is the area under the ROC curve (Mann-Whitney U / (n+ n-)). None
    when every label is the same.
    """
    s, y = _arrays(scores, labels)
    higher = y[:, None] > y[None, :]
    if not higher.any():
        return None
    wins = (s[:, None] > s[None, :]) + 0.5 * (s[:, None] == s[None, :])
    return float(wins[higher].mean())


def auroc(scores: ArrayLike, labels: ArrayLike) -> float | None:
    """Area under the ROC curve of ``scores`` for 0/1 ``labels``: the probability that a
    positive scores above a negative, ties counting half,

        AUROC = (R+ - n+(n+ + 1)/2) / (n+ n-)

    with R+ the sum of the positives' average ranks. None with only one class.
    """
    s, y = _arrays(scores, labels)
    if len(set(y.astype(int).tolist())) < 2:
        return None
    roc_auc_score = require("align", "sklearn.metrics", "AUROC").roc_auc_score

    return float(roc_auc_score(y.astype(int), s))


def pair_accuracy(pairs: Sequence[tuple[float, float]]) -> float | None:
    """Share of (should-be-higher, should-be-lower) score pairs ordered right; ties count half.

        pair accuracy = (1/m) sum_k ( [a_k > b_k] + 0.5 [a_k = b_k] )
    """
    if not pairs:
        return None
    a = np.asarray([p[0] for p in pairs], dtype=float)
    b = np.asarray([p[1] for p in pairs], dtype=float)
    return float(np.mean((a > b) + 0.5 * (a == b)))


def confusion_table(scores: ArrayLike, labels: ArrayLike, threshold: float = 0.5) -> dict[str, int]:
    """Counts of the four (person, judge) decision pairs: ``tp`` both yes, ``tn`` both no,
    ``fp`` judge yes / person no, ``fn`` judge no / person yes."""
    s, y = _arrays(scores, labels)
    pred, truth = decisions(s, threshold), decisions(y, threshold)
    return {
        "tp": int(((pred == 1) & (truth == 1)).sum()),
        "fp": int(((pred == 1) & (truth == 0)).sum()),
        "fn": int(((pred == 0) & (truth == 1)).sum()),
        "tn": int(((pred == 0) & (truth == 0)).sum()),
    }


def bootstrap_interval(
    statistic: Statistic,
    scores: ArrayLike,
    labels: ArrayLike,
    *,
    confidence: float = 0.95,
    resamples: int = 1000,
    seed: int = 0,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of ``statistic(scores, labels)`` over samples.

        CI = [q_(a/2), q_(1-a/2)] of { statistic(s[k], y[k]) : k ~ Uniform{1..n}^n }, B times

    Pairs are resampled together (a sample's score stays with its label). Resamples on which
    the statistic is undefined (one class drawn) are dropped; None when more than half are,
    or with fewer than two samples. Hand-written rather than ``scipy.stats.bootstrap``
    because that one cannot drop undefined resamples, which small label sets produce. The
    seed makes the interval the same on every run.
    """
    s, y = _arrays(scores, labels)
    if s.size < 2 or not 0.0 < confidence < 1.0:
        return None
    rng = np.random.default_rng(seed)
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant resamples: the statistic says None
        for _ in range(resamples):
            k = rng.integers(0, s.size, size=s.size)
            value = statistic(s[k], y[k])
            if value is not None:
                values.append(value)
    if len(values) < resamples / 2:
        return None
    alpha = 1.0 - confidence
    low, high = np.quantile(np.asarray(values), [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)
