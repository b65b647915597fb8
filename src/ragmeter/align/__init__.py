"""Trust, measured: how far a judge agrees with people, and prompts tuned to a team's labels.

    from ragmeter.align import align, load_labels
    report = align("labels.jsonl", ["faithfulness"], judge="openai:gpt-4o-mini",
                   layouts=("bundled", "per_task"))
    report.runs[0].metrics["faithfulness"].cohen_kappa      # value and 95% bootstrap interval

``align(benchmark="halueval")`` runs the bundled HaluEval QA subset; ``ppi_summary`` corrects
a run's means by the judge's measured bias; ``optimize_prompts`` tunes the judge's prompts on
a train split of the labels and reports the held-out test split.
"""

from ragmeter.align.agreement import Disagreement, Estimate, MetricAgreement, measure_agreement
from ragmeter.align.benchmark import BENCHMARKS, BenchmarkFigures, benchmark_path, load_benchmark
from ragmeter.align.labels import LabelledSample, LabelSet, labels_from_records, load_labels
from ragmeter.align.optimize import OptimizationReport, optimize_prompts
from ragmeter.align.ppi import MeanInterval, naive_mean, ppi_mean
from ragmeter.align.run import (
    AlignmentReport,
    LayoutRun,
    PPISummary,
    aalign,
    agreement_of,
    align,
    ppi_lines,
    ppi_summary,
)

__all__ = [
    "BENCHMARKS",
    "AlignmentReport",
    "BenchmarkFigures",
    "Disagreement",
    "Estimate",
    "LabelSet",
    "LabelledSample",
    "LayoutRun",
    "MeanInterval",
    "MetricAgreement",
    "OptimizationReport",
    "PPISummary",
    "aalign",
    "agreement_of",
    "align",
    "benchmark_path",
    "labels_from_records",
    "load_benchmark",
    "load_labels",
    "measure_agreement",
    "naive_mean",
    "optimize_prompts",
    "ppi_lines",
    "ppi_mean",
    "ppi_summary",
]
