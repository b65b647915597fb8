"""How ragmeter calls models: disk cache, retries, adaptive concurrency, usage accounting.

Shared by judges and embedders; knows nothing of metrics.
"""

from ragmeter.calls.cache import DiskCache, cache_key, default_cache_dir
from ragmeter.calls.limiter import AdaptiveLimiter
from ragmeter.calls.retry import RetryPolicy, TransientCallError, call_with_retries
from ragmeter.calls.usage import Prices, Usage

__all__ = [
    "AdaptiveLimiter",
    "DiskCache",
    "Prices",
    "RetryPolicy",
    "TransientCallError",
    "Usage",
    "cache_key",
    "call_with_retries",
    "default_cache_dir",
]
