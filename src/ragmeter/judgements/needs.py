"""Names for the judgements a metric needs, so a sample's judgements can be planned together.

A metric declares its needs before it scores (``Metric.needs``); the facts store gathers the
needs of every metric in the run for one sample and asks for all the judgements of one
phase in a single judge call. Two metrics that need the same judgement name the same
``Need`` and share its answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragmeter.errors import InvalidOption


@dataclass(frozen=True)
class Need:
    """One judgement about one sample.

    ``key`` names the answer in the judge's reply (unique within a sample), ``prompt`` names
    the ``TaskPrompt`` that asks for it, ``note`` adds what is specific to this use (the
    criterion of a critique, the number of questions), and ``votes`` > 1 asks that many
    independent times (each its own call) for a majority or an agreement.
    """

    key: str
    prompt: str
    note: str = ""
    votes: int = 1
    count: int = 0  # how many items an output must hold, where the prompt sets it (questions)
    aspect: str = ""  # a built-in critique's aspect, for judges with a check of their own
    scale: tuple[int, int] = (0, 0)  # a graded judgement's lowest and highest level (rubric, g_eval)


ANSWER_CLAIMS = Need("answer_claims", "answer_claims")
GROUND_TRUTH_CLAIMS = Need("ground_truth_claims", "ground_truth_claims")
ANSWER_SUPPORT = Need("answer_support", "answer_support")
GROUND_TRUTH_SUPPORT = Need("ground_truth_support", "ground_truth_support")
ANSWER_IN_GROUND_TRUTH = Need("answer_in_ground_truth", "answer_in_ground_truth")
GROUND_TRUTH_IN_ANSWER = Need("ground_truth_in_answer", "ground_truth_in_answer")
ENTITIES = Need("entities", "entities")
CONTEXT_USEFULNESS = Need("context_usefulness", "context_usefulness")
CHUNK_RELEVANCE = Need("chunk_relevance", "chunk_relevance")

# about a whole conversation (``TaskKind.scope == "conversation"``): one call per conversation
AGENT_GOAL = Need("agent_goal", "agent_goal")
AGENT_GOAL_WITH_REFERENCE = Need("agent_goal_with_reference", "agent_goal_with_reference")
TOPIC_ADHERENCE = Need("topic_adherence", "topic_adherence")
KNOWLEDGE_RETENTION = Need("knowledge_retention", "knowledge_retention")
CONVERSATION_COMPLETENESS = Need("conversation_completeness", "conversation_completeness")


def answer_questions(n: int) -> Need:
    if n < 1:
        raise InvalidOption("the number of generated questions must be at least 1")
    return Need("answer_questions", "answer_questions", note=f"Write exactly {n} questions.", count=n)


def relevant_sentences(votes: int = 1) -> Need:
    _check_votes(votes)
    return Need("relevant_sentences", "relevant_sentences", votes=votes)


def critique(name: str, criterion: str, votes: int = 1, builtin: bool = False) -> Need:
    """``builtin``: the criterion is ragmeter's own for the aspect ``name`` (the local judge
    has checks for some of those, never for a user's criterion)."""
    _check_votes(votes)
    slug = slug_of(name)
    return Need(
        f"critique_{slug}", "critique", note=f"Criterion: {criterion.strip()}", votes=votes, aspect=slug if builtin else ""
    )


def graded(prompt: str, name: str, note: str, scale: tuple[int, int]) -> Need:
    """A judgement that answers with a level of ``scale`` (``prompt`` "rubric" or "g_eval");
    ``note`` carries the criterion, the level descriptions or the evaluation steps."""
    low, high = scale
    if high <= low:
        raise InvalidOption(f"a scale needs a highest level above its lowest, not {low}..{high}")
    return Need(f"{prompt}_{slug_of(name)}", prompt, note=note.strip(), scale=(low, high))


def slug_of(name: str) -> str:
    """A metric name as a key of the judge's reply: lower case, word characters only."""
    return re.sub(r"\W+", "_", name.strip().lower()).strip("_") or "custom"


def _check_votes(votes: int) -> None:
    if votes < 1 or votes % 2 == 0:
        raise InvalidOption(f"strictness must be a positive odd number (a majority must exist), not {votes}")


DEPENDS_ON: dict[str, Need] = {
    "answer_support": ANSWER_CLAIMS,
    "answer_in_ground_truth": ANSWER_CLAIMS,
    "ground_truth_support": GROUND_TRUTH_CLAIMS,
    "ground_truth_in_answer": GROUND_TRUTH_CLAIMS,
}
"""Prompts whose items are the claims another judgement extracts; they run one phase later."""
