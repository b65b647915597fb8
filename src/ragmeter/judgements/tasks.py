"""What each kind of judgement shows the judge and what shape its answer takes.

A ``Task`` is a ``Need`` made concrete for one sample: the tagged sections it reads and its
output type (which may depend on the sample, e.g. exactly one verdict per claim). Tasks of
the same phase are sent together in one call (see ``bundle``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from pydantic import BaseModel

from ragmeter.judgements.needs import DEPENDS_ON, Need
from ragmeter.judgements.task_prompts import DEFAULT_PROMPTS
from ragmeter.prompts.template import PromptSet, TaskPrompt
from ragmeter.judgements.outputs import (
    Claims,
    Critique,
    Entities,
    GoalVerdict,
    Intentions,
    chunk_relevances_type,
    level_type,
    questions_type,
    sentence_selection_type,
    topic_verdicts_type,
    verdicts_type,
)
from ragmeter.errors import InvalidOption

Sections = dict[str, "str | list[str]"]
"""Tag name -> text, or list of texts for numbered tags, in the order they are shown."""

Outcome = BaseModel | Exception
"""A task's answer, or the typed error that stopped it."""

SECTION_ORDER = (
    "question", "answer", "ground_truth", "context", "sentence", "answer_claim", "ground_truth_claim",
    "conversation", "reference", "topic",
)


@dataclass(frozen=True)
class Task:
    need: Need
    sections: tuple[str, ...]
    output_type: type[BaseModel]
    reference: str = ""  # context_usefulness: the tag the contexts are judged against

    @property
    def key(self) -> str:
        return self.need.key


@dataclass(frozen=True)
class TaskKind:
    sections: tuple[str, ...]
    items: str = ""  # the numbered section whose length fixes the output (one verdict each)
    output: Callable[[Need, int], type[BaseModel]] = lambda need, n: verdicts_type(n)
    scope: str = "sample"
    """What it judges: one question and answer ("sample") or a whole conversation
    ("conversation"); a sample's facts ask only the kinds of its own scope
    (``Sample.judged_as``), so a conversation's per-turn judgements never join its own call."""

    @property
    def phase(self) -> int:
        return 2 if "answer_claim" in self.sections or "ground_truth_claim" in self.sections else 1


TASK_KINDS: dict[str, TaskKind] = {
    "answer_claims": TaskKind(("question", "answer"), output=lambda need, n: Claims),
    "ground_truth_claims": TaskKind(("question", "ground_truth"), output=lambda need, n: Claims),
    "answer_support": TaskKind(("context", "answer_claim"), items="answer_claim"),
    "ground_truth_support": TaskKind(("context", "ground_truth_claim"), items="ground_truth_claim"),
    "answer_in_ground_truth": TaskKind(("ground_truth", "answer_claim"), items="answer_claim"),
    "ground_truth_in_answer": TaskKind(("answer", "ground_truth_claim"), items="ground_truth_claim"),
    "answer_questions": TaskKind(("question", "answer"), output=lambda need, n: questions_type(need.count)),
    "context_usefulness": TaskKind(("question", "ground_truth", "context"), items="context"),
    "chunk_relevance": TaskKind(("question", "context"), items="context", output=lambda need, n: chunk_relevances_type(n)),
    "relevant_sentences": TaskKind(("question", "sentence"), items="sentence", output=lambda need, n: sentence_selection_type(n)),
    "entities": TaskKind(("ground_truth", "context"), output=lambda need, n: Entities),
    "critique": TaskKind(("question", "answer", "context"), output=lambda need, n: Critique),
    "rubric": TaskKind(("question", "answer", "ground_truth", "context"), output=lambda need, n: level_type(*need.scale)),
    "g_eval": TaskKind(("question", "answer", "ground_truth", "context"), output=lambda need, n: level_type(*need.scale, True)),
    # the numbered user messages / replies are not shown again (the transcript numbers them);
    # they only fix how many verdicts the reply must hold
    "agent_goal": TaskKind(("conversation",), output=lambda need, n: GoalVerdict, scope="conversation"),
    "agent_goal_with_reference": TaskKind(
        ("conversation", "reference"), output=lambda need, n: GoalVerdict, scope="conversation"),
    "topic_adherence": TaskKind(
        ("conversation", "topic"), items="user_turn", output=lambda need, n: topic_verdicts_type(n), scope="conversation"),
    "knowledge_retention": TaskKind(("conversation",), items="assistant_turn", scope="conversation"),
    "conversation_completeness": TaskKind(("conversation",), output=lambda need, n: Intentions, scope="conversation"),
}

REGISTERED_PROMPTS: dict[str, TaskPrompt] = {}
"""Prompts of judgements people declare (``ragmeter.metrics.JudgedMetric``), by name."""


def register_kind(prompt: TaskPrompt, sections: Sequence[str], output: Callable[[Need, int], type[BaseModel]]) -> None:
    """Add a kind of judgement: a user's metric asks it in the same bundled call as the
    built-in ones (phase 1: it reads the sample's texts, not extracted claims)."""
    unknown = [s for s in sections if s not in SECTION_ORDER[:4]]
    if unknown or not sections:
        raise InvalidOption(f"{prompt.name}: sections must be some of {SECTION_ORDER[:4]}, not {tuple(sections)}")
    if prompt.name in TASK_KINDS and prompt.name not in REGISTERED_PROMPTS:
        raise InvalidOption(f"{prompt.name!r} is a built-in judgement; choose another metric name")
    TASK_KINDS[prompt.name] = TaskKind(tuple(sections), output=output)
    REGISTERED_PROMPTS[prompt.name] = prompt


def prompt_for(name: str, prompts: PromptSet) -> TaskPrompt:
    """The prompt named ``name`` in ``prompts``; else the default (a prompt set saved before
    that kind of judgement existed lacks it), else a registered one."""
    for source in (prompts, DEFAULT_PROMPTS, REGISTERED_PROMPTS):
        if name in source:
            return source[name]
    raise KeyError(f"no prompt named {name!r}")


def all_prompts() -> PromptSet:
    """The default prompts and those of every registered judgement (``ragmeter prompts``)."""
    return PromptSet([*DEFAULT_PROMPTS.values(), *REGISTERED_PROMPTS.values()])


for _prompt in DEPENDS_ON:
    assert TASK_KINDS[_prompt].phase == 2, _prompt


def make_task(need: Need, sections: Sections) -> Task | None:
    """The task for ``need`` over this sample's sections; None when it has no items to judge
    (no claims to verify), which needs no call at all."""
    kind = TASK_KINDS[need.prompt]
    shown = tuple(s for s in kind.sections if sections.get(s))
    reference = ""
    if need.prompt == "context_usefulness":
        # judged against the ground truth, or against the answer when there is none
        reference = "ground_truth" if sections.get("ground_truth") else "answer"
        shown = ("question", reference, "context") if sections.get("question") else (reference, "context")
    n = len(sections.get(kind.items) or []) if kind.items else 0
    if kind.items and n == 0:
        return None
    return Task(need, shown, kind.output(need, n), reference)


def empty_output(need: Need) -> BaseModel:
    """The answer to a task with nothing to judge: no verdicts."""
    return verdicts_type(0)(verdicts=[])


def as_result(outcome: Outcome) -> BaseModel:
    """The answer in ``outcome``; the typed error it holds is raised."""
    if isinstance(outcome, Exception):
        raise outcome
    return outcome
