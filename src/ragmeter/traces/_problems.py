"""What was wrong with a part of a traffic file that was skipped, and where it was.

Why a bad span does not stop the read: a trace file holds the traffic of many users, written
by exporters, collectors and hand-made scripts; one truncated line or one span without an id
is common. Failing the whole file hides every good trace behind the first bad one. Instead
each bad part becomes one ``InputProblem`` naming the file, the line, the trace and span (or
its position in the request when it has no usable id), the field and what was wrong, and
the reader goes on with the rest.

Why problems are handed to a callback and not raised or returned at the end: the readers are
generators, so a caller sees each problem as it is found (the CLI prints it), and one that
wants the old all-or-nothing behaviour passes ``raise_problem``.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel

from ragmeter.errors import RagmeterError

log = logging.getLogger("ragmeter")


class TraceFileError(RagmeterError, ValueError):
    """A trace file, or a part of one, that cannot be read; the message names the file, the
    line or span, and the field."""


class InputProblem(BaseModel):
    """One skipped part of the input: a file, a line, a request, a span or a whole trace."""

    source: str | None = None
    """The file (or ``request N`` for requests passed in as dicts)."""
    line: int | None = None
    """1-based line in the file, for JSON Lines."""
    trace: str | None = None
    """The trace id, when known: a trace with a bad span is skipped whole."""
    span: str | None = None
    """The span id, when the span has one."""
    session: str | None = None
    """The session (conversation) id, for traces read as conversations."""
    path: str | None = None
    """Where in the request the bad part is (``resourceSpans[0].scopeSpans[1].spans[7]``),
    for a part with no usable id."""
    field: str | None = None
    """The offending field, as named in the file (``attributes[2].key``)."""
    message: str
    """What was expected and what was found."""

    def __str__(self) -> str:
        parts = [self.source] if self.source else []
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.session is not None:
            parts.append(f"session {_short(self.session)}")
        if self.trace is not None:
            parts.append(f"trace {_short(self.trace)}")
        if self.span is not None:
            parts.append(f"span {_short(self.span)}")
        elif self.path:
            parts.append(self.path)
        if self.field is not None:
            parts.append(f"field {self.field!r}")
        return f"{', '.join(parts) or 'input'}: {self.message}"


ProblemHandler = Callable[[InputProblem], None]
SHOWN_ID = 64
"""Characters of an id shown in a message: a 1 MB "trace id" must not become a 1 MB line."""


def _short(text: str) -> str:
    return text if len(text) <= SHOWN_ID else text[: SHOWN_ID - 3] + "..."


def log_problem(problem: InputProblem) -> None:
    """The default handler: one warning line per skipped part."""
    log.warning("skipped %s", problem)


def raise_problem(problem: InputProblem) -> None:
    """A handler that stops at the first problem, with a ``TraceFileError`` naming it."""
    raise TraceFileError(str(problem))


def describe(value: Any) -> str:
    """A value named for a message, short whatever it holds: a string is quoted (cut at 40
    characters), anything else is named by its JSON type. Containers are never printed: one
    nested 100,000 levels deep would end ``repr`` in a RecursionError."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}" if len(repr(value)) <= 40 else "a number"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def bad_text(text: str) -> str | None:
    """Why ``text`` cannot be written as UTF-8, or None when it can: a byte of the file that
    was not UTF-8 (read with ``surrogateescape``), or a lone surrogate from a JSON ``\\ud800``
    escape. Either would end the writing of the output file in a UnicodeEncodeError."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        char = text[exc.start]
        if "\udc80" <= char <= "\udcff":
            return f"invalid UTF-8: byte 0x{ord(char) - 0xDC00:02x} at character {exc.start + 1}"
        return f"a lone surrogate U+{ord(char):04X} at character {exc.start + 1} (not valid Unicode)"
    return None


def not_json(exc: ValueError, *, whole: bool = False) -> str:
    """A JSON error in a few words: what, and where in the line (or, ``whole``, the file)."""
    if isinstance(exc, json.JSONDecodeError):
        where = f"line {exc.lineno}, column {exc.colno}" if whole else f"column {exc.colno}"
        joint = " " if exc.msg.endswith(" at") else " at "  # "Unterminated string starting at"
        return f"not JSON ({exc.msg}{joint}{where})"
    return f"not JSON ({exc})"  # a number of more digits than Python converts


def trace_problems(source: str | Path | dict[str, Any] | list[Any],
                   on_problem: ProblemHandler | None) -> tuple[ProblemHandler, set[str]]:
    """The handler a reader of ``source`` reports to, and the traces it has had a problem
    with: each problem goes on to ``on_problem`` (default: a warning) with the file named, and
    its trace is remembered so that the reader leaves the whole trace out (a trace missing a
    span would score wrong while looking right)."""
    report = on_problem or log_problem
    name = None if isinstance(source, (dict, list)) else str(source)
    bad_traces: set[str] = set()

    def noted(problem: InputProblem) -> None:
        if problem.trace is not None:
            bad_traces.add(problem.trace)
        report(problem if problem.source or name is None else problem.model_copy(update={"source": name}))

    return noted, bad_traces
