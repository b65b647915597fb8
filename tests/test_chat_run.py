"""Chat apps and agents run turn by turn over scripted conversations, offline: a LangChain
agent with a retriever tool (a fake chat model deciding the calls) and a LlamaIndex context
chat engine (mock LLM and embeddings), each over a three-turn script, their tool calls
captured and the conversations scored end to end."""

from __future__ import annotations

import json

import pytest

from ragmeter import evaluate_conversations
from ragmeter.adapters.chat import langchain_chat, llamaindex_chat, run_chat
from ragmeter.conversations import ToolCall
from ragmeter.testing import OpenAIMockServer, scripted_judge

PASSAGES = ["Paris is the capital of France.", "Paris has 2.1 million inhabitants.", "Lyon lies on the Rhone."]
SCRIPT = {"id": "france", "turns": ["What is the capital of France?", "How many people live there?", "Thanks!"],
          "reference_tool_calls": [{"name": "search", "arguments": {"query": "capital of France"}},
                                   {"name": "search", "arguments": {"query": "Paris inhabitants"}}],
          "retrieval_tools": ["search"]}


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def langchain_agent():
    """A tool-calling agent loop in LangChain's message protocol: the model (fake, scripted
    replies) calls the retriever tool until it answers."""
    from langchain_core.documents import Document
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage, ToolMessage
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnableLambda
    from langchain_core.tools import create_retriever_tool

    class KeywordRetriever(BaseRetriever):
        def _get_relevant_documents(self, query, *, run_manager):
            words = {w.lower() for w in query.split()}
            shared = {p: len(words & {w.lower().strip(".") for w in p.split()}) for p in PASSAGES}
            best = max(PASSAGES, key=shared.__getitem__)  # the passage sharing most words
            return [Document(page_content=best)] if shared[best] else []

    search = create_retriever_tool(KeywordRetriever(), "search", "Search the encyclopaedia.")
    model = FakeMessagesListChatModel(responses=[
        AIMessage("", tool_calls=[{"name": "search", "args": {"query": "capital of France"}, "id": "a"}]),
        AIMessage("Paris is the capital of France."),
        AIMessage("", tool_calls=[{"name": "search", "args": {"query": "Paris inhabitants"}, "id": "b"}]),
        AIMessage("Paris has 2.1 million inhabitants. It lies on the Seine."),
        AIMessage("You are welcome."),
    ])

    async def agent(inputs):
        messages = list(inputs["messages"])
        while True:
            reply = await model.ainvoke(messages)
            messages.append(reply)
            if not reply.tool_calls:
                return {"messages": messages}
            for call in reply.tool_calls:
                result = await search.ainvoke(call["args"])
                messages.append(ToolMessage(result, tool_call_id=call["id"], name=call["name"]))

    return RunnableLambda(agent)


def test_a_langchain_agent_with_a_retriever_tool_runs_turn_by_turn_and_is_scored_end_to_end():
    run = run_chat([SCRIPT], langchain_chat(langchain_agent()), system="Answer from the encyclopaedia.",
                   show_progress=False)
    assert not run.errors
    (chat,) = run.dataset.samples
    assert [m.role for m in chat.messages] == ["system", "user", "assistant", "tool", "assistant", "user",
                                               "assistant", "tool", "assistant", "user", "assistant"]
    assert chat.tool_calls == [ToolCall(name="search", arguments={"query": "capital of France"}, id="a"),
                               ToolCall(name="search", arguments={"query": "Paris inhabitants"}, id="b")]
    assert [t.contexts for t in chat.turns()] == [(PASSAGES[0],), (PASSAGES[1],), ()]
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        result = evaluate_conversations(run.dataset, ["tool_call_accuracy", "tool_call_f1", "faithfulness"],
                                        judge=f"openai:mock@{server.base_url}", show_progress=False, journal=False,
                                        record=False, cache=False)
    assert result["tool_call_accuracy"] == [1.0] and result["tool_call_f1"] == [1.0]
    # turn 1 supported; turn 2: "It lies on the Seine." is not in the passage (1 of 2); turn 3 has no contexts
    assert result["faithfulness"] == [pytest.approx(0.75)]
    assert result.samples[0].scores["faithfulness"].reason == "mean of 2 turns: turn 1 1.00, turn 2 0.50"


def test_a_llamaindex_chat_engine_runs_turn_by_turn_with_its_retrieval_captured():
    from llama_index.core import Document, VectorStoreIndex
    from llama_index.core.chat_engine import ContextChatEngine
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.llms import MockLLM

    index = VectorStoreIndex.from_documents([Document(text=p) for p in PASSAGES], embed_model=MockEmbedding(embed_dim=8))
    engine = ContextChatEngine.from_defaults(retriever=index.as_retriever(similarity_top_k=2), llm=MockLLM(max_tokens=4))
    script = {"id": "france", "turns": SCRIPT["turns"], "retrieval_tools": ["retriever"],
              "reference_tool_calls": [{"name": "retriever", "arguments": {"message": t}} for t in SCRIPT["turns"]]}
    run = run_chat([script], llamaindex_chat(engine), show_progress=False)
    assert not run.errors
    (chat,) = run.dataset.samples
    assert [m.role for m in chat.messages] == ["user", "assistant", "tool", "assistant"] * 3
    assert [c.arguments for c in chat.tool_calls] == [{"message": t} for t in SCRIPT["turns"]]
    replies = [t.reply for t in chat.turns()]
    assert [r.content for r in replies] == ["text text text text"] * 3  # MockLLM's reply
    assert all(len(r.contexts) == 2 and set(r.contexts) <= set(PASSAGES) for r in replies)  # the nodes it read
    result = evaluate_conversations(run.dataset, ["tool_call_accuracy", "tool_call_f1"], show_progress=False,
                                    journal=False, record=False, cache=False)
    assert result["tool_call_accuracy"] == [1.0] and result["tool_call_f1"] == [1.0]


def test_a_failing_turn_ends_its_conversation_and_bad_scripts_are_named(tmp_path):
    def app(messages):
        if messages[-1]["content"] == "boom":
            raise RuntimeError("the model is down")
        return {"answer": f"echo {messages[-1]['content']}", "contexts": ["passage"]}

    path = tmp_path / "scripts.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in [
        {"id": "ok", "turns": ["hi", "again"]},
        {"id": "broken", "turns": ["hi", "boom", "never sent"]},
        {"id": "empty", "turns": []},
    ]) + "\n")
    run = run_chat(str(path), app, show_progress=False)
    assert [s.id for s in run.dataset.samples] == ["ok", "broken"]
    ok, broken = run.dataset.samples
    assert [t.reply.content for t in ok.turns()] == ["echo hi", "echo again"] and ok.turns()[1].contexts == ("passage",)
    assert [m.content for m in broken.messages] == ["hi", "echo hi", "boom"]
    assert broken.metadata["app_error"] == "turn 2: RuntimeError: the model is down"
    assert [(e.row, e.id, e.error) for e in run.errors] == [(1, "broken", "turn 2: RuntimeError: the model is down")]
    assert [(e.row, e.field) for e in run.dataset.errors] == [(2, "turns")]


def test_cli_runs_a_chat_app_over_scripts_then_evaluates_the_conversations(tmp_path):
    from typer.testing import CliRunner

    from ragmeter.cli.app import app

    (tmp_path / "my_chat.py").write_text(
        "PASSAGES = {'capital': 'Paris is the capital of France.', 'people': 'Paris has 2.1 million inhabitants.'}\n"
        "def chat(messages):\n"
        "    asked = messages[-1]['content']\n"
        "    key = 'capital' if 'capital' in asked else 'people'\n"
        "    call = {'id': f'c{len(messages)}', 'type': 'function',\n"
        "            'function': {'name': 'search', 'arguments': '{\"topic\": \"' + key + '\"}'}}\n"
        "    return [{'role': 'assistant', 'content': None, 'tool_calls': [call]},\n"
        "            {'role': 'tool', 'tool_call_id': call['id'], 'content': PASSAGES[key]},\n"
        "            {'role': 'assistant', 'content': PASSAGES[key]}]\n")
    scripts = tmp_path / "scripts.jsonl"
    scripts.write_text(json.dumps({"id": "france", "turns": ["What is the capital of France?", "How many people?"],
                                   "retrieval_tools": ["search"], "reference_tool_calls": [
                                       {"name": "search", "arguments": {"topic": "capital"}},
                                       {"name": "search", "arguments": {"topic": "people"}}]}) + "\n")
    chats = tmp_path / "chats.jsonl"
    ran = CliRunner().invoke(app, ["run", str(scripts), "--conversations", "--app", f"{tmp_path / 'my_chat.py'}:chat",
                                   "--out", str(chats), "-q"])
    assert ran.exit_code == 0, ran.output
    assert "1 of 1 conversations held to the end" in ran.output
    scored = CliRunner().invoke(app, ["evaluate", str(chats), "--conversations", "-m", "tool_call_accuracy,tool_call_f1",
                                      "--no-record", "-q"], env={"COLUMNS": "200"})
    assert scored.exit_code == 0, scored.output
    assert "tool_call_accuracy │ 1.000" in scored.output and "tool_call_f1       │ 1.000" in scored.output


def test_cli_runs_both_script_forms_and_its_help_documents_them(tmp_path):
    """``{"turns": [...]}`` and a messages-only conversation record (what ``generate
    --conversations`` writes): the user messages are sent, the recorded replies become each
    turn's reference and are never sent; a line with no user turn is named, the rest run."""
    from typer.testing import CliRunner

    from ragmeter.cli.app import app

    (tmp_path / "echo.py").write_text("def chat(messages):\n"
                                      "    sent = [m['role'][0] + ':' + m['content'] for m in messages]\n"
                                      "    return {'answer': ' | '.join(sent), 'contexts': ['a passage']}\n")
    scripts = tmp_path / "scripts.jsonl"
    scripts.write_text("".join(json.dumps(s) + "\n" for s in [
        {"id": "bare", "turns": ["hi", "again"]},
        {"id": "recorded", "reference": "Paris, 2.1 million people.", "messages": [
            {"role": "user", "content": "Capital of France?"},
            {"role": "assistant", "content": "Paris.", "reference": "Paris is the capital."},
            {"role": "user", "content": "How many live there?"},
            {"role": "assistant", "content": "2.1 million."}]},
        {"id": "no-user", "messages": [{"role": "assistant", "content": "Hello."}]},
    ]))
    chats = tmp_path / "chats.jsonl"
    ran = CliRunner().invoke(app, ["run", str(scripts), "--conversations", "--app", f"{tmp_path / 'echo.py'}:chat",
                                   "--out", str(chats), "-q"], env={"COLUMNS": "200"})
    assert ran.exit_code == 0, ran.output
    # without spaces: rich breaks the long temporary path inside the path itself
    assert "".join(("skipped row 2 (line 3), field 'turns': conversation 'no-user': a script needs its user turns: a "
                    "non-empty list of texts, or messages with a user message").split()) in "".join(ran.output.split())
    assert "2 of 2 conversations held to the end" in ran.output
    bare, recorded = [json.loads(line) for line in chats.read_text().splitlines()]

    def said(record):
        return [(m["role"], m["content"], m.get("reference")) for m in record["messages"]]

    assert said(bare) == [("user", "hi", None), ("assistant", "u:hi", None),
                          ("user", "again", None), ("assistant", "u:hi | a:u:hi | u:again", None)]
    assert said(recorded) == [  # the app saw its own replies, not the recorded ones
        ("user", "Capital of France?", None), ("assistant", "u:Capital of France?", "Paris is the capital."),
        ("user", "How many live there?", None),
        ("assistant", "u:Capital of France? | a:u:Capital of France? | u:How many live there?", "2.1 million.")]
    assert recorded["reference"] == "Paris, 2.1 million people."
    shown = " ".join(CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "200"}).output.replace("│", " ").split())
    assert ('one per line: {"turns": ["a user message", ...]}, or a conversation\'s {"messages": [...]} (as generate '
            "--conversations writes them), whose user messages are the turns and each assistant message the reference "
            "of the turn before it.") in shown
