"""Graded metrics in the report: the levels the judge gave, as a histogram over the scale,
and what the judge was asked (the criterion, the level descriptions, G-Eval's steps).

A rubric's score is its level placed on [0, 1]; a histogram of levels 1..5 reads better than
twenty bins of which five are used. A metric is graded when its scores' verdicts carry a
``level`` and a ``scale`` (rubric, G-Eval).
"""

from __future__ import annotations

from html import escape
from typing import Any

from ragmeter.result import EvaluationResult


def level_counts(result: EvaluationResult, metric: str) -> tuple[tuple[int, int], dict[int, int]] | None:
    """(scale, level -> samples) for a graded metric; None for any other metric."""
    scale: tuple[int, int] | None = None
    counts: dict[int, int] = {}
    for sample in result.samples:
        score = sample.scores.get(metric)
        verdicts = score.verdicts if score is not None and score.value is not None else None
        if not isinstance(verdicts, dict) or "level" not in verdicts or "scale" not in verdicts:
            continue
        low, high = (int(v) for v in verdicts["scale"])
        scale = (min(scale[0], low), max(scale[1], high)) if scale else (low, high)
        counts[int(verdicts["level"])] = counts.get(int(verdicts["level"]), 0) + 1
    return (scale, counts) if scale is not None else None


def asked_section(result: EvaluationResult) -> str:
    """What each written metric asked the judge: criterion, levels, G-Eval's steps."""
    items = []
    for name, config in result.info.metrics.items():
        if not isinstance(config, dict) or "criterion" not in config or not ("levels" in config or "steps" in config):
            continue
        parts = [f"<dt>{escape(name)}</dt><dd>{escape(str(config['criterion']))}"]
        if config.get("levels"):
            parts.append("<ul>" + "".join(f"<li>{escape(str(k))}: {escape(str(v))}</li>"
                                          for k, v in config["levels"].items()) + "</ul>")
        if config.get("steps"):
            parts.append("<p class=\"muted\">Evaluation steps written by the judge:</p><ol>"
                         + "".join(f"<li>{escape(str(s))}</li>" for s in config["steps"]) + "</ol>")
        items.append("".join(parts) + "</dd>")
    if not items:
        return ""
    return ('<section id="criteria"><h2>Criteria</h2><p class="muted">What the rubric and G-Eval metrics asked the '
            f'judge.</p><dl>{"".join(items)}</dl></section>')
