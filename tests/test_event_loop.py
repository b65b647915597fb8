"""Repeated runs in one process share one event loop, so clients cached per process work.

langchain-openai keeps one async HTTP client per process. Before the shared loop, every
``run_app`` and ``evaluate`` ran on a new loop closed at its end, and the second call in a
process sent requests through connections of a closed loop: ``RuntimeError: Event loop is
closed`` on a share of its questions. The model here caches its client the same way and
talks HTTP to the OpenAI mock server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, ClassVar

import pytest

pytest.importorskip("langchain_core")

import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnableParallel, RunnablePassthrough

from ragmeter import evaluate
from ragmeter.adapters import run_app
from ragmeter.adapters.langchain import judge_from
from ragmeter.runtime.loop import run_sync, shared_loop
from ragmeter.testing import scripted_judge
from ragmeter.testing.openai_server import OpenAIMockServer

CONTEXTS = {
    "How does the Alpha ledger store records?": "The Alpha ledger stores every record in an append-only log.",
    "Which transport does the Beta protocol use?": "Beta is a messaging protocol between services. It runs over TCP.",
    "When do Gamma cache entries expire?": "The Gamma cache keeps hot entries in memory. Entries expire after ten minutes.",
    "How often are failed Delta jobs retried?": "Delta schedules batch jobs. Failed jobs are retried three times.",
}
APP_MARKER = "Answer from this context only"
PROMPT = ChatPromptTemplate.from_messages([("system", APP_MARKER + ":\n{context}"), ("human", "{question}")])


def responder(request: dict[str, Any]) -> str:
    """The app's prompt gets its context's first sentence back; judge prompts the scripted judge."""
    system = str(request["messages"][0].get("content", ""))
    if system.startswith(APP_MARKER):
        return system.split("\n", 1)[1].split(". ")[0].rstrip(".") + "."
    return scripted_judge.respond(request)


class CachedClientChatModel(BaseChatModel):
    """A chat model that keeps one ``openai.AsyncOpenAI`` client for the whole process, as
    langchain-openai does: the client's connections belong to the loop they were opened on."""

    base_url: str
    client: ClassVar[openai.AsyncOpenAI | None] = None

    @property
    def _llm_type(self) -> str:
        return "cached-client-chat"

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        raise NotImplementedError("async only")

    async def _agenerate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        if CachedClientChatModel.client is None:
            CachedClientChatModel.client = openai.AsyncOpenAI(base_url=self.base_url, api_key="test", max_retries=0)
        roles = {"system": "system", "human": "user", "ai": "assistant"}
        response = await CachedClientChatModel.client.chat.completions.create(
            model="mock-model", messages=[{"role": roles[m.type], "content": m.content} for m in messages])
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=response.choices[0].message.content))])


@pytest.fixture()
def server():
    with OpenAIMockServer(chat_responder=responder) as srv:
        yield srv
    CachedClientChatModel.client = None


def test_run_app_then_evaluate_three_times_in_one_process(server):
    model = CachedClientChatModel(base_url=server.base_url)
    retrieve = RunnableLambda(lambda question: [CONTEXTS[question]])
    answer = RunnableLambda(lambda x: {"context": x["contexts"][0], "question": x["question"]}) | PROMPT | model | StrOutputParser()
    chain = RunnableParallel(contexts=retrieve, question=RunnablePassthrough()).assign(answer=answer)
    records = [{"question": q} for q in CONTEXTS]
    for round_ in range(3):
        ran = run_app(records, chain, concurrency=4, show_progress=False)  # a Runnable object, wrapped
        assert ran.errors == [], (round_, [str(e) for e in ran.errors])
        assert [s.answer for s in ran.dataset.samples] == [c.split(". ")[0].rstrip(".") + "." for c in CONTEXTS.values()]
        judge = judge_from(model, cache=False)
        result = evaluate(ran.dataset, ["faithfulness"], judge=judge, show_progress=False, journal=False)
        assert result["faithfulness"] == [1.0] * len(CONTEXTS), (round_, [str(e) for e in result.errors()])
        assert judge.usage.failures == 0
    chat_calls = server.calls("/chat/completions")
    assert len(chat_calls) == 3 * (len(CONTEXTS) + 2 * len(CONTEXTS))  # answers, then claims + verdicts


def test_one_loop_serves_every_call_and_survives_an_error():
    async def where() -> tuple[asyncio.AbstractEventLoop, str]:
        return asyncio.get_running_loop(), threading.current_thread().name

    async def boom() -> None:
        raise ValueError("raised inside the loop")

    first, name = run_sync(where)
    with pytest.raises(ValueError, match="raised inside the loop"):
        run_sync(boom)
    second, _ = run_sync(where)
    assert first is second is shared_loop()
    assert name == "ragmeter-loop" and first.is_running()


async def test_a_call_from_inside_a_running_loop_does_not_block_it():
    """From a coroutine (a notebook cell, an async test) evaluate() still returns."""
    result = evaluate([{"answer": "a b c", "ground_truth": "a b d"}], ["token_f1"], show_progress=False, journal=False)
    assert result["token_f1"] == [pytest.approx(2 / 3)]


def test_a_nested_call_from_the_shared_loop_runs_elsewhere_instead_of_deadlocking():
    async def inner() -> str:
        return threading.current_thread().name

    async def outer() -> str:
        return run_sync(inner)

    name = run_sync(outer)
    assert name.startswith("ragmeter") and name != "ragmeter-loop"


def test_a_keyboard_interrupt_inside_a_run_reaches_the_caller_and_the_loop_lives_on():
    """Ctrl-C surfacing inside the run (as a test's monkeypatch raises it) must reach the
    caller, not stop the loop's thread and leave the caller waiting forever."""
    async def interrupted() -> None:
        await asyncio.sleep(0)
        raise KeyboardInterrupt

    async def fine() -> str:
        return "still serving"

    with pytest.raises(KeyboardInterrupt):
        run_sync(interrupted)
    assert run_sync(fine) == "still serving"


def test_a_keyboard_interrupt_in_a_child_task_unwinds_the_run_and_reaches_the_caller():
    """Raised in a task the run started (a worker), it stops the loop itself: the run is
    cancelled and unwound (its finally blocks run) before the caller sees it."""
    unwound = []

    async def worker() -> None:
        await asyncio.sleep(0)
        raise KeyboardInterrupt

    async def run() -> None:
        try:
            await asyncio.gather(asyncio.ensure_future(worker()), asyncio.sleep(30))
        finally:
            unwound.append(True)

    async def fine() -> str:
        return "still serving"

    with pytest.raises(KeyboardInterrupt):
        run_sync(run)
    assert unwound == [True]
    assert run_sync(fine) == "still serving"
