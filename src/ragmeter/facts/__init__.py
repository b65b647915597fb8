"""Facts: per-sample judgements (claims, verdicts, entities, embeddings) shared across metrics."""

from ragmeter.facts import needs
from ragmeter.facts.needs import Need
from ragmeter.facts.outputs import Claims, Critique, Entities, Questions, SentenceSelection, Verdict
from ragmeter.facts.sentences import split_sentences
from ragmeter.facts.store import SampleFacts
from ragmeter.facts.task_prompts import DEFAULT_PROMPTS

__all__ = [
    "DEFAULT_PROMPTS",
    "Claims",
    "Critique",
    "Entities",
    "Need",
    "Questions",
    "SampleFacts",
    "SentenceSelection",
    "Verdict",
    "needs",
    "split_sentences",
]
