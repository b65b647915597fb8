"""Production traces into samples: OTLP JSON from a real LangChain app and a real LlamaIndex
app instrumented with OpenInference (in-memory span exporter, fake models), and ragmeter's
own callback handlers on the same apps: the samples' contexts are the retrieved documents in
rank order, the answer the model's, the question the user's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="pip install opentelemetry-sdk")
pytest.importorskip("openinference.instrumentation.langchain")
pytest.importorskip("openinference.instrumentation.llama_index")

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402
from otlp_spans import bag_of_words_embedding, otlp_json  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from ragmeter.cli.app import app  # noqa: E402
from ragmeter.traces import (  # noqa: E402
    TraceFileError,
    ingest_otlp,
    langchain_handler,
    llamaindex_handler,
    raise_problem,
)

DOCS = [
    "Paris is the capital of France and sits on the Seine.",
    "Berlin is the capital of Germany.",
    "The Seine flows through Paris into the English Channel.",
    "Rome is the capital of Italy.",
    "Madrid is the capital of Spain.",
]
QUESTIONS = ["What is the capital of France?", "Which river flows through Paris?", "What is the capital of Spain?"]


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def ranked(query: str, k: int = 3) -> list[int]:
    """Word-overlap ranking, ties by position: the order both apps' retrievers return."""
    q = words(query)
    return sorted(range(len(DOCS)), key=lambda i: (-len(q & words(DOCS[i])), i))[:k]


@pytest.fixture(scope="module")
def provider():
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    return tracer_provider, exporter


# ------------------------------------------------------------------------- LangChain


def langchain_chain():
    from langchain_core.documents import Document
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.prompts import ChatPromptTemplate
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnablePassthrough

    class WordRetriever(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
            return [Document(page_content=DOCS[i], id=f"doc-{i}") for i in ranked(query)]

    prompt = ChatPromptTemplate.from_template("Context:\n{context}\n\nQuestion: {question}")
    model = FakeListChatModel(responses=[f"answer {i}" for i in range(len(QUESTIONS))])
    return ({"context": WordRetriever() | (lambda docs: "\n".join(d.page_content for d in docs)),
             "question": RunnablePassthrough()} | prompt | model | StrOutputParser())


@pytest.fixture(scope="module")
def langchain_traces(provider, tmp_path_factory):
    from openinference.instrumentation.langchain import LangChainInstrumentor

    tracer_provider, exporter = provider
    exporter.clear()
    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=tracer_provider)
    folder = tmp_path_factory.mktemp("lc")
    handler = langchain_handler(folder / "traffic.jsonl", metadata={"app": "lc"})
    try:
        chain = langchain_chain()
        answers = [chain.invoke(q, config={"callbacks": [handler]}) for q in QUESTIONS]
    finally:
        instrumentor.uninstrument()
    return exporter.get_finished_spans(), answers, folder / "traffic.jsonl"


def check_samples(records: list[dict[str, Any]], answers: list[str]) -> None:
    assert [r["question"] for r in records] == QUESTIONS
    assert [r["answer"] for r in records] == answers
    for record, question in zip(records, QUESTIONS):
        assert record["contexts"] == [DOCS[i] for i in ranked(question)]


def test_langchain_otlp_json_ingests_into_samples(langchain_traces, tmp_path):
    spans, answers, _ = langchain_traces
    assert answers == ["answer 0", "answer 1", "answer 2"]
    path = tmp_path / "traces.json"
    path.write_text(json.dumps(otlp_json(spans)), encoding="utf-8")
    records = list(ingest_otlp(path))
    check_samples(records, answers)
    assert len({r["id"] for r in records}) == 3 and records[0]["metadata"]["root_span"] == "RunnableSequence"
    # hex ids (OTLP/JSON proper), one request per line (the Collector's file exporter)
    lines = tmp_path / "traces.jsonl"
    per_trace: dict[str, list[Any]] = {}
    for span in spans:
        per_trace.setdefault(span.context.trace_id, []).append(span)
    lines.write_text("".join(json.dumps(otlp_json(s, hex_ids=True)) + "\n" for s in per_trace.values()))
    check_samples(list(ingest_otlp(lines)), answers)


def test_langchain_callback_handler_writes_the_same_records(langchain_traces, tmp_path):
    spans, answers, traffic = langchain_traces
    written = [json.loads(line) for line in traffic.read_text().splitlines()]
    check_samples(written, answers)
    assert written[0]["retrieved_context_ids"] == [f"doc-{i}" for i in ranked(QUESTIONS[0])]
    assert written[0]["metadata"]["app"] == "lc"
    path = tmp_path / "traces.json"
    path.write_text(json.dumps(otlp_json(spans)))
    from_traces = list(ingest_otlp(path))
    for a, b in zip(written, from_traces):
        assert (a["question"], a["answer"], a["contexts"]) == (b["question"], b["answer"], b["contexts"])


# ------------------------------------------------------------------------- LlamaIndex


@pytest.fixture(scope="module")
def llamaindex_traces(provider, tmp_path_factory):
    from llama_index.core import VectorStoreIndex
    from llama_index.core.callbacks import CallbackManager
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import RetrieverQueryEngine
    from llama_index.core.schema import TextNode
    from openinference.instrumentation.llama_index import LlamaIndexInstrumentor

    vocabulary = sorted(set().union(*(words(d) for d in DOCS)) | set().union(*(words(q) for q in QUESTIONS)))

    tracer_provider, exporter = provider
    exporter.clear()
    instrumentor = LlamaIndexInstrumentor()
    instrumentor.instrument(tracer_provider=tracer_provider)
    folder = tmp_path_factory.mktemp("li")
    handler = llamaindex_handler(folder / "traffic.jsonl")
    try:
        nodes = [TextNode(text=d, id_=f"node-{i}") for i, d in enumerate(DOCS)]
        index = VectorStoreIndex(nodes, embed_model=bag_of_words_embedding(vocabulary))
        engine = RetrieverQueryEngine.from_args(index.as_retriever(similarity_top_k=3), llm=MockLLM(max_tokens=8),
                                                callback_manager=CallbackManager([handler]))
        responses = [engine.query(q) for q in QUESTIONS]
    finally:
        instrumentor.uninstrument()
    return exporter.get_finished_spans(), responses, folder / "traffic.jsonl"


def test_llamaindex_otlp_json_ingests_into_samples(llamaindex_traces, tmp_path):
    spans, responses, _ = llamaindex_traces
    path = tmp_path / "traces.json"
    path.write_text(json.dumps(otlp_json(spans, hex_ids=True)))
    records = list(ingest_otlp(path))
    assert [r["question"] for r in records] == QUESTIONS
    for record, response in zip(records, responses):
        assert record["contexts"] == [n.node.get_content() for n in response.source_nodes]  # rank order
        assert record["answer"] == response.response
        assert record["retrieved_context_ids"] == [n.node.node_id for n in response.source_nodes]
    assert all(len(set(r["contexts"])) == 3 and set(r["contexts"]) <= set(DOCS) for r in records)


def test_llamaindex_callback_handler_writes_the_same_records(llamaindex_traces):
    _, responses, traffic = llamaindex_traces
    written = [json.loads(line) for line in traffic.read_text().splitlines()]
    assert [r["question"] for r in written] == QUESTIONS
    for record, response in zip(written, responses):
        assert record["contexts"] == [n.node.get_content() for n in response.source_nodes]
        assert record["answer"] == response.response
        assert record["retrieved_context_ids"] == [n.node.node_id for n in response.source_nodes]


# ------------------------------------------------------------------------- CLI and errors


def test_ingest_cli_writes_a_dataset_that_evaluates(langchain_traces, tmp_path):
    spans, answers, _ = langchain_traces
    (tmp_path / "t.json").write_text(json.dumps(otlp_json(spans)))
    runner = CliRunner()
    done = runner.invoke(app, ["ingest", str(tmp_path / "t.json"), "-o", str(tmp_path / "ds.jsonl")])
    assert done.exit_code == 0, done.output
    assert "3 samples" in done.output
    records = [json.loads(line) for line in (tmp_path / "ds.jsonl").read_text().splitlines()]
    check_samples(records, answers)
    from ragmeter.data import Dataset

    dataset = Dataset.load(tmp_path / "ds.jsonl")  # what evaluate reads
    assert len(dataset) == 3 and not dataset.errors
    assert list(dataset[0].contexts) == [DOCS[i] for i in ranked(QUESTIONS[0])]


def test_a_file_that_is_not_otlp_is_named(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"resourceSpans": []}\n{"nope": 1}\n')
    with pytest.raises(TraceFileError, match=r"bad.jsonl, line 2: not an OTLP export request"):
        list(ingest_otlp(bad, on_problem=raise_problem))
    done = CliRunner().invoke(app, ["ingest", str(bad), "-o", str(tmp_path / "x.jsonl")])
    assert done.exit_code == 1 and "line 2" in done.output and "nothing written" in done.output  # nothing read


def span(trace: str, span_id: str, parent: str | None, kind: str, start: int, **attributes: Any) -> dict[str, Any]:
    attrs = [{"key": "openinference.span.kind", "value": {"stringValue": kind}}]
    for key, value in attributes.items():
        key = key.replace("__", ".")
        attrs.append({"key": key, "value": {"intValue": str(value)} if isinstance(value, int) else {"stringValue": value}})
    return {"traceId": trace, "spanId": span_id, **({"parentSpanId": parent} if parent else {}), "name": kind.lower(),
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 10), "attributes": attrs}


def docs(prefix: str, texts: list[str]) -> dict[str, str]:
    return {f"{prefix}__{i}__document__content": t for i, t in enumerate(texts)}


def test_the_mapping_rules_on_hand_built_spans(caplog):
    """Nested retrievers count once (the outer ranking), a reranker's output wins, a JSON
    input gives its question field, the last LLM span gives the answer, and a trace with no
    question is skipped with a warning naming it."""
    spans = [
        span("t1", "root", None, "CHAIN", 0, input__value=json.dumps({"question": "Q1?", "history": []})),
        span("t1", "ens", "root", "RETRIEVER", 1, **docs("retrieval.documents", ["b", "a", "c"])),
        span("t1", "inner", "ens", "RETRIEVER", 2, **docs("retrieval.documents", ["a", "b"])),
        span("t1", "llm1", "root", "LLM", 5, **{"llm.output_messages.0.message.content": "draft"}),
        span("t1", "llm2", "root", "LLM", 9, **{"llm.output_messages.0.message.content": "final answer"}),
        span("t2", "root2", None, "CHAIN", 20, input__value="Q2?", output__value="from the root"),
        span("t2", "ret2", "root2", "RETRIEVER", 21, **docs("retrieval.documents", ["x", "y", "z"])),
        span("t2", "rr2", "root2", "RERANKER", 22, **docs("reranker.output_documents", ["z", "x"])),
        span("t3", "root3", None, "CHAIN", 30),
    ]
    request = {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "rag"}}]},
                                  "scopeSpans": [{"spans": spans}]}]}
    records = list(ingest_otlp(request))
    assert [(r["question"], r["answer"], r["contexts"]) for r in records] == [
        ("Q1?", "final answer", ["b", "a", "c"]),
        ("Q2?", "from the root", ["z", "x"]),
    ]
    assert records[0]["metadata"]["service"] == "rag" and records[0]["id"] == "t1"
    assert ("skipped trace t3: its root span 'chain' has no input.value to use as the question, and no LLM span a "
            "user message") in caplog.text


def test_langchain_handler_counts_a_nested_retriever_once_and_skips_a_failed_run(tmp_path):
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnableLambda

    class Inner(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
            return [Document(page_content=DOCS[i]) for i in ranked(query, 4)]

    class Reversed(BaseRetriever):
        """Calls Inner (a child run) and returns its top 2 in reverse: the ranking that counts."""

        inner: BaseRetriever

        def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
            found = self.inner.invoke(query, config={"callbacks": run_manager.get_child()})
            return list(reversed(found[:2]))

    retriever = Reversed(inner=Inner())
    chain = RunnableLambda(lambda q: {"answer": "ok", "n": len(retriever.invoke(q))})
    path = tmp_path / "traffic.jsonl"
    handler = langchain_handler(path)
    chain.invoke(QUESTIONS[0], config={"callbacks": [handler]})

    def broken(q: str) -> str:
        retriever.invoke(q)
        raise RuntimeError("the app failed")

    with pytest.raises(RuntimeError):
        RunnableLambda(broken).invoke(QUESTIONS[1], config={"callbacks": [handler]})
    written = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(written) == 1
    top = ranked(QUESTIONS[0], 4)
    assert written[0]["contexts"] == [DOCS[top[1]], DOCS[top[0]]]
    assert written[0]["answer"] == "ok" and written[0]["question"] == QUESTIONS[0]
