"""Several judgements about one sample in one judge call.

Why: the judgements a run needs about a sample mostly read the same texts. Asked one by
one, as other tools do, every call resends the contexts, the answer and the instructions;
asked together, the texts go once and the call count drops to one per phase (two in all:
claims, then their verdicts). The reply is one JSON object with a key per task.

A bundle whose reply still fails validation after the judge's repair re-ask is split into
one call per task, so a weak judge that cannot fill a large object still gets every
judgement it can make; a task that fails alone reports its own typed error.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Any, Sequence

from pydantic import BaseModel, create_model

from ragmeter.errors import JudgeOutputInvalid
from ragmeter.judgements.tasks import SECTION_ORDER, Outcome, Sections, Task, prompt_for
from ragmeter.judges.protocol import FreeFormJudge, Message
from ragmeter.prompts.fencing import DATA_NOTICE, fence, fence_numbered
from ragmeter.prompts.template import PromptSet

SYSTEM = (
    "You evaluate the output of a question-answering system. The user message holds the texts "
    "of one sample, each inside its own tag, then one or more tasks. Do every task and reply "
    "with one JSON object that has one key per task. Write claims, questions and reasons in "
    "the language of the texts."
)

@lru_cache(maxsize=1024)
def bundle_type(fields: tuple[tuple[str, type[BaseModel]], ...]) -> type[BaseModel]:
    return create_model("Judgements", **{key: (output, ...) for key, output in fields})  # type: ignore[call-overload]


def render_sections(sections: Sections, names: Sequence[str]) -> str:
    parts = []
    for name in SECTION_ORDER:
        if name not in names or not sections.get(name):
            continue
        value = sections[name]
        parts.append(fence_numbered(name, value) if isinstance(value, list) else fence(name, value))
    return "\n".join(parts)


def render_task(task: Task, prompts: PromptSet) -> str:
    prompt = prompt_for(task.need.prompt, prompts)
    instruction = prompt.instruction.replace("{reference}", f"<{task.reference}>" if task.reference else "reference")
    lines = [f"Task {task.key}: {instruction}"]
    if task.need.note:
        lines.append(task.need.note)
    if prompt.examples:
        lines.append(prompt.render_examples())
    return "\n".join(lines)


def bundle_messages(tasks: Sequence[Task], sections: Sections, prompts: PromptSet, vote: str = "") -> list[Message]:
    shown = {name for task in tasks for name in task.sections}
    keys = ", ".join(f'"{t.key}"' for t in tasks)
    user = (
        render_sections(sections, list(shown))
        + "\n\n"
        + "\n\n".join(render_task(t, prompts) for t in tasks)
        + f"\n\nReply with one JSON object with the keys {keys}."
        + (f"\n{vote}" if vote else "")
    )
    return [{"role": "system", "content": f"{SYSTEM}\n{DATA_NOTICE}"}, {"role": "user", "content": user}]


async def ask(
    judge: FreeFormJudge,
    tasks: Sequence[Task],
    sections: Sections,
    prompts: PromptSet,
    *,
    vote: str = "",
    temperature: float | None = None,
) -> dict[str, BaseModel]:
    """One call for all ``tasks``; raises the judge's typed error if it fails."""
    output_type = bundle_type(tuple((t.key, t.output_type) for t in tasks))
    messages = bundle_messages(tasks, sections, prompts, vote)
    reply = await judge.generate(messages, output_type, temperature=temperature)
    return {t.key: getattr(reply, t.key) for t in tasks}


async def ask_all(
    judge: FreeFormJudge, tasks: Sequence[Task], sections: Sections, prompts: PromptSet, *, per_task: bool = False
) -> dict[str, Outcome]:
    """Every task's outcome: one bundled call, split into single-task calls if its reply is
    unusable; with ``per_task`` the single-task calls at once (one call per kind of judgement)."""
    if not tasks:
        return {}
    if not per_task:
        try:
            return dict(await ask(judge, tasks, sections, prompts))
        except JudgeOutputInvalid as exc:
            if len(tasks) == 1:
                return {tasks[0].key: exc}

    async def alone(task: Task) -> tuple[str, Outcome]:
        try:
            return task.key, (await ask(judge, [task], sections, prompts))[task.key]
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # each task keeps its own typed error
            return task.key, exc

    return dict(await asyncio.gather(*(alone(t) for t in tasks)))


async def ask_votes(
    judge: FreeFormJudge, task: Task, sections: Sections, prompts: PromptSet, votes: int, temperature: float
) -> list[BaseModel]:
    """``votes`` independent answers to one task, each its own call (a repeated request would
    only replay the cache). Sampled with ``temperature`` so the votes can differ."""

    async def one(k: int) -> BaseModel:
        mark = f"(Independent judgement {k} of {votes}.)"
        return (await ask(judge, [task], sections, prompts, vote=mark, temperature=temperature))[task.key]

    return list(await asyncio.gather(*(one(k) for k in range(1, votes + 1))))

