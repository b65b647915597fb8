"""One switch for every cache of ``ragmeter.judges.local``: ``clear_caches()``.

The local judge memoises by text at several levels (spaCy docs and analyses, sentence
embeddings, word weights); a long-lived process (a server, a notebook scoring many runs)
needs one call that frees them all and makes the next judgement start cold. Each module
registers what it keeps when it is imported, so this module imports none of them (a module
not yet imported holds nothing) and no module imports upward to be cleared.
"""

from __future__ import annotations

import threading
import weakref
from typing import Callable, Protocol

__all__ = ["clear_caches", "register", "track"]


class Clearable(Protocol):
    def clear_cache(self) -> None: ...


_CLEARERS: list[Callable[[], None]] = []
_OWNERS: "weakref.WeakSet[Clearable]" = weakref.WeakSet()
_LOCK = threading.Lock()


def register(clear: Callable[[], None]) -> Callable[[], None]:
    """Call ``clear`` on ``clear_caches()`` (a module-level cache; usable as a decorator)."""
    with _LOCK:
        _CLEARERS.append(clear)
    return clear


def track(owner: Clearable) -> None:
    """Call ``owner.clear_cache()`` on ``clear_caches()`` while ``owner`` lives (an object
    with its own cache, such as a sentence encoder); held weakly."""
    with _LOCK:
        _OWNERS.add(owner)


def clear_caches() -> None:
    """Forget every cached parse, analysis, embedding and word weight of ``ragmeter.judges.local``.

    Loaded models stay loaded (reloading them is the slow part and they hold no per-text
    state); the next judgement recomputes everything else.
    """
    with _LOCK:
        clearers = list(_CLEARERS)
        owners = list(_OWNERS)
    for clear in clearers:
        clear()
    for owner in owners:
        owner.clear_cache()
