"""One event loop for all of a process's async work, run on a background thread.

Why not ``asyncio.run`` per call: it makes a new loop and closes it when the call returns.
Clients that cache an async HTTP client for the whole process (langchain-openai does; so
does any SDK client kept in a module global) bind that client to the first loop they ran
on. The second ``run_app`` or ``evaluate`` in the process then reuses a client whose loop is
closed and a share of its requests fail with ``RuntimeError: Event loop is closed``. With
one long-lived loop, every call runs where the cached clients were made.

Why a background thread: ``evaluate()`` is called from plain scripts and from notebooks,
whose own loop is already running and cannot be re-entered. The caller's thread waits for
the result; Ctrl-C in the caller cancels the run on the loop and re-raises there, so the
CLI's "interrupted, resume later" path still works.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import functools
import threading
from typing import Any, Callable, Coroutine, TypeVar

T = TypeVar("T")

CANCEL_GRACE_S = 5.0
"""How long an interrupted caller waits for the cancelled run to unwind (close files and
connections, flush the journal) before it re-raises."""

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


_waiting: set[concurrent.futures.Future[Any]] = set()
"""The callers' futures not yet answered."""
_escaped: dict[concurrent.futures.Future[Any], BaseException] = {}
"""A KeyboardInterrupt or SystemExit that stopped the loop, for each caller it stopped."""


def _serve(loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
    asyncio.set_event_loop(loop)
    loop.call_soon(ready.set)
    while True:
        try:
            loop.run_forever()
        except (KeyboardInterrupt, SystemExit) as exc:
            # A task raised it (asyncio lets these two out of run_forever): as asyncio.run
            # would, cancel what runs and let it unwind, then hand it to every waiting caller.
            _unwind(loop, exc)
            continue
        return


def _unwind(loop: asyncio.AbstractEventLoop, exc: BaseException) -> None:
    with _lock:
        for future in _waiting:
            _escaped[future] = exc  # before the cancellation below wakes the caller
    tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in tasks:
        task.cancel()
    if tasks:
        try:
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        except BaseException:  # noqa: BLE001 (a second interrupt while unwinding: stop unwinding)
            pass


def shared_loop() -> asyncio.AbstractEventLoop:
    """The process's ragmeter loop, started on first use (a daemon thread named
    ``ragmeter-loop``)."""
    global _loop, _thread
    with _lock:
        if _loop is not None and _thread is not None and _thread.is_alive() and not _loop.is_closed():
            return _loop
        loop = asyncio.new_event_loop()
        ready = threading.Event()
        thread = threading.Thread(target=_serve, args=(loop, ready), name="ragmeter-loop", daemon=True)
        thread.start()
        ready.wait()
        _loop, _thread = loop, thread
        return loop


class _Escaped(Exception):
    """Carries a KeyboardInterrupt or SystemExit raised inside a run out of the loop.

    asyncio re-raises those two from ``run_forever`` itself: uncaught, one would stop the
    shared loop's thread and leave the caller waiting for a result that never comes."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(repr(original))
        self.original = original


async def _guarded(coro: Coroutine[Any, Any, T]) -> T:
    try:
        return await coro
    except (KeyboardInterrupt, SystemExit) as exc:
        raise _Escaped(exc) from None


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``make()`` to completion from synchronous code, on the shared loop.

    Called from inside the shared loop itself (an app that calls ``evaluate()`` from a
    coroutine ragmeter is running), waiting on that loop would deadlock, so that call runs
    on a loop of its own in a worker thread instead."""
    loop = shared_loop()
    if threading.current_thread() is _thread:
        with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragmeter") as pool:
            return pool.submit(lambda: asyncio.run(make())).result()
    future = asyncio.run_coroutine_threadsafe(_guarded(make()), loop)
    with _lock:
        _waiting.add(future)
    try:
        return future.result()
    except _Escaped as escaped:
        raise escaped.original from None
    except concurrent.futures.CancelledError:
        with _lock:
            original = _escaped.pop(future, None)
        if original is not None:
            raise original from None
        raise
    except BaseException:
        # KeyboardInterrupt (or any exception raised into this thread while it waited):
        # stop the run on the loop too, let it unwind, then re-raise to the caller.
        if not future.done():
            future.cancel()
            try:
                future.result(timeout=CANCEL_GRACE_S)
            except BaseException:  # noqa: BLE001 (the cancellation itself; the caller gets the original)
                pass
        raise
    finally:
        with _lock:
            _waiting.discard(future)
            _escaped.pop(future, None)


def _shutdown() -> None:
    """At exit: finish async generators, stop and close the loop, so no "Task was destroyed
    but it is pending" or "unclosed event loop" noise reaches the user's terminal."""
    loop, thread = _loop, _thread
    if loop is None or thread is None or loop.is_closed() or not thread.is_alive():
        return
    try:
        asyncio.run_coroutine_threadsafe(loop.shutdown_asyncgens(), loop).result(timeout=2.0)
    except BaseException:  # noqa: BLE001 (best effort at interpreter exit)
        pass
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=2.0)
    if not thread.is_alive():
        loop.close()  # else Python warns at exit of an unclosed event loop


atexit.register(_shutdown)


def synchronous(afunction: Callable[..., Coroutine[Any, Any, T]], doc: str) -> Callable[..., T]:
    """The blocking twin of ``afunction``, run on the shared loop: same parameters, same
    signature (for ``help`` and editors), declared once on the async form."""

    @functools.wraps(afunction)
    def call(*args: Any, **kwargs: Any) -> T:
        return run_sync(lambda: afunction(*args, **kwargs))

    call.__name__ = call.__qualname__ = afunction.__name__.removeprefix("a")
    call.__doc__ = doc
    return call
