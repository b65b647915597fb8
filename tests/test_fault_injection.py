"""Seeded fault injection: a proxy in front of the OpenAI test server breaks 30% of the chat
completions in every way a provider does (429 with Retry-After, 500, 503, a hang past the
timeout, a reset connection, a body that is not JSON, malformed and truncated JSON content).

Over a few hundred samples: no row is lost, no score is NaN, typed errors stay under 1% of
the scores; once the faults stop, the same command completes every score, and the scores
equal those of a run that never saw a fault (nothing invalid was cached)."""

from __future__ import annotations

import math
import time

import pytest

from ragmeter import evaluate
from ragmeter.calls import DiskCache
from ragmeter.calls.retry import RetryPolicy
from ragmeter.judges import get_judge
from ragmeter.testing import scripted_judge
from ragmeter.testing.fault_proxy import KINDS, FaultProxy
from ragmeter.testing.openai_server import OpenAIMockServer

N = 240
METRICS = ["faithfulness", "context_recall"]
# short timeout, small backoff: the whole test runs in seconds, not minutes
POLICY = RetryPolicy(max_attempts=6, timeout=0.5, backoff_base=0.02, backoff_max=0.2, jitter=0.1)


def records():
    out = []
    for i in range(N):
        city = ("Paris", "Lyon", "Nice")[i % 3]
        out.append({
            "id": f"s{i}",
            "question": f"Which city is number {i}?",
            "answer": f"City {i} is {city}. It is in France.",
            "contexts": [f"City {i} is {city}. {city} is a city in France."],
            "ground_truth": f"City {i} is {city}.",
        })
    return out


def command(base_url, tmp_path, name):
    """One ``evaluate`` call, built afresh each time as a rerun of a command would be."""
    judge = get_judge(f"openai:mock-judge@{base_url}", cache=DiskCache(tmp_path / f"{name}.sqlite"))
    judge.policy = POLICY
    return evaluate(records(), METRICS, judge=judge, journal=tmp_path / f"{name}.jsonl",
                    show_progress=False, concurrency=16)


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-fault-injection")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def values(result):
    return {(s.id, name): score.value for s in result.samples for name, score in s.scores.items()}


def test_thirty_percent_faults_of_every_kind_lose_nothing_and_recover(tmp_path):
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        clean = command(server.base_url, tmp_path, "clean")
        assert all(v is not None for v in values(clean).values())
        with FaultProxy(server.port, fault_rate=0.3, seed=15, hang_seconds=POLICY.timeout + 0.5) as proxy:
            started = time.monotonic()
            faulty = command(proxy.base_url, tmp_path, "faulty")
            seconds = time.monotonic() - started
            assert set(proxy.injected) == set(KINDS), proxy.injected  # every kind happened
            assert sum(proxy.injected.values()) >= 0.2 * (sum(proxy.injected.values()) + proxy.forwarded)

            assert [s.id for s in faulty.samples] == [f"s{i}" for i in range(N)]  # 0 rows lost
            scores = [score for s in faulty.samples for score in s.scores.values()]
            assert len(scores) == N * len(METRICS)
            assert all(s.value is None or math.isfinite(s.value) for s in scores)  # no NaN
            assert all((s.value is None) == (s.error is not None) for s in scores)  # every gap typed
            failed = [s for s in scores if s.error is not None]
            assert len(failed) <= 0.01 * len(scores), [s.error for s in failed]

            proxy.fault_rate = 0.0  # the endpoint recovers; the same command again, no flag
            again = command(proxy.base_url, tmp_path, "faulty")
        assert again.info.resumed_scores == len(scores) - len(failed)
        assert values(again) == values(clean)  # complete, and what a run without faults gives
    print(f"\n{N} samples, {sum(proxy.injected.values())} faults {dict(proxy.injected)}, "
          f"{proxy.forwarded} forwarded, {len(failed)} typed errors, {seconds:.1f}s under faults")
