"""Who may read the runs: evaluation data holds a team's documents, so a UI reachable from
other machines asks for an access token on every page and API call.

The token is accepted as ``Authorization: Bearer TOKEN``, as ``?token=TOKEN`` (the link to
open in a browser; the answer then sets an HttpOnly cookie, so the page's own requests and
links carry it), and that cookie in its stead: it holds a value derived from the token, not
the token (``ragmeter.ui._session``). Refused requests get 401 and one log line that names the
method, the path and the client, never the token or the query string it may sit in.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any, Awaitable, Callable

from starlette.requests import Request

from ragmeter.errors import UnsafeAccess
from ragmeter.ui._session import COOKIE, Session
from starlette.responses import JSONResponse, PlainTextResponse, Response

log = logging.getLogger("ragmeter.ui")

ENV_TOKEN = "RAGMETER_UI_TOKEN"
MIN_TOKEN_LENGTH = 16


def is_loopback(host: str) -> bool:
    """Whether binding to ``host`` keeps the UI on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def required_token(host: str, token: str | None) -> str | None:
    """The token the UI bound to ``host`` checks: ``token`` if given; on loopback none is
    needed; anywhere else ``UnsafeAccess`` without one. A token shorter than
    ``MIN_TOKEN_LENGTH`` is ``UnsafeAccess`` too, wherever bound: the UI answers as fast as it
    can, so a short token falls to guessing."""
    if token:
        if len(token) < MIN_TOKEN_LENGTH:
            raise UnsafeAccess(f"the access token has {len(token)} characters; give one of at least "
                               f"{MIN_TOKEN_LENGTH} (e.g. python -c 'import secrets; print(secrets.token_urlsafe(24))')")
        return token
    if is_loopback(host):
        return None
    raise UnsafeAccess(f"binding to {host} makes the runs readable from other machines: give an access token "
                       f"(--token or ${ENV_TOKEN})")


def _offered(request: Request) -> tuple[str | None, str | None]:
    """How the request carries its credential ("bearer", "query" or "cookie") and the value."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return "bearer", header[7:].strip()
    if "token" in request.query_params:
        return "query", request.query_params["token"]
    if COOKIE in request.cookies:
        return "cookie", request.cookies[COOKIE]
    return None, None


class TokenGuard:
    """Starlette middleware: every request must carry ``token``, or the session cookie a
    ``?token=`` link set (see ``ragmeter.ui._session``)."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.session = Session(token)

    def _accepts(self, kind: str | None, offered: str | None) -> bool:
        if offered is None:
            return False
        return self.session.cookie_matches(offered) if kind == "cookie" else self.session.token_matches(offered)

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[Any]], send: Callable[..., Awaitable[Any]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        kind, offered = _offered(request)
        if not self._accepts(kind, offered):
            client = f"{request.client.host}:{request.client.port}" if request.client else "?"
            log.warning("refused %s %s from %s: %s", request.method, request.url.path, client,
                        "no token" if offered is None else "wrong token")
            response: Response
            if request.url.path.startswith("/api/"):
                response = JSONResponse({"detail": "an access token is required"}, status_code=401)
            else:
                response = PlainTextResponse("401: this ragmeter UI needs its access token (open the link with "
                                             "?token=...)", status_code=401)
            response.headers["WWW-Authenticate"] = "Bearer"
            await response(scope, receive, send)
            return
        if kind != "query":
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message: dict) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", []).append((b"set-cookie", self.session.set_cookie().encode()))
            await send(message)

        await self.app(scope, receive, send_with_cookie)
