"""A retrieval that returned nothing: scored 0 by the retrieval metrics, not dropped.

Why: a sample whose ``contexts`` (or retrieved ids) is present but empty is a retriever that
found nothing. Reporting it as missing input would drop it from the retrieval means, and a
retriever that fails often would look better than one that returns poor chunks. An absent
field (None) is still missing input: nothing says what was retrieved.
"""

from __future__ import annotations

from typing import Sequence

from ragmeter.metrics.score import MetricScore

NOTHING_RETRIEVED = "nothing was retrieved: the retrieved list is empty"


def nothing_retrieved(retrieved: Sequence[str] | None) -> bool:
    """Whether ``retrieved`` is present and holds no non-blank item."""
    return retrieved is not None and not any(item.strip() for item in retrieved)


def empty_retrieval_score() -> MetricScore:
    """The score of an empty retrieval: 0, with the reason."""
    return MetricScore.ok(0.0, NOTHING_RETRIEVED, {"retrieved": 0})
