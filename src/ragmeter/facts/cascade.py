"""The cascade's routing: local answers first, the uncertain verdicts to the LLM in one call.

For each task of a sample's phase the local judge gives an answer and, for yes/no verdicts,
a probability per item. Items whose probability falls inside the cascade's band are
uncertain. The uncertain items of every task are gathered into one reduced bundle (the
numbered lists cut down to those items, renumbered) and sent to the LLM judge in one call;
its verdicts replace the local ones at the same positions. Tasks the local judge cannot do
at all (critiques without a local check) go to the LLM whole, in the same call. Claims,
entities and question coverage are always local.
"""

from __future__ import annotations

from typing import Any, Sequence

from pydantic import BaseModel

from ragmeter.errors import NeedsLLMJudge
from ragmeter.judges.bundle import ask_all
from ragmeter.judges.local_solver import solver_for
from ragmeter.judgements.tasks import TASK_KINDS, Sections, Task, make_task
from ragmeter.judges.cascade import CascadeJudge
from ragmeter.prompts.template import PromptSet


async def solve_cascade(judge: CascadeJudge, tasks: Sequence[Task], sections: Sections, prompts: PromptSet) -> dict[str, Any]:
    solved = await solver_for(judge.local).solve(tasks, sections)
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
        items = [k for k, p in enumerate(probs) if judge.uncertain(p)]
        if items:
            if TASK_KINDS[task.need.prompt].items:
                uncertain[task.key] = items
            else:
                whole.append(task)  # a single verdict (a critique): the LLM redoes it

    total = sum(len(p) for p in solved.probabilities.values())
    escalated = sum(len(v) for v in uncertain.values()) + sum(len(solved.probabilities.get(t.key, [1])) for t in whole)
    judge.counts.local_judgements += max(0, total - sum(len(v) for v in uncertain.values()) - sum(len(solved.probabilities.get(t.key, [])) for t in whole))
    judge.counts.escalated_judgements += escalated
    if not whole and not uncertain:
        judge.counts.calls_saved += 1
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
    answers = await ask_all(judge.llm, llm_tasks, reduced, prompts)

    for task in llm_tasks:
        answer = answers.get(task.key)
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
        verdicts = list(local.verdicts)  # type: ignore[attr-defined]
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
