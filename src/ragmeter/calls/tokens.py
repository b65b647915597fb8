"""Token counts estimated without the provider's tokenizer, for dry runs.

OpenAI's tokenizers cut English into about 1.3 tokens per word: a short word is one token,
a long or rare word two or three, each punctuation mark one. The estimate counts words and
marks, plus one token per 7 characters beyond the 6th of a long word, and 4 tokens of
framing per chat message. With ``tiktoken`` installed (not a dependency), its
``o200k_base`` encoding is used instead and the count is exact for OpenAI's current models.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Sequence

_PIECE = re.compile(r"\w+|[^\w\s]")
MESSAGE_OVERHEAD = 4
"""Tokens each chat message costs beyond its text (role and separators)."""


def _approx(text: str) -> int:
    pieces = _PIECE.findall(text)
    return len(pieces) + sum(max(0, len(p) - 6) // 7 for p in pieces)


@functools.lru_cache(maxsize=1)
def _counter() -> Callable[[str], int]:
    try:
        import tiktoken

        encoding = tiktoken.get_encoding("o200k_base")
    except Exception:  # noqa: BLE001 (absent, or its encoding file cannot be had offline)
        return _approx
    return lambda text: len(encoding.encode(text, disallowed_special=()))


def estimate_tokens(text: str) -> int:
    return _counter()(text)


def estimate_prompt_tokens(messages: Sequence[dict[str, Any]]) -> int:
    return sum(estimate_tokens(str(m.get("content", ""))) + MESSAGE_OVERHEAD for m in messages)
