"""The summary score: one number for a run that punishes one weak stage.

    summary = n / sum_m (1 / mean_m)      over the non-binary, higher-is-better metrics m

The harmonic mean of the metrics' mean scores: a retriever at 0.2 with a generator at 0.9
gives 0.33, where the arithmetic mean would say 0.55. 0 when any mean is 0; None when no
metric qualifies or none has a score.
"""

from __future__ import annotations

from typing import Mapping


def summary_score(means: Mapping[str, float | None]) -> float | None:
    values = [m for m in means.values() if m is not None]
    if not values:
        return None
    if any(v <= 0 for v in values):
        return 0.0
    return len(values) / sum(1.0 / v for v in values)
