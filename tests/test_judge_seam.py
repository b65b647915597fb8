"""The judge seam: a new kind of judge is one class, and the facts layer asks nothing else of it.

``AgreeableJudge`` below is a complete judge kind written in this one file: it answers every
task the facts layer can hand it (claims are the text's sentences, every verdict is yes,
every chunk relevant, entities are capitalised words) and counts what it was asked. Run
through ``evaluate``, its answers must reach the metrics' formulas unchanged, one ``solve``
per phase per sample. A user's object with only ``generate`` is adapted by ``get_judge``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

import pytest
from pydantic import BaseModel

from ragmeter import evaluate
from ragmeter.calls.usage import Usage
from ragmeter.errors import NeedsLLMJudge
from ragmeter.judgements import Sections, Task, split_sentences
from ragmeter.judges import DryRun, FreeFormAdapter, Judge, get_judge
from ragmeter.judges.protocol import as_messages
from ragmeter.prompts.template import PromptSet
from ragmeter.testing.scripted_judge import respond

SAMPLE = {
    "question": "Where is France and what is its capital?",
    "answer": "France is in Western Europe. Its capital is Paris.",
    "contexts": ["France is a country in Western Europe.", "Paris is the capital of France."],
    "ground_truth": "France is in Western Europe and its capital is Paris.",
}


class AgreeableJudge:
    """A judge kind in one class: it agrees with everything."""

    name = "agreeable"
    concurrency = 4
    generative = False

    def __init__(self) -> None:
        self.usage = Usage()
        self.phases: list[list[str]] = []
        self.votes: list[tuple[str, int]] = []
        self.closed = False

    def answer(self, task: Task, sections: Sections) -> BaseModel:
        fields = task.output_type.model_fields
        if "claims" in fields:
            text = str(sections.get(task.key.removesuffix("_claims")) or "")
            return task.output_type(claims=split_sentences(text))
        if "verdicts" in fields:
            n = fields["verdicts"].metadata[0].min_length  # exactly one verdict per item
            return task.output_type(verdicts=[{"reason": "agreed", "verdict": True}] * n)
        if "sentences" in fields:
            return task.output_type(reason="all needed", sentences=list(range(1, len(sections["sentence"]) + 1)))
        if "ground_truth" in fields:  # entities
            names = lambda text: re.findall(r"\b[A-Z][a-z]+", str(text))  # noqa: E731
            return task.output_type(ground_truth=names(sections["ground_truth"]), contexts=names(sections["context"]))
        return task.output_type(reason="agreed", verdict=True)  # a critique

    async def solve(self, tasks: Sequence[Task], sections: Sections, prompts: PromptSet) -> dict[str, Any]:
        self.phases.append(sorted(t.key for t in tasks))
        self.usage.calls += 1
        return {t.key: self.answer(t, sections) for t in tasks}

    async def vote(self, task: Task, sections: Sections, prompts: PromptSet, votes: int, temperature: float):
        self.votes.append((task.key, votes))
        return [self.answer(task, sections)] * votes

    async def generate(self, prompt, output_type, *, temperature=None):
        raise NeedsLLMJudge("agreeable judges only agree")

    def dry_run(self) -> DryRun:
        return DryRun(self, ("it costs nothing",))

    async def aclose(self) -> None:
        self.closed = True


def test_a_new_judge_kind_is_one_class_and_runs_through_evaluate():
    judge = AgreeableJudge()
    assert isinstance(judge, Judge)
    metrics = ["faithfulness", "context_recall", "context_precision", "context_relevancy",
               "context_entity_recall", "answer_correctness"]
    result = evaluate([SAMPLE], metrics, judge=judge, embedder="local", journal=False, cache=False,
                      show_progress=False)
    scores = {name: result.samples[0].scores[name].value for name in metrics}
    assert scores == {"faithfulness": 1.0, "context_recall": 1.0, "context_precision": 1.0,
                      "context_relevancy": 1.0, "context_entity_recall": 1.0,
                      "answer_correctness": pytest.approx(scores["answer_correctness"])}
    assert 0.75 <= scores["answer_correctness"] <= 1.0  # factual F1 is 1; the similarity part is MiniLM's
    # two phases, each one solve: the texts' judgements, then the verdicts on the claims
    assert judge.phases == [
        ["answer_claims", "context_usefulness", "entities", "ground_truth_claims", "relevant_sentences"],
        ["answer_in_ground_truth", "answer_support", "ground_truth_in_answer", "ground_truth_support"],
    ]
    assert result.usage["judge"].calls == 2 and judge.closed


def test_a_new_judge_kind_votes_and_dry_runs_through_the_same_seam():
    from ragmeter import estimate
    from ragmeter.metrics.aspect_critique import AspectCritique

    judge = AgreeableJudge()
    critique = AspectCritique("politeness", "Is the answer polite?", strictness=3)
    result = evaluate([SAMPLE], [critique], judge=judge, journal=False, cache=False, show_progress=False)
    assert result.samples[0].scores["politeness"].value == 1.0
    assert judge.votes == [("critique_politeness", 3)] and judge.phases == []
    guess = estimate([SAMPLE], ["faithfulness"], judge=AgreeableJudge(), cache=False, show_progress=False)
    assert guess.calls == 0 and "it costs nothing" in guess.notes


class ScriptedGenerator:
    """A user's own judge with only ``generate``: it answers with the scripted judge's rules."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    async def generate(self, prompt, output_type, *, temperature=None):
        messages = as_messages(prompt)
        self.prompts.append(messages[-1]["content"])
        return output_type.model_validate(json.loads(respond({"messages": messages})))


def test_an_object_with_only_generate_is_adapted_and_its_tasks_bundled():
    inner = ScriptedGenerator()
    judge = get_judge(inner)
    assert isinstance(judge, FreeFormAdapter) and isinstance(judge, Judge)
    assert judge.name == "ScriptedGenerator" and judge.generative
    result = evaluate([SAMPLE], ["faithfulness", "context_recall"], judge=inner, journal=False, cache=False,
                      show_progress=False)
    assert result.samples[0].scores["faithfulness"].value == 1.0
    assert result.samples[0].scores["context_recall"].value == 1.0
    assert len(inner.prompts) == 2  # one bundled prompt per phase
    assert "Task answer_claims" in inner.prompts[0] and "Task ground_truth_claims" in inner.prompts[0]


def test_anything_else_is_refused_with_the_forms_a_judge_takes():
    with pytest.raises(TypeError, match="async generate"):
        get_judge(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown judge option"):
        get_judge("local", options={"temprature": 0.2})


def test_local_judge_threads_reach_the_encoder_every_local_model_shares(minilm):
    from ragmeter.judges import LocalJudge

    judge = LocalJudge(threads=1)
    encoder = judge.model("encoder")
    before = encoder.threads
    try:
        judge = LocalJudge(threads=1)
        assert judge.model("encoder").threads == 1
        assert judge.model("verifier").encoder is judge.model("encoder")
    finally:
        encoder.threads = before
