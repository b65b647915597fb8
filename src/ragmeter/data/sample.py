"""One evaluation record: what was asked, what came back, what was retrieved, what is true.

Why the validation is strict and lives here: a metric that receives ``42`` as an answer or
a bare string as a list of chunks does not fail, it quietly scores nonsense (a string
iterated as chunks gives one "chunk" per character). So a value of the wrong type is
rejected where the data enters, with the field named, instead of being coerced into
something that only looks right. Absence is a different matter: which fields are required
depends on the metric, so a missing field is accepted here and reported per metric (see
``Sample.missing``).

Why aliases: datasets already exist under Ragas v0.1 / v0.2 column names, and a user should
not have to rename columns to try ragmeter. Aliases are resolved once, on input; everything
downstream sees only the canonical names. When a record carries both a canonical name and
an alias with different values, neither is silently preferred.

Why unknown columns go into ``metadata``: no user data is dropped on the way through a load
and a save, and labels, latencies or other annotations stay next to their sample.

Why ids of chunks are strings: ``retrieved_context_ids`` and ``reference_context_ids`` (the ids
of the retrieved chunks and of the chunks that should have been retrieved, for the ID-based
context metrics) are often integers in users' data and strings in others'. Both are
accepted and stored as strings (``7`` becomes ``"7"``) so the two lists compare by value
whatever their source; a float, a bool or anything else is rejected with the field named.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ragmeter.data.nesting import TOO_DEEP
from ragmeter.errors import InvalidInput, InvalidOption

TEXT_FIELDS: tuple[str, ...] = ("question", "answer", "ground_truth")
LIST_FIELDS: tuple[str, ...] = ("contexts", "reference_contexts")
ID_LIST_FIELDS: tuple[str, ...] = ("retrieved_context_ids", "reference_context_ids")
"""Lists of chunk ids: strings or integers on input, stored as strings."""

FIELDS: tuple[str, ...] = (
    "question",
    "answer",
    "contexts",
    "ground_truth",
    "reference_contexts",
    *ID_LIST_FIELDS,
)
"""The canonical input fields, in the order they are validated and written."""

_FINGERPRINT_IF_SET = frozenset(ID_LIST_FIELDS)
"""Fields added after the fingerprint was defined: left out of it when absent, so the
fingerprint of a sample without them (and the journals keyed by it) does not change."""

ALIASES: dict[str, str] = {
    "user_input": "question",
    "response": "answer",
    "retrieved_contexts": "contexts",
    "reference": "ground_truth",
    "ground_truths": "ground_truth",
}
"""Accepted input names -> canonical name (Ragas v0.2 names and the old ``ground_truths``)."""

_RESERVED = frozenset(FIELDS) | frozenset(ALIASES) | {"id", "metadata"}


def field_error(field: str | None, message: str) -> InvalidInput:
    """An ``InvalidInput`` that remembers which field was wrong, for row-level reports."""
    text = f"field {field!r}: {message}" if field else message
    exc = InvalidInput(text)
    exc.field = field  # type: ignore[attr-defined]
    exc.detail = message  # type: ignore[attr-defined]
    return exc


def type_name(value: Any) -> str:
    return type(value).__name__


def is_missing(value: Any) -> bool:
    """None, or a NaN / NA scalar (how pandas, Arrow and CSV readers spell "no value")."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    name = type(value).__name__
    if name in {"NAType", "NaTType"}:
        return True
    if name.startswith("float") and hasattr(value, "dtype"):  # numpy floating scalar
        try:
            return bool(math.isnan(value))
        except TypeError:
            return False
    return False


def _text(field: str, value: Any) -> str | None:
    if is_missing(value):
        return None
    if isinstance(value, str):
        return str(value)
    raise field_error(field, f"expected a string, got {type_name(value)}")


def _list_of_text(field: str, value: Any) -> list[str] | None:
    if is_missing(value):
        return None
    if isinstance(value, str):
        if not value.strip():
            return None  # an empty cell
        if value.lstrip().startswith("["):
            parsed = list_cell(value)
            if parsed is None:
                raise field_error(
                    field, f"expected a list of strings, got str ({NOT_A_LIST})"
                ) from None
            return _items(field, parsed, "a list")
        raise field_error(field, "expected a list of strings, got str")
    if isinstance(value, (list, tuple)) or (
        hasattr(value, "tolist") and getattr(value, "ndim", 0) == 1
    ):
        return _items(field, list(value.tolist() if hasattr(value, "tolist") else value), "a list")
    raise field_error(field, f"expected a list of strings, got {type_name(value)}")


NOT_A_LIST = "not a valid JSON list, nor a Python list of literals"


def list_cell(text: str) -> list[Any] | None:
    """The list a CSV cell spells, or None if it spells none.

    Two spellings are read: JSON (``["a", "b"]``, what ragmeter writes) and Python's repr
    (``['a', 'b']``), which is what ``pandas.DataFrame.to_csv`` writes for a list column, so
    every CSV saved by pandas or by Ragas has it. The repr is read with ``ast.literal_eval``:
    literals only (strings, numbers, lists, tuples), never a name or a call, so a cell cannot
    run code. Only a list counts: a cell spelling a tuple or a dict is not a list column.
    """
    try:
        parsed = json.loads(text)
    except RecursionError:  # nested past Python's limit: no list of strings
        return None
    except ValueError:
        try:
            parsed = ast.literal_eval(text.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return parsed if isinstance(parsed, list) else None


def _id_item(value: Any) -> str | None:
    """A chunk id as a string: a str as is, an integer (Python or numpy) in decimal; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int) or (
        type(value).__name__.startswith(("int", "uint")) and hasattr(value, "dtype")
    ):
        return str(int(value))
    return None


def _list_of_ids(field: str, value: Any) -> list[str] | None:
    """A list of chunk ids (strings or integers), stored as strings.

    Like the text lists: a missing value is None, a CSV cell may hold a JSON list, a bare
    string is rejected (one id is still a list of one). Floats are rejected too, even
    ``7.0``: an id that went through a float may have lost digits.
    """
    expected = "a list of strings or integers"
    if is_missing(value):
        return None
    if isinstance(value, str):
        if not value.strip():
            return None  # an empty cell
        if value.lstrip().startswith("["):
            parsed = list_cell(value)
            if parsed is None:
                raise field_error(field, f"expected {expected}, got str ({NOT_A_LIST})")
            value = parsed
            what = "a list"
        else:
            raise field_error(field, f"expected {expected}, got str")
    elif isinstance(value, (list, tuple)) or (
        hasattr(value, "tolist") and getattr(value, "ndim", 0) == 1
    ):
        value = list(value.tolist() if hasattr(value, "tolist") else value)
        what = "a list"
    else:
        raise field_error(field, f"expected {expected}, got {type_name(value)}")
    out: list[str] = []
    for i, item in enumerate(value):
        text = _id_item(item)
        if text is None:
            raise field_error(
                field, f"expected {expected}, got {what} with {type_name(item)} at index {i}"
            )
        out.append(text)
    return out


def _items(field: str, items: list[Any], what: str) -> list[str]:
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise field_error(
                field,
                f"expected a list of strings, got {what} with {type_name(item)} at index {i}",
            )
    return [str(item) for item in items]


def _ground_truths(value: Any) -> str | None:
    """Old Ragas ``ground_truths``: a list of reference answers, folded into one text."""
    if is_missing(value):
        return None
    if isinstance(value, str) and not value.lstrip().startswith("["):
        return str(value)
    items = _list_of_text("ground_truths", value)
    if not items:
        return None
    if len(items) == 1:
        return items[0]
    return " ".join(s.strip() for s in items if s.strip())


def _metadata(value: Any) -> dict[str, Any]:
    if is_missing(value):
        return {}
    if isinstance(value, str):
        if not value.strip():
            return {}
        try:
            value = json.loads(value)
        except ValueError:
            raise field_error(
                "metadata", "expected a dict, got str (not a valid JSON object)"
            ) from None
        except RecursionError:
            raise field_error("metadata", f"a JSON object {TOO_DEEP}") from None
        if not isinstance(value, dict):
            raise field_error(
                "metadata", f"expected a dict, got a JSON string holding {type_name(value)}"
            )
    if not isinstance(value, Mapping):
        raise field_error("metadata", f"expected a dict, got {type_name(value)}")
    out: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise field_error("metadata", f"expected string keys, got a {type_name(key)} key")
        out[key] = item
    return out


def _id(value: Any) -> str | None:
    if is_missing(value):
        return None
    if isinstance(value, bool):
        raise field_error("id", "expected a string or an integer, got bool")
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int) or (
        type(value).__name__.startswith(("int", "uint")) and hasattr(value, "dtype")
    ):
        return str(int(value))
    if isinstance(value, float) and value.is_integer():
        # pandas turns an integer column with a gap into floats: 7 arrives as 7.0
        return str(int(value))
    raise field_error("id", f"expected a string or an integer, got {type_name(value)}")


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # e.g. arrays, whose == is element-wise
        return False


def normalize_record(record: Any) -> dict[str, Any]:
    """Resolve aliases, check types, move unknown keys into metadata.

    Returns a dict with exactly the canonical keys plus ``id`` and ``metadata``. Raises
    ``InvalidInput`` (with ``.field``) on the first offending field, in canonical order.
    """
    if isinstance(record, Sample):
        return record.model_dump()
    if not isinstance(record, Mapping):
        raise field_error(
            None, f"expected a record (a mapping of field names to values), got {type_name(record)}"
        )
    data: dict[str, Any] = {str(k): v for k, v in record.items()}

    out: dict[str, Any] = {}
    for canonical in FIELDS:
        names = [canonical] + [a for a, c in ALIASES.items() if c == canonical]
        chosen: tuple[str, Any] | None = None
        for name in names:
            if name not in data:
                continue
            value: str | list[str] | None
            if name == "ground_truths":
                value = _ground_truths(data[name])
            elif canonical in LIST_FIELDS:
                value = _list_of_text(name, data[name])
            elif canonical in ID_LIST_FIELDS:
                value = _list_of_ids(name, data[name])
            else:
                value = _text(name, data[name])
            if value is None:
                continue
            if chosen is None:
                chosen = (name, value)
            elif not _same(chosen[1], value):
                raise field_error(
                    canonical,
                    f"conflicting values for {chosen[0]!r} and {name!r} "
                    f"(both mean {canonical!r}); keep one of them",
                )
        out[canonical] = chosen[1] if chosen else None

    out["id"] = _id(data.get("id"))

    metadata = _metadata(data.get("metadata"))
    for key, value in data.items():
        if key in _RESERVED or is_missing(value):
            continue
        if key in metadata and not _same(metadata[key], value):
            raise field_error(
                key,
                f"column {key!r} and metadata[{key!r}] hold different values; keep one of them",
            )
        metadata[key] = value
    out["metadata"] = metadata
    return out


class Sample(BaseModel):
    """One RAG interaction to evaluate; every field is optional, each metric needs some.

    Constructing a Sample from a record with a value of the wrong type raises
    ``ragmeter.errors.InvalidInput`` (not a pydantic ``ValidationError``), with the offending
    field in ``exc.field``.
    """

    model_config = ConfigDict(strict=True, extra="forbid")

    judged_as: ClassVar[str] = "sample"
    """Which judgements apply to it (``TaskKind.scope``): a conversation has its own."""

    question: str | None = None
    answer: str | None = None
    contexts: list[str] | None = None
    ground_truth: str | None = None
    reference_contexts: list[str] | None = None
    retrieved_context_ids: list[str] | None = None
    reference_context_ids: list[str] | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    id: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _normalize(cls, data: Any) -> Any:
        return normalize_record(data)

    def missing(self, fields: Iterable[str]) -> list[str]:
        """Which of ``fields`` are absent, blank, or an empty list (or a list of blanks).

        Names are returned as given; aliases are understood. Unknown names are a
        ``ValueError`` (a typo in a metric's requirements must not pass as "present").
        """
        if isinstance(fields, str):
            fields = [fields]
        absent = []
        for name in fields:
            canonical = ALIASES.get(name, name)
            if canonical not in FIELDS:
                raise InvalidOption(f"unknown field {name!r}; known fields: {', '.join(FIELDS)}")
            value = getattr(self, canonical)
            if value is None:
                absent.append(name)
            elif isinstance(value, str):
                if not value.strip():
                    absent.append(name)
            elif not any(item.strip() for item in value):
                absent.append(name)
        return absent

    @property
    def headline(self) -> str:
        """What names this sample in a list of the worst or most moved samples (the gate,
        ``ragmeter runs compare``, the UI): its question."""
        return self.question or ""

    def set_by_test_set(self) -> tuple[str, ...]:
        """What the test set fixes in this sample, not what the app answers: its question and
        reference answer. Runs of two versions of an app over one test set agree on it, so the
        run store files them under one test-set fingerprint (one trend)."""
        return (self.question or "", self.ground_truth or "")

    def judged_texts(self) -> dict[str, str | list[str]]:
        """Texts a judge reads beyond the fields above: none for a single question and answer
        (a conversation adds its transcript)."""
        return {}

    def inputs(self) -> dict[str, Any]:
        """The fields that determine a score (everything but ``id`` and ``metadata``)."""
        return {name: getattr(self, name) for name in FIELDS}

    def fingerprint(self) -> str:
        """sha256 (hex) of the canonical JSON of the input fields.

        Stable across processes and machines (no ``hash()``, sorted keys, fixed separators),
        so a resumed run can tell a sample it already scored from one that changed. ``id``
        and ``metadata`` are left out: they do not change a score. So are the chunk-id
        lists when they are absent, which keeps the fingerprints of samples without them
        what they were before those fields existed.
        """
        inputs = {
            name: value
            for name, value in self.inputs().items()
            if value is not None or name not in _FINGERPRINT_IF_SET
        }
        payload = json.dumps(
            inputs, sort_keys=True, ensure_ascii=False, separators=(",", ":")
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def to_record(self) -> dict[str, Any]:
        """Canonical names; ``None`` fields and an empty metadata left out."""
        record: dict[str, Any] = {}
        if self.id is not None:
            record["id"] = self.id
        for name in FIELDS:
            value = getattr(self, name)
            if value is not None:
                record[name] = list(value) if isinstance(value, list) else value
        if self.metadata:
            record["metadata"] = dict(self.metadata)
        return record
