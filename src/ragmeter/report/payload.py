"""The data the page's script renders: metrics, chart specs and every sample, as one JSON blob.

Why one blob rendered by the page rather than one HTML row per sample: sorting, filtering
and opening a sample's details are then a few lines of script over plain data, and the
page stays one file. Why the blob is escaped for ``<``, ``>`` and ``&``: it sits inside a
``<script type="application/json">`` element, and a question containing ``</script>`` must
not end that element; ``\\u003c`` is the same character to ``JSON.parse`` and nothing to the
HTML parser.

User text only ever reaches the page through this blob and the script's ``textContent``,
or through ``html.escape`` in ``ragmeter.report.html``; never as markup.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ragmeter.result import EvaluationResult, SampleResult

MAX_TEXT_CHARS = 20_000
"""A single text (answer, context) longer than this is cut in the page, with a note: a
pasted book in one context should not make the report unusable."""


@dataclass(frozen=True)
class MetricMeta:
    """What the page needs to know about a metric beyond its scores."""

    name: str
    higher_is_better: bool = True
    binary: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "higherIsBetter": self.higher_is_better, "binary": self.binary}


def metric_meta(name: str, config: dict[str, Any] | None = None) -> MetricMeta:
    """Direction and kind of a metric, from the registry; a name it does not know (a custom
    critique, a metric from a newer version) is taken as higher-is-better and not binary.

    ``config`` is the metric's settings as the run recorded them (``result.info.metrics``):
    whether some metrics are binary depends on them (answer_similarity with a threshold is
    0 or 1, without one a cosine), and a class-level read of that property is always true."""
    from ragmeter.metrics.base import available_metrics

    cls = available_metrics().get(name)
    if cls is None:
        return MetricMeta(name)
    binary = cls.__dict__.get("binary", getattr(cls, "binary", False))
    if not isinstance(binary, bool):  # a property: ask an instance built with the run's settings
        try:
            binary = bool(cls(**(config or {})).binary)
        except Exception:  # noqa: BLE001 (settings from another version: say nothing rather than guess)
            binary = False
    return MetricMeta(name, higher_is_better=bool(cls.higher_is_better), binary=binary)


def jsonable(value: Any) -> Any:
    """``value`` as strict JSON data. Verdicts are meant to be JSON-able, but a result built
    in memory may hold tuples, numpy scalars or a NaN; the page must load whatever it got."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if hasattr(value, "model_dump"):
        return jsonable(value.model_dump(mode="json"))
    if hasattr(value, "item"):  # numpy scalar
        try:
            return jsonable(value.item())
        except (TypeError, ValueError):
            pass
    return str(value)


def _text(value: str | None) -> str | None:
    if value is None or len(value) <= MAX_TEXT_CHARS:
        return value
    return value[:MAX_TEXT_CHARS] + f" … [cut in the report: {len(value):,} characters in all]"


def sample_record(sample: SampleResult, metrics: list[str], baseline: SampleResult | None = None) -> dict[str, Any]:
    """One sample for the page. Short keys because a run of thousands of samples repeats them:
    q question, a answer, gt ground truth, ctx contexts, more other fields, v values,
    s per-metric details (r reason, vd verdicts, e error; null when the metric was not run on
    the sample), b the baseline's values and br its reasons."""
    data = sample.sample
    more: dict[str, Any] = {}
    if data.reference_contexts:
        more["reference contexts"] = [_text(c) for c in data.reference_contexts]
    if data.retrieved_context_ids:
        more["retrieved context ids"] = list(data.retrieved_context_ids)
    if data.reference_context_ids:
        more["reference context ids"] = list(data.reference_context_ids)
    if data.metadata:
        more["metadata"] = jsonable(data.metadata)
    values: list[float | None] = []
    details: list[dict[str, Any] | None] = []
    for name in metrics:
        score = sample.scores.get(name)
        if score is None:
            values.append(None)
            details.append(None)
            continue
        values.append(score.value)
        detail: dict[str, Any] = {"r": score.reason}
        if score.verdicts is not None:
            detail["vd"] = jsonable(score.verdicts)
        if score.error is not None:
            detail["e"] = {"kind": score.error.kind, "message": score.error.message, "transient": score.error.transient}
        details.append(detail)
    record: dict[str, Any] = {
        "row": sample.row,
        "id": sample.id or data.id,
        "q": _text(data.question),
        "a": _text(data.answer),
        "gt": _text(data.ground_truth),
        "ctx": [_text(c) for c in data.contexts] if data.contexts is not None else None,
        "v": values,
        "s": details,
    }
    if more:
        record["more"] = more
    messages = getattr(data, "messages", None)  # a conversation: shown (and exported) message by message
    if messages:
        record["conv"] = [jsonable(m.model_dump(exclude_defaults=True, exclude={"tool_calls": {"__all__": {"id"}}}))
                          for m in messages]
        for m in record["conv"]:
            if m.get("content"):
                m["content"] = _text(m["content"])
        for name in ("reference_tool_calls", "reference_topics", "retrieval_tools"):
            value = getattr(data, name, None)
            if value:
                more[name.replace("_", " ")] = jsonable([v.model_dump(exclude={"id"}) if hasattr(v, "model_dump") else v
                                                         for v in value])
        if more:
            record["more"] = more
    if baseline is not None:
        scores = [baseline.scores.get(name) for name in metrics]
        record["b"] = [s.value if s is not None else None for s in scores]
        record["br"] = [(s.reason if s is not None else None) for s in scores]
    return record


def baseline_matches(result: EvaluationResult, baseline: EvaluationResult | None) -> list[SampleResult | None]:
    """For each sample of ``result``, the same sample in ``baseline`` (or None), matched the
    way the gate's comparison matches them, so the page and the statistics agree."""
    if baseline is None:
        return [None] * len(result.samples)
    from ragmeter.gate import sample_keys

    by_key = dict(zip(sample_keys(baseline.samples), baseline.samples))
    return [by_key.get(key) for key in sample_keys(result.samples)]


def dumps_for_script(data: Any) -> str:
    """JSON safe to place inside ``<script type="application/json">``."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
