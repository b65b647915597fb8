"""The local judge on RAG-shaped data: faithfulness and context recall of paraphrasing answers.

    .venv/bin/python bench/quality.py --only ragdev          # through quality.py
    .venv/bin/python bench/quality_rag_dev.py [--verifier lexical]

Data: ``bench/data/rag_dev.jsonl``, written for this project (see bench/README.md). Each row
is one question with 2-3 contexts, a ground truth that states what the contexts say in other
words, a faithful answer (LLM-style: reworded, merged, reordered, summarised) and 3
unfaithful variants of it labelled by kind (``wrong_number``, ``wrong_entity``, ``negation``,
``unsupported_addition``, ``partial``). Rows have ``split``: ``dev`` (seen while the verifier
was built) or ``heldout`` (written after its thresholds were set, never used to change them);
the two are reported apart.

Printed, per split, through ``ragmeter.evaluate`` with ``judge="local"`` (what users run):

* mean faithfulness of the faithful answers and of the unfaithful variants (absolute
  means), the share of (faithful, variant) pairs where the faithful answer scores higher
  (ties half), and the mean of each variant kind. Note: a variant keeps the correct parts
  of its answer, so a careful reader's faithfulness for a two-claim variant with one error
  is 0.5, not 0;
* mean context recall of the ground truths (every ground truth is stated by the contexts,
  so a careful reader gives 1.0);
* baselines beside them: answer length (shorter = more faithful) and MiniLM cosine between
  the answer (or ground truth) and the joined contexts, as pairwise accuracy and means;
* the cascade: the share of claim verdicts whose local probability falls inside the band
  (sent to an LLM judge) and the share of samples that need no LLM call at all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Sequence

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
DATA = HERE / "data" / "rag_dev.jsonl"


def load(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def pairwise(pairs: Sequence[tuple[float, float]]) -> float:
    """Share of (better, worse) pairs ordered right; ties count half."""
    return float(np.mean([1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs]))


def _samples(rows: list[dict]) -> tuple[list[dict], list[tuple[str, str]]]:
    samples, meta = [], []
    for r in rows:
        base = {"question": r["question"], "contexts": r["contexts"],
                "ground_truth": r["ground_truth"]}
        samples.append({**base, "answer": r["answer"]})
        meta.append((r["id"], "faithful"))
        for v in r["variants"]:
            samples.append({**base, "answer": v["answer"]})
            meta.append((r["id"], v["kind"]))
    return samples, meta


def _split_report(rows: list[dict], verifier: str, band: tuple[float, float]) -> dict:
    from ragmeter import evaluate
    from ragmeter.judges.local import LocalJudge
    from ragmeter.local.verifier import default_encoder

    samples, meta = _samples(rows)
    judge = LocalJudge(verifier=verifier)
    t0 = time.perf_counter()
    result = evaluate(samples, ["faithfulness", "context_recall"], judge=judge, cache=False,
                      journal=False, show_progress=False)
    elapsed = time.perf_counter() - t0
    faith = [s.scores["faithfulness"].value for s in result.samples]
    recall = [s.scores["context_recall"].value for s in result.samples]
    faith0 = [0.0 if f is None else f for f in faith]  # NoClaims counts as unsupported here
    is_faithful = np.array([k == "faithful" for _, k in meta])

    encoder = default_encoder()
    joined = ["\n".join(s["contexts"]) for s in samples]
    a = encoder.encode([s["answer"] for s in samples])
    g = encoder.encode([s["ground_truth"] for s in samples])
    c = encoder.encode(joined)
    cos_answer = np.sum(a * c, axis=1)
    cos_truth = np.sum(g * c, axis=1)
    length = -np.array([len(s["answer"]) for s in samples], dtype=float)

    def pairs_of(score: Sequence[float]) -> list[tuple[float, float]]:
        best = {i: score[n] for n, (i, k) in enumerate(meta) if k == "faithful"}
        return [(best[i], score[n]) for n, (i, k) in enumerate(meta) if k != "faithful"]

    kinds = sorted({k for _, k in meta if k != "faithful"})
    # the cascade: per-claim probabilities of the faithfulness verdicts
    low, high = band
    # (the same claims and verifier the judge used, asked directly for their probabilities)
    from ragmeter.local.claims import extract_claims

    claims = extract_claims([s["answer"] for s in samples], [s["question"] for s in samples])
    model = judge.model("verifier")
    probs = [model.support([(j, claim) for claim in cs]) for j, cs in zip(joined, claims)]
    flat = [p for ps in probs for p in ps]
    return {
        "items": len(rows),
        "samples": len(samples),
        "faithful_mean": float(np.mean(np.array(faith0)[is_faithful])),
        "unfaithful_mean": float(np.mean(np.array(faith0)[~is_faithful])),
        "pairwise": pairwise(pairs_of(faith0)),
        "by_kind": {k: float(np.mean([f for f, (_, kk) in zip(faith0, meta) if kk == k]))
                    for k in kinds},
        "context_recall_mean": float(np.mean([r for r, f in zip(recall, is_faithful)
                                              if f and r is not None])),
        "context_recall_errors": int(sum(r is None for r, f in zip(recall, is_faithful) if f)),
        "baseline_length_pairwise": pairwise(pairs_of(list(length))),
        "baseline_cosine_pairwise": pairwise(pairs_of(list(cos_answer))),
        "baseline_cosine_faithful_mean": float(cos_answer[is_faithful].mean()),
        "baseline_cosine_unfaithful_mean": float(cos_answer[~is_faithful].mean()),
        "baseline_cosine_truth_mean": float(cos_truth[is_faithful].mean()),
        "claims": len(flat),
        "seconds": elapsed,
        "band": list(band),
        "claims_in_band": (float(np.mean([low < p < high for p in flat])) if flat
                           else float("nan")),
        "samples_without_llm_call": float(np.mean([all(not low < p < high for p in ps)
                                                   for ps in probs])),
    }


def rag_dev(path: Path = DATA, verifier: str = "alignment") -> dict:
    from ragmeter.judges.cascade import DEFAULT_BAND

    rows = load(path)
    out: dict = {"data": str(path), "verifier": verifier}
    for split in ("dev", "heldout"):
        mine = [r for r in rows if r.get("split") == split]
        if mine:
            out[split] = _split_report(mine, verifier, DEFAULT_BAND)
    return out


def print_rag_dev(r: dict) -> None:
    for split in ("dev", "heldout"):
        s = r.get(split)
        if not s:
            continue
        title = ("development part (seen while building the verifier)" if split == "dev"
                 else "held-out part (written after the thresholds were set)")
        print(f"\nRAG dev set, {title}: {s['items']} questions, {s['samples']} samples "
              f"(verifier {r['verifier']}, judge local, {s['seconds']:.1f} s)")
        print(f"{'measure':62} {'local judge':>11} {'cosine':>7} {'length':>7} {'target':>7}")
        print(f"{'faithfulness, mean of the faithful answers':62} {s['faithful_mean']:>11.3f} "
              f"{s['baseline_cosine_faithful_mean']:>7.3f} {'':>7} {'>=0.85':>7}")
        print(f"{'faithfulness, mean of the unfaithful variants':62} "
              f"{s['unfaithful_mean']:>11.3f} {s['baseline_cosine_unfaithful_mean']:>7.3f} "
              f"{'':>7} {'<=0.25':>7}")
        print(f"{'pairwise: faithful answer above its variant (ties half)':62} "
              f"{s['pairwise']:>11.3f} {s['baseline_cosine_pairwise']:>7.3f} "
              f"{s['baseline_length_pairwise']:>7.3f} {'>=0.95':>7}")
        print(f"{'context recall of the ground truths (all stated)':62} "
              f"{s['context_recall_mean']:>11.3f} {s['baseline_cosine_truth_mean']:>7.3f} "
              f"{'':>7} {'>=0.8':>7}")
        print("faithfulness by variant kind: " + "; ".join(
            f"{k} {v:.3f}" for k, v in s["by_kind"].items()))
        lo, hi = s["band"]
        print(f"cascade band ({lo:g}, {hi:g}): {s['claims_in_band']:.1%} of {s['claims']} claim "
              f"verdicts escalated; {s['samples_without_llm_call']:.1%} of samples need no LLM "
              "call for faithfulness")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--verifier", default="alignment",
                        help="'alignment' (semantic, default), 'lexical', or 'nli:NAME_OR_PATH'")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    out = rag_dev(args.data, args.verifier)
    print_rag_dev(out)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
