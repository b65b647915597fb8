"""Support verdicts: for each claim, do the passages back it up?

All the claims of a sample are judged in one call. The output type is built for the exact
number of claims, so a judge that skips or adds a verdict fails validation and is asked
once more with the error, instead of silently shifting verdicts onto the wrong claims.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from pydantic import BaseModel, Field, create_model

from ragmeter.facts.prompting import fence_numbered, messages
from ragmeter.judges.protocol import Judge

SUPPORT_SYSTEM = (
    "You check claims against passages. A claim is supported only if the passages state it "
    "or it follows directly from them; a claim the passages contradict, or do not mention, "
    "is not supported. Judge every claim, in order, with a one-sentence reason first."
)


class SupportVerdict(BaseModel):
    reason: str = Field(description="one sentence: what in the passages supports or fails the claim")
    supported: bool


@lru_cache(maxsize=256)
def support_verdicts_type(n_claims: int) -> type[BaseModel]:
    return create_model(
        "SupportVerdicts",
        verdicts=(list[SupportVerdict], Field(min_length=n_claims, max_length=n_claims,
                                               description=f"exactly {n_claims} verdicts, one per claim, in order")),
    )


def support_prompt(claims: Sequence[str], passages: Sequence[str]) -> list[dict[str, str]]:
    user = (
        fence_numbered("passage", passages)
        + "\n"
        + fence_numbered("claim", claims)
        + f"\nGive exactly {len(claims)} verdicts, one per claim, in order."
    )
    return messages(SUPPORT_SYSTEM, user)


async def judge_support(judge: Judge, claims: Sequence[str], passages: Sequence[str]) -> list[SupportVerdict]:
    if not claims:
        return []
    output_type = support_verdicts_type(len(claims))
    result = await judge.generate(support_prompt(claims, passages), output_type)
    return list(result.verdicts)  # type: ignore[attr-defined]
