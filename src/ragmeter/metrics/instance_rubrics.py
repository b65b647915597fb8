"""``instance_rubrics``: a rubric per sample (Ragas' InstanceRubrics).

Each row carries its own levels in a ``rubrics`` column (``{"1": "...", "5": "..."}`` or
Ragas' ``{"score1_description": ...}``; a CSV cell holds it as JSON), with an optional
``"criterion"``; the score is the rubric's, (level - lowest) / (highest - lowest). The
rubric is read from the sample's metadata, so it is added to the run's identity
(``sample_identity``): a changed rubric is a new run, never a resumed one.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ragmeter.data import Sample
from ragmeter.errors import InvalidInput, MissingInput
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import register
from ragmeter.metrics.rubric import Rubric, parse_levels, rubric_note


@register
class InstanceRubrics(Rubric):
    """A rubric per sample, from its ``rubrics`` column; ``criterion`` is used where the
    sample's rubric names none."""

    name = "instance_rubrics"

    def __init__(self, criterion: str = "How well does the answer meet the levels described below?") -> None:
        super().__init__("instance_rubrics", criterion)

    def rubric_of(self, sample: Sample) -> Mapping[str, Any]:
        """The sample's ``rubrics`` value as a mapping (a CSV cell holds it as JSON)."""
        raw = sample.metadata.get("rubrics")
        if isinstance(raw, str):
            try:
                raw = json.loads(raw)
            except json.JSONDecodeError:
                raise InvalidInput(f"field 'rubrics' is not a JSON object: {raw[:60]!r}") from None
        if not isinstance(raw, Mapping) or not raw:
            raise MissingInput("field 'rubrics' missing or empty; instance_rubrics needs each sample's rubric levels")
        return raw

    def levels_for(self, sample: Sample) -> dict[int, str]:
        levels = {k: v for k, v in self.rubric_of(sample).items() if k != "criterion"}
        try:
            return parse_levels(levels, "field 'rubrics'")
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None

    def need_for(self, sample: Sample) -> Need:
        criterion = self.rubric_of(sample).get("criterion") or self.criterion
        levels = self.levels_for(sample)
        return needs.graded(self.kind, self.name, rubric_note(str(criterion), levels), (min(levels), max(levels)))

    def needs(self, sample: Sample) -> list[Need]:
        try:
            return [self.need_for(sample)]
        except InvalidInput:  # the score reports it (missing or malformed); nothing to ask
            return []

    def sample_identity(self, sample: Sample) -> str:
        return json.dumps(sample.metadata.get("rubrics"), sort_keys=True, default=str)

    def config(self) -> dict[str, Any]:
        return {"criterion": self.criterion}
