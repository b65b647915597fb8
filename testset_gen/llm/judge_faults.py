"""What went wrong with the judge during a generation run, counted by kind.

Why: a short test set has two very different causes. Either the documents gave no more
questions that pass the checks (write more documents, lower the size), or the judge failed
(a model that answers broken JSON, refuses, runs out of tokens or answers in another
language: change the model or its settings). The report must say which, with numbers; a run
whose every judge call failed must stop as a failure, never write an empty file that blames
the documents.

``TalliedJudge`` wraps the run's judge and counts every ``generate`` call and every failure
by ``fault_kind``; drafts in the wrong language are counted from the rejections
(``WRONG_LANGUAGE`` is the reason's prefix the writers give them).
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Sequence, TypeVar

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.errors import JudgeError
from ragmeter.judgements.tasks import Outcome, Sections, Task
from ragmeter.judges.protocol import DryRun, Judge, Prompt
from ragmeter.prompts.template import PromptSet

T = TypeVar("T", bound=BaseModel)

MALFORMED = "malformed output"
REFUSAL = "refusal"
TRUNCATED = "truncated reply"
WRONG_LANGUAGE = "wrong language"
FAULT_KINDS = (MALFORMED, REFUSAL, TRUNCATED, WRONG_LANGUAGE)

def fault_kind(exc: JudgeError) -> str:
    """The kind of a failed call: ``truncated reply``, ``refusal`` (prose that declines, no
    JSON), ``malformed output`` for any other invalid reply, else the error's kind
    (``JudgeTimeout``, ``JudgeUnavailable``...): ``JudgeError.fault``."""
    return exc.fault


class TalliedJudge:
    """The run's judge, counting its ``generate`` calls and failures (``calls``,
    ``failures`` by ``fault_kind``, ``errors``: the error kind and first message per kind).

    Everything else is the wrapped judge's: its name, usage, cache, connections."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        self.name = judge.name
        self.concurrency = judge.concurrency
        self.generative = judge.generative
        self.calls = 0
        self.failures: Counter[str] = Counter()
        self.errors: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    @property
    def usage(self) -> Usage:
        return self.judge.usage

    @property
    def failed(self) -> int:
        return sum(self.failures.values())

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        with self._lock:
            self.calls += 1
        try:
            return await self.judge.generate(prompt, output_type, temperature=temperature)
        except JudgeError as exc:
            kind = fault_kind(exc)
            with self._lock:
                self.failures[kind] += 1
                self.errors.setdefault(kind, (exc.kind, str(exc)))
            raise

    async def solve(self, tasks: Sequence[Task], sections: Sections, prompts: PromptSet) -> dict[str, Outcome]:
        return await self.judge.solve(tasks, sections, prompts)

    async def vote(self, task: Task, sections: Sections, prompts: PromptSet, votes: int,
                   temperature: float) -> list[BaseModel]:
        return await self.judge.vote(task, sections, prompts, votes, temperature)

    def dry_run(self) -> DryRun:
        return self.judge.dry_run()

    async def aclose(self) -> None:
        await self.judge.aclose()

    def everything_failed(self) -> str | None:
        """The message of a run in which every call failed (None if one succeeded or none
        was made): how many calls, and each error kind with its count and first message."""
        if not self.calls or self.failed < self.calls:
            return None
        kinds: Counter[str] = Counter()
        for fault, n in self.failures.items():
            kinds[self.errors[fault][0]] += n
        detail = "; ".join(f"{kind} x{n}" for kind, n in kinds.most_common())
        first = next(iter(self.errors.values()))[1]
        faults = ", ".join(f"{k} {n}" for k, n in self.failures.most_common())
        return (f"every one of the {self.calls} calls to the judge {self.name} failed: {detail} "
                f"({faults}); no question was written, and the documents were not the cause. "
                f"First error: {first[:300]}")


def judge_caused(reason: str) -> bool:
    """Whether a rejection reason is the judge's doing (a failed call, a draft left
    unreviewed because the critic call failed, a draft in the wrong language) rather than
    a verdict on the draft's content."""
    head = reason.split(":", 1)[0].strip()
    return reason.startswith((WRONG_LANGUAGE, "not reviewed")) or head in _judge_error_kinds()


def _judge_error_kinds() -> set[str]:
    kinds, todo = set(), [JudgeError]
    while todo:
        cls = todo.pop()
        kinds.add(cls.__name__)
        todo += cls.__subclasses__()
    return kinds


def nothing_but_the_judge(tally: TalliedJudge, rejected_reasons: Sequence[str]) -> str | None:
    """Why a run that kept no question failed, when the judge is the whole reason: every
    call failed, or every draft was dropped for a judge fault (failed call, wrong language,
    no review). None when any draft was rejected for its content, or no call was made."""
    if (everything := tally.everything_failed()) is not None:
        return everything
    if not rejected_reasons or not all(judge_caused(r) for r in rejected_reasons):
        return None
    counted = faults(tally, rejected_reasons)
    detail = ", ".join(f"{k} {n}" for k, n in counted.items())
    return (f"no question was kept, and the judge {tally.name} is the whole reason: "
            f"{tally.failed} of its {tally.calls} calls failed, and every draft was lost to it "
            f"({detail}); the documents were not the cause")


def wrong_language(texts: Sequence[str], contexts: Sequence[str]) -> str | None:
    """A rule problem (``"wrong language: ..."``) when the written ``texts`` are in another
    language than their ``contexts``; None when they agree or either is too short to tell.

    A question in German about English documents is useless for an English RAG test set, and
    the critic, an LLM reading both, often passes it as answerable."""
    from testset_gen.documents.language import detect_language, language_name

    written = detect_language(" ".join(texts))
    source = detect_language(" ".join(contexts))
    if written == source:
        return None
    return f"{WRONG_LANGUAGE}: {language_name(written)}, the contexts are {language_name(source)}"


def faults(tally: TalliedJudge | None, rejected_reasons: Sequence[str]) -> dict[str, int]:
    """Failed judge calls by kind plus drafts rejected for their language, largest first."""
    out: Counter[str] = Counter(tally.failures if tally is not None else {})
    out[WRONG_LANGUAGE] += sum(1 for r in rejected_reasons if r.startswith(WRONG_LANGUAGE))
    return {k: n for k, n in out.most_common() if n}
