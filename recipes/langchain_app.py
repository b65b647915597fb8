"""Evaluate a LangChain RAG app: run it over a test set, collect its answers and the chunks
its retriever returned (in rank order), and score it with the local judge.

    python recipes/langchain_app.py

The app is an LCEL chain over an `InMemoryVectorStore` with the bundled MiniLM embeddings.
Its "model" answers by extraction so the recipe runs offline; in your app it is
`prompt | ChatOpenAI(...) | StrOutputParser()` and nothing else changes. To judge with a
LangChain chat model instead of the local judge: `judge=judge_from(ChatOpenAI(model=..., max_retries=0))`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.runnables import RunnableLambda, RunnableParallel, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

from ragmeter.adapters.langchain import langchain_app
from ragmeter.embedders.sentence_transformer import load_model

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import extractive_answer, knowledge_base, run_and_evaluate  # noqa: E402


class MiniLM(Embeddings):
    """The bundled MiniLM as LangChain embeddings (any `Embeddings` works here)."""

    def __init__(self) -> None:
        self.model = load_model()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def build_chain():
    store = InMemoryVectorStore(MiniLM())
    store.add_documents([Document(page_content=p["text"], metadata={"id": p["id"]}) for p in knowledge_base()])
    retriever = store.as_retriever(search_kwargs={"k": 3})
    answer = RunnableLambda(lambda x: extractive_answer(x["question"], [d.page_content for d in x["context"]]))
    # returns {"context": [Document, ...], "question": ..., "answer": ...}
    return RunnableParallel(context=retriever, question=RunnablePassthrough()).assign(answer=answer), retriever


def main() -> None:
    chain, retriever = build_chain()
    run_and_evaluate(langchain_app(chain), lambda q: [d.page_content for d in retriever.invoke(q)])


if __name__ == "__main__":
    main()
