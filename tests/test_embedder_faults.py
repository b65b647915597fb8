"""Fault injection on an OpenAI-compatible embeddings endpoint, through a whole ``evaluate``.

The endpoint is the OpenAI test server on 127.0.0.1, alone or behind ``FaultProxy``; the
metric is ``answer_similarity`` (one request embedding the answer and the ground truth).
What each fault must give, as docs/concepts.md documents it:

* a hang past the timeout, 429 (Retry-After honoured), 500, a body that is not JSON: the
  call is tried again; once the endpoint answers, the score is the score of a run that saw
  no fault; when it never does, the score is ``None`` with an ``EmbedderError`` (transient,
  so a resumed run tries again) naming the cause, after exactly ``max_attempts`` requests;
* a reply that is JSON but not vectors for the texts (too few or too many, duplicate
  indices, no ``data``, a null or ragged vector, dimension 0, another dimension than the
  endpoint's earlier replies, NaN or infinite values): an ``EmbedderError`` naming what was
  wrong, never a score computed from it; nothing of it is cached, so the same command gives
  the right score once the endpoint is fixed.
"""

from __future__ import annotations

import math
import time

import pytest

from ragmeter import evaluate
from ragmeter.calls import DiskCache
from ragmeter.testing.fault_proxy import FaultProxy
from ragmeter.testing.openai_server import OpenAIMockServer, Reply, hashed_embedding

ATTEMPTS = 3
SAMPLE = {"id": "s0", "question": "Where is Paris?", "answer": "Paris is in France.",
          "ground_truth": "Paris is a city in France."}


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-embedder-faults")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer() as srv:
        yield srv


def run(base_url, cache, timeout=2.0):
    """One ``evaluate`` of the sample, as the same command run again would be."""
    return evaluate([SAMPLE], ["answer_similarity"], embedder=f"openai:mock-embed@{base_url}", cache=cache,
                    journal=False, record=False, show_progress=False,
                    judge_options={"timeout": timeout, "max_attempts": ATTEMPTS})


def score(result):
    return result.samples[0].scores["answer_similarity"]


@pytest.fixture
def clean(server, tmp_path):
    """The score of a run that saw no fault (its own cache)."""
    value = score(run(server.base_url, DiskCache(tmp_path / "clean.sqlite"))).value
    assert value is not None and 0.0 < value < 1.0
    server.reset()
    return value


# --- faults worth another try ---------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "says"), [
    ("hang", "JudgeTimeout: embedding request to openai:mock-embed@"),
    ("429", "RateLimited: embedding request to openai:mock-embed@"),
    ("500", "JudgeUnavailable: embedding request to openai:mock-embed@"),
    ("garbled", "the response body is not JSON"),
])
def test_a_fault_that_never_clears_is_a_transient_embedder_error_after_every_attempt(server, tmp_path, kind, says):
    with FaultProxy(server.port, fault_rate=1.0, kinds=(kind,), fault_paths=("/embeddings",),
                    hang_seconds=1.0, retry_after=0.05) as proxy:
        result = run(proxy.base_url, DiskCache(tmp_path / "cache.sqlite"), timeout=0.5)
    failed = score(result)
    assert failed.value is None
    assert failed.error.kind == "EmbedderError" and failed.error.transient
    assert says in failed.error.message and f"after {ATTEMPTS} attempt(s)" in failed.error.message
    assert proxy.injected[kind] == ATTEMPTS and proxy.forwarded == 0
    assert result.usage["embedder"].failures == 1 and result.usage["embedder"].retries == ATTEMPTS - 1


@pytest.mark.parametrize("kind", ["hang", "500", "garbled"])
def test_a_fault_that_clears_gives_the_score_of_a_run_without_it(server, tmp_path, clean, kind):
    with FaultProxy(server.port, fault_rate=1.0, kinds=(kind,), fault_paths=("/embeddings",),
                    hang_seconds=1.0, max_faults=1) as proxy:
        result = run(proxy.base_url, DiskCache(tmp_path / "cache.sqlite"), timeout=0.5)
    assert score(result).value == pytest.approx(clean, abs=1e-6) and score(result).error is None
    assert proxy.injected[kind] == 1 and proxy.forwarded == 1
    assert result.usage["embedder"].retries == 1 and result.usage["embedder"].failures == 0


def test_a_429_with_retry_after_is_waited_out_then_scored(server, tmp_path, clean):
    server.script.append(Reply(status=429, headers={"Retry-After": "1"}))
    started = time.monotonic()
    result = run(server.base_url, DiskCache(tmp_path / "cache.sqlite"))
    waited = time.monotonic() - started
    assert score(result).value == pytest.approx(clean, abs=1e-6)
    assert waited >= 1.0  # the server's wish, not the backoff's 0.5 s
    requests = server.calls("/embeddings")
    assert len(requests) == 2 and requests[1].time - requests[0].time >= 1.0
    assert result.usage["embedder"].retries == 1


# --- replies that are JSON but not the vectors asked for ------------------------------------------


def item(index, vector):
    return {"object": "embedding", "index": index, "embedding": vector}


def body(*items):
    return {"object": "list", "data": list(items), "model": "mock-embed", "usage": {"prompt_tokens": 9, "total_tokens": 9}}


GOOD = hashed_embedding("good")
BAD_REPLIES = {
    "one vector for two texts": (body(item(0, GOOD)), "returned 1 vectors for 2 texts"),
    "three vectors for two texts": (body(item(0, GOOD), item(1, GOOD), item(2, GOOD)), "returned 3 vectors for 2 texts"),
    "two vectors with index 0": (body(item(0, GOOD), item(0, GOOD)), "indices [0, 0], not 0 to 1"),
    "no data": ({"object": "list", "model": "mock-embed"}, "no 'data' list of vectors"),
    "a null vector": (body(item(0, None), item(1, GOOD)), "the vector at index 0 is not a list of numbers"),
    "a vector of text": (body(item(0, ["a"] * 64), item(1, GOOD)), "the vector at index 0 is not a list of numbers"),
    "ragged vectors": (body(item(0, GOOD), item(1, GOOD[:32])), "vectors of different dimensions (64, 32)"),
    "empty vectors": (body(item(0, []), item(1, [])), "vectors of dimension 0"),
    "NaN": (body(item(0, [math.nan] + GOOD[1:]), item(1, GOOD)), "NaN or infinite values in the vector at index 0"),
    "infinity": (body(item(0, GOOD), item(1, [math.inf] + GOOD[1:])), "NaN or infinite values in the vector at index 1"),
}


@pytest.mark.parametrize("case", list(BAD_REPLIES))
def test_a_reply_that_is_not_the_vectors_asked_for_is_an_embedder_error_and_never_cached(server, tmp_path, clean, case):
    reply, says = BAD_REPLIES[case]
    server.script.append(Reply(body=reply))
    cache = DiskCache(tmp_path / "cache.sqlite")
    result = run(server.base_url, cache)
    failed = score(result)
    assert failed.value is None, f"a score computed from {case}: {failed.value}"
    assert failed.error.kind == "EmbedderError" and failed.error.transient, failed.error
    assert says in failed.error.message and f"openai:mock-embed@{server.base_url}" in failed.error.message
    assert len(server.calls("/embeddings")) == 1  # a wrong answer is not asked again within the call
    assert result.usage["embedder"].failures == 1

    again = run(server.base_url, cache)  # the endpoint answers well now: the same command scores
    assert score(again).value == pytest.approx(clean, abs=1e-6)
    assert again.usage["embedder"].cache_hits == 0  # nothing of the bad reply was kept


def test_vectors_of_another_dimension_than_the_endpoints_earlier_replies_are_an_embedder_error(server):
    # a model swapped behind the endpoint mid-run: the second sample's texts come back at 32
    second = {"id": "s1", "question": "Where is Lyon?", "answer": "Lyon is in France.",
              "ground_truth": "Lyon is a city in France."}
    server.embed_responder = lambda text: hashed_embedding(text, 32 if "Lyon" in text else 64)
    result = evaluate([SAMPLE, second], ["answer_similarity"], embedder=f"openai:mock-embed@{server.base_url}",
                      cache=False, journal=False, record=False, show_progress=False, concurrency=1)
    first, other = (s.scores["answer_similarity"] for s in result.samples)
    assert first.value is not None and first.error is None
    assert other.value is None and other.error.kind == "EmbedderError"
    assert "vectors of dimension 32 where its earlier replies had 64" in other.error.message


def test_a_cache_holding_vectors_of_another_dimension_is_named_not_mixed_in(server, tmp_path):
    cache = DiskCache(tmp_path / "cache.sqlite")
    server.embed_responder = lambda text: hashed_embedding(text, 64)
    assert score(run(server.base_url, cache)).value is not None  # caches both texts at 64
    server.embed_responder = lambda text: hashed_embedding(text, 32)  # another model behind the same name
    other = dict(SAMPLE, answer="Paris is in Europe.")  # one text cached at 64, one new at 32
    result = evaluate([other], ["answer_similarity"], embedder=f"openai:mock-embed@{server.base_url}", cache=cache,
                      journal=False, record=False, show_progress=False)
    failed = score(result)
    assert failed.value is None and failed.error.kind == "EmbedderRejected"
    assert "the cache holds vectors of dimension 64" in failed.error.message
    assert "now returns 32" in failed.error.message
