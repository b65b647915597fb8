"""JSON parsed without recursion, for documents nested deeper than Python's parser goes.

Why: ``json.loads`` recurses once per level of nesting and raises RecursionError past about
a thousand levels. One span holding a value nested 100,000 deep would then cost every other
trace in its file (or on its line). ``loads`` tries ``json.loads`` first (C, fast) and only
on a RecursionError parses the text again here, with an explicit stack: the document comes
back whole however deep it is, and the span reader, which reads attribute values to a
bounded depth, names the deep value and skips its span.

The grammar is ``json.loads``'s (``NaN`` and ``Infinity`` included, control characters in
strings refused) and so are the errors: ``json.JSONDecodeError`` with the same messages for
the cases the readers tell apart ("Extra data" above all).
"""

from __future__ import annotations

import json
import math
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # public, C-accelerated, not in the stubs
from typing import Any

_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_CONSTANTS = (("null", None), ("true", True), ("false", False), ("NaN", math.nan), ("Infinity", math.inf),
              ("-Infinity", -math.inf))


def loads(text: str) -> Any:
    """``json.loads(text)``, at any depth of nesting."""
    try:
        return json.loads(text)
    except RecursionError:
        return loads_iteratively(text)


def _skip(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]  # matches the empty string


def _key(text: str, pos: int) -> tuple[str, int]:
    """An object's key and the position of its value."""
    if text[pos:pos + 1] != '"':
        raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, pos)
    key, pos = scanstring(text, pos + 1, True)
    pos = _skip(text, pos)
    if text[pos:pos + 1] != ":":
        raise json.JSONDecodeError("Expecting ':' delimiter", text, pos)
    return key, _skip(text, pos + 1)


def _scalar(text: str, pos: int) -> tuple[Any, int]:
    """A string, number or constant starting at ``pos``, and the position after it."""
    char = text[pos:pos + 1]
    if char == '"':
        return scanstring(text, pos + 1, True)
    number = _NUMBER.match(text, pos)
    if number is not None:
        integer, fraction, exponent = number.groups()
        if fraction or exponent:
            return float(integer + (fraction or "") + (exponent or "")), number.end()
        return int(integer), number.end()
    for word, value in _CONSTANTS:
        if text.startswith(word, pos):
            return value, pos + len(word)
    raise json.JSONDecodeError("Expecting value", text, pos)


def loads_iteratively(text: str) -> Any:
    """Parse ``text`` as JSON with a stack of open containers instead of recursion."""
    containers: list[list[Any] | dict[str, Any]] = []
    keys: list[str] = []  # the pending key of each open object, in order
    pos = _skip(text, 0)
    while True:
        # a value starts at pos: open a container, or read a scalar
        char = text[pos:pos + 1]
        value: Any
        if char in ("{", "["):
            pos = _skip(text, pos + 1)
            if text[pos:pos + 1] == ("}" if char == "{" else "]"):
                value, pos = ({} if char == "{" else []), pos + 1
            elif char == "{":
                containers.append({})
                key, pos = _key(text, pos)
                keys.append(key)
                continue
            else:
                containers.append([])
                continue
        else:
            value, pos = _scalar(text, pos)
        # a value ended at pos: put it in its container, closing every container it completes
        while True:
            if not containers:
                pos = _skip(text, pos)
                if pos != len(text):
                    raise json.JSONDecodeError("Extra data", text, pos)
                return value
            container = containers[-1]
            if isinstance(container, list):
                container.append(value)
            else:
                container[keys[-1]] = value
            pos = _skip(text, pos)
            following = text[pos:pos + 1]
            if following == ",":
                pos = _skip(text, pos + 1)
                if isinstance(container, dict):
                    keys[-1], pos = _key(text, pos)
                break
            if following == ("]" if isinstance(container, list) else "}"):
                value, pos = containers.pop(), pos + 1
                if isinstance(value, dict):
                    keys.pop()
                continue
            raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
