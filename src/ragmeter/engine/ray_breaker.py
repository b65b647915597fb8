"""One circuit breaker per endpoint for a whole Ray run, as a local run has.

Why: the local engine's judge has one ``CircuitBreaker`` for every call of the run, so ten
connection failures in a row, wherever they happened, stop the run
(``ragmeter.calls.breaker``). Each Ray worker builds its own judge, and with it a breaker
of its own: every worker had to see its own ten failures before it stopped, so a run on W
workers sent up to W times the requests to an endpoint that was down, and took as many
rounds of retries longer to say so.

How: the driver starts one ``BreakerKeeper`` actor per role (judge, embedder) holding the
run's breaker. A worker's judge and embedder get a ``SharedBreaker``, which reports each
connection failure and each success to the keeper without waiting (a remote call per
judge call costs well under a millisecond against calls of a second) and keeps the
keeper's latest answer: its ``open`` is what the retry loop reads before each attempt and
while it backs off. A worker learns of a trip with the reply to its next report, so a
worker may send one more request per call in flight than a local run would.

This module does not import Ray: the keeper is a plain class that the Ray engine turns
into an actor, and a ``SharedBreaker`` only calls the handle it is given.
"""

from __future__ import annotations

import concurrent.futures
import time
from typing import Any

from ragmeter.calls.breaker import BreakerState, CircuitBreaker, unreachable


class BreakerKeeper:
    """The run's breaker for one endpoint role; run as a Ray actor (``num_cpus=0``)."""

    def __init__(self) -> None:
        self.breaker = CircuitBreaker()

    def connection_failed(self, error: str) -> BreakerState:
        self.breaker.connection_failed(error)
        return self.breaker.state()

    def success(self) -> BreakerState:
        self.breaker.success()
        return self.breaker.state()


class SharedBreaker(CircuitBreaker):
    """A worker's view of the run's breaker held by ``keeper`` (a ``BreakerKeeper`` actor)."""

    def __init__(self, keeper: Any) -> None:
        super().__init__()
        self._keeper = keeper
        self._seen = BreakerState(open=False, failures=0, span=0.0, last_error="", version=-1)

    def check(self, what: str) -> None:
        if self.open and time.monotonic() - self._opened >= self.cooldown:
            self.open = False  # as a breaker of its own would: the next report brings the keeper's view
        if self.open:
            raise unreachable(what, self._seen)

    def connection_failed(self, error: str) -> None:
        self._follow(self._keeper.connection_failed.remote(error))

    def success(self) -> None:
        self._follow(self._keeper.success.remote())

    def state(self) -> BreakerState:
        return self._seen

    def _follow(self, reply: Any) -> None:
        reply.future().add_done_callback(self._learn)

    def _learn(self, reply: concurrent.futures.Future[BreakerState]) -> None:
        try:
            state = reply.result()
        except Exception:  # noqa: BLE001 (the keeper is gone: the run is ending; calls go on as they were)
            return
        with self._lock:
            if state.version <= self._seen.version:
                return  # replies may arrive out of order; an older state never replaces a newer one
            self._seen = state
            if state.open and not self.open:
                self._opened = time.monotonic()
            self.open = state.open
