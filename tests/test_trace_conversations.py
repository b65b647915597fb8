"""Chats from traces: an OpenInference OTLP trace of two sessions ingested into exactly two
conversations (turns in order, tool calls with their results, retriever documents as the
turn's contexts), malformed spans and turns named with their conversation left out, and
``monitor`` scoring the chats end to end. The last tests do the same with the traces a real
LlamaIndex agent and a real LangChain agent write under the OpenInference instrumentation
(skipped without it)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from otlp_spans import bag_of_words_embedding, instrumented, otlp_json
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.monitor import monitor
from ragmeter.runs import RunStore
from ragmeter.testing import OpenAIMockServer, scripted_judge
from ragmeter.traces import ingest_otlp, ingest_otlp_conversations

T0 = 1_700_000_000  # seconds; each trace of the file starts a minute after the one before
PARIS = "Paris is the capital of France."
BERLIN = "Berlin is the capital of Germany."
SEINE = "The Seine flows through Paris."


def value(v: Any) -> dict[str, Any]:
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    return {"stringValue": v}


class Trace:
    """One trace (a turn) built span by span, hex ids, times in ns from its minute."""

    def __init__(self, number: int, session: str | None, *, session_on_every_span: bool = False) -> None:
        self.id = f"{number:032x}"
        self.number = number
        self.session = session
        self.everywhere = session_on_every_span
        self.spans: list[dict[str, Any]] = []

    def span(self, name: str, kind: str, start: int, end: int, parent: str | None = None,
             attributes: dict[str, Any] | None = None, **named: Any) -> str:
        """A span; ``named`` attributes spell their dots as ``__`` (``input__value``)."""
        span_id = f"{self.number:08x}{len(self.spans):08x}"
        attrs = {"openinference.span.kind": kind, **(attributes or {}),
                 **{k.replace("__", "."): v for k, v in named.items()}}
        if self.session and (parent is None or self.everywhere):
            attrs["session.id"] = self.session
        raw: dict[str, Any] = {"traceId": self.id, "spanId": span_id, "name": name,
                               "startTimeUnixNano": str((T0 + 60 * self.number) * 10**9 + start * 10**6),
                               "endTimeUnixNano": str((T0 + 60 * self.number) * 10**9 + end * 10**6),
                               "attributes": [{"key": k, "value": value(v)} for k, v in attrs.items()]}
        if parent:
            raw["parentSpanId"] = parent
        self.spans.append(raw)
        return span_id


def llm(trace: Trace, parent: str, start: int, end: int, *, user: str, answer: str | None = None,
        calls: list[tuple[str, str, str]] = (), tool_results: list[tuple[str, str]] = ()) -> str:
    """An LLM span: the user's message in, then ``tool_results`` ((call id, content)) fed
    back; out, either ``answer`` or the tool ``calls`` ((id, name, arguments JSON))."""
    attrs: dict[str, Any] = {"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": user}
    for k, (call_id, content) in enumerate(tool_results, start=1):
        attrs[f"llm.input_messages.{k}.message.role"] = "tool"
        attrs[f"llm.input_messages.{k}.message.content"] = content
        attrs[f"llm.input_messages.{k}.message.tool_call_id"] = call_id
    attrs["llm.output_messages.0.message.role"] = "assistant"
    if answer is not None:
        attrs["llm.output_messages.0.message.content"] = answer
    for k, (call_id, name, arguments) in enumerate(calls):
        prefix = f"llm.output_messages.0.message.tool_calls.{k}.tool_call"
        attrs.update({f"{prefix}.id": call_id, f"{prefix}.function.name": name, f"{prefix}.function.arguments": arguments})
    return trace.span("ChatOpenAI", "LLM", start, end, parent, attrs)


def retriever(trace: Trace, parent: str, start: int, end: int, query: str, docs: list[tuple[str, str]]) -> str:
    attrs: dict[str, Any] = {"input.value": query}
    for k, (doc_id, content) in enumerate(docs):
        attrs[f"retrieval.documents.{k}.document.id"] = doc_id
        attrs[f"retrieval.documents.{k}.document.content"] = content
        attrs[f"retrieval.documents.{k}.document.score"] = 1.0 - k / 10
    return trace.span("VectorStoreRetriever", "RETRIEVER", start, end, parent, attrs)


def two_session_chat() -> list[Trace]:
    """chat-a (3 turns: retrieval, a search tool call, small talk) and chat-b (2 turns: a
    convert tool call, then retrieval plus a tool the app calls itself), interleaved in time."""
    a1 = Trace(1, "chat-a")
    root = a1.span("chat", "CHAIN", 0, 900, input__value="What is the capital of France?", output__value=PARIS)
    retriever(a1, root, 10, 100, "capital of France", [("d1", PARIS), ("d2", BERLIN)])
    llm(a1, root, 200, 800, user="What is the capital of France?", answer=PARIS)

    b1 = Trace(2, "chat-b", session_on_every_span=True)
    root = b1.span("agent", "AGENT", 0, 900, input__value=json.dumps({"input": "How far is 10 km in miles?"}))
    llm(b1, root, 10, 100, user="How far is 10 km in miles?", calls=[("call-7", "convert", '{"amount": 10, "unit": "km"}')])
    b1.span("convert", "TOOL", 150, 200, root, tool__name="convert", tool_call__id="call-7",
            tool__parameters='{"type": "object", "properties": {"amount": {"type": "number"}}}',
            input__value='{"amount": 10, "unit": "km"}', output__value="6.2 miles")
    llm(b1, root, 300, 800, user="How far is 10 km in miles?", tool_results=[("call-7", "6.2 miles")],
        answer="10 km is 6.2 miles.")

    a2 = Trace(3, "chat-a")
    root = a2.span("chat", "CHAIN", 0, 900, input__value="Which river flows through it?")
    llm(a2, root, 10, 100, user="Which river flows through it?", calls=[("call-1", "search", '{"query": "river Paris"}')])
    tool = a2.span("search", "TOOL", 150, 300, root, tool__name="search", input__value="river Paris",
                   output__value=SEINE)
    retriever(a2, tool, 160, 250, "river Paris", [("d3", SEINE)])
    llm(a2, root, 400, 800, user="Which river flows through it?", tool_results=[("call-1", SEINE)], answer=SEINE)

    b2 = Trace(4, "chat-b", session_on_every_span=True)
    root = b2.span("agent", "AGENT", 0, 900, input__value="And what is the capital of Germany?",
                   output__value=json.dumps({"output": BERLIN}))
    b2.span("log_topic", "TOOL", 5, 8, root, tool__name="log_topic", input__value='{"topic": "geography"}',
            output__value="logged")
    retriever(b2, root, 10, 100, "capital of Germany", [("d2", BERLIN)])

    a3 = Trace(5, "chat-a")
    root = a3.span("chat", "CHAIN", 0, 900, input__value="Thanks!")
    llm(a3, root, 10, 800, user="Thanks!", answer="You are welcome.")
    return [a1, b1, a2, b2, a3]


def broken_sessions() -> list[Trace]:
    """chat-c: a good turn and a turn with a span whose attribute has no key; chat-d: a turn
    whose tool call's arguments are not JSON."""
    c1 = Trace(6, "chat-c", session_on_every_span=True)
    root = c1.span("chat", "CHAIN", 0, 900, input__value="Hello?")
    llm(c1, root, 10, 800, user="Hello?", answer="Hi.")
    c2 = Trace(7, "chat-c", session_on_every_span=True)
    root = c2.span("chat", "CHAIN", 0, 900, input__value="Where is Rome?")
    llm(c2, root, 10, 800, user="Where is Rome?", answer="In Italy.")
    del c2.spans[1]["attributes"][2]["key"]
    d1 = Trace(8, "chat-d")
    root = d1.span("chat", "CHAIN", 0, 900, input__value="Convert 3 km")
    llm(d1, root, 10, 100, user="Convert 3 km", calls=[("call-9", "convert", '{"amount": 3,')])
    return [c1, c2, d1]


def otlp_file(path: Path, traces: list[Trace], *, seed: int = 0) -> Path:
    """One export request holding every span, shuffled (exporters batch by time, not trace)."""
    spans = [s for t in traces for s in t.spans]
    random.Random(seed).shuffle(spans)
    path.write_text(json.dumps({"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "support-bot"}}]},
        "scopeSpans": [{"spans": spans}]}]}), encoding="utf-8")
    return path


def messages(chat: Any) -> list[dict[str, Any]]:
    return [m.model_dump(exclude_defaults=True) for m in chat.messages]


def test_two_sessions_become_two_conversations_with_their_turns_tool_calls_and_contexts(tmp_path):
    path = otlp_file(tmp_path / "traces.json", two_session_chat())
    problems: list[Any] = []
    chats = list(ingest_otlp_conversations(path, problems.append))
    assert problems == []
    assert [c.id for c in chats] == ["chat-a", "chat-b"]
    a, b = chats
    assert messages(a) == [
        {"role": "user", "content": "What is the capital of France?"},
        {"role": "assistant", "content": PARIS, "contexts": [PARIS, BERLIN]},
        {"role": "user", "content": "Which river flows through it?"},
        {"role": "assistant", "tool_calls": [{"name": "search", "arguments": {"query": "river Paris"}, "id": "call-1"}]},
        {"role": "tool", "content": SEINE, "tool_call_id": "call-1", "name": "search"},
        {"role": "assistant", "content": SEINE, "contexts": [SEINE]},  # the retriever inside the tool
        {"role": "user", "content": "Thanks!"},
        {"role": "assistant", "content": "You are welcome."},  # no retriever: no contexts
    ]
    assert messages(b) == [
        {"role": "user", "content": "How far is 10 km in miles?"},  # the "input" of a JSON input.value
        {"role": "assistant", "tool_calls": [{"name": "convert", "arguments": {"amount": 10, "unit": "km"},
                                              "id": "call-7"}]},
        {"role": "tool", "content": "6.2 miles", "tool_call_id": "call-7", "name": "convert"},
        {"role": "assistant", "content": "10 km is 6.2 miles."},
        {"role": "user", "content": "And what is the capital of Germany?"},
        # a tool no LLM asked for: a call of its own, its arguments the span's JSON input
        {"role": "assistant", "tool_calls": [{"name": "log_topic", "arguments": {"topic": "geography"},
                                              "id": f"call_{4:08x}{1:08x}"}]},
        {"role": "tool", "content": "logged", "tool_call_id": f"call_{4:08x}{1:08x}", "name": "log_topic"},
        {"role": "assistant", "content": BERLIN, "contexts": [BERLIN]},  # the root's output.value
    ]
    assert [(t.number, t.user, t.contexts) for t in a.turns()] == [
        (1, "What is the capital of France?", (PARIS, BERLIN)), (2, "Which river flows through it?", (SEINE,)),
        (3, "Thanks!", ())]
    assert [c.name for c in b.tool_calls] == ["convert", "log_topic"]
    assert a.metadata == {"started": T0 + 60.0, "ended": T0 + 60 * 5 + 0.9, "session_id": "chat-a",
                          "traces": [f"{n:032x}" for n in (1, 3, 5)], "service": "support-bot"}
    assert b.metadata["traces"] == [f"{n:032x}" for n in (2, 4)]
    # the same file read trace by trace is five single-turn samples, as before
    assert [r["question"] for r in ingest_otlp(path)][:2] == ["What is the capital of France?",
                                                            "How far is 10 km in miles?"]


def test_a_malformed_span_or_turn_is_named_and_takes_its_conversation_out_the_others_go_on(tmp_path):
    path = otlp_file(tmp_path / "traces.json", two_session_chat() + broken_sessions(), seed=3)
    problems: list[Any] = []
    chats = list(ingest_otlp_conversations(path, problems.append))
    assert [c.id for c in chats] == ["chat-a", "chat-b"]
    shown = sorted(str(p) for p in problems)
    assert shown == sorted([
        f"{path}, trace {7:032x}, span {7:08x}{1:08x}, field 'attributes[2].key': missing",
        f"{path}, session chat-c: conversation left out whole: its turn(s) in trace(s) {7:032x} could not be read "
        "(named above), and a chat missing a turn would score as a different chat",
        f"{path}, session chat-d, trace {8:032x}, span {8:08x}{1:08x}, field "
        "'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': is not valid JSON (Expecting "
        "property name enclosed in double quotes at character 13)",
        f"{path}, session chat-d: conversation left out whole: its turn(s) in trace(s) {8:032x} could not be read "
        "(named above), and a chat missing a turn would score as a different chat",
    ])


def test_monitor_scores_the_chats_of_the_traces_end_to_end(tmp_path, monkeypatch):
    """Detected by their session ids: two conversations scored, faithfulness per turn by the
    local judge, agent_goal_accuracy per conversation by the cascade's LLM (the mock server)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    path = otlp_file(tmp_path / "traces.json", two_session_chat() + broken_sessions())

    def goal(request: dict[str, Any]) -> str:  # chat-a reached its goal, chat-b did not
        text = request["messages"][-1]["content"]
        if "<conversation>" not in text:
            return scripted_judge.respond(request)  # a turn's claims the local judge sent on
        achieved = "[user 1] What is the capital of France?" in text
        return json.dumps({"agent_goal": {"goal": "g", "outcome": "o", "reason": "r", "achieved": achieved}})

    store = str(tmp_path / "runs.db")
    skipped: list[Any] = []
    with OpenAIMockServer(chat_responder=goal) as server:
        report = monitor([path], metrics=["faithfulness", "agent_goal_accuracy"], hours=None, size=10,
                         judge=f"local+openai:mock@{server.base_url}", store=store, on_problem=skipped.append,
                         show_progress=False, cache=False, journal=False, judge_options={"timeout": 5.0})
        asked = [r.json["messages"][-1]["content"] for r in server.calls("/chat/completions")]
        assert sum("<conversation>" in text for text in asked) == 2  # one per conversation
    assert report.conversations and report.sampled == 2 and report.records == 2 and len(report.skipped) == 4
    assert skipped == report.skipped
    run = RunStore(store).list(tag="production")[0]
    assert run.dataset_name == "production-chats-window.jsonl"
    assert run.summary["agent_goal_accuracy"].mean == 0.5
    faith = {w.metric: w for w in report.metrics}["faithfulness"]
    assert faith.mean == 1.0  # every turn with contexts says the passage it retrieved
    # the same from the command line with the local judge alone: faithfulness compared with the
    # run above (no drop), the conversation judgement declined and said so
    done = CliRunner().invoke(app, ["monitor", str(otlp_file(tmp_path / "t2.json", two_session_chat())),
                                    "-m", "faithfulness,agent_goal_accuracy", "--window", "0", "--store", store, "-q"])
    assert done.exit_code == 0, done.output
    assert "scored 2 of 2 conversations in the window" in done.output
    assert "faithfulness: ok: 1.000 now against 1.000" in done.output
    assert "agent_goal_accuracy: not scored in this window (NeedsLLMJudge" in done.output
    # --single-turn: the same traces as five samples
    single = CliRunner().invoke(app, ["monitor", str(tmp_path / "t2.json"), "-m", "faithfulness", "--window", "0",
                                      "--store", str(tmp_path / "other.db"), "-q", "--single-turn"])
    assert single.exit_code == 0, single.output
    assert "scored 5 of 5 samples in the window" in single.output


# ------------------------------------------------------------- a real LlamaIndex agent's trace


def test_a_real_llamaindex_agent_trace_of_two_sessions_ingests_into_two_conversations(tmp_path):
    pytest.importorskip("opentelemetry.sdk", reason="pip install opentelemetry-sdk")
    pytest.importorskip("openinference.instrumentation.llama_index")
    mock = pytest.importorskip("llama_index.core.llms.mock")
    if not hasattr(mock, "MockFunctionCallingLLM"):
        pytest.skip("llama-index-core too old for MockFunctionCallingLLM")
    import asyncio

    from llama_index.core import VectorStoreIndex
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock
    from llama_index.core.schema import TextNode
    from llama_index.core.tools import FunctionTool
    from llama_index.core.workflow import Context
    from openinference.instrumentation import using_session
    from openinference.instrumentation.llama_index import LlamaIndexInstrumentor

    docs = [PARIS, SEINE, BERLIN]
    vocabulary = sorted({w for d in docs for w in re.findall(r"[a-z]+", d.lower())} | {"river"})

    index = VectorStoreIndex([TextNode(text=d, id_=f"doc-{i}") for i, d in enumerate(docs)], embed_model=bag_of_words_embedding(vocabulary))
    retriever = index.as_retriever(similarity_top_k=2)

    def search(query: str) -> str:
        """Search the documents."""
        return "\n".join(n.get_content() for n in retriever.retrieve(query))

    def convert(amount: float, unit: str) -> str:
        """Convert a distance to miles."""
        return f"{amount * 0.621371:.1f} miles"

    script = {  # the user's message -> (the tool call the model makes, its answer once the tool answered)
        "What is the capital of France?": (("search", {"query": "capital of France"}), PARIS),
        "Which river flows through it?": (("search", {"query": "river Paris"}), SEINE),
        "How far is 10 km in miles?": (("convert", {"amount": 10, "unit": "km"}), "10 km is 6.2 miles."),
        "Thanks!": (None, "You are welcome."),
    }

    def respond(history: list[Any], **_: Any) -> Any:
        user = [m for m in history if m.role == "user"][-1].content
        call, answer = script[user]
        if call and history[-1].role != "tool":
            return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id=f"call-{len(history)}-{call[0]}",
                                                                       tool_name=call[0], tool_kwargs=call[1])])
        return ChatMessage(role="assistant", content=answer)

    sessions = {"chat-a": ["What is the capital of France?", "Which river flows through it?"],
                "chat-b": ["How far is 10 km in miles?", "Thanks!"]}

    async def chat() -> list[str]:
        replies = []
        for session, turns in sessions.items():
            agent = FunctionAgent(tools=[FunctionTool.from_defaults(search), FunctionTool.from_defaults(convert)],
                                  llm=mock.MockFunctionCallingLLM(response_generator=respond), streaming=False)
            context = Context(agent)
            for turn in turns:
                with using_session(session):
                    replies.append(str(await agent.run(turn, ctx=context)))
        return replies

    with instrumented(LlamaIndexInstrumentor()) as exporter:
        replies = asyncio.run(chat())
    assert replies == [PARIS, SEINE, "10 km is 6.2 miles.", "You are welcome."]
    path = tmp_path / "traces.json"
    path.write_text(json.dumps(otlp_json(exporter.get_finished_spans())), encoding="utf-8")
    problems: list[Any] = []
    chats = list(ingest_otlp_conversations(path, problems.append))
    assert problems == []
    assert [c.id for c in chats] == ["chat-a", "chat-b"]
    a, b = chats
    assert [(t.user, t.reply.content, t.contexts) for t in a.turns()] == [
        ("What is the capital of France?", PARIS, (PARIS, BERLIN)),
        ("Which river flows through it?", SEINE, (SEINE, PARIS))]
    assert [(c.name, c.arguments) for c in a.tool_calls] == [("search", {"query": "capital of France"}),
                                                             ("search", {"query": "river Paris"})]
    assert [m.content for m in a.messages if m.role == "tool"] == [f"{PARIS}\n{BERLIN}", f"{SEINE}\n{PARIS}"]
    assert messages(b)[:4] == [
        {"role": "user", "content": "How far is 10 km in miles?"},
        {"role": "assistant", "tool_calls": [{"name": "convert", "arguments": {"amount": 10, "unit": "km"},
                                              "id": "call-1-convert"}]},
        {"role": "tool", "content": "6.2 miles", "tool_call_id": "call-1-convert", "name": "convert"},
        {"role": "assistant", "content": "10 km is 6.2 miles."}]
    assert [(t.user, t.reply.content, t.contexts) for t in b.turns()][1] == ("Thanks!", "You are welcome.", ())


# ------------------------------------------------------------- a real LangChain agent's trace


@pytest.mark.parametrize("output_version", ["v0", "v1"])
def test_a_real_langchain_agent_trace_of_two_sessions_ingests_into_two_conversations(tmp_path, monkeypatch,
                                                                                     output_version):
    """The ``create_agent`` agent of ``test_chat_agents`` (ChatOpenAI against the mock server,
    a retriever tool over an in-memory store) held to two chats at once under
    ``openinference-instrumentation-langchain``: chat-a's session set with ``using_session``,
    chat-b's as LangChain run metadata (``thread_id``), the instrumentation's two ways. Read
    back from the OTLP JSON, the chats are what the adapter captured while running them.
    ``output_version="v1"`` has the model reply in content blocks, whose text the
    instrumentation writes only as ``message.contents.K.message_content.text``: read as
    ``message.content`` alone, every answer of that agent was lost (the turns had none)."""
    pytest.importorskip("opentelemetry.sdk", reason="pip install opentelemetry-sdk")
    pytest.importorskip("openinference.instrumentation.langchain")
    pytest.importorskip("langchain.agents")
    pytest.importorskip("langchain_openai")
    import asyncio

    from openinference.instrumentation import using_session
    from openinference.instrumentation.langchain import LangChainInstrumentor
    from test_chat_agents import ANSWERS, PASSAGES, TURNS, build_langchain_agent, tool_calling_model

    from ragmeter.adapters.chat import arun_chat, langchain_chat

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    capital, inhabitants, thanks = TURNS

    async def two_chats(agent: Any) -> list[Any]:
        async def chat_a() -> Any:
            with using_session("chat-a"):
                return await arun_chat([{"id": "chat-a", "turns": [capital, inhabitants]}], langchain_chat(agent),
                                       show_progress=False)

        chat_b = arun_chat([{"id": "chat-b", "turns": [inhabitants, thanks]}],
                           langchain_chat(agent, config={"metadata": {"thread_id": "chat-b"}}), show_progress=False)
        return list(await asyncio.gather(chat_a(), chat_b))  # their turns interleave, as production traffic does

    with OpenAIMockServer(chat_responder=tool_calling_model) as server:
        agent = build_langchain_agent(server.base_url, output_version=output_version)
        with instrumented(LangChainInstrumentor()) as exporter:
            runs = asyncio.run(two_chats(agent))
        spans = exporter.get_finished_spans()
        agent.invoke({"messages": [{"role": "user", "content": thanks}]})  # uninstrumented: traced no more
        assert len(exporter.get_finished_spans()) == len(spans)
    assert [run.errors for run in runs] == [[], []]
    path = tmp_path / "traces.json"
    path.write_text(json.dumps(otlp_json(spans)), encoding="utf-8")

    problems: list[Any] = []
    chats = list(ingest_otlp_conversations(path, problems.append))
    assert problems == []
    assert sorted(c.id for c in chats) == ["chat-a", "chat-b"]
    a, b = sorted(chats, key=lambda c: c.id)
    assert len(a.metadata["traces"]) == len(b.metadata["traces"]) == 2  # a trace per turn

    def turn(user: str, query: str | None, found: list[str]) -> list[dict[str, Any]]:
        """One turn as the agent held it, the call ids left out (the server numbers them)."""
        if query is None:
            return [{"role": "user", "content": user}, {"role": "assistant", "content": ANSWERS[user]}]
        return [{"role": "user", "content": user},
                {"role": "assistant", "tool_calls": [{"name": "search", "arguments": {"query": query}}]},
                {"role": "tool", "content": "\n\n".join(found), "name": "search"},
                {"role": "assistant", "content": ANSWERS[user], "contexts": found}]

    def without_ids(chat: Any) -> list[dict[str, Any]]:
        shown = messages(chat)
        for m in shown:
            for call in m.get("tool_calls", []):
                call.pop("id")
            m.pop("tool_call_id", None)
        return shown

    # the retriever's two passages in rank order (the mock embeds by words shared with the query)
    france = [PASSAGES[0], PASSAGES[2]]
    paris = [PASSAGES[1], PASSAGES[0]]
    assert without_ids(a) == turn(capital, "capital of France", france) + turn(inhabitants, "Paris inhabitants", paris)
    assert without_ids(b) == turn(inhabitants, "Paris inhabitants", paris) + turn(thanks, None, [])
    for chat in (a, b):  # each result answers its call
        calls = [c.id for c in chat.tool_calls]
        assert [m.tool_call_id for m in chat.messages if m.role == "tool"] == calls and all(calls)
    assert [(t.user, t.reply.content, t.contexts) for t in b.turns()] == [
        (inhabitants, ANSWERS[inhabitants], tuple(paris)), (thanks, ANSWERS[thanks], ())]
    # read from the trace, each chat is the one the adapter recorded while the agent held it
    held = {run.dataset.samples[0].id: run.dataset.samples[0] for run in runs}
    assert messages(a) == messages(held["chat-a"]) and messages(b) == messages(held["chat-b"])
    # and trace by trace, each turn's answer is the agent's, in content blocks or not
    assert sorted(r["answer"] for r in ingest_otlp(path)) == sorted(ANSWERS[t] for t in (capital, inhabitants,
                                                                                          inhabitants, thanks))
