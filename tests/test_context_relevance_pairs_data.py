"""The hand-written context-relevance pairs (bench/data/context_relevance_pairs.jsonl) as
shipped: every row scorable, the pairs per set that bench/quality.py reports, and the balance
ctxrel-9 was written to (a set whose relevant passages avoid naming the question's subject
while its negatives name it rewards scorers that prefer off-topic text)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

PAIRS = Path(__file__).resolve().parent.parent / "bench" / "data" / "context_relevance_pairs.jsonl"


def _rows() -> list[dict]:
    return [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_row_has_a_question_and_two_different_passages():
    assert len(_rows()) == 461
    for n, r in enumerate(_rows(), start=1):
        for field in ("question", "relevant", "negative"):
            assert isinstance(r.get(field), str) and r[field].strip(), f"line {n}: {field}"
        assert r["relevant"] != r["negative"], f"line {n}: relevant and negative are the same text"


def test_pairs_per_set():
    assert Counter(r.get("set") for r in _rows()) == {
        None: 34, "ctxrel-2": 66, "ctxrel-3": 36, "ctxrel-4": 45, "ctxrel-5": 40, "ctxrel-6": 40,
        "ctxrel-7": 40, "ctxrel-8": 40, "ctxrel-9": 40, "ctxrel-10": 40, "ctxrel-11": 40}


def test_ctxrel_9_is_balanced_as_written():
    rows = [r for r in _rows() if r.get("set") == "ctxrel-9"]
    assert Counter(r["shape"] for r in rows) == {
        "both name the subject": 20, "negative names the subject more": 10,
        "relevant names the subject more": 10}
    assert Counter(r["domain"] for r in rows) == {d: 4 for d in (
        "theatre", "philosophy", "agriculture", "education", "video-games", "film-tv",
        "meteorology", "marine-biology", "archaeology", "aviation")}
    # half the negatives longer than their relevant passage, in every shape alike
    for shape in ("both name the subject", "negative names the subject more",
                  "relevant names the subject more"):
        of_shape = [r for r in rows if r["shape"] == shape]
        longer = sum(len(r["negative"]) > len(r["relevant"]) for r in of_shape)
        assert longer == len(of_shape) // 2, shape


def test_ctxrel_10_the_blind_set_is_balanced_as_written():
    """ctxrel-10 (2026-11-27) was written blind: 16 domains none of the earlier sets uses, the
    same shape balance as ctxrel-9, half the negatives longer in every shape."""
    rows = [r for r in _rows() if r.get("set") == "ctxrel-10"]
    assert Counter(r["shape"] for r in rows) == {
        "both name the subject": 20, "negative names the subject more": 10,
        "relevant names the subject more": 10}
    earlier = {r.get("domain") for r in _rows() if r.get("set") not in ("ctxrel-10", "ctxrel-11")}
    assert len({r["domain"] for r in rows}) == 16
    assert not {r["domain"] for r in rows} & earlier
    for shape in ("both name the subject", "negative names the subject more",
                  "relevant names the subject more"):
        of_shape = [r for r in rows if r["shape"] == shape]
        assert sum(len(r["negative"]) > len(r["relevant"]) for r in of_shape) == len(of_shape) // 2
