"""What a review leaves: the kept records, as a test set, and the tallies per evolution type.

Both are computed from the test set and the whole review file, never from one session's
decisions: a review quit and resumed three times still writes every kept record, in the
test set's order, and counts every decision.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from testset_gen.record import EVOLUTION_TYPES, TestsetRecord
from testset_gen.review.decisions import ReviewDecision


def kept_records(records: Iterable[TestsetRecord], decisions: Mapping[str, ReviewDecision]) -> list[TestsetRecord]:
    """The records decided usable, in ``records``' order. An edited record carries its new
    question and ground truth, ``metadata["edited"] = True`` and its original text (so an
    edit can be checked or undone); its id stays the generated one, which ties it to its
    line in the review file."""
    kept = []
    for record in records:
        decision = decisions.get(record.id)
        if decision is None or not decision.usable:
            continue
        if decision.edited:
            metadata = {**record.metadata, "edited": True, "original_question": record.question,
                        "original_ground_truth": record.ground_truth}
            record = record.model_copy(update={"question": decision.question, "ground_truth": decision.ground_truth,
                                               "metadata": metadata})
        kept.append(record)
    return kept


@dataclass
class ReviewTally:
    """Decisions about the records of one evolution type."""

    total: int = 0
    reviewed: int = 0
    kept: int = 0
    dropped: int = 0
    edited: int = 0
    notes: Counter[str] = field(default_factory=Counter)
    """The drop notes, folded to lower case so "Vague" and "vague" count as one."""


def tally(records: Iterable[TestsetRecord], decisions: Mapping[str, ReviewDecision]) -> dict[str, ReviewTally]:
    """Per evolution type (in the generator's order), how many records there are, how many
    were reviewed, kept, dropped and edited, and the notes given when dropping. A decision
    about a record not in ``records`` (a review file of another set) is not counted."""
    tallies: dict[str, ReviewTally] = {}
    for record in records:
        counts = tallies.setdefault(record.evolution_type, ReviewTally())
        counts.total += 1
        decision = decisions.get(record.id)
        if decision is None:
            continue
        counts.reviewed += 1
        if decision.usable:
            counts.kept += 1
            counts.edited += decision.edited
        else:
            counts.dropped += 1
            if decision.note and decision.note.strip():
                counts.notes[decision.note.strip().lower()] += 1
    return {kind: tallies[kind] for kind in sorted(tallies, key=_type_order)}


def _type_order(kind: str) -> tuple[int, str]:
    return (EVOLUTION_TYPES.index(kind) if kind in EVOLUTION_TYPES else len(EVOLUTION_TYPES), kind)
