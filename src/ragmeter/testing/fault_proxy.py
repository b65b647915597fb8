"""A fault-injecting HTTP proxy on 127.0.0.1, in front of ``OpenAIMockServer`` (or any server).

Why a proxy: the faults that matter happen on the wire (a reset connection, a request that
hangs, a 429 with Retry-After, a body that is not JSON), and a proxy produces them for the
real client stack (SDK, HTTP pool, retries, limiter, cache, journal) without touching it.

A share ``fault_rate`` of the requests whose path ends with ``fault_paths`` gets one fault,
drawn from ``kinds`` by a seeded generator; the others are forwarded unchanged:

    429        HTTP 429 with ``Retry-After`` (``retry_after`` seconds)
    500, 503   a server error
    hang       no answer for ``hang_seconds`` (past the client's timeout), then a close
    reset      the connection is reset (RST) before any answer
    garbled    HTTP 200 whose body is not JSON
    malformed  the upstream's answer with its assistant content replaced by broken JSON
    truncated  the upstream's answer cut in half, with ``finish_reason: "length"``

Set ``fault_rate = 0`` to let every request through (the endpoint "recovers"), or
``max_faults`` to have it recover by itself after that many faults.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import struct
import threading
from collections import Counter
from typing import Any
from ragmeter.errors import InvalidOption

KINDS = ("429", "500", "503", "hang", "reset", "garbled", "malformed", "truncated")


class FaultProxy:
    """Use as a context manager: ``with FaultProxy(upstream_port, seed=7) as proxy: proxy.base_url``."""

    def __init__(
        self,
        upstream_port: int,
        *,
        fault_rate: float = 0.3,
        seed: int = 0,
        kinds: tuple[str, ...] = KINDS,
        fault_paths: tuple[str, ...] = ("/chat/completions",),
        hang_seconds: float = 1.0,
        retry_after: float = 0.05,
        max_faults: int | None = None,
    ) -> None:
        unknown = set(kinds) - set(KINDS)
        if unknown:
            raise InvalidOption(f"unknown fault kinds {sorted(unknown)}; known: {KINDS}")
        self.upstream_port = upstream_port
        self.fault_rate = fault_rate
        self.kinds = kinds
        self.fault_paths = fault_paths
        self.hang_seconds = hang_seconds
        self.retry_after = retry_after
        self.max_faults = max_faults
        self.injected: Counter[str] = Counter()
        self.forwarded = 0
        self._random = random.Random(seed)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self.port = 0

    # --- lifecycle ---------------------------------------------------------------------

    def start(self) -> "FaultProxy":
        self._thread = threading.Thread(target=self._serve, daemon=True, name="fault-proxy")
        self._thread.start()
        if not self._started.wait(10):
            raise RuntimeError("the fault proxy did not start")
        return self

    def _serve(self) -> None:
        self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._connection, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._started.set()
        self._loop.run_forever()
        self._server.close()
        pending = asyncio.all_tasks(self._loop)  # connections still open (keep-alive, a hang)
        for task in pending:
            task.cancel()
        self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self._loop.run_until_complete(self._server.wait_closed())
        self._loop.close()

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop = None

    def __enter__(self) -> "FaultProxy":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # --- one client connection: requests one after another (keep-alive) --------------------

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await _read_request(reader)
                if request is None:
                    break
                keep_open = await self._answer(request, writer)
                if not keep_open:
                    break
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            if not writer.is_closing():
                writer.close()

    def _draw(self, path: str) -> str | None:
        if not path.split("?", 1)[0].endswith(self.fault_paths):
            return None
        with self._lock:
            if self.max_faults is not None and sum(self.injected.values()) >= self.max_faults:
                return None
            if self._random.random() >= self.fault_rate:
                return None
            kind = self._random.choice(self.kinds)
            self.injected[kind] += 1
            return kind

    async def _answer(self, request: tuple[str, str, dict[str, str], bytes], writer: asyncio.StreamWriter) -> bool:
        method, path, headers, body = request
        fault = self._draw(path)
        if fault == "reset":
            sock = writer.get_extra_info("socket")
            if sock is not None:  # linger 0: close() sends RST, as a crashed peer would
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
            return False
        if fault == "hang":
            await asyncio.sleep(self.hang_seconds)
            return False
        if fault in ("429", "500", "503"):
            extra = {"Retry-After": f"{self.retry_after:g}"} if fault == "429" else {}
            error = {"error": {"message": f"injected HTTP {fault}", "type": "server_error", "code": None}}
            await _respond(writer, int(fault), json.dumps(error).encode(), extra)
            return True
        if fault == "garbled":
            await _respond(writer, 200, b'{"id": "chatcmpl-x", "choices": [{"message": ', {})
            return True
        status, upstream_body = await self._forward(method, path, headers, body)
        with self._lock:
            self.forwarded += 1
        if status == 200 and fault in ("malformed", "truncated"):
            upstream_body = _spoil(upstream_body, fault)
        await _respond(writer, status, upstream_body, {})
        return True

    async def _forward(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, bytes]:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        try:
            head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.upstream_port}", "Connection: close",
                    f"Content-Length: {len(body)}"]
            head += [f"{k}: {v}" for k, v in headers.items() if k not in ("host", "connection", "content-length")]
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        head_bytes, _, payload = raw.partition(b"\r\n\r\n")
        status = int(head_bytes.split(b" ", 2)[1])
        return status, payload


def _spoil(body: bytes, fault: str) -> bytes:
    """The upstream's chat completion with its content broken (malformed) or cut off (truncated)."""
    try:
        data = json.loads(body)
        choice = data["choices"][0]
    except (ValueError, KeyError, IndexError):
        return body
    content = choice["message"].get("content") or ""
    if fault == "malformed":
        choice["message"]["content"] = "{" + content.strip("{}").replace('"', "'")[:200] + ","
    else:
        choice["message"]["content"] = content[: max(1, len(content) // 2)]
        choice["finish_reason"] = "length"
    return json.dumps(data).encode()


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str], bytes] | None:
    line = await reader.readline()
    if not line:
        return None
    method, path, _ = line.decode("latin-1").split(" ", 2)
    headers: dict[str, str] = {}
    while True:
        header = await reader.readline()
        if header in (b"\r\n", b"\n", b""):
            break
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return method, path, headers, body


async def _respond(writer: asyncio.StreamWriter, status: int, body: bytes, extra: dict[str, str]) -> None:
    reasons = {200: "OK", 429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable"}
    head = [f"HTTP/1.1 {status} {reasons.get(status, 'Status')}", "Content-Type: application/json",
            f"Content-Length: {len(body)}", "Connection: keep-alive"]
    head += [f"{k}: {v}" for k, v in extra.items()]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
    await writer.drain()
