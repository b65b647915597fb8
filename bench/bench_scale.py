"""Scale: throughput and peak memory of a streamed run at growing sizes, and the dry run's
estimate of judge calls against the calls a real run makes.

    .venv/bin/python bench/bench_scale.py memory --sizes 1000,10000,100000
    .venv/bin/python bench/bench_scale.py dry-run --samples 200

``memory`` writes a synthetic JSONL of the largest size (varied texts from templates, ids,
contexts, ground truth) and, for each size, runs ``ragmeter evaluate`` in a fresh process
over the first N rows with the local judge, streaming the result to Parquet; it records
wall time, samples/s and the process's peak RSS. ``dry-run`` estimates a run of the
eight-metric LLM suite through the local OpenAI-compatible mock server, then makes the run,
and compares estimated and actual calls and tokens.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
CITIES = ["Lisbon", "Vienna", "Krakow", "Lyon", "Turin", "Ghent", "Porto", "Bergen", "Graz", "Leipzig", "Split",
          "Tartu", "Brno", "Basel", "Cork", "Malmo", "Aarhus", "Bilbao", "Seville", "Utrecht"]
THINGS = ["bridge", "cathedral", "library", "observatory", "museum", "harbour", "university", "theatre", "tower",
          "market hall", "railway station", "botanical garden", "opera house", "castle", "town hall"]
PEOPLE = ["Anna Berg", "Tomas Novak", "Lucia Ferreira", "Jonas Keller", "Marta Nowak", "Pieter de Vries",
          "Ingrid Olsen", "Carlos Ruiz", "Elena Rossi", "Hugo Laurent", "Sofia Lindqvist", "Marek Dvorak"]
ADJ = ["old", "great", "new", "royal", "central", "northern", "famous", "small"]


def synthetic(i: int, rng: random.Random) -> dict:
    city, thing, person, adj = rng.choice(CITIES), rng.choice(THINGS), rng.choice(PEOPLE), rng.choice(ADJ)
    year, other = rng.randint(1500, 1990), rng.choice(CITIES)
    height = rng.randint(12, 180)
    fact = f"The {adj} {thing} of {city} was designed by {person} and completed in {year}."
    extra = f"It is {height} metres tall and stands near the river, a short walk from the old square."
    noise = f"The {rng.choice(THINGS)} of {other} was rebuilt in {rng.randint(1500, 1990)} after a fire."
    right = rng.random() < 0.7
    answer = (f"The {adj} {thing} of {city} was designed by {person}. It was completed in {year}."
              if right else f"It was designed by {rng.choice(PEOPLE)} in {year + rng.randint(1, 40)}.")
    return {
        "id": f"syn-{i}",
        "question": f"Who designed the {adj} {thing} of {city}, and when was it completed?",
        "answer": answer,
        "contexts": [f"{fact} {extra}", noise] if rng.random() < 0.6 else [noise, f"{fact} {extra}"],
        "ground_truth": f"{person} designed it; it was completed in {year}.",
        "retrieved_context_ids": [f"c{i}", f"n{i}"],
        "reference_context_ids": [f"c{i}"],
    }


def write_data(path: Path, n: int, seed: int = 0) -> None:
    if path.exists() and sum(1 for _ in path.open()) >= n:
        return
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps(synthetic(i, rng)) + "\n")


CHILD = r"""
import json, resource, sys, time
from itertools import islice
from ragmeter import evaluate
from ragmeter.data.stream import SampleStream, stream_samples
src, n, metrics, out, concurrency = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4], int(sys.argv[5])
judge, embedder = sys.argv[6], sys.argv[7]
full = stream_samples(src)
stream = SampleStream(lambda: islice(iter(full), n), src, lazy=True)
started = time.perf_counter()
result = evaluate(stream, metrics, judge=judge, embedder=embedder, journal=False, cache=False,
                  show_progress=False, out=out, concurrency=concurrency)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"samples": result.sample_count, "seconds": seconds, "peak_mb": peak,
                  "means": {k: v.mean for k, v in result.summary().items()},
                  "errors": sum(v.errors for v in result.summary().values())}))
"""


SERVER = r"""
import sys
from ragmeter.testing import scripted_judge
from ragmeter.testing.openai_server import OpenAIMockServer
server = OpenAIMockServer(chat_responder=scripted_judge.respond)
server._record = lambda *args, **kwargs: None  # a long run would keep every request
server.start()
print(server.base_url, flush=True)
sys.stdin.read()  # until the benchmark closes our stdin
server.stop()
"""


def memory(args: argparse.Namespace) -> None:
    sizes = [int(s) for s in args.sizes.split(",")]
    OUT.mkdir(exist_ok=True)
    data = OUT / "scale.jsonl"
    write_data(data, max(sizes))
    env = dict(os.environ, HF_HUB_OFFLINE="1", OPENAI_API_KEY=os.environ.get("OPENAI_API_KEY", "sk-bench"))
    judge = embedder = "local"
    server = None
    if args.judge == "mock":  # the LLM path: a mock server in its own process, so its memory is not counted
        server = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, env=env)
        url = server.stdout.readline().strip()
        judge, embedder = f"openai:mock-judge@{url}", f"openai:mock-embed@{url}"
    rows = []
    for n in sizes:
        out = OUT / f"scale-{n}.parquet"
        done = subprocess.run([sys.executable, "-c", CHILD, str(data), str(n), args.metrics, str(out), str(args.concurrency),
                               judge, embedder], capture_output=True, text=True, env=env, check=True)
        row = json.loads(done.stdout.strip().splitlines()[-1])
        row["rate"] = row["samples"] / row["seconds"]
        rows.append(row)
        print(f"{n:>7} samples: {row['seconds']:8.1f} s, {row['rate']:6.1f} samples/s, peak RSS {row['peak_mb']:7.0f} MB, "
              f"errors {row['errors']}, means {json.dumps({k: round(v, 3) for k, v in row['means'].items()})}", flush=True)
    if server is not None:
        server.stdin.close()
        server.wait(timeout=30)
    if len(rows) >= 2:
        a, b = rows[-2], rows[-1]
        print(f"peak memory {b['samples']} vs {a['samples']}: {100 * (b['peak_mb'] / a['peak_mb'] - 1):+.1f}%")


def dry_run(args: argparse.Namespace) -> None:
    from ragmeter import estimate, evaluate
    from ragmeter.testing import scripted_judge
    from ragmeter.testing.openai_server import OpenAIMockServer

    rng = random.Random(1)
    data = [synthetic(i, rng) for i in range(args.samples)]
    metrics = ["faithfulness", "answer_relevancy", "context_precision", "context_recall", "context_relevancy",
               "context_entity_recall", "answer_similarity", "answer_correctness"]
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    os.environ["RAGMETER_CACHE_DIR"] = str(OUT / "dry-run-cache")
    import shutil

    shutil.rmtree(OUT / "dry-run-cache", ignore_errors=True)
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as server:
        options = dict(judge=f"openai:mock-judge@{server.base_url}", embedder=f"openai:mock-embed@{server.base_url}",
                       show_progress=False, judge_options={"timeout": 30.0})
        started = time.perf_counter()
        guess = estimate(data, metrics, **options)
        estimate_seconds = time.perf_counter() - started
        sent_during_estimate = len(server.requests)
        result = evaluate(data, metrics, journal=False, **options)
        chat = len(server.calls("/chat/completions"))
        usage = result.usage["judge"]
        again = estimate(data, metrics, **options)
    print(f"{args.samples} samples, {len(metrics)} metrics: {', '.join(metrics)}")
    print(f"  requests sent during the dry run: {sent_during_estimate}; dry run took {estimate_seconds:.1f} s")
    print(f"  judge calls: estimated {guess.calls}, made {chat} ({100 * (guess.calls / chat - 1):+.1f}%)")
    print(f"  prompt tokens: estimated {guess.prompt_tokens}, server counted {usage.prompt_tokens} "
          f"({100 * (guess.prompt_tokens / usage.prompt_tokens - 1):+.1f}%)")
    print(f"  completion tokens: estimated {guess.completion_tokens}, server counted {usage.completion_tokens} "
          f"({100 * (guess.completion_tokens / usage.completion_tokens - 1):+.1f}%)")
    print(f"  dry run after the real run: {again.calls} calls, {again.cache_hits} cache hits")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("memory")
    m.add_argument("--sizes", default="1000,10000,100000")
    m.add_argument("--metrics", default="faithfulness,answer_similarity,context_precision,token_f1,id_context_recall")
    m.add_argument("--concurrency", type=int, default=64)
    m.add_argument("--judge", choices=["local", "mock"], default="local",
                   help="local: the local judge and MiniLM; mock: an LLM judge and embedder on a local mock server")
    d = sub.add_parser("dry-run")
    d.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    {"memory": memory, "dry-run": dry_run}[args.command](args)


if __name__ == "__main__":
    main()
