"""Metrics people write in Python, treated by the engine, result, report, gate and align
like the built-in ones.

* ``@ragmeter.metric(name="cites_source")`` on a function of a ``Sample`` that returns a
  float in [0, 1], or a float and a reason: a judge-free metric (no judge, no embedder).
* ``JudgedMetric``: a class that declares a prompt, the sections it reads and a pydantic
  output type; its judgement joins the bundled judge call of its phase (no call of its own),
  and ``formula`` turns the judge's answer into the score.

Both register their name, so ``evaluate(data, ["cites_source"])``, ``--metrics
cites_source`` and a metrics file find them once the module defining them is imported.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from numbers import Real
from typing import Any, Callable, ClassVar

from pydantic import BaseModel

from ragmeter.data import Sample
from ragmeter.errors import InvalidScore
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need
from ragmeter.judgements.tasks import register_kind
from ragmeter.metrics.base import Metric, available_metrics, register
from ragmeter.metrics.score import MetricScore
from ragmeter.names import name_key
from ragmeter.prompts.template import Example, TaskPrompt


def as_score(name: str, returned: Any, verdicts: Any = None) -> MetricScore:
    """A user's return value as a score: ``value`` or ``(value, reason)``.

    Anything else (a string, None, a NaN, a value off [0, 1]) is an ``InvalidScore`` naming
    the metric and what it returned, never a silent NaN."""
    value, reason = returned if isinstance(returned, tuple) and len(returned) == 2 else (returned, "")
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidScore(f"metric {name!r} returned {returned!r}; return a float in [0, 1] or (float, reason)")
    return MetricScore.ok(float(value), str(reason) if reason else f"{name} = {float(value):g}", verdicts)


def register_own(cls: type[Metric]) -> None:
    """Register a person's metric; a name a built-in metric holds is refused rather than
    silently replaced (a redefinition of one's own metric, on a re-import, is fine)."""
    held = available_metrics().get(cls.name)
    if held is not None and not issubclass(held, (FunctionMetric, JudgedMetric)):
        raise ValueError(f"{cls.name!r} is a built-in metric; give your metric another name")
    register(cls)


def _code_identity(fn: Callable[..., Any]) -> str:
    """A digest of the function's bytecode and constants: editing the function makes a new
    run identity, so its old journalled scores are not resumed."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return ""
    return hashlib.sha256(code.co_code + repr(code.co_consts).encode()).hexdigest()[:12]


class FunctionMetric(Metric):
    """A judge-free metric over a Python function (made by ``metric``; callable like it)."""

    required: ClassVar[tuple[str, ...]] = ()
    function: ClassVar[Callable[[Sample], Any]]

    def __call__(self, sample: Sample) -> Any:
        return type(self).function(sample)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # its class is made at decoration time: a Ray worker re-imports the function's module
        fn = type(self).function
        return restore_function_metric, (fn.__module__, fn.__qualname__)

    def config(self) -> dict[str, Any]:
        fn = type(self).function
        return {"function": f"{fn.__module__}.{fn.__qualname__}", "code": _code_identity(fn)}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        returned = type(self).function(sample)
        if inspect.isawaitable(returned):
            returned = await returned
        return as_score(self.name, returned)


def restore_function_metric(module: str, qualname: str) -> FunctionMetric:
    """The decorated metric ``module.qualname`` (what a pickled ``FunctionMetric`` holds)."""
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not isinstance(found, FunctionMetric):
        raise TypeError(f"{module}.{qualname} is not a @ragmeter.metric function")
    return found


def metric(
    name: str | None = None,
    *,
    required: tuple[str, ...] = (),
    higher_is_better: bool = True,
    binary: bool = False,
) -> Callable[[Callable[[Sample], Any]], FunctionMetric]:
    """Make a function of a sample a registered, judge-free metric.

    >>> @metric(name="short_answer", required=("answer",))
    ... def short_answer(sample):
    ...     words = len(sample.answer.split())
    ...     return (1.0 if words <= 50 else 50 / words), f"{words} words"

    ``required`` fields are checked by the engine before the function runs (a missing one is
    a ``MissingInput`` score). The function may be ``async``.
    """

    def wrap(fn: Callable[[Sample], Any]) -> FunctionMetric:
        metric_name = name_key(name or fn.__name__)
        cls = type(
            f"FunctionMetric_{metric_name}",
            (FunctionMetric,),
            {
                "name": metric_name,
                "required": tuple(required),
                "higher_is_better": higher_is_better,
                "binary": binary,
                "function": staticmethod(fn),
                "__doc__": (fn.__doc__ or f"Python metric {fn.__qualname__}").strip(),
                "__module__": fn.__module__,
            },
        )
        register_own(cls)
        instance = cls()
        functools.update_wrapper(instance, fn, updated=())
        return instance

    return wrap


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
    required: ClassVar[tuple[str, ...]] = ("answer",)
    prompt: ClassVar[str]
    output: ClassVar[type[BaseModel]]
    sections: ClassVar[tuple[str, ...]] = ("question", "answer", "context")
    example: ClassVar[tuple[dict[str, Any], dict[str, Any]] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not getattr(cls, "name", None) or not getattr(cls, "prompt", None) or not getattr(cls, "output", None):
            raise TypeError(f"{cls.__name__}: a JudgedMetric needs name, prompt and output")
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
