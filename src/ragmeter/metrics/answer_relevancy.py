"""Answer relevancy: does the answer address the question that was asked?

The judge writes N questions that the answer answers (in one structured call, not N
samples, since many servers ignore ``n``) and says whether the answer is noncommittal.

    answer_relevancy = 0                                  if the answer is noncommittal
                     = mean_i clip(cos(e(question), e(q_i)), 0, 1)   otherwise

An incomplete answer yields questions that cover only part of the original one, so it
scores below a complete answer. Judge calls: none of its own (its questions ride along in
the sample's first call); N + 1 embeddings.

The local judge cannot write questions. It answers with the coverage of the question by
the answer instead (``QuestionCoverage``: the question split into its parts, each part's
coverage by the best-matching span of the answer; 0 when the answer is noncommittal), and
that coverage is the score. A plain question-answer cosine is not used: it ranks
incomplete answers above complete ones, whose extra content dilutes the similarity.
"""

from __future__ import annotations

from typing import Any, Sequence

from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.judgements.outputs import QuestionCoverage
from ragmeter.metrics.answer_similarity import cosine_similarity
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore


def answer_relevancy_score(similarities: Sequence[float], noncommittal: bool) -> float:
    """Mean clipped cosine between the question and the generated questions; 0 if noncommittal."""
    if noncommittal or not similarities:
        return 0.0
    return sum(min(1.0, max(0.0, s)) for s in similarities) / len(similarities)


@register
class AnswerRelevancy(Metric):
    name = "answer_relevancy"
    required = ("question", "answer")
    uses_judge = True
    uses_embedder = True

    def __init__(self, questions: int = 3) -> None:
        self.questions = questions
        self._need = needs.answer_questions(questions)

    def config(self) -> dict[str, Any]:
        return {"questions": self.questions}

    def needs(self, sample: Sample) -> list[Need]:
        return [self._need]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        generated = await facts.get(self._need)
        if isinstance(generated, QuestionCoverage):
            return _from_coverage(generated)
        questions = [q.strip() for q in generated.questions if q.strip()]
        vectors = await facts.embeddings([sample.question or "", *questions])
        similarities = [cosine_similarity(vectors[0], v) for v in vectors[1:]]
        value = answer_relevancy_score(similarities, generated.noncommittal)
        verdicts = {
            "noncommittal": generated.noncommittal,
            "questions": [{"question": q, "cosine": round(s, 4)} for q, s in zip(questions, similarities)],
        }
        if generated.noncommittal:
            reason = "the answer is noncommittal (evasive or a refusal), so it does not address the question"
        else:
            reason = f"the answer answers questions with a mean similarity of {value:.3f} to the question asked"
            if questions:
                reason += f' (e.g. "{questions[0]}")'
        return MetricScore.ok(value, reason, verdicts)


def _from_coverage(coverage: QuestionCoverage) -> MetricScore:
    verdicts = {
        "noncommittal": coverage.noncommittal,
        "parts": [{"part": p.part, "covered": round(p.covered, 4), "evidence": p.evidence} for p in coverage.parts],
    }
    if coverage.noncommittal:
        return MetricScore.ok(0.0, "the answer is noncommittal (evasive or a refusal), so it does not address the question", verdicts)
    weak = [p.part for p in coverage.parts if p.covered < 0.5]
    reason = f"the answer covers {len(coverage.parts) - len(weak)} of {len(coverage.parts)} parts of the question (local coverage {coverage.score:.3f})"
    if weak:
        reason += f'; not addressed: "{weak[0]}"'
    return MetricScore.ok(coverage.score, reason, verdicts)
