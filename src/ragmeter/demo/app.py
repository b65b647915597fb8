"""The small RAG app the demo evaluates: a MiniLM retriever and an extractive answerer.

It stands in for the user's app so the whole chain runs with no key: it retrieves the
``k`` chunks closest to the question (cosine of the bundled MiniLM's embeddings) and
answers with the retrieved sentence that shares the most content words with the question.
It is deliberately plain: a real app's model writes better answers, and the demo's scores
show what an extractive answerer gets right (grounded answers) and wrong (incomplete ones).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from ragmeter.errors import InvalidOption

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    "a an the of in on at to for and or is are was were be by with what which who whom when where why "
    "how do does did it its this that from as many much".split())
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*\n")  # a heading on its own line is not part of the next sentence


@dataclass(frozen=True)
class Passage:
    id: str
    text: str


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


class DemoRAG:
    """``DemoRAG(passages, k=3)``; call it with a question (``ragmeter.adapters.run_app`` does)."""

    def __init__(self, passages: Sequence[Passage], k: int = 3) -> None:
        from ragmeter.judges.local.verifier import default_encoder

        if not passages:
            raise InvalidOption("the demo app needs at least one passage")
        self.passages = list(passages)
        self.k = k
        self._encoder = default_encoder()
        self._matrix = self._encoder.encode([p.text for p in self.passages])
        self._lock = threading.Lock()

    def retrieve(self, question: str) -> list[Passage]:
        """The ``k`` passages closest to the question, best first (ties: corpus order)."""
        with self._lock:
            query = self._encoder.encode([question])[0]
        scores = self._matrix @ query
        order = np.argsort(-scores, kind="stable")[: self.k]
        return [self.passages[int(i)] for i in order]

    def answer(self, question: str, passages: Sequence[Passage]) -> str:
        wanted = _words(question)
        sentences = [s.strip() for p in passages for s in _SENTENCE.split(p.text) if s.strip()]
        if not sentences or not wanted:
            return "I don't know."
        best = max(sentences, key=lambda s: len(wanted & _words(s)))
        return best if wanted & _words(best) else "I don't know."

    def __call__(self, question: str) -> dict:
        found = self.retrieve(question)
        return {"answer": self.answer(question, found), "contexts": [p.text for p in found],
                "context_ids": [p.id for p in found]}
