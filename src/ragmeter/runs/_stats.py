"""Running mean and variance per metric (Welford), for the interval each run stores."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


class RunningStats:
    """Welford's update: after n values, ``mean`` and ``m2 = sum (x - mean)^2``, in O(1) memory.

    mean_n = mean_{n-1} + (x - mean_{n-1}) / n;  m2_n = m2_{n-1} + (x - mean_{n-1}) (x - mean_n)
    """

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)

    def interval(self) -> tuple[float | None, float | None]:
        """``mean +- 1.96 * sd / sqrt(n)`` clipped to [0, 1]; ``(None, None)`` with fewer than 2 values."""
        if self.n < 2:
            return None, None
        half = Z95 * math.sqrt(self.m2 / (self.n - 1)) / math.sqrt(self.n)
        return max(0.0, self.mean - half), min(1.0, self.mean + half)
