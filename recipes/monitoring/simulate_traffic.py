"""Write a fake traffic log from the bundled sample data, healthy or degraded, to try the
nightly monitor without a production system.

    python recipes/monitoring/simulate_traffic.py traffic.jsonl --records 300
    python recipes/monitoring/simulate_traffic.py traffic.jsonl --records 300 --degraded

A degraded night is what a bad deploy looks like: the retriever returns the wrong chunks
for most questions, so answers stop being grounded in what was retrieved.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from ragmeter.data import SAMPLE_DATA_PATH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--degraded", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = [json.loads(line) for line in SAMPLE_DATA_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    with args.out.open("w", encoding="utf-8") as f:
        for n in range(args.records):
            row = dict(rng.choice(rows))
            record = {"ts": n, "question": row["question"], "answer": row["answer"], "contexts": row["contexts"]}
            if args.degraded and rng.random() < 0.7:
                other = rng.choice([r for r in rows if r["id"] != row["id"]])
                record["contexts"] = other["contexts"]  # the retriever broke
            f.write(json.dumps(record) + "\n")
    print(f"{args.records} records written to {args.out}{' (degraded)' if args.degraded else ''}")


if __name__ == "__main__":
    main()
