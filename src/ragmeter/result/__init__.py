"""The result of a run: per-sample scores with reasons, verdicts and typed errors, plus usage.

It is plain data (pydantic), so it saves to JSON and loads back whole; the report, the gate
and the Hub all read this file format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, SerializeAsAny, field_validator

from ragmeter.calls.redact import mask_secrets
from ragmeter.calls.usage import Usage
from ragmeter.conversations import ConversationSample
from ragmeter.data import RowError, Sample
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.summary import summary_score
from ragmeter.result.failures import ErrorRow
from ragmeter.result.totals import MetricSummary, Totals
from ragmeter.errors import InvalidOptionType


class SampleResult(BaseModel):
    row: int
    id: str | None = None
    sample: SerializeAsAny[Sample]  # a conversation is saved with its messages
    scores: dict[str, MetricScore] = Field(default_factory=dict)

    @field_validator("sample", mode="before")
    @classmethod
    def _conversation(cls, value: Any) -> Any:
        """A saved conversation (it has messages) loads back as one, not as a bare sample."""
        if isinstance(value, dict) and "messages" in value:
            return ConversationSample.model_validate(value)
        return value


class RunInfo(BaseModel):
    run_id: str  # the identity of the run's inputs (data, metrics, judge, prompts): the journal's key
    ragmeter_version: str
    metrics: dict[str, dict[str, Any]]
    judge: str | None = None
    embedder: str | None = None
    source: str | None = None
    journal: str | None = None
    started: float
    finished: float | None = None
    resumed_scores: int = 0
    summary_metrics: list[str] = Field(default_factory=list)  # non-binary, higher is better
    lower_is_better: list[str] = Field(default_factory=list)  # metrics where a rise is worse (noise sensitivity)
    language: str | None = None
    recorded_as: str | None = None  # the run's id in the run store, when it was recorded

    @property
    def display_id(self) -> str:
        """The one id to show a user for this run: the run store's when it was recorded (the
        id ``ragmeter runs show/compare/export`` take), else the identity ``run_id``. Showing
        both made one run look like two, and the one printed first was not the one to type."""
        return self.recorded_as or self.run_id

    @field_validator("judge", "embedder", "source", "journal")
    @classmethod
    def _no_credentials(cls, value: str | None) -> str | None:
        # Every copy of a run's info (the --out file, the journal, the report, the run store,
        # an export, the Hub) is made from this model: masked here, masked in all of them,
        # whoever built it (a custom judge's name, an older result file loaded back).
        return mask_secrets(value) if value else value


class Streamed(BaseModel):
    """Where a streamed run wrote its samples, the totals kept while it did, and its first
    failed scores in row order (``FAILURES_KEPT`` at most; all of them are in the file)."""

    path: str
    samples: int
    summary: dict[str, MetricSummary]
    failures: list[ErrorRow] = Field(default_factory=list)


class EvaluationResult(BaseModel):
    """A run's scores. A streamed run (``evaluate(..., out=PATH)``) writes its samples to
    ``PATH`` as they finish and, unless asked to keep them, returns them empty with
    ``streamed`` set: ``summary()`` and ``summary_score()`` still hold, and
    ``EvaluationResult.load(PATH)`` gives the whole result back."""

    info: RunInfo
    samples: list[SampleResult]
    input_errors: list[RowError] = Field(default_factory=list)
    usage: dict[str, Usage] = Field(default_factory=dict)
    streamed: Streamed | None = Field(None, exclude=True)  # about this object, not part of the file format

    @property
    def metric_names(self) -> list[str]:
        return list(self.info.metrics)

    def with_samples(self) -> "EvaluationResult":
        """This result with its samples: itself, or for a streamed run that did not keep
        them, the result read back from its file."""
        if self.streamed is not None and not self.samples and self.streamed.samples:
            return EvaluationResult.load(self.streamed.path)
        return self

    @property
    def sample_count(self) -> int:
        """Samples scored, whether kept here or only written to a file."""
        if self.streamed is not None and not self.samples:
            return self.streamed.samples
        return len(self.samples)

    def scores(self, metric: str) -> list[float | None]:
        return [s.scores[metric].value if metric in s.scores else None for s in self.samples]

    def __getitem__(self, metric: str) -> list[float | None]:
        """``result["faithfulness"]``: the per-sample scores in row order, ``None`` where a
        score failed (its error is in ``errors()``), as Ragas' result gives them."""
        if not isinstance(metric, str):
            raise InvalidOptionType(f"index a result by metric name (one of {self.metric_names}), not {type(metric).__name__}")
        if metric not in self.info.metrics:
            raise KeyError(f"{metric!r} is not a metric of this run; it has {self.metric_names}")
        return self.with_samples().scores(metric)

    def means(self) -> dict[str, float | None]:
        """``{metric: mean}`` as plain floats (``None`` for a metric with no score), ready for
        ``json.dumps``, a logger or an assertion; ``summary()`` has the counts beside them."""
        return {name: s.mean for name, s in self.summary().items()}

    def __repr__(self) -> str:
        """One short line, like Ragas': ``{'faithfulness': 0.8312, 'answer_similarity': 0.71}``.
        The samples are in ``to_pandas()``; printing them all here would bury the numbers."""
        return repr({name: (None if mean is None else round(mean, 4)) for name, mean in self.means().items()})

    __str__ = __repr__

    def summary(self) -> dict[str, MetricSummary]:
        """Per metric: mean of the computed scores, how many were scored, how many failed (by kind)."""
        if self.streamed is not None and not self.samples:
            return dict(self.streamed.summary)
        totals = Totals(self.metric_names)
        for sample in self.samples:
            totals.add(sample)
        return totals.summary()

    def summary_score(self) -> float | None:
        """Harmonic mean of the mean scores of the run's non-binary, higher-is-better metrics
        (see ``ragmeter.metrics.summary``); None when none of them has a score."""
        means = self.summary()
        return summary_score({n: means[n].mean for n in self.info.summary_metrics if n in means})

    def errors(self) -> list[ErrorRow]:
        """Every input error and every failed score, in row order. A streamed run that did
        not keep its samples has only its input errors here: its first failed scores are in
        ``streamed.failures``, and ``with_samples().errors()`` reads them all from its file."""
        rows = [
            ErrorRow(
                row=e.row,
                kind="InvalidInput",
                message=(f"line {e.line}, " if e.line is not None else "")
                + (f"field {e.field!r}: " if e.field else "")
                + e.message,
            )
            for e in self.input_errors
        ]
        for sample in self.samples:
            for name, score in sample.scores.items():
                if score.error is not None:
                    rows.append(
                        ErrorRow(row=sample.row, id=sample.id, metric=name, kind=score.error.kind, message=score.error.message)
                    )
        return sorted(rows, key=ErrorRow.order)

    @property
    def total_usage(self) -> Usage:
        total = Usage()
        for usage in self.usage.values():
            total = total.merged(usage)
        return total

    def to_pandas(self) -> Any:
        """One row per sample: inputs, then ``<metric>`` and ``<metric>_reason`` columns.

        Failed scores are ``None`` (shown by pandas as NaN in float columns) with the error in
        ``<metric>_error``, so a NaN in the frame always has its reason beside it.
        """
        import pandas as pd

        records = []
        for sample in self.samples:
            record: dict[str, Any] = {"row": sample.row, "id": sample.id}
            record.update(sample.sample.model_dump(exclude={"metadata", "id"}))
            for name in self.metric_names:
                score = sample.scores.get(name)
                record[name] = score.value if score else None
                record[f"{name}_reason"] = score.reason if score else None
                record[f"{name}_error"] = str(score.error) if score and score.error else None
            records.append(record)
        return pd.DataFrame.from_records(records)

    def turns_to_pandas(self) -> Any:
        """One row per turn of each conversation for the metrics scored per turn: the
        conversation's row and id, the metric, the turn, its question and answer, its score,
        reason and error (``to_pandas`` has the conversations' means)."""
        from ragmeter.result.turns import turns_frame

        return turns_frame(self)

    def save(self, path: str | Path) -> Path:
        """JSON (``.json``) or Parquet (``.parquet``: one row per sample, run info in the
        file's metadata); written atomically."""
        from ragmeter.result.writers import open_writer

        whole = self.with_samples()
        with open_writer(path, self.metric_names) as writer:
            for sample in whole.samples:
                writer.add(sample)
            writer.finish(whole.info, whole.usage, whole.input_errors)
        return Path(path)

    @classmethod
    def load(cls, path: str | Path) -> "EvaluationResult":
        """Read a result written by ``save`` or by a streamed run (JSON or Parquet);
        samples come back in row order."""
        path = Path(path)
        if path.suffix.lower() in (".parquet", ".pq"):
            from ragmeter.result.parquet import read_parquet_result

            result = cls.model_validate(read_parquet_result(path))
        else:
            result = cls.model_validate(json.loads(path.read_text(encoding="utf-8")))
        result.samples.sort(key=lambda s: s.row)
        return result
