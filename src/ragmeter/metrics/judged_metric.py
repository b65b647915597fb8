"""``JudgedMetric``: a judged metric a person writes as a class, asked in the bundled call.

A prompt, the tags it reads and a pydantic output type make a new kind of judgement
(``register_kind``); the sample's first bundled call asks it with the built-in metrics'
judgements, so it costs no call of its own, and ``formula`` turns the judge's answer into
the score.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need
from ragmeter.judgements.tasks import register_kind
from ragmeter.metrics.base import Metric
from ragmeter.metrics.own_metric import as_score, register_own
from ragmeter.metrics.score import MetricScore
from ragmeter.names import name_key
from ragmeter.prompts.template import Example, TaskPrompt
from ragmeter.errors import InvalidOptionType


class JudgedMetric(Metric):
    """A metric whose judgement a person writes: subclass with

    * ``name``; ``prompt``: the instruction (the texts are shown in tags: <question>,
      <answer>, <ground_truth>, numbered <context>); ``output``: a pydantic type;
    * ``sections``: the tags it reads (default question, answer, context);
    * ``example``: optional ``(input, output)`` dicts shown as a one-line few-shot example;
    * ``formula(answer)``: the answer as a float in [0, 1], or a float and a reason;
    * optionally ``label_example(sample, label, note)``: a person's label as a few-shot
      example of the prompt, so ``align --optimize`` can teach the judge by example too
      (without it, it tunes the instruction only).

    The judgement joins the bundled call of the sample's first phase, with the built-in
    metrics' judgements; the local judge says ``NeedsLLMJudge`` for it (the cascade sends it
    on). Its prompt shows in ``ragmeter prompts`` and can be replaced with ``--prompts`` and
    tuned by ``ragmeter align --optimize``.
    """

    uses_judge: ClassVar[bool] = True
    written_by_a_person = True
    required: ClassVar[tuple[str, ...]] = ("answer",)
    prompt: ClassVar[str]
    output: ClassVar[type[BaseModel]]
    sections: ClassVar[tuple[str, ...]] = ("question", "answer", "context")
    example: ClassVar[tuple[dict[str, Any], dict[str, Any]] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not getattr(cls, "name", None) or not getattr(cls, "prompt", None) or not getattr(cls, "output", None):
            raise InvalidOptionType(f"{cls.__name__}: a JudgedMetric needs name, prompt and output")
        cls.name = name_key(cls.name)
        cls.tuned_prompt = cls.task_name()  # align --optimize rewrites its instruction
        if not cls.__doc__:  # `ragmeter metrics` shows each metric's first doc line
            cls.__doc__ = f"Judged metric: {cls.prompt}"
        task_prompt = TaskPrompt(
            name=cls.task_name(), instruction=cls.prompt,
            examples=(Example(input=cls.example[0], output=cls.example[1]),) if cls.example else (),
        )
        output = cls.output
        register_kind(task_prompt, cls.sections, lambda need, n: output)
        register_own(cls)

    @classmethod
    def task_name(cls) -> str:
        return f"metric_{cls.name}"

    def needs(self, sample: Sample) -> list[Need]:
        return [Need(self.task_name(), self.task_name())]

    def formula(self, answer: Any) -> float | tuple[float, str]:
        raise NotImplementedError(f"{type(self).__name__} must define formula(answer)")

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        answer = await facts.get(self.needs(sample)[0])
        return as_score(self.name, self.formula(answer), answer.model_dump(mode="json"))
