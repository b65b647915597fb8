"""Documents in: files and framework objects read into ``Document``s, cut into ``Chunk``s.

Readers per format (``file_readers``), the folder walk (``ingest``), sentence-aware
chunking (``chunking``), and the language check the offline rules need (``language``).
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "Document": "testset_gen.documents.document",
    "Chunk": "testset_gen.documents.document",
    "content_id": "testset_gen.documents.document",
    "load_documents": "testset_gen.documents.ingest",
    "IngestResult": "testset_gen.documents.ingest",
    "IngestWarning": "testset_gen.documents.ingest",
    "chunk_documents": "testset_gen.documents.chunking",
    "detect_language": "testset_gen.documents.language",
    "sentence_spans": "testset_gen.documents.sentence_split",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    # lazy, as the top-level package: importing the package loads no parser or model
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
