"""The local judge: judgements from small models that ship on PyPI, with no key and no network.

It does not answer free-form prompts (no small model on PyPI can judge reliably; see
LOCAL_MODELS.md). Instead, the facts layer hands it the specific judgements a metric needs
(claims of a text, support of a claim by passages, relevance of a chunk, entities, coverage
of the question, a few critiques) and it answers each with the models it holds:
spaCy for sentences, clauses and entities, MiniLM for similarity, and a claim verifier
(``ragmeter.local.verifier``: our alignment verifier by default, or any Hugging Face NLI
cross-encoder by name or path). A judgement with no local signal (harmfulness, a custom
criterion) raises ``NeedsLLMJudge`` rather than inventing a score.

Every local verdict carries a probability; ``CascadeJudge`` sends the uncertain ones to an
LLM judge.
"""

from __future__ import annotations

import threading
from typing import Any, TypeVar

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.errors import NeedsLLMJudge
from ragmeter.judges.protocol import Prompt

T = TypeVar("T", bound=BaseModel)


class LocalJudge:
    """``LocalJudge(verifier="alignment" | "nli:NAME_OR_PATH", threads=None)``.

    The models load on first use and are shared by every sample of a run; ``threads`` caps
    torch's CPU threads (on a busy machine 1 can beat 2).
    """

    def __init__(self, verifier: str = "alignment", threads: int | None = None) -> None:
        self.verifier_spec = verifier
        self.threads = threads
        self.name = "local" if verifier == "alignment" else f"local[{verifier}]"
        self.usage = Usage()
        self._models: dict[str, Any] = {}
        self._lock = threading.RLock()  # re-entrant: one model may be built on another (chunk_relevance on encoder)

    def model(self, kind: str) -> Any:
        """The loaded model of ``kind`` ("verifier", "relevance", "chunk_relevance", "encoder"), built once."""
        with self._lock:
            if kind not in self._models:
                self._models[kind] = self._load(kind)
            return self._models[kind]

    def _load(self, kind: str) -> Any:
        if kind == "encoder":
            from ragmeter.local.verifier import default_encoder

            encoder = default_encoder()
            if self.threads is not None:
                encoder.threads = self.threads
            return encoder
        if kind == "verifier":
            from ragmeter.local.verifier import get_verifier

            return get_verifier(self.verifier_spec)
        if kind == "relevance":
            from ragmeter.local.relevance import RelevanceScorer

            # lexical signals only: on MS MARCO dev the MiniLM cosine adds 0.005 pairwise
            # accuracy (0.705 vs 0.700, sentence level 0.695 vs 0.700) and costs two thirds
            # of the suite's time (every context sentence encoded)
            return RelevanceScorer(embeddings=False)
        if kind == "chunk_relevance":
            from ragmeter.local.chunk_relevance import ChunkRelevanceScorer

            # with the MiniLM cosine, unlike "relevance": it scores whole chunks (one encode
            # each, not every sentence) and lifts pairwise accuracy from 0.735 to 0.755 on
            # MS MARCO dev and from 0.87 to 0.94 on the pairs of bench/data (bench/README.md)
            return ChunkRelevanceScorer(encoder=self.model("encoder"))
        raise KeyError(kind)

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        raise NeedsLLMJudge(
            f"the local judge cannot answer a free-form {output_type.__name__} prompt; "
            "configure an LLM judge (e.g. --judge openai:gpt-4o-mini) for this"
        )

    def __repr__(self) -> str:
        return f"LocalJudge(verifier={self.verifier_spec!r})"
