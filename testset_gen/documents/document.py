"""What the generator reads: documents, and the chunks it cuts them into.

Both are plain pydantic models so that they can be saved in the knowledge graph's
node-link JSON and compared across runs (the ids are content hashes: the same folder gives
the same ids on every machine, which is what makes a test set reproducible).
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, Field


def content_id(*parts: str, prefix: str) -> str:
    """A short, stable id from text: ``prefix`` + 16 hex digits of its SHA-256."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]
    return f"{prefix}{digest}"


class Document(BaseModel):
    """One source document's text and where it came from.

    ``source``: the file's path relative to the folder it was found in (or the id given by
    a LangChain ``Document`` / LlamaIndex node); ``title``: the first title element, the
    HTML ``<title>`` or the file name; ``pages``: for paged formats (PDF), the 1-based page
    of each character offset where a page starts, as ``[[offset, page], ...]``.
    """

    id: str
    text: str
    source: str
    title: str | None = None
    pages: list[tuple[int, int]] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def make(cls, text: str, source: str, **fields: Any) -> "Document":
        return cls(id=content_id(source, text, prefix="doc-"), text=text, source=source, **fields)

    def page_at(self, offset: int) -> int | None:
        """The page that holds character ``offset`` (``None`` for unpaged documents)."""
        page = None
        for start, number in self.pages:
            if start > offset:
                break
            page = number
        return page


class Chunk(BaseModel):
    """A piece of a document, cut at sentence boundaries.

    ``start``/``end`` are character offsets into the document's text; ``index`` is the
    chunk's position in its document (reading order); ``page`` the page it starts on.
    """

    id: str
    document_id: str
    text: str
    index: int
    start: int
    end: int
    source: str
    title: str | None = None
    page: int | None = None
    tokens: int = 0

    @classmethod
    def make(cls, document: Document, text: str, index: int, start: int, end: int,
             tokens: int) -> "Chunk":
        return cls(
            id=content_id(document.id, str(start), text, prefix="chunk-"),
            document_id=document.id, text=text, index=index, start=start, end=end,
            source=document.source, title=document.title, page=document.page_at(start),
            tokens=tokens,
        )

    def source_metadata(self) -> dict[str, Any]:
        """What a test-set record cites about this chunk."""
        return {"chunk_id": self.id, "source": self.source, "title": self.title,
                "page": self.page}
