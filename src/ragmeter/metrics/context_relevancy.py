"""Context relevancy: the share of the retrieved text that is needed to answer the question.

The contexts are split into sentences (the same rule-based split for every judge); the
judge lists the sentences needed to answer the question. With strictness n > 1 it answers
n independent times; a sentence counts when a majority selects it, and the score is
multiplied by how much the answers agree:

    S          = {sentences selected by more than n/2 answers}
    agreement  = mean over pairs (i < j) of Jaccard(S_i, S_j)     (1 when n = 1)
    relevancy  = |S| / |sentences| * agreement

Example: for "What is the capital of France?", two sentences about France and Paris score
2/2 = 1.0; the same followed by two sentences about wines and caves score 2/4 = 0.5.
Judge calls: none of its own with strictness 1 (first call); n with strictness n.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Sequence

from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore


def jaccard(a: set[int], b: set[int]) -> float:
    """|a n b| / |a u b|; two empty selections agree fully."""
    return 1.0 if not a and not b else len(a & b) / len(a | b)


def selection_agreement(selections: Sequence[set[int]]) -> float:
    pairs = list(combinations(selections, 2))
    return 1.0 if not pairs else sum(jaccard(a, b) for a, b in pairs) / len(pairs)


def majority_selection(selections: Sequence[set[int]]) -> set[int]:
    everything = set().union(*selections) if selections else set()
    return {i for i in everything if sum(i in s for s in selections) * 2 > len(selections)}


def context_relevancy_score(selections: Sequence[set[int]], total_sentences: int) -> float:
    """|majority selection| / total sentences, times the agreement between the selections."""
    if total_sentences <= 0:
        return 0.0
    return len(majority_selection(selections)) / total_sentences * selection_agreement(selections)


@register
class ContextRelevancy(Metric):
    name = "context_relevancy"
    required = ("question", "contexts")
    uses_judge = True

    def __init__(self, strictness: int = 1) -> None:
        self.strictness = strictness
        self._need = needs.relevant_sentences(strictness)

    def config(self) -> dict[str, Any]:
        return {"strictness": self.strictness}

    def needs(self, sample: Sample) -> list[Need]:
        return [self._need]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        sentences = facts.context_sentences()
        answers = await facts.get(self._need)
        answers = answers if isinstance(answers, list) else [answers]
        selections = [set(getattr(a, "sentences", []) or []) for a in answers]
        chosen = majority_selection(selections)
        agreement = selection_agreement(selections)
        value = context_relevancy_score(selections, len(sentences))
        verdicts = {
            "sentences": [{"n": i, "sentence": s, "needed": i in chosen} for i, s in enumerate(sentences, start=1)],
            "votes": [sorted(s) for s in selections],
            "agreement": round(agreement, 4),
            "reasons": [getattr(a, "reason", "") for a in answers],
        }
        reason = f"{len(chosen)} of {len(sentences)} context sentences are needed to answer the question"
        if self.strictness > 1:
            reason += f" (majority of {self.strictness} votes, agreement {agreement:.2f})"
        return MetricScore.ok(value, reason, verdicts)
