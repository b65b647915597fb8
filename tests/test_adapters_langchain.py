"""The LangChain adapter against a real in-process LangChain RAG: an InMemoryVectorStore over
the bundled MiniLM, a retriever, a prompt and langchain-core's fake chat models.

What must hold: the contexts ragmeter records are exactly the retriever's documents in rank
order (whether the chain returns them or only a string), a LangChain chat model judges with
ragmeter's middleware (usage, cache, retries), LangChain embeddings score
answer_similarity, and LangChain Documents ingest. A socket guard fails any network attempt.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
from types import SimpleNamespace
from typing import Any, Iterator

import pytest
from pydantic import Field

pytest.importorskip("langchain_core")

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel, ParrotFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda, RunnableParallel, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

from ragmeter import evaluate
from ragmeter.adapters import run_app
from ragmeter.adapters.langchain import (
    embedder_from,
    judge_from,
    langchain_app,
    retrieval_recorder,
    retriever_model_app,
)
from ragmeter.calls.cache import DiskCache
from ragmeter.testing import scripted_judge

TEXTS = {
    "alpha": "The Alpha ledger stores every record in an append-only log. It was first deployed in 2019.",
    "beta": "Beta is a messaging protocol between services. It runs over TCP and encrypts traffic with TLS.",
    "gamma": "The Gamma cache keeps hot entries in memory. Entries expire after ten minutes.",
    "delta": "Delta schedules batch jobs on the least loaded worker. Failed jobs are retried three times.",
    "epsilon": "Epsilon compresses log files with zstandard before they are archived to cold storage.",
    "zeta": "Zeta routes network packets between data centre regions using shortest paths.",
}
QUESTIONS = [
    "How does the Alpha ledger store records?",
    "Which transport does the Beta protocol use?",
    "When do Gamma cache entries expire?",
    "How often are failed Delta jobs retried?",
    "How does Epsilon compress log files?",
    "How does Zeta route packets?",
]
ANSWERS = [
    "The Alpha ledger stores records in an append-only log.",
    "Beta runs over TCP.",
    "Gamma entries expire after ten minutes.",
    "Failed Delta jobs are retried five times.",
    "Epsilon compresses logs with gzip.",
    "Zeta routes packets using shortest paths.",
]
PROMPT = ChatPromptTemplate.from_messages(
    [("system", "Answer from this context only:\n{context}"), ("human", "{question}")]
)


class MiniLMEmbeddings(Embeddings):
    """ragmeter's bundled MiniLM as LangChain ``Embeddings`` (the async methods are
    LangChain's defaults: the sync ones in a worker thread, hence the lock)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.lock = threading.Lock()
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        with self.lock:
            self.calls += 1
            vectors = self.model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True,
                                        show_progress_bar=False)
        return vectors.tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


class ScriptedChatModel(BaseChatModel):
    """A LangChain chat model that answers ragmeter's judge prompts with the scripted judge
    (the same rules the OpenAI mock server uses) and reports token usage."""

    fail_first: int = 0  # raise a 429 this many times first
    seen: list = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-judge"

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        self.seen.append(kwargs)
        if self.fail_first > 0:
            self.fail_first -= 1
            raise FakeRateLimit("slow down")
        roles = {"system": "system", "human": "user", "ai": "assistant"}
        request = {"messages": [{"role": roles[m.type], "content": m.content} for m in messages]}
        reply = scripted_judge.respond(request)
        usage = {"input_tokens": 100, "output_tokens": 7, "total_tokens": 107}
        message = AIMessage(content=reply, usage_metadata=usage, response_metadata={"finish_reason": "stop"})
        return ChatResult(generations=[ChatGeneration(message=message)])


class FakeRateLimit(Exception):
    """Shaped like a provider SDK's 429 error: a status code and a Retry-After header."""

    status_code = 429
    response = SimpleNamespace(status_code=429, headers={"retry-after": "0"})


class Reranked(BaseRetriever):
    """A retriever over a retriever (as ensembles and re-rankers are): asks for three and
    returns them in reverse order."""

    inner: BaseRetriever

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return list(reversed(self.inner.invoke(query, config={"callbacks": run_manager.get_child()})))

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun) -> list[Document]:
        docs = await self.inner.ainvoke(query, config={"callbacks": run_manager.get_child()})
        return list(reversed(docs))


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def network_attempts() -> Iterator[list[Any]]:
    """Refuse (and record) every name lookup and connection; no LangSmith tracing."""
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network access is not allowed in these tests")

    with pytest.MonkeyPatch.context() as mp:
        for var in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING"):
            mp.delenv(var, raising=False)
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
def embeddings(minilm) -> MiniLMEmbeddings:
    return MiniLMEmbeddings(minilm)


@pytest.fixture(scope="module")
def store(embeddings) -> InMemoryVectorStore:
    vector_store = InMemoryVectorStore(embedding=embeddings)
    vector_store.add_documents(
        [Document(page_content=text, metadata={"source": f"kb/{key}.md"}, id=key) for key, text in TEXTS.items()]
    )
    return vector_store


@pytest.fixture(scope="module")
def retriever(store):
    return store.as_retriever(search_kwargs={"k": 2})


@pytest.fixture(scope="module")
def expected(retriever) -> dict[str, list[Document]]:
    """What the retriever returns for each question, asked directly."""
    return {q: retriever.invoke(q) for q in QUESTIONS}


def format_docs(docs: list[Document]) -> str:
    return "\n\n".join(d.page_content for d in docs)


def records() -> list[dict[str, Any]]:
    return [{"id": f"q{i}", "question": q} for i, q in enumerate(QUESTIONS)]


def check_contexts(result, expected) -> None:
    assert result.errors == []
    for sample in result.dataset.samples:
        docs = expected[sample.question]
        assert sample.contexts == [d.page_content for d in docs]
        assert sample.retrieved_context_ids == [d.id for d in docs]


# --- running chains ----------------------------------------------------------------------------


def test_chain_returning_answer_and_context(retriever, expected):
    answer_chain = (
        RunnableLambda(lambda x: {"context": format_docs(x["context"]), "question": x["question"]})
        | PROMPT | FakeListChatModel(responses=ANSWERS) | StrOutputParser()
    )
    rag = RunnableParallel(context=retriever, question=RunnablePassthrough()).assign(answer=answer_chain)
    # one at a time, so the fake model's scripted answers line up with the questions
    result = run_app(records(), langchain_app(rag), concurrency=1, show_progress=False)
    check_contexts(result, expected)
    assert [s.answer for s in result.dataset.samples] == ANSWERS
    assert all(len(s.contexts) == 2 for s in result.dataset.samples)


def test_chain_returning_only_a_string_gets_contexts_from_callbacks(retriever, expected):
    async def stagger(inputs: dict[str, Any]) -> dict[str, Any]:
        # questions finish out of order, so a shared recorder would mix their documents up
        await asyncio.sleep(0.02 * (len(inputs["question"]) % 4))
        return inputs

    chain = (
        {"context": retriever | format_docs, "question": RunnablePassthrough()}
        | RunnableLambda(stagger) | PROMPT | ParrotFakeChatModel() | StrOutputParser()
    )
    result = run_app(records(), langchain_app(chain), concurrency=6, show_progress=False)
    check_contexts(result, expected)
    # the parrot repeats the human message: each answer belongs to its own question
    assert [s.answer for s in result.dataset.samples] == QUESTIONS
    assert all(s.metadata["app_latency_s"] >= 0 for s in result.dataset.samples)


def test_dict_input_message_output_and_named_keys(retriever, expected):
    chain = RunnablePassthrough.assign(docs=(lambda x: x["query"]) | retriever) | RunnableParallel(
        output=(lambda x: {"context": format_docs(x["docs"]), "question": x["query"]})
        | PROMPT | ParrotFakeChatModel(),  # an AIMessage-like message, not a string
        docs=lambda x: x["docs"],
        answer=lambda x: "a decoy the named key overrides",
    )
    app = langchain_app(chain, question_key="query", answer_key="output", context_key="docs",
                        inputs={"lang": "en"}, collect_from_callbacks=False)
    result = run_app(records(), app, concurrency=3, show_progress=False)
    check_contexts(result, expected)
    assert [s.answer for s in result.dataset.samples] == QUESTIONS


def test_chain_returning_a_message_without_contexts(retriever, expected):
    chain = {"context": retriever | format_docs, "question": RunnablePassthrough()} | PROMPT | ParrotFakeChatModel()
    result = run_app(records(), langchain_app(chain), show_progress=False)
    check_contexts(result, expected)
    assert [s.answer for s in result.dataset.samples] == QUESTIONS


def test_a_retriever_over_retrievers_counts_once_with_its_own_ranking(store):
    inner = store.as_retriever(search_kwargs={"k": 3})
    chain = {"context": Reranked(inner=inner) | format_docs, "question": RunnablePassthrough()} | PROMPT | ParrotFakeChatModel()
    result = run_app(records(), langchain_app(chain), show_progress=False)
    assert result.errors == []
    for sample in result.dataset.samples:
        top3 = inner.invoke(sample.question)
        assert sample.contexts == [d.page_content for d in reversed(top3)]


def test_several_retrievers_and_picking_one(store):
    first = store.as_retriever(search_kwargs={"k": 1}).with_config(run_name="first")
    second = store.as_retriever(search_kwargs={"k": 2}).with_config(run_name="second")
    chain = {"a": first, "b": second} | RunnableLambda(lambda x: f"{len(x['a'])} and {len(x['b'])}")
    picked = run_app(records(), langchain_app(chain, retriever=second), show_progress=False)
    both = run_app(records(), langchain_app(chain), show_progress=False)
    for p, b in zip(picked.dataset.samples, both.dataset.samples):
        wanted = second.invoke(p.question)
        assert p.answer == "1 and 2"
        assert p.contexts == [d.page_content for d in wanted]
        assert sorted(b.contexts) == sorted([d.page_content for d in first.invoke(p.question)]
                                            + [d.page_content for d in wanted])
    by_name = run_app(records()[:1], langchain_app(chain, retriever="first"), show_progress=False)
    assert len(by_name.dataset.samples[0].contexts) == 1


def test_the_recorder_on_its_own(retriever, expected):
    recorder = retrieval_recorder()
    chain = retriever | format_docs
    chain.invoke(QUESTIONS[0], config={"callbacks": [recorder]})
    assert [d.id for d in recorder.documents()] == [d.id for d in expected[QUESTIONS[0]]]


def test_retriever_and_model_without_a_chain(retriever, expected):
    model = FakeListChatModel(responses=["From the context."])
    result = run_app(records(), retriever_model_app(retriever, model), show_progress=False)
    check_contexts(result, expected)
    assert {s.answer for s in result.dataset.samples} == {"From the context."}
    custom = retriever_model_app(retriever, ParrotFakeChatModel(), "Q: {question}\nC: {context}")
    out = asyncio.run(custom(QUESTIONS[2]))
    assert out.answer.startswith(f"Q: {QUESTIONS[2]}\nC: {expected[QUESTIONS[2]][0].page_content}")
    with pytest.raises(ValueError, match="no other variable"):
        retriever_model_app(retriever, model, "{question} {history}")


def test_a_failing_question_is_recorded_and_the_rest_go_on(retriever):
    def answer(question: str) -> str:
        if "Gamma" in question:
            raise RuntimeError("the model is down")
        return "ok"

    chain = {"docs": retriever, "question": RunnablePassthrough()} | RunnableLambda(lambda x: answer(x["question"]))
    result = run_app(records(), langchain_app(chain), show_progress=False)
    assert [e.row for e in result.errors] == [2]
    assert "RuntimeError: the model is down" in result.errors[0].error
    assert result.dataset.samples[2].answer is None
    assert [s.answer for i, s in enumerate(result.dataset.samples) if i != 2] == ["ok"] * 5


def test_not_a_runnable():
    with pytest.raises(TypeError, match="Runnable"):
        langchain_app(lambda q: q)


def test_missing_install_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core", None)
    with pytest.raises(ImportError, match=r"pip install 'ragmeter\[langchain\]'"):
        judge_from(object())


# --- the judge ---------------------------------------------------------------------------------

EINSTEIN = {
    "question": "When and where was Einstein born?",
    "answer": "Einstein was born in Germany on 20th March 1879.",
    "contexts": ["Albert Einstein (born 14 March 1879) was a German-born theoretical physicist."],
}


def test_fake_list_chat_model_as_judge():
    replies = [
        json.dumps({"answer_claims": {"claims": ["Einstein was born in Germany.",
                                                 "Einstein was born on 20th March 1879."]}}),
        json.dumps({"answer_support": {"verdicts": [{"reason": "German-born", "verdict": True},
                                                    {"reason": "14 March, not 20th", "verdict": False}]}}),
    ]
    judge = judge_from(FakeListChatModel(responses=replies), cache=False)
    result = evaluate([EINSTEIN], ["faithfulness"], judge=judge, show_progress=False, journal=False)
    score = result.samples[0].scores["faithfulness"]
    assert score.error is None, score.error
    assert score.value == 0.5
    assert [v["supported"] for v in score.verdicts] == [True, False]
    assert judge.usage.calls == 2 and judge.usage.failures == 0
    assert judge.name == "langchain:fake-list-chat-model"


def expected_faithfulness(answer: str, contexts: list[str]) -> float:
    claims = scripted_judge.claims_of(answer)
    return sum(scripted_judge.supported(c, contexts) for c in claims) / len(claims)


def test_judging_the_answers_of_a_langchain_app(retriever, tmp_path):
    answer_chain = (
        RunnableLambda(lambda x: {"context": format_docs(x["context"]), "question": x["question"]})
        | PROMPT | FakeListChatModel(responses=ANSWERS) | StrOutputParser()
    )
    rag = RunnableParallel(context=retriever, question=RunnablePassthrough()).assign(answer=answer_chain)
    dataset = run_app(records(), langchain_app(rag), concurrency=1, show_progress=False).dataset

    cache = DiskCache(tmp_path / "judge-cache")
    model = ScriptedChatModel()
    judge = judge_from(model, cache=cache)
    result = evaluate(dataset, ["faithfulness"], judge=judge, show_progress=False, journal=False)
    n = len(QUESTIONS)
    for sample in result.samples:
        score = sample.scores["faithfulness"]
        assert score.error is None, score.error
        assert score.value == pytest.approx(expected_faithfulness(sample.sample.answer, sample.sample.contexts))
    values = [s.scores["faithfulness"].value for s in result.samples]
    assert min(values) < 1.0 and max(values) == 1.0  # "five times" and "gzip" are unsupported
    assert judge.usage.calls == 2 * n  # claims, then verdicts, per sample
    assert (judge.usage.prompt_tokens, judge.usage.completion_tokens) == (100 * 2 * n, 7 * 2 * n)
    assert all(kwargs == {"temperature": 0.0} for kwargs in model.seen)

    # a rerun is answered from the cache: no call reaches the model
    again = judge_from(ScriptedChatModel(), cache=cache)
    rerun = evaluate(dataset, ["faithfulness"], judge=again, show_progress=False, journal=False)
    assert [s.scores["faithfulness"].value for s in rerun.samples] == values
    assert again.usage.calls == 0 and again.usage.cache_hits == 2 * n


def test_a_rate_limited_model_is_retried():
    judge = judge_from(ScriptedChatModel(fail_first=1), cache=False)
    result = evaluate([EINSTEIN], ["faithfulness"], judge=judge, show_progress=False, journal=False)
    assert result.samples[0].scores["faithfulness"].error is None
    assert judge.usage.retries == 1 and judge.usage.calls == 3


def test_a_model_error_is_a_typed_failure():
    class Broken(FakeListChatModel):
        def _call(self, *args: Any, **kwargs: Any) -> str:
            raise ValueError("bad request: unknown parameter")

    judge = judge_from(Broken(responses=["x"]), cache=False)
    result = evaluate([EINSTEIN], ["faithfulness"], judge=judge, show_progress=False, journal=False)
    error = result.samples[0].scores["faithfulness"].error
    assert error is not None and error.kind == "JudgeRequestRejected"
    assert "unknown parameter" in error.message
    assert judge.usage.calls == 1 and judge.usage.retries == 0


# --- the embedder ------------------------------------------------------------------------------


def test_langchain_embeddings_score_answer_similarity(embeddings):
    rows = [
        {"question": QUESTIONS[2], "answer": ANSWERS[2], "ground_truth": "Entries of the Gamma cache expire after ten minutes."},
        {"question": QUESTIONS[5], "answer": "I like trains.", "ground_truth": "Zeta uses shortest paths."},
        {"question": QUESTIONS[0], "answer": "", "ground_truth": "It is append-only."},
    ]
    embedder = embedder_from(embeddings)
    ours = evaluate(rows, ["answer_similarity"], embedder=embedder, cache=False, show_progress=False, journal=False)
    local = evaluate(rows, ["answer_similarity"], embedder="local", cache=False, show_progress=False, journal=False)
    for a, b in zip(ours.samples, local.samples):
        sa, sb = a.scores["answer_similarity"], b.scores["answer_similarity"]
        assert (sa.error is None) == (sb.error is None)
        if sa.error is None:
            assert sa.value == pytest.approx(sb.value, abs=1e-4)
    assert ours.samples[0].scores["answer_similarity"].value > ours.samples[1].scores["answer_similarity"].value
    assert embedder.name == "langchain:MiniLMEmbeddings"
    assert embedder.usage.calls >= 1

    vectors = asyncio.run(embedder.embed(["hello", "   "]))
    assert vectors.shape == (2, 384) and abs(float((vectors[0] ** 2).sum()) - 1) < 1e-5
    assert not vectors[1].any()


# --- ingestion ---------------------------------------------------------------------------------


def test_testset_gen_loads_langchain_documents():
    from testset_gen.documents.ingest import IngestWarning, load_documents

    docs = [
        Document(page_content=TEXTS["alpha"], metadata={"source": "kb/alpha.md", "page": 0}, id="alpha"),
        Document(page_content=TEXTS["beta"], metadata={"title": "Beta Protocol"}),
        Document(page_content="  ", metadata={"source": "kb/blank.md"}),
    ]
    with pytest.warns(IngestWarning, match="kb/blank.md"):
        result = load_documents(docs)
    alpha, beta = result.documents
    assert (alpha.source, alpha.title, alpha.pages, alpha.text) == ("kb/alpha.md", "alpha", [(0, 1)], TEXTS["alpha"])
    assert alpha.metadata["origin"] == "langchain" and alpha.metadata["id"] == "alpha"
    assert (beta.source, beta.title) == ("langchain-1", "Beta Protocol")
    assert result.skipped == [("kb/blank.md", "empty text")]
