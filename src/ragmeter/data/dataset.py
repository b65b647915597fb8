"""A list of samples, read from and written to the formats people keep RAG data in.

Why a bad row does not stop the load: evaluation sets are assembled by hand, by scripts and
by other tools, and one broken row among thousands is common. Failing the whole load hides
every other problem behind the first one and makes the user fix them one run at a time.
Instead each bad row becomes one ``RowError`` (row, field, what was expected, what was
got), the good rows load, and ``rows`` keeps, for every sample, its index in the source so
results can always be traced back to the user's file.

Why the flat formats (CSV, Parquet, Hugging Face) store lists as they do: CSV cells hold
JSON lists so a round trip gives back the same lists; Parquet and ``datasets`` hold native
lists of strings (chunk ids too: they are stored as strings whatever they came in as), and
``metadata`` as one JSON text column, because per-row metadata with
different keys and types does not fit a single columnar struct without inventing ``None``
for every key a row lacks.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, overload

from pydantic import BaseModel

from ragmeter.data.sample import (
    FIELDS,
    ID_LIST_FIELDS,
    LIST_FIELDS,
    Sample,
    is_missing,
    type_name,
)
from ragmeter.data.nesting import TOO_DEEP, too_deep
from ragmeter.errors import BadFile, InvalidInput, InvalidOption

SAMPLE_DATA_PATH = Path(__file__).resolve().parent.parent / "sample_data" / "rag_sample.jsonl"
"""The bundled 16-row example dataset (labels in ``metadata["kind"]``)."""

COLUMNS: tuple[str, ...] = ("id", *FIELDS, "metadata")
"""Column order of every flat format ragmeter writes."""

LIST_COLUMNS = frozenset(LIST_FIELDS) | frozenset(ID_LIST_FIELDS)
"""Columns holding lists of strings in the columnar formats."""

JSONL_SUFFIXES = (".jsonl", ".json-lines", ".jsonlines", ".ndjson")
PARQUET_SUFFIXES = (".parquet", ".pq")
KNOWN_SUFFIXES = (*JSONL_SUFFIXES, ".json", ".csv", *PARQUET_SUFFIXES)


class RowError(BaseModel):
    """Why one row of a source did not become a sample."""

    row: int
    """0-based index of the record in the source (blank JSONL lines are not records)."""
    field: str | None = None
    """The first offending field, as named in the source; None when the row as a whole is bad."""
    message: str
    """What was expected and what was got."""
    line: int | None = None
    """1-based line in the file, for JSONL and CSV."""

    def __str__(self) -> str:
        where = f"row {self.row}"
        if self.line is not None:
            where += f" (line {self.line})"
        if self.field is not None:
            where += f", field {self.field!r}"
        return f"{where}: {self.message}"


class _Bad:
    """A row that could not even be read as a record (invalid JSON, too many cells...)."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def _plain(value: Any) -> Any:
    """numpy / pandas values -> plain Python, so validation and JSON see ordinary types."""
    if isinstance(value, (str, bool, int)) or value is None:
        return value
    if is_missing(value):
        return None
    if isinstance(value, Mapping):
        return {k: _plain_inner(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_inner(v) for v in value]
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy scalar or array
        return value.tolist()
    return value


def _plain_inner(value: Any) -> Any:
    # Inside containers a NaN is data the user put there, not a missing cell: keep it.
    if isinstance(value, float):
        return value
    return _plain(value)


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return str(value)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=_json_default)


class Dataset:
    """Samples plus the row each came from and the rows that could not be loaded.

    ``Dataset(samples)`` accepts ``Sample`` objects (or mappings, validated strictly: a bad
    one raises ``InvalidInput``); the ``from_*`` constructors never raise for a bad row,
    they record it in ``errors``.
    """

    samples: list[Sample]
    rows: list[int]
    errors: list[RowError]
    source: str | None

    def __init__(
        self,
        samples: Iterable[Sample | Mapping[str, Any]] = (),
        rows: Iterable[int] | None = None,
        errors: Iterable[RowError] | None = None,
        source: str | None = None,
    ) -> None:
        self.samples = [s if isinstance(s, Sample) else Sample.model_validate(s) for s in samples]
        self.rows = list(range(len(self.samples))) if rows is None else [int(r) for r in rows]
        if len(self.rows) != len(self.samples):
            raise InvalidOption(f"rows has {len(self.rows)} entries for {len(self.samples)} samples")
        self.errors = list(errors or [])
        self.source = source

    # --- container ----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.samples)

    def __iter__(self) -> Iterator[Sample]:
        return iter(self.samples)

    @overload
    def __getitem__(self, index: int) -> Sample: ...

    @overload
    def __getitem__(self, index: slice) -> Dataset: ...

    def __getitem__(self, index: int | slice) -> Sample | Dataset:
        """An int gives a Sample; a slice gives a Dataset (row errors are not carried over)."""
        if isinstance(index, slice):
            return Dataset(self.samples[index], self.rows[index], source=self.source)
        return self.samples[index]

    def __repr__(self) -> str:
        text = f"Dataset({len(self.samples)} samples, {len(self.errors)} errors"
        if self.source:
            text += f", source={self.source!r}"
        return text + ")"

    def raise_for_errors(self) -> None:
        """Raise ``InvalidInput`` listing the bad rows, if there are any."""
        if not self.errors:
            return
        shown = "\n".join(f"  {e}" for e in self.errors[:20])
        more = f"\n  ... and {len(self.errors) - 20} more" if len(self.errors) > 20 else ""
        raise InvalidInput(
            f"{len(self.errors)} row(s) of {self.source or 'the input'} could not be loaded:\n"
            f"{shown}{more}"
        )

    # --- core loader --------------------------------------------------------------------

    @classmethod
    def _collect(
        cls, items: Iterable[tuple[int, int | None, Any]], source: str | None, plain: bool
    ) -> Dataset:
        samples: list[Sample] = []
        rows: list[int] = []
        errors: list[RowError] = []
        for row, parsed in parse_items(items, plain):
            if isinstance(parsed, RowError):
                errors.append(parsed)
            else:
                samples.append(parsed)
                rows.append(row)
        return cls(samples, rows, errors, source)

    # --- constructors -------------------------------------------------------------------

    @classmethod
    def from_records(
        cls, records: Iterable[Mapping[str, Any]], *, source: str | None = None
    ) -> Dataset:
        """From dicts (canonical or alias names; unknown keys go to metadata)."""
        return cls._collect(((i, None, r) for i, r in enumerate(records)), source, plain=True)

    @classmethod
    def from_pandas(cls, df: Any, *, source: str | None = None) -> Dataset:
        """From a DataFrame. NaN / None / NA cells are missing; numpy arrays become lists.

        ``row`` is the position in the frame (not the index label).
        """
        columns = [str(c) for c in df.columns]

        def items() -> Iterator[tuple[int, int | None, Any]]:
            for i, values in enumerate(df.itertuples(index=False, name=None)):
                yield i, None, dict(zip(columns, values, strict=True))

        return cls._collect(items(), source, plain=True)

    @classmethod
    def from_hf(cls, ds: Any, *, split: str | None = None, source: str | None = None) -> Dataset:
        """From a Hugging Face ``datasets.Dataset`` (or a ``DatasetDict`` and a split name)."""
        if isinstance(ds, Mapping):  # DatasetDict
            if split is None:
                if len(ds) != 1:
                    raise InvalidOption(
                        f"this DatasetDict has splits {sorted(ds)}; pass split=... to choose one"
                    )
                split = next(iter(ds))
            ds = ds[split]
        elif split is not None:
            raise InvalidOption("split= is only meaningful for a DatasetDict")
        return cls._collect(((i, None, r) for i, r in enumerate(ds)), source, plain=True)

    @classmethod
    def from_jsonl(cls, path: str | Path) -> Dataset:
        """One JSON object per line; blank lines are skipped and are not rows."""
        return cls._collect(jsonl_items(Path(path)), str(path), plain=False)

    @classmethod
    def from_json(cls, path: str | Path) -> Dataset:
        """A JSON array of records, or a mapping of column name -> list of values.

        A ``.json`` file that is really JSON Lines is read as such.
        """
        path = Path(path)
        text = path.read_text(encoding="utf-8-sig", errors="surrogateescape")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            if exc.msg == "Extra data":
                return cls.from_jsonl(path)  # JSON Lines: a bad line is that row's error
            raise BadFile(f"{path}: not valid JSON: {exc}") from None
        except RecursionError:  # one document: no row of it can be read
            raise BadFile(f"{path}: not valid JSON: {TOO_DEEP}") from None
        if (bad := _invalid_utf8(path, [text])) is not None:  # one document: no row can be trusted
            start = next(i for i, ch in enumerate(text) if "\udc80" <= ch <= "\udcff")
            raise BadFile(f"{path}, line {text.count(chr(10), 0, start) + 1}: {bad.message}")
        if isinstance(data, dict) and data and all(isinstance(v, list) for v in data.values()):
            lengths = {len(v) for v in data.values()}
            if len(lengths) != 1:
                raise BadFile(f"{path}: the columns have different lengths {sorted(lengths)}")
            n = lengths.pop()
            data = [{k: v[i] for k, v in data.items()} for i in range(n)]
        if not isinstance(data, list):
            raise BadFile(
                f"{path}: expected a JSON array of records (or JSON Lines), got {type_name(data)}"
            )

        def items() -> Iterator[tuple[int, int | None, Any]]:
            for i, record in enumerate(data):
                if not isinstance(record, dict):
                    record = _Bad(f"expected a JSON object, got {type_name(record)}")
                yield i, None, record

        return cls._collect(items(), str(path), plain=False)

    @classmethod
    def from_csv(cls, path: str | Path) -> Dataset:
        """A header row, then one record per row. List columns hold JSON lists of strings,
        ``metadata`` a JSON object; other columns go into metadata as text. Empty cells are
        missing values."""
        return cls._collect(csv_items(Path(path)), str(path), plain=False)

    @classmethod
    def from_parquet(cls, path: str | Path) -> Dataset:
        return cls._collect(parquet_items(Path(path)), str(path), plain=True)

    @classmethod
    def load(cls, path: str | Path) -> Dataset:
        """Choose the reader by extension: .jsonl/.json-lines/.ndjson, .json, .csv, .parquet."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix in JSONL_SUFFIXES:
            return cls.from_jsonl(path)
        if suffix == ".json":
            return cls.from_json(path)
        if suffix == ".csv":
            return cls.from_csv(path)
        if suffix in PARQUET_SUFFIXES:
            return cls.from_parquet(path)
        raise BadFile(unknown_extension(path))

    @classmethod
    def from_sample_data(cls) -> Dataset:
        """The bundled 16-row example (see ``SAMPLE_DATA_PATH``)."""
        return cls.from_jsonl(SAMPLE_DATA_PATH)

    # --- savers -------------------------------------------------------------------------

    def to_records(self) -> list[dict[str, Any]]:
        """Canonical names; None fields (and empty metadata) left out."""
        return [s.to_record() for s in self.samples]

    def _columns(self, metadata_as_json: bool) -> dict[str, list[Any]]:
        cols: dict[str, list[Any]] = {name: [] for name in COLUMNS}
        for s in self.samples:
            cols["id"].append(s.id)
            for name in FIELDS:
                value = getattr(s, name)
                cols[name].append(list(value) if isinstance(value, list) else value)
            if metadata_as_json:
                cols["metadata"].append(_dumps(s.metadata) if s.metadata else None)
            else:
                cols["metadata"].append(dict(s.metadata))
        return cols

    def to_pandas(self) -> Any:
        """One column per canonical field, plus ``id`` and ``metadata`` (dicts)."""
        import pandas as pd

        cols = self._columns(metadata_as_json=False)
        return pd.DataFrame({name: pd.Series(v, dtype=object) for name, v in cols.items()})

    def to_arrow(self) -> Any:
        """A ``pyarrow.Table`` with a fixed schema (lists of strings; metadata as JSON text)."""
        import pyarrow as pa

        schema = pa.schema(
            [
                (name, pa.list_(pa.string()) if name in LIST_COLUMNS else pa.string())
                for name in COLUMNS
            ]
        )
        return pa.table(self._columns(metadata_as_json=True), schema=schema)

    def to_hf(self) -> Any:
        """A Hugging Face ``datasets.Dataset`` (metadata as a JSON text column)."""
        import datasets

        table = self.to_arrow()
        features = datasets.Features.from_arrow_schema(table.schema)
        return datasets.Dataset.from_dict(table.to_pydict(), features=features)

    def to_jsonl(self, path: str | Path) -> None:
        path = Path(path)
        with path.open("w", encoding="utf-8", newline="\n") as f:
            for record in self.to_records():
                f.write(_dumps(record) + "\n")

    def to_json(self, path: str | Path) -> None:
        """A JSON array of records."""
        Path(path).write_text(
            json.dumps(self.to_records(), ensure_ascii=False, indent=2, default=_json_default)
            + "\n",
            encoding="utf-8",
        )

    def to_csv(self, path: str | Path) -> None:
        """Lists and metadata JSON-encoded, so ``from_csv`` gives them back."""
        path = Path(path)
        cols = self._columns(metadata_as_json=True)
        with path.open("w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(COLUMNS)
            for i in range(len(self.samples)):
                cells = []
                for name in COLUMNS:
                    value = cols[name][i]
                    if value is None:
                        cells.append("")
                    elif isinstance(value, list):
                        cells.append(_dumps(value))
                    else:
                        cells.append(value)
                writer.writerow(cells)

    def to_parquet(self, path: str | Path) -> None:
        import pyarrow.parquet as pq

        pq.write_table(self.to_arrow(), Path(path))

    def save(self, path: str | Path) -> None:
        """Choose the writer by extension (same extensions as ``load``)."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix in JSONL_SUFFIXES:
            self.to_jsonl(path)
        elif suffix == ".json":
            self.to_json(path)
        elif suffix == ".csv":
            self.to_csv(path)
        elif suffix in PARQUET_SUFFIXES:
            self.to_parquet(path)
        else:
            raise BadFile(unknown_extension(path))


# --- row readers: (row, line, record) one at a time, so a file can also be streamed -------


def parse_items(
    items: Iterable[tuple[int, int | None, Any]], plain: bool
) -> Iterator[tuple[int, Sample | RowError]]:
    """Validate records one by one: ``(row, Sample)`` or ``(row, RowError)``."""
    for row, line, record in items:
        if isinstance(record, _Bad):
            yield row, RowError(row=row, field=None, message=record.message, line=line)
            continue
        try:
            if plain and isinstance(record, Mapping):
                record = {k: _plain(v) for k, v in record.items()}
            sample = Sample.model_validate(record)
        except InvalidInput as exc:
            yield row, RowError(
                row=row,
                field=getattr(exc, "field", None),
                message=getattr(exc, "detail", str(exc)),
                line=line,
            )
            continue
        except RecursionError:  # a value nested past Python's limit (a list of dicts, a frame)
            yield row, RowError(row=row, field=None, message=TOO_DEEP, line=line)
            continue
        if too_deep(sample.metadata):  # the only field that holds nested values
            yield row, RowError(row=row, field="metadata", message=TOO_DEEP, line=line)
            continue
        yield row, sample


def _invalid_utf8(path: Path, texts: Iterable[str]) -> _Bad | None:
    """A row error when ``texts`` (decoded with ``surrogateescape``) held bytes that are not
    UTF-8: one bad line is that row's error, not the end of the whole file."""
    for text in texts:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            byte = ord(text[exc.start]) - 0xDC00
            return _Bad(f"invalid UTF-8 in {path.name}: byte 0x{byte:02x} at character {exc.start + 1} of the text")
    return None


def jsonl_items(path: Path) -> Iterator[tuple[int, int | None, Any]]:
    row = 0
    with path.open(encoding="utf-8-sig", errors="surrogateescape") as f:
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            if (bad := _invalid_utf8(path, [line])) is not None:
                yield row, line_no, bad
                row += 1
                continue
            try:
                record: Any = json.loads(line)
            except ValueError as exc:
                record = _Bad(f"invalid JSON: {exc}")
            except RecursionError:  # not a ValueError: it used to end the whole run
                record = _Bad(f"invalid JSON in {path.name}: {TOO_DEEP}")
            else:
                if not isinstance(record, dict):
                    record = _Bad(f"expected a JSON object, got {type_name(record)}")
            yield row, line_no, record
            row += 1


def csv_items(path: Path) -> Iterator[tuple[int, int | None, Any]]:
    _raise_csv_field_limit()
    with path.open(encoding="utf-8-sig", errors="surrogateescape", newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            return
        header = [h.strip() for h in header]
        row = 0
        while True:
            first_line = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                yield row, first_line, _Bad(f"unreadable CSV row: {exc}")
                row += 1
                continue
            if not any(c.strip() for c in cells):
                continue  # blank line
            if (bad := _invalid_utf8(path, cells)) is not None:
                record: Any = bad
            elif len(cells) > len(header):
                record = _Bad(f"expected at most {len(header)} cells (the header), got {len(cells)}")
            else:
                record = {h: c for h, c in zip(header, cells, strict=False) if c != ""}
            yield row, first_line, record
            row += 1


PARQUET_BATCH_ROWS = 1024
"""Rows read from a Parquet file at a time: memory stays flat whatever the file's size."""


def parquet_items(path: Path) -> Iterator[tuple[int, int | None, Any]]:
    import pyarrow.parquet as pq

    row = 0
    with pq.ParquetFile(path) as f:
        for batch in f.iter_batches(batch_size=PARQUET_BATCH_ROWS):
            for record in batch.to_pylist():
                yield row, None, record
                row += 1


def empty_message(source: str | Path | None) -> str | None:
    """Why a file gave no rows at all, in words ("data.jsonl is empty"), or None when it is not
    a file or holds something. For a run with nothing to score: "0 samples" alone leaves the
    user to guess whether the file, the format or ragmeter is at fault."""
    if source is None:
        return None
    path = Path(source)
    try:
        if not path.is_file():
            return None
        if path.stat().st_size == 0:
            return f"{path} is empty (0 bytes)"
        suffix = path.suffix.lower()
        if suffix in PARQUET_SUFFIXES:
            import pyarrow.parquet as pq

            rows = pq.ParquetFile(path).metadata.num_rows
            return f"{path} has no rows" if rows == 0 else None
        lines: list[str] = []
        with path.open(encoding="utf-8-sig", errors="replace") as f:
            for line in f:  # two non-blank lines settle it; a big file is not read through
                if line.strip():
                    lines.append(line.strip())
                    if len(lines) == 2:
                        break
    except OSError:
        return None
    if not lines:
        return f"{path} is empty (only blank lines)"
    if suffix == ".csv" and len(lines) == 1:
        return f"{path} has a header row but no rows"
    if suffix == ".json" and "".join(lines) in ("[]", "{}"):
        return f"{path} is an empty JSON array"
    return None


def unknown_extension(path: Path) -> str:
    return (
        f"cannot tell the format of {str(path)!r} from its extension {path.suffix!r}; "
        f"use one of {', '.join(KNOWN_SUFFIXES)}"
    )


def _raise_csv_field_limit() -> None:
    # Retrieved chunks easily exceed the csv module's default 128 KiB per cell.
    limit = sys.maxsize
    while True:
        try:
            if csv.field_size_limit() >= limit:
                return
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 2
