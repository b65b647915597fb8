"""Checking an embeddings endpoint's reply before any of it becomes a vector.

Why: an OpenAI-compatible server is any server (vLLM, Ollama, a proxy, a model swapped
behind a name), and a reply that is valid JSON can still not be the vectors asked for. Taken
as it came, each such reply gave a silent number or an untyped crash: NaN or infinite
values, vectors of dimension 0, or two vectors of different models compared, scored a
cosine of 0.0 or some value with no error; two vectors with one index scored the first text
against itself; a null or ragged vector, or no ``data``, failed as ``MetricFailed`` with a
numpy or ``TypeError`` message. Every one is now an ``EmbedderError`` naming what was
wrong, raised before anything is cached, so a rerun once the endpoint is fixed scores.

Transient (``EmbedderError``'s flag), like a reply with the wrong number of vectors always
was: a resumed run asks again. Not retried within the call: unlike a body cut short, a
wrong reply usually comes back the same, and retries would only multiply the requests.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ragmeter.embedders.protocol import normalise_rows
from ragmeter.errors import EmbedderError


def checked_vectors(name: str, data: Any, count: int, earlier_dim: int | None) -> np.ndarray:
    """The ``(count, dim)`` unit vectors in ``data`` (the reply's ``data`` items), in index
    order, or ``EmbedderError`` saying why they are not the vectors of ``count`` texts.
    ``earlier_dim``: the dimension of the endpoint's earlier replies, if any."""
    if not isinstance(data, list):
        raise EmbedderError(f"{name} returned no 'data' list of vectors (got {type(data).__name__})")
    if len(data) != count:
        raise EmbedderError(f"{name} returned {len(data)} vectors for {count} texts")
    indices = [getattr(item, "index", None) for item in data]
    if sorted(i if type(i) is int else -1 for i in indices) != list(range(count)):
        raise EmbedderError(f"{name} returned vectors with indices {indices}, not 0 to {count - 1}")
    rows = [item.embedding for item in sorted(data, key=lambda item: item.index)]
    for index, row in enumerate(rows):
        if not isinstance(row, list) or not all(_is_number(x) for x in row):
            raise EmbedderError(f"{name}: the vector at index {index} is not a list of numbers")
    dims = sorted({len(row) for row in rows}, reverse=True)
    if len(dims) > 1:
        raise EmbedderError(f"{name} returned vectors of different dimensions ({', '.join(map(str, dims))}) "
                            "in one reply")
    dim = dims[0]
    if dim == 0:
        raise EmbedderError(f"{name} returned vectors of dimension 0")
    if earlier_dim is not None and dim != earlier_dim:
        raise EmbedderError(f"{name} returned vectors of dimension {dim} where its earlier replies had "
                            f"{earlier_dim}: the model behind the endpoint changed, and vectors of two models "
                            "do not compare")
    for index, row in enumerate(rows):
        if not all(math.isfinite(x) for x in row):
            raise EmbedderError(f"{name} returned NaN or infinite values in the vector at index {index}")
    vectors = np.asarray(rows, dtype=np.float64)
    if np.abs(vectors).max() > np.finfo(np.float32).max:  # finite, but infinite as float32
        raise EmbedderError(f"{name} returned values too large for float32 vectors")
    return normalise_rows(vectors)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
