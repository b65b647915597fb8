"""A LangChain callback handler that writes a sample record per question an app answers.

The question is the outermost run's input; the contexts the documents of the outermost
retriever runs in rank order (a retriever inside another counts once, as the outer one
ranked); the answer the last LLM generation (else the outermost run's output). The record
is written when the outermost run ends; a run that fails writes nothing.
"""

from __future__ import annotations

import threading
import time
from typing import Any
from uuid import UUID

from ragmeter.extras import require

require("langchain", "langchain_core.callbacks", "the LangChain trace handler")  # one line naming the extra

from langchain_core.callbacks import BaseCallbackHandler  # noqa: E402

from ragmeter.traces._records import RecordFile
from ragmeter.traces._traces import text_of

ANSWER_KEYS = ("answer", "output", "result", "text", "content", "response")


class _Trace:
    def __init__(self, question: str | None) -> None:
        self.question = question
        self.started = time.time()
        self.retrievers: dict[UUID, list[Any] | None] = {}  # start order; documents once ended
        self.answer: str | None = None


class RagmeterCallbackHandler(BaseCallbackHandler):
    """``chain.invoke(q, config={"callbacks": [RagmeterCallbackHandler("traffic.jsonl")]})``,
    or once for the whole app; safe across threads and concurrent invocations."""

    run_inline = True  # events in the order the runs started
    raise_error = False  # recording never breaks the app

    def __init__(self, path: Any, *, metadata: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.records = RecordFile(path)
        self.metadata = dict(metadata or {})
        self._lock = threading.Lock()
        self._parents: dict[UUID, UUID | None] = {}
        self._retriever_runs: set[UUID] = set()
        self._traces: dict[UUID, _Trace] = {}

    def _root(self, run_id: UUID) -> UUID:
        seen = set()
        while self._parents.get(run_id) is not None and run_id not in seen:
            seen.add(run_id)
            run_id = self._parents[run_id]  # type: ignore[assignment]
        return run_id

    def _start(self, run_id: UUID, parent_run_id: UUID | None, question: Any = None) -> None:
        with self._lock:
            self._parents[run_id] = parent_run_id
            if parent_run_id is None and run_id not in self._traces:
                self._traces[run_id] = _Trace(text_of(question) if not isinstance(question, str) else question)

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                       **kwargs: Any) -> None:
        self._start(run_id, parent_run_id, inputs)

    def on_llm_start(self, serialized: Any, prompts: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                     **kwargs: Any) -> None:
        self._start(run_id, parent_run_id)

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID,
                            parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        self._start(run_id, parent_run_id)

    def on_tool_start(self, serialized: Any, input_str: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                      **kwargs: Any) -> None:
        self._start(run_id, parent_run_id)

    def on_retriever_start(self, serialized: Any, query: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                           **kwargs: Any) -> None:
        self._start(run_id, parent_run_id, query)
        with self._lock:
            self._retriever_runs.add(run_id)
            parent, outermost = parent_run_id, True
            while parent is not None:
                if parent in self._retriever_runs:
                    outermost = False
                    break
                parent = self._parents.get(parent)
            trace = self._traces.get(self._root(run_id))
            if outermost and trace is not None:
                trace.retrievers[run_id] = None

    def on_retriever_end(self, documents: Any, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            trace = self._traces.get(self._root(run_id))
            if trace is not None and run_id in trace.retrievers:
                trace.retrievers[run_id] = list(documents)
        self._finish_if_root(run_id, None)

    def on_llm_end(self, response: Any, *, run_id: UUID, **kwargs: Any) -> None:
        generations = getattr(response, "generations", None) or []
        if generations and generations[-1]:
            text = generations[-1][0].text
            with self._lock:
                trace = self._traces.get(self._root(run_id))
                if trace is not None:
                    trace.answer = text
        self._finish_if_root(run_id, None)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._finish_if_root(run_id, outputs)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            if self._parents.get(run_id) is None:
                self._forget(run_id)

    def _forget(self, root: UUID) -> None:
        self._traces.pop(root, None)
        for run in [r for r in self._parents if self._root(r) == root]:
            self._parents.pop(run, None)
            self._retriever_runs.discard(run)

    def _finish_if_root(self, run_id: UUID, outputs: Any) -> None:
        with self._lock:
            if self._parents.get(run_id) is not None or run_id not in self._traces:
                return
            trace = self._traces[run_id]
            answer = trace.answer
            if answer is None:
                answer = outputs if isinstance(outputs, str) else text_of(outputs, ANSWER_KEYS)
            contexts = [getattr(d, "page_content", str(d)) for docs in trace.retrievers.values() for d in docs or []]
            ids = [getattr(d, "id", None) for docs in trace.retrievers.values() for d in docs or []]
            self._forget(run_id)
        record: dict[str, Any] = {"id": str(run_id), "question": trace.question, "answer": answer, "contexts": contexts}
        if ids and all(ids):
            record["retrieved_context_ids"] = ids
        record["metadata"] = {"started": trace.started, **self.metadata}
        self.records.write(record)
