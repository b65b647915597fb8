"""Score a JSONL file of RAG records; offline by default, with an LLM judge when you name one.

    python recipes/evaluate_jsonl.py                      # the bundled sample, local judge and embedder
    python recipes/evaluate_jsonl.py data.jsonl openai:gpt-4o-mini
    python recipes/evaluate_jsonl.py data.jsonl openai:MODEL@http://127.0.0.1:8000/v1
"""

from __future__ import annotations

import sys

from ragmeter import Dataset, evaluate
from ragmeter.data import SAMPLE_DATA_PATH


def main(path: str = str(SAMPLE_DATA_PATH), judge: str | None = None) -> None:
    data = Dataset.load(path)
    for error in data.errors:  # bad rows are reported, the others are scored
        print("skipped:", error)
    metrics = ["answer_similarity", "faithfulness", "context_precision"]
    result = evaluate(data, metrics, judge=judge or "local", journal=False)
    frame = result.to_pandas()
    print(frame[["id", *metrics]].to_string(index=False))
    for name, summary in result.summary().items():
        mean = "-" if summary.mean is None else f"{summary.mean:.3f}"
        print(f"{name}: mean {mean} over {summary.scored} samples, {summary.errors} not scored")
    worst = frame.sort_values("answer_similarity").head(3)
    print("\nlowest answer similarity:")
    for _, row in worst.iterrows():
        print(f"  {row['id']}: {row['answer_similarity']:.3f}  {row['question']}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
