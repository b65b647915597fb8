"""Noise sensitivity: how often the answer repeats wrong things it found in the contexts.

    noise_sensitivity = |answer claims that the ground truth does not support
                         but the contexts do| / |answer claims|

Lower is better (the one metric here where it is), so it is left out of the summary
score. It reuses faithfulness' verdicts and answer correctness' answer-side verdicts.
"""

from __future__ import annotations

from typing import Sequence

from ragmeter.data import Sample
from ragmeter.errors import NoClaims
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore


def noise_sensitivity_score(correct: Sequence[bool], from_contexts: Sequence[bool]) -> float | None:
    """Share of claims that are incorrect and supported by the contexts; None with no claims."""
    if not correct:
        return None
    return sum((not c) and s for c, s in zip(correct, from_contexts)) / len(correct)


@register
class NoiseSensitivity(Metric):
    name = "noise_sensitivity"
    required = ("answer", "contexts", "ground_truth")
    uses_judge = True
    higher_is_better = False

    def needs(self, sample: Sample) -> list[Need]:
        return [needs.ANSWER_SUPPORT, needs.ANSWER_IN_GROUND_TRUTH]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        support = await facts.answer_support()
        truth = await facts.answer_in_ground_truth()
        verdicts = [
            {"claim": c, "correct": t.verdict, "in_contexts": s.verdict, "reason": t.reason if not t.verdict else s.reason}
            for (c, s), (_, t) in zip(support, truth)
        ]
        value = noise_sensitivity_score([t.verdict for _, t in truth], [s.verdict for _, s in support])
        if value is None:
            return MetricScore.failed(NoClaims("no_claims: the answer makes no claims to check"), verdicts)
        noisy = [v["claim"] for v in verdicts if not v["correct"] and v["in_contexts"]]
        reason = f"{len(noisy)} of {len(verdicts)} answer claims are wrong and taken from the contexts (lower is better)"
        if noisy:
            reason += f': "{noisy[0]}"'
        return MetricScore.ok(value, reason, verdicts)
