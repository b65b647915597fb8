"""What every metric a person writes shares: how its return value becomes a score, and how
it is registered (a built-in metric's name is refused, not silently replaced).

The kinds: ``function_metric`` (``@ragmeter.metric``, judge-free), ``judged_metric``
(``JudgedMetric``: a prompt and an output type in the bundled call), ``rubric``,
``instance_rubrics`` and ``g_eval``; ``metrics_file`` reads them from YAML or TOML.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

from ragmeter.errors import InvalidOption, InvalidScore
from ragmeter.metrics.base import Metric, available_metrics, register
from ragmeter.metrics.score import MetricScore


def as_score(name: str, returned: Any, verdicts: Any = None) -> MetricScore:
    """A user's return value as a score: ``value`` or ``(value, reason)``.

    Anything else (a string, None, a NaN, a value off [0, 1]) is an ``InvalidScore`` naming
    the metric and what it returned, never a silent NaN."""
    value, reason = returned if isinstance(returned, tuple) and len(returned) == 2 else (returned, "")
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidScore(f"metric {name!r} returned {returned!r}; return a float in [0, 1] or (float, reason)")
    return MetricScore.ok(float(value), str(reason) if reason else f"{name} = {float(value):g}", verdicts)


def register_own(cls: type[Metric]) -> None:
    """Register a person's metric; a name a built-in metric holds is refused rather than
    silently replaced (a redefinition of one's own metric, on a re-import, is fine)."""
    held = available_metrics().get(cls.name)
    if held is not None and not held.written_by_a_person:
        raise InvalidOption(f"{cls.name!r} is a built-in metric; give your metric another name")
    register(cls)
