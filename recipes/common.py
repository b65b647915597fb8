"""What the two framework recipes share: a knowledge base, a test set, and an offline
"model" that answers by extraction, so that the recipes run with no key.

In your own app the knowledge base is your documents, the test set comes from
`ragmeter generate`, and the answer comes from your chat model.
"""

from __future__ import annotations

import json
import re

from ragmeter.data import SAMPLE_DATA_PATH

METRICS = ["faithfulness", "answer_relevancy", "context_precision", "context_recall", "answer_similarity"]
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("a an the of in on at to for and or is are was were be by with what which who when where why how do does did it its this that from as".split())


def knowledge_base() -> list[dict]:
    """Every passage of the bundled sample data, once, with an id: the app's documents."""
    rows = [json.loads(line) for line in SAMPLE_DATA_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    passages = list(dict.fromkeys(c for r in rows for c in r["contexts"]))
    return [{"id": f"kb-{i:03d}", "text": text} for i, text in enumerate(passages)]


def testset(limit: int = 8) -> list[dict]:
    """Questions with ground truth (the sample data's, minus its canned answers)."""
    rows = [json.loads(line) for line in SAMPLE_DATA_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [{"id": r["id"], "question": r["question"], "ground_truth": r["ground_truth"]}
            for r in rows if r.get("ground_truth")][:limit]


def extractive_answer(question: str, passages: list[str]) -> str:
    """The retrieved sentence that shares the most content words with the question."""
    wanted = {w for w in _WORD.findall(question.lower()) if w not in _STOP}
    sentences = [s.strip() for p in passages for s in re.split(r"(?<=[.!?])\s+", p) if s.strip()]
    if not sentences:
        return "I don't know."
    return max(sentences, key=lambda s: len(wanted & set(_WORD.findall(s.lower()))))


def run_and_evaluate(app, retrieve) -> None:
    """Run ``app`` over the test set, check the first question's contexts against what
    ``retrieve(question)`` gives (the retriever's chunks, in rank order), then score the
    answers with the local judge and print the summary."""
    from ragmeter import evaluate
    from ragmeter.adapters import run_app

    ran = run_app(testset(), app, concurrency=4, show_progress=False)
    for error in ran.errors:
        print("failed:", error)
    first = ran.dataset[0]
    assert first.contexts == retrieve(first.question), "contexts must be the retrieved chunks in rank order"
    print(f"{ran.answered} questions answered; contexts of the first: {first.retrieved_context_ids}")
    print_result(evaluate(ran.dataset, METRICS, judge="local", journal=False, show_progress=False))


def print_result(result) -> None:
    for name, summary in result.summary().items():
        mean = "-" if summary.mean is None else f"{summary.mean:.3f}"
        print(f"{name:20} mean {mean}  scored {summary.scored}  errors {summary.errors}")
    score = result.summary_score()
    print(f"summary score: {score:.3f}" if score is not None else "summary score: -")
