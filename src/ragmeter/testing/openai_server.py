"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions and embeddings API.

Why a real server and not a patched client: it exercises everything between ragmeter and a
provider (the SDK, HTTP, status codes, headers, timeouts) the way production does, and it
serves tests, benchmarks and offline demos alike. It binds to loopback only.

Behaviour is scripted two ways:

* ``server.script`` is a queue of ``Reply`` objects served first, one per request, to stage
  failures: ``Reply(status=429, headers={"Retry-After": "1"})``, ``Reply(delay=10)`` (a hung
  request), ``Reply(content='{"claims": [')`` with ``finish_reason="length"``...
* otherwise ``chat_responder(request_json) -> str | Reply`` writes the assistant's content.
  The default answers ``{}``; tests install a scripted judge here.

Embeddings are a deterministic hashed bag of words (texts sharing words get close vectors),
unless ``embed_responder(text) -> list[float]`` is set.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import urlsplit

import numpy as np


class _Server(ThreadingHTTPServer):
    # socketserver's default backlog is 5: sixteen clients connecting at once (an evaluation's
    # first calls) overflowed it and got connection errors that no real server would give
    request_queue_size = 128
    daemon_threads = True


@dataclass
class Reply:
    """One scripted answer. ``content`` is the assistant text; ``body`` overrides the whole JSON."""

    status: int = 200
    content: str | None = None
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    delay: float = 0.0
    logprobs: list[Any] | None = None
    """Per token of ``content``: ``(token, [(alternative, logprob), ...])``, returned as the
    OpenAI API's ``choices[0].logprobs.content`` (the token's own logprob is its first
    alternative's, or 0)."""
    tool_calls: list[dict[str, Any]] | None = None
    """The calls the assistant makes, flat: ``[{"name": "search", "arguments": {...}}]``
    (an ``id`` optional). Served as the API's ``message.tool_calls`` (arguments as a JSON
    string, as the API sends them) with ``finish_reason "tool_calls"`` and no content unless
    ``content`` is set, so that an agent's real client code parses them as from a provider."""


@dataclass
class Recorded:
    path: str  # without the query string
    headers: dict[str, str]  # names lower-cased
    json: dict[str, Any]
    time: float
    query: str = ""  # the raw query string ("api-key=..."), as sent


ChatResponder = Callable[[dict[str, Any]], "str | Reply"]


def approx_tokens(text: str) -> int:
    """A stable token estimate for usage fields: one token per word or punctuation mark."""
    return len(re.findall(r"\w+|[^\w\s]", text))


def hashed_embedding(text: str, dim: int = 64) -> list[float]:
    vec = np.zeros(dim, dtype=np.float64)
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.md5(word.encode()).digest()
        vec[int.from_bytes(digest[:4], "little") % dim] += 1.0 if digest[4] % 2 else -1.0
    norm = np.linalg.norm(vec)
    return (vec / norm if norm else vec).tolist()


class OpenAIMockServer:
    """Use as a context manager: ``with OpenAIMockServer() as srv: srv.base_url``."""

    def __init__(
        self,
        chat_responder: ChatResponder | None = None,
        embed_responder: Callable[[str], list[float]] | None = None,
        latency: float = 0.0,
        model: str = "mock-model",
    ) -> None:
        self.chat_responder = chat_responder or (lambda request: "{}")
        self.embed_responder = embed_responder or hashed_embedding
        self.latency = latency
        self.model = model
        self.script: deque[Reply] = deque()
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ---------------------------------------------------------------------

    def start(self) -> "OpenAIMockServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length) if length else b"{}"
                try:
                    payload = json.loads(raw)
                except json.JSONDecodeError:
                    self._send(400, {"error": {"message": "body is not JSON"}})
                    return
                where = urlsplit(self.path)  # a client may send query parameters (api-key=...)
                server._record(where.path, {k.lower(): v for k, v in self.headers.items()}, payload, where.query)
                status, body, headers, delay = server._respond(where.path, payload)
                if delay:
                    time.sleep(delay)
                self._send(status, body, headers)

            def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test); nothing to do

        self._httpd = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "OpenAIMockServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # --- inspection --------------------------------------------------------------------

    def calls(self, path_suffix: str = "") -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith(path_suffix)]

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.script.clear()

    # --- behaviour ---------------------------------------------------------------------

    def _record(self, path: str, headers: dict[str, str], payload: dict[str, Any], query: str = "") -> None:
        with self._lock:
            self.requests.append(Recorded(path, headers, payload, time.time(), query))

    def _next_scripted(self) -> Reply | None:
        with self._lock:
            return self.script.popleft() if self.script else None

    def _respond(self, path: str, payload: dict[str, Any]) -> tuple[int, Any, dict[str, str], float]:
        if path.endswith("/chat/completions"):
            reply = self._next_scripted()
            if reply is None:
                produced = self.chat_responder(payload)
                reply = produced if isinstance(produced, Reply) else Reply(content=produced)
            return self._chat_reply(payload, reply)
        if path.endswith("/embeddings"):
            reply = self._next_scripted()
            if reply is not None and (reply.status != 200 or reply.body is not None):
                return reply.status, reply.body or _error_body(reply.status), reply.headers, reply.delay
            return 200, self._embeddings(payload), {}, self.latency + (reply.delay if reply else 0.0)
        return 404, {"error": {"message": f"unknown path {path}"}}, {}, 0.0

    def _chat_reply(self, payload: dict[str, Any], reply: Reply) -> tuple[int, Any, dict[str, str], float]:
        delay = self.latency + reply.delay
        if reply.status != 200:
            return reply.status, reply.body or _error_body(reply.status), reply.headers, delay
        if reply.body is not None:
            return 200, reply.body, reply.headers, delay
        content = reply.content if reply.content is not None else ("" if reply.tool_calls else "{}")
        prompt_text = " ".join(str(m.get("content", "")) for m in payload.get("messages", []))
        message: dict[str, Any] = {"role": "assistant", "content": (content or None) if reply.tool_calls else content}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": str(call.get("id") or f"call_{len(self.requests)}_{k}"), "type": "function",
                 "function": {"name": call["name"], "arguments": json.dumps(call.get("arguments") or {})}}
                for k, call in enumerate(reply.tool_calls)]
        finish_reason = "tool_calls" if reply.tool_calls and reply.finish_reason == "stop" else reply.finish_reason
        body = {
            "id": f"chatcmpl-{hashlib.md5(prompt_text.encode()).hexdigest()[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": payload.get("model", self.model),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": finish_reason,
                    "logprobs": _logprobs_body(reply.logprobs),
                }
            ],
            "usage": {
                "prompt_tokens": approx_tokens(prompt_text),
                "completion_tokens": approx_tokens(content),
                "total_tokens": approx_tokens(prompt_text) + approx_tokens(content),
            },
        }
        return 200, body, reply.headers, delay

    def _embeddings(self, payload: dict[str, Any]) -> dict[str, Any]:
        inputs = payload.get("input", [])
        if isinstance(inputs, str):
            inputs = [inputs]
        as_base64 = payload.get("encoding_format") == "base64"
        data = []
        for i, text in enumerate(inputs):
            vector = self.embed_responder(str(text))
            if as_base64:
                encoded: Any = base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
            else:
                encoded = vector
            data.append({"object": "embedding", "index": i, "embedding": encoded})
        tokens = sum(approx_tokens(str(t)) for t in inputs)
        return {
            "object": "list",
            "data": data,
            "model": payload.get("model", self.model),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }


def _logprobs_body(tokens: list[Any] | None) -> dict[str, Any] | None:
    if tokens is None:
        return None
    return {"content": [
        {"token": token, "logprob": float(alternatives[0][1]) if alternatives else 0.0, "bytes": None,
         "top_logprobs": [{"token": a, "logprob": float(lp), "bytes": None} for a, lp in alternatives]}
        for token, alternatives in tokens
    ]}


def _error_body(status: int) -> dict[str, Any]:
    kinds = {429: "rate_limit_exceeded", 500: "server_error", 503: "server_error", 400: "invalid_request_error"}
    return {"error": {"message": f"scripted HTTP {status}", "type": kinds.get(status, "error"), "code": None}}
