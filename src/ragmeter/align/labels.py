"""Labels: what people said about samples, metric by metric.

A labels file is JSON Lines (or any format ``Dataset.load`` reads): each record holds a
sample's fields (``question``, ``answer``, ``contexts``, ...) plus

    "labels": {"faithfulness": 1, "context_relevance": 0.5}    0/1, or a grade in [0, 1]
    "note": "the answer invents the year"                       optional, shown beside disagreements

Why the labels ride along with the sample and not in a side table keyed by id: the file is
then self-contained (it can be shared, re-scored with any judge, or re-labelled) and a
sample's label can never be attached to another sample's text by a stale id.

A row whose labels are malformed (not a mapping, a value that is not a number in [0, 1])
becomes a ``RowError`` naming the file, row, line and field, and the other rows load.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from ragmeter.conversations import ConversationSample
from ragmeter.data import Dataset, RowError, Sample
from ragmeter.data.dataset import jsonl_items, parse_items
from ragmeter.errors import BadFile, InvalidInput, InvalidOption

LABELS_FIELD = "labels"
NOTE_FIELD = "note"


@dataclass
class LabelledSample:
    """One sample and what a person said about it."""

    row: int
    sample: Sample
    labels: dict[str, float]
    note: str | None = None

    def to_record(self) -> dict[str, Any]:
        """The labels-file record of this sample (its fields, ``labels``, ``note``)."""
        record = {k: v for k, v in self.sample.model_dump(exclude={"metadata"}).items() if v is not None}
        extra = {k: v for k, v in self.sample.metadata.items() if k not in (LABELS_FIELD, NOTE_FIELD)}
        if extra:
            record["metadata"] = extra
        record[LABELS_FIELD] = dict(self.labels)
        if self.note:
            record[NOTE_FIELD] = self.note
        return record


@dataclass
class LabelSet:
    """Labelled samples in file order, and the rows that could not be read."""

    samples: list[LabelledSample]
    errors: list[RowError] = field(default_factory=list)
    source: str | None = None

    def __len__(self) -> int:
        return len(self.samples)

    def metrics(self) -> list[str]:
        """Every metric that has at least one label, in order of first appearance."""
        return list(dict.fromkeys(m for s in self.samples for m in s.labels))

    def dataset(self) -> Dataset:
        """The samples, to score with ``evaluate`` (labels stay in each sample's metadata)."""
        return Dataset([s.sample for s in self.samples], [s.row for s in self.samples], source=self.source)

    def binary(self, metric: str) -> bool:
        """True when every label of ``metric`` is 0 or 1."""
        return all(s.labels[metric] in (0.0, 1.0) for s in self.samples if metric in s.labels)

    def split(self, test_share: float = 0.5, seed: int = 0) -> tuple["LabelSet", "LabelSet"]:
        """A seeded random (train, test) split; the same seed gives the same split."""
        if not 0.0 < test_share < 1.0:
            raise InvalidOption(f"test_share must be in (0, 1), got {test_share}")
        order = np.random.default_rng(seed).permutation(len(self.samples))
        cut = len(self.samples) - max(1, round(test_share * len(self.samples)))
        train = sorted(order[:cut].tolist())
        test = sorted(order[cut:].tolist())
        return (LabelSet([self.samples[i] for i in train], source=self.source),
                LabelSet([self.samples[i] for i in test], source=self.source))

    def save(self, path: str | Path) -> Path:
        """Write as a labels JSONL file."""
        path = Path(path)
        with path.open("w", encoding="utf-8") as f:
            for item in self.samples:
                f.write(json.dumps(item.to_record(), ensure_ascii=False) + "\n")
        return path


def parse_labels(value: Any) -> dict[str, float]:
    """A ``labels`` value as ``{metric: float in [0, 1]}``; raises ``ValueError`` naming the
    offending metric. A JSON string (a CSV cell) is parsed first; booleans count as 0/1."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise BadFile("expected a mapping of metric -> label, got a string that is not JSON") from None
    if not isinstance(value, Mapping) or not value:
        raise BadFile(f"expected a non-empty mapping of metric -> label, got {type(value).__name__}")
    out: dict[str, float] = {}
    for metric, label in value.items():
        if isinstance(label, bool):
            label = int(label)
        if not isinstance(label, (int, float)) or not math.isfinite(label) or not 0.0 <= label <= 1.0:
            raise BadFile(f"label of {metric!r} must be 0/1 or a number in [0, 1], got {label!r}")
        out[str(metric)] = float(label)
    return out


def _labelled(row: int, line: int | None, parsed: Sample | RowError) -> LabelledSample | RowError:
    if isinstance(parsed, RowError):
        return parsed
    raw = parsed.metadata.get(LABELS_FIELD)
    if raw is None:
        return RowError(row=row, field=LABELS_FIELD, message="no labels: add \"labels\": {metric: 0/1 or [0, 1]}", line=line)
    try:
        labels = parse_labels(raw)
    except ValueError as exc:
        return RowError(row=row, field=LABELS_FIELD, message=str(exc), line=line)
    note = parsed.metadata.get(NOTE_FIELD)
    if note is not None and not isinstance(note, str):
        return RowError(row=row, field=NOTE_FIELD, message=f"expected a string, got {type(note).__name__}", line=line)
    return LabelledSample(row=row, sample=parsed, labels=labels, note=note or None)


def labels_from_records(records: Iterable[Mapping[str, Any]], *, source: str | None = None) -> LabelSet:
    """From dicts (sample fields + ``labels`` + optional ``note``)."""
    items = ((i, None, dict(r)) for i, r in enumerate(records))
    return _collect(items, source, plain=True)


def load_labels(path: str | Path) -> LabelSet:
    """Read a labels file. Bad rows are in ``errors`` (file, row, line, field); the rest load.
    Raises ``FileNotFoundError`` when the file does not exist."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"labels file {path} does not exist")
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json-lines", ".jsonlines"):
        return _collect(jsonl_items(path), str(path), plain=False)
    data = Dataset.load(path)
    out = LabelSet([], list(data.errors), str(path))
    for row, sample in zip(data.rows, data.samples):
        item = _labelled(row, None, sample)
        (out.errors if isinstance(item, RowError) else out.samples).append(item)  # type: ignore[arg-type]
    return out


def _parsed(row: int, line: int | None, record: Any, plain: bool) -> Sample | RowError:
    """A labelled record as a sample: a conversation when it holds messages (labels on
    conversation metrics), else a single-turn sample."""
    if isinstance(record, Mapping) and "messages" in record:
        try:
            return ConversationSample.model_validate(record)
        except InvalidInput as exc:
            return RowError(row=row, field=getattr(exc, "field", None), line=line,
                            message=getattr(exc, "detail", str(exc)))
    return next(iter(parse_items([(row, line, record)], plain)))[1]


def _collect(items: Iterable[tuple[int, int | None, Any]], source: str | None, plain: bool) -> LabelSet:
    out = LabelSet([], [], source)
    for row, line, record in items:
        item = _labelled(row, line, _parsed(row, line, record, plain))
        if isinstance(item, RowError):
            out.errors.append(item)
        else:
            out.samples.append(item)
    return out


def describe_errors(labels: LabelSet, limit: int = 10) -> list[str]:
    """One line per unreadable row: ``FILE: row R (line L), field 'F': message``."""
    where = labels.source or "labels"
    lines = [f"{where}: {e}" for e in labels.errors[:limit]]
    if len(labels.errors) > limit:
        lines.append(f"{where}: ... and {len(labels.errors) - limit} more")
    return lines
