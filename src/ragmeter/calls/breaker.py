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

A judge or an embedder takes its breaker from ``new_breaker()``: its own, unless the code
building it shares one (``breakers_from``). The Ray engine does, so that the workers of a
run count their failures together as the calls of a local run do
(``ragmeter.engine.ray_breaker``).
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable, Iterator

from ragmeter.errors import EndpointUnreachable


@dataclass(frozen=True)
class BreakerState:
    """What a breaker knows, as plain values (sent between processes by the Ray engine)."""

    open: bool
    failures: int
    span: float
    """Seconds from the first failure of the current run of failures to now."""
    last_error: str
    version: int = 0
    """How many changes the breaker has seen: a newer state replaces an older one."""


def unreachable(what: str, state: BreakerState) -> EndpointUnreachable:
    """The error every call gets once ``state`` is open."""
    return EndpointUnreachable(
        f"{what} is unreachable: {state.failures} connection attempts in a row failed over "
        f"{state.span:.1f}s with no answer (last: {state.last_error}); the run stops here "
        "and its finished scores are kept: start the server, then run the same command again"
    )


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
        self._version = 0
        self.open = False

    def check(self, what: str) -> None:
        """Raise ``EndpointUnreachable`` if the endpoint was found unreachable."""
        self._cool_down()
        if self.open:
            raise unreachable(what, self.state())

    def success(self) -> None:
        with self._lock:
            if not self.open:
                self._failures, self._first = 0, None
                self._version += 1

    def connection_failed(self, error: str) -> None:
        self._cool_down()
        with self._lock:
            now = time.monotonic()
            if self._first is None:
                self._first = now
            self._failures += 1
            self._last_error = error
            self._version += 1
            if not self.open and self._failures >= self.threshold and now - self._first >= self.min_seconds:
                self.open, self._opened = True, now

    def state(self) -> BreakerState:
        with self._lock:
            return BreakerState(self.open, self._failures, self._span(), self._last_error, self._version)

    def _cool_down(self) -> None:
        if self.open and time.monotonic() - self._opened >= self.cooldown:
            with self._lock:
                self.open, self._failures, self._first = False, 0, None
                self._version += 1

    def _span(self) -> float:
        return 0.0 if self._first is None else time.monotonic() - self._first


_shared: ContextVar[Callable[[], CircuitBreaker] | None] = ContextVar("ragmeter_breaker_factory", default=None)


def new_breaker() -> CircuitBreaker:
    """The breaker for a judge or an embedder being built: a new one of its own, or the
    caller's shared one inside ``breakers_from``."""
    make = _shared.get()
    return CircuitBreaker() if make is None else make()


@contextmanager
def breakers_from(make: Callable[[], CircuitBreaker]) -> Iterator[None]:
    """Judges and embedders built inside take their breaker from ``make``."""
    token = _shared.set(make)
    try:
        yield
    finally:
        _shared.reset(token)
