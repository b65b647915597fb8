"""The no-key suite's speed and memory: every metric that the local judge answers, on 2 cores.

    .venv/bin/python bench/bench_local.py [--samples 400] [--warmup 40] [--concurrency N]

Samples are built from HaluEval QA dev (../shared/datasets; distinct texts, so no cache of
any kind helps): the question, its knowledge passage split into 2-3 chunks plus a chunk of
another question's passage as a distractor, an answer (the right or the hallucinated one)
and the right answer as ground truth. Without the datasets it falls back to the 26 hand-made
benchmark samples (too few for a steady throughput figure; it says so).

Measured, cache and journal off:
* cold start: a fresh process importing ragmeter, loading the models and scoring 1 sample;
* warm throughput of the full offline suite after ``--warmup`` samples, and the CPU time
  of that run (all threads of the process: the work done, which moves less with the
  machine's load than samples/s);
* peak memory (max RSS) of the process that ran both.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATASETS = HERE.parent.parent / "shared" / "datasets"

SUITE = [
    "faithfulness",
    "answer_relevancy",
    "context_precision",
    "context_recall",
    "context_relevancy",
    "context_entity_recall",
    "answer_similarity",
    "answer_correctness",
]


def chunks_of(passage: str, parts: int) -> list[str]:
    import re

    sentences = [s for s in re.split(r"(?<=[.!?])\s*", passage) if s.strip()]
    if len(sentences) < parts:
        return [passage]
    size = -(-len(sentences) // parts)
    return [" ".join(sentences[i : i + size]) for i in range(0, len(sentences), size)]


def halueval_samples(n: int, offset: int = 0) -> list[dict]:
    path = DATASETS / "halueval_qa_dev.jsonl"
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    right = {r["question"]: r["answer"] for r in rows if r["faithful"] == 1}
    samples = []
    for k, row in enumerate(rows[offset : offset + n]):
        other = rows[(offset + k + 37) % len(rows)]["contexts"][0]
        samples.append({
            "id": row["id"],
            "question": row["question"],
            "answer": row["answer"],
            "contexts": chunks_of(row["contexts"][0], 2 + k % 2) + [other],
            "ground_truth": right[row["question"]],
        })
    return samples


def fallback_samples() -> list[dict]:
    sys.path.insert(0, str(HERE))
    import compare_samples

    return [{k: s[k] for k in ("question", "answer", "contexts", "ground_truth")} for s in compare_samples.samples()]


def cold_start(sample: dict) -> float:
    code = (
        "import time, json, sys; t = time.perf_counter()\n"
        "from ragmeter import evaluate\n"
        f"r = evaluate([json.loads(sys.argv[1])], {SUITE!r}, cache=False, journal=False, show_progress=False)\n"
        "assert all(s.error is None for s in r.samples[0].scores.values()), r.samples[0].scores\n"
        "print(time.perf_counter() - t)\n"
    )
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, json.dumps(sample)], capture_output=True, text=True, check=True)
    total = time.perf_counter() - started
    return max(total, float(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=None, help="samples in flight (default: the engine's, 64 for the local judge)")
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's own choice)")
    parser.add_argument("--datasets", type=Path, default=None, help="directory of halueval_qa_dev.jsonl (default: ../shared/datasets beside the repository)")
    parser.add_argument("--verifier", default="alignment", help="the local judge's claim verifier: alignment (default) | lexical | nli:NAME_OR_PATH")
    parser.add_argument("--with-context-relevance", action="store_true", help="add context_relevance (chunk by chunk) to the suite")
    args = parser.parse_args()
    global SUITE
    if args.with_context_relevance:
        SUITE = [*SUITE, "context_relevance"]
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.datasets is not None:
        global DATASETS
        DATASETS = args.datasets

    if (DATASETS / "halueval_qa_dev.jsonl").exists():
        source = "HaluEval QA dev"
        warm, data = halueval_samples(args.warmup, 0), halueval_samples(args.samples, 2000)
    else:
        source = "compare_samples (datasets not found; too few samples for a steady figure)"
        data = fallback_samples()
        warm = data[:5]

    cold = cold_start(data[0])
    from ragmeter import evaluate
    from ragmeter.embedders import get_embedder

    options = dict(
        cache=False, journal=False, show_progress=False, concurrency=args.concurrency,
        judge_options={"threads": args.threads, "verifier": args.verifier}, embedder=get_embedder("local", cache=False, threads=args.threads),
    )
    evaluate(warm, SUITE, **options)
    started, cpu_started = time.perf_counter(), time.process_time()
    result = evaluate(data, SUITE, **options)
    wall = time.perf_counter() - started
    # CPU time of this process (all its threads): the work the run did, which moves less
    # with the machine's load than samples/s (torch's threads spinning while they wait for a
    # core still count: 22.8-25.9 s for the same 400 samples on an idle machine)
    cpu = time.process_time() - cpu_started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    summary = result.summary()
    print(f"samples: {len(data)} from {source}; metrics: {', '.join(SUITE)}; verifier {args.verifier}")
    print("| measure | value |\n|---|---|")
    print(f"| cold start (fresh process: import, load models, score 1 sample) | {cold:.1f} s |")
    print(f"| warm throughput, {len(data)} samples, concurrency {args.concurrency or 'default (64)'} | {len(data) / wall:.1f} samples/s ({wall:.1f} s) |")
    print(f"| CPU time of the warm run (all threads) | {cpu:.1f} s ({1000 * cpu / len(data):.0f} ms per sample, {cpu / wall:.2f} cores busy) |")
    print(f"| peak memory (max RSS) | {peak:.0f} MB |")
    print(f"| torch threads | {__import__('torch').get_num_threads()} |")
    print("\n| metric | mean | scored | errors |\n|---|---|---|---|")
    for name, s in summary.items():
        kinds = ", ".join(f"{k} {n}" for k, n in s.errors_by_kind.items())
        print(f"| {name} | {s.mean if s.mean is None else round(s.mean, 3)} | {s.scored} | {s.errors}{f' ({kinds})' if kinds else ''} |")


if __name__ == "__main__":
    main()
