"""The metric protocol: a name, the fields it needs, what it uses, and an async ``score``.

A metric gathers its inputs from the facts store (which computes each fact once per
sample) and hands them to its formula, a plain function beside it that tests can call with
hand-written verdicts. Checking required fields happens in the engine, before ``score``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from ragmeter.data import Sample
from ragmeter.errors import UnknownMetric
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need
from ragmeter.metrics.score import MetricScore
from ragmeter.names import did_you_mean, name_key
from ragmeter.prompts.template import Example


class Metric(ABC):
    name: ClassVar[str]
    required: ClassVar[tuple[str, ...]]
    uses_judge: ClassVar[bool] = False
    uses_embedder: ClassVar[bool] = False
    binary: ClassVar[bool] = False  # 0/1 scores are left out of the summary score
    higher_is_better: ClassVar[bool] = True  # noise sensitivity is the exception
    written_by_a_person: ClassVar[bool] = False  # a person's metric may be redefined, a built-in not
    empty_is_data: ClassVar[tuple[str, ...]] = ()
    """Required list fields whose present, empty value is data the metric scores (a retriever
    that returned nothing scores 0), not missing input. Absent (None) is still missing."""

    def missing_inputs(self, sample: Sample) -> list[str]:
        """The required fields ``sample`` lacks, as the engine reports them before ``score``."""
        return [
            name for name in sample.missing(list(self.required))
            if not (name in self.empty_is_data and getattr(sample, name) is not None)
        ]

    def needs(self, sample: Sample) -> list[Need]:
        """The judgements ``score`` will ask the facts store for on this sample, declared up
        front so that all of a sample's judgements can be asked in as few calls as possible."""
        return []

    async def prepare(self, judge: Any, prompts: Any) -> None:
        """Run once per run, before any sample, with the run's judge (None without one) and
        prompt set: what a metric needs once rather than per sample (G-Eval's steps)."""

    def sample_identity(self, sample: Sample) -> str:
        """What this metric reads from ``sample`` beyond its input fields (a per-sample
        rubric in its metadata), so that a changed value is a new run, never a resumed one."""
        return ""

    tuned_prompt: ClassVar[str] = ""
    """The task prompt whose answers decide this metric, for ``ragmeter align --optimize``
    (empty: not tunable through ``label_example``)."""

    def label_example(self, sample: Sample, label: float, note: str | None) -> Example | None:
        """A few-shot example of ``tuned_prompt`` made from a person's label of ``sample``
        (a grade in [0, 1]), or None when the label does not say what the judge should answer."""
        return None

    @abstractmethod
    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore: ...

    def config(self) -> dict[str, Any]:
        """The settings that change scores; part of a run's identity (journal resume)."""
        return {}

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.config().items())
        return f"{type(self).__name__}({params})"


_REGISTRY: dict[str, type[Metric]] = {}


def register(cls: type[Metric]) -> type[Metric]:
    _REGISTRY[cls.name] = cls
    return cls


def available_metrics() -> dict[str, type[Metric]]:
    return dict(_REGISTRY)


def get_metric(spec: "str | Metric") -> Metric:
    if isinstance(spec, Metric):
        return spec
    key = name_key(spec)
    if key not in _REGISTRY:
        raise UnknownMetric(f"unknown metric {spec!r}; {did_you_mean(spec, _REGISTRY)}"
                            f"available: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[key]()
