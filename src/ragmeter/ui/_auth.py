"""Who may read the runs: evaluation data holds a team's documents, so a UI reachable from
other machines asks for an access token on every page and API call.

The token is accepted as ``Authorization: Bearer TOKEN``, as ``?token=TOKEN`` (the link to
open in a browser; the answer then sets an HttpOnly cookie, so the page's own requests and
links carry it), and that cookie in its stead: it holds a value derived from the token, not
the token (``ragmeter.ui._session``). Refused requests get 401 and one log line that names the
method, the path and the client, never the token or the query string it may sit in.
"""

from __future__ import annotations

import html
import ipaddress
import logging
from typing import Any, Awaitable, Callable
from urllib.parse import quote, unquote_plus

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from ragmeter.errors import UnsafeAccess
from ragmeter.ui._session import COOKIE, Session

log = logging.getLogger("ragmeter.ui")

ENV_TOKEN = "RAGMETER_UI_TOKEN"
MIN_TOKEN_LENGTH = 16
BOUNCED = "bounced"
"""The query parameter marking a page's one reload to fetch its SameSite=Strict cookie."""
REFUSED = "401: this ragmeter UI needs its access token (open the link with ?token=...)"


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
            raise UnsafeAccess(f"the access token has {len(token)} characters; give one of at least {MIN_TOKEN_LENGTH} "
                               "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(24))')")
        return token
    if is_loopback(host):
        return None
    raise UnsafeAccess(f"binding to {host} makes the runs readable from other machines: set an access token in "
                       f"${ENV_TOKEN} (--token works too, but every user of this machine sees it in ps)")


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


def _same_url_without(scope: dict, names: frozenset[str]) -> str:
    """The path and query of the request, less the query parameters in ``names``, as a
    ``Location`` on this site: leading slashes collapse to one (``//evil.example/`` would
    send the browser to another site), anything unusual in the path stays percent-encoded,
    and the parameters kept are the very bytes the request sent."""
    raw = scope.get("raw_path") or scope["path"].encode("utf-8")
    path = "/" + quote(raw.decode("latin-1"), safe="/%:@!$&'()*+,;=-._~").lstrip("/")
    query = scope.get("query_string", b"").decode("latin-1")
    kept = [part for part in query.split("&") if part and unquote_plus(part.partition("=")[0]) not in names]
    return path + ("?" + "&".join(kept) if kept else "")


class TokenGuard:
    """Starlette middleware: every request must carry ``token``, or the session cookie a
    ``?token=`` link set (see ``ragmeter.ui._session``).

    The link's answer is a 303 to the same URL without the token, cookie set, so the token
    leaves the address bar and the history entry. A browser that follows a link from another
    site (chat, mail) withholds a SameSite=Strict cookie on that navigation and on its
    redirects, so a page request that comes with no credential at all, maybe for that
    reason, gets a 401 page that reloads itself once, now started by this site, with
    ``bounced=1`` added (the marker stops a second reload); with the cookie, that reload is
    sent on to the URL without the marker."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.session = Session(token)

    def _accepts(self, kind: str | None, offered: str | None) -> bool:
        if offered is None:
            return False
        return self.session.cookie_matches(offered) if kind == "cookie" else self.session.token_matches(offered)

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[Any]],
                       send: Callable[..., Awaitable[Any]]) -> None:
        if scope["type"] == "websocket":  # the UI has none: no way around the token
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        kind, offered = _offered(request)
        response: Response
        if not self._accepts(kind, offered):
            client = f"{request.client.host}:{request.client.port}" if request.client else "?"
            log.warning("refused %s %s from %s: %s", request.method, request.url.path, client,
                        "no token" if offered is None else "wrong token")
            if request.url.path.startswith("/api/"):
                response = JSONResponse({"detail": "an access token is required"}, status_code=401)
            elif kind is None and _may_lack_a_strict_cookie(request):
                here = _same_url_without(scope, frozenset({BOUNCED}))
                again = html.escape(here + ("&" if "?" in here else "?") + f"{BOUNCED}=1", quote=True)
                response = HTMLResponse(f'<!DOCTYPE html>\n<meta http-equiv="refresh" content="0; url={again}">'
                                        f"<title>401</title><p>{REFUSED}</p>\n", status_code=401,
                                        headers={"Cache-Control": "no-store"})
            else:
                response = PlainTextResponse(REFUSED, status_code=401)
            response.headers["WWW-Authenticate"] = "Bearer"
        elif kind == "query" or BOUNCED in request.query_params:
            clean = _same_url_without(scope, frozenset({"token", BOUNCED}))
            response = Response(status_code=303, headers={"Location": clean, "Cache-Control": "no-store"})
            if kind == "query":
                response.headers.append("Set-Cookie", self.session.set_cookie())
        else:
            await self.app(scope, receive, send)
            return
        await response(scope, receive, send)


def _may_lack_a_strict_cookie(request: Request) -> bool:
    """Whether a page request with no credential may be a navigation from another site, on
    which the browser withheld the cookie: a GET of a page, not yet bounced, that the browser
    did not mark as started on this site or by the user (``Sec-Fetch-Site``; browsers send it
    only to secure contexts, 127.0.0.1 and localhost among them, so its absence proves
    nothing)."""
    return (request.method == "GET" and not request.url.path.startswith("/assets/")
            and BOUNCED not in request.query_params
            and request.headers.get("sec-fetch-site") not in ("same-origin", "none"))
