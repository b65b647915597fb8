"""Risk-coverage of the local judge's verdicts: how right are the verdicts it is surest of?

    .venv/bin/python bench/risk_coverage.py            # both kinds, development and blind apart
    .venv/bin/python bench/risk_coverage.py --json F   # also the numbers as JSON
    .venv/bin/python bench/figures.py --only risk      # the figures (group ``risk``)

This script only measures; it changes no scoring. Every local verdict carries a calibrated
probability p of "yes" (``ragmeter.judges.local.calibration``, fitted on development data by
``bench/calibrate.py``); read as a verdict, "yes" when p >= 0.5, and its confidence is
|p - 0.5|. The cascade keeps the local verdicts it is sure of and sends the rest to the LLM:
by default those with p inside (0.05, 0.95) (and every verdict without a calibration);
``--escalate-band LOW,HIGH`` sets another band. What this measures, per judgement kind, with
development and blind data apart (``bench/blind.py``):

* the risk-coverage curve: verdicts sorted by confidence, most confident first; for coverage
  10%, 20%, ..., 100% (the share of verdicts kept) the share right among those kept
  (ties of confidence are broken by the data's order);
* ``kept_at_95``: the largest coverage at which the share right among the kept verdicts is
  still >= 95% (0 when none is). Only coverages a threshold on confidence can realise count:
  the cut falls between two different confidences (or after the last verdict), never inside a
  run of equal confidences;
* the cascade's bands, (0.05, 0.95) (the default), (0.25, 0.75) and (0.5, 0.5) (nothing
  escalated): the share kept, which is also the share of LLM calls saved (one judgement per
  pair here, so a pair whose verdict is kept needs no call), the share right among the kept
  verdicts, and the share right overall when the labels stand in for the LLM on the
  escalated part (an LLM that is always right: the best the cascade can do at that band);
* a reliability table: 10 bins of p (count, mean p, share positive).

Beside each figure, the trivial baselines where they apply: MiniLM cosine turned into a
probability by rank (the lowest cosine of the set 0, the highest 1, evenly between:
``rank_probabilities``), and the base rate (share positive: the share right of always
answering the majority label is max(rate, 1 - rate)).

The three kinds, each one judgement per labelled pair (``bench/calibrate.py`` collects them):

* **support** (claim support; ground-truth attribution and answer correctness use the same
  verifier and calibration): ``bench/data/support_pairs.jsonl``, (premise, claim, supported);
* **chunk_relevance**: ``bench/data/context_relevance_pairs.jsonl``, a question with its
  relevant passage (1) and its hard negative (0);
* **addressing** (does the answer address the question): ``bench/data/answer_relevancy_triples.jsonl``,
  the complete and padded answers 1, the evasive, off-point, refusing and incomplete ones 0.
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
BANDS = ((0.05, 0.95), (0.25, 0.75), (0.5, 0.5))
TARGET = 0.95
KINDS = ("support", "chunk_relevance", "addressing")


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
    also the share of LLM calls saved), ``right`` the share right among the kept verdicts,
    ``right_with_llm`` the share right overall when the escalated verdicts are answered right
    (the labels stand in for the LLM): (right kept + escalated) / n."""
    p = np.asarray(probs, dtype=float)
    keep = ~((low < p) & (p < high))
    right = _right(probs, labels)
    return {"kept": float(keep.mean()) if len(p) else float("nan"),
            "right": float(right[keep].mean()) if keep.any() else float("nan"),
            "right_with_llm": float((right[keep].sum() + (~keep).sum()) / len(p)) if len(p) else float("nan"),
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

def _cosines(pairs: Sequence[tuple[str, str]]) -> list[float]:
    from ragmeter.embedders.sentence_transformer import load_model

    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    vectors = load_model().encode(texts, batch_size=64, normalize_embeddings=True,
                                  convert_to_numpy=True, show_progress_bar=False)
    row = {t: i for i, t in enumerate(texts)}
    return [float(vectors[row[a]] @ vectors[row[b]]) for a, b in pairs]


def collect(kind: str) -> dict[str, dict]:
    """Per data kind: the calibrated probabilities the local judge gives (the shipped
    calibration, ``src/ragmeter/judges/local/calibration.json``, fitted on development data),
    the labels, and the cosine baseline's rank probabilities."""
    from calibrate import COLLECT

    from ragmeter.judges.local.calibration import calibrations

    collect_raw, data = COLLECT[kind]
    split = collect_raw()
    calibration = calibrations("alignment")[kind]
    out = {}
    for data_kind, d in split.items():
        out[data_kind] = {"probs": calibration.probability(d["raw"]), "raw": d["raw"], "labels": d["labels"],
                          "baseline": rank_probabilities(_cosines(d["texts"])) if d["texts"] else [],
                          "no_value": 0, "data": f"{data}, {data_kind} part ({len(d['labels'])} judgements)"}
    return out


def measure() -> dict[str, dict[str, dict]]:
    """{kind: {"development"|"blind": {"data", "local": summary, "baseline": summary}}}."""
    out: dict[str, dict[str, dict]] = {}
    for kind in KINDS:
        out[kind] = {}
        for data_kind, d in collect(kind).items():
            out[kind][data_kind] = {"data": d["data"], "no_value": d["no_value"],
                                    "local": summary(d["probs"], d["labels"]),
                                    "raw": summary(d["raw"], d["labels"]),
                                    "baseline": summary(d["baseline"], d["labels"])}
    return out


BASELINE = {kind: "minilm_cosine_rank" for kind in KINDS}


def ece(s: dict) -> float:
    """Expected calibration error of a summary's reliability bins (count-weighted |mean p - share yes|)."""
    n = sum(b["count"] for b in s["reliability"])
    return float(sum(b["count"] / n * abs(b["mean_p"] - b["positive"]) for b in s["reliability"] if b["count"]))


def diagrams(report: dict[str, dict[str, dict]]) -> str:
    """Reliability diagrams as Markdown: per kind and data kind, raw and calibrated probability
    against the share labelled yes, bin by bin, with a bar of each."""
    lines = ["# Reliability of the local judge's probabilities",
             "",
             "Written by `make figures` (`bench/figures.py --only risk`, from `bench/risk_coverage.py`); "
             "do not edit. Per bin of probability: how many verdicts, their mean probability and the share "
             "labelled yes. A calibrated judge has the two equal (the bars the same length). The raw "
             "column is the rules' score; the calibrated one is what the verdicts carry "
             "(`ragmeter.judges.local.calibration`, fitted on the development part only).", ""]
    for kind, by_data in report.items():
        for data_kind, r in by_data.items():
            lines += [f"## {kind}, {data_kind}", "", f"{r['data']}; ECE raw {ece(r['raw']):.3f}, "
                      f"calibrated {ece(r['local']):.3f}", "",
                      "| bin | raw: n | mean p | yes | | calibrated: n | mean p | yes | |",
                      "|---|---|---|---|---|---|---|---|---|"]
            for a, b in zip(r["raw"]["reliability"], r["local"]["reliability"]):
                bar = lambda x: "" if x != x else "#" * round(10 * x)  # noqa: E731
                lines.append(f"| {a['low']:.1f}-{a['high']:.1f} | {a['count']} | {_f(a['mean_p'])} | {_f(a['positive'])} "
                             f"| `{bar(a['positive']):<10}` | {b['count']} | {_f(b['mean_p'])} | {_f(b['positive'])} "
                             f"| `{bar(b['positive']):<10}` |")
            lines.append("")
    return "\n".join(lines)


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
            v[f"right_with_llm_at_band_{band}"] = b["right_with_llm"]
        return v

    for kind, by_data in report.items():
        for data_kind, r in by_data.items():
            prefix = f"risk.{kind}.{data_kind}"
            out.append((f"{prefix}.n", float(r["local"]["n"]), r["data"], data_kind))
            out.append((f"{prefix}.positive_rate", r["local"]["positive_rate"], r["data"], data_kind))
            out.append((f"{prefix}.ece", ece(r["local"]), r["data"], data_kind))
            out.append((f"{prefix}.ece_raw", ece(r["raw"]), r["data"], data_kind))
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
                      f"{_f(lb['right'])}, right overall with the LLM on the rest {_f(lb['right_with_llm'])} "
                      f"| cosine rank kept {bb['kept']:.3f}, right {_f(bb['right'])}")
            print(f"  reliability (local): {'bin':>11} {'count':>6} {'mean p':>7} {'positive':>9}")
            for b in loc["reliability"]:
                print(f"  {'':21}[{b['low']:.1f}, {b['high']:.1f}{']' if b['high'] == 1 else ')'} "
                      f"{b['count']:>6} {_f(b['mean_p']):>7} {_f(b['positive']):>9}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    parser.add_argument("--diagrams", type=Path, help="also write the reliability diagrams (Markdown) here")
    args = parser.parse_args(argv)
    report = measure()
    print_report(report)
    if args.diagrams:
        args.diagrams.write_text(diagrams(report), encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
