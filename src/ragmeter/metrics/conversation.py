"""What every conversation metric shares: its inputs are a conversation's fields.

A single-turn sample has no messages, so a conversation metric listed in a run over
single-turn samples reports them missing (a typed ``MissingInput`` score) instead of
raising on an unknown field name.
"""

from __future__ import annotations

from typing import ClassVar

from ragmeter.data import Sample
from ragmeter.metrics.base import Metric


class ConversationMetric(Metric):
    required: ClassVar[tuple[str, ...]] = ("messages",)

    def missing_inputs(self, sample: Sample) -> list[str]:
        missing = []
        for name in self.required:
            value = getattr(sample, name, None)
            if value is None or (not value and name not in self.empty_is_data):
                missing.append(name)
        return missing
