"""Prediction-powered means: a metric's mean over many judge scores, corrected for the
judge's bias as measured on a few hundred samples that people labelled.

The judge's mean over a large run is cheap but biased (a lenient judge says 0.9 where people
would say 0.7); the people's mean over the labelled samples is unbiased but wide. Prediction-
powered inference (Angelopoulos et al., 2023; the estimator ARES uses) adds the judge's
average error on the labelled samples to its mean on the run:

    theta_PP = (1/N) sum_j f(X~_j)  -  (1/n) sum_i ( f(X_i) - Y_i )
    se       = sqrt( var(f(X~)) / N  +  var(f(X) - Y) / n )
    CI       = theta_PP -/+ z_(1 - a/2) se

with f the judge, X~ the N unlabelled (run) samples, (X_i, Y_i) the n labelled ones. The
interval is valid whatever the judge's bias; it is narrower than the labels-only interval
when the judge tracks people closely (small var(f(X) - Y)). The naive interval, the judge's
mean -/+ z sd/sqrt(N), is narrow and centred on the wrong value when the judge is biased.
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Sequence

import numpy as np
from pydantic import BaseModel
from ragmeter.errors import InvalidOption


class MeanInterval(BaseModel):
    """A mean with its confidence interval and how many values went into it."""

    mean: float
    low: float
    high: float
    n_labelled: int = 0
    n_unlabelled: int = 0

    def covers(self, value: float) -> bool:
        return self.low <= value <= self.high


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise InvalidOption(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def ppi_mean(
    unlabelled_scores: Sequence[float],
    labelled_scores: Sequence[float],
    labels: Sequence[float],
    confidence: float = 0.95,
) -> MeanInterval:
    """Prediction-powered mean and interval (equations in the module docstring)."""
    f_u = np.asarray(unlabelled_scores, dtype=float)
    f_l = np.asarray(labelled_scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    if f_l.shape != y.shape:
        raise InvalidOption(f"labelled scores and labels must pair up, got {f_l.shape} and {y.shape}")
    if f_u.size < 2 or y.size < 2:
        raise InvalidOption("a prediction-powered mean needs at least 2 unlabelled and 2 labelled samples")
    rectifier = f_l - y
    mean = f_u.mean() - rectifier.mean()
    se = np.sqrt(f_u.var(ddof=1) / f_u.size + rectifier.var(ddof=1) / y.size)
    half = _z(confidence) * se
    return MeanInterval(mean=float(mean), low=float(mean - half), high=float(mean + half),
                        n_labelled=int(y.size), n_unlabelled=int(f_u.size))


def naive_mean(scores: Sequence[float], confidence: float = 0.95) -> MeanInterval:
    """The judge's own mean -/+ z sd / sqrt(N): what a run reports without labels."""
    f = np.asarray(scores, dtype=float)
    if f.size < 2:
        raise InvalidOption("a mean interval needs at least 2 scores")
    half = _z(confidence) * f.std(ddof=1) / np.sqrt(f.size)
    return MeanInterval(mean=float(f.mean()), low=float(f.mean() - half), high=float(f.mean() + half),
                        n_unlabelled=int(f.size))


def labels_mean(labels: Sequence[float], confidence: float = 0.95) -> MeanInterval:
    """The people's mean over the labelled samples alone (the classical interval)."""
    y = np.asarray(labels, dtype=float)
    if y.size < 2:
        raise InvalidOption("a mean interval needs at least 2 labels")
    half = _z(confidence) * y.std(ddof=1) / np.sqrt(y.size)
    return MeanInterval(mean=float(y.mean()), low=float(y.mean() - half), high=float(y.mean() + half),
                        n_labelled=int(y.size))
