"""Risk-coverage of the local judge's verdicts: how right are the verdicts it is surest of?

    .venv/bin/python bench/risk_coverage.py            # both kinds, development and blind apart
    .venv/bin/python bench/risk_coverage.py --json F   # also the numbers as JSON
    .venv/bin/python bench/figures.py --only risk      # the figures (group ``risk``)

This script only measures; it changes no scoring. Every local verdict carries a probability p
and the verdict is "yes" when p >= 0.5. Its confidence is |p - 0.5|. The cascade
(``--judge local+openai:MODEL --escalate-band LOW,HIGH``) keeps the local verdicts with p outside
the band and sends the ones strictly inside (LOW < p < HIGH) to the LLM. What this measures,
per judgement kind, with development and blind data apart (``bench/blind.py``):

* the risk-coverage curve: verdicts sorted by confidence, most confident first; for coverage
  10%, 20%, ..., 100% (the share of verdicts kept) the share right among those kept
  (ties of confidence are broken by the data's order);
* ``kept_at_95``: the largest coverage at which the share right among the kept verdicts is
  still >= 95% (0 when none is). Only coverages a threshold on confidence can realise count:
  the cut falls between two different confidences (or after the last verdict), never inside a
  run of equal confidences;
* the cascade's bands: for the default band (0.25, 0.75) and for (0.5, 0.5) (nothing
  escalated), the share kept (outside the band: the share of LLM calls saved), and the share
  right among the kept verdicts;
* a reliability table: 10 bins of p (count, mean p, share positive), the calibration the next
  step will fit.

Beside each figure, the trivial baselines where they apply: MiniLM cosine turned into a
probability by rank (the lowest cosine of the set 0, the highest 1, evenly between:
``rank_probabilities``), and the base rate (share positive: the share right of always
answering the majority label is max(rate, 1 - rate)).

The two kinds:

* **chunk relevance**: ``bench/data/context_relevance_pairs.jsonl``, one sample per passage
  (the relevant passage labelled 1, its hard negative 0), scored through
  ``ragmeter.evaluate([...], ["context_relevance"], judge="local")``; p is the sample's one
  chunk relevance (its ``verdicts["chunks"][0]["relevance"]``, the score when absent).
* **claim support, at the answer level**: ``bench/data/rag_dev.jsonl``, every answer (the
  faithful one and its three unfaithful variants) scored through ``ragmeter.evaluate([...],
  ["faithfulness"], judge="local")``; p is the answer's faithfulness score (an answer with no
  claims, score None, counts as 0 as in ``quality_rag_dev.py``); the verdict is "faithful"
  (p >= 0.5) against the label faithful = the careful reader's faithfulness >= 0.999 (the
  faithful answers, and variants the reader rates 1.0). Answer level, because claims have no
  gold labels: the careful reader rates answers (supported claims / all claims), and which of
  the local judge's claims the reader would call supported is not written down. So this is
  not the per-claim verdict the cascade escalates: its band figures say what a band on the
  answer's score would keep, and ``quality_rag_dev.py`` prints the share of claim verdicts
  inside the band (``ragdev.*.claims_in_band``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Sequence

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

COVERAGES = tuple(round(0.1 * k, 1) for k in range(1, 11))
BANDS = ((0.25, 0.75), (0.5, 0.5))
TARGET = 0.95
KINDS = ("chunk_relevance", "claim_support")


# --- pure functions --------------------------------------------------------------------------

def _right(probs: Sequence[float], labels: Sequence[int]) -> np.ndarray:
    p = np.asarray(probs, dtype=float)
    return (p >= 0.5) == (np.asarray(labels, dtype=int) == 1)


def _order(probs: Sequence[float]) -> np.ndarray:
    """Indices by confidence |p - 0.5|, most confident first; ties keep the data's order."""
    return np.argsort(-np.abs(np.asarray(probs, dtype=float) - 0.5), kind="stable")


def kept_count(coverage: float, n: int) -> int:
    """How many of ``n`` verdicts a coverage keeps: ceil(coverage * n), at least 1 when n > 0."""
    return min(n, max(1 if n else 0, math.ceil(coverage * n - 1e-9)))


def risk_coverage(probs: Sequence[float], labels: Sequence[int],
                  coverages: Sequence[float] = COVERAGES) -> list[tuple[float, int, float]]:
    """(coverage, verdicts kept, share right among them) per coverage, most confident first."""
    right = _right(probs, labels)[_order(probs)]
    out = []
    for c in coverages:
        k = kept_count(c, len(right))
        out.append((c, k, float(right[:k].mean()) if k else float("nan")))
    return out


def kept_at(probs: Sequence[float], labels: Sequence[int], target: float = TARGET) -> float:
    """The largest coverage whose kept verdicts are right at least ``target`` of the time (0 when
    none): cuts only between two different confidences, or after the last verdict."""
    order = _order(probs)
    conf = np.abs(np.asarray(probs, dtype=float) - 0.5)[order]
    right = _right(probs, labels)[order]
    n, best = len(right), 0.0
    hits = np.cumsum(right)
    for k in range(1, n + 1):
        if k < n and conf[k - 1] == conf[k]:
            continue  # a threshold cannot split a run of equal confidences
        if hits[k - 1] / k >= target - 1e-12:
            best = k / n
    return best


def band_shares(probs: Sequence[float], labels: Sequence[int], low: float, high: float) -> dict:
    """The cascade's band: ``kept`` the share outside it (LOW < p < HIGH is escalated; so this is
    also the share of LLM calls saved), ``right`` the share right among the kept verdicts."""
    p = np.asarray(probs, dtype=float)
    keep = ~((low < p) & (p < high))
    right = _right(probs, labels)
    return {"kept": float(keep.mean()) if len(p) else float("nan"),
            "right": float(right[keep].mean()) if keep.any() else float("nan"),
            "escalated": int((~keep).sum())}


def reliability(probs: Sequence[float], labels: Sequence[int], bins: int = 10) -> list[dict]:
    """Per bin of p ([0, 0.1), ..., [0.9, 1.0]): count, mean p, share positive (NaN if empty)."""
    p = np.asarray(probs, dtype=float)
    y = np.asarray(labels, dtype=float)
    which = np.minimum((p * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        m = which == b
        out.append({"low": b / bins, "high": (b + 1) / bins, "count": int(m.sum()),
                    "mean_p": float(p[m].mean()) if m.any() else float("nan"),
                    "positive": float(y[m].mean()) if m.any() else float("nan")})
    return out


def rank_probabilities(values: Sequence[float]) -> list[float]:
    """A score turned into a probability by rank: lowest 0, highest 1, evenly between (ties
    share their mean rank); one value gives 0.5."""
    v = np.asarray(values, dtype=float)
    n = len(v)
    if n == 1:
        return [0.5]
    order = np.argsort(v, kind="stable")
    ranks = np.empty(n)
    ranks[order] = np.arange(n, dtype=float)
    for value in np.unique(v):  # ties: their mean rank
        m = v == value
        if m.sum() > 1:
            ranks[m] = ranks[m].mean()
    return list(ranks / (n - 1))


def summary(probs: Sequence[float], labels: Sequence[int]) -> dict:
    """Everything printed and recorded for one set of verdicts."""
    return {
        "n": len(probs),
        "positive_rate": float(np.mean(labels)) if len(labels) else float("nan"),
        "curve": risk_coverage(probs, labels),
        "kept_at_95": kept_at(probs, labels),
        "bands": {f"{lo:g}_{hi:g}": band_shares(probs, labels, lo, hi) for lo, hi in BANDS},
        "reliability": reliability(probs, labels),
    }


# --- the data and the local judge ------------------------------------------------------------

def chunk_relevance() -> dict[str, dict]:
    """Per data kind: probabilities, labels and the cosine baseline's rank probabilities."""
    from blind import BLIND
    from quality import cosine_pairs

    from ragmeter import evaluate

    rows = [json.loads(line) for line in (HERE / "data" / "context_relevance_pairs.jsonl")
            .read_text(encoding="utf-8").splitlines() if line.strip()]
    blind = BLIND.get("context_relevance_pairs.jsonl", {})
    samples = [{"question": r["question"], "contexts": [r[side]]}
               for r in rows for side in ("relevant", "negative")]
    result = evaluate(samples, ["context_relevance"], judge="local", cache=False, journal=False,
                      show_progress=False)
    probs, missing = [], []
    for s in result.samples:
        score = s.scores["context_relevance"]
        chunks = (score.verdicts or {}).get("chunks") if isinstance(score.verdicts, dict) else None
        missing.append(score.value is None and not chunks)
        probs.append(float(chunks[0]["relevance"]) if chunks else
                     0.0 if score.value is None else float(score.value))
    cosines = [c for pair in cosine_pairs([(r["question"], r["relevant"], r["negative"])
                                           for r in rows]) for c in pair]
    out = {}
    for kind, want in (("development", False), ("blind", True)):
        idx = [2 * i + j for i, r in enumerate(rows) if (r.get("set") in blind) == want
               for j in (0, 1)]
        sets = ", ".join(dict.fromkeys(str(rows[i // 2].get("set") or "first 34") for i in idx))
        out[kind] = {
            "probs": [probs[i] for i in idx],
            "labels": [1 - i % 2 for i in idx],
            "baseline": rank_probabilities([cosines[i] for i in idx]),
            "no_value": sum(missing[i] for i in idx),
            "data": (f"bench/data/context_relevance_pairs.jsonl, sets {sets} "
                     f"({len(idx) // 2} pairs, {len(idx)} passages)"),
        }
    return out


def claim_support() -> dict[str, dict]:
    """Per data kind, answer level: faithfulness scores, faithful labels, cosine baseline."""
    from blind import BLIND
    from quality_rag_dev import _samples, load

    from ragmeter import evaluate
    from ragmeter.judges.local.verifier import default_encoder

    rows = load()
    samples, meta, careful = _samples(rows)
    split_of = {r["id"]: r["split"] for r in rows}
    result = evaluate(samples, ["faithfulness"], judge="local", cache=False, journal=False,
                      show_progress=False)
    probs = [0.0 if s.scores["faithfulness"].value is None else float(s.scores["faithfulness"].value)
             for s in result.samples]
    encoder = default_encoder()
    a = encoder.encode([s["answer"] for s in samples])
    c = encoder.encode(["\n".join(s["contexts"]) for s in samples])
    cosines = list(np.sum(a * c, axis=1))
    blind = BLIND.get("rag_dev.jsonl", {})
    out = {}
    for kind, want in (("development", False), ("blind", True)):
        idx = [n for n, (rid, _) in enumerate(meta) if (split_of[rid] in blind) == want]
        splits = ", ".join(dict.fromkeys(split_of[meta[n][0]] for n in idx))
        out[kind] = {
            "probs": [probs[n] for n in idx],
            "labels": [int(careful[n] >= 0.999) for n in idx],
            "baseline": rank_probabilities([cosines[n] for n in idx]),
            "no_value": sum(result.samples[n].scores["faithfulness"].value is None for n in idx),
            "data": (f"bench/data/rag_dev.jsonl, splits {splits} ({len(idx)} answers, "
                     "answer level)"),
        }
    return out


def measure() -> dict[str, dict[str, dict]]:
    """{kind: {"development"|"blind": {"data", "local": summary, "baseline": summary}}}."""
    out: dict[str, dict[str, dict]] = {}
    for kind, load_kind in (("chunk_relevance", chunk_relevance), ("claim_support", claim_support)):
        out[kind] = {}
        for data_kind, d in load_kind().items():
            out[kind][data_kind] = {"data": d["data"], "no_value": d["no_value"],
                                    "local": summary(d["probs"], d["labels"]),
                                    "baseline": summary(d["baseline"], d["labels"])}
    return out


BASELINE = {"chunk_relevance": "minilm_cosine_rank", "claim_support": "minilm_cosine_rank"}


def figures(report: dict[str, dict[str, dict]]) -> list[tuple[str, float, str, str]]:
    """(key, value, data, data kind) of every figure: ``risk.KIND.DATA_KIND.NAME``."""
    out = []

    def values(s: dict) -> dict[str, float]:
        curve = {c: right for c, _, right in s["curve"]}
        v = {"kept_at_95": s["kept_at_95"], "right_at_coverage_0.5": curve[0.5],
             "right_at_coverage_1.0": curve[1.0]}
        for band, b in s["bands"].items():
            v[f"kept_at_band_{band}"] = b["kept"]
            v[f"right_at_band_{band}"] = b["right"]
        return v

    for kind, by_data in report.items():
        for data_kind, r in by_data.items():
            prefix = f"risk.{kind}.{data_kind}"
            out.append((f"{prefix}.n", float(r["local"]["n"]), r["data"], data_kind))
            out.append((f"{prefix}.positive_rate", r["local"]["positive_rate"], r["data"], data_kind))
            out += [(f"{prefix}.{k}", v, r["data"], data_kind) for k, v in values(r["local"]).items()]
            out += [(f"{prefix}.baseline.{BASELINE[kind]}.{k}", v, r["data"], data_kind)
                    for k, v in values(r["baseline"]).items()]
    return out


# --- printing -----------------------------------------------------------------------------

def _f(x: float, fmt: str = ".3f") -> str:
    return "-" if x != x else format(x, fmt)


def print_report(report: dict[str, dict[str, dict]]) -> None:
    for data_kind, heading in (("development", "DEVELOPMENT (tuned on, or read while tuning)"),
                               ("blind", "BLIND (bench/blind.py; scored, never used to choose)")):
        print(f"\n=== {heading} ===")
        for kind, by_data in report.items():
            r = by_data[data_kind]
            loc, base = r["local"], r["baseline"]
            print(f"\n{kind} ({r['data']}); positive {loc['positive_rate']:.3f} "
                  f"(majority label right {max(loc['positive_rate'], 1 - loc['positive_rate']):.3f}); "
                  f"{r['no_value']} without a value (counted as p = 0)")
            print(f"{'coverage':>9} {'kept':>5} {'right (local)':>14} {'right (cosine rank)':>20}")
            for (c, k, right), (_, _, bright) in zip(loc["curve"], base["curve"]):
                print(f"{c:>9.0%} {k:>5} {_f(right):>14} {_f(bright):>20}")
            print(f"{'kept_at_95':>15}: local {loc['kept_at_95']:.3f}   cosine rank "
                  f"{base['kept_at_95']:.3f}")
            for band in loc["bands"]:
                lb, bb = loc["bands"][band], base["bands"][band]
                lo, hi = band.split("_")
                print(f"  band ({lo}, {hi}): local kept {lb['kept']:.3f} (LLM calls saved "
                      f"{lb['kept']:.1%}, {lb['escalated']} escalated), right among kept "
                      f"{_f(lb['right'])} | cosine rank kept {bb['kept']:.3f}, right {_f(bb['right'])}")
            print(f"  reliability (local): {'bin':>11} {'count':>6} {'mean p':>7} {'positive':>9}")
            for b in loc["reliability"]:
                print(f"  {'':21}[{b['low']:.1f}, {b['high']:.1f}{']' if b['high'] == 1 else ')'} "
                      f"{b['count']:>6} {_f(b['mean_p']):>7} {_f(b['positive']):>9}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    report = measure()
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
