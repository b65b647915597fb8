"""LLM conversations: one call writes a persona's whole chat about one section.

The call gets a persona and a section (a passage and the one after it in the same
document) and returns the turns together (``WrittenConversation``): for each, what the
persona types at that point of the chat (a follow-up leans on the earlier turns: "When did
she move there?", "And what about the price?"), the same question written to stand alone,
the answer from the section, and the sentence of the section that supports it. Writing the
turns in one reply is what makes the follow-ups depend on each other; Ragas-style
turn-by-turn writing costs a call per turn.

Checks, with no further call to the model (``turn_problems``, ``conversation_problems``):
the rule checks of the single-turn writer on each standalone question and answer, no
question pointing at "the passage", the evidence found word for word in the section, the
texts in the section's language, and at least one follow-up that needs an earlier turn.
The local judge then checks that each answer is supported by the section
(``record_filter.judge_reasons``, the offline generator's check). A conversation keeps its
turns up to the first that fails (a later turn may lean on it); fewer than two is a
rejection, and the slot is written again from another section.
"""

from __future__ import annotations

import re
from typing import Sequence

from pydantic import BaseModel, Field

from ragmeter.judges.protocol import Message
from ragmeter.prompts.fencing import DATA_NOTICE, fence, fence_numbered
from testset_gen.llm.evolutions import refers_to_source, rule_problems
from testset_gen.llm.judge_faults import wrong_language
from testset_gen.llm.personas import Persona

SYSTEM = "You write test conversations for a chat assistant that answers from documents. " + DATA_NOTICE


class WrittenTurn(BaseModel):
    question: str = Field(description="what the persona types at this point of the chat; after the first turn it "
                                      "refers back to earlier turns (a pronoun, 'and what about ...?') instead of "
                                      "repeating their subject")
    standalone_question: str = Field(description="the same question rewritten so that it is understood without the chat")
    ground_truth: str = Field(description="the answer, from the section only, in one or two sentences")
    evidence: str = Field(description="one sentence copied word for word from the section that supports the answer")


class WrittenConversation(BaseModel):
    """What one writing call returns."""

    subject: str = Field(description="what the conversation is about, as the section names it")
    turns: list[WrittenTurn]


def conversation_messages(persona: Persona, passages: Sequence[str], turns: int) -> list[Message]:
    user = (
        f"Write a conversation of {turns} user turns that this persona would have with a chat assistant "
        f"about the section below.\n\nPersona: {persona.name}\nRole: {persona.role_description}\n\n"
        "The first turn names its subject. Every later turn is a follow-up that only makes sense after "
        "the earlier turns: it refers back with a pronoun ('When did she move there?') or asks 'And what "
        "about ...?', and asks about another fact of the same section. For each turn also write the "
        "standalone question (the same question with the references spelled out), the answer (only "
        "what the section says, one or two sentences) and the evidence (one sentence of the section "
        "copied word for word). Never write 'the section', 'the passage', 'the text' or 'according "
        "to'; write in the language of the section.\n\n"
        + fence_numbered("context", list(passages))
        + "\n\n" + fence("persona", persona.role_description)
        + '\n\nReply with {"subject": ..., "turns": [{"question": ..., "standalone_question": ..., '
          '"ground_truth": ..., "evidence": ...}, ...]}.'
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[\"'“”‘’`]", "", text)).strip().lower()


def supporting(evidence: str, passages: Sequence[str]) -> list[int]:
    """Indices of the passages that hold ``evidence`` word for word (quotes and spacing
    aside); empty when none does."""
    wanted = _plain(evidence).rstrip(".")
    if len(wanted.split()) < 3:
        return []
    return [i for i, p in enumerate(passages) if wanted in _plain(p)]


def turn_problems(number: int, turn: WrittenTurn, passages: Sequence[str]) -> list[str]:
    """Why turn ``number`` (1-based) cannot be kept, by rule; empty: it can."""
    problems = [f"turn {number}: {p}" for p in rule_problems(turn.standalone_question, turn.ground_truth)]
    if not turn.question.strip().endswith("?"):
        problems.append(f"turn {number}: not a question (no question mark)")
    if refers_to_source(turn.question):
        problems.append(f"turn {number}: refers to its source ('according to the context')")
    if not supporting(turn.evidence, passages):
        problems.append(f"turn {number}: evidence not in the section")
    return problems


def refers_back(turn: WrittenTurn) -> bool:
    """Whether a follow-up is worded to lean on the chat: not the standalone question again."""
    return _plain(turn.question).rstrip("?") != _plain(turn.standalone_question).rstrip("?")


def conversation_problems(written: WrittenConversation, passages: Sequence[str]) -> list[str]:
    """Why the conversation as a whole cannot be kept (language, no follow-up that refers back)."""
    texts = [t for turn in written.turns for t in (turn.question, turn.ground_truth)]
    problems = []
    if (language := wrong_language(texts, passages)) is not None:
        problems.append(language)
    if len(written.turns) >= 2 and not any(refers_back(t) for t in written.turns[1:]):
        problems.append("no follow-up refers back to an earlier turn")
    return problems
