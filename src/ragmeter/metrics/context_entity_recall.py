"""Context entity recall: the share of the ground truth's entities that the contexts name.

    GE = entities of the ground truth, CE = entities of the contexts (both normalised)
    context_entity_recall = |GE n CE| / |GE|

A ground-truth entity also counts as found when its normalised form occurs, word for word,
in the normalised contexts (the judge's list of context entities can miss a mention).
Example: GE = {Taj Mahal, Yamuna, Agra, 1631, Shah Jahan, Mumtaz Mahal}; contexts naming
Taj Mahal, Agra, Shah Jahan, Mumtaz Mahal and India give 4/6. Judge calls: none of its own
(first call).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from ragmeter.data import Sample
from ragmeter.errors import NoEntities
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.retrieval import empty_retrieval_score, nothing_retrieved
from ragmeter.metrics.score import MetricScore

_ARTICLES = {"the", "a", "an"}


def normalise_entity(text: str) -> str:
    """NFKC, casefolded, punctuation dropped (digit separators too: 1,631 -> 1631), no
    leading article, single spaces."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"(?<=\d)[,.\u00a0\u202f'](?=\d{3}\b)", "", text)
    words = re.findall(r"\w+", text)
    if len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    return " ".join(words)


def entity_recall_score(ground_truth: Iterable[str], found: Iterable[str]) -> float | None:
    """|GE n found| / |GE| over normalised entities; None when the ground truth has none."""
    ge = {normalise_entity(e) for e in ground_truth} - {""}
    if not ge:
        return None
    return len(ge & {normalise_entity(e) for e in found}) / len(ge)


@register
class ContextEntityRecall(Metric):
    name = "context_entity_recall"
    required = ("contexts", "ground_truth")
    uses_judge = True
    empty_is_data = ("contexts",)  # nothing retrieved: 0, no judge call

    def needs(self, sample: Sample) -> list[Need]:
        return [] if nothing_retrieved(sample.contexts) else [needs.ENTITIES]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        if nothing_retrieved(sample.contexts):
            return empty_retrieval_score()
        entities = await facts.get(needs.ENTITIES)
        context_text = " " + normalise_entity(" ".join(sample.contexts or [])) + " "
        named = {normalise_entity(e) for e in entities.contexts}
        by_form: dict[str, str] = {}
        for e in entities.ground_truth:  # one entry per normalised form: "the Taj Mahal" = "Taj Mahal"
            by_form.setdefault(normalise_entity(e), e)
        by_form.pop("", None)
        ground_truth = list(by_form.values())
        found = [e for e in ground_truth if normalise_entity(e) in named or f" {normalise_entity(e)} " in context_text]
        value = entity_recall_score(ground_truth, found)
        verdicts = {
            "ground_truth_entities": [{"entity": e, "found": e in found} for e in ground_truth],
            "context_entities": list(entities.contexts),
        }
        if value is None:
            return MetricScore.failed(NoEntities("no_entities: the ground truth names no entities to look for"), verdicts)
        missing = [e for e in ground_truth if e not in found]
        reason = f"{len(found)} of {len(ground_truth)} ground-truth entities appear in the contexts"
        if missing:
            reason += "; missing: " + ", ".join(missing[:5])
        return MetricScore.ok(value, reason, verdicts)
