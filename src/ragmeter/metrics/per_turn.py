"""A single-turn RAG metric over a conversation: scored on each reply that has contexts.

Each such reply becomes a single-turn sample whose question is the user's message with the
earlier turns before it (``ConversationSample.turn_samples``), scored by the wrapped metric
over that turn's shared facts (one judge call per turn and phase, whichever per-turn
metrics the run has):

    score(conversation) = mean over scored turns t of score(t)

Every turn's score, reason and error is kept in ``verdicts``; a turn that fails does not
sink the others, and the conversation fails only when no turn scored.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ragmeter.data import Sample
from ragmeter.errors import MissingInput
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.metrics.score import MetricScore


def turns_mean(values: list[float]) -> float | None:
    """The mean of the turns' scores; None when no turn scored."""
    return sum(values) / len(values) if values else None


class PerTurn(Metric):
    """``PerTurn("faithfulness")``: the metric's name, and its mean over a conversation's turns."""

    def __init__(self, metric: "Metric | str") -> None:
        self.inner = get_metric(metric)
        # the column users know it by
        self.name = self.inner.name  # type: ignore[misc]
        self.required = ("messages",)  # type: ignore[misc]
        self.uses_judge = self.inner.uses_judge  # type: ignore[misc]
        self.uses_embedder = self.inner.uses_embedder  # type: ignore[misc]
        self.binary = self.inner.binary  # type: ignore[misc]
        self.higher_is_better = self.inner.higher_is_better  # type: ignore[misc]

    def config(self) -> dict[str, Any]:
        return {"per_turn": True, **self.inner.config()}

    def missing_inputs(self, sample: Sample) -> list[str]:
        return [] if getattr(sample, "messages", None) else ["messages"]

    def _turns(self, sample: Sample) -> list[Any]:
        return sample.turn_samples()  # type: ignore[attr-defined]

    def needs(self, sample: Sample) -> list[Need]:
        if not getattr(sample, "messages", None):
            return []
        return list(dict.fromkeys(n for _, turn in self._turns(sample) if not self.inner.missing_inputs(turn)
                                  for n in self.inner.needs(turn)))

    async def _one(self, number: int, turn: Sample, facts: SampleFacts) -> MetricScore:
        missing = self.inner.missing_inputs(turn)
        if missing:
            return MetricScore.failed(MissingInput(f"turn {number}: {', '.join(missing)} missing"))
        try:
            return await self.inner.score(turn, facts.turn(number, turn))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # one turn's failure is that turn's score
            if getattr(exc, "stops_run", False):
                raise
            return MetricScore.failed(exc)

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        turns = self._turns(sample)
        if not turns:
            return MetricScore.failed(MissingInput(
                "no assistant reply has contexts: give replies 'contexts' or name the retrieval tools "
                "(retrieval_tools=[...]) whose results are the contexts"))
        scores = await asyncio.gather(*(self._one(t.number, s, facts) for t, s in turns))
        kept = [{"turn": t.number, "question": t.user, "answer": t.reply.content, "value": sc.value,
                 "reason": sc.reason, "error": sc.error.model_dump() if sc.error else None, "verdicts": sc.verdicts}
                for (t, _), sc in zip(turns, scores)]
        value = turns_mean([sc.value for sc in scores if sc.value is not None])
        if value is None:
            first = next(sc for sc in scores if sc.error is not None)
            return MetricScore(value=None, reason=f"no turn scored; turn {kept[0]['turn']}: {first.reason}",
                               verdicts=kept, error=first.error)
        listed = ", ".join(f"turn {k['turn']} " + (f"{k['value']:.2f}" if k["value"] is not None else "failed")
                           for k in kept)
        scored = sum(sc.value is not None for sc in scores)
        return MetricScore.ok(value, f"mean of {scored} turn{'' if scored == 1 else 's'}: {listed}", kept)
