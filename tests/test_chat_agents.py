"""Real agents held to a three-turn scripted conversation, offline, scored end to end.

A LangChain agent (``langchain.agents.create_agent``, a LangGraph graph) with a retriever
tool over an in-memory vector store, its chat model ``ChatOpenAI`` and its embeddings
``OpenAIEmbeddings`` talking to the project's mock OpenAI server on 127.0.0.1; and a
LlamaIndex ``ReActAgent`` (a workflow agent) with a ``RetrieverTool`` over a keyword-table
index, its model a LlamaIndex ``CustomLLM`` over the OpenAI SDK and the same server. The
server plays the provider: on the first request of a turn it asks for the search tool, after
the tool's result it answers from it. Everything between (the agent loop, tool calling and
parsing, retrieval, the callbacks and events ragmeter captures them with) is the libraries'
own code.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragmeter import evaluate_conversations
from ragmeter.adapters.chat import as_chat_app, langchain_chat, llamaindex_chat, run_chat
from ragmeter.conversations import ToolCall
from ragmeter.testing import OpenAIMockServer, Reply, scripted_judge

pytest.importorskip("langchain.agents")
pytest.importorskip("langchain_openai")

PASSAGES = ["Paris is the capital of France.", "Paris has 2.1 million inhabitants.", "Lyon lies on the Rhone."]
TURNS = ["What is the capital of France?", "How many people live in Paris?", "Thanks!"]
QUERIES = {TURNS[0]: "capital of France", TURNS[1]: "Paris inhabitants"}
"""What the "model" searches for on each user message; "Thanks!" needs no search."""
ANSWERS = {TURNS[0]: "Paris is the capital of France.",
           TURNS[1]: "Paris has 2.1 million inhabitants. It lies on the Seine.",  # the second claim is not in the passages
           TURNS[2]: "You are welcome."}
SCRIPT = {"id": "france", "turns": TURNS,
          "reference_tool_calls": [{"name": "search", "arguments": {"query": "capital of France"}},
                                   {"name": "search", "arguments": {"query": "Paris inhabitants"}}]}


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def last_user(messages: list[dict[str, Any]]) -> str:
    return next(m["content"] for m in reversed(messages) if m["role"] == "user")


def tool_calling_model(request: dict[str, Any]) -> Reply:
    """The provider's side of a tool-calling chat model: a search on a user message that needs
    one, the turn's answer once the tool has answered."""
    messages = request["messages"]
    asked = last_user(messages)
    if messages[-1]["role"] == "user" and asked in QUERIES:
        assert [t["function"]["name"] for t in request["tools"]] == ["search"]  # the agent offered its tool
        return Reply(tool_calls=[{"name": "search", "arguments": {"query": QUERIES[asked]}}])
    return Reply(content=ANSWERS[asked])


def build_langchain_agent(base_url: str, **model_options: Any) -> Any:
    """The agent: ``model_options`` go to its ``ChatOpenAI`` (``output_version="v1"`` for
    replies in content blocks)."""
    from langchain.agents import create_agent
    from langchain_core.documents import Document
    from langchain_core.tools import create_retriever_tool
    from langchain_core.vectorstores import InMemoryVectorStore
    from langchain_openai import ChatOpenAI, OpenAIEmbeddings

    embeddings = OpenAIEmbeddings(model="text-embedding-3-small", base_url=base_url, api_key="sk-test",
                                  check_embedding_ctx_length=False, max_retries=0)
    store = InMemoryVectorStore.from_documents([Document(page_content=p) for p in PASSAGES], embeddings)
    search = create_retriever_tool(store.as_retriever(search_kwargs={"k": 2}), "search", "Search the encyclopaedia.")
    model = ChatOpenAI(model="gpt-4o-mini", base_url=base_url, api_key="sk-test", max_retries=0, **model_options)
    return create_agent(model, [search], system_prompt="Answer from the encyclopaedia.")


def test_a_langchain_agent_with_a_retriever_tool_is_run_turn_by_turn_and_scored_end_to_end():
    with OpenAIMockServer(chat_responder=tool_calling_model) as server:
        agent = build_langchain_agent(server.base_url)
        run = run_chat([SCRIPT], langchain_chat(agent), show_progress=False)
        model_calls = len(server.calls("/chat/completions"))
    assert not run.errors
    assert model_calls == 5  # search + answer, search + answer, answer
    (chat,) = run.dataset.samples
    assert [m.role for m in chat.messages] == ["user", "assistant", "tool", "assistant"] * 2 + ["user", "assistant"]
    assert [(c.name, c.arguments) for c in chat.tool_calls] == [("search", {"query": "capital of France"}),
                                                                ("search", {"query": "Paris inhabitants"})]
    results = [m for m in chat.messages if m.role == "tool"]
    assert [m.name for m in results] == ["search", "search"]
    assert [m.tool_call_id for m in results] == [c.id for c in chat.tool_calls]  # each result answers its call
    turns = chat.turns()
    assert [t.reply.content for t in turns] == [ANSWERS[t] for t in TURNS]
    # the retriever's documents, one passage each in rank order (the tool message joins them)
    assert turns[0].contexts[0] == PASSAGES[0] and turns[1].contexts[0] == PASSAGES[1]
    assert [len(t.contexts) for t in turns] == [2, 2, 0]
    assert all(set(t.contexts) <= set(PASSAGES) for t in turns)
    assert results[0].content == "\n\n".join(turns[0].contexts)

    with OpenAIMockServer(chat_responder=scripted_judge.respond) as judge:
        result = evaluate_conversations(run.dataset, ["tool_call_accuracy", "tool_call_f1", "faithfulness"],
                                        judge=f"openai:mock@{judge.base_url}", show_progress=False, journal=False,
                                        record=False, cache=False)
    assert result["tool_call_accuracy"] == [1.0] and result["tool_call_f1"] == [1.0]
    # turn 1 supported; turn 2: "It lies on the Seine." is in no passage (1 of 2); turn 3 retrieved nothing
    assert result["faithfulness"] == [pytest.approx(0.75)]
    assert result.samples[0].scores["faithfulness"].reason == "mean of 2 turns: turn 1 1.00, turn 2 0.50"


def test_a_wrong_tool_argument_of_the_agent_costs_its_share_of_tool_call_accuracy():
    def sloppy(request: dict[str, Any]) -> Reply:
        reply = tool_calling_model(request)
        if reply.tool_calls and last_user(request["messages"]) == TURNS[1]:
            reply.tool_calls = [{"name": "search", "arguments": {"query": "Paris"}}]
        return reply

    with OpenAIMockServer(chat_responder=sloppy) as server:
        run = run_chat([SCRIPT], langchain_chat(build_langchain_agent(server.base_url)), show_progress=False)
    assert [c.arguments for c in run.dataset.samples[0].tool_calls] == [{"query": "capital of France"}, {"query": "Paris"}]
    result = evaluate_conversations(run.dataset, ["tool_call_accuracy", "tool_call_f1"], show_progress=False,
                                    journal=False, record=False, cache=False)
    assert result["tool_call_accuracy"] == [0.5] and result["tool_call_f1"] == [0.5]


def react_model(request: dict[str, Any]) -> str:
    """The provider's side of a ReAct agent's model: an action on a user message that needs a
    search, the answer after the observation."""
    messages = request["messages"]
    last = messages[-1]["content"]
    asked = last_user([m for m in messages if not m["content"].startswith("Observation:")])
    if last.startswith("Observation:") or asked not in QUERIES:
        return f"Thought: I can answer without using any more tools.\nAnswer: {ANSWERS[asked]}"
    return f'Thought: I need to search.\nAction: search\nAction Input: {json.dumps({"input": QUERIES[asked]})}'


def server_llm(base_url: str) -> Any:
    """A LlamaIndex LLM over the OpenAI SDK. LlamaIndex's own OpenAI LLM
    (llama-index-llms-openai) needs an older ``openai`` than the one the lock pins, so the
    few lines it would take are written here: each chat is one chat-completions request."""
    from llama_index.core.llms import ChatMessage, ChatResponse, CompletionResponse, CustomLLM, LLMMetadata
    from openai import OpenAI

    class ServerLLM(CustomLLM):
        base_url: str

        @property
        def metadata(self) -> LLMMetadata:
            return LLMMetadata(is_chat_model=True, model_name="mock-model")

        def chat(self, messages, **kwargs):
            client = OpenAI(base_url=self.base_url, api_key="sk-test", max_retries=0)
            reply = client.chat.completions.create(
                model="mock-model", messages=[{"role": m.role.value, "content": m.content or ""} for m in messages])
            return ChatResponse(message=ChatMessage(role="assistant", content=reply.choices[0].message.content))

        def complete(self, prompt, formatted=False, **kwargs):
            return CompletionResponse(text=self.chat([ChatMessage(role="user", content=prompt)]).message.content)

        def stream_complete(self, prompt, formatted=False, **kwargs):
            raise NotImplementedError("the agent runs with streaming=False")

    return ServerLLM(base_url=base_url)


def test_a_llamaindex_react_agent_has_its_tool_calls_and_retrieved_nodes_captured():
    from llama_index.core import Document, SimpleKeywordTableIndex
    from llama_index.core.agent.workflow import ReActAgent
    from llama_index.core.tools import RetrieverTool

    with OpenAIMockServer(chat_responder=react_model) as server:
        llm = server_llm(server.base_url)
        index = SimpleKeywordTableIndex.from_documents([Document(text=p) for p in PASSAGES], llm=llm)
        search = RetrieverTool.from_defaults(index.as_retriever(), name="search", description="Search the encyclopaedia.")
        agent = ReActAgent(tools=[search], llm=llm, streaming=False)
        app = as_chat_app(agent)  # recognised as a LlamaIndex agent, as `run --app` does
        script = {**SCRIPT, "reference_tool_calls": [{"name": "search", "arguments": {"input": q}} for q in QUERIES.values()]}
        run = run_chat([script], app, show_progress=False)
        model_calls = len(server.calls("/chat/completions"))
    assert not run.errors
    assert model_calls == 5
    (chat,) = run.dataset.samples
    assert [m.role for m in chat.messages] == ["user", "assistant", "tool", "assistant"] * 2 + ["user", "assistant"]
    assert [(c.name, c.arguments) for c in chat.tool_calls] == [("search", {"input": "capital of France"}),
                                                                ("search", {"input": "Paris inhabitants"})]
    turns = chat.turns()
    assert [t.reply.content for t in turns] == [ANSWERS[t] for t in TURNS]
    # the keyword table's nodes: every passage sharing a keyword with the query, one passage each
    assert [set(t.contexts) for t in turns] == [{PASSAGES[0]}, {PASSAGES[0], PASSAGES[1]}, set()]
    assert [json.loads(m.content) for m in chat.messages if m.role == "tool"] == [list(t.contexts) for t in turns[:2]]
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as judge:
        result = evaluate_conversations(run.dataset, ["tool_call_accuracy", "tool_call_f1", "faithfulness"],
                                        judge=f"openai:mock@{judge.base_url}", show_progress=False, journal=False,
                                        record=False, cache=False)
    assert result["tool_call_accuracy"] == [1.0] and result["tool_call_f1"] == [1.0]
    # turn 2's "It lies on the Seine." is in no node it read (the local judge says the same, in 30 s)
    assert result["faithfulness"] == [pytest.approx(0.75)]
    assert result.samples[0].scores["faithfulness"].reason == "mean of 2 turns: turn 1 1.00, turn 2 0.50"


def test_cli_runs_a_langchain_agent_built_by_a_factory_over_scripts(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from ragmeter.cli.app import app

    (tmp_path / "support_agent.py").write_text(
        "import os\n"
        "from langchain.agents import create_agent\n"
        "from langchain_core.documents import Document\n"
        "from langchain_core.tools import create_retriever_tool\n"
        "from langchain_core.vectorstores import InMemoryVectorStore\n"
        "from langchain_openai import ChatOpenAI, OpenAIEmbeddings\n"
        f"PASSAGES = {PASSAGES!r}\n"
        "def make_agent():\n"
        "    url = os.environ['AGENT_BASE_URL']\n"
        "    embeddings = OpenAIEmbeddings(base_url=url, check_embedding_ctx_length=False)\n"
        "    store = InMemoryVectorStore.from_documents([Document(page_content=p) for p in PASSAGES], embeddings)\n"
        "    search = create_retriever_tool(store.as_retriever(), 'search', 'Search the encyclopaedia.')\n"
        "    return create_agent(ChatOpenAI(model='gpt-4o-mini', base_url=url), [search])\n")
    scripts = tmp_path / "scenarios.jsonl"
    scripts.write_text(json.dumps(SCRIPT) + "\n")
    chats = tmp_path / "chats.jsonl"
    with OpenAIMockServer(chat_responder=tool_calling_model) as server:
        monkeypatch.setenv("AGENT_BASE_URL", server.base_url)
        ran = CliRunner().invoke(app, ["run", str(scripts), "--conversations", "--app",
                                       f"{tmp_path / 'support_agent.py'}:make_agent", "--out", str(chats), "-q"])
    assert ran.exit_code == 0, ran.output
    assert "1 of 1 conversations held to the end" in ran.output
    (record,) = [json.loads(line) for line in chats.read_text().splitlines()]
    calls = [c for m in record["messages"] for c in m.get("tool_calls", [])]
    assert [(c["name"], c["arguments"]) for c in calls] == [("search", {"query": "capital of France"}),
                                                            ("search", {"query": "Paris inhabitants"})]
    scored = CliRunner().invoke(app, ["evaluate", str(chats), "--conversations", "-m", "tool_call_accuracy,tool_call_f1",
                                      "--no-record", "-q"], env={"COLUMNS": "200"})
    assert scored.exit_code == 0, scored.output
    assert "tool_call_accuracy │ 1.000" in scored.output and "tool_call_f1       │ 1.000" in scored.output
