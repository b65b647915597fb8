"""The critic: an LLM review of written questions, several per call.

A question is kept only when the critic finds it standalone (it makes sense without the
contexts and does not point at them), answerable (the reference contexts hold the whole
answer, and the written ground truth says what they say) and unambiguous (one reasonable
reading, one answer). Reviewing a batch in one call keeps the critic's cost per question a
fraction of a call; each question is still judged on its own three checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from pydantic import BaseModel, Field

from ragmeter.judges.protocol import Message
from ragmeter.prompts.fencing import DATA_NOTICE, fence

BATCH = 8
"""Questions reviewed per critic call."""


class Review(BaseModel):
    n: int = Field(description="the number of the reviewed question")
    standalone: bool = Field(description="makes sense without the contexts and never refers to them")
    answerable: bool = Field(description="the contexts hold the whole answer and the ground truth matches them")
    unambiguous: bool = Field(description="one reasonable reading and one correct answer")
    reason: str = Field(description="one sentence: what is wrong, or 'ok'")

    @property
    def accepted(self) -> bool:
        return self.standalone and self.answerable and self.unambiguous


class Reviews(BaseModel):
    reviews: list[Review]


@dataclass(frozen=True)
class Candidate:
    """A written question waiting for review."""

    question: str
    ground_truth: str
    contexts: tuple[str, ...]


INSTRUCTION = (
    "Review each numbered evaluation question below. For each, decide: standalone (a person "
    "who has never seen the contexts understands it; it never says 'the context', 'the "
    "passage', 'according to' or the like), answerable (its reference contexts hold the "
    "whole answer, and the ground truth says what they say and nothing else), unambiguous "
    "(one reasonable reading, one correct answer). Be strict: a question that fails any "
    "check is dropped. Give a one-sentence reason."
)


def review_messages(candidates: Sequence[Candidate]) -> list[Message]:
    blocks = []
    for n, c in enumerate(candidates, start=1):
        contexts = "\n".join(fence("context", t) for t in c.contexts)
        blocks.append(f"## Question {n}\n{fence('question', c.question)}\n"
                      f"{fence('ground_truth', c.ground_truth)}\n{contexts}")
    user = (INSTRUCTION + "\n\n" + "\n\n".join(blocks)
            + f'\n\nReply with {{"reviews": [...]}}: one review per question, n = 1..{len(candidates)}.')
    system = "You review evaluation questions for a question answering system. " + DATA_NOTICE
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def reviews_by_number(reviews: Reviews, count: int) -> list[Review | None]:
    """The review of each candidate in order; ``None`` where the critic skipped one (that
    candidate is treated as rejected: an unreviewed question is not kept)."""
    out: list[Review | None] = [None] * count
    for r in reviews.reviews:
        if 1 <= r.n <= count and out[r.n - 1] is None:
            out[r.n - 1] = r
    return out
