"""What the store gives back about a run: its row, and each metric's summary with an interval."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator

from ragmeter.calls.redact import mask_secrets


class MetricStats(BaseModel):
    """One metric over one run: the mean of the computed scores and its 95% interval.

    The interval is the normal approximation ``mean +- 1.96 * sd / sqrt(n)`` (clipped to
    [0, 1]), computed from running sums as the samples stream in, so it costs no memory at
    100,000 samples; ``None`` with fewer than two scores."""

    mean: float | None
    scored: int
    errors: int
    errors_by_kind: dict[str, int] = Field(default_factory=dict)
    ci_low: float | None = None
    ci_high: float | None = None


class RunSummary(BaseModel):
    """A recorded run as the list, the trend and the UI show it (samples not included)."""

    id: str  # the run's id: the one every command and page shows and takes (or a unique prefix of it)
    run_id: str = Field(exclude=True)  # the identity of its inputs, the journal's key: never shown
    status: str
    started: float
    finished: float | None = None
    dataset: str | None = None
    source: str | None = None
    git_commit: str | None = None
    git_branch: str | None = None
    judge: str | None = None
    embedder: str | None = None
    prompts: str | None = None
    metrics: list[str]
    tags: list[str]
    samples: int = 0
    summary: dict[str, MetricStats] | None = None
    summary_score: float | None = None
    cost: float | None = None

    @field_validator("judge", "embedder", "source")
    @classmethod
    def _no_credentials(cls, value: str | None) -> str | None:
        # the recorder masks before it writes; a store written by an older ragmeter may not
        # have, and what is read here goes to `ragmeter runs` and the UI
        return mask_secrets(value) if value else value

    @classmethod
    def from_row(cls, row: Any) -> "RunSummary":
        data = dict(row._mapping)
        for heavy in ("info", "usage", "input_errors"):
            data.pop(heavy, None)
        return cls.model_validate(data)

    @property
    def dataset_name(self) -> str:
        """The source file's name (without folders), or the fingerprint when there is none."""
        if self.source:
            return self.source.replace("\\", "/").rsplit("/", 1)[-1]
        return self.dataset or ""
