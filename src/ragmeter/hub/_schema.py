"""What a published object is made of: its kind, the Arrow columns of its data file (with
the meaning each gets in the card), the manifest that says what a folder holds, and the
tables built from a test set or a result."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args, Literal, Union

from ragmeter.data import Dataset
from ragmeter.data.dataset import COLUMNS as SAMPLE_COLUMNS
from ragmeter.errors import InvalidOptionType
from ragmeter.result import EvaluationResult

if TYPE_CHECKING:
    import pyarrow as pa

    from testset_gen.record import Testset


Kind = Literal["testset", "dataset", "result"]
KINDS: tuple[str, ...] = get_args(Kind)
HubObject = Union["Testset", Dataset, EvaluationResult]

MANIFEST = "ragmeter.json"
"""The file that says which kind a folder or repo holds; its presence marks a ragmeter folder."""
CARD = "README.md"
RESULT_FILE = "result.json"
FORMAT = "ragmeter-hub"
FORMAT_VERSION = 1
SPLITS: dict[str, str] = {"testset": "test", "dataset": "test", "result": "results"}
"""Split name per kind: ``test`` so ``load_dataset(repo, split="test")`` reads an evaluation
set the conventional way; a result's rows are scores, hence their own split name."""

_ARROW_TYPES = ("string", "json", "list<string>", "float64", "int64")
# --- what is in a table ---------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One column of a data file: its name, type and meaning (the card's schema table)."""

    name: str
    type: str
    """string | json (JSON text in a string column) | list<string> | float64 | int64"""
    meaning: str

    def arrow(self) -> pa.DataType:
        import pyarrow as pa

        return {
            "string": pa.string(),
            "json": pa.string(),
            "list<string>": pa.list_(pa.string()),
            "float64": pa.float64(),
            "int64": pa.int64(),
        }[self.type]

    def feature(self) -> dict[str, str]:
        """The column as a ``dataset_info.features`` entry (the form ``datasets`` >= 4 writes)."""
        if self.type == "list<string>":
            return {"name": self.name, "list": "string"}
        return {"name": self.name, "dtype": "string" if self.type == "json" else self.type}


SAMPLE_SCHEMA: tuple[Column, ...] = (
    Column("id", "string", "The sample's id in its source; null when it had none."),
    Column("question", "string", "The question asked of the RAG pipeline."),
    Column("answer", "string", "The pipeline's answer."),
    Column("contexts", "list<string>", "The passages the retriever returned, in rank order."),
    Column("ground_truth", "string", "The reference answer."),
    Column("reference_contexts", "list<string>", "The passages that hold the answer (what retrieval should find)."),
    Column("retrieved_context_ids", "list<string>", "Ids of the retrieved chunks, in rank order (ID-based context metrics)."),
    Column("reference_context_ids", "list<string>", "Ids of the chunks that should have been retrieved."),
    Column("metadata", "json", "JSON object: every other column of the source (labels, latencies...); null when empty."),
)
assert tuple(c.name for c in SAMPLE_SCHEMA) == SAMPLE_COLUMNS, "keep SAMPLE_SCHEMA in step with Dataset.to_arrow"

def testset_schema() -> tuple[Column, ...]:
    """The columns of a published test set (``testset_gen``'s records; imported here only when
    a test set is handled, since ``testset_gen`` builds on ragmeter and not the reverse)."""
    from testset_gen.record import EVOLUTION_TYPES

    return (
        Column("id", "string", "Stable id of the generated question."),
        Column("question", "string", "The generated question."),
        Column("ground_truth", "string", "Its answer, written from the reference contexts."),
        Column("reference_contexts", "list<string>", "The chunks the question and answer were written from."),
        Column("evolution_type", "string", f"How the question was made: {', '.join(EVOLUTION_TYPES)}."),
        Column("reference_context_ids", "list<string>", "Ids of those chunks in the knowledge graph."),
        Column("sources", "json", "JSON list: for each reference chunk, the document it came from and where."),
        Column("metadata", "json", "JSON object: anything else the generator recorded."),
    )


def kind_of(obj: object) -> Kind:
    """``"testset"``, ``"dataset"`` or ``"result"``; a ``TypeError`` for anything else."""
    from testset_gen.record import Testset

    if isinstance(obj, Testset):
        return "testset"
    if isinstance(obj, Dataset):
        return "dataset"
    if isinstance(obj, EvaluationResult):
        return "result"
    raise InvalidOptionType(
        f"expected a testset_gen Testset, a ragmeter Dataset or an EvaluationResult, got {type(obj).__name__}"
    )


@dataclass
class Written:
    kind: Kind
    split: str
    data_file: str
    schema: Sequence[Column] = ()
    extra_files: list[str] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)
    num_rows: int = 0
    num_bytes: int = 0
    """Uncompressed size of the rows (what ``datasets`` calls a split's ``num_bytes``)."""
    download_size: int = 0

    def measure(self, folder: Path) -> None:
        import pyarrow.parquet as pq

        meta = pq.read_metadata(folder / self.data_file)
        self.num_rows = meta.num_rows
        self.num_bytes = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        self.download_size = (folder / self.data_file).stat().st_size

    def manifest_json(self) -> dict[str, Any]:
        from ragmeter.version import __version__

        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "kind": self.kind,
            "ragmeter_version": __version__,
            "data": {"split": self.split, "path": self.data_file, "num_rows": self.num_rows},
            "files": [CARD, self.data_file, *self.extra_files],
            **self.manifest,
        }


def write_table(table: pa.Table, path: Path) -> None:
    import pyarrow.parquet as pq

    pq.write_table(table, path)


def _table(schema: Sequence[Column], columns: Mapping[str, list[Any]]) -> pa.Table:
    import pyarrow as pa

    arrow_schema = pa.schema([(c.name, c.arrow()) for c in schema])
    return pa.table({c.name: columns[c.name] for c in schema}, schema=arrow_schema)


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def testset_table(testset: Testset) -> pa.Table:
    columns: dict[str, list[Any]] = {c.name: [] for c in testset_schema()}
    for record in testset.records:
        row = record.model_dump(mode="json")
        for column in testset_schema():
            value = row[column.name]
            columns[column.name].append(_json_text(value) if column.type == "json" else value)
    return _table(testset_schema(), columns)


def result_table(result: EvaluationResult) -> tuple[pa.Table, list[Column]]:
    """The viewer's table of a result: row, the sample's columns, then four per metric.

    A metric whose columns would clash with a sample column is prefixed ``score_``.
    """
    import pyarrow as pa

    result = result.with_samples()
    table = Dataset([s.sample for s in result.samples]).to_arrow()
    table = table.add_column(0, pa.field("row", pa.int64()), pa.array([s.row for s in result.samples], pa.int64()))
    schema = [Column("row", "int64", "Index of the sample in the evaluated source."), *SAMPLE_SCHEMA]
    taken = {c.name for c in schema}
    for metric in result.metric_names:
        base = metric
        names = (base, f"{base}_reason", f"{base}_error", f"{base}_verdicts")
        if taken & set(names):
            base = f"score_{metric}"
        cells: dict[str, list[Any]] = {"": [], "_reason": [], "_error": [], "_verdicts": []}
        for sample in result.samples:
            score = sample.scores.get(metric)
            cells[""].append(score.value if score else None)
            cells["_reason"].append(score.reason if score else None)
            cells["_error"].append(str(score.error) if score and score.error else None)
            verdicts = score.model_dump(mode="json")["verdicts"] if score is not None else None
            cells["_verdicts"].append(_json_text(verdicts) if verdicts is not None else None)
        new = [
            Column(base, "float64", f"{metric}: the score in [0, 1]; null when it failed or was not computed."),
            Column(f"{base}_reason", "string", f"{metric}: why the score is what it is."),
            Column(f"{base}_error", "string", f"{metric}: the typed error (kind: message) when the score failed."),
            Column(f"{base}_verdicts", "json", f"{metric}: JSON of the intermediate judgements behind the score."),
        ]
        for column, suffix in zip(new, cells, strict=True):
            table = table.append_column(pa.field(column.name, column.arrow()), pa.array(cells[suffix], column.arrow()))
            taken.add(column.name)
        schema.extend(new)
    return table, schema


