"""A file of production traffic read as sample records, whatever wrote it: OTLP JSON traces
(an OpenTelemetry exporter or collector) or JSON Lines of records (ragmeter's callback
handlers, ``ragmeter ingest``).

Every record is checked as a ``Sample`` here, where the file and line are still known, so a
bad one is named against the user's file ("traffic.jsonl, line 7, field 'answer': ...")
rather than against a window written later; a line that is not JSON, not an object, or not
UTF-8 is named the same way, as ``ragmeter evaluate`` names a bad row, and the rest is read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Sequence

from ragmeter.conversations import load_conversations
from ragmeter.data import RowError, Sample
from ragmeter.data.dataset import parse_items
from ragmeter.errors import InvalidInput
from ragmeter.traces._problems import InputProblem, ProblemHandler, bad_text, describe, log_problem, not_json
from ragmeter.traces._sessions import has_sessions, ingest_otlp_conversations
from ragmeter.traces._text import text_lines, undecodable
from ragmeter.traces._traces import ingest_otlp

OTLP_MARKS = ('"resourceSpans"', '"resource_spans"')


def is_otlp(path: Path) -> bool:
    """Whether the file holds OTLP JSON: its first line names ``resourceSpans``, or opens a
    document written over many lines (a file of records has one whole object per line)."""
    for _, line in text_lines(path):
        if line.strip():
            return any(mark in line for mark in OTLP_MARKS) or line.strip() in ("{", "[")
    return False


def _objects(path: Path, report: ProblemHandler) -> Iterator[tuple[int, int | None, Any]]:
    """``(row, line, record)`` for each line of the file that is a JSON object."""
    row = 0
    for number, line in text_lines(path):
        if not line.strip():
            continue
        if (bad := bad_text(line)) is not None:
            report(InputProblem(source=str(path), line=number, message=bad))
            continue
        try:
            record = json.loads(line.rstrip("\r\n"))  # an error's column counts on this line
        except ValueError as exc:
            report(InputProblem(source=str(path), line=number, message=not_json(exc)))
            continue
        except RecursionError:
            report(InputProblem(source=str(path), line=number, message="not JSON Python can read (nested too deep)"))
            continue
        if not isinstance(record, dict):
            report(InputProblem(source=str(path), line=number, message=f"expected a JSON object, got {describe(record)}"))
            continue
        yield row, number, record
        row += 1


def read_records(path: str | Path, on_problem: ProblemHandler | None = None) -> Iterator[dict[str, Any]]:
    """Each good record of a JSON Lines file, checked as a ``Sample`` and in its canonical
    form; each bad line is reported to ``on_problem`` (default: a warning) and skipped."""
    report = on_problem or log_problem
    path = Path(path)
    for _, parsed in parse_items(_objects(path, report), plain=False):
        if isinstance(parsed, RowError):
            report(InputProblem(source=str(path), line=parsed.line, field=parsed.field, message=parsed.message))
        else:
            yield parsed.to_record()


def _checked(records: Iterator[dict[str, Any]], source: str, report: ProblemHandler) -> Iterator[dict[str, Any]]:
    for record in records:
        try:
            yield Sample.model_validate(record).to_record()
        except InvalidInput as exc:  # a record ingest built that is not a sample: a bug, but named, not fatal
            report(InputProblem(source=source, trace=record.get("id"), field=getattr(exc, "field", None),
                                message=getattr(exc, "detail", str(exc))))


def read_traffic_file(path: str | Path, on_problem: ProblemHandler | None = None) -> Iterator[dict[str, Any]]:
    """Every good record of one traffic file (OTLP JSON or JSON Lines of records); a file
    that cannot be read at all is reported once, the bad parts of one that can, each."""
    report = on_problem or log_problem
    path = Path(path)
    try:
        if is_otlp(path):
            yield from _checked(ingest_otlp(path, report), str(path), report)
            return
        for record in read_records(path, report):
            yield record
    except OSError as exc:
        report(InputProblem(source=str(path), message=f"cannot be read ({exc.strerror or exc})"))
    except UnicodeDecodeError as exc:
        report(InputProblem(source=str(path), message=undecodable(exc)))


def traffic_has_sessions(path: str | Path) -> bool:
    """Whether the file is OTLP JSON whose spans carry a session id: the traffic of a chat app
    (a file that cannot be read says no; the read that follows names why)."""
    try:
        return is_otlp(Path(path)) and has_sessions(path)
    except (OSError, UnicodeDecodeError):
        return False


def read_conversation_traffic_file(path: str | Path, on_problem: ProblemHandler | None = None, *,
                                   retrieval_tools: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    """Every good conversation of one traffic file, as a record: OTLP JSON traces grouped by
    session (``ingest_otlp_conversations``), or JSON Lines of conversation records (messages),
    each bad part reported to ``on_problem`` (default: a warning) and skipped."""
    report = on_problem or log_problem
    path = Path(path)
    try:
        if is_otlp(path):
            for chat in ingest_otlp_conversations(path, report, retrieval_tools=retrieval_tools):
                yield chat.to_record()
            return
        dataset = load_conversations(path, retrieval_tools=retrieval_tools or None)
        for error in dataset.errors:
            report(InputProblem(source=str(path), line=error.line, field=error.field, message=error.message))
        for sample in dataset.samples:
            yield sample.to_record()
    except OSError as exc:
        report(InputProblem(source=str(path), message=f"cannot be read ({exc.strerror or exc})"))
    except UnicodeDecodeError as exc:
        report(InputProblem(source=str(path), message=undecodable(exc)))
