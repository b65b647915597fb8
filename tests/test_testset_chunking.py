"""Chunking: token budgets, whole-sentence overlap, exact offsets, deduplication, determinism.

Documents are built by hand (no parsing), so these tests need only the MiniLM tokenizer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from testset_gen.documents.chunking import chunk_documents
from testset_gen.documents.document import Document
from testset_gen.documents.near_duplicates import duplicate_indices, jaccard, shingles
from testset_gen.documents.sentence_split import sentence_spans
from testset_gen.documents.token_count import RegexCounter, count_tokens, default_counter

SUBJECTS = ["The scheduler", "Each worker", "The ledger", "A replica", "The gateway",
            "Every client", "The cache", "An operator"]
VERBS = ["records", "retries", "compresses", "forwards", "validates", "archives"]
OBJECTS = ["the nightly batch", "every failed request", "incoming audit events",
           "stale index pages", "large upload files", "the quarterly report"]


def sentence(i: int) -> str:
    """A distinct, deterministic sentence of 8-14 words."""
    extra = " ".join(["again"] * (i % 4))
    return (f"{SUBJECTS[i % 8]} {VERBS[i % 6]} {OBJECTS[(i // 3) % 6]} at step {i}"
            f"{' ' + extra if extra else ''}.")


def long_document(n: int = 80, source: str = "ops.txt", offset: int = 0) -> Document:
    paragraphs = []
    for p in range(0, n, 8):
        paragraphs.append(" ".join(sentence(offset + i) for i in range(p, min(p + 8, n))))
    return Document.make("\n\n".join(paragraphs), source, title="Ops")


def test_chunks_respect_max_tokens_and_offsets_are_exact():
    doc = long_document()
    chunks = chunk_documents([doc], max_tokens=64, overlap_tokens=16, min_tokens=8)
    assert len(chunks) > 5
    counter = default_counter()
    for c in chunks:
        assert doc.text[c.start:c.end] == c.text
        assert c.tokens == count_tokens(c.text, counter) <= 64
        assert c.document_id == doc.id and c.source == "ops.txt" and c.title == "Ops"
        assert c.text == c.text.strip() and c.text[-1] == "."  # whole sentences
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert chunks[0].start == 0 and chunks[-1].end == len(doc.text)
    # Every sentence is in some chunk.
    for start, end in sentence_spans(doc.text):
        assert any(c.start <= start and end <= c.end for c in chunks)


def test_consecutive_chunks_overlap_by_whole_sentences_within_budget():
    doc = long_document()
    chunks = chunk_documents([doc], max_tokens=80, overlap_tokens=40, min_tokens=8)
    counter = default_counter()
    starts = {s for s, _ in sentence_spans(doc.text)}
    overlaps = 0
    for before, after in zip(chunks, chunks[1:]):
        assert after.start > before.start
        if after.start < before.end:
            overlaps += 1
            shared = doc.text[after.start:before.end]
            assert after.start in starts and shared.endswith(".")
            assert count_tokens(shared, counter) <= 40
        else:
            assert after.start >= before.end
    assert overlaps >= len(chunks) - 2


def test_no_overlap_when_asked():
    doc = long_document()
    chunks = chunk_documents([doc], max_tokens=64, overlap_tokens=0, min_tokens=0)
    assert len(chunks) >= 3
    for before, after in zip(chunks, chunks[1:]):
        assert after.start > before.end


def test_a_sentence_longer_than_the_budget_is_split_at_word_boundaries():
    words = [f"word{i}x" for i in range(300)]  # all distinct: no piece is a duplicate
    text = "Intro sentence here. " + " ".join(words) + ". Final short sentence."
    doc = Document.make(text, "long.txt")
    chunks = chunk_documents([doc], max_tokens=50, overlap_tokens=10, min_tokens=5)
    assert len(chunks) >= 8
    for c in chunks:
        assert c.tokens <= 50 and doc.text[c.start:c.end] == c.text
        assert c.start == 0 or text[c.start - 1] == " "
        assert c.end == len(text) or text[c.end] == " "
    covered = set()
    for c in chunks:
        covered.update(range(c.start, c.end))
    assert all(i in covered or text[i] == " " for i in range(len(text)))


def test_a_tiny_trailing_chunk_is_merged():
    body = " ".join(sentence(i) for i in range(12))
    doc = Document.make(body + " Done.", "tail.txt")
    chunks = chunk_documents([doc], max_tokens=60, overlap_tokens=0, min_tokens=20)
    assert chunks[-1].end == len(doc.text)
    assert chunks[-1].tokens >= 20
    assert all(c.tokens <= 60 for c in chunks)
    # Without the rule the last chunk would be just "Done.".
    assert chunks[-1].text != "Done."


def test_a_short_document_is_one_chunk():
    doc = Document.make("Just one line.", "short.txt")
    (chunk,) = chunk_documents([doc])
    assert (chunk.text, chunk.start, chunk.end, chunk.index) == ("Just one line.", 0, 14, 0)


def test_duplicates_across_documents_are_removed_keeping_the_first():
    original = long_document(source="a.txt")
    copy = Document.make(original.text, "copy/a.txt")
    near = Document.make(original.text.replace("at step 79 again again again.",
                                                "at step 79 again again again indeed."),
                         "b.txt")
    other = long_document(source="c.txt", offset=500)
    chunks = chunk_documents([original, copy, near, other], max_tokens=64, overlap_tokens=0,
                             min_tokens=0)
    by_source = {}
    for c in chunks:
        by_source.setdefault(c.source, []).append(c)
    a_count = len(by_source["a.txt"])
    assert "copy/a.txt" not in by_source  # every chunk an exact copy
    # The near copy differs in its last chunk only: that one chunk is kept (below 0.9).
    assert [c.index for c in by_source.get("b.txt", [])] == [a_count - 1]
    assert len(by_source["c.txt"]) >= a_count - 1
    kept = chunk_documents([original, copy], max_tokens=64, overlap_tokens=0, min_tokens=0,
                           dedupe_threshold=None)
    assert len(kept) == 2 * a_count


def test_the_threshold_is_settable():
    base = " ".join(f"token{i}" for i in range(60))
    variant = base.replace("token59", "changed")
    assert jaccard(shingles(base), shingles(variant)) == pytest.approx(55 / 57)
    docs = [Document.make(base, "x.txt"), Document.make(variant, "y.txt")]
    assert len(chunk_documents(docs, dedupe_threshold=0.9)) == 1
    assert len(chunk_documents(docs, dedupe_threshold=0.99)) == 2


def test_near_duplicate_finder():
    a = "one two three four five six seven eight nine ten"
    assert shingles("") == frozenset() and shingles("Hi there") == {"hi there"}
    assert duplicate_indices([a, "something else", a.upper(), "", ""], 0.9) == {2}
    with pytest.raises(ValueError):
        duplicate_indices([a], 0.0)


def test_pages_carry_over_to_chunks():
    first = " ".join(sentence(i) for i in range(10))
    second = " ".join(sentence(i) for i in range(10, 20))
    text = first + "\n\n" + second
    doc = Document.make(text, "m.pdf", pages=[(0, 1), (len(first) + 2, 2)])
    chunks = chunk_documents([doc], max_tokens=40, overlap_tokens=0, min_tokens=0)
    assert chunks[0].page == 1 and chunks[-1].page == 2
    assert all(c.page == doc.page_at(c.start) for c in chunks)


def test_settings_are_checked():
    doc = [long_document()]
    for bad in ({"max_tokens": 0}, {"overlap_tokens": -1}, {"min_tokens": -1},
                {"dedupe_threshold": 1.5}, {"dedupe_threshold": 0}):
        with pytest.raises(ValueError):
            chunk_documents(doc, **bad)
    # Only max_tokens shrunk below the default overlap and minimum: those are capped.
    small = chunk_documents(doc, max_tokens=16)
    assert small and all(c.tokens <= 16 for c in small)


def test_another_token_counter_can_be_plugged_in():
    doc = long_document()
    chunks = chunk_documents([doc], max_tokens=50, overlap_tokens=10,
                             token_counter=RegexCounter())
    assert all(len(RegexCounter().spans(c.text)) == c.tokens <= 50 for c in chunks)


def test_sentence_splitter_handles_abbreviations_decimals_and_lists():
    text = ("Dr. Smith paid $3.50 at 9 a.m. on Monday. J. R. Tolkien wrote e.g. novels! "
            "Was it late? Yes.\nA wrapped\nline continues here.\n- first item\n- second item"
            "\n\nHeading without a period\nNext para starts.")
    got = [text[s:e] for s, e in sentence_spans(text)]
    assert got == [
        "Dr. Smith paid $3.50 at 9 a.m. on Monday.",
        "J. R. Tolkien wrote e.g. novels!",
        "Was it late?",
        "Yes.",
        "A wrapped\nline continues here.",
        "- first item",
        "- second item",
        "Heading without a period\nNext para starts.",
    ]


_SUBPROCESS = """
import json, sys
sys.path[:0] = {paths!r}
from tests.test_testset_chunking import long_document
from testset_gen.documents.chunking import chunk_documents
docs = [long_document(source="a.txt"), long_document(source="b.txt", offset=3)]
print(json.dumps([[c.id, c.start, c.end, c.tokens] for c in chunk_documents(docs, max_tokens=64)]))
"""


def test_chunking_is_deterministic_across_runs_and_hash_seeds():
    docs = [long_document(source="a.txt"), long_document(source="b.txt", offset=3)]
    first = [[c.id, c.start, c.end, c.tokens] for c in chunk_documents(docs, max_tokens=64)]
    again = [[c.id, c.start, c.end, c.tokens] for c in chunk_documents(docs, max_tokens=64)]
    assert first == again
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", _SUBPROCESS.format(paths=[root])], env=env,
                         capture_output=True, text=True, check=True, cwd=root, timeout=120)
    assert json.loads(out.stdout) == first
