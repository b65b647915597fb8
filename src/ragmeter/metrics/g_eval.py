"""G-Eval: a criterion, evaluation steps the judge writes once, and a probability-weighted level.

    expected level = sum_k k * p(k) / sum_k p(k)   over the scale's levels k, where the
                     endpoint returns the log-probabilities of the level's token
                   = the level given                otherwise
    g_eval         = (expected level - lowest) / (highest - lowest)

The steps are written by the judge once per criterion and run (``prepare``: one free-form
call, kept in the judge's disk cache, so a rerun sends nothing) and shown with every sample;
they are in the metric's settings, so the report and the run's identity carry them. The
weighting turns a judge that hesitates between 3 and 4 into 3.6 instead of a coin flip.
Judge calls: one per run for the steps; none per sample (it joins the first, bundled call).
"""

from __future__ import annotations

from typing import Any, Sequence

from ragmeter.data import Sample
from ragmeter.errors import InvalidOption, JudgeError
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.judgements.outputs import EvaluationSteps
from ragmeter.judgements.tasks import prompt_for
from ragmeter.metrics.base import Metric
from ragmeter.metrics.rubric import level_of_label, one_line, rubric_score
from ragmeter.metrics.score import MetricScore
from ragmeter.names import name_key
from ragmeter.prompts.template import Example, PromptSet


def expected_level(level: int, probabilities: dict[int, float], lowest: int, highest: int) -> float:
    """sum_k k * p(k) / sum_k p(k) over the levels lowest..highest that have a probability;
    ``level`` when none has (no log-probabilities from the endpoint)."""
    on_scale = {k: p for k, p in probabilities.items() if lowest <= k <= highest and p > 0}
    total = sum(on_scale.values())
    if total <= 0:
        return float(level)
    return sum(k * p for k, p in on_scale.items()) / total


def steps_request(criterion: str, scale: tuple[int, int], prompts: PromptSet) -> list[dict[str, str]]:
    """The one free-form call that writes a criterion's evaluation steps."""
    prompt = prompt_for("g_eval_steps", prompts)
    user = f"{prompt.instruction}\nCriterion: {criterion}\nScale: an integer from {scale[0]} to {scale[1]}."
    return [{"role": "system", "content": "You write evaluation procedures for graders. Reply with JSON."},
            {"role": "user", "content": user}]


class GEval(Metric):
    """``GEval(name, criterion, scale=(1, 5), steps=None)``; given ``steps`` are used as they are."""

    required = ("answer",)
    uses_judge = True
    tuned_prompt = "g_eval"

    def __init__(self, name: str, criterion: str, scale: Sequence[int] = (1, 5), steps: Sequence[str] | None = None) -> None:
        if not name.strip() or not criterion.strip():
            raise InvalidOption("a G-Eval metric needs a name and a criterion")
        low, high = (int(v) for v in scale)
        if high <= low:
            raise InvalidOption(f"g_eval {name!r}: the scale's highest level must be above its lowest, not {low}..{high}")
        self.name = name_key(name)  # type: ignore[misc]
        self.criterion = criterion.strip()
        self.scale = (low, high)
        self.given_steps = [s.strip() for s in steps or [] if s.strip()] or None
        self.steps: list[str] = list(self.given_steps or [])
        self.steps_error: JudgeError | None = None

    async def prepare(self, judge: Any, prompts: Any) -> None:
        """Write the evaluation steps once per run (cached by the judge; a judge that cannot
        write them, the local one, leaves them out and says ``NeedsLLMJudge`` per sample)."""
        self.steps, self.steps_error = list(self.given_steps or []), None  # this run's judge's, not a past run's
        if self.given_steps is not None or judge is None or not getattr(judge, "generative", False):
            return
        try:
            written = await judge.generate(steps_request(self.criterion, self.scale, prompts), EvaluationSteps)
        except JudgeError as exc:
            if exc.stops_run:  # an unreachable endpoint: the run could not score anything
                raise
            self.steps_error = exc  # each sample reports it; the other metrics go on
            return
        self.steps = [s.strip() for s in written.steps]

    def config(self) -> dict[str, Any]:
        return {"criterion": self.criterion, "scale": list(self.scale), "steps": self.steps}

    def needs(self, sample: Sample) -> list[Need]:
        if self.steps_error is not None:
            return []
        low, high = self.scale
        lines = [f"Criterion: {self.criterion}"]
        if self.steps:
            lines += ["Evaluation steps:", *(f"{i}. {step}" for i, step in enumerate(self.steps, start=1))]
        lines.append(f"Scale: an integer from {low} (worst) to {high} (best).")
        return [needs.graded("g_eval", self.name, "\n".join(lines), self.scale)]

    def label_example(self, sample: Sample, label: float, note: str | None) -> Example | None:
        level = level_of_label(label, *self.scale)
        shown = {k: v for k, v in (("question", sample.question), ("answer", sample.answer)) if v}
        why = note or f"A person graded this answer at level {level} on this criterion."
        return Example(input={**shown, "criterion": one_line(self.needs(sample)[0].note)}, output={"reason": why, "level": level})

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        if self.steps_error is not None:
            raise self.steps_error
        answer = await facts.get(self.needs(sample)[0])
        low, high = self.scale
        probabilities = answer.probabilities
        level = expected_level(answer.level, probabilities, low, high)
        verdicts = {"level": answer.level, "scale": [low, high], "reason": answer.reason,
                    "expected_level": level, "probabilities": {str(k): p for k, p in sorted(probabilities.items())}}
        how = f"expected level {level:.2f}" if probabilities else f"level {answer.level}"
        return MetricScore.ok(rubric_score(level, low, high), f"{how} of {low}-{high}: {answer.reason}", verdicts)
