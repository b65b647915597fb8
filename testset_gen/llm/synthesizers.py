"""The three synthesizers as prompts: one call writes a question and its ground truth.

Each call gets the scenario (chunks and topic, ``scenarios``), the persona who asks, the
query style and the length, and returns a ``WrittenSample``. Ragas spends a call on the
persona-theme matching and one on the query; here the persona is matched without a call
(``personas.match_persona``) and question and answer come from one call, so a kept question
costs this call plus its share of a batched critic call.

The writer also says which contexts its answer uses: a multi-hop question whose answer
draws on one context only is dropped before the critic sees it (it is a single-hop question
with a second chunk attached, the failure the issue saw in "multi_context" records).

Prompts are data (``SYNTHESIZER_PROMPTS``, ``TaskPrompt`` as everywhere in ragmeter), so a
user can read and replace them.
"""

from __future__ import annotations

from typing import Sequence

from pydantic import BaseModel, Field

from ragmeter.judges.protocol import Message
from ragmeter.prompts.fencing import DATA_NOTICE, fence, fence_numbered
from ragmeter.prompts.template import Example, TaskPrompt
from testset_gen.llm.personas import Persona
from testset_gen.llm.query_style import QUERY_LENGTHS, QUERY_STYLES


class WrittenSample(BaseModel):
    """What one synthesis call returns."""

    question: str = Field(description="the query, in the persona's voice, style and length asked for")
    ground_truth: str = Field(description="the complete answer, from the contexts only")
    contexts_used: list[int] = Field(default_factory=list, description="numbers of the contexts the answer draws on")


_RULES = (
    "The query must make sense to someone who has never seen the contexts: name people, "
    "things and places explicitly and never refer to 'the context', 'the passage', 'the "
    "text', 'the document' or 'the article'. It must be answerable from the contexts alone. "
    "Write it as the persona would, in the style and length asked for; the style changes the "
    "wording, never what is asked. The ground truth is the complete, correct answer in one "
    "to three plain sentences, written only from the contexts (never in the query's style). "
    "Write in the language of the contexts."
)

SYNTHESIZER_PROMPTS: dict[str, TaskPrompt] = {
    "single_hop_specific": TaskPrompt(
        name="single_hop_specific",
        instruction=(
            "Write one query this persona would ask about the topic, whose answer is a "
            "specific fact the context states (a name, date, number, place, reason or "
            "definition). " + _RULES
        ),
        examples=(Example(
            input={"persona": "Architecture student: studies how 19th-century iron structures were built.",
                   "topic": "Eiffel Tower", "style": "web_search", "length": "short",
                   "context": "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris."},
            output={"question": "eiffel tower completion year", "ground_truth": "The Eiffel Tower was completed in 1889.",
                    "contexts_used": [1]},
        ),),
    ),
    "multi_hop_specific": TaskPrompt(
        name="multi_hop_specific",
        instruction=(
            "The numbered contexts come from different parts of the documents and both "
            "mention the topic. Write one query this persona would ask whose answer needs a "
            "fact that only context 1 gives AND a fact that only context 2 gives, joined "
            "through the topic (for example: describe the topic by what one context says and "
            "ask what the other says about it; or compare what they say). Neither context "
            "alone may answer it, and it must not be two questions joined by 'and'. " + _RULES
        ),
        examples=(Example(
            input={"persona": "History teacher: prepares lessons on women in science.",
                   "topic": "Marie Curie", "style": "conversational", "length": "medium",
                   "context": ["Marie Curie was born in Warsaw in 1867.",
                               "Marie Curie discovered polonium in 1898, together with Pierre Curie."]},
            output={"question": "In which city was the scientist who discovered polonium with Pierre Curie born?",
                    "ground_truth": "Polonium was discovered by Marie Curie (with Pierre Curie), who was born in Warsaw.",
                    "contexts_used": [1, 2]},
        ),),
    ),
    "multi_hop_abstract": TaskPrompt(
        name="multi_hop_abstract",
        instruction=(
            "The numbered contexts come from different parts of the documents and share the "
            "theme. Write one query this persona would ask about the theme that needs "
            "information from at least two of the contexts: a comparison, a common pattern, "
            "a difference, or an overview no single context gives. The ground truth "
            "combines what the contexts say. " + _RULES
        ),
        examples=(Example(
            input={"persona": "Travel writer: looks for what makes European capitals' landmarks distinct.",
                   "topic": "famous landmarks", "style": "formal", "length": "medium",
                   "context": ["The Eiffel Tower in Paris was completed in 1889 and is 330 metres tall.",
                               "Big Ben's tower in London was completed in 1859 and is 96 metres tall."]},
            output={"question": "How do the Eiffel Tower and the Big Ben tower compare in age and height?",
                    "ground_truth": "The Big Ben tower (1859) is 30 years older than the Eiffel Tower (1889), but at 96 metres it is far lower than the 330-metre Eiffel Tower.",
                    "contexts_used": [1, 2]},
        ),),
    ),
}

SYSTEM = (
    "You write test queries for a retrieval-augmented question answering system, as its "
    "users would ask them, from the documents it searches. " + DATA_NOTICE
    + " Reply with the JSON object asked for."
)


def synthesis_messages(synthesizer: str, contexts: Sequence[str], topic: str, persona: Persona,
                       style: str, length: str,
                       prompts: dict[str, TaskPrompt] | None = None) -> list[Message]:
    """The one call that writes a record of ``synthesizer`` (see the module docstring)."""
    prompt = (prompts or SYNTHESIZER_PROMPTS)[synthesizer]
    parts = [prompt.instruction, prompt.render_examples(),
             f"Persona: {persona.name}\nWho they are: {persona.role_description}",
             f"Topic: {topic}",
             f"Query style ({style}): write the query {QUERY_STYLES[style]}.",
             f"Query length: {QUERY_LENGTHS[length]}.",
             fence("context", contexts[0]) if len(contexts) == 1 else fence_numbered("context", list(contexts)),
             'Reply with {"question": ..., "ground_truth": ..., "contexts_used": [...]}.']
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(p for p in parts if p)}]
