"""Evaluate a LangChain agent over a scripted conversation: hold the conversation with it one
user message at a time, keep its tool calls, their results and the documents its retriever
tool returned, and score the conversation (tool calls against the expected ones, and each
answer's faithfulness to what it retrieved) with the local judge.

    python recipes/langchain_agent.py

The agent is `langchain.agents.create_agent` with a retriever tool over an
`InMemoryVectorStore` (the bundled MiniLM embeddings) and `ChatOpenAI` as its model. So that
the recipe runs offline, `ChatOpenAI` talks to ragmeter's local OpenAI-compatible test server,
where a few rules play the model (search on a question, answer from what the search found).
In your app the model is `ChatOpenAI(model="gpt-4o-mini")` and nothing else changes.

From the command line, the same run is
`ragmeter run scenarios.jsonl --conversations --app my_agent.py:build_agent --out chats.jsonl`
(`build_agent` a function of no argument that returns the agent), then
`ragmeter evaluate chats.jsonl --conversations -m tool_call_accuracy,tool_call_f1,faithfulness`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from langchain.agents import create_agent
from langchain_core.documents import Document
from langchain_core.tools import create_retriever_tool
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_openai import ChatOpenAI

from ragmeter import evaluate_conversations
from ragmeter.adapters.chat import langchain_chat, run_chat
from ragmeter.testing import OpenAIMockServer, Reply

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import extractive_answer, knowledge_base, print_result  # noqa: E402
from langchain_app import MiniLM  # noqa: E402

SCENARIOS = [
    {"id": "trip-planning",
     "turns": ["How high is Mount Kilimanjaro and in which country is it?",
               "Why does water boil at a lower temperature at high altitude?",
               "Thanks, that is all."],
     # what the agent should have done: one search per question, with the question as the query
     "reference_tool_calls": [
         {"name": "search", "arguments": {"query": "How high is Mount Kilimanjaro and in which country is it?"}},
         {"name": "search", "arguments": {"query": "Why does water boil at a lower temperature at high altitude?"}}]},
]


def offline_model(request: dict) -> Reply:
    """The model's side, played by rules: search on a question, answer from the search's result
    (the sentence that shares most words with the question), thank on anything else."""
    messages = request["messages"]
    asked = next(m["content"] for m in reversed(messages) if m["role"] == "user")
    if messages[-1]["role"] == "tool":
        return Reply(content=extractive_answer(asked, messages[-1]["content"].split("\n\n")))
    if asked.rstrip().endswith("?"):
        return Reply(tool_calls=[{"name": "search", "arguments": {"query": asked}}])
    return Reply(content="You are welcome.")


def build_agent(base_url: str):
    store = InMemoryVectorStore(MiniLM())
    store.add_documents([Document(page_content=p["text"], metadata={"id": p["id"]}) for p in knowledge_base()])
    search = create_retriever_tool(store.as_retriever(search_kwargs={"k": 2}), "search",
                                   "Search the knowledge base; give it the user's question.")
    model = ChatOpenAI(model="gpt-4o-mini", base_url=base_url, api_key="offline", max_retries=0)
    return create_agent(model, [search], system_prompt="Answer from the knowledge base only.")


def main() -> None:
    with OpenAIMockServer(chat_responder=offline_model) as server:
        run = run_chat(SCENARIOS, langchain_chat(build_agent(server.base_url)), show_progress=False)
    for error in run.errors:
        print("failed:", error)
    for chat in run.dataset.samples:
        print(f"conversation {chat.id}: {len(chat.turns())} answers, tool calls:")
        for call in chat.tool_calls:
            print(f"  {call.name}({call.arguments})")
        for turn in chat.turns():
            print(f"  turn {turn.number}: {len(turn.contexts)} contexts; answer: {turn.reply.content[:70]}")
    result = evaluate_conversations(run.dataset, ["tool_call_accuracy", "tool_call_f1", "faithfulness"],
                                    judge="local", journal=False, show_progress=False)
    print_result(result)
    print(result.turns_to_pandas().to_string())


if __name__ == "__main__":
    main()
