"""A circuit breaker: an endpoint that cannot be reached at all stops the run early.

Why: with connections refused on every call, each call spends every attempt and its
backoff (0.5 + 1 + 2 + 4 s with five attempts) before its score records the failure, so a
run over 1,000 samples takes an hour to say that the judge is down. The breaker counts
connection failures (refused, reset, DNS: no HTTP answer at all; not timeouts, 429s or
5xx, which a live server under load gives); after ``threshold`` of them in a row, spread
over at least ``min_seconds`` (so that one burst of concurrent calls during a blip does
not trip it), with no success in between, the endpoint is taken as unreachable: every
later call fails at once with ``EndpointUnreachable``, whose ``stops_run`` makes the
engine stop the run with that one error. A success resets the count, and ``cooldown``
seconds after it opened the breaker closes again (a judge object reused for a later run,
once the server is back, is not refused for good).
"""

from __future__ import annotations

import threading
import time

from ragmeter.errors import EndpointUnreachable


class CircuitBreaker:
    def __init__(self, threshold: int = 10, min_seconds: float = 3.0, cooldown: float = 30.0) -> None:
        self.threshold = threshold
        self.min_seconds = min_seconds
        self.cooldown = cooldown
        self._opened = 0.0
        self._lock = threading.Lock()
        self._failures = 0
        self._first: float | None = None
        self._last_error = ""
        self.open = False

    def check(self, what: str) -> None:
        """Raise ``EndpointUnreachable`` if the endpoint was found unreachable."""
        if self.open and time.monotonic() - self._opened >= self.cooldown:
            with self._lock:
                self.open, self._failures, self._first = False, 0, None
        if self.open:
            raise EndpointUnreachable(
                f"{what} is unreachable: {self._failures} connection attempts in a row failed over "
                f"{self._span():.1f}s with no answer (last: {self._last_error}); the run stops here "
                "and its finished scores are kept: start the server, then run the same command again"
            )

    def success(self) -> None:
        with self._lock:
            if not self.open:
                self._failures, self._first = 0, None

    def connection_failed(self, error: str) -> None:
        with self._lock:
            now = time.monotonic()
            if self._first is None:
                self._first = now
            self._failures += 1
            self._last_error = error
            if not self.open and self._failures >= self.threshold and now - self._first >= self.min_seconds:
                self.open, self._opened = True, now

    def _span(self) -> float:
        return 0.0 if self._first is None else time.monotonic() - self._first
