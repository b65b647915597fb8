"""The Parquet form of a result: one row per sample, the run's info in the file's metadata.

Columns: ``row``, ``id``, the sample's fields (lists of strings as lists, ``metadata`` as
JSON text), ``conversation`` (a conversation's own record as JSON text: its messages and
references; null for a single-turn sample), then for each metric ``<m>`` (float, null when the score failed),
``<m>_reason``, ``<m>_error`` (JSON of the typed error, null when scored) and
``<m>_verdicts`` (JSON). The key ``ragmeter`` of the schema metadata holds ``info``,
``usage`` and ``input_errors`` as JSON, written when the run finishes. Reading it back gives
the same ``EvaluationResult`` as the JSON form.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragmeter.data import FIELDS, RowError, Sample
from ragmeter.data.dataset import LIST_COLUMNS
from ragmeter.errors import BadFile, ErrorInfo
from ragmeter.metrics.score import MetricScore

META_KEY = b"ragmeter"


def parquet_schema(metrics: list[str]) -> Any:
    import pyarrow as pa

    fields = [("row", pa.int64()), ("id", pa.string())]
    fields += [(name, pa.list_(pa.string()) if name in LIST_COLUMNS else pa.string()) for name in FIELDS]
    fields.append(("metadata", pa.string()))
    fields.append(("conversation", pa.string()))
    for m in metrics:
        fields += [(m, pa.float64()), (f"{m}_reason", pa.string()), (f"{m}_error", pa.string()),
                   (f"{m}_verdicts", pa.string())]
    return pa.schema(fields)


def sample_columns(metrics: list[str]) -> dict[str, list[Any]]:
    return {name: [] for name in parquet_schema(metrics).names}


def append_sample(columns: dict[str, list[Any]], sample: Any, metrics: list[str]) -> None:
    """Add one ``SampleResult`` to column lists."""
    s: Sample = sample.sample
    columns["row"].append(sample.row)
    columns["id"].append(sample.id)
    for name in FIELDS:
        value = getattr(s, name)
        columns[name].append([str(v) for v in value] if isinstance(value, list) else value)
    columns["metadata"].append(json.dumps(s.metadata, ensure_ascii=False, default=str) if s.metadata else None)
    columns["conversation"].append(json.dumps(s.to_record(), ensure_ascii=False, default=str)
                                   if getattr(s, "messages", None) else None)
    for m in metrics:
        score: MetricScore | None = sample.scores.get(m)
        columns[m].append(score.value if score else None)
        columns[f"{m}_reason"].append(score.reason if score else None)
        columns[f"{m}_error"].append(score.error.model_dump_json() if score and score.error else None)
        columns[f"{m}_verdicts"].append(
            json.dumps(score.verdicts, ensure_ascii=False, default=str) if score and score.verdicts is not None else None
        )


def read_parquet_result(path: Path) -> dict[str, Any]:
    """The result as the plain mapping its JSON form holds (``info``, ``samples``,
    ``input_errors``, ``usage``), for ``EvaluationResult.model_validate``: this module sits
    below the result model, so it hands back data rather than building the model."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as f:
        meta = (f.schema_arrow.metadata or {}).get(META_KEY)
        if meta is None:
            meta = (f.metadata.metadata or {}).get(META_KEY)
        if meta is None:
            raise BadFile(f"{path} is not a ragmeter result (no '{META_KEY.decode()}' metadata)")
        head = json.loads(meta)
        metrics = list(head["info"].get("metrics", []))
        samples = []
        for batch in f.iter_batches(batch_size=4096):
            for rec in batch.to_pylist():
                fields = {name: rec.get(name) for name in FIELDS if rec.get(name) is not None}
                if rec.get("metadata"):
                    fields["metadata"] = json.loads(rec["metadata"])
                if rec.get("id") is not None:
                    fields["id"] = rec["id"]
                scores = {}
                for m in metrics:
                    error = rec.get(f"{m}_error")
                    if rec.get(m) is None and error is None:
                        continue  # this metric was not asked of this sample
                    verdicts = rec.get(f"{m}_verdicts")
                    scores[m] = MetricScore(
                        value=rec.get(m),
                        reason=rec.get(f"{m}_reason") or "",
                        verdicts=json.loads(verdicts) if verdicts is not None else None,
                        error=ErrorInfo.model_validate_json(error) if error else None,
                    )
                samples.append({"row": rec["row"], "id": rec.get("id"), # a conversation loads back whole from its own record (SampleResult reads it)
                                "sample": json.loads(rec["conversation"]) if rec.get("conversation") else Sample.model_validate(fields),
                                "scores": scores})
    return {
        "info": head["info"],
        "samples": samples,
        "input_errors": [RowError.model_validate(e) for e in head.get("input_errors", [])],
        "usage": head.get("usage", {}),
    }
