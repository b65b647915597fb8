"""Prompts tuned to a team's labels, judged on labels the tuning never saw.

    train, test = labels.split(test_share, seed)              seeded, reproducible
    variants    = baseline
                + few-shot: the metric's prompt with 1..k examples made from train
                  disagreements (the person's verdict and note as the expected output)
                + instructions the judge rewrites after reading the train disagreements,
                  each with and without those examples
    chosen      = the variant with the best train agreement (the baseline on a tie)
    reported    = test agreement of the baseline and of the chosen variant

Train agreement picks the variant and is never the result: a prompt stuffed with the train
split's own samples agrees with them by construction. The held-out test split is what a
team can expect on new samples.

Which prompt decides a metric, and how a labelled sample becomes an example of it, is
known for the metrics in ``OPTIMIZABLE`` and for every metric that names its
``tuned_prompt`` (rubrics, G-Eval, a person's ``JudgedMetric``: the metric turns a label
into an example itself, ``Metric.label_example``). A faithfulness label says whether all
of the answer's claims are supported: a "yes" makes every claim's expected verdict true; a
"no" makes an example only when the answer has one claim (with several, which one fails is
not known). A rubric's label in [0, 1] is the level it stands for.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from pydantic import BaseModel, Field

from ragmeter.align.agreement import DEFAULT_THRESHOLD, MetricAgreement
from ragmeter.align.labels import LabelledSample, LabelSet
from ragmeter.align.run import agreement_of
from ragmeter.api import aevaluate
from ragmeter.engine.core import close_models
from ragmeter.runtime.loop import run_sync
from ragmeter.errors import InvalidOption, RagmeterError, UnknownMetric
from ragmeter.judgements import DEFAULT_PROMPTS
from ragmeter.judgements.tasks import prompt_for
from ragmeter.judges.options import JudgeOptions
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.prompts.template import Example, PromptSet, TaskPrompt
from ragmeter.result import EvaluationResult

OPTIMIZABLE = {"faithfulness": "answer_support"}
"""metric -> the task prompt whose verdicts decide it."""

REWRITE_SYSTEM = (
    "You rewrite the instruction an evaluation judge follows, so that its verdicts agree with "
    "the people who labelled the samples below. Keep the task and the output format; make the "
    "rule the people applied explicit. Reply with JSON: {\"instructions\": [...]}, each a "
    "complete instruction."
)


class Instructions(BaseModel):
    instructions: list[str] = Field(description="complete rewritten instructions")


class VariantScore(BaseModel):
    name: str
    train_agreement: float | None


class OptimizationReport(BaseModel):
    """What ``optimize_prompts`` tried and what it found; ``test_*`` are the result."""

    metric: str
    prompt: str
    seed: int
    train: int
    test: int
    variants: list[VariantScore]
    chosen: str
    test_before: MetricAgreement
    test_after: MetricAgreement
    notes: list[str] = Field(default_factory=list)


def examples_from(disagreements: Sequence[tuple[LabelledSample, Any]], metric: "str | Metric",
                  threshold: float) -> list[Example]:
    """Few-shot examples of the metric's prompt from (labelled sample, its score's verdicts)."""
    if not isinstance(metric, str):  # a metric that makes its own examples from labels
        made = (metric.label_example(item.sample, item.labels[metric.name], item.note) for item, _ in disagreements)
        return [example for example in made if example is not None]
    if metric != "faithfulness":
        raise InvalidOption(f"no example builder for {metric!r}")
    out = []
    for item, verdicts in disagreements:
        claims = [v["claim"] for v in verdicts or [] if isinstance(v, dict) and "claim" in v]
        faithful = item.labels[metric] >= threshold
        if not claims or (not faithful and len(claims) != 1):
            continue
        why = item.note or ("A person checked the passages and found this claim in them." if faithful
                            else "A person checked the passages: they do not state this claim.")
        out.append(Example(
            input={"context": list(item.sample.contexts or []), "answer_claim": claims},
            output={"verdicts": [{"reason": why, "verdict": faithful} for _ in claims]},
        ))
    return out


def _with(prompts: PromptSet, name: str, *, instruction: str | None = None, extra: Sequence[Example] = ()) -> PromptSet:
    base = prompts[name]
    return prompts.replace({name: TaskPrompt(name=name, instruction=instruction or base.instruction,
                                             examples=base.examples + tuple(extra), language=base.language)})


async def _rewrites(judge: Any, judge_options: JudgeOptions, cache: Any, prompt: TaskPrompt,
                    shown: Sequence[tuple[LabelledSample, Any]], metric: str, count: int) -> list[str]:
    """``count`` instructions written by the judge after reading the disagreements."""
    from ragmeter.judges.spec import get_judge

    lines = []
    for item, verdicts in shown[:8]:
        claims = "; ".join(v.get("claim", "") for v in verdicts or [] if isinstance(v, dict))
        lines.append(f"- passages: {' | '.join(item.sample.contexts or [])}\n  answer: {item.sample.answer}\n"
                     f"  claims: {claims}\n  people's {metric}: {item.labels[metric]:g}"
                     + (f" ({item.note})" if item.note else ""))
    user = (f"Current instruction:\n{prompt.instruction}\n\nSamples where the judge disagreed with people:\n"
            + "\n".join(lines) + f"\n\nWrite {count} rewritten instructions.")
    the_judge = get_judge(judge, cache=cache, options=judge_options)
    try:
        reply = await the_judge.generate([{"role": "system", "content": REWRITE_SYSTEM}, {"role": "user", "content": user}],
                                         Instructions)
    finally:
        await close_models(the_judge)
    return [text.strip() for text in reply.instructions if text.strip()][:count]


def tuned_prompt(metric: "str | Metric") -> tuple[str, "str | Metric"]:
    """(the prompt to tune, the metric as ``examples_from`` takes it) for a metric name or object."""
    if isinstance(metric, str) and metric in OPTIMIZABLE:
        return OPTIMIZABLE[metric], metric
    try:
        found = get_metric(metric)
    except UnknownMetric:
        found = None
    if found is None or not found.tuned_prompt:
        known = ", ".join([*OPTIMIZABLE, "rubrics", "G-Eval criteria", "JudgedMetric classes"])
        raise InvalidOption(f"--optimize knows how to tune {known}; not {getattr(metric, 'name', metric)!r}")
    return found.tuned_prompt, found


def _with_prompt(prompts: PromptSet, name: str) -> PromptSet:
    """``prompts`` holding ``name`` (a set saved before that prompt existed lacks it)."""
    return prompts if name in prompts else PromptSet([*prompts.values(), prompt_for(name, prompts)])


async def aoptimize_prompts(
    labels: LabelSet,
    metric: "str | Metric" = "faithfulness",
    *,
    judge: str = "local",
    embedder: Any = "local",
    prompts: PromptSet | None = None,
    test_share: float = 0.5,
    seed: int = 0,
    max_examples: int = 3,
    instruction_variants: int = 2,
    threshold: float = DEFAULT_THRESHOLD,
    judge_options: JudgeOptions | Mapping[str, Any] | None = None,
    cache: Any = True,
    resamples: int = 1000,
    show_progress: bool = False,
) -> tuple[OptimizationReport, PromptSet]:
    """Async form of ``optimize_prompts``."""
    name, tuned = tuned_prompt(metric)
    metric_to_run = metric
    metric = metric if isinstance(metric, str) else metric.name
    if judge.strip() == "local":
        raise InvalidOption("--optimize tunes an LLM judge's prompts; the local judge has none (use --judge openai:MODEL ...)")
    base = _with_prompt(prompts or DEFAULT_PROMPTS, name)
    labelled = LabelSet([s for s in labels.samples if metric in s.labels], source=labels.source)
    if len(labelled) < 4:
        raise InvalidOption(f"--optimize needs at least 4 samples labelled for {metric}, got {len(labelled)}")
    train, test = labelled.split(test_share, seed)
    options = JudgeOptions.of(judge_options)
    thresholds = {metric: threshold}
    notes: list[str] = []

    async def score(split: LabelSet, prompt_set: PromptSet) -> tuple[EvaluationResult, MetricAgreement]:
        result = await aevaluate(split.dataset(), [metric_to_run], judge=judge, embedder=embedder, cache=cache,
                                 journal=False, show_progress=show_progress, judge_options=options, prompts=prompt_set)
        found = agreement_of(result, split, [metric], thresholds=thresholds, resamples=resamples, seed=seed)
        return result, found[metric]

    result, baseline = await score(train, base)
    verdicts = {s.row: (s.scores[metric].verdicts if metric in s.scores else None) for s in result.samples}
    missed = [(item, verdicts.get(item.row)) for item in train.samples
              if any(d.row == item.row for d in baseline.disagreements)]
    order = np.random.default_rng(seed).permutation(len(missed)).tolist()
    pool = examples_from([missed[i] for i in order], tuned, threshold)[:max_examples]
    if not pool:
        notes.append("no train disagreement could become an example")

    candidates: list[tuple[str, PromptSet]] = [("baseline", base)]
    candidates += [(f"{k} example(s) from train disagreements", _with(base, name, extra=pool[:k]))
                   for k in range(1, len(pool) + 1)]
    if instruction_variants > 0 and missed:
        try:
            rewritten = await _rewrites(judge, options, cache, base[name], [missed[i] for i in order], metric,
                                        instruction_variants)
        except RagmeterError as exc:  # e.g. the local judge writes no instructions
            notes.append(f"no instruction variants: {exc}")
            rewritten = []
        for i, text in enumerate(rewritten, start=1):
            candidates.append((f"instruction {i} written by the judge", _with(base, name, instruction=text)))
            if pool:
                candidates.append((f"instruction {i} + {len(pool)} example(s)",
                                   _with(base, name, instruction=text, extra=pool)))

    scored = [VariantScore(name="baseline", train_agreement=baseline.primary)]
    best, best_value = candidates[0], baseline.primary if baseline.primary is not None else -1.0
    for label, prompt_set in candidates[1:]:
        _, found = await score(train, prompt_set)
        scored.append(VariantScore(name=label, train_agreement=found.primary))
        if found.primary is not None and found.primary > best_value:
            best, best_value = (label, prompt_set), found.primary

    _, before = await score(test, base)
    after = before if best[0] == "baseline" else (await score(test, best[1]))[1]
    report = OptimizationReport(metric=metric, prompt=name, seed=seed, train=len(train), test=len(test),
                                variants=scored, chosen=best[0], test_before=before, test_after=after, notes=notes)
    return report, best[1]


def optimize_prompts(labels: LabelSet, metric: "str | Metric" = "faithfulness", **options: Any) -> tuple[OptimizationReport, PromptSet]:
    """Tune the judge's prompt for ``metric`` on a seeded train split of ``labels``; returns
    the report (test agreement before and after) and the chosen prompt set (save it with
    ``to_json`` and pass it back with ``--prompts``)."""
    return run_sync(lambda: aoptimize_prompts(labels, metric, **options))
