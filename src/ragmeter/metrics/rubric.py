"""Rubrics: a criterion graded on a scale with a description per level (default 1 to 5).

    rubric = (level - lowest) / (highest - lowest)

The judge reads the criterion and the level descriptions and returns the level that fits,
with its reason; both are kept in the score's verdicts. ``Rubric("tone", "Does the answer
follow our tone guide?", {1: "rude", 3: "neutral", 5: "warm and plain"})`` is one metric;
``InstanceRubrics`` (``instance_rubrics.py``) reads each sample's own levels. Judge calls: none of its own (it joins the sample's first, bundled call).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric
from ragmeter.metrics.score import MetricScore
from ragmeter.names import name_key
from ragmeter.prompts.template import Example
from ragmeter.errors import InvalidOption

DEFAULT_LEVELS: dict[int, str] = {
    1: "does not meet the criterion at all",
    2: "meets a small part of the criterion",
    3: "meets about half of the criterion",
    4: "meets most of the criterion, with minor gaps",
    5: "fully meets the criterion",
}
"""The scale when a rubric names no levels."""


def rubric_score(level: float, lowest: int, highest: int) -> float:
    """(level - lowest) / (highest - lowest): the level placed on [0, 1]."""
    return (level - lowest) / (highest - lowest)


def parse_levels(levels: Mapping[Any, Any] | None, where: str = "rubric") -> dict[int, str]:
    """``{level: description}`` from integer or numeric-string keys, or Ragas' keys
    ("score1_description"); at least two levels. ``where`` names the source in errors."""
    if not levels:
        return dict(DEFAULT_LEVELS)
    out: dict[int, str] = {}
    for key, text in levels.items():
        found = re.fullmatch(r"\s*(?:score)?(-?\d+)(?:_description)?\s*", str(key))
        if found is None or not isinstance(text, str) or not text.strip():
            raise InvalidOption(f"{where}: level {key!r} must be an integer with a description, got {text!r}")
        out[int(found.group(1))] = text.strip()
    if len(out) < 2:
        raise InvalidOption(f"{where}: a scale needs at least two levels, got {sorted(out)}")
    return dict(sorted(out.items()))


def rubric_note(criterion: str, levels: Mapping[int, str]) -> str:
    """The criterion and the scale as the judge reads them."""
    low, high = min(levels), max(levels)
    lines = [f"Criterion: {criterion.strip()}", f"Scale (an integer from {low} to {high}):"]
    lines += [f"{level}: {text}" for level, text in levels.items()]
    return "\n".join(lines)


def one_line(note: str) -> str:
    """A judgement's note as one line: few-shot examples are one line each."""
    return "; ".join(line.strip() for line in note.splitlines() if line.strip())


def level_of_label(label: float, lowest: int, highest: int) -> int:
    """A person's grade in [0, 1] as the nearest level: round(lowest + label * (highest - lowest))."""
    return int(round(lowest + label * (highest - lowest)))


class Rubric(Metric):
    """``Rubric(name, criterion, levels=None)``: levels default to ``DEFAULT_LEVELS``."""

    required = ("answer",)
    uses_judge = True
    kind = "rubric"
    tuned_prompt = "rubric"

    def __init__(self, name: str, criterion: str, levels: Mapping[Any, Any] | None = None) -> None:
        if not name.strip() or not criterion.strip():
            raise InvalidOption("a rubric needs a name and a criterion")
        self.name = name_key(name)  # type: ignore[misc]
        self.criterion = criterion.strip()
        self.levels = parse_levels(levels, f"rubric {self.name!r}")

    def config(self) -> dict[str, Any]:
        return {"criterion": self.criterion, "levels": {str(k): v for k, v in self.levels.items()}}

    def levels_for(self, sample: Sample) -> dict[int, str]:
        return self.levels

    def need_for(self, sample: Sample) -> Need:
        levels = self.levels_for(sample)
        return needs.graded(self.kind, self.name, rubric_note(self.criterion, levels), (min(levels), max(levels)))

    def needs(self, sample: Sample) -> list[Need]:
        return [self.need_for(sample)]

    def label_example(self, sample: Sample, label: float, note: str | None) -> Example | None:
        """The sample as an example whose expected level is the person's grade's level."""
        need = self.need_for(sample)
        level = level_of_label(label, *need.scale)
        shown = {k: v for k, v in (("question", sample.question), ("answer", sample.answer)) if v}
        why = note or f"A person graded this answer at level {level} on this criterion."
        return Example(input={**shown, "criterion": one_line(need.note)}, output={"reason": why, "level": level})

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        need = self.need_for(sample)
        low, high = need.scale
        answer = await facts.get(need)
        verdicts = {"level": answer.level, "scale": [low, high], "reason": answer.reason}
        return MetricScore.ok(rubric_score(answer.level, low, high), f"level {answer.level} of {low}-{high}: {answer.reason}",
                              verdicts)
