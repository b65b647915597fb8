"""A store file that cannot be read: told apart from other database errors, and said in one line.

SQLite reports a file that is not a database (garbage bytes, another format) as
``SQLITE_NOTADB`` and one that is cut short or whose WAL holds damaged pages as
``SQLITE_CORRUPT``. Either, wherever it surfaces (opening the store, listing runs, a batch of
samples mid-run), becomes ``RunStoreDamaged``: a message that names the file and the two ways
on (move it aside, or ``--no-record``), instead of a traceback that ends in SQLAlchemy's
wrapper and leaves the user guessing which file is broken.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import sqlalchemy as sa

from ragmeter.errors import RunStoreDamaged

log = logging.getLogger("ragmeter")

SQLITE_CORRUPT = 11
SQLITE_NOTADB = 26
_DAMAGE_WORDS = ("file is not a database", "database disk image is malformed", "malformed database schema")


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc`` (a DB-API error) says the SQLite file itself is damaged, as opposed to
    a lock, a full disk or a permission, which leave the file sound."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+: the extended result code
    if code is not None:
        return code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB)
    return any(words in str(exc) for words in _DAMAGE_WORDS)


def damaged(path: str, exc: BaseException) -> RunStoreDamaged:
    why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return RunStoreDamaged(
        f"the run store {path} is damaged ({why}): move it aside to start a new store there, "
        "or run evaluate with --no-record"
    )


def probe(path: Path) -> None:
    """``RunStoreDamaged`` if the SQLite file at ``path`` cannot be read, found through a
    read-only connection before the store opens it for writing.

    Why before: a writing connection that meets a damaged WAL still checkpoints it into the
    database when it closes, copying the damaged pages over the good ones in the main file.
    A read-only one cannot, so the files are left as they were, for whoever tries to rescue
    them. Errors other than damage (a lock, a permission) are left to the writing connection."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return
    except OSError:
        return
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        if is_damage(exc):
            raise damaged(str(path), exc) from None
    finally:
        connection.close()


def raise_on_damage(engine: sa.Engine, path: str) -> None:
    """Turn a damaged-file error on any statement or connection of ``engine`` into
    ``RunStoreDamaged`` naming ``path``; other errors pass through unchanged."""

    def handle_error(context: sa.engine.ExceptionContext) -> None:
        if is_damage(context.original_exception):
            raise damaged(path, context.original_exception)

    sa.event.listen(engine, "handle_error", handle_error)


def note_if_empty(path: Path) -> None:
    """A 0-byte file is taken as a new, empty store, with a notice naming it.

    Why accept rather than refuse: SQLite creates the file when it first opens it and writes
    its header only with the first table, so a second process opening the store in that
    instant (two evaluations starting at once, as CI jobs do) finds 0 bytes; refusing would
    fail it for nothing. And a file of 0 bytes holds no runs that using it could lose. The
    notice is for the other way to get one (a store truncated by a failed copy): whoever
    expected runs there learns they are gone, instead of finding an empty list unexplained.
    """
    try:
        empty = path.is_file() and path.stat().st_size == 0
    except OSError:
        return
    if empty:
        log.warning("%s is an empty file (0 bytes): starting a new run store in it", path)
