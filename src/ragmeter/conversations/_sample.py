"""A conversation to evaluate: its messages, what should have happened, and its turns.

Why a ``Sample`` subclass: the engine (journal, resume, cache, result, report, run store)
works on samples; a conversation that is one keeps all of that working unchanged, one row
per conversation. Its ``question`` and ``answer`` are the last user message and the last
reply (what a table shows); the metrics read the messages.

A retrieval tool (``retrieval_tools``) makes its results the contexts of the reply that
follows them; a reply's own ``contexts`` win over that.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import Field, model_validator

from ragmeter.conversations._message import Message, read_message
from ragmeter.conversations._tool_call import ToolCall, read_tool_call
from ragmeter.data.sample import Sample, field_error, is_missing, type_name
from ragmeter.errors import InvalidInput

MESSAGE_KEYS = ("messages", "user_input", "conversation", "chat_history")
"""Where a record keeps its messages (OpenAI / ours, Ragas' MultiTurnSample, others)."""
REFERENCE_KEYS = ("reference", "ground_truth")
ID_KEYS = ("id", "conversation_id", "session_id")
CONVERSATION_FIELDS = ("messages", "reference_tool_calls", "reference_topics", "retrieval_tools")
_DERIVED = ("question", "answer", "contexts", "reference_contexts", "retrieved_context_ids", "reference_context_ids")
"""Sample fields a conversation computes from its messages (read back from a saved result, not data)."""
_KNOWN = frozenset(MESSAGE_KEYS + REFERENCE_KEYS + ID_KEYS + CONVERSATION_FIELDS + _DERIVED) | {"metadata"}


@dataclass(frozen=True)
class Turn:
    """One reply of the assistant with what led to it: ``number`` counts replies from 1,
    ``position`` is the reply's index in the messages."""

    number: int
    position: int
    user: str
    history: tuple[Message, ...]
    reply: Message
    contexts: tuple[str, ...]


def _json_cell(value: Any, where: str) -> Any:
    """A list stored as a JSON string (a CSV or Parquet cell) as the list it spells."""
    if isinstance(value, str) and value.lstrip().startswith(("[", "{")):
        try:
            return json.loads(value)
        except ValueError:
            raise field_error(where, "is a string that is not valid JSON") from None
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()  # a numpy array from pandas / Arrow
    return value


def _strings(value: Any, where: str) -> list[str] | None:
    value = _json_cell(value, where)
    if not isinstance(value, (list, tuple)) and is_missing(value):
        return None
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise field_error(where, f"expected a list of strings, got {type_name(value)}")
    return [str(v) for v in value]


def normalize_conversation(record: Any) -> dict[str, Any]:
    """A conversation record's fields, checked: messages read message by message, the first
    bad one named by its turn and field (``InvalidInput`` with ``.field``)."""
    if isinstance(record, ConversationSample):
        return {name: getattr(record, name) for name in ConversationSample.model_fields}
    if not isinstance(record, Mapping):
        raise field_error(None, f"expected a conversation record (a mapping), got {type_name(record)}")
    data = {str(k): v for k, v in record.items()}
    raw_id = next((data[k] for k in ID_KEYS if k in data and not is_missing(data[k])), None)
    key = next((k for k in MESSAGE_KEYS if k in data), None)
    if key is None:
        raise field_error("messages", f"a conversation needs its messages (one of: {', '.join(MESSAGE_KEYS)})")
    raw = _json_cell(data[key], key)
    if not isinstance(raw, (list, tuple)) or not raw:
        raise field_error(key, f"expected a non-empty list of messages, got {type_name(raw)}")
    messages = []
    for k, item in enumerate(raw):
        try:
            messages.append(read_message(item, f"{key}[{k}]"))
        except InvalidInput as exc:
            # the turn is what a person looks for in a chat log; the field is where to fix it
            exc.detail = f"turn {k + 1}: {getattr(exc, 'detail', str(exc))}"  # type: ignore[attr-defined]
            raise
    # a tool result names its tool through the call's id only (OpenAI): name it, so a
    # retrieval tool is recognised and the transcript says which tool answered
    called = {c.id: c.name for m in messages for c in m.tool_calls if c.id}
    messages = [m.model_copy(update={"name": called[m.tool_call_id]})
                if m.role == "tool" and not m.name and m.tool_call_id in called else m for m in messages]
    references = _json_cell(data.get("reference_tool_calls"), "reference_tool_calls")
    ref_calls = None
    if isinstance(references, (list, tuple)) or not is_missing(references):
        if not isinstance(references, (list, tuple)):
            raise field_error("reference_tool_calls", f"expected a list of tool calls, got {type_name(references)}")
        ref_calls = [read_tool_call(c, f"reference_tool_calls[{k}]") for k, c in enumerate(references)]
    reference = next((data[k] for k in REFERENCE_KEYS if k in data and not is_missing(data[k])), None)
    if reference is not None and not isinstance(reference, str):
        raise field_error("reference", f"expected text, got {type_name(reference)}")
    metadata = dict(data.get("metadata") or {})
    metadata.update({k: v for k, v in data.items() if k not in _KNOWN and not is_missing(v)})
    users = [m.content for m in messages if m.role == "user" and m.content.strip()]
    replies = [m.content for m in messages if m.role == "assistant" and m.content.strip()]
    return {
        "messages": messages,
        "reference_tool_calls": ref_calls,
        "reference_topics": _strings(data.get("reference_topics"), "reference_topics"),
        "retrieval_tools": _strings(data.get("retrieval_tools"), "retrieval_tools") or [],
        "ground_truth": reference,
        "question": users[-1] if users else None,
        "answer": replies[-1] if replies else None,
        "id": str(raw_id) if raw_id is not None else None,
        "metadata": metadata,
    }


def render_history(messages: Iterable[Message]) -> str:
    """The messages as a transcript a judge reads: replies and user turns numbered, tool
    calls with their arguments, tool results under the tool's name."""
    messages = list(messages)
    lines, users, replies = [], 0, 0
    tool_names = {c.id: c.name for m in messages for c in m.tool_calls if c.id}
    for m in messages:
        if m.role == "user":
            users += 1
            lines.append(f"[user {users}] {m.content}")
        elif m.role == "assistant":
            if m.content.strip():
                replies += 1
                lines.append(f"[assistant {replies}] {m.content}")
            for call in m.tool_calls:
                lines.append(f"[tool call] {call.name}({json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)})")
        elif m.role == "tool":
            tool = m.name or tool_names.get(m.tool_call_id or "")
            lines.append(f"[tool result{' ' + tool if tool else ''}] {m.content}")
        else:
            lines.append(f"[system] {m.content}")
    return "\n".join(lines)


def _tool_contexts(content: str) -> list[str]:
    """A retrieval tool's result as passages: a JSON list of strings is one passage each."""
    try:
        parsed = json.loads(content)
    except ValueError:
        parsed = None
    if isinstance(parsed, list) and parsed and all(isinstance(p, str) for p in parsed):
        return [p for p in parsed if p.strip()]
    return [content] if content.strip() else []


class ConversationSample(Sample):
    """A chat or an agent run: OpenAI chat-format messages plus, optionally, the tool calls
    that should have been made (``reference_tool_calls``), the outcome the user wanted
    (``ground_truth``, read from ``reference``), the topics the assistant may talk about
    (``reference_topics``) and the names of the tools whose results are retrieved passages
    (``retrieval_tools``)."""

    judged_as: ClassVar[str] = "conversation"

    messages: list[Message] = Field(default_factory=list)
    reference_tool_calls: list[ToolCall] | None = None
    reference_topics: list[str] | None = None
    retrieval_tools: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _normalize(cls, data: Any) -> Any:
        return normalize_conversation(data)

    @property
    def headline(self) -> str:
        """The first user message, with how many followed: its ``question`` (the last user
        message, often a "Thanks") says little about which conversation went wrong."""
        users = [m.content for m in self.messages if m.role == "user" and m.content.strip()]
        if not users:
            return ""
        more = len(users) - 1
        return users[0] + (f" (+{more} more user turn{'' if more == 1 else 's'})" if more else "")

    def set_by_test_set(self) -> tuple[str, ...]:
        """Every user turn and every reference (tool calls, outcome, topics): the last user
        message alone ("Thanks") would file two different chat sets under one fingerprint."""
        users = [m.content for m in self.messages if m.role == "user"]
        references = json.dumps([[c.model_dump(exclude={"id"}) for c in self.reference_tool_calls or []],
                                 self.reference_topics or []], sort_keys=True, ensure_ascii=False, default=str)
        return (*users, self.ground_truth or "", references)

    # --- what the metrics read ------------------------------------------------------------

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Every call the assistant made, in order, across all its messages."""
        return [call for m in self.messages if m.role == "assistant" for call in m.tool_calls]

    def turns(self) -> list[Turn]:
        """Each reply (an assistant message with text) with the user message before it, the
        messages before that, and its contexts."""
        turns: list[Turn] = []
        user, start = "", 0
        since_user: list[Any] = []
        tool_names = {c.id: c.name for m in self.messages for c in m.tool_calls if c.id}
        for position, m in enumerate(self.messages):
            if m.role == "user":
                user, since_user, start = m.content, [], position
            elif m.role == "tool":
                tool = m.name or tool_names.get(m.tool_call_id or "")
                if tool in self.retrieval_tools:
                    since_user.extend(_tool_contexts(m.content))
            elif m.role == "assistant" and m.content.strip():
                contexts = m.contexts if m.contexts is not None else since_user
                turns.append(Turn(len(turns) + 1, position, user, tuple(self.messages[:start]), m, tuple(contexts)))
        return turns

    def turn_samples(self) -> list[tuple[Turn, Sample]]:
        """The replies that have contexts as single-turn samples: the question is the user's
        message with the earlier turns before it, so a follow-up ("and its population?")
        keeps its meaning."""
        out = []
        for turn in self.turns():
            if not turn.contexts:
                continue
            earlier = render_history(m for m in turn.history if m.role in ("user", "assistant") and m.content.strip())
            question = f"Earlier in the conversation:\n{earlier}\n\nQuestion: {turn.user}" if earlier else turn.user
            out.append((turn, Sample(question=question, answer=turn.reply.content, contexts=list(turn.contexts),
                                     ground_truth=turn.reply.reference)))
        return out

    def judged_texts(self) -> dict[str, str | list[str]]:
        """The transcript a judge reads, the numbered user messages and replies its verdicts
        go one per, and the allowed topics."""
        return {
            "conversation": render_history(self.messages),
            "user_turn": [m.content for m in self.messages if m.role == "user" and m.content.strip()],
            "assistant_turn": [t.reply.content for t in self.turns()],
            "topic": list(self.reference_topics or []),
            "reference": self.ground_truth or "",
        }

    # --- identity and round trips ---------------------------------------------------------

    def missing(self, fields: Iterable[str]) -> list[str]:
        if isinstance(fields, str):
            fields = [fields]
        fields = list(fields)
        own = [f for f in fields if f in CONVERSATION_FIELDS]
        absent = super().missing([f for f in fields if f not in CONVERSATION_FIELDS])
        return absent + [f for f in own if not getattr(self, f)]

    def inputs(self) -> dict[str, Any]:
        return {
            "messages": [m.model_dump(exclude_defaults=True) for m in self.messages],
            "reference_tool_calls": [c.model_dump(exclude={"id"}) for c in self.reference_tool_calls]
            if self.reference_tool_calls is not None else None,
            "reference_topics": self.reference_topics,
            "retrieval_tools": self.retrieval_tools,
            "reference": self.ground_truth,
        }

    def fingerprint(self) -> str:
        """sha256 of the canonical JSON of what changes a score (messages, references)."""
        payload = json.dumps(self.inputs(), sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"id": self.id} if self.id is not None else {}
        record.update({k: v for k, v in self.inputs().items() if v not in (None, [])})
        if self.metadata:
            record["metadata"] = dict(self.metadata)
        return record
