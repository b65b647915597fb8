"""The critic of synthesized records: several per call, aware of query style and hops.

Why not ``critic.py``'s reviewer: that one wants grammatical questions, and would drop a
``web_search`` query ("eiffel tower completion year") or a ``misspelled`` one for the very
form it was asked to have. This critic is told each record's style and judges meaning only.
It also checks what a multi-hop record promises: that answering needs every one of its
contexts (``needs_all_contexts``); a question one chunk answers is dropped.

Batched like the evolution critic (``BATCH`` records per call), so the critic costs a
fraction of a call per question and a kept question stays within two calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from pydantic import BaseModel, Field

from ragmeter.judges.protocol import Message
from ragmeter.prompts.fencing import DATA_NOTICE, fence

BATCH = 8
"""Records reviewed per critic call."""


class SampleReview(BaseModel):
    n: int = Field(description="the number of the reviewed record")
    standalone: bool = Field(description="understandable without the contexts; never refers to them")
    answerable: bool = Field(description="the contexts hold the whole answer and the ground truth is correct and complete")
    needs_all_contexts: bool = Field(description="multi-hop: no single context answers it (single-hop: true)")
    reason: str = Field(description="one sentence: what is wrong, or 'ok'")

    def problems(self, multi_hop: bool) -> list[str]:
        """Named reasons for a rejection (empty: kept), the names the CLI report counts."""
        out = []
        if not self.standalone:
            out.append(f"not standalone: {self.reason}")
        if not self.answerable:
            out.append(f"not answerable: {self.reason}")
        if multi_hop and not self.needs_all_contexts:
            out.append(f"one context answers it: {self.reason}")
        return out


class SampleReviews(BaseModel):
    reviews: list[SampleReview]


@dataclass(frozen=True)
class Draft:
    """A written record waiting for review."""

    question: str
    ground_truth: str
    contexts: tuple[str, ...]
    style: str
    multi_hop: bool


INSTRUCTION = (
    "Review each numbered test record below (a user query, its ground truth and the "
    "reference contexts it was written from). Judge the meaning, never the form: each "
    "query was asked for in a given style (search-engine keywords, misspellings, casual or "
    "formal wording) and must not be marked down for that style. Decide: standalone (a "
    "person who has never seen the contexts understands what is asked; it never says 'the "
    "context', 'the passage' or the like), answerable (the contexts hold the whole answer, "
    "and the ground truth is correct, complete and says nothing the contexts do not), and, "
    "for multi-hop records only, needs_all_contexts (no single context answers the query "
    "on its own; for single-hop records answer true). Be strict: a record failing a check "
    "is dropped. Give a one-sentence reason."
)


def review_messages(drafts: Sequence[Draft]) -> list[Message]:
    blocks = []
    for n, d in enumerate(drafts, start=1):
        contexts = "\n".join(fence("context", t) for t in d.contexts)
        kind = f"multi-hop ({len(d.contexts)} contexts)" if d.multi_hop else "single-hop"
        blocks.append(f"## Record {n}: {kind}, style {d.style}\n{fence('query', d.question)}\n"
                      f"{fence('ground_truth', d.ground_truth)}\n{contexts}")
    user = (INSTRUCTION + "\n\n" + "\n\n".join(blocks)
            + f'\n\nReply with {{"reviews": [...]}}: one review per record, n = 1..{len(drafts)}.')
    system = "You review test records for a question answering system. " + DATA_NOTICE
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def reviews_in_order(reviews: SampleReviews, count: int) -> list[SampleReview | None]:
    """The review of each draft in order; ``None`` where the critic skipped one (that draft
    is rejected: an unreviewed record is not kept)."""
    out: list[SampleReview | None] = [None] * count
    for r in reviews.reviews:
        if 1 <= r.n <= count and out[r.n - 1] is None:
            out[r.n - 1] = r
    return out
