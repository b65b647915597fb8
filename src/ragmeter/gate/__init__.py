"""The CI gate: minimums per metric and regressions against a baseline, with paired bootstrap
confidence intervals, rendered as markdown for a CI step summary.

    from ragmeter.gate import check
    report = check(result, {"faithfulness": 0.8}, baseline=EvaluationResult.load("base.json"))
    report.passed; print(report.to_markdown())
"""

from ragmeter.gate.bootstrap import paired_bootstrap_ci
from ragmeter.gate.check import GateReport, MetricCheck, check
from ragmeter.gate.compare import MetricComparison, compare, compare_metric, sample_keys
from ragmeter.gate.worst import WorstSample, biggest_drops, lowest_scored

__all__ = [
    "GateReport",
    "MetricCheck",
    "MetricComparison",
    "WorstSample",
    "biggest_drops",
    "check",
    "compare",
    "compare_metric",
    "lowest_scored",
    "paired_bootstrap_ci",
    "sample_keys",
]
