"""Retries with exponential backoff that honour Retry-After, and a per-call timeout.

Backends raise ``TransientCallError`` for failures worth another try (429, 5xx, dropped
connections) and typed errors for the rest. ``call_with_retries`` owns the loop, so every
backend gets the same behaviour and the SDKs' own retry loops stay off (they would hide
429s from the adaptive limiter and double the waiting).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Awaitable, Callable, TypeVar

from ragmeter.calls.breaker import CircuitBreaker
from ragmeter.calls.limiter import AdaptiveLimiter
from ragmeter.errors import JudgeTimeout, JudgeUnavailable, RateLimited

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try. ``max_attempts`` counts the first try; ``timeout`` is per attempt
    (both come from ``LLMCallOptions``, where their defaults are written)."""

    max_attempts: int
    timeout: float
    backoff_base: float = 0.5
    backoff_max: float = 30.0
    # A server asking to wait longer than this is treated as down rather than waited on.
    max_retry_after: float = 120.0
    jitter: float = 0.25

    def backoff(self, attempt: int) -> float:
        """Delay before retry number ``attempt`` (1-based): base * 2^(attempt-1), capped, jittered."""
        delay = min(self.backoff_max, self.backoff_base * (2 ** (attempt - 1)))
        return delay * (1 + random.uniform(-self.jitter, self.jitter))


class TransientCallError(Exception):
    """A failure that another attempt may fix. ``retry_after`` is the server's wish, in seconds."""

    def __init__(
        self, message: str, *, rate_limited: bool = False, retry_after: float | None = None, connection: bool = False
    ):
        super().__init__(message)
        self.rate_limited = rate_limited
        self.retry_after = retry_after
        self.connection = connection
        """No HTTP answer at all (refused, reset): what the circuit breaker counts."""


def parse_retry_after(headers: "dict[str, str] | object | None") -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    get = getattr(headers, "get", None)
    if get is None:
        return None
    if (ms := get("retry-after-ms")) is not None:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        from email.utils import parsedate_to_datetime
        from datetime import datetime, timezone

        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


RetryHook = Callable[[int, BaseException, float], None]


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    limiter: AdaptiveLimiter | None = None,
    on_retry: RetryHook | None = None,
    what: str = "call",
    breaker: CircuitBreaker | None = None,
) -> T:
    """Run ``attempt`` until it succeeds or the policy gives up; raise a typed error then.

    Waiting happens outside the limiter's slot so a backing-off call does not hold a place
    that a fresh call could use. With a ``breaker``, an endpoint found unreachable fails the
    call at once (``EndpointUnreachable``), before or between attempts.
    """
    last: BaseException | None = None
    for number in range(1, policy.max_attempts + 1):
        if breaker is not None:
            breaker.check(what)
        try:
            if limiter is None:
                result = await asyncio.wait_for(attempt(), policy.timeout)
            else:
                async with limiter.slot():
                    result = await asyncio.wait_for(attempt(), policy.timeout)
        except TimeoutError as exc:  # asyncio.TimeoutError is TimeoutError on 3.11+
            last = exc
            delay = policy.backoff(number)
        except TransientCallError as exc:
            last = exc
            if exc.connection and breaker is not None:
                breaker.connection_failed(str(exc))
            if exc.rate_limited and limiter is not None:
                limiter.on_rate_limited()
            if exc.retry_after is not None and exc.retry_after > policy.max_retry_after:
                break
            delay = exc.retry_after if exc.retry_after is not None else policy.backoff(number)
        else:
            if limiter is not None:
                limiter.on_success()
            if breaker is not None:
                breaker.success()
            return result
        if number < policy.max_attempts:
            if on_retry is not None:
                on_retry(number, last, delay)
            await _backoff(delay, breaker)

    if breaker is not None:
        breaker.check(what)  # tripped while this call waited: say so, not "failed after N"
    tries = f"after {policy.max_attempts} attempt(s)"
    if isinstance(last, TimeoutError):
        raise JudgeTimeout(f"{what} timed out ({policy.timeout:g}s per attempt) {tries}")
    if isinstance(last, TransientCallError) and last.rate_limited:
        raise RateLimited(f"{what} still rate limited {tries}: {last}")
    raise JudgeUnavailable(f"{what} failed {tries}: {last}")


async def _backoff(delay: float, breaker: CircuitBreaker | None) -> None:
    """Sleep ``delay`` seconds, waking early when the breaker trips meanwhile (a call
    backing off for 4 s must not hold the run back once the endpoint is known to be down)."""
    if breaker is None:
        await asyncio.sleep(delay)
        return
    loop = asyncio.get_running_loop()
    end = loop.time() + delay
    while not breaker.open and (left := end - loop.time()) > 0:
        await asyncio.sleep(min(left, 0.1))
