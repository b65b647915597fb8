"""An adaptive concurrency limit: halve on rate limiting, grow back one step at a time.

Why not a fixed semaphore: the right number of requests in flight depends on the provider's
quota at that moment, which nobody knows in advance. Additive increase / multiplicative
decrease (the rule TCP uses) finds it: every 429 halves the limit, and every ``limit``
successes in a row raise it by one, up to the ceiling the user set.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator

from ragmeter.errors import InvalidOption


class AdaptiveLimiter:
    def __init__(self, maximum: int = 16, initial: int | None = None, minimum: int = 1) -> None:
        if maximum < 1 or minimum < 1 or minimum > maximum:
            raise InvalidOption("concurrency must be at least 1 (AdaptiveLimiter needs 1 <= minimum <= maximum)")
        self.maximum = maximum
        self.minimum = minimum
        self.limit = min(maximum, initial or maximum)
        self.in_flight = 0
        self._successes = 0
        self._cond: asyncio.Condition | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _condition(self) -> asyncio.Condition:
        # Made lazily, and again for each new event loop: a judge may serve several
        # evaluate() calls, each with a loop of its own, and a Condition is bound to one.
        # The learned limit carries over; nothing can still be in flight in a finished loop.
        loop = asyncio.get_running_loop()
        if self._cond is None or self._loop is not loop:
            self._cond = asyncio.Condition()
            self._loop = loop
            self.in_flight = 0
        return self._cond

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        cond = self._condition()
        async with cond:
            await cond.wait_for(lambda: self.in_flight < self.limit)
            self.in_flight += 1
        try:
            yield
        finally:
            async with cond:
                self.in_flight -= 1
                cond.notify_all()

    def on_success(self) -> None:
        self._successes += 1
        if self._successes >= self.limit and self.limit < self.maximum:
            self.limit += 1
            self._successes = 0
            if self._cond is not None and self._loop is asyncio.get_running_loop():
                # Waiters re-check on the next release; a wake-up now lets one start at once.
                self._loop.create_task(self._wake())

    def on_rate_limited(self) -> None:
        self.limit = max(self.minimum, self.limit // 2)
        self._successes = 0

    async def _wake(self) -> None:
        cond = self._condition()
        async with cond:
            cond.notify_all()

    def __repr__(self) -> str:
        return f"AdaptiveLimiter(limit={self.limit}, maximum={self.maximum}, in_flight={self.in_flight})"
