"""What one metric says about one sample: a value in [0, 1] or a typed error, never NaN."""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, model_validator

from ragmeter.errors import ErrorInfo, InvalidScore, RagmeterError, error_info


class MetricScore(BaseModel):
    """``value`` is None exactly when ``error`` says why. ``verdicts`` are the intermediate
    judgements that produced the value (JSON-able), so a person can check the score."""

    value: float | None
    reason: str = ""
    verdicts: Any = None
    error: ErrorInfo | None = None

    @model_validator(mode="after")
    def _no_silent_nan(self) -> "MetricScore":
        if self.value is None:
            if self.error is None:
                # internal: a pydantic validator; pydantic raises it as a ValidationError
                raise ValueError("a score without a value must carry an error saying why")
        elif not math.isfinite(self.value) or not 0.0 <= self.value <= 1.0:
            # internal: a pydantic validator; pydantic raises it as a ValidationError
            raise ValueError(f"score {self.value!r} is not a number in [0, 1]")
        return self

    @classmethod
    def ok(cls, value: float, reason: str, verdicts: Any = None) -> "MetricScore":
        """A computed score; a formula bug (NaN, out of range) becomes an ``InvalidScore`` error."""
        if value is None or not math.isfinite(value) or not -1e-9 <= value <= 1.0 + 1e-9:
            return cls.failed(InvalidScore(f"formula produced {value!r}; {reason}"), verdicts)
        return cls(value=min(1.0, max(0.0, float(value))), reason=reason, verdicts=verdicts)

    @classmethod
    def failed(cls, exc: BaseException, verdicts: Any = None) -> "MetricScore":
        info = error_info(exc)
        return cls(value=None, reason=info.message, verdicts=verdicts, error=info)

    @property
    def transient(self) -> bool:
        """Whether a resumed run computes this score again (see ``ErrorInfo.retry_on_resume``)."""
        return self.error is not None and self.error.retry_on_resume


__all__ = ["MetricScore", "RagmeterError"]
