"""``@ragmeter.metric``: a Python function of a sample as a registered, judge-free metric.

It returns a float in [0, 1], or a float and a reason; the engine, result, report, gate and
run store treat it like a built-in metric, and it runs with no judge at all.
``evaluate(data, [fn])``, ``evaluate(data, ["name"])``, ``--metrics name`` and a metrics
file's ``python:`` entries all find it once its module is imported.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from typing import Any, Callable, ClassVar

from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.metrics.base import Metric
from ragmeter.metrics.own_metric import as_score, register_own
from ragmeter.metrics.score import MetricScore
from ragmeter.names import name_key
from ragmeter.errors import InvalidOptionType


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
    written_by_a_person = True
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
        raise InvalidOptionType(f"{module}.{qualname} is not a @ragmeter.metric function")
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
