"""The settings of a judge, as three typed groups composed into one object.

* ``LLMCallOptions`` (``ragmeter.calls.options``): how an LLM judge calls its model
  (timeout, attempts, concurrency, prices, structured mode, sampling, layout);
* ``LocalModelOptions``: the local judge's models (claim verifier, torch threads);
* ``CascadeOptions``: which local verdicts the cascade sends on to the LLM judge.

Every entry point that builds a judge (``evaluate``, ``estimate``, ``generate``, ``align``,
the CLI's shared option group, the Ray workers) passes the same ``JudgeOptions`` through, so
a setting is named, defaulted and checked once. A plain mapping is accepted where a user
gives options (``judge_options={"timeout": 30}`` or ``{"llm": {"timeout": 30}}``) and turned
into this object, unknown names refused. A setting that does not apply to the judge it is
given to is named in one warning line (``inapplicable``), never silently dropped.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping

from ragmeter.calls.options import LLMCallOptions, changed_fields, options_of
from ragmeter.errors import InvalidOption

SURE = 0.95
"""The share right the cascade asks of the local verdicts it keeps by default."""

DEFAULT_BAND = (round(1.0 - SURE, 6), SURE)
"""The cascade's default range of uncertain local probabilities, on calibrated probabilities:
a verdict outside it is one that development data says is right at least ``SURE`` of the
time. Used when ``band`` is None, and then every verdict without a calibration (sentence
relevance, chunk usefulness, the local critiques) counts as uncertain as well."""


@dataclass(frozen=True)
class LocalModelOptions:
    """``verifier``: "alignment", "lexical" or "nli:NAME_OR_PATH[?OPTION=VALUE&...]" (see
    ``judges.local.verifier_spec``); ``threads``: torch CPU threads of the local judge and
    embedder (None: torch's default)."""

    verifier: str = "alignment"
    threads: int | None = None


@dataclass(frozen=True)
class CascadeOptions:
    """``band``: the local probabilities counted as uncertain and sent to the LLM judge. None:
    calibrated probabilities inside ``DEFAULT_BAND`` and every verdict without a calibration;
    a (low, high) pair: every probability strictly inside it, calibrated or not."""

    band: tuple[float, float] | None = None


GROUPS = {"llm": LLMCallOptions, "local": LocalModelOptions, "cascade": CascadeOptions}
"""Each group's name in ``JudgeOptions`` and in a mapping of options."""


@dataclass(frozen=True)
class JudgeOptions:
    """How a judge calls its model(s): one group per kind of judge."""

    llm: LLMCallOptions = field(default_factory=LLMCallOptions)
    local: LocalModelOptions = field(default_factory=LocalModelOptions)
    cascade: CascadeOptions = field(default_factory=CascadeOptions)

    @classmethod
    def of(cls, value: "JudgeOptions | Mapping[str, Any] | None") -> "JudgeOptions":
        """``value`` as options: None gives the defaults; a mapping names groups (``llm``,
        ``local``, ``cascade``, each an option group or a mapping of its fields) or single
        fields by their own names (``{"timeout": 30, "verifier": "lexical"}``)."""
        if value is None:
            return cls()
        if isinstance(value, JudgeOptions):
            return value
        if not isinstance(value, Mapping):
            raise InvalidOption(f"judge options are JudgeOptions or a mapping, not {type(value).__name__}")
        owner = {f.name: group for group, kind in GROUPS.items() for f in fields(kind)}
        unknown = sorted(set(value) - set(owner) - set(GROUPS))
        if unknown:
            raise InvalidOption(f"unknown judge option(s) {unknown}; known: {sorted(owner)} "
                                f"(or the groups {sorted(GROUPS)})")
        parts: dict[str, dict[str, Any]] = {group: {} for group in GROUPS}
        for name, setting in value.items():
            if name not in GROUPS:
                parts[owner[name]][name] = setting
        groups = {}
        for group, kind in GROUPS.items():
            given = value.get(group)
            base = options_of(kind, given, f"{group} options")
            groups[group] = options_of(kind, {**asdict(base), **parts[group]}, f"{group} options") if parts[group] else base
        return cls(**groups)

    def inapplicable(self, judge: str) -> list[str]:
        """One line for each group of settings that ``judge`` (a spec string) does not use."""
        spec = judge.strip()
        uses_llm = spec != "local"
        uses_local = spec == "local" or spec.startswith("local+")
        lines = []
        if not uses_llm and (names := changed_fields(self.llm)):
            lines.append(f"{', '.join(names)} set, but the local judge makes no LLM calls: ignored by the judge"
                         + (" (a remote embedder's calls still use them)"
                            if set(names) & {"timeout", "max_attempts"} else ""))
        if not uses_local and (names := [n for n in changed_fields(self.local) if n != "threads"]):
            lines.append(f"{', '.join(names)} set, but judge {spec!r} has no local models: ignored")
        if not spec.startswith("local+") and changed_fields(self.cascade):
            lines.append(f"band set, but judge {spec!r} is not a cascade (local+LLM): ignored")
        return lines

    def as_dict(self) -> dict[str, Any]:
        """Plain values (for a Ray worker, which rebuilds the judge from them)."""
        return asdict(self)
