"""How deeply a row's values may nest: rows nested deeper are named and skipped.

Why a limit: every sample is written out (the result file, the run store) and read back
(``EvaluationResult.load``, ``ragmeter runs``), and the JSON libraries on that path stop at
a depth: Python's ``json`` raises ``RecursionError`` (not a ``ValueError``) near 1,000
levels, and pydantic writes at most 255 and reads 200. A row nested 100,000 deep ended
``ragmeter evaluate`` with a ``RecursionError`` traceback while it was read; one nested 300
deep in its metadata was read and scored, then ended the run when its sample was recorded.
No evaluation set nests a hundred levels on purpose, so such a row is an input error like a
line that is not JSON: named (row, line), skipped, and the other rows scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_NESTING = 100
"""Deepest nesting of a row's metadata (a flat ``{"k": "v"}`` is 1), well inside every limit
on the way out and back (a sample sits a few levels down in a result document)."""

TOO_DEEP = (
    f"nested more than {MAX_NESTING} levels deep (lists or objects inside each other); "
    "a row that deep could not be written to a result file or read back"
)


def too_deep(value: Any, limit: int = MAX_NESTING) -> bool:
    """Whether ``value`` nests lists, tuples or mappings more than ``limit`` levels deep.

    Iterative, so it answers for any depth without recursing itself; it stops at the first
    branch past the limit."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
