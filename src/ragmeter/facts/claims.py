"""Claims of a text: the atomic, self-contained statements it makes.

Faithfulness, answer correctness, noise sensitivity and factual correctness all start from
the claims of the answer; extracting them once per sample and sharing them is where
ragmeter saves calls. One judge call per text.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ragmeter.facts.prompting import fence, messages
from ragmeter.judges.protocol import Judge

CLAIMS_SYSTEM = (
    "You break a text into its claims: short, atomic, self-contained statements of fact. "
    "Each claim states one fact and can be understood alone: replace pronouns and references "
    "with the names they stand for, using the question for context. Keep the text's own "
    "wording and language. A text that states nothing (a refusal, 'I don't know') has no claims."
)


class Claims(BaseModel):
    claims: list[str] = Field(description="atomic, self-contained claims, in the order the text makes them")


def claims_prompt(text: str, question: str | None = None) -> list[dict[str, str]]:
    user = (fence("question", question) + "\n" if question else "") + fence("text", text)
    return messages(CLAIMS_SYSTEM, user + "\nList the claims of the text.")


async def extract_claims(judge: Judge, text: str, question: str | None = None) -> list[str]:
    result = await judge.generate(claims_prompt(text, question), Claims)
    return [c.strip() for c in result.claims if c and c.strip()]
