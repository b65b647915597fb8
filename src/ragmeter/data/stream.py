"""Samples read one at a time, so a run over millions of rows holds a few of them at once.

``stream_samples(source)`` accepts what ``evaluate`` accepts. JSONL, CSV and Parquet files
are read lazily (Parquet in batches of ``PARQUET_BATCH_ROWS``); a ``.json`` array has to be
parsed whole, and in-memory inputs (a ``Dataset``, a DataFrame, a Hugging Face dataset, a
list) are walked where they are. The stream can be iterated more than once (each pass
re-opens the file): the engine reads once to fingerprint the run, then to score it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ragmeter.data.dataset import (
    JSONL_SUFFIXES,
    PARQUET_SUFFIXES,
    Dataset,
    RowError,
    unknown_extension,
    csv_items,
    jsonl_items,
    parquet_items,
    parse_items,
)
from ragmeter.data.sample import Sample
from ragmeter.errors import BadFile, InvalidOptionType

Row = tuple[int, Sample | RowError]


class SampleStream:
    """An iterable of ``(row, Sample)`` and ``(row, RowError)`` in source order."""

    def __init__(self, rows: Callable[[], Iterable[Row]], source: str | None, *, lazy: bool) -> None:
        self._rows = rows
        self.source = source
        self.lazy = lazy
        """True when the source is read as it is iterated (not held in memory)."""

    def __iter__(self) -> Iterator[Row]:
        return iter(self._rows())

    def __repr__(self) -> str:
        return f"SampleStream(source={self.source!r}, lazy={self.lazy})"


def _from_dataset(dataset: Dataset) -> SampleStream:
    def rows() -> Iterator[Row]:
        yield from zip(dataset.rows, dataset.samples)
        for error in dataset.errors:
            yield error.row, error

    return SampleStream(rows, dataset.source, lazy=False)


def stream_samples(data: Any) -> SampleStream:
    """A stream over a path (JSONL, CSV, Parquet lazily; JSON whole), a ``Dataset``, a pandas
    DataFrame, a Hugging Face dataset or a list of records."""
    if isinstance(data, SampleStream):
        return data
    if isinstance(data, Dataset):
        return _from_dataset(data)
    if isinstance(data, (str, Path)):
        path = Path(data)
        suffix = path.suffix.lower()
        readers = {**{s: (jsonl_items, False) for s in JSONL_SUFFIXES}, ".csv": (csv_items, False),
                   **{s: (parquet_items, True) for s in PARQUET_SUFFIXES}}
        if suffix in readers:
            if not path.is_file():
                raise FileNotFoundError(f"no such file: {path}")
            reader, plain = readers[suffix]
            return SampleStream(lambda: parse_items(reader(path), plain), str(path), lazy=True)
        if suffix == ".json":
            return _from_dataset(Dataset.from_json(path))
        raise BadFile(unknown_extension(path))
    return _from_dataset(as_dataset(data))


def as_dataset(data: Any) -> Dataset:
    """Accept a Dataset, a path, a pandas DataFrame, a Hugging Face dataset or a list of dicts."""
    if isinstance(data, Dataset):
        return data
    if isinstance(data, SampleStream):
        return _dataset_from_stream(data)
    if isinstance(data, (str, Path)):
        return Dataset.load(data)
    if isinstance(data, list):
        return Dataset.from_records(data)
    module = type(data).__module__
    if module.startswith("pandas"):
        return Dataset.from_pandas(data)
    if module.startswith("datasets"):
        return Dataset.from_hf(data)
    raise InvalidOptionType(f"cannot evaluate a {type(data).__name__}; pass a Dataset, a path, a DataFrame or records")


def _dataset_from_stream(stream: SampleStream) -> Dataset:
    samples, rows, errors = [], [], []
    for row, item in stream:
        if isinstance(item, RowError):
            errors.append(item)
        else:
            samples.append(item)
            rows.append(row)
    return Dataset(samples, rows, errors, stream.source)
