"""The embedder interface: a batch of texts -> a matrix of unit vectors."""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from ragmeter.calls.usage import Usage


@runtime_checkable
class Embedder(Protocol):
    """``embed`` returns an ``(len(texts), dim)`` float32 array whose rows have unit L2 norm,
    so a dot product is a cosine similarity."""

    @property
    def name(self) -> str: ...

    @property
    def usage(self) -> Usage: ...

    async def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def normalise_rows(vectors: np.ndarray) -> np.ndarray:
    """Scale each row to unit length; an all-zero row stays zero instead of becoming NaN."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)
