"""Answer correctness: factual agreement with the ground truth, blended with semantic similarity.

The claims of the answer and of the ground truth are classified:
TP = answer claims the ground truth supports, FP = answer claims it does not support,
FN = ground-truth claims the answer does not state.

    F1 = |TP| / (|TP| + 0.5 * (|FP| + |FN|))
    answer_correctness = (w1 * F1 + w2 * similarity) / (w1 + w2),   (w1, w2) = (0.75, 0.25)

Example: ground truth "Einstein was born in 1879 in Germany", answer "Einstein was born in
Spain in 1879": TP 1, FP 1, FN 1, F1 = 0.5. Judge calls: none of its own (claims in the
sample's first call, the two-way classification in the second); 2 embeddings when w2 > 0.
"""

from __future__ import annotations

from typing import Any

from ragmeter.data import Sample
from ragmeter.errors import InvalidOption, NoClaims
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.answer_similarity import cosine_similarity
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore


def factual_f1(tp: int, fp: int, fn: int) -> float | None:
    """|TP| / (|TP| + (|FP| + |FN|) / 2); None when there is nothing on either side."""
    if tp + fp + fn == 0:
        return None
    return tp / (tp + 0.5 * (fp + fn))


def answer_correctness_score(f1: float, similarity: float, weights: tuple[float, float] = (0.75, 0.25)) -> float:
    """Weighted mean of the factual F1 and the (clipped) semantic similarity."""
    w1, w2 = weights
    return (w1 * f1 + w2 * min(1.0, max(0.0, similarity))) / (w1 + w2)


@register
class AnswerCorrectness(Metric):
    name = "answer_correctness"
    required = ("answer", "ground_truth")
    uses_judge = True

    def __init__(self, weights: tuple[float, float] = (0.75, 0.25)) -> None:
        w1, w2 = (float(w) for w in weights)
        if w1 < 0 or w2 < 0 or w1 + w2 == 0:
            raise InvalidOption("weights must be two non-negative numbers, not both zero")
        self.weights = (w1, w2)

    @property
    def uses_embedder(self) -> bool:  # type: ignore[override]
        return self.weights[1] > 0

    def config(self) -> dict[str, Any]:
        return {"weights": list(self.weights)}

    def needs(self, sample: Sample) -> list[Need]:
        return [needs.ANSWER_IN_GROUND_TRUTH, needs.GROUND_TRUTH_IN_ANSWER]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        answer_side = await facts.answer_in_ground_truth()
        truth_side = await facts.ground_truth_in_answer()
        tp = [c for c, v in answer_side if v.verdict]
        fp = [c for c, v in answer_side if not v.verdict]
        fn = [c for c, v in truth_side if not v.verdict]
        verdicts: dict[str, Any] = {
            "TP": tp,
            "FP": fp,
            "FN": fn,
            "answer_claims": [{"claim": c, "in_ground_truth": v.verdict, "reason": v.reason} for c, v in answer_side],
            "ground_truth_claims": [{"claim": c, "in_answer": v.verdict, "reason": v.reason} for c, v in truth_side],
        }
        f1 = factual_f1(len(tp), len(fp), len(fn))
        if f1 is None:
            return MetricScore.failed(NoClaims("no_claims: neither the answer nor the ground truth makes a claim"), verdicts)
        similarity = 0.0
        if self.weights[1] > 0:
            vectors = await facts.embeddings([sample.answer or "", sample.ground_truth or ""])
            similarity = cosine_similarity(vectors[0], vectors[1])
        verdicts.update(f1=round(f1, 4), similarity=round(similarity, 4))
        value = answer_correctness_score(f1, similarity, self.weights)
        reason = f"factual F1 {f1:.2f} (TP {len(tp)}, FP {len(fp)}, FN {len(fn)})"
        if self.weights[1] > 0:
            reason += f", similarity {similarity:.2f}"
        if fp:
            reason += f'; not in the ground truth: "{fp[0]}"'
        if fn:
            reason += f'; missing from the answer: "{fn[0]}"'
        return MetricScore.ok(value, reason, verdicts)
