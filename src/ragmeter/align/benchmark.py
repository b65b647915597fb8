"""The ready check of a judge: a small public labelled set shipped in the package.

``halueval``: 500 rows of HaluEval QA (MIT; license file beside the data), 250 questions
each with its right answer (``faithful`` 1) and a hallucinated one (0), written by ChatGPT
to be plausible. Half of the questions are *length-matched* pairs (the two answers differ
in length by less than 30% of the longer one): on the whole set, answer length alone
separates the classes (right answers are short), so a judge is only shown to read the
passage where it beats the length baseline on the matched pairs.

Figures (the same definitions bench/quality.py uses for this data):

* AUROC of the faithfulness score for the ``faithful`` label, overall and on the
  length-matched pairs;
* pair accuracy: share of questions whose right answer scores above its hallucinated one
  (ties half), overall and length-matched;
* the length baseline's AUROC beside them (shorter = faithful).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence

from pydantic import BaseModel

from ragmeter.align.labels import LabelSet, labels_from_records
from ragmeter.align.statistics import auroc, pair_accuracy
from ragmeter.errors import InvalidOption

BENCHMARKS = ("halueval",)
LENGTH_MATCH = 0.30
"""Two answers are length-matched when their lengths differ by less than this share of the longer."""
HALUEVAL_FILE = "halueval_qa_500.jsonl"
HALUEVAL_METRIC = "faithfulness"


def benchmark_path(name: str = "halueval") -> Path:
    """Where the bundled file of benchmark ``name`` is."""
    if name not in BENCHMARKS:
        raise InvalidOption(f"unknown benchmark {name!r}; available: {', '.join(BENCHMARKS)}")
    return Path(str(resources.files("ragmeter.align") / "data" / HALUEVAL_FILE))


def length_matched(a: str, b: str) -> bool:
    """|len(a) - len(b)| < 0.30 x max(len(a), len(b))."""
    return abs(len(a) - len(b)) < LENGTH_MATCH * max(len(a), len(b), 1)


def question_of(row_id: str) -> str:
    """The question a HaluEval row belongs to: its id without the ``-right``/``-hallucinated`` tail."""
    return row_id.rsplit("-", 1)[0]


def pair_rows(rows: Iterable[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(right, hallucinated) rows of each question that has both, in file order."""
    by_question: dict[str, dict[int, dict[str, Any]]] = {}
    for row in rows:
        by_question.setdefault(question_of(row["id"]), {})[int(row["faithful"])] = row
    return [(v[1], v[0]) for v in by_question.values() if 0 in v and 1 in v]


def load_benchmark(name: str = "halueval", limit: int | None = None) -> LabelSet:
    """The benchmark as a labels set: the first ``limit`` questions (both answers of each),
    ``labels = {"faithfulness": faithful}``."""
    with benchmark_path(name).open(encoding="utf-8") as f:
        pairs = pair_rows(json.loads(line) for line in f if line.strip())
    if limit is not None:
        pairs = pairs[:limit]
    records = [
        {"id": r["id"], "question": r["question"], "contexts": r["contexts"], "answer": r["answer"],
         "labels": {HALUEVAL_METRIC: int(r["faithful"])}}
        for pair in pairs for r in pair
    ]
    return labels_from_records(records, source=f"benchmark:{name}")


class BenchmarkFigures(BaseModel):
    """The benchmark's figures for one judge (see the module docstring)."""

    benchmark: str
    metric: str
    answers: int
    questions: int
    length_matched_pairs: int
    scored: int
    auroc: float | None
    auroc_length_matched: float | None
    pair_accuracy: float | None
    pair_accuracy_length_matched: float | None
    baseline_length_auroc: float | None
    baseline_length_auroc_length_matched: float | None


def benchmark_figures(
    name: str, ids: Sequence[str], answers: Sequence[str], labels: Sequence[int], scores: Sequence[float | None]
) -> BenchmarkFigures:
    """Figures from parallel lists over the benchmark's answers. An answer the judge could
    not score (``None``) is left out, and so is its question's pair."""
    rows: list[dict[str, Any]] = [
        {"id": i, "answer": a, "faithful": int(y), "score": s}
        for i, a, y, s in zip(ids, answers, labels, scores, strict=True)
    ]
    pairs = pair_rows(rows)
    matched = {question_of(r["id"]) for r, h in pairs if length_matched(r["answer"], h["answer"])}
    kept = [r for r in rows if r["score"] is not None]

    def area(subset: list[dict[str, Any]], key: Any) -> float | None:
        return auroc([key(r) for r in subset], [r["faithful"] for r in subset]) if subset else None

    in_matched = [r for r in kept if question_of(r["id"]) in matched]
    scored_pairs = [(r["score"], h["score"]) for r, h in pairs if r["score"] is not None and h["score"] is not None]
    scored_matched = [(r["score"], h["score"]) for r, h in pairs
                      if r["score"] is not None and h["score"] is not None and question_of(r["id"]) in matched]
    return BenchmarkFigures(
        benchmark=name,
        metric=HALUEVAL_METRIC,
        answers=len(rows),
        questions=len(pairs),
        length_matched_pairs=len(matched),
        scored=len(kept),
        auroc=area(kept, lambda r: r["score"]),
        auroc_length_matched=area(in_matched, lambda r: r["score"]),
        pair_accuracy=pair_accuracy(scored_pairs),
        pair_accuracy_length_matched=pair_accuracy(scored_matched),
        baseline_length_auroc=area(kept, lambda r: -float(len(r["answer"]))),
        baseline_length_auroc_length_matched=area(in_matched, lambda r: -float(len(r["answer"]))),
    )
