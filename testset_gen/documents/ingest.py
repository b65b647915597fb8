"""Documents in: a folder, one file, LangChain ``Document``s or LlamaIndex nodes.

Whatever the source, the result is a list of ``Document`` in a deterministic order (sorted
paths for a folder, the caller's order for objects), so that the same input gives the same
ids and, downstream, the same test set.

A file that cannot be read (corrupt, empty, unreadable, a PDF with no text layer) must not
stop the run, and must not vanish either: it is listed in ``IngestResult.skipped`` with the
reason, logged, and warned about (``IngestWarning``) by name. Files of other types are
counted in ``IngestResult.unsupported`` and otherwise ignored: a docs folder is full of
images and stylesheets nobody wants a warning for. Hidden files and folders (``.git``,
``.DS_Store``) are not looked at.

LangChain and LlamaIndex are optional; their objects are duck-typed, never imported.
"""

from __future__ import annotations

import json
import logging
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence, Union

from testset_gen.documents.document import Document
from testset_gen.documents.file_readers import FORMATS, ParsedFile, ParseError, parse_file

logger = logging.getLogger(__name__)

Source = Union[str, os.PathLike, Sequence[Any]]

_BLOCK_SEPARATOR = "\n\n"


class IngestWarning(UserWarning):
    """A source was skipped; the message names it and says why."""


@dataclass
class IngestResult:
    """The documents read, and what was left out.

    ``skipped``: ``(path or id, reason)`` for every source that should have been read and
    could not; ``unsupported``: paths of files whose type no reader handles.
    """

    documents: list[Document] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.documents)


def load_documents(source: Source, *, recursive: bool = True) -> IngestResult:
    """Read ``source`` into documents.

    ``source`` is a folder (every supported file in it, in subfolders too unless
    ``recursive=False``), a single file, or a list of LangChain ``Document``s
    (``.page_content``, ``.metadata``) or LlamaIndex nodes/documents (``.get_content()`` or
    ``.text``, ``.metadata``, ``.node_id``/``.id_``). Supported files: Markdown, text, HTML,
    PDF (text layer only, no OCR), DOCX and reStructuredText.
    """
    result = IngestResult()
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if path.is_dir():
            _load_folder(path, recursive, result)
        elif path.is_file():
            if path.suffix.lower() not in FORMATS:
                raise ValueError(
                    f"{path}: unsupported file type {path.suffix!r} "
                    f"(supported: {', '.join(sorted(FORMATS))})"
                )
            _load_file(path, path.name, result)
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    elif _is_document_like(source):
        _load_objects([source], result)
    elif isinstance(source, Iterable) and not isinstance(source, (bytes, bytearray)):
        _load_objects(list(source), result)
    else:
        raise TypeError(
            "load_documents() takes a folder or file path, or a list of LangChain Documents "
            f"or LlamaIndex nodes; got {type(source).__name__}"
        )

    for name, reason in result.skipped:
        warnings.warn(f"skipped {name}: {reason}", IngestWarning, stacklevel=2)
    logger.info("ingested %d documents (%d skipped, %d unsupported files)",
                len(result.documents), len(result.skipped), len(result.unsupported))
    return result


# --- files ---------------------------------------------------------------------------------


def _load_folder(root: Path, recursive: bool, result: IngestResult) -> None:
    for path, relative in _walk(root, recursive):
        if path.suffix.lower() in FORMATS:
            _load_file(path, relative, result)
        else:
            result.unsupported.append(relative)


def _walk(root: Path, recursive: bool) -> list[tuple[Path, str]]:
    """Every non-hidden file under ``root`` as ``(path, relative posix path)``, sorted by
    relative path. Symlinked folders are not followed (no cycles, no escaping the root)."""
    found: list[tuple[Path, str]] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = [d for d in dirs if not d.startswith(".")] if recursive else []
        for name in files:
            if name.startswith("."):
                continue
            path = Path(folder) / name
            found.append((path, path.relative_to(root).as_posix()))
    return sorted(found, key=lambda item: item[1])


def _load_file(path: Path, source: str, result: IngestResult) -> None:
    """Read one file; any warning raised while reading it (a parser's, an encoding guess)
    is issued again with the file's name in front, so that a user of a folder of a
    thousand files knows which one it is about."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            parsed: ParsedFile | None = parse_file(path)
        except ParseError as exc:
            parsed = None
            reason = exc.reason
    for w in caught:
        text = str(w.message)
        warnings.warn(text if source in text else f"{source}: {text}", w.category, stacklevel=3)
    if parsed is None:
        _skip(result, source, reason)
        return
    result.documents.append(_document_from_file(parsed, source, path))


def _document_from_file(parsed: ParsedFile, source: str, path: Path) -> Document:
    """Blocks joined by blank lines; ``pages`` records the offset where each page starts."""
    parts: list[str] = []
    pages: list[tuple[int, int]] = []
    # each block's span and the format's label for it (``Title``, ``ListItem``, ``Table``):
    # the offline recipes ask about sections, lists and tables (``documents.structure``)
    spans: list[list[Any]] = []
    offset = 0
    for block in parsed.blocks:
        if parts:
            offset += len(_BLOCK_SEPARATOR)
        if block.page is not None and (not pages or pages[-1][1] != block.page):
            pages.append((offset, block.page))
        parts.append(block.text)
        spans.append([offset, offset + len(block.text), block.category])
        offset += len(block.text)
    text = _BLOCK_SEPARATOR.join(parts)
    title = parsed.first_title or parsed.declared_title or path.stem
    metadata: dict[str, Any] = {"format": parsed.format, "blocks": spans}
    if parsed.declared_title:
        metadata["declared_title"] = parsed.declared_title
    return Document.make(text, source, title=title, pages=pages, metadata=metadata)


def _skip(result: IngestResult, name: str, reason: str) -> None:
    # info, not warning: the IngestWarning and ``skipped`` already tell the user, and a
    # CLI that logs warnings would name the file twice
    logger.info("skipped %s: %s", name, reason)
    result.skipped.append((name, reason))


# --- LangChain / LlamaIndex objects ----------------------------------------------------------


def _is_document_like(obj: Any) -> bool:
    return hasattr(obj, "page_content") or callable(getattr(obj, "get_content", None))


def _load_objects(objects: list[Any], result: IngestResult) -> None:
    for index, obj in enumerate(objects):
        if hasattr(obj, "page_content"):
            kind, text, ident = "langchain", obj.page_content, getattr(obj, "id", None)
        elif callable(getattr(obj, "get_content", None)) or hasattr(obj, "text"):
            getter = getattr(obj, "get_content", None)
            text = getter() if callable(getter) else obj.text
            kind = "llamaindex"
            ident = getattr(obj, "node_id", None) or getattr(obj, "id_", None)
        else:
            raise TypeError(
                f"item {index} ({type(obj).__name__}) is neither a LangChain Document "
                "(.page_content) nor a LlamaIndex node (.get_content() or .text)"
            )
        metadata = dict(getattr(obj, "metadata", None) or {})
        source = _object_source(metadata, ident, kind, index)
        if not isinstance(text, str) or not text.strip():
            _skip(result, source, "empty text")
            continue
        extra = {"origin": kind}
        if ident is not None:
            extra["id"] = str(ident)
        page = _object_page(metadata)
        result.documents.append(Document.make(
            text, source,
            title=_object_title(metadata, source),
            pages=[(0, page)] if page is not None else [],
            metadata={**_json_safe(metadata), **extra},
        ))


def _object_source(metadata: dict[str, Any], ident: Any, kind: str, index: int) -> str:
    """A path from the metadata when there is one, else the object's id, else its position.

    A path comes first because a person can read it in a citation, and because LlamaIndex
    ids are random UUIDs unless set: as a source they would change every document id on
    every run."""
    for key in ("source", "file_path", "file_name", "filename", "url"):
        value = metadata.get(key)
        if isinstance(value, str) and value.strip():
            return value
    if ident is not None and str(ident).strip():
        return str(ident)
    return f"{kind}-{index}"


def _object_title(metadata: dict[str, Any], source: str) -> str | None:
    for key in ("title", "document_title", "doc_title"):
        value = metadata.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    for key in ("source", "file_path", "file_name", "filename"):
        if metadata.get(key) == source:
            return Path(source).stem or None
    return None


def _object_page(metadata: dict[str, Any]) -> int | None:
    """The 1-based page an object comes from.

    ``page_number`` (unstructured, LlamaIndex) is 1-based; ``page`` is LangChain's PDF
    loaders' 0-based index; ``page_label`` (LlamaIndex) is the printed label, used when it
    is a number."""
    number = metadata.get("page_number")
    if isinstance(number, int) and not isinstance(number, bool) and number >= 1:
        return number
    page = metadata.get("page")
    if isinstance(page, int) and not isinstance(page, bool) and page >= 0:
        return page + 1
    label = metadata.get("page_label")
    if isinstance(label, str) and label.strip().isdigit():
        return int(label.strip())
    return None


def _json_safe(metadata: dict[str, Any]) -> dict[str, Any]:
    """Keep the metadata a JSON knowledge graph can store; drop the rest (clients, bytes)."""
    safe: dict[str, Any] = {}
    for key, value in metadata.items():
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            continue
        safe[str(key)] = value
    return safe
