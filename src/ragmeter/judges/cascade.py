"""The cascade: the local judge decides what it is sure of, an LLM judge the rest.

``judge="local+openai:gpt-4o-mini"``: every judgement is first made locally; a verdict the
local judge is not sure of goes to the LLM judge, together with the other uncertain verdicts
of the same sample and phase, in one call. Sure means: its calibrated probability of "yes"
(``ragmeter.judges.local.calibration``) is at least 0.95 or at most 0.05, so that on
development data the verdicts kept are right at least 95% of the time; a verdict with no
calibration is never sure. An explicit ``band`` (low, high) replaces that rule: every
probability strictly inside it, calibrated where a calibration exists and raw otherwise,
is uncertain. The uncertain verdicts go out as the numbered lists cut down to those items,
renumbered, and the LLM's verdicts are put back at the same positions. Tasks the local judge
cannot do at all (critiques without a local check) and single judgements it is not sure of
(whether the answer addresses the question) go to the LLM whole, in the same call. Claims
and entities are always local. When nothing is uncertain no call is made: ``usage`` reports
the verdicts decided locally, those escalated, and the calls saved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence, TypeVar

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.errors import InvalidOption, JudgeOutputInvalid, NeedsLLMJudge
from ragmeter.judgements.tasks import TASK_KINDS, Outcome, Sections, Task, make_task
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.options import DEFAULT_BAND
from ragmeter.judges.protocol import DryRun, Judge, Prompt
from ragmeter.prompts.template import PromptSet

T = TypeVar("T", bound=BaseModel)


@dataclass
class CascadeCounts:
    """What the cascade decided where: verdicts kept local, verdicts escalated, and the calls
    an LLM-only judge would have made that this one did not."""

    local: int = 0
    escalated: int = 0
    calls_saved: int = 0


class CascadeJudge:
    concurrency: int
    generative = True

    def __init__(self, local: LocalJudge, llm: Judge, band: tuple[float, float] | None = None) -> None:
        if band is not None:
            low, high = (float(b) for b in band)
            if not 0.0 <= low <= high <= 1.0:
                raise InvalidOption(f"band must be two probabilities low <= high, not {band!r}")
            band = (low, high)
        self.local = local
        self.llm = llm
        self.band = band
        self.counts = CascadeCounts()
        self.concurrency = llm.concurrency  # the LLM's calls are what must be limited
        suffix = "" if band is None else f"[band={band[0]:g}-{band[1]:g}]"
        self.name = f"{local.name}+{llm.name}{suffix}"

    def uncertain(self, probability: float, calibrated: bool) -> bool:
        """Whether a local verdict goes to the LLM (see the module docstring)."""
        if self.band is None:
            low, high = DEFAULT_BAND
            return not calibrated or low < probability < high
        low, high = self.band
        return low < probability < high

    @property
    def usage(self) -> Usage:
        """The LLM judge's usage with the cascade's counts."""
        return self.llm.usage.model_copy(update={
            "local_judgements": self.llm.usage.local_judgements + self.counts.local,
            "escalated_judgements": self.llm.usage.escalated_judgements + self.counts.escalated,
            "calls_saved": self.llm.usage.calls_saved + self.counts.calls_saved,
        })

    async def solve(self, tasks: Sequence[Task], sections: Sections, prompts: PromptSet) -> dict[str, Outcome]:
        if not tasks:
            return {}
        return await route(self.local, self.llm, self.uncertain, self.counts, tasks, sections, prompts)

    async def vote(
        self, task: Task, sections: Sections, prompts: PromptSet, votes: int, temperature: float
    ) -> list[BaseModel]:
        """Votes are the LLM's to cast: the local judge would give n copies of one answer."""
        return await self.llm.vote(task, sections, prompts, votes, temperature)

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        """Free-form prompts (e.g. translating the few-shot examples) go to the LLM judge."""
        return await self.llm.generate(prompt, output_type, temperature=temperature)

    def dry_run(self) -> DryRun:
        twin = self.llm.dry_run()
        return DryRun(
            CascadeJudge(self.local, twin.judge, self.band),
            ("cascade: the local judge runs for real to decide which verdicts would be escalated", *twin.notes),
        )

    async def aclose(self) -> None:
        await self.llm.aclose()

    def __repr__(self) -> str:
        return f"CascadeJudge({self.local!r}, {self.llm!r}, band={self.band})"


async def route(
    local: LocalJudge, llm: Judge, uncertain_at: Callable[[float, bool], bool], counts: "CascadeCounts",
    tasks: Sequence[Task], sections: Sections, prompts: PromptSet,
) -> dict[str, Outcome]:
    """Every task's outcome: the local answers, with the uncertain verdicts (and the tasks the
    local judge cannot do) answered by ``llm`` in one call."""
    solved = await local.solve_with_probabilities(tasks, sections)
    outcomes = dict(solved.outcomes)

    whole: list[Task] = []
    uncertain: dict[str, list[int]] = {}  # task key -> 0-based uncertain items
    for task in tasks:
        outcome = outcomes.get(task.key)
        if isinstance(outcome, NeedsLLMJudge):
            whole.append(task)
            continue
        probs = solved.probabilities.get(task.key)
        if probs is None:
            continue
        calibrated = task.key in solved.calibrated
        items = [k for k, p in enumerate(probs) if uncertain_at(p, calibrated)]
        if items:
            if TASK_KINDS[task.need.prompt].items:
                uncertain[task.key] = items
            else:
                whole.append(task)  # a single verdict (a critique): the LLM redoes it

    total = sum(len(p) for p in solved.probabilities.values())
    escalated = sum(len(v) for v in uncertain.values()) + sum(len(solved.probabilities.get(t.key, [1])) for t in whole)
    counts.local += max(0, total - sum(len(v) for v in uncertain.values()) - sum(len(solved.probabilities.get(t.key, [])) for t in whole))
    counts.escalated += escalated
    if not whole and not uncertain:
        counts.calls_saved += 1
        return outcomes

    # the numbered lists cut down to the uncertain items (a list shared by two tasks keeps the union)
    keep: dict[str, list[int]] = {}
    for task in tasks:
        if task.key in uncertain:
            section = TASK_KINDS[task.need.prompt].items
            keep[section] = sorted(set(keep.get(section, [])) | set(uncertain[task.key]))
    reduced: Sections = dict(sections)
    for section, items in keep.items():
        full = list(sections.get(section) or [])
        reduced[section] = [full[k] for k in items]

    llm_tasks: list[Task] = []
    for task in tasks:
        if task in whole:
            llm_tasks.append(make_task(task.need, reduced) or task)
        elif task.key in uncertain:
            again = make_task(task.need, reduced)
            if again is not None:
                llm_tasks.append(again)
    answers = await llm.solve(llm_tasks, reduced, prompts)

    for task in llm_tasks:
        answer = answers.get(task.key) or JudgeOutputInvalid(f"{llm.name} gave no answer to {task.key}")
        if task.key not in uncertain:
            outcomes[task.key] = answer  # a whole task: the LLM's answer or its error
            continue
        if isinstance(answer, Exception):
            continue  # the LLM failed: the local answer stands (it was only uncertain)
        section = TASK_KINDS[task.need.prompt].items
        outcomes[task.key] = _merge(outcomes[task.key], answer, keep[section], uncertain[task.key])
    return outcomes


def _merge(local: BaseModel, llm: BaseModel, kept: list[int], wanted: list[int]) -> BaseModel:
    """The local answer with the LLM's verdicts at the uncertain positions."""
    position = {item: n for n, item in enumerate(kept)}
    if hasattr(local, "verdicts"):
        verdicts = list(local.verdicts)
        for item in wanted:
            verdicts[item] = llm.verdicts[position[item]]  # type: ignore[attr-defined]
        return local.model_copy(update={"verdicts": verdicts})
    # relevant_sentences: selections are 1-based numbers
    chosen = set(local.sentences)  # type: ignore[attr-defined]
    llm_chosen = {kept[n - 1] + 1 for n in llm.sentences}  # type: ignore[attr-defined]
    for item in wanted:
        chosen.discard(item + 1)
        if item + 1 in llm_chosen:
            chosen.add(item + 1)
    reason = f"{local.reason}; {len(wanted)} uncertain sentences judged by the LLM: {llm.reason}"  # type: ignore[attr-defined]
    return local.model_copy(update={"sentences": sorted(chosen), "reason": reason})
