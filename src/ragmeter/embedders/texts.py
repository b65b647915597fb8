"""Input checks shared by the embedders."""

from __future__ import annotations

from typing import Sequence

from ragmeter.errors import InvalidInput


def check_texts(texts: Sequence[str]) -> list[str]:
    """A list of ``str``; one bare string or a non-string item is an ``InvalidInput``."""
    if isinstance(texts, (str, bytes)):
        raise InvalidInput("embed() takes a sequence of texts, not one string: wrap it in a list")
    out = list(texts)
    for i, text in enumerate(out):
        if not isinstance(text, str):
            raise InvalidInput(f"text {i} to embed is {type(text).__name__}, not str")
    return out


def nonblank_indices(texts: list[str]) -> list[int]:
    """Positions of texts with something besides whitespace (blank texts get zero rows)."""
    return [i for i, text in enumerate(texts) if text.strip()]
