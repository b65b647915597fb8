"""What the generator writes: test-set records, and the test set that holds them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator, Literal, overload

from pydantic import BaseModel, Field

EvolutionType = Literal["simple", "reasoning", "multi_context", "conditional"]
EVOLUTION_TYPES: tuple[str, ...] = ("simple", "reasoning", "multi_context", "conditional")


class TestsetRecord(BaseModel):
    """One generated question with its answer and the chunks it was written from.

    Loads directly as a ragmeter ``Sample`` (``question``, ``ground_truth`` and
    ``reference_contexts`` are its fields; the rest lands in its metadata).
    """

    __test__ = False  # not a pytest test class

    id: str
    question: str
    ground_truth: str
    reference_contexts: list[str]
    evolution_type: EvolutionType
    reference_context_ids: list[str] = Field(default_factory=list)
    sources: list[dict[str, Any]] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)


class Testset(BaseModel):
    """Records plus the settings that produced them (seed, distribution, judge, sizes).

    ``to_jsonl`` writes the records only, one per line, so that any JSONL reader (ragmeter's
    own ``Dataset.from_jsonl``, pandas, ``datasets``) loads them; the settings go to the
    generator's run directory and to a Hub dataset card."""

    __test__ = False

    records: list[TestsetRecord] = Field(default_factory=list)
    settings: dict[str, Any] = Field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.records)

    @overload
    def __getitem__(self, index: int) -> TestsetRecord: ...

    @overload
    def __getitem__(self, index: slice) -> "Testset": ...

    def __getitem__(self, index: int | slice) -> "TestsetRecord | Testset":
        """``testset[0]`` is a record; ``testset[:5]`` a test set of those records, with the
        same settings (a quick trial on the first few questions)."""
        if isinstance(index, slice):
            return Testset(records=self.records[index], settings=dict(self.settings))
        return self.records[index]

    def __iter__(self) -> Iterator[TestsetRecord]:  # type: ignore[override]
        """The records, in order (not pydantic's ``(field, value)`` pairs: a test set is a
        sequence of questions, and ``for record in testset`` should read that way)."""
        return iter(self.records)

    def to_jsonl(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as f:
            for record in self.records:
                f.write(record.model_dump_json() + "\n")
        return path

    @classmethod
    def from_jsonl(cls, path: str | Path) -> "Testset":
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        return cls(records=[TestsetRecord.model_validate(json.loads(l)) for l in lines if l.strip()])

    def to_pandas(self) -> Any:
        import pandas as pd

        return pd.DataFrame([r.model_dump() for r in self.records])

    def to_dataset(self) -> Any:
        """The records as a ragmeter ``Dataset`` (answers and contexts still to collect)."""
        from ragmeter.data import Dataset

        return Dataset.from_records([r.model_dump() for r in self.records])

    def counts(self) -> dict[str, int]:
        out = {t: 0 for t in EVOLUTION_TYPES}
        for r in self.records:
            out[r.evolution_type] += 1
        return out

    def extend(self, records: Iterable[TestsetRecord]) -> None:
        self.records.extend(records)
