"""One file in, its text blocks out: the per-format readers behind ``load_documents``.

Markdown, text, HTML and DOCX go through unstructured's partitioners, which know each
format's structure (headings, list items, tables, page breaks) and label every block
(``Title``, ``NarrativeText``, ``ListItem``...). The first ``Title`` is what a document is
called. reStructuredText (Sphinx documentation) is turned into HTML by docutils and read as
HTML (``restructured_text``).

PDF is read with pdfminer.six, page by page, with unstructured's block classifier applied to
each text box. That is what unstructured's own ``strategy="fast"`` does, but its
``partition_pdf`` module imports ``unstructured_inference`` (layout models: onnxruntime,
opencv, torch with CUDA wheels) even on the fast path; calling pdfminer directly keeps the
install light. No OCR: a scanned PDF has no text and is reported as such.

Every failure that belongs to the file (corrupt, empty, unreadable, no text) becomes a
``ParseError`` with a reason for a person; failures of the environment (a missing package
or model) are ``IngestSetupError`` and stop the run, since every file would fail alike.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable

from ragmeter.extras import require
from testset_gen.documents.unstructured_offline import IngestSetupError, quiet_unstructured

FORMATS: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".docx": "docx",
    ".rst": "rst",
    ".rest": "rst",
}
"""File extension (lower case) -> format name, for every format ``parse_file`` reads."""

from testset_gen.documents.table_rows import table_rows
from testset_gen.documents.text_cleanup import clean_block, separate_headings

_LANGUAGES = ["eng"]  # skips unstructured's random language detection (see unstructured_offline)


class ParseError(Exception):
    """This file cannot be read; ``reason`` says why, in words for the person who owns it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Block:
    """A run of text the format marks as one unit (a heading, a paragraph, a list item)."""

    text: str
    category: str
    page: int | None = None


@dataclass(frozen=True)
class ParsedFile:
    """A file's blocks in reading order, and the title the format declares, if any."""

    format: str
    blocks: tuple[Block, ...]
    declared_title: str | None = None
    """The title the file declares outside its body (HTML ``<title>``), if any."""

    @property
    def first_title(self) -> str | None:
        return next((b.text for b in self.blocks if b.category == "Title"), None)


def is_supported(path: Path) -> bool:
    return path.suffix.lower() in FORMATS


def parse_file(path: Path) -> ParsedFile:
    """Read ``path`` into blocks. Raises ``ParseError`` for a bad file, ``ValueError`` for an
    extension no reader handles, ``IngestSetupError`` for a broken environment."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(
            f"{path.name}: unsupported file type {path.suffix!r} "
            f"(supported: {', '.join(sorted(FORMATS))})"
        )
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ParseError(f"unreadable: {exc.strerror or exc}") from exc
    if size == 0:
        raise ParseError("empty file")
    try:
        with path.open("rb") as f:  # fail early and plainly on permissions
            f.read(1)
    except OSError as exc:
        raise ParseError(f"unreadable: {exc.strerror or exc}") from exc

    try:
        parsed = _READERS[fmt](path)
    except (ParseError, IngestSetupError):
        raise
    except ImportError as exc:
        raise IngestSetupError(f"reading {fmt} files needs a missing package: {exc}") from exc
    except Exception as exc:  # noqa: BLE001 (a corrupt file can raise anything)
        raise ParseError(f"could not parse as {fmt}: {type(exc).__name__}: {exc}") from exc
    if not parsed.blocks:
        if fmt == "pdf":
            raise ParseError("no extractable text (a scanned PDF? OCR is not enabled)")
        raise ParseError("no text found")
    return parsed


# --- readers -------------------------------------------------------------------------------


def _blocks_from_elements(elements: list[Any]) -> tuple[Block, ...]:
    """unstructured's elements as cleaned blocks (``text_cleanup``): escapes removed,
    navigation dropped, a glued heading split off, a table as pipe rows."""
    blocks = []
    for element in elements:
        text = (getattr(element, "text", "") or "").strip()
        category = getattr(element, "category", "") or "UncategorizedText"
        if not text or category == "PageBreak":
            continue
        metadata = getattr(element, "metadata", None)
        page = getattr(metadata, "page_number", None)
        if category == "Table":
            text = table_rows(getattr(metadata, "text_as_html", None) or "") or text
        for part in clean_block(text, category):
            blocks.append(Block(text=part, category=category,
                                page=page if isinstance(page, int) else None))
    return tuple(blocks)


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),  # UTF-32 first: the
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),    # LE BOMs share a prefix
         (codecs.BOM_UTF16_BE, "utf-16"))


def read_source_text(path: Path) -> str:
    """The text of a Markdown, text or HTML file: by its BOM, else as UTF-8 (ASCII is UTF-8),
    and only when neither fits by unstructured's statistical guess.

    Why not unstructured's ``filename=`` reading: it sends every pure-ASCII file to
    charset_normalizer, which calls some of them Shift_JIS ("the | value `code` a~b ^": '~'
    and '\\' are bytes Shift_JIS shares with ASCII), and warns "The file encoding was
    inferred as 'SHIFT_JIS'" naming no file. A guess still made (a Latin-1 file) warns too,
    and ``load_documents`` puts the file's name in front of that warning."""
    raw = path.read_bytes()
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return raw.decode(encoding, errors="replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    with quiet_unstructured():
        from unstructured.errors import UnprocessableEntityError
        from unstructured.file_utils.encoding import detect_file_encoding

        try:
            return detect_file_encoding(file=raw)[1]
        except UnprocessableEntityError as exc:
            raise ParseError(f"its text encoding could not be determined ({exc})") from None


def _read_markdown(path: Path) -> ParsedFile:
    text = read_source_text(path)
    with quiet_unstructured():
        from unstructured.partition.md import partition_md

        elements = partition_md(text=text, languages=_LANGUAGES)
    return ParsedFile("markdown", _blocks_from_elements(elements))


def _read_text(path: Path) -> ParsedFile:
    with quiet_unstructured():
        from unstructured.partition.text import partition_text

        raw = read_source_text(path)
        elements = partition_text(text=separate_headings(raw), languages=_LANGUAGES)
    return ParsedFile("text", _blocks_from_elements(elements))


def _html_blocks(html: str) -> tuple[Block, ...]:
    with quiet_unstructured():
        from unstructured.partition.html import partition_html

        return _blocks_from_elements(partition_html(text=html, languages=_LANGUAGES))


def _read_html(path: Path) -> ParsedFile:
    return ParsedFile("html", _html_blocks(read_source_text(path)), _html_title(path))


def _read_rst(path: Path) -> ParsedFile:
    """reStructuredText through docutils to HTML (``restructured_text``), then the HTML reader."""
    from testset_gen.documents.restructured_text import rst_to_html

    require("docs", "docutils", "reading reStructuredText files")
    html, title = rst_to_html(read_source_text(path))
    return ParsedFile("rst", _html_blocks(html), title)


def _read_docx(path: Path) -> ParsedFile:
    with quiet_unstructured():
        from unstructured.partition.docx import partition_docx

        elements = partition_docx(filename=str(path), languages=_LANGUAGES)
    return ParsedFile("docx", _blocks_from_elements(elements))


def _read_pdf(path: Path) -> ParsedFile:
    extract_pages = require("docs", "pdfminer.high_level", "reading PDF files").extract_pages
    from pdfminer.layout import LAParams, LTTextContainer

    boxes: list[tuple[str, int]] = []
    for number, page in enumerate(extract_pages(str(path), laparams=LAParams()), start=1):
        for item in page:
            if isinstance(item, LTTextContainer):
                text = _join_pdf_lines(item.get_text())
                if text:
                    boxes.append((text, number))
    if not boxes:
        return ParsedFile("pdf", ())
    with quiet_unstructured():
        from unstructured.partition.text import element_from_text

        blocks = tuple(Block(text=part, category=category, page=page)
                       for text, page in boxes
                       for category in [element_from_text(text).category]
                       for part in clean_block(text, category))
    return ParsedFile("pdf", blocks)


_READERS: dict[str, Callable[[Path], ParsedFile]] = {
    "markdown": _read_markdown,
    "text": _read_text,
    "html": _read_html,
    "rst": _read_rst,
    "docx": _read_docx,
    "pdf": _read_pdf,
}


# --- helpers -------------------------------------------------------------------------------

_SPACES = re.compile(r"[ \t\f\v\u00a0]+")


def _join_pdf_lines(raw: str) -> str:
    """A PDF text box's lines as one paragraph: PDFs break lines for layout, not meaning.

    A line ending in a hyphen is joined without a space ("hyphen-" + "ated" stays
    "hyphen-ated": a wrong hyphen is better than gluing "well-" + "known" into one word)."""
    lines = [_SPACES.sub(" ", line).strip() for line in raw.splitlines()]
    out = ""
    for line in lines:
        if not line:
            continue
        if out and not out.endswith("-"):
            out += " "
        out += line
    return out


class _TitleFinder(HTMLParser):
    """Collects the text of the first ``<title>`` element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._inside = False
        self._done = False
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and not self._done:
            self._inside = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._inside:
            self._inside = False
            self._done = True

    def handle_data(self, data: str) -> None:
        if self._inside:
            self.parts.append(data)


def _html_title(path: Path) -> str | None:
    raw = path.read_bytes()[:65536]  # <title> lives in <head>, near the top
    finder = _TitleFinder()
    finder.feed(raw.decode("utf-8", errors="replace"))
    title = " ".join("".join(finder.parts).split())
    return title or None
