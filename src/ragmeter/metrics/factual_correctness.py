"""Factual correctness: precision, recall or F1 of the answer's claims against the ground truth's.

    precision = |answer claims the ground truth supports| / |answer claims|
    recall    = |ground-truth claims the answer states| / |ground-truth claims|
    F1        = 2 * precision * recall / (precision + recall)        (0 when both are 0)

``mode`` picks which one is the score; all three are in the verdicts. Shares its claims and
verdicts with answer correctness (no extra calls when both run).
"""

from __future__ import annotations

from typing import Any, Literal

from ragmeter.data import Sample
from ragmeter.errors import InvalidOption, NoClaims
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore

Mode = Literal["f1", "precision", "recall"]


def claim_precision_recall_f1(supported: int, answer_claims: int, stated: int, truth_claims: int) -> tuple[float | None, float | None, float | None]:
    """(precision, recall, F1); a side with no claims gives None for what needs it."""
    precision = supported / answer_claims if answer_claims else None
    recall = stated / truth_claims if truth_claims else None
    if precision is None or recall is None:
        return precision, recall, None
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


@register
class FactualCorrectness(Metric):
    name = "factual_correctness"
    required = ("answer", "ground_truth")
    uses_judge = True

    def __init__(self, mode: Mode = "f1") -> None:
        if mode not in ("f1", "precision", "recall"):
            raise InvalidOption("mode must be 'f1', 'precision' or 'recall'")
        self.mode = mode

    def config(self) -> dict[str, Any]:
        return {"mode": self.mode}

    def needs(self, sample: Sample) -> list[Need]:
        wanted = {"precision": [needs.ANSWER_IN_GROUND_TRUTH], "recall": [needs.GROUND_TRUTH_IN_ANSWER]}
        return wanted.get(self.mode, [needs.ANSWER_IN_GROUND_TRUTH, needs.GROUND_TRUTH_IN_ANSWER])

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        answer_side = await facts.answer_in_ground_truth() if self.mode != "recall" else []
        truth_side = await facts.ground_truth_in_answer() if self.mode != "precision" else []
        supported = sum(v.verdict for _, v in answer_side)
        stated = sum(v.verdict for _, v in truth_side)
        precision, recall, f1 = claim_precision_recall_f1(supported, len(answer_side), stated, len(truth_side))
        verdicts = {
            "answer_claims": [{"claim": c, "in_ground_truth": v.verdict, "reason": v.reason} for c, v in answer_side],
            "ground_truth_claims": [{"claim": c, "in_answer": v.verdict, "reason": v.reason} for c, v in truth_side],
            "precision": precision,
            "recall": recall,
            "f1": f1,
        }
        value = {"f1": f1, "precision": precision, "recall": recall}[self.mode]
        if value is None:
            side = "the answer" if precision is None else "the ground truth"
            return MetricScore.failed(NoClaims(f"no_claims: {side} makes no claims, so {self.mode} is undefined"), verdicts)
        parts = []
        if precision is not None:
            parts.append(f"{supported} of {len(answer_side)} answer claims are in the ground truth")
        if recall is not None:
            parts.append(f"{stated} of {len(truth_side)} ground-truth claims are in the answer")
        return MetricScore.ok(value, f"{self.mode} {value:.2f}: " + "; ".join(parts), verdicts)
