"""Result files written sample by sample, for runs too large to hold in memory.

``open_writer(path, metrics)`` picks the format by extension: ``.json`` (the
``EvaluationResult`` document, samples streamed into its array) or ``.parquet``. Both are
written to a temporary file beside the target and moved into place by ``finish``, so a
reader never sees half a result; a run that dies before ``finish`` leaves its journal (the
rerun resumes) and no result file. The temporary of a run that was killed (its process is
gone) is removed when the next run of the same output starts and again when it ends; a
temporary whose process still runs (a concurrent run) is left alone.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from ragmeter.data import RowError
from ragmeter.result.parquet import META_KEY, append_sample, parquet_schema, sample_columns
from ragmeter.errors import BadFile

PARQUET_ROW_GROUP = 1024


class ResultWriter:
    """``add(sample_result)`` as samples finish, then ``finish(info, usage, input_errors)``."""

    def __init__(self, path: str | Path, metrics: list[str]) -> None:
        self.path = Path(path)
        self.metrics = list(metrics)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        remove_stale_temporaries(self.path)
        self.count = 0
        self.finished = False

    def add(self, sample: Any) -> None:
        raise NotImplementedError

    def finish(self, info: Any, usage: dict[str, Any], input_errors: Iterable[RowError]) -> Path:
        raise NotImplementedError

    def abort(self) -> None:
        self.tmp.unlink(missing_ok=True)

    def __enter__(self) -> "ResultWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self.finished:
            self.abort()


class JsonResultWriter(ResultWriter):
    def __init__(self, path: str | Path, metrics: list[str]) -> None:
        super().__init__(path, metrics)
        self._file = self.tmp.open("w", encoding="utf-8")
        self._file.write('{"samples": [')

    def add(self, sample: Any) -> None:
        self._file.write(("\n" if self.count == 0 else ",\n") + sample.model_dump_json())
        self.count += 1

    def finish(self, info: Any, usage: dict[str, Any], input_errors: Iterable[RowError]) -> Path:
        errors = [e.model_dump(mode="json") for e in input_errors]
        self._file.write("\n],\n")
        self._file.write('"input_errors": ' + json.dumps(errors, ensure_ascii=False) + ",\n")
        self._file.write('"usage": {' + ", ".join(f"{json.dumps(k)}: {u.model_dump_json()}" for k, u in usage.items()) + "},\n")
        self._file.write('"info": ' + info.model_dump_json() + "\n}\n")
        self._file.close()
        self.tmp.replace(self.path)
        self.finished = True
        remove_stale_temporaries(self.path)
        return self.path

    def abort(self) -> None:
        if not self._file.closed:
            self._file.close()
        super().abort()


class ParquetResultWriter(ResultWriter):
    def __init__(self, path: str | Path, metrics: list[str]) -> None:
        import pyarrow.parquet as pq

        super().__init__(path, metrics)
        self.schema = parquet_schema(self.metrics)
        self._writer = pq.ParquetWriter(self.tmp, self.schema)
        self._columns = sample_columns(self.metrics)

    def add(self, sample: Any) -> None:
        append_sample(self._columns, sample, self.metrics)
        self.count += 1
        if len(self._columns["row"]) >= PARQUET_ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self._columns["row"]:
            self._writer.write_table(pa.table(self._columns, schema=self.schema))
            self._columns = sample_columns(self.metrics)

    def finish(self, info: Any, usage: dict[str, Any], input_errors: Iterable[RowError]) -> Path:
        self._flush()
        head = {
            "info": info.model_dump(mode="json"),
            "usage": {k: u.model_dump(mode="json") for k, u in usage.items()},
            "input_errors": [e.model_dump(mode="json") for e in input_errors],
        }
        self._writer.add_key_value_metadata({META_KEY: json.dumps(head, ensure_ascii=False).encode("utf-8")})
        self._writer.close()
        self.tmp.replace(self.path)
        self.finished = True
        remove_stale_temporaries(self.path)
        return self.path

    def abort(self) -> None:
        try:
            self._writer.close()
        except Exception:  # noqa: BLE001 (closing a half-written file on the way out)
            pass
        super().abort()


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove ``.NAME.PID.tmp`` beside ``path`` whose process no longer exists; returns them."""
    removed = []
    for candidate in path.parent.glob(f".{path.name}.*.tmp"):
        pid = candidate.name[len(path.name) + 2 : -len(".tmp")]
        if pid.isdigit() and int(pid) != os.getpid() and not _running(int(pid)):
            candidate.unlink(missing_ok=True)
            removed.append(candidate)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    except OSError:
        return False
    return True


def result_format(path: str | Path) -> type[ResultWriter]:
    """The writer for ``path``'s extension; a ``ValueError`` for any other extension."""
    suffix = Path(path).suffix.lower()
    if suffix in (".parquet", ".pq"):
        return ParquetResultWriter
    if suffix == ".json":
        return JsonResultWriter
    raise BadFile(f"a result file is .json or .parquet, not {str(path)!r}")


def open_writer(path: str | Path, metrics: list[str]) -> ResultWriter:
    return result_format(path)(path, metrics)
