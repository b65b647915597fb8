"""Evaluate a LlamaIndex RAG app: a `VectorStoreIndex` query engine run over a test set,
its answers and `source_nodes` (in rank order) collected, scored with the local judge.

    python recipes/llamaindex_app.py

The embedding model is the bundled MiniLM and the LLM answers by extraction, so the recipe
runs offline; in your app pass your own `llm=` and `embed_model=` (always pass both:
LlamaIndex's defaults are OpenAI's). To judge with a LlamaIndex LLM instead of the local
judge: `judge=judge_from(your_llm)` from `ragmeter.adapters.llamaindex`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from llama_index.core import VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.schema import TextNode
from pydantic import PrivateAttr

from ragmeter.adapters.llamaindex import llamaindex_app
from ragmeter.embedders.sentence_transformer import load_model

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import extractive_answer, knowledge_base, run_and_evaluate  # noqa: E402


class MiniLM(BaseEmbedding):
    """The bundled MiniLM as a LlamaIndex embedding model."""

    _model: Any = PrivateAttr()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(model_name="all-MiniLM-L6-v2", **kwargs)
        self._model = load_model()

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False).tolist()

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._get_text_embeddings([text])[0]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embedding(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)


class Extractive(CustomLLM):
    """Answers with the context sentence closest to the question (offline stand-in for a chat model)."""

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="extractive")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        # LlamaIndex's default QA prompt: "Context information is below. ... Query: ...\nAnswer: "
        context = prompt.split("---------------------")[1] if "---------------------" in prompt else prompt
        question = prompt.rsplit("Query:", 1)[-1].split("Answer:")[0].strip()
        return CompletionResponse(text=extractive_answer(question, [context]))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any):
        yield self.complete(prompt, formatted, **kwargs)


def main() -> None:
    nodes = [TextNode(text=p["text"], id_=p["id"]) for p in knowledge_base()]
    index = VectorStoreIndex(nodes, embed_model=MiniLM())
    engine = index.as_query_engine(similarity_top_k=3, llm=Extractive())
    retriever = index.as_retriever(similarity_top_k=3)
    run_and_evaluate(llamaindex_app(engine), lambda q: [n.node.get_content() for n in retriever.retrieve(q)])


if __name__ == "__main__":
    main()
