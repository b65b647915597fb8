"""Ingestion: a folder of every supported type, bad files among them, and duck-typed objects.

The folder is made here (the PDF from hand-written bytes, the DOCX with python-docx) and
read once per module; a socket guard makes any network attempt, at import or while parsing,
fail the test.
"""

from __future__ import annotations

import logging
import os
import socket
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest

from document_files import make_docx, make_pdf
from testset_gen.documents.ingest import IngestResult, IngestWarning, load_documents

MD = """# Alpha Guide

The alpha system stores every record in an append-only ledger. It was first deployed in 2019.

- Records are immutable once written.
- Readers never block writers.
"""

TXT = """Beta Notes

Beta is a protocol for sending messages between services. It runs over TCP and uses TLS.

Each message carries a sequence number, so that a receiver can detect gaps and ask again.
"""

HTML = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Gamma Page</title>
<script>var tracking = "must not appear";</script></head>
<body><p>Gamma explains how the cache layer works. Caches reduce latency for repeated reads.</p>
<p>Entries expire after ten minutes, and a write invalidates the cached entry at once.</p>
</body></html>
"""


PDF_PAGES = [
    ["Epsilon Manual", "", "Epsilon is a scheduler for batch jobs.",
     "It assigns each job to the least loaded worker."],
    ["Failures are retried three times before a job is parked.",
     "Parked jobs wait for an operator."],
]


def build_folder(root: Path) -> Path:
    (root / "web" / "deep").mkdir(parents=True)
    (root / "guide.md").write_text(MD, encoding="utf-8")
    (root / "notes.txt").write_text(TXT, encoding="utf-8")
    (root / "web" / "page.html").write_text(HTML, encoding="utf-8")
    make_docx(root / "web" / "deep" / "report.docx")
    (root / "manual.pdf").write_bytes(make_pdf(PDF_PAGES))
    # The bad ones.
    (root / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf\n")
    (root / "empty.txt").write_bytes(b"")
    (root / "web" / "broken.docx").write_bytes(b"PK\x03\x04 not a real zip archive")
    # Ignored: another type (counted), and hidden entries (not even looked at).
    (root / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / ".hidden.md").write_text("# Secret\n\nNot to be read.\n", encoding="utf-8")
    (root / ".git").mkdir()
    (root / ".git" / "notes.md").write_text("# Git\n\nNot to be read.\n", encoding="utf-8")
    for path in root.rglob("*"):
        assert not path.is_file() or path.stat().st_size < 50_000, path
    return root


@pytest.fixture(scope="module")
def network_attempts() -> Iterator[list[Any]]:
    """Record (and refuse) every attempt to resolve a name or open a connection."""
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network access is not allowed in these tests")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket, "getaddrinfo", refuse)
        mp.setattr(socket, "create_connection", refuse)
        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket.socket, "connect_ex", refuse)
        yield attempts


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_folder(tmp_path_factory.mktemp("docs"))


@pytest.fixture(scope="module")
def ingested(folder: Path, network_attempts: list[Any]) -> tuple[IngestResult, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = load_documents(folder)
    messages = [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]
    return result, messages


def by_source(result: IngestResult) -> dict[str, Any]:
    return {d.source: d for d in result.documents}


def test_every_good_file_becomes_a_document_with_source_and_title(ingested):
    result, _ = ingested
    docs = by_source(result)
    assert list(docs) == ["guide.md", "manual.pdf", "notes.txt", "web/deep/report.docx",
                          "web/page.html"]  # sorted relative paths
    assert {s: d.title for s, d in docs.items()} == {
        "guide.md": "Alpha Guide",
        "manual.pdf": "Epsilon Manual",
        "notes.txt": "Beta Notes",
        "web/deep/report.docx": "Delta Report",
        "web/page.html": "Gamma Page",  # no heading element: the HTML <title>
    }
    assert "append-only ledger" in docs["guide.md"].text
    assert "Readers never block writers." in docs["guide.md"].text
    assert "sequence number" in docs["notes.txt"].text
    assert "improved by twelve percent" in docs["web/deep/report.docx"].text
    assert "Entries expire after ten minutes" in docs["web/page.html"].text
    assert "tracking" not in docs["web/page.html"].text
    assert docs["manual.pdf"].metadata["format"] == "pdf"
    assert len({d.id for d in result.documents}) == 5


def test_pdf_pages_are_character_offsets(ingested):
    pdf = by_source(ingested[0])["manual.pdf"]
    assert [page for _, page in pdf.pages] == [1, 2]
    assert pdf.pages[0][0] == 0
    second = pdf.text.index("Failures are retried")
    assert pdf.pages[1][0] == second
    assert pdf.page_at(pdf.text.index("least loaded worker")) == 1
    assert pdf.page_at(second) == 2
    assert pdf.page_at(len(pdf.text) - 1) == 2
    assert by_source(ingested[0])["guide.md"].pages == []


def test_bad_files_are_skipped_by_name_with_a_warning_and_the_rest_goes_on(ingested):
    result, messages = ingested
    skipped = dict(result.skipped)
    assert sorted(skipped) == ["broken.pdf", "empty.txt", "web/broken.docx"]
    assert skipped["empty.txt"] == "empty file"
    assert "pdf" in skipped["broken.pdf"] and "docx" in skipped["web/broken.docx"]
    for name in skipped:
        assert any(name in message for message in messages), (name, messages)
    assert len(result.documents) == 5


def test_other_types_are_counted_and_hidden_entries_ignored(ingested):
    result, _ = ingested
    assert result.unsupported == ["diagram.png"]
    sources = {d.source for d in result.documents} | {s for s, _ in result.skipped}
    assert not any("hidden" in s or ".git" in s for s in sources)


def test_ingested_documents_chunk_with_exact_offsets(ingested):
    from testset_gen.documents.chunking import chunk_documents

    result, _ = ingested
    chunks = chunk_documents(result.documents, max_tokens=32, overlap_tokens=8, min_tokens=4)
    texts = {d.id: d.text for d in result.documents}
    assert {c.source for c in chunks} == {d.source for d in result.documents}
    for c in chunks:
        assert texts[c.document_id][c.start:c.end] == c.text and c.tokens <= 32
    pdf_pages = {c.page for c in chunks if c.source == "manual.pdf"}
    assert pdf_pages == {1, 2}


def test_nothing_reaches_the_network(ingested, network_attempts):
    assert network_attempts == []


def test_unstructured_is_wired_to_refuse_model_downloads(ingested):
    from unstructured.nlp import tokenize

    from testset_gen.documents.unstructured_offline import IngestSetupError

    with pytest.raises(IngestSetupError, match="never downloads"):
        tokenize._install_spacy_model()


def test_telemetry_switches_are_restored_after_a_call(folder, network_attempts, monkeypatch):
    monkeypatch.delenv("UNSTRUCTURED_DISABLE_NOTICE", raising=False)
    monkeypatch.setenv("DO_NOT_TRACK", "")
    result = load_documents(folder / "notes.txt")
    assert [d.source for d in result.documents] == ["notes.txt"]
    assert "UNSTRUCTURED_DISABLE_NOTICE" not in os.environ
    assert os.environ["DO_NOT_TRACK"] == ""


def test_a_single_file_and_a_flat_folder(folder, network_attempts):
    single = load_documents(str(folder / "guide.md"))
    assert [(d.source, d.title) for d in single.documents] == [("guide.md", "Alpha Guide")]
    with pytest.warns(IngestWarning):
        flat = load_documents(folder, recursive=False)
    assert [d.source for d in flat.documents] == ["guide.md", "manual.pdf", "notes.txt"]
    assert sorted(s for s, _ in flat.skipped) == ["broken.pdf", "empty.txt"]


def test_a_skipped_file_is_logged_by_name(folder, network_attempts, caplog):
    with caplog.at_level(logging.INFO, logger="testset_gen.documents.ingest"):
        with pytest.warns(IngestWarning, match="broken.pdf"):
            result = load_documents(folder / "broken.pdf")
    assert result.documents == []
    assert any("broken.pdf" in r.getMessage() for r in caplog.records)


def test_bad_sources_raise_clear_errors(folder, tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        load_documents(tmp_path / "missing")
    with pytest.raises(ValueError, match="unsupported file type '.png'"):
        load_documents(folder / "diagram.png")
    with pytest.raises(TypeError, match="item 1"):
        load_documents([LangChainDoc("fine text"), 42])
    with pytest.raises(TypeError, match="got int"):
        load_documents(42)


# --- duck-typed LangChain / LlamaIndex objects -----------------------------------------------


class LangChainDoc:
    """Shaped like ``langchain_core.documents.Document``."""

    def __init__(self, page_content: str, metadata: dict[str, Any] | None = None,
                 id: str | None = None) -> None:
        self.page_content = page_content
        self.metadata = metadata or {}
        self.id = id


class LlamaNode:
    """Shaped like a LlamaIndex ``TextNode``: content through ``get_content()``."""

    def __init__(self, text: str, metadata: dict[str, Any], node_id: str) -> None:
        self._text = text
        self.metadata = metadata
        self.node_id = node_id

    def get_content(self) -> str:
        return self._text


class LlamaTextOnly:
    """An older LlamaIndex ``Document``: ``.text`` and ``.id_`` only."""

    def __init__(self, text: str, id_: str) -> None:
        self.text = text
        self.metadata: dict[str, Any] = {}
        self.id_ = id_


def test_langchain_documents_load():
    docs = [
        LangChainDoc("Zeta routes packets between regions.",
                     {"source": "kb/zeta.pdf", "page": 2, "client": object()}),
        LangChainDoc("Eta has no metadata at all.", id="eta-1"),
        LangChainDoc("Theta keeps its title.", {"title": "Theta", "page_number": 7}),
    ]
    result = load_documents(docs)
    zeta, eta, theta = result.documents
    assert (zeta.source, zeta.title, zeta.pages) == ("kb/zeta.pdf", "zeta", [(0, 3)])
    assert zeta.text == "Zeta routes packets between regions."
    assert "client" not in zeta.metadata and zeta.metadata["origin"] == "langchain"
    assert (eta.source, eta.title) == ("eta-1", None)
    assert (theta.source, theta.title, theta.pages) == ("langchain-2", "Theta", [(0, 7)])
    assert result.skipped == []


def test_llamaindex_nodes_load_and_empty_ones_are_skipped():
    nodes = [
        LlamaNode("Iota stores blobs.", {"file_path": "data/iota.md", "page_label": "4"}, "n-1"),
        LlamaTextOnly("Kappa compresses logs.", "doc-kappa"),
        LlamaNode("   ", {"file_name": "blank.txt"}, "n-3"),
    ]
    with pytest.warns(IngestWarning, match="blank.txt"):
        result = load_documents(nodes)
    iota, kappa = result.documents
    assert (iota.source, iota.title, iota.pages) == ("data/iota.md", "iota", [(0, 4)])
    assert iota.metadata["id"] == "n-1" and iota.metadata["origin"] == "llamaindex"
    assert (kappa.source, kappa.text) == ("doc-kappa", "Kappa compresses logs.")
    assert result.skipped == [("blank.txt", "empty text")]


def test_object_ids_are_stable_across_loads():
    make = lambda: [LangChainDoc("Same text.", {"source": "a.txt"})]  # noqa: E731
    assert load_documents(make()).documents[0].id == load_documents(make()).documents[0].id


ASCII_SHIFT_JIS = "# Keys\n\n@ a~b ~ a~b the tilde C:\\dir ~ @ # @ c\\d.\n"
"""Pure ASCII that charset_normalizer calls Shift_JIS ('~' and '\\' are bytes both share)."""


def test_an_ascii_file_is_not_guessed_at_and_every_ingest_warning_names_its_file(tmp_path):
    (tmp_path / "keys.md").write_bytes(ASCII_SHIFT_JIS.encode("ascii"))
    (tmp_path / "keys.html").write_bytes(b"<html><body><p>" + ASCII_SHIFT_JIS.encode("ascii") + b"</p></body></html>")
    (tmp_path / "keys.txt").write_bytes(ASCII_SHIFT_JIS.encode("ascii"))
    latin = "Caf\u00e9 cr\u00e8me, na\u00efve fa\u00e7ade: the caf\u00e9 serves cr\u00e8me br\u00fbl\u00e9e every day of the week.\n" * 3
    (tmp_path / "cafe.txt").write_bytes(latin.encode("cp1252"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = load_documents(tmp_path)
    assert result.skipped == []
    texts = {d.source: d.text for d in result.documents}
    assert all("a~b ~ a~b the tilde C:\\dir" in texts[f"keys.{ext}"] for ext in ("md", "html", "txt"))
    # a guess (cp1250 here: "cr\u010dme"), where it used to be read as UTF-8 with "\ufffd" in place
    assert texts["cafe.txt"].startswith("Caf\u00e9 cr") and "\ufffd" not in texts["cafe.txt"]
    messages = [str(w.message) for w in caught]
    assert not any("shift" in m.lower() for m in messages), messages  # ASCII is never guessed at
    # the one real guess (a cp1252 file) is warned about, by name
    assert messages and all(m.startswith("cafe.txt: ") for m in messages), messages
    assert any("inferred as" in m for m in messages)
