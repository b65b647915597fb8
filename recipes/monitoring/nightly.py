"""Nightly production monitoring: sample yesterday's traffic log, score it with the local
judge (no key, no cost), and alert when quality drops against the recent nights.

    python recipes/monitoring/nightly.py --log traffic.jsonl --state monitoring.json
    python recipes/monitoring/nightly.py --log traffic.jsonl --state monitoring.json --sample 500 --max-drop 0.08

The log is one JSON record per line as your app writes it (`question`, `answer`,
`contexts`; Ragas names work too), read lazily: a reservoir sample of `--sample` records is
kept whatever the log's size, seeded by the night's date so a rerun scores the same
records. Production traffic has no ground truth, so the metrics are the ones that need
none: faithfulness (is the answer grounded in what was retrieved), answer relevancy,
context relevancy and context precision against the answer.

The state file keeps each night's means. A metric alerts when tonight's mean is more than
`--max-drop` below the median of the last `--window` nights (the median, so one odd night
does not move the baseline). Exit code 1 on an alert, so cron or a CI schedule can notify;
the markdown report goes to stdout (and `--report FILE`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Iterator

from ragmeter import Dataset, evaluate

METRICS = ["faithfulness", "answer_relevancy", "context_relevancy", "context_precision"]


def read_log(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    continue  # a torn line at the end of a log being written


def reservoir(records: Iterator[dict], size: int, seed: str) -> list[dict]:
    """A uniform sample of ``size`` records from a stream of unknown length (Algorithm R)."""
    rng = random.Random(seed)
    kept: list[dict] = []
    for n, record in enumerate(records):
        if n < size:
            kept.append(record)
        else:
            j = rng.randint(0, n)
            if j < size:
                kept[j] = record
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--state", type=Path, required=True)
    parser.add_argument("--night", default=dt.date.today().isoformat(), help="the night's label (default today)")
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--max-drop", type=float, default=0.1)
    parser.add_argument("--window", type=int, default=7)
    parser.add_argument("--judge", default="local")
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv)

    records = reservoir(read_log(args.log), args.sample, seed=args.night)
    data = Dataset.from_records(records, source=str(args.log))
    result = evaluate(data, METRICS, judge=args.judge, journal=False, show_progress=False)
    tonight = {name: s.mean for name, s in result.summary().items()}

    state = json.loads(args.state.read_text(encoding="utf-8")) if args.state.exists() else {"nights": []}
    history = [n for n in state["nights"] if n["night"] != args.night][-args.window:]
    alerts = []
    lines = [f"## RAG monitoring, night {args.night}", "",
             f"{len(data)} records sampled from {args.log.name} ({len(data.errors)} unreadable)", "",
             "| metric | tonight | baseline (median) | change | |", "|---|---|---|---|---|"]
    for name in METRICS:
        now = tonight[name]
        past = [n["means"][name] for n in history if n["means"].get(name) is not None]
        base = statistics.median(past) if past else None
        flag = ""
        if now is not None and base is not None and base - now > args.max_drop:
            flag = "**ALERT**"
            alerts.append(f"{name} fell from {base:.3f} to {now:.3f}")
        fmt = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
        change = "-" if now is None or base is None else f"{now - base:+.3f}"
        lines.append(f"| {name} | {fmt(now)} | {fmt(base)} | {change} | {flag} |")
    if alerts:
        frame = result.to_pandas()
        lines += ["", "Lowest faithfulness tonight:"]
        for _, row in frame.dropna(subset=["faithfulness"]).sort_values("faithfulness").head(3).iterrows():
            lines.append(f"- {row['question'][:80]!r}: {str(row['faithfulness_reason'])[:160]}")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.report:
        args.report.write_text(report, encoding="utf-8")

    state["nights"] = history + [{"night": args.night, "records": len(data), "means": tonight}]
    args.state.write_text(json.dumps(state, indent=2), encoding="utf-8")
    for alert in alerts:
        print(f"ALERT: {alert}", file=sys.stderr)
    return 1 if alerts else 0


if __name__ == "__main__":
    sys.exit(main())
