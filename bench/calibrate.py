"""Fit the local judge's calibrations on development data, and show how they hold on blind data.

    .venv/bin/python bench/calibrate.py            # fit on development data, print its reliability
    .venv/bin/python bench/calibrate.py --write    # ... and write src/ragmeter/judges/local/calibration.json
    .venv/bin/python bench/calibrate.py --blind    # ... and print the blind reliability (once a round)

Per judgement kind, the local judge's raw score is collected on labelled pairs, and an
isotonic map from raw score to "share labelled yes" is fitted on the development part only
(``bench/blind.py`` says which parts are blind; they are never fitted on):

* ``support``: ``bench/data/support_pairs.jsonl`` (premise, claim, supported 1/0), the raw
  score the default verifier's support probability;
* ``chunk_relevance``: ``bench/data/context_relevance_pairs.jsonl`` (a question, its relevant
  passage labelled 1 and its hard negative 0), the raw score ``ChunkRelevanceScorer``'s;
* ``addressing``: ``bench/data/answer_relevancy_triples.jsonl``, the raw score question
  coverage; the complete and the padded answers address the question (1), the evasive,
  off-point, refusing and incomplete ones do not (0).

The map (``ragmeter.judges.local.calibration``): scikit-learn's ``IsotonicRegression`` on the
development pairs; its blocks (runs of equal fitted value) each get (yes + 1) / (n + 2), a
second isotonic pass (weighted by n) keeps that monotone, and the knots are each block's
lowest and highest raw score. Printed beside it: reliability tables (10 bins of probability:
count, mean probability, share labelled yes) before and after, on development and blind data
apart, and the expected calibration error (ECE, the count-weighted mean of
|mean probability - share yes| over the bins).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Sequence

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(HERE))

from blind import is_blind  # noqa: E402

DATA = HERE / "data"
ADDRESSING_POORER = {"evasive": 0, "off-point": 0, "refusal": 0, "incomplete": 0, "padded": 1}
"""Whether each kind of poorer answer still addresses the question (the complete one always does)."""


# --- pure functions --------------------------------------------------------------------------

def fit_isotonic(raw: Sequence[float], labels: Sequence[int]) -> tuple[list[float], list[float]]:
    """Knots and values of the smoothed isotonic map (see the module docstring)."""
    from sklearn.isotonic import IsotonicRegression

    x = np.asarray(raw, dtype=float)
    y = np.asarray(labels, dtype=float)
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    fitted = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit_transform(x, y)
    blocks: list[tuple[float, float, int, float]] = []  # (low raw, high raw, n, yes)
    start = 0
    for i in range(1, len(x) + 1):
        if i == len(x) or fitted[i] != fitted[start]:
            blocks.append((float(x[start]), float(x[i - 1]), i - start, float(y[start:i].sum())))
            start = i
    smoothed = np.array([(yes + 1.0) / (n + 2.0) for _, _, n, yes in blocks])
    weights = np.array([n for _, _, n, _ in blocks], dtype=float)
    centres = np.arange(len(blocks), dtype=float)
    monotone = IsotonicRegression(y_min=0.0, y_max=1.0).fit_transform(centres, smoothed, sample_weight=weights)
    knots: list[float] = []
    values: list[float] = []
    for (low, high, _, _), v in zip(blocks, monotone):
        for k in (low, high) if high > low else (low,):
            k = round(k, 6)
            if knots and k <= knots[-1]:
                k = round(knots[-1] + 1e-6, 6)  # np.interp needs increasing knots
            knots.append(float(k))
            values.append(round(float(v), 6))
    return knots, values


def reliability(probs: Sequence[float], labels: Sequence[int], bins: int = 10) -> list[dict]:
    """Per bin of probability: count, mean probability, share labelled yes (NaN when empty)."""
    p = np.asarray(probs, dtype=float)
    y = np.asarray(labels, dtype=float)
    which = np.minimum((p * bins).astype(int), bins - 1)
    return [{"low": b / bins, "high": (b + 1) / bins, "count": int((which == b).sum()),
             "mean_p": float(p[which == b].mean()) if (which == b).any() else float("nan"),
             "positive": float(y[which == b].mean()) if (which == b).any() else float("nan")}
            for b in range(bins)]


def expected_calibration_error(probs: Sequence[float], labels: Sequence[int], bins: int = 10) -> float:
    """ECE = sum_b (n_b / n) |mean p_b - share yes_b| over the non-empty bins."""
    n = len(probs)
    return float(sum(b["count"] / n * abs(b["mean_p"] - b["positive"])
                     for b in reliability(probs, labels, bins) if b["count"])) if n else float("nan")


# --- the data and the raw scores ---------------------------------------------------------------

def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


Split = dict[str, dict[str, list]]
"""{"development"|"blind": {"raw": [score], "labels": [1/0], "texts": [(first, second)]}}: one
entry per judgement, the texts it read (premise and claim, question and passage, question and
answer) kept for the baselines that read them too (``risk_coverage.py``)."""


def support_raw() -> Split:
    """The hand-written (premise, claim) pairs: the default verifier's support probability."""
    from ragmeter.judges.local import get_verifier

    rows = _rows("support_pairs.jsonl")
    texts = [(r["premise"], r["claim"]) for r in rows]
    raw = get_verifier("alignment").support(texts)
    return _split("support_pairs.jsonl", [r.get("set") for r in rows], raw, [int(r["label"]) for r in rows], texts)


def chunk_relevance_raw() -> Split:
    """Each pair's two passages: ``ChunkRelevanceScorer``'s relevance (relevant 1, negative 0)."""
    from ragmeter.judges.local import LocalModels

    rows = _rows("context_relevance_pairs.jsonl")
    scorer = LocalModels().model("chunk_relevance")
    raw = [float(j.relevance) for r in rows for j in scorer.relevance(r["question"], [r["relevant"], r["negative"]])]
    texts = [(r["question"], r[side]) for r in rows for side in ("relevant", "negative")]
    parts = [r.get("set") for r in rows for _ in (0, 1)]
    return _split("context_relevance_pairs.jsonl", parts, raw, [1, 0] * len(rows), texts)


def addressing_raw() -> Split:
    """Each triple's two answers: question coverage (addresses the question 1/0)."""
    from ragmeter.judges.local import LocalModels, question_coverage

    rows = _rows("answer_relevancy_triples.jsonl")
    texts = [(r["question"], a) for r in rows for a in (r["complete"], r["poorer"])]
    covered = question_coverage([q for q, _ in texts], [a for _, a in texts], LocalModels().model("encoder"))
    labels = [y for r in rows for y in (1, ADDRESSING_POORER[r["kind"]])]
    parts = [r.get("half") for r in rows for _ in (0, 1)]
    return _split("answer_relevancy_triples.jsonl", parts, [float(c.score) for c in covered], labels, texts)


def _split(data_file: str, parts: Sequence, raw: Sequence[float], labels: Sequence[int],
           texts: Sequence[tuple[str, str]]) -> Split:
    out: Split = {kind: {"raw": [], "labels": [], "texts": []} for kind in ("development", "blind")}
    for part, r, y, t in zip(parts, raw, labels, texts):
        kind = out["blind" if is_blind(data_file, part) else "development"]
        kind["raw"].append(float(r))
        kind["labels"].append(int(y))
        kind["texts"].append(t)
    return out


COLLECT = {"support": (support_raw, "bench/data/support_pairs.jsonl"),
           "chunk_relevance": (chunk_relevance_raw, "bench/data/context_relevance_pairs.jsonl"),
           "addressing": (addressing_raw, "bench/data/answer_relevancy_triples.jsonl")}


def measure(kinds: Sequence[str] = tuple(COLLECT)) -> dict[str, dict]:
    """Per kind: the raw scores and labels (development and blind), and the fitted map."""
    from ragmeter.judges.local.calibration import Calibration

    out = {}
    for kind in kinds:
        collect, data = COLLECT[kind]
        split = collect()
        dev_raw, dev_y = split["development"]["raw"], split["development"]["labels"]
        knots, values = fit_isotonic(dev_raw, dev_y)
        cal = Calibration(kind, tuple(knots), tuple(values),
                          f"{data}, development part ({len(dev_y)} judgements, {sum(dev_y)} yes)")
        out[kind] = {"split": split, "calibration": cal}
    return out


def _f(x: float) -> str:
    return "-" if x != x else f"{x:.3f}"


def print_report(report: dict[str, dict], blind: bool = False) -> None:
    for kind, r in report.items():
        cal = r["calibration"]
        print(f"\n### {kind}: fitted on {cal.data}; {len(cal.knots)} knots")
        for data_kind in ("development", "blind") if blind else ("development",):
            raw, y = r["split"][data_kind]["raw"], r["split"][data_kind]["labels"]
            if not y:
                continue
            calibrated = cal.probability(raw)
            label = "DEVELOPMENT (fitted on: in-sample)" if data_kind == "development" else "BLIND (never fitted on)"
            print(f"\n{label}: {len(y)} judgements, {sum(y)} yes; ECE raw {expected_calibration_error(raw, y):.3f}, "
                  f"calibrated {expected_calibration_error(calibrated, y):.3f}")
            print(f"{'bin':>12} | {'raw: n':>6} {'mean p':>7} {'yes':>6} | {'calibrated: n':>13} {'mean p':>7} {'yes':>6}")
            for a, b in zip(reliability(raw, y), reliability(calibrated, y)):
                print(f"[{a['low']:.1f}, {a['high']:.1f}{']' if a['high'] == 1 else ')'} | {a['count']:>6} "
                      f"{_f(a['mean_p']):>7} {_f(a['positive']):>6} | {b['count']:>13} {_f(b['mean_p']):>7} "
                      f"{_f(b['positive']):>6}")


def write(report: dict[str, dict], path: Path) -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    payload = {
        "about": ("Isotonic maps from the local judge's raw scores to the probability of yes, fitted on "
                  "development data by bench/calibrate.py --write; see ragmeter.judges.local.calibration."),
        "fitted": f"{dt.date.today().isoformat()} at {commit or 'an unknown commit'}",
        "kinds": {kind: r["calibration"].as_dict() for kind, r in report.items()},
    }
    if path.exists():  # refitting some kinds (--kinds) keeps the maps of the others
        kept = json.loads(path.read_text(encoding="utf-8")).get("kinds", {})
        payload["kinds"] = {**{k: v for k, v in kept.items() if k not in payload["kinds"]}, **payload["kinds"]}
    path.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print(f"\nwrote {path.relative_to(ROOT)}")


def main(argv: Sequence[str] | None = None) -> int:
    from ragmeter.judges.local.calibration import CALIBRATION_FILE

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write the maps to {CALIBRATION_FILE.name}")
    parser.add_argument("--kinds", default=",".join(COLLECT), help="comma-separated kinds")
    parser.add_argument("--blind", action="store_true",
                        help="also print the blind reliability (blind data is scored once, never chosen on)")
    args = parser.parse_args(argv)
    report = measure([k.strip() for k in args.kinds.split(",") if k.strip()])
    print_report(report, args.blind)
    if args.write:
        write(report, CALIBRATION_FILE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
