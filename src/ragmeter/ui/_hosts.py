"""Which ``Host`` headers the UI answers: the defence against DNS rebinding.

A web page on ``evil.example`` can point its own name at 127.0.0.1 once the browser has
loaded it; the browser then sends that page's requests to the UI on this machine, and lets
the page read the answers, because to the browser it is all one origin, ``evil.example``.
The only trace of the trick the UI can see is the ``Host`` header, which says
``evil.example``. So the UI answers only requests addressed to a name it is served on: the
loopback names (``localhost``, ``127.0.0.1``, ``[::1]``) and the address or name it is bound
to, each with or without a port. Anything else gets 421 and no data.

Bound to every interface (``0.0.0.0``, ``::``), the UI cannot know the names other machines
reach it by, so it answers any ``Host``; it then requires its access token (see
``ragmeter.ui._auth``), which a rebinding page does not have.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

from starlette.datastructures import Headers
from starlette.responses import JSONResponse, PlainTextResponse, Response

log = logging.getLogger("ragmeter.ui")

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
WILDCARD_BINDS = frozenset({"0.0.0.0", "::", "[::]", ""})


def host_name(header: str) -> str | None:
    """The name part of a ``Host`` header, lower-cased, IPv6 addresses in brackets; ``None``
    when the header is malformed (a port that is not a number, a bare IPv6 address...).

    ``host_name("LocalHost:8765") == "localhost"``, ``host_name("[::1]:80") == "[::1]"``.
    """
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        if end < 0:
            return None
        name, rest = header[: end + 1], header[end + 1:]
    else:
        name, colon, port = header.partition(":")
        rest = colon + port
    if rest and not (rest.startswith(":") and rest[1:].isascii() and rest[1:].isdigit()):
        return None
    return name or None


def allowed_names(bound: str) -> frozenset[str] | None:
    """The names the UI bound to ``bound`` answers to; ``None`` for every name (a wildcard
    bind, where the token does the guarding)."""
    bound = bound.strip().lower()
    if bound in WILDCARD_BINDS:
        return None
    if ":" in bound and not bound.startswith("["):  # an IPv6 address, as --host takes it
        bound = f"[{bound}]"
    return LOOPBACK_NAMES | {bound}


class HostGuard:
    """ASGI middleware: requests whose ``Host`` is not one of ``names`` get 421 and no data
    (all pass when ``names`` is ``None``). It wraps everything else, the token check
    included, so a foreign name learns nothing, not even whether a token is needed."""

    def __init__(self, app: Any, names: frozenset[str] | None) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[Any]],
                      send: Callable[..., Awaitable[Any]]) -> None:
        if self.names is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = Headers(scope=scope).get("host", "")
        if host_name(header) in self.names:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":  # the UI has none; refuse the handshake all the same
            await send({"type": "websocket.close", "code": 1008})
            return
        client = scope.get("client")
        log.warning("refused %s %s from %s: Host %r is not a name this UI is served on", scope.get("method", "?"),
                    scope.get("path", "?"), f"{client[0]}:{client[1]}" if client else "?", header[:100])
        message = "this ragmeter UI answers only to the names it is served on (localhost, 127.0.0.1, [::1])"
        response: Response
        if scope.get("path", "").startswith("/api/"):
            response = JSONResponse({"detail": message}, status_code=421)
        else:
            response = PlainTextResponse(f"421: {message}", status_code=421)
        await response(scope, receive, send)
