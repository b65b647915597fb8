"""A CI gate: score the RAG app's answers on a fixed test set and fail the build when a
metric falls below its floor.

    python recipes/ci_gate/gate.py                                   # the bundled sample, local judge
    python recipes/ci_gate/gate.py dataset.jsonl --min faithfulness=0.6 --min answer_similarity=0.7
    python recipes/ci_gate/gate.py dataset.jsonl --judge openai:gpt-4o-mini --summary "$GITHUB_STEP_SUMMARY"

In CI, the step before this one runs the app over the test set
(`ragmeter run testset.jsonl --app my_rag.app:answer --out dataset.jsonl`); see
`github_workflow.yml` beside this file. Exit code 0 when every floor holds, 1 when one does
not, 2 for bad input. The markdown summary lists each metric against its floor and the
worst samples with their reasons, so the reviewer sees why without opening the logs.
Unscored samples (typed errors, never NaN) are listed too: a gate that silently ignored
them could pass on an empty run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ragmeter import Dataset, evaluate
from ragmeter.data import SAMPLE_DATA_PATH

DEFAULT_FLOORS = {"faithfulness": 0.2, "answer_similarity": 0.7, "context_precision": 0.5}


def parse_floors(values: list[str]) -> dict[str, float]:
    floors: dict[str, float] = {}
    for value in values:
        name, sep, number = value.partition("=")
        try:
            floors[name.strip()] = float(number)
        except ValueError:
            raise SystemExit(f"--min takes METRIC=FLOOR, not {value!r}") from None
        if not sep:
            raise SystemExit(f"--min takes METRIC=FLOOR, not {value!r}")
    return floors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(SAMPLE_DATA_PATH))
    parser.add_argument("--min", action="append", default=[], metavar="METRIC=FLOOR")
    parser.add_argument("--judge", default="local")
    parser.add_argument("--max-unscored", type=float, default=0.2,
                        help="largest share of samples a metric may leave unscored")
    parser.add_argument("--summary", type=Path, help="append the markdown summary to this file")
    args = parser.parse_args(argv)

    floors = parse_floors(args.min) or DEFAULT_FLOORS
    data = Dataset.load(args.data)
    if not len(data):
        print(f"no samples in {args.data}", file=sys.stderr)
        return 2
    result = evaluate(data, list(floors), judge=args.judge, journal=False, show_progress=False)
    summary = result.summary()
    frame = result.to_pandas()

    failed = []
    lines = ["## RAG quality gate", "", "| metric | mean | floor | scored | unscored | verdict |",
             "|---|---|---|---|---|---|"]
    for name, floor in floors.items():
        s = summary[name]
        unscored_share = s.errors / max(1, s.scored + s.errors)
        ok = s.mean is not None and s.mean >= floor and unscored_share <= args.max_unscored
        if not ok:
            failed.append(name)
        mean = "-" if s.mean is None else f"{s.mean:.3f}"
        lines.append(f"| {name} | {mean} | {floor:.2f} | {s.scored} | {s.errors} | {'pass' if ok else '**FAIL**'} |")
    for name in failed:
        worst = frame.dropna(subset=[name]).sort_values(name).head(3)
        lines += ["", f"Lowest {name}:"]
        for _, row in worst.iterrows():
            reason = str(row.get(f"{name}_reason") or "").replace("\n", " ")[:200]
            lines.append(f"- `{row['id']}` {row[name]:.2f}: {reason}")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.summary:
        with args.summary.open("a", encoding="utf-8") as f:
            f.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
