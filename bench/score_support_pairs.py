"""The local claim verifiers on (premise, claim, label, kind) pairs, beside trivial baselines.

    .venv/bin/python bench/score_support_pairs.py [PAIRS.jsonl] [--sample N] [--verifiers V,...]

Default file: ``bench/data/support_pairs.jsonl`` (hand-written; its blind part,
``bench/blind.py``, is left out unless ``--blind``: then only the blind part is scored, and
once scored it stays blind only if nothing is chosen on it); the weak pairs of
``make_support_pairs.py`` work too (``--sample`` draws N rows with seed 0). Printed: per
verifier, AUROC of its support probability against the labels with the means of each label;
the same AUROC for two baselines that do not read support (MiniLM cosine of claim and
premise; claim length in words, longer = supported); and each verifier's mean probability
per (label, kind), to see which kinds of claim it gets wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import numpy as np  # noqa: E402

from ragmeter.align.statistics import auroc  # noqa: E402

DEFAULT = HERE / "data" / "support_pairs.jsonl"


def load(path: Path, sample: int | None, blind: bool = False) -> list[dict]:
    """The rows of ``path``: its development part, or with ``blind`` its blind part."""
    sys.path.insert(0, str(HERE))
    from blind import is_blind

    rows = []
    for n, line in enumerate(path.open(encoding="utf-8"), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        missing = {"premise", "claim", "label"} - set(row)
        if missing:
            raise SystemExit(f"{path}: line {n}: missing field(s) {', '.join(sorted(missing))}")
        if is_blind(path.name, row.get("set")) == blind:
            rows.append(row)
    if sample is not None and sample < len(rows):
        rows = random.Random(0).sample(rows, sample)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pairs", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--sample", type=int, default=None, help="score N random rows (seed 0)")
    parser.add_argument("--blind", action="store_true", help="score the blind part instead")
    parser.add_argument("--verifiers", default="lexical,alignment",
                        help="comma-separated verifier specs (see ragmeter.judges.local.verifier)")
    args = parser.parse_args(argv)

    from ragmeter.judges.local.verifier import SentenceEncoder, get_verifier

    rows = load(args.pairs, args.sample, args.blind)
    labels = [int(r["label"]) for r in rows]
    pairs = [(r["premise"], r["claim"]) for r in rows]
    print(f"{args.pairs} ({'BLIND' if args.blind else 'DEVELOPMENT'}): {len(rows)} pairs "
          f"({sum(labels)} supported)")
    scores: dict[str, list[float]] = {}
    for spec in [s.strip() for s in args.verifiers.split(",") if s.strip()]:
        t0 = time.perf_counter()
        scores[spec] = list(get_verifier(spec).support(pairs))
        s = np.array(scores[spec])
        y = np.array(labels)
        print(f"{spec:<12} AUROC {auroc(s, y):.3f}   mean supported {s[y == 1].mean():.3f}   "
              f"mean unsupported {s[y == 0].mean():.3f}   ({time.perf_counter() - t0:.0f} s)")
    encoder = SentenceEncoder()
    claims = encoder.encode([r["claim"] for r in rows])
    premises = encoder.encode([r["premise"] for r in rows])
    print(f"{'cosine':<12} AUROC {auroc((claims * premises).sum(axis=1), labels):.3f}   (baseline)")
    print(f"{'length':<12} AUROC {auroc([len(r['claim'].split()) for r in rows], labels):.3f}"
          "   (baseline: longer claim = supported)")
    by_kind: dict[tuple[int, str], list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_kind[(int(r["label"]), r.get("kind", "?"))].append(i)
    print(f"\n{'label':>5}  {'kind':<22}{'rows':>6}" + "".join(f"{s:>12}" for s in scores))
    for (label, kind), idx in sorted(by_kind.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        means = "".join(f"{np.mean([scores[s][i] for i in idx]):>12.3f}" for s in scores)
        print(f"{label:>5}  {kind:<22}{len(idx):>6}{means}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
