"""The run store at scale: peak memory and time of a 100,000-sample streamed run recorded
into the store, against the same run not recorded; then the export of the recorded run.

    .venv/bin/python bench/bench_runs.py --samples 100000

Each run is a fresh process over the synthetic JSONL of ``bench_scale.py`` (read lazily,
streamed to Parquet, judge-free metrics so the store's own cost is what shows), once with
``record=False`` and once recording into a new SQLite store. Peak memory is the process's
max RSS. The export streams the samples back out of the store into a JSON result file.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import OUT, write_data  # noqa: E402

CHILD = r"""
import json, resource, sys, time
from ragmeter import evaluate
from ragmeter.runs import Record
src, metrics, out, store = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4]
record = Record(store=store) if store != "-" else False
started = time.perf_counter()
result = evaluate(src, metrics, journal=False, cache=False, show_progress=False, out=out, concurrency=64, record=record)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"samples": result.sample_count, "seconds": seconds, "peak_mb": peak,
                  "run": record.run if record else None}))
"""

EXPORT = r"""
import json, resource, sys, time
from ragmeter.runs import RunStore
store, run, out = sys.argv[1], sys.argv[2], sys.argv[3]
started = time.perf_counter()
RunStore(store).export(run, out)
print(json.dumps({"seconds": time.perf_counter() - started,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def child(code: str, *args: str) -> dict:
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--metrics", default="token_f1,rouge_l,exact_match,id_context_recall,id_context_precision")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    data = OUT / f"runs-{args.samples}.jsonl"
    write_data(data, args.samples)
    with data.open() as fh:  # write_data keeps a larger file; this run wants exactly N rows
        assert sum(1 for _ in fh) == args.samples, f"{data} holds another size: delete it"
    store = OUT / "runs-bench.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    plain = child(CHILD, str(data), args.metrics, str(OUT / "runs-plain.parquet"), "-")
    recorded = child(CHILD, str(data), args.metrics, str(OUT / "runs-recorded.parquet"), str(store))
    exported = child(EXPORT, str(store), recorded["run"], str(OUT / "runs-export.json"))
    size = sum(Path(f"{store}{s}").stat().st_size for s in ("", "-wal") if Path(f"{store}{s}").exists())
    for name, row in (("not recorded", plain), ("recorded", recorded)):
        print(f"{name:>13}: {row['samples']} samples in {row['seconds']:.1f} s "
              f"({row['samples'] / row['seconds']:.0f} samples/s), peak RSS {row['peak_mb']:.0f} MB")
    print(f"peak memory recorded vs not: {100 * (recorded['peak_mb'] / plain['peak_mb'] - 1):+.1f}%; "
          f"time {100 * (recorded['seconds'] / plain['seconds'] - 1):+.1f}%; store {size / 1e6:.0f} MB")
    print(f"export of the recorded run to JSON: {exported['seconds']:.1f} s, peak RSS {exported['peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
