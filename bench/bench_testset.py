"""Test-set generation from 100 documents: LLM calls per question and wall time.

    .venv/bin/python bench/bench_testset.py [--documents 100] [--size 100] [--latency 0.2]

Documents: each is a Markdown file made of 6 knowledge passages of HaluEval QA dev
(../shared/datasets; real Wikipedia-style text about many entities), so chunks share
entities across documents as real corpora do. Without the datasets it says so and stops.

Two runs over the same folder, cache off:
* the LLM path through the local OpenAI-compatible mock server answering every request
  after ``--latency`` seconds with the scripted writer and critic (``testset_gen.testing``):
  calls split into the fixed cost (one summary per document) and the cost per question
  (writing calls, critic calls, rejected attempts included);
* the offline generator (``judge="local"``): no calls, wall time only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATASETS = HERE.parent.parent / "shared" / "datasets"


def write_documents(folder: Path, count: int, passages_per_doc: int = 6) -> int:
    rows = [json.loads(line) for line in (DATASETS / "halueval_qa_dev.jsonl").open(encoding="utf-8")]
    passages = list(dict.fromkeys(r["contexts"][0] for r in rows))
    chars = 0
    for d in range(count):
        body = passages[d * passages_per_doc : (d + 1) * passages_per_doc]
        text = f"# Notes {d + 1}\n\n" + "\n\n".join(body) + "\n"
        (folder / f"doc_{d + 1:03d}.md").write_text(text, encoding="utf-8")
        chars += len(text)
    return chars


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if not (DATASETS / "halueval_qa_dev.jsonl").exists():
        print(f"{DATASETS / 'halueval_qa_dev.jsonl'} not found: this benchmark needs it")
        return

    from ragmeter.testing import OpenAIMockServer
    from testset_gen import testing as scripted
    from testset_gen.generator import generate

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        chars = write_documents(folder, args.documents)
        warnings.simplefilter("ignore")

        started = time.perf_counter()
        offline = generate(folder, args.size, judge="local", cache=False)
        offline_wall = time.perf_counter() - started

        with OpenAIMockServer(chat_responder=scripted.respond, latency=args.latency) as server:
            started = time.perf_counter()
            result = generate(folder, args.size, judge=f"openai:mock-writer@{server.base_url}", cache=False,
                              journal=False, concurrency=args.concurrency, judge_options={"timeout": 30.0})
            wall = time.perf_counter() - started
            calls = [r.json for r in server.calls("/chat/completions")]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    kind = {"You summarise": "summary", "You write": "writing", "You review": "critic"}
    counted = {"summary": 0, "writing": 0, "critic": 0}
    for c in calls:
        system = c["messages"][0]["content"]
        counted[next(v for k, v in kind.items() if system.startswith(k))] += 1
    kept = len(result.testset.records)
    stats = result.graph.stats()
    per_question = (counted["writing"] + counted["critic"]) / kept if kept else float("nan")
    print(f"documents: {args.documents} ({chars:,} characters) -> {stats['nodes']['chunk']} chunks, {stats['bridges']} bridges; "
          f"questions asked: {args.size}; mock latency {args.latency * 1000:.0f} ms per call; "
          f"concurrency {args.concurrency}")
    print("| measure | LLM path (mock server) | offline generator |\n|---|---|---|")
    print(f"| questions kept | {kept} ({result.testset.counts()}) | {len(offline.testset.records)} ({offline.testset.counts()}) |")
    print(f"| fixed cost: summary calls (one per document) | {counted['summary']} | 0 |")
    print(f"| writing calls | {counted['writing']} | 0 |")
    print(f"| critic calls (batches of 8) | {counted['critic']} | 0 |")
    print(f"| **calls per kept question beyond the fixed cost** | **{per_question:.2f}** | 0 |")
    print(f"| rejected attempts | {len(result.rejected)} | - |")
    print(f"| prompt tokens (mock count) | {result.usage.prompt_tokens:,} | 0 |")
    print(f"| wall time (ingest, chunk, graph, generate) | {wall:.1f} s | {offline_wall:.1f} s |")
    print(f"| peak memory of the process (max RSS) | {peak:.0f} MB | |")
    print(f"| shortfall | {result.shortfall or 'none'} | {offline.shortfall or 'none'} |")


if __name__ == "__main__":
    main()
