"""Conversations from files, frames, datasets and chat libraries, bad ones named, the rest kept.

Every source ends as a ``Dataset`` of ``ConversationSample`` (one row per conversation), so
``evaluate`` and everything after it treat conversations as rows. A conversation whose
messages do not read is a ``RowError`` naming the conversation, the turn and the field;
the others go on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ragmeter.conversations._sample import ID_KEYS, MESSAGE_KEYS, ConversationSample
from ragmeter.data import Dataset, RowError
from ragmeter.errors import InvalidInput


def _is_message_list(item: Any) -> bool:
    """A bare conversation: a list of messages (dicts with a role, or chat-library objects)."""
    return isinstance(item, (list, tuple)) and bool(item) and not isinstance(item[0], (str, bytes))


def _record(item: Any) -> Any:
    if isinstance(item, ConversationSample):
        return item
    if _is_message_list(item):
        return {"messages": list(item)}
    if not isinstance(item, Mapping) and hasattr(item, "model_dump") and hasattr(item, "user_input"):
        return item.model_dump()  # Ragas' MultiTurnSample
    return item


def _conversation_id(record: Any, row: int) -> str:
    if isinstance(record, Mapping):
        for key in ID_KEYS:
            if record.get(key) is not None:
                return repr(str(record[key]))
    return f"at row {row}"


def _collect(items: Iterable[tuple[int, int | None, Any]], source: str | None,
             retrieval_tools: Sequence[str] | None) -> Dataset:
    samples: list[ConversationSample] = []
    rows: list[int] = []
    errors: list[RowError] = []
    for row, line, item in items:
        if isinstance(item, RowError):
            errors.append(item)
            continue
        record = _record(item)
        try:
            if retrieval_tools and isinstance(record, Mapping) and not record.get("retrieval_tools"):
                record = {**record, "retrieval_tools": list(retrieval_tools)}
            sample = ConversationSample.model_validate(record)
        except InvalidInput as exc:
            detail = getattr(exc, "detail", str(exc))
            errors.append(RowError(row=row, field=getattr(exc, "field", None), line=line,
                                   message=f"conversation {_conversation_id(record, row)}: {detail}"))
            continue
        samples.append(sample)
        rows.append(row)
    return Dataset(samples, rows, errors, source)


def _jsonl(path: Path) -> Iterator[tuple[int, int | None, Any]]:
    row = 0
    with path.open(encoding="utf-8") as lines:
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            try:
                yield row, number, json.loads(text)
            except ValueError as exc:
                yield row, number, RowError(row=row, line=number, message=f"not valid JSON: {exc}")
            row += 1


def _file(path: Path) -> Iterator[tuple[int, int | None, Any]]:
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        yield from _jsonl(path)
        return
    if suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, list):
            raise InvalidInput(f"{path}: expected a JSON array of conversations, got {type(data).__name__}")
        yield from ((i, None, r) for i, r in enumerate(data))
        return
    if suffix == ".parquet":
        import pandas as pd

        yield from _frame(pd.read_parquet(path))
        return
    raise InvalidInput(f"{path}: conversations are read from .jsonl, .json or .parquet, not {suffix or 'no extension'}")


def _frame(df: Any) -> Iterator[tuple[int, int | None, Any]]:
    columns = [str(c) for c in df.columns]
    for i, values in enumerate(df.itertuples(index=False, name=None)):
        yield i, None, dict(zip(columns, values, strict=True))


def load_conversations(data: Any, *, retrieval_tools: Sequence[str] | None = None,
                       source: str | None = None) -> Dataset:
    """Conversations from a path (JSONL, JSON array, Parquet), a pandas DataFrame, a Hugging
    Face dataset, a Ragas ``EvaluationDataset`` of ``MultiTurnSample``s, or a list whose items
    are conversation records, ``MultiTurnSample``s, or bare message lists (OpenAI dicts,
    LangChain messages, LlamaIndex ``ChatMessage``s).

    ``retrieval_tools`` names the tools whose results are retrieved passages, for the
    conversations that do not name their own.
    """
    if isinstance(data, Dataset):
        return data
    if isinstance(data, (str, Path)):
        return _collect(_file(Path(data)), str(data), retrieval_tools)
    module = type(data).__module__
    if module.startswith("pandas"):
        return _collect(_frame(data), source, retrieval_tools)
    if hasattr(data, "samples") and not isinstance(data, (list, tuple)):  # Ragas' EvaluationDataset
        data = list(data.samples)
    if _is_message_list(data) and not isinstance(data[0], (Mapping, list, tuple, ConversationSample)) \
            and not hasattr(data[0], "user_input"):
        data = [data]  # one conversation given as its message objects
    elif _is_message_list(data) and isinstance(data[0], Mapping) and not any(k in data[0] for k in MESSAGE_KEYS):
        data = [data]  # one conversation given as its message dicts
    return _collect(((i, None, r) for i, r in enumerate(data)), source, retrieval_tools)


def conversation(messages: Sequence[Any], **fields: Any) -> ConversationSample:
    """One conversation from its messages in any supported shape (OpenAI dicts, LangChain
    messages, a LlamaIndex chat history) and its other fields; ``InvalidInput`` if bad."""
    return ConversationSample.model_validate({"messages": list(messages), **fields})
