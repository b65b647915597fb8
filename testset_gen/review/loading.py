"""Reading a test set for review: every good record, each bad row named and skipped.

Why not ``Testset.from_jsonl``: it stops at the first bad line, and a reviewer who hand-edited
one record would lose the whole set to it. Why through ragmeter's ``Dataset.load``: it is the
reader ``ragmeter run`` and ``evaluate`` put a test set through, so review reads what they
read (JSONL, JSON, CSV, Parquet) and names a bad row the way they do (row, line, field).
Each loaded sample is then checked as a ``TestsetRecord``: a review needs the question, the
ground truth, the contexts and the evolution type of every record it shows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ragmeter.data import Dataset, RowError, Sample
from ragmeter.errors import BadFile
from testset_gen.record import TestsetRecord

RECORD_FIELDS = ("evolution_type", "sources")
"""Test-set fields that are not sample fields: ``Dataset.load`` keeps them in the metadata."""


@dataclass
class LoadedTestset:
    """The records that loaded, in the file's order, and one line per row that did not."""

    records: list[TestsetRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_testset(path: str | Path) -> LoadedTestset:
    """Every record of the test set at ``path`` that is whole; a bad row is named in
    ``problems`` ("t.jsonl: row 2 (line 3), field 'question': ...") and the rest load.

    Raises ``BadFile`` for a file of conversations (``generate --conversations``): a chat is
    reviewed as a whole, not as the single records this reads."""
    path = Path(path)
    dataset = Dataset.load(path)
    loaded = LoadedTestset()
    problems: list[tuple[int, str]] = [(error.row, f"{path.name}: {error}") for error in dataset.errors]
    conversations = 0
    for row, sample in zip(dataset.rows, dataset.samples):
        if sample.question is None and "messages" in sample.metadata:
            conversations += 1
            continue
        try:
            loaded.records.append(TestsetRecord.model_validate(_record_fields(sample)))
        except ValidationError as exc:
            problems.append((row, f"{path.name}: {_row_error(row, exc)}"))
    if conversations:
        raise BadFile(f"{path} holds {conversations} conversation(s) (written by `ragmeter generate --conversations`); "
                      "`ragmeter review` reviews single-question test sets (written without --conversations)")
    loaded.problems = [text for _, text in sorted(problems, key=lambda item: item[0])]
    return loaded


def _record_fields(sample: Sample) -> dict[str, Any]:
    """A sample back into a test-set record's fields: ``evolution_type`` and ``sources`` out of
    the metadata, where the loader put them; the rest of it is the record's own metadata."""
    metadata = dict(sample.metadata)
    fields: dict[str, Any] = {
        "id": sample.id, "question": sample.question, "ground_truth": sample.ground_truth,
        "reference_contexts": sample.reference_contexts,
        "reference_context_ids": sample.reference_context_ids or [],
    }
    for name in RECORD_FIELDS:
        if name in metadata:
            fields[name] = _listed(metadata.pop(name)) if name == "sources" else metadata.pop(name)
    fields["metadata"] = metadata
    return fields


def _listed(value: Any) -> Any:
    """``sources`` as a list: a CSV cell holds it as JSON text."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value  # validation names the field
    return value


def _row_error(row: int, exc: ValidationError) -> RowError:
    """The first problem of a record, named as ``Dataset.load`` names a bad row."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or None
    got = first.get("input")
    message = "missing" if first["type"] == "missing" or got is None else f"{first['msg']}, got {got!r}"[:200]
    return RowError(row=row, field=where, message=message)
