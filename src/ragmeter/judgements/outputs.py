"""The shapes a judge's answers must take, one pydantic type per kind of judgement.

Lists that pair up with numbered inputs (one verdict per claim, one per context) are built
for the exact count, so a judge that skips or adds an item fails validation and is asked
once more with the error, instead of silently shifting verdicts onto the wrong items.
Reasons come before verdicts so that the judge reasons first.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, ClassVar, Mapping

from pydantic import AfterValidator, BaseModel, Field, PrivateAttr, create_model


def _not_blank(text: str) -> str:
    if not text.strip():
        # internal: a pydantic validator on a judge's reply; pydantic raises it as a ValidationError
        raise ValueError("must not be blank: write a real question")
    return text


NonBlankText = Annotated[str, AfterValidator(_not_blank)]
"""A string with at least one non-space character: a blank generated question would be
averaged as a question that matches nothing (or silently dropped), so it is a validation
failure, repaired by the judge's re-ask or reported as ``JudgeOutputInvalid``."""


class Claims(BaseModel):
    claims: list[str] = Field(description="atomic, self-contained claims, in order")


class Verdict(BaseModel):
    reason: str = Field(description="one short sentence")
    verdict: bool


class Questions(BaseModel):
    questions: list[NonBlankText]
    noncommittal: bool = Field(description="true if the answer is evasive, vague or a refusal")


class Entities(BaseModel):
    ground_truth: list[str] = Field(description="entities named in the ground truth")
    contexts: list[str] = Field(description="entities named in the contexts")


class SentenceSelection(BaseModel):
    reason: str = Field(description="one short sentence")
    sentences: list[int] = Field(description="numbers of the sentences needed to answer the question")


class Critique(BaseModel):
    reason: str = Field(description="one or two short sentences")
    verdict: bool


@lru_cache(maxsize=512)
def verdicts_type(n: int) -> type[BaseModel]:
    """``{"verdicts": [Verdict] * n}``: exactly one verdict per numbered item."""
    return create_model(
        f"Verdicts{n}",
        verdicts=(list[Verdict], Field(min_length=n, max_length=n, description=f"exactly {n}, in order")),
    )


class ChunkRelevance(BaseModel):
    """One retrieved chunk's relevance to the question (``context_relevance``)."""

    reason: str = Field(description="one short sentence")
    relevance: float = Field(ge=0.0, le=1.0, description="1 answers the question, 0.5 answers part of it, 0 does not help")

    @property
    def verdict(self) -> bool:
        """Relevant: it answers at least part of the question."""
        return self.relevance >= 0.5


@lru_cache(maxsize=512)
def chunk_relevances_type(n: int) -> type[BaseModel]:
    """``{"verdicts": [ChunkRelevance] * n}``: exactly one judgement per chunk. Named
    ``verdicts`` like the yes/no lists, so the cascade replaces uncertain items the same way."""
    return create_model(
        f"ChunkRelevances{n}",
        verdicts=(list[ChunkRelevance], Field(min_length=n, max_length=n, description=f"exactly {n}, in order")),
    )


@lru_cache(maxsize=64)
def questions_type(n: int) -> type[BaseModel]:
    return create_model(
        f"Questions{n}",
        __base__=Questions,
        questions=(list[NonBlankText], Field(min_length=n, max_length=n, description=f"exactly {n} questions")),
    )


@lru_cache(maxsize=512)
def sentence_selection_type(n: int) -> type[BaseModel]:
    """Sentence numbers limited to 1..n, so a number that points nowhere is sent back for repair."""
    return create_model(
        f"SentenceSelection{n}",
        __base__=SentenceSelection,
        sentences=(list[Annotated[int, Field(ge=1, le=max(n, 1))]], Field(description=f"numbers between 1 and {n}")),
    )


class CoveredPart(BaseModel):
    part: str = Field(description="one part of the question")
    covered: float = Field(ge=0.0, le=1.0, description="how well the answer addresses it")
    evidence: str = Field("", description="the answer's best-matching span")


class QuestionCoverage(BaseModel):
    """The local judge's answer to ``answer_questions``: it cannot write questions, so it
    measures how much of the question the answer addresses, part by part."""

    score: float = Field(ge=0.0, le=1.0)
    noncommittal: bool
    parts: list[CoveredPart]


class Level(BaseModel):
    """A graded judgement (rubric): the level of the scale that fits, reason first."""

    reason: str = Field(description="one or two short sentences")
    level: int

    weighted: ClassVar[bool] = False


class WeightedLevel(Level):
    """A G-Eval level. Where the endpoint returns log-probabilities, the judge fills
    ``probabilities`` (level -> probability of its token); it is never asked of the model,
    so it is a private attribute and not part of the JSON schema."""

    weighted: ClassVar[bool] = True
    _probabilities: dict[int, float] = PrivateAttr(default_factory=dict)

    @property
    def probabilities(self) -> dict[int, float]:
        return dict(self._probabilities)

    def weigh(self, probabilities: Mapping[int, float]) -> None:
        self._probabilities = {int(k): float(v) for k, v in probabilities.items()}


@lru_cache(maxsize=256)
def level_type(low: int, high: int, weighted: bool = False) -> type[BaseModel]:
    """``{"reason": str, "level": int}`` with the level limited to ``low..high``, so a level
    off the scale is sent back for repair instead of scored."""
    return create_model(
        f"{'Weighted' if weighted else ''}Level{low}to{high}",
        __base__=WeightedLevel if weighted else Level,
        level=(int, Field(ge=low, le=high, description=f"an integer from {low} to {high}")),
    )


class EvaluationSteps(BaseModel):
    """G-Eval's evaluation steps for one criterion, written once by the judge."""

    steps: list[NonBlankText] = Field(min_length=1, description="3 to 6 short, concrete steps, in order")
# --- about a conversation -------------------------------------------------------------------


class GoalVerdict(BaseModel):
    """Did the conversation get the user what they wanted (``agent_goal_accuracy``)?"""

    goal: str = Field(description="what the user wanted (the <reference>, when given)")
    outcome: str = Field(description="what the conversation ended with")
    reason: str = Field(description="one short sentence")
    achieved: bool


class TopicVerdict(BaseModel):
    """One user message: did the assistant answer it, and is it within the allowed topics?"""

    reason: str = Field(description="one short sentence")
    answered: bool = Field(description="true if the assistant answered, false if it refused or deflected")
    on_topic: bool = Field(description="true if the message falls within the allowed <topic>s")


@lru_cache(maxsize=256)
def topic_verdicts_type(n: int) -> type[BaseModel]:
    """``{"verdicts": [TopicVerdict] * n}``: one per user message, in order."""
    return create_model(
        f"TopicVerdicts{n}",
        verdicts=(list[TopicVerdict], Field(min_length=n, max_length=n, description=f"exactly {n}, in order")),
    )


class Intention(BaseModel):
    intention: str = Field(description="one thing the user wanted, in a few words")
    reason: str = Field(description="one short sentence")
    satisfied: bool


class Intentions(BaseModel):
    """The user's intentions over the conversation, each satisfied or not (``conversation_completeness``)."""

    intentions: list[Intention]
