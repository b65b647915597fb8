"""Traffic files decoded as text, in the encoding their first bytes say.

Why a byte that is not UTF-8 does not stop the read: traffic files are written by many
hands, and one Latin-1 byte pasted in by a script must cost its line or its span, not the
file. UTF-8 is decoded with ``surrogateescape``: a bad byte survives as a marker in the text
that the readers find and name (``bad_text``) where they meet it, and the rest is read.

Why UTF-16 and UTF-32 are read rather than refused: JSON may be written in them (RFC 8259
asks for UTF-8 between systems, but Windows PowerShell's ``>`` writes UTF-16), and the first
bytes say which: a byte order mark, or, without one, where the zero bytes fall around the
first ASCII character (``json.detect_encoding``). Those are decoded strictly; a file that
breaks its own encoding is refused whole, in one line naming it (``undecodable``), since
without a byte order of UTF-8's kind there is no line to resynchronise on. A UTF-8 byte order
mark is dropped.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Iterator

UTF8 = ("utf-8", "utf-8-sig")


def encoding_of(head: bytes) -> str:
    """The encoding of a JSON text that starts with ``head`` (its first 4 bytes or more)."""
    return json.detect_encoding(head)


def undecodable(exc: UnicodeDecodeError) -> str:
    """Why a UTF-16 or UTF-32 file could not be read, in one line."""
    return f"cannot be decoded as {exc.encoding} (its byte order mark or zero bytes say so): {exc.reason}"


def read_text(path: Path) -> str:
    """The whole file as text: UTF-8 with bad bytes kept as markers, UTF-16 or UTF-32
    strictly (``UnicodeDecodeError``); ``OSError`` when it cannot be read."""
    data = path.read_bytes()
    encoding = encoding_of(data[:4])
    if encoding in UTF8:
        return data.removeprefix(codecs.BOM_UTF8).decode("utf-8", "surrogateescape")
    return data.decode(encoding)


def text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` for each line of the file, read one at a time, decoded as
    ``read_text`` does. Lines end at a newline only: a U+2028 inside a JSON string does not
    end one."""
    with path.open("rb") as fh:
        encoding = encoding_of(fh.read(4))
        fh.seek(0)
        if encoding in UTF8:
            for number, raw in enumerate(fh, start=1):
                if number == 1:
                    raw = raw.removeprefix(codecs.BOM_UTF8)
                yield number, raw.decode("utf-8", "surrogateescape")
            return
    with path.open(encoding=encoding, newline="\n") as text:
        yield from enumerate(text, start=1)
