"""Embedders: local MiniLM, OpenAI-compatible endpoint (real local HTTP server), disk cache, specs."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ragmeter.calls.cache import DiskCache
from ragmeter.calls.retry import RetryPolicy
from ragmeter.embedders import (
    CachedEmbedder,
    Embedder,
    OpenAIEmbedder,
    SentenceTransformerEmbedder,
    get_embedder,
    normalise_rows,
)
from ragmeter.errors import EmbedderError, InvalidInput
from ragmeter.testing.openai_server import OpenAIMockServer, Reply, hashed_embedding

FAKE_KEY = "sk-test-DO-NOT-LEAK-4f9a1c77e2"
FAST = RetryPolicy(max_attempts=3, timeout=5.0, backoff_base=0.01, jitter=0.0)


# --- import cost -------------------------------------------------------------------------


def test_import_does_not_load_heavy_modules():
    src = Path(__file__).resolve().parents[1] / "src"
    code = (
        f"import sys; sys.path.insert(0, {str(src)!r}); import ragmeter.embedders; "
        "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers', 'openai') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- local MiniLM ------------------------------------------------------------------------


@pytest.fixture
def local(minilm) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


async def test_local_returns_unit_rows(local):
    texts = ["The cat sat on the mat.", "Paris is the capital of France.", "Quarterly revenue rose 4%."]
    vectors = await local.embed(texts)
    assert isinstance(local, Embedder)
    assert local.name == "local:all-MiniLM-L6-v2"
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


async def test_local_blank_and_empty_inputs(local):
    vectors = await local.embed(["hello there", "", "   "])
    assert vectors.shape == (3, 384)
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0, abs=1e-5)
    assert not vectors[1:].any()  # blank text -> zero row, like every ragmeter embedder
    assert (await local.embed([])).shape == (0, 384)
    with pytest.raises(InvalidInput):
        await local.embed("one string")  # type: ignore[arg-type]


async def test_local_similar_closer_than_unrelated(local):
    a, b, c = await local.embed(
        [
            "The Eiffel Tower is in Paris.",
            "Paris is home to the Eiffel Tower.",
            "Photosynthesis turns sunlight into chemical energy in plants.",
        ]
    )
    assert a @ b > 0.8
    assert a @ b > a @ c + 0.5


async def test_local_concurrent_calls_are_coalesced_and_match_one_batch(local):
    texts = [f"Sample question number {i} about topic {i % 7}?" for i in range(40)]
    batch = await local.embed(texts)
    calls_before = local.usage.calls
    singles = await asyncio.gather(*(local.embed([t]) for t in texts))
    model_calls = local.usage.calls - calls_before
    assert model_calls < 5, f"40 concurrent calls should share few model calls, took {model_calls}"
    np.testing.assert_allclose(np.vstack(singles), batch, atol=1e-5)
    # Callers with several texts, repeated texts across callers: each gets its own rows.
    pairs = await asyncio.gather(*(local.embed([texts[i], texts[0]]) for i in range(10)))
    for i, rows in enumerate(pairs):
        np.testing.assert_allclose(rows, batch[[i, 0]], atol=1e-5)


async def test_local_shares_one_loaded_model(minilm):
    first, second = SentenceTransformerEmbedder(), SentenceTransformerEmbedder(threads=1)
    assert first.load() is second.load() is minilm
    assert (await second.embed(["one thread is fine"])).shape == (1, 384)


async def test_local_bad_model_path_is_a_typed_error(tmp_path):
    embedder = SentenceTransformerEmbedder(model=str(tmp_path / "no-such-model"))
    assert embedder.name.startswith("st:")
    with pytest.raises(EmbedderError):
        await embedder.embed(["x"])


# --- OpenAI-compatible endpoint ----------------------------------------------------------


@pytest.fixture(scope="module")
def _server():
    with OpenAIMockServer() as server:
        yield server


@pytest.fixture
def server(_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    _server.reset()
    yield _server
    _server.reset()


def remote(server: OpenAIMockServer, **kwargs) -> OpenAIEmbedder:
    kwargs.setdefault("policy", FAST)
    return OpenAIEmbedder(model="mock-embed", base_url=server.base_url, **kwargs)


async def test_openai_vectors_match_server(server):
    embedder = remote(server, batch_size=3)
    texts = [f"text number {i} with words" for i in range(7)]
    vectors = await embedder.embed(texts)
    expected = normalise_rows(np.array([hashed_embedding(t) for t in texts]))
    np.testing.assert_allclose(vectors, expected, atol=1e-6)
    requests = server.calls("/embeddings")
    assert len(requests) == 3  # 3 + 3 + 1
    assert all(r.json["encoding_format"] == "float" and r.json["model"] == "mock-embed" for r in requests)
    headers = {k.lower(): v for k, v in requests[0].headers.items()}
    assert headers["authorization"] == f"Bearer {FAKE_KEY}"  # the key is sent, and only there
    assert embedder.usage.calls == 3 and embedder.usage.prompt_tokens == 7 * 5
    assert embedder.name == f"openai:mock-embed@{server.base_url}"


async def test_openai_429_retry_after_is_honoured(server):
    server.script.append(Reply(status=429, headers={"Retry-After": "1"}))
    embedder = remote(server)
    start = time.monotonic()
    vectors = await embedder.embed(["rate limited once"])
    elapsed = time.monotonic() - start
    assert vectors.shape == (1, 64)
    assert 0.95 <= elapsed < 3.0, elapsed
    assert len(server.calls("/embeddings")) == 2
    assert embedder.usage.retries == 1 and embedder.usage.calls == 1


async def test_openai_500_then_success(server):
    server.script.append(Reply(status=500))
    embedder = remote(server)
    vectors = await embedder.embed(["server hiccup"])
    np.testing.assert_allclose(vectors[0], hashed_embedding("server hiccup"), atol=1e-6)
    assert len(server.calls("/embeddings")) == 2 and embedder.usage.retries == 1


async def test_openai_400_is_not_retried(server):
    server.script.append(Reply(status=400))
    embedder = remote(server)
    with pytest.raises(EmbedderError) as caught:
        await embedder.embed(["bad request"])
    assert len(server.calls("/embeddings")) == 1
    assert "400" in str(caught.value) and caught.value.transient is False
    assert embedder.usage.failures == 1


async def test_openai_exhausted_retries_become_embedder_error(server):
    server.script.extend([Reply(status=503)] * 3)
    embedder = remote(server)
    with pytest.raises(EmbedderError) as caught:
        await embedder.embed(["down"])
    assert "JudgeUnavailable" in str(caught.value) and "503" in str(caught.value)
    assert len(server.calls("/embeddings")) == 3


async def test_openai_key_never_leaks(server):
    embedder = remote(server)
    # A server that echoes the key back (OpenAI's 401 does, partly masked).
    server.script.append(Reply(status=401, body={"error": {"message": f"Incorrect API key provided: {FAKE_KEY}"}}))
    with pytest.raises(EmbedderError) as rejected:
        await embedder.embed(["a"])
    server.script.extend([Reply(status=500, body={"error": {"message": f"boom {FAKE_KEY}"}})] * 3)
    with pytest.raises(EmbedderError) as exhausted:
        await embedder.embed(["b"])
    for text in (repr(embedder), embedder.name, str(rejected.value), str(exhausted.value),
                 rejected.value.to_info().model_dump_json(), str(vars(embedder))):
        assert FAKE_KEY not in text
        assert "DO-NOT-LEAK" not in text
    assert "401" in str(rejected.value)


async def test_openai_without_key_needs_one_for_openai_itself(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(EmbedderError, match="OPENAI_API_KEY"):
        await OpenAIEmbedder().embed(["x"])


async def test_openai_local_server_needs_no_key(server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    assert (await remote(server).embed(["no key needed"])).shape == (1, 64)


def test_openai_name_hides_url_credentials():
    embedder = OpenAIEmbedder(model="m", base_url="https://user:pw@example.com/v1/?api-key=zzz")
    assert embedder.name == "openai:m@https://example.com/v1"
    assert "pw" not in repr(embedder) and "zzz" not in repr(embedder)


# --- cache -------------------------------------------------------------------------------


async def test_cache_serves_repeats_without_requests(server, tmp_path):
    cache = DiskCache(tmp_path / "cache.sqlite")
    inner = remote(server)
    embedder = CachedEmbedder(inner, cache)
    texts = ["alpha beta", "gamma delta", "alpha beta", "epsilon"]
    first = await embedder.embed(texts)
    assert len(server.calls("/embeddings")) == 1
    assert server.calls("/embeddings")[0].json["input"] == ["alpha beta", "gamma delta", "epsilon"]
    server.reset()
    second = await embedder.embed(texts)
    assert server.calls() == []
    np.testing.assert_array_equal(first, second)
    assert embedder.usage.cache_hits == 3 and embedder.usage.calls == 1
    assert embedder.name == inner.name
    # One new text among known ones: only it is sent.
    await embedder.embed(["gamma delta", "zeta"])
    assert [r.json["input"] for r in server.calls("/embeddings")] == [["zeta"]]
    cache.close()
    for path in tmp_path.iterdir():
        assert FAKE_KEY.encode() not in path.read_bytes()


async def test_cache_dedupes_concurrent_calls(server, tmp_path):
    embedder = CachedEmbedder(remote(server), DiskCache(tmp_path / "c.sqlite"))
    results = await asyncio.gather(*(embedder.embed(["same question", f"context {i}"]) for i in range(5)))
    sent = [t for r in server.calls("/embeddings") for t in r.json["input"]]
    assert sent.count("same question") == 1
    for rows in results:
        np.testing.assert_array_equal(rows[0], results[0][0])


async def test_cache_with_local_embedder(local, tmp_path):
    embedder = CachedEmbedder(local, DiskCache(tmp_path / "c.sqlite"))
    first = await embedder.embed(["cached locally", ""])
    calls = local.usage.calls
    second = await embedder.embed(["cached locally", ""])
    assert local.usage.calls == calls
    np.testing.assert_array_equal(first, second)
    assert not second[1].any()


# --- specs -------------------------------------------------------------------------------


def test_get_embedder_parses_every_form(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "default"))
    for spec in ("local", "minilm", "MiniLM", None, "local:all-MiniLM-L6-v2"):
        embedder = get_embedder(spec, cache=False, threads=1)
        assert isinstance(embedder, SentenceTransformerEmbedder) and embedder.model is None
        assert embedder.name == "local:all-MiniLM-L6-v2" and embedder.threads == 1

    st = get_embedder("st:/models/bge-small", cache=None)
    assert isinstance(st, SentenceTransformerEmbedder) and st.model == "/models/bge-small"
    assert st.name == "st:/models/bge-small"

    oa = get_embedder("openai:text-embedding-3-large", cache=False)
    assert isinstance(oa, OpenAIEmbedder) and oa.model == "text-embedding-3-large" and oa.base_url is None

    at = get_embedder("openai:nomic-embed-text@http://localhost:11434/v1", cache=False)
    assert isinstance(at, OpenAIEmbedder)
    assert (at.model, at.base_url) == ("nomic-embed-text", "http://localhost:11434/v1")
    assert at.name == "openai:nomic-embed-text@http://localhost:11434/v1"

    # Names are specs: a recorded name rebuilds the same embedder.
    for embedder in (st, oa, at):
        assert get_embedder(embedder.name, cache=False).name == embedder.name

    cached = get_embedder("local")  # cache=True: the default location
    assert isinstance(cached, CachedEmbedder)
    assert cached.cache.path == tmp_path / "default" / "cache.sqlite"
    mine = DiskCache(tmp_path / "mine.sqlite")
    assert get_embedder("minilm", cache=mine).cache is mine

    # An embedder object is used as given, wrapped only with an explicit DiskCache.
    assert get_embedder(oa) is oa
    assert isinstance(get_embedder(oa, cache=mine), CachedEmbedder)
    assert get_embedder(cached, cache=mine) is cached

    for bad in ("bert", "st:", "openai:", "openai:m@localhost:8000", "huggingface:x"):
        with pytest.raises(ValueError, match="accepted forms") as caught:
            get_embedder(bad, cache=False)
        assert "st:NAME_OR_PATH" in str(caught.value) and "openai:MODEL@" in str(caught.value)
