"""A LlamaIndex callback handler that writes a sample record per query an app answers.

It listens to the outermost QUERY event (a sub-question engine's inner queries are left
out): the question is its query string, the answer the response text, the contexts the
response's source nodes in rank order (what the synthesizer was given, after any
postprocessor), their ids the node ids.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from ragmeter.extras import require

require("llamaindex", "llama_index.core.callbacks", "the LlamaIndex trace handler")  # one line naming the extra

from llama_index.core.callbacks import CBEventType, EventPayload  # noqa: E402
from llama_index.core.callbacks.base_handler import BaseCallbackHandler  # noqa: E402

from ragmeter.traces._records import RecordFile


class RagmeterLlamaIndexHandler(BaseCallbackHandler):
    """``Settings.callback_manager = CallbackManager([RagmeterLlamaIndexHandler("traffic.jsonl")])``
    or ``index.as_query_engine(callback_manager=...)``."""

    def __init__(self, path: Any, *, metadata: dict[str, Any] | None = None) -> None:
        super().__init__(event_starts_to_ignore=[], event_ends_to_ignore=[])
        self.records = RecordFile(path)
        self.metadata = dict(metadata or {})
        self._lock = threading.Lock()
        self._queries: dict[str, tuple[str, float]] = {}  # outermost query event -> (question, start)
        self._parents: dict[str, str] = {}

    def _inside_query(self, parent_id: str) -> bool:
        seen = set()
        while parent_id and parent_id not in seen:
            if parent_id in self._queries:
                return True
            seen.add(parent_id)
            parent_id = self._parents.get(parent_id, "")
        return False

    def on_event_start(self, event_type: CBEventType, payload: dict[str, Any] | None = None, event_id: str = "",
                       parent_id: str = "", **kwargs: Any) -> str:
        with self._lock:
            self._parents[event_id] = parent_id
            if event_type == CBEventType.QUERY and not self._inside_query(parent_id):
                self._queries[event_id] = (str((payload or {}).get(EventPayload.QUERY_STR, "")), time.time())
        return event_id

    def on_event_end(self, event_type: CBEventType, payload: dict[str, Any] | None = None, event_id: str = "",
                     **kwargs: Any) -> None:
        with self._lock:
            self._parents.pop(event_id, None)
            query = self._queries.pop(event_id, None) if event_type == CBEventType.QUERY else None
        if query is None:
            return
        response = (payload or {}).get(EventPayload.RESPONSE)
        nodes = list(getattr(response, "source_nodes", None) or [])
        answer = getattr(response, "response", None)
        record: dict[str, Any] = {
            "id": event_id,
            "question": query[0],
            "answer": answer if isinstance(answer, str) else None,
            "contexts": [n.node.get_content() for n in nodes],
        }
        if nodes:
            record["retrieved_context_ids"] = [n.node.node_id for n in nodes]
        record["metadata"] = {"started": query[1], **self.metadata}
        self.records.write(record)

    def start_trace(self, trace_id: str | None = None) -> None:
        pass

    def end_trace(self, trace_id: str | None = None, trace_map: dict[str, list[str]] | None = None) -> None:
        pass
