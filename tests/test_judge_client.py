"""The LLM judge against a real HTTP server speaking the OpenAI API on 127.0.0.1.

Every failure mode ends in the right object after retries or repair, or in a typed error.
"""

from __future__ import annotations

import json
import time

import pytest
from pydantic import BaseModel

from ragmeter.calls import AdaptiveLimiter, DiskCache
from ragmeter.calls.retry import parse_retry_after
from ragmeter.errors import (
    JudgeOutputInvalid,
    JudgeRequestRejected,
    JudgeTimeout,
    JudgeUnavailable,
    RateLimited,
)
from ragmeter.judges import get_judge, parse_judge_spec
from ragmeter.testing.openai_server import OpenAIMockServer, Reply

SECRET = "sk-test-DO-NOT-LEAK-1234567890"


class Capital(BaseModel):
    country: str
    capital: str


GOOD = json.dumps({"country": "France", "capital": "Paris"})


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=lambda request: GOOD) as srv:
        yield srv


@pytest.fixture(autouse=True)
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)


def make_judge(server, tmp_path=None, **options):
    options.setdefault("timeout", 2.0)
    cache = DiskCache(tmp_path / "cache.sqlite") if tmp_path is not None else False
    return get_judge(f"openai:mock-model@{server.base_url}", cache=cache, options=options)


async def test_structured_output_uses_json_schema(server):
    judge = make_judge(server)
    result = await judge.generate("What is the capital of France?", Capital)
    assert result == Capital(country="France", capital="Paris")
    (call,) = server.calls("/chat/completions")
    fmt = call.json["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["schema"]["properties"].keys() == {"country", "capital"}
    assert call.json["temperature"] == 0
    assert judge.usage.calls == 1 and judge.usage.prompt_tokens > 0 and judge.usage.completion_tokens > 0


async def test_falls_back_to_json_mode_with_schema_in_prompt(server):
    def responder(request):
        if request.get("response_format", {}).get("type") == "json_schema":
            return Reply(status=400, body={"error": {"message": "response_format json_schema is not supported"}})
        return GOOD

    server.chat_responder = responder
    judge = make_judge(server)
    assert (await judge.generate("capital?", Capital)).capital == "Paris"
    assert judge.mode == "json_object"
    last = server.calls("/chat/completions")[-1].json
    assert last["response_format"] == {"type": "json_object"}
    assert '"capital"' in last["messages"][0]["content"]  # the schema went into the prompt
    # the step down is remembered: the next call goes straight to json mode
    await judge.generate("capital again?", Capital)
    assert server.calls("/chat/completions")[-1].json["response_format"] == {"type": "json_object"}
    assert len(server.calls("/chat/completions")) == 3


async def test_429_honours_retry_after_and_halves_the_limit(server):
    server.script.append(Reply(status=429, headers={"Retry-After": "1"}))
    judge = make_judge(server, max_concurrency=8)
    started = time.monotonic()
    assert (await judge.generate("capital?", Capital)).capital == "Paris"
    elapsed = time.monotonic() - started
    assert elapsed >= 1.0, "Retry-After: 1 was not honoured"
    assert judge.usage.retries == 1 and judge.usage.calls == 2
    assert judge.limiter.limit == 4


async def test_persistent_429_ends_in_rate_limited(server):
    for _ in range(3):
        server.script.append(Reply(status=429, headers={"retry-after-ms": "10"}))
    judge = make_judge(server, max_attempts=3)
    with pytest.raises(RateLimited, match="rate limited"):
        await judge.generate("capital?", Capital)
    assert judge.usage.calls == 3 and judge.usage.failures == 1


async def test_500_is_retried(server):
    server.script.extend([Reply(status=500), Reply(status=503)])
    judge = make_judge(server)
    judge.policy = type(judge.policy)(max_attempts=5, timeout=2.0, backoff_base=0.01)
    assert (await judge.generate("capital?", Capital)).capital == "Paris"
    assert judge.usage.retries == 2


async def test_hung_request_times_out_and_is_retried(server):
    server.script.append(Reply(content=GOOD, delay=3.0))
    judge = make_judge(server, timeout=0.3)
    judge.policy = type(judge.policy)(max_attempts=3, timeout=0.3, backoff_base=0.01)
    started = time.monotonic()
    assert (await judge.generate("capital?", Capital)).capital == "Paris"
    assert time.monotonic() - started < 2.0, "the hung request was waited on"
    assert judge.usage.retries == 1


async def test_always_hung_ends_in_judge_timeout(server):
    server.script.extend([Reply(content=GOOD, delay=2.0)] * 2)
    judge = make_judge(server)
    judge.policy = type(judge.policy)(max_attempts=2, timeout=0.2, backoff_base=0.01)
    with pytest.raises(JudgeTimeout, match="timed out"):
        await judge.generate("capital?", Capital)


async def test_malformed_json_is_repaired_once_with_the_error(server):
    server.script.append(Reply(content='{"country": "France", "capitol": "Paris"}'))
    judge = make_judge(server)
    assert (await judge.generate("capital?", Capital)).capital == "Paris"
    calls = server.calls("/chat/completions")
    assert len(calls) == 2 and judge.usage.repairs == 1
    repair = calls[1].json["messages"]
    assert repair[-2]["role"] == "assistant" and "capitol" in repair[-2]["content"]
    assert "capital: Field required" in repair[-1]["content"]


async def test_not_json_at_all_then_invalid_again_is_a_typed_error(server):
    server.script.extend([Reply(content="Sure! The capital is Paris."), Reply(content="Paris, definitely.")])
    judge = make_judge(server)
    with pytest.raises(JudgeOutputInvalid, match="still invalid after one repair"):
        await judge.generate("capital?", Capital)
    assert len(server.calls("/chat/completions")) == 2


async def test_truncated_json_is_repaired(server):
    server.script.append(Reply(content='{"country": "France", "capi', finish_reason="length"))
    judge = make_judge(server)
    assert (await judge.generate("capital?", Capital)).capital == "Paris"
    repair = server.calls("/chat/completions")[1].json["messages"][-1]["content"]
    assert "cut off" in repair


async def test_auth_failure_is_not_retried(server):
    server.script.append(Reply(status=401))
    judge = make_judge(server)
    with pytest.raises(JudgeUnavailable, match="401"):
        await judge.generate("capital?", Capital)
    assert len(server.calls("/chat/completions")) == 1


async def test_bad_request_is_rejected_without_retry(server):
    server.script.append(Reply(status=422))
    judge = make_judge(server)
    with pytest.raises(JudgeRequestRejected):
        await judge.generate("capital?", Capital)
    assert len(server.calls("/chat/completions")) == 1


async def test_cache_makes_a_second_identical_call_free(server, tmp_path):
    judge = make_judge(server, tmp_path)
    first = await judge.generate("capital?", Capital)
    again = make_judge(server, tmp_path)  # a new process would build a new judge
    second = await again.generate("capital?", Capital)
    assert first == second
    assert len(server.calls("/chat/completions")) == 1
    assert again.usage.calls == 0 and again.usage.cache_hits == 1
    assert again.usage.cached_prompt_tokens == judge.usage.prompt_tokens
    # a different prompt or model is a different key
    await again.generate("capital of Spain?", Capital)
    assert len(server.calls("/chat/completions")) == 2


async def test_repair_conversation_caches_only_the_reply_that_validated(server, tmp_path):
    server.script.extend([Reply(content="not json")])
    judge = make_judge(server, tmp_path)
    await judge.generate("capital?", Capital)
    server.script.extend([Reply(content="not json")])  # the same malformed first reply again
    rerun = make_judge(server, tmp_path)
    assert (await rerun.generate("capital?", Capital)).capital == "Paris"
    # the malformed first reply was not kept, so it is asked again; the repair is replayed
    assert rerun.usage.calls == 1 and rerun.usage.cache_hits == 1


async def test_key_never_reaches_cache_or_repr(server, tmp_path):
    judge = make_judge(server, tmp_path)
    await judge.generate("capital?", Capital)
    assert server.calls()[0].headers["authorization"] == f"Bearer {SECRET}"  # it was sent...
    judge.cache.close()
    for path in tmp_path.iterdir():
        assert SECRET.encode() not in path.read_bytes(), path  # ...and stored nowhere
    assert SECRET not in repr(judge) and SECRET not in judge.name


async def test_cost_uses_settable_prices(server):
    judge = make_judge(server, prices={"mock-model": (1.0, 2.0)})
    await judge.generate("capital?", Capital)
    usage = judge.usage
    assert usage.cost == pytest.approx((usage.prompt_tokens * 1.0 + usage.completion_tokens * 2.0) / 1e6)


def test_missing_key_for_openai_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(JudgeUnavailable, match="OPENAI_API_KEY is not set"):
        get_judge("openai:gpt-4o-mini", cache=False)


def test_judge_specs():
    assert parse_judge_spec("openai:gpt-4o-mini").base_url is None
    spec = parse_judge_spec("openai:qwen2.5:7b@http://127.0.0.1:8000/v1")
    assert (spec.model, spec.base_url) == ("qwen2.5:7b", "http://127.0.0.1:8000/v1")
    assert parse_judge_spec("ollama:llama3.1").base_url.endswith(":11434/v1")
    assert parse_judge_spec("local").provider == "local"
    for bad in ("gpt-4o", "openai:", "anthropic:claude", "azure:dep"):
        with pytest.raises(ValueError):
            parse_judge_spec(bad)


def test_retry_after_forms():
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "150"}) == 0.15
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0  # in the past
    assert parse_retry_after({}) is None


async def test_adaptive_limiter_halves_and_grows_back():
    limiter = AdaptiveLimiter(maximum=8)
    limiter.on_rate_limited()
    limiter.on_rate_limited()
    assert limiter.limit == 2
    for _ in range(2):
        limiter.on_success()
    assert limiter.limit == 3
    for _ in range(100):
        limiter.on_success()
    assert limiter.limit == 8
    for _ in range(10):
        limiter.on_rate_limited()
    assert limiter.limit == 1


async def test_limiter_bounds_requests_in_flight():
    import asyncio

    limiter = AdaptiveLimiter(maximum=3)
    peak = 0

    async def job():
        nonlocal peak
        async with limiter.slot():
            peak = max(peak, limiter.in_flight)
            await asyncio.sleep(0.01)

    await asyncio.gather(*(job() for _ in range(20)))
    assert peak == 3 and limiter.in_flight == 0


def test_one_judge_serves_several_event_loops(server):
    # a judge object built once and used by two evaluate() calls, each with its own loop
    import asyncio

    judge = make_judge(server)
    server.script.append(Reply(status=429, headers={"retry-after-ms": "1"}))
    for _ in range(2):
        assert asyncio.run(judge.generate("capital?", Capital)).capital == "Paris"
    assert judge.limiter.limit < judge.limiter.maximum  # what the limiter learned carries over


async def test_a_key_echoed_by_the_server_is_masked(server):
    server.script.append(Reply(status=400, body={"error": {"message": f"bad key {SECRET} for this model"}}))
    judge = make_judge(server)
    with pytest.raises(JudgeRequestRejected) as caught:
        await judge.generate("capital?", Capital)
    assert SECRET not in str(caught.value) and "***" in str(caught.value)
