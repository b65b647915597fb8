"""Engine benchmark: what a run costs in time, calls and tokens, and what a rerun costs.

    .venv/bin/python bench/bench_engine.py [--samples 200] [--latency 0.2] [--similarity-samples 1000]

Part 1, the judge path: faithfulness over synthetic samples through the local
OpenAI-compatible mock server answering every call after ``--latency`` seconds (a
realistic hosted-LLM latency), then the same run again (served by the cache).

Part 2, the no-key path: answer similarity with the local MiniLM embedder (cache off):
cold start (import, model load, first score) and warm throughput, and peak memory.

Prints a markdown table; add it to the dated log bench/HISTORY.md with the command line.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def judge_records(n: int) -> list[dict]:
    topics = ["France", "Japan", "Kenya", "Peru", "Norway", "Egypt", "Chile", "India"]
    records = []
    for i in range(n):
        country = topics[i % len(topics)]
        context = f"{country} is a country. Its statistics office counts {1000 + i} towns."
        if i % 3:
            context += f" Record {i} was filed in {1900 + i % 100}."
        records.append({
            "id": f"s{i}",
            "question": f"How many towns does {country} have?",
            "answer": f"{country} has {1000 + i} towns. Record {i} was filed in {1900 + i % 100}.",
            "contexts": [context, f"An unrelated passage about rivers number {i}."],
            "ground_truth": f"{country} has {1000 + i} towns.",
        })
    return records


def similarity_records(n: int) -> list[dict]:
    subjects = ["The river", "The library", "A glacier", "The market", "The engine", "A violin", "The bridge"]
    verbs = ["was built in", "was restored in", "first appeared in", "was measured in", "was moved in"]
    return [
        {
            "answer": f"{subjects[i % 7]} {verbs[i % 5]} {1500 + i}.",
            "ground_truth": f"{subjects[(i + 1) % 7]} {verbs[i % 5]} the year {1500 + i}, records show.",
        }
        for i in range(n)
    ]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def judge_path(n: int, latency: float, concurrency: int) -> list[tuple[str, str]]:
    from ragmeter import evaluate
    from ragmeter.calls import DiskCache
    from ragmeter.testing import OpenAIMockServer, scripted_judge

    rows = []
    with tempfile.TemporaryDirectory() as tmp, OpenAIMockServer(scripted_judge.respond, latency=latency) as server:
        os.environ["OPENAI_API_KEY"] = "sk-bench"
        cache = DiskCache(Path(tmp) / "cache.sqlite")
        judge = f"openai:mock@{server.base_url}"
        data = judge_records(n)
        started = time.perf_counter()
        first = evaluate(data, ["faithfulness"], judge=judge, concurrency=concurrency, cache=cache,
                         journal=False, show_progress=False)
        wall = time.perf_counter() - started
        usage = first.usage["judge"]
        started = time.perf_counter()
        second = evaluate(data, ["faithfulness"], judge=judge, concurrency=concurrency, cache=cache,
                          journal=False, show_progress=False)
        rewall = time.perf_counter() - started
        assert [s.scores for s in second.samples] == [s.scores for s in first.samples]
        summary = first.summary()["faithfulness"]
        rows += [
            (f"faithfulness, {n} samples, {latency * 1000:.0f} ms/call, concurrency {concurrency}: wall time", f"{wall:.2f} s ({n / wall:.1f} samples/s)"),
            ("judge calls per sample", f"{usage.calls / n:.2f}"),
            ("prompt tokens per sample (mock server's count)", f"{usage.prompt_tokens / n:.0f}"),
            ("completion tokens per sample", f"{usage.completion_tokens / n:.0f}"),
            ("scored / errors", f"{summary.scored} / {summary.errors}"),
            ("identical rerun (cache, no journal): wall time", f"{rewall:.2f} s"),
            ("identical rerun: HTTP calls", f"{second.usage['judge'].calls} (cache hits {second.usage['judge'].cache_hits})"),
        ]
    return rows


def similarity_path(n: int) -> list[tuple[str, str]]:
    started = time.perf_counter()
    from ragmeter import evaluate

    data = similarity_records(n)
    evaluate(data[:1], ["answer_similarity"], cache=False, journal=False, show_progress=False)
    cold = time.perf_counter() - started
    started = time.perf_counter()
    result = evaluate(data, ["answer_similarity"], cache=False, journal=False, show_progress=False)
    warm = time.perf_counter() - started
    assert result.summary()["answer_similarity"].scored == n
    return [
        ("answer similarity, local MiniLM: cold start (import + load + first sample)", f"{cold:.2f} s"),
        (f"answer similarity, {n} samples, warm, cache off", f"{warm:.2f} s ({n / warm:.0f} samples/s)"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--similarity-samples", type=int, default=1000)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    rows = similarity_path(args.similarity_samples)
    rows += judge_path(args.samples, args.latency, args.concurrency)
    rows.append(("peak memory of the whole benchmark process (max RSS)", f"{peak_rss_mb():.0f} MB"))
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
