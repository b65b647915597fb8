"""ID-based context precision and recall: retrieval judged by chunk ids, no text compared.

For pipelines that know which chunks should have been retrieved: ``retrieved_context_ids``
are the ids the retriever returned, ``reference_context_ids`` the ids of the chunks that
hold the answer. Each list is taken as a set of distinct ids (a repeated id counts once;
rank is ignored). With R the retrieved ids and G the reference ids::

    id_context_precision = |R ∩ G| / |R|
    id_context_recall    = |R ∩ G| / |G|

Ids compare as strings: integers in the input were stored as their decimal text (7 and "7"
are the same id, "07" is not). A present, empty list is data: nothing retrieved scores 0 on
both (a retriever that found nothing must not drop out of the means), and an empty reference
gives precision 0. Only recall with no reference ids is undefined (``MissingInput``: its
denominator is 0); an absent list is missing input too. No judge, no embedder.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ragmeter.data import Sample
from ragmeter.errors import MissingInput
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.retrieval import NOTHING_RETRIEVED
from ragmeter.metrics.score import MetricScore

if TYPE_CHECKING:
    from ragmeter.facts import SampleFacts


def _distinct(ids: Iterable[str]) -> list[str]:
    """The ids in first-seen order, each once."""
    return list(dict.fromkeys(ids))


def id_context_precision_score(retrieved: Iterable[str], reference: Iterable[str]) -> float:
    """Share of the distinct retrieved ids that are reference ids.

    Parameters
    ----------
    retrieved : iterable of str
        Ids of the retrieved chunks.
    reference : iterable of str
        Ids of the chunks that should be retrieved.

    Returns
    -------
    float
        ``|set(retrieved) & set(reference)| / |set(retrieved)|``; 0.0 when ``reference`` is
        empty, and 0.0 when ``retrieved`` is empty (a retriever that found nothing scores
        0, as context precision scores an empty retrieval).

    Examples
    --------
    >>> id_context_precision_score(["a", "b", "c", "a"], ["a", "d"])  # 1 of {a, b, c}
    0.3333333333333333
    """
    got = set(retrieved)
    if not got:
        return 0.0
    return len(got & set(reference)) / len(got)


def id_context_recall_score(retrieved: Iterable[str], reference: Iterable[str]) -> float:
    """Share of the distinct reference ids that were retrieved.

    Returns
    -------
    float
        ``|set(retrieved) & set(reference)| / |set(reference)|``; 0.0 when ``retrieved`` is
        empty.

    Raises
    ------
    MissingInput
        When ``reference`` is empty (recall of nothing is undefined).

    Examples
    --------
    >>> id_context_recall_score(["a", "b", "c"], ["a", "d"])  # 1 of {a, d}
    0.5
    """
    wanted = set(reference)
    if not wanted:
        raise MissingInput("no reference ids: recall is undefined")
    return len(set(retrieved) & wanted) / len(wanted)


def _show(ids: list[str], limit: int = 5) -> str:
    shown = ", ".join(repr(i) for i in ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


@register
class IdContextPrecision(Metric):
    name = "id_context_precision"
    required = ("retrieved_context_ids", "reference_context_ids")
    empty_is_data = required

    def config(self) -> dict[str, Any]:
        return {}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        retrieved = _distinct(sample.retrieved_context_ids or [])
        reference = set(sample.reference_context_ids or [])
        value = id_context_precision_score(retrieved, reference)
        matched = [i for i in retrieved if i in reference]
        extra = [i for i in retrieved if i not in reference]
        reason = (
            f"{len(matched)} of {len(retrieved)} distinct retrieved ids are reference ids"
            + (f"; not in the reference: {_show(extra)}" if extra else "")
        ) if retrieved else NOTHING_RETRIEVED
        verdicts = {"retrieved": retrieved, "matched": matched, "not_in_reference": extra}
        return MetricScore.ok(value, reason, verdicts)


@register
class IdContextRecall(Metric):
    name = "id_context_recall"
    required = ("retrieved_context_ids", "reference_context_ids")
    empty_is_data = required

    def config(self) -> dict[str, Any]:
        return {}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        retrieved = set(sample.retrieved_context_ids or [])
        reference = _distinct(sample.reference_context_ids or [])
        value = id_context_recall_score(retrieved, reference)
        matched = [i for i in reference if i in retrieved]
        missed = [i for i in reference if i not in retrieved]
        reason = (
            f"{len(matched)} of {len(reference)} distinct reference ids were retrieved"
            + (f"; not retrieved: {_show(missed)}" if missed else "")
        ) + ("; " + NOTHING_RETRIEVED if not retrieved else "")
        verdicts = {"reference": reference, "matched": matched, "not_retrieved": missed}
        return MetricScore.ok(value, reason, verdicts)
