"""The four evolutions as prompts: what the LLM is asked to write for each kind of question.

One call writes a question: the LLM reads the reference contexts, writes a plain seed
question, evolves it the way the evolution type asks, and answers the evolved question from
the contexts, all in one structured output (``WrittenQuestion``). Ragas spends a call on
each of these steps; asking for the three fields together keeps the seed visible to the
evolution (so the evolved question stays answerable) and costs one call instead of three.
A critic (``critic.py``) then reviews the questions in batches.

Prompts are data (``EVOLUTION_PROMPTS``), in the same ``TaskPrompt`` form as the metrics'
prompts, so a user can read and replace them.
"""

from __future__ import annotations

import re
from typing import Sequence

from pydantic import BaseModel, Field

from ragmeter.judges.protocol import Message
from ragmeter.prompts.fencing import DATA_NOTICE, fence, fence_numbered
from ragmeter.prompts.template import Example, TaskPrompt


class WrittenQuestion(BaseModel):
    """What one writing call returns."""

    seed_question: str = Field(description="a plain question whose answer the contexts state")
    question: str = Field(description="the evolved question: the one the test set keeps")
    ground_truth: str = Field(description="the answer to the evolved question, from the contexts only")


_RULES = (
    "Rules for the question: it must make sense to someone who has never seen the contexts "
    "(name people, things and places explicitly; never write 'the context', 'the passage', "
    "'the text', 'the document', 'the article', 'according to', 'mentioned above'); it must "
    "be answerable from the contexts alone; it asks one thing (or, for a multi-context "
    "question, one thing that needs several facts); it ends with a question mark. Write the "
    "question and the answer in the language of the contexts. The answer is complete, "
    "written only from the contexts, in one to three sentences."
)

EVOLUTION_PROMPTS: dict[str, TaskPrompt] = {
    "simple": TaskPrompt(
        name="simple",
        instruction=(
            "Write a question that a user of these documents could ask and whose answer the "
            "context states. Write a plain seed question first; the evolved question may be "
            "the seed itself, reworded so that it stands on its own. " + _RULES
        ),
        examples=(Example(
            input={"context": "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris."},
            output={"seed_question": "When was the Eiffel Tower completed?",
                    "question": "In what year was the Eiffel Tower completed?",
                    "ground_truth": "The Eiffel Tower was completed in 1889."},
        ),),
    ),
    "reasoning": TaskPrompt(
        name="reasoning",
        instruction=(
            "Write a plain seed question whose answer the context states, then rewrite it so "
            "that answering needs a step of reasoning over what the context says: a "
            "comparison, a cause or a consequence, a small calculation, or combining two of "
            "its facts. The reasoning must be possible from the context alone. " + _RULES
        ),
        examples=(Example(
            input={"context": "Water boils at 100 °C at sea level. At 3,000 metres the air pressure is lower and water boils at about 90 °C."},
            output={"seed_question": "At what temperature does water boil at 3,000 metres?",
                    "question": "Why does pasta take longer to cook at 3,000 metres than at sea level?",
                    "ground_truth": "Because the air pressure is lower at 3,000 metres, water boils at about 90 °C instead of 100 °C, so the cooking water is cooler."},
        ),),
    ),
    "multi_context": TaskPrompt(
        name="multi_context",
        instruction=(
            "The numbered contexts come from different parts of the documents. Write a plain "
            "seed question about one of them, then rewrite it into a question that needs "
            "facts from at least two of the contexts to answer, for example by linking them "
            "through something they both mention. " + _RULES
        ),
        examples=(Example(
            input={"context": ["Marie Curie was born in Warsaw in 1867.", "Marie Curie discovered polonium in 1898, together with Pierre Curie."]},
            output={"seed_question": "What did Marie Curie discover in 1898?",
                    "question": "In which city was the scientist who discovered polonium born?",
                    "ground_truth": "Polonium was discovered by Marie Curie (with Pierre Curie), who was born in Warsaw."},
        ),),
    ),
    "conditional": TaskPrompt(
        name="conditional",
        instruction=(
            "Write a plain seed question whose answer the context states, then rewrite it "
            "with a condition or a scenario ('if ...', 'when ...', 'for a ... that ...') that "
            "the context addresses and that narrows or changes the answer. " + _RULES
        ),
        examples=(Example(
            input={"context": "HTTP 429 means Too Many Requests. A client should wait before retrying; if the server sends a Retry-After header, the client should wait that many seconds."},
            output={"seed_question": "What does HTTP 429 mean?",
                    "question": "If a server answers HTTP 429 with a Retry-After header, how long should the client wait before retrying?",
                    "ground_truth": "It should wait the number of seconds given in the Retry-After header before retrying."},
        ),),
    ),
}

SYSTEM = (
    "You write evaluation questions for a retrieval-augmented question answering system, "
    "from the documents it searches. " + DATA_NOTICE + " Reply with the JSON object asked for."
)


def writing_messages(evolution: str, contexts: Sequence[str], summary: str | None = None,
                     prompts: dict[str, TaskPrompt] | None = None) -> list[Message]:
    """The one call that writes a question of this ``evolution`` from ``contexts``."""
    prompt = (prompts or EVOLUTION_PROMPTS)[evolution]
    parts = [prompt.instruction]
    examples = prompt.render_examples()
    if examples:
        parts.append(examples)
    if summary:
        parts.append("What the document is about (for orientation only):\n" + fence("summary", summary))
    if len(contexts) == 1:
        parts.append(fence("context", contexts[0]))
    else:
        parts.append(fence_numbered("context", list(contexts)))
    parts.append('Reply with {"seed_question": ..., "question": ..., "ground_truth": ...}.')
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(parts)}]


# --- the cheap checks before the critic ---------------------------------------------------

_REFERS_TO_SOURCE = re.compile(
    r"\b(?:according to|based on|as (?:stated|mentioned|described) in|in|from|by) (?:the |this |these )?"
    r"(?:given |above |following |provided |preceding )?"
    r"(?:contexts?|passages?|texts?|documents?|articles?|excerpts?|sources?|paragraphs?)\b"
    r"|\b(?:the|this|these) (?:above |following |given |provided )?(?:contexts?|passages?|excerpts?)\b"
    r"|\bmentioned above\b",
    re.IGNORECASE,
)


def refers_to_source(question: str) -> bool:
    """Whether a question points at where it came from ("according to the context", "in the
    passage", "mentioned above"): a user of the app has no such context."""
    return bool(_REFERS_TO_SOURCE.search(question))


def rule_problems(question: str, ground_truth: str) -> list[str]:
    """What is wrong with a written question that needs no LLM to see (empty: nothing)."""
    problems = []
    q = question.strip()
    if not q:
        problems.append("empty question")
    elif not q.endswith("?"):
        problems.append("not a question (no question mark)")
    if _REFERS_TO_SOURCE.search(q):
        problems.append("refers to its source ('according to the context')")
    if not ground_truth.strip():
        problems.append("empty ground truth")
    if len(q.split()) < 3:
        problems.append("too short to stand on its own")
    return problems
