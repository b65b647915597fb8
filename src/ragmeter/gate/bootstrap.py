"""Paired bootstrap confidence interval of a mean difference.

Two runs over the same samples are paired: sample i was scored in both. The statistic is
the mean of the per-sample differences d_i = current_i - baseline_i, and its interval comes
from resampling the samples (not the scores of each run apart), which cancels what the
samples share (an easy question is easy in both runs) and leaves the change itself:

    delta = (1/n) sum_i d_i
    CI    = [q_(a/2), q_(1-a/2)] of { (1/n) sum_j d_(k_j) : k ~ Uniform{1..n}^n }, B times

With a fixed seed the interval is reproducible, so a gate gives the same verdict on the
same two files every time.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from ragmeter.errors import InvalidOption

_CELLS_PER_BATCH = 4_000_000
"""Resample means are drawn in batches of at most this many indices, so 100,000 samples x
2,000 resamples stays within a few tens of MB."""


def paired_bootstrap_ci(
    current: Sequence[float],
    baseline: Sequence[float],
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """Mean paired difference ``current - baseline`` and its percentile bootstrap interval.

    Returns ``(delta, low, high)``. Raises ``ValueError`` on unequal lengths, fewer than one
    pair, or a confidence outside (0, 1).
    """
    cur = np.asarray(current, dtype=float)
    base = np.asarray(baseline, dtype=float)
    if cur.shape != base.shape or cur.ndim != 1:
        raise InvalidOption(f"paired scores need equal lengths, got {cur.shape} and {base.shape}")
    if cur.size == 0:
        raise InvalidOption("no paired scores to compare")
    if not 0.0 < confidence < 1.0:
        raise InvalidOption(f"confidence must be in (0, 1), got {confidence}")
    if resamples < 1:
        raise InvalidOption(f"resamples must be >= 1, got {resamples}")
    diffs = cur - base
    n = diffs.size
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    batch = max(1, _CELLS_PER_BATCH // n)
    for start in range(0, resamples, batch):
        stop = min(resamples, start + batch)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = diffs[idx].mean(axis=1)
    alpha = 1.0 - confidence
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(diffs.mean()), float(low), float(high)
