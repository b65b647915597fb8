"""What a RAG app returns, read into (answer, contexts, context ids), whatever its shape.

Apps return many shapes: a string, ``(answer, contexts)``, a dict (``{"answer": ...,
"contexts": [...]}``, LangChain's ``{"answer": ..., "context": [Document, ...]}`` or
``{"result": ..., "source_documents": [...]}``), a LlamaIndex ``Response`` with
``source_nodes``, or an object with ``answer``/``contexts`` attributes. Contexts may be
strings, LangChain ``Document``s, LlamaIndex ``NodeWithScore``/nodes, or dicts with a
``text``/``page_content``/``content`` field. Everything is duck-typed: this module imports
neither LangChain nor LlamaIndex.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ragmeter.errors import RagmeterError

ANSWER_KEYS = ("answer", "response", "result", "output", "output_text", "text")
CONTEXT_KEYS = ("contexts", "context", "source_documents", "source_nodes", "documents",
                "retrieved_contexts", "sources")


class AppOutputError(RagmeterError, TypeError):
    """The app returned something that holds no answer: names what it got. (A ``TypeError``
    as before; recorded on the row by ``ragmeter run``.)"""


@dataclass
class AppOutput:
    """One app call's answer and the contexts it retrieved, in rank order."""

    answer: str
    contexts: list[str] = field(default_factory=list)
    context_ids: list[str] | None = None

    def as_fields(self) -> dict[str, Any]:
        """The sample fields this output fills."""
        out: dict[str, Any] = {"answer": self.answer, "contexts": list(self.contexts)}
        if self.context_ids is not None and any(self.context_ids):
            out["retrieved_context_ids"] = list(self.context_ids)
        return out


def context_text(item: Any) -> str:
    """The text of one retrieved context (string, Document, node, NodeWithScore, dict)."""
    if isinstance(item, str):
        return item
    node = getattr(item, "node", None)  # LlamaIndex NodeWithScore wraps the node
    if node is not None and not isinstance(item, Mapping):
        return context_text(node)
    for attr in ("page_content", "text"):
        value = getattr(item, attr, None)
        if isinstance(value, str):
            return value
    get_content = getattr(item, "get_content", None)
    if callable(get_content):
        return str(get_content())
    if isinstance(item, Mapping):
        for key in ("text", "page_content", "content", "chunk"):
            if isinstance(item.get(key), str):
                return item[key]
    raise AppOutputError(f"cannot read the text of a retrieved context of type {type(item).__name__}")


def context_id(item: Any) -> str | None:
    """The id of a retrieved context when it carries one (node id, document id, metadata id)."""
    node = getattr(item, "node", None)
    if node is not None and not isinstance(item, Mapping):
        item = node
    metadata = item.get("metadata") if isinstance(item, Mapping) else getattr(item, "metadata", None)
    if isinstance(metadata, Mapping):
        for key in ("chunk_id", "id", "doc_id", "document_id"):
            if metadata.get(key) is not None:
                return str(metadata[key])
    for attr in ("node_id", "id_", "id"):
        value = item.get(attr) if isinstance(item, Mapping) else getattr(item, attr, None)
        if isinstance(value, (str, int)) and value != "":
            return str(value)
    return None


def _contexts(items: Any) -> tuple[list[str], list[str] | None]:
    if items is None:
        return [], None
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        items = [items]
    texts = [context_text(i) for i in items]
    ids = [context_id(i) for i in items]
    return texts, ([i or "" for i in ids] if any(ids) else None)


def read_output(value: Any) -> AppOutput:
    """An ``AppOutput`` from whatever the app returned (see the module docstring).

    Raises ``AppOutputError`` naming the type and keys it got when no answer can be found.
    """
    if isinstance(value, AppOutput):
        return value
    if isinstance(value, str):
        return AppOutput(answer=value)
    if isinstance(value, tuple) and len(value) == 2:
        texts, ids = _contexts(value[1])
        return AppOutput(answer=_answer_text(value[0]), contexts=texts, context_ids=ids)
    if isinstance(value, Mapping):
        answer_key = next((k for k in ANSWER_KEYS if k in value), None)
        if answer_key is None:
            raise AppOutputError(f"the app returned a dict without an answer key "
                                 f"({', '.join(ANSWER_KEYS)}); its keys: {sorted(map(str, value))}")
        context_key = next((k for k in CONTEXT_KEYS if k in value), None)
        texts, ids = _contexts(value.get(context_key) if context_key else None)
        if "context_ids" in value and value["context_ids"] is not None:
            ids = [str(i) for i in value["context_ids"]]
        return AppOutput(answer=_answer_text(value[answer_key]), contexts=texts, context_ids=ids)
    for answer_attr in ("answer", "response", "content"):
        if hasattr(value, answer_attr):
            context_attr = next((a for a in CONTEXT_KEYS if hasattr(value, a)), None)
            texts, ids = _contexts(getattr(value, context_attr) if context_attr else None)
            return AppOutput(answer=_answer_text(getattr(value, answer_attr)), contexts=texts,
                             context_ids=ids)
    raise AppOutputError(f"cannot read an answer from a {type(value).__name__}; return a string, "
                         "(answer, contexts), or a dict with 'answer' and 'contexts'")


def _answer_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    content = getattr(value, "content", None)  # a LangChain message
    if isinstance(content, str):
        return content
    response = getattr(value, "response", None)  # a LlamaIndex Response
    if isinstance(response, str):
        return response
    if value is None:
        raise AppOutputError("the app's answer is None")
    return str(value)
