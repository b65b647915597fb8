"""The cookie a ``?token=`` link sets: a value derived from the token, never the token.

A cookie holding the token itself would hand the token to anything that reads the browser's
cookie store or a request log, and it would stay good for as long as the token does,
restarts included. The cookie holds HMAC-SHA256 of the token under a key drawn when the UI
starts: it opens this process only (a restart, or another UI with the same token, does not
take it), and the token cannot be recovered from it. Every comparison is constant-time over
equal-length digests, so neither the token's length nor its first right characters leak.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

COOKIE = "ragmeter_session"


class Session:
    """The session cookie of one UI process guarded by ``token``."""

    def __init__(self, token: str) -> None:
        self._key = secrets.token_bytes(32)
        self._value = self._digest(token)

    def _digest(self, text: str) -> bytes:
        return hmac.new(self._key, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest().encode()

    def token_matches(self, offered: str) -> bool:
        """Whether ``offered`` (a bearer or ``?token=`` value) is the token."""
        return hmac.compare_digest(self._digest(offered), self._value)

    def cookie_matches(self, offered: str) -> bool:
        """Whether ``offered`` (the cookie's value) is this process's session value."""
        return hmac.compare_digest(offered.encode("utf-8", "surrogatepass"), self._value)

    def set_cookie(self) -> str:
        """The ``Set-Cookie`` header value: out of scripts' reach (HttpOnly), sent only on
        requests this site starts (SameSite=Strict), for every path."""
        return f"{COOKIE}={self._value.decode()}; HttpOnly; SameSite=Strict; Path=/"
