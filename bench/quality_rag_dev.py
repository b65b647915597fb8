"""The local judge on RAG-shaped data: faithfulness and context recall of paraphrasing answers.

    .venv/bin/python bench/quality.py --only ragdev          # through quality.py
    .venv/bin/python bench/quality_rag_dev.py [--verifier lexical]

Data: ``bench/data/rag_dev.jsonl``, written for this project (how, split by split: bench/HISTORY.md). Each row
is one question with 2-4 contexts (retriever-like chunks; some on the topic without the
answer, some answers spread over two chunks), a ground truth that states what the contexts
say in other words, a faithful answer (LLM-style: reworded, merged, reordered, summarised)
and 3 unfaithful variants of it labelled by kind (``KINDS`` below). Every answer carries the
faithfulness a careful reader gives it, supported claims / all claims against the contexts:
``answer_expected`` on the faithful answer (1.0 but for one row), ``expected`` on each
variant (0.0 when every claim is wrong, 0.5 for one wrong claim of two, ...). Rows have
``split``: ``dev`` (seen while the verifier was built), ``heldout`` (h01-h30, written
after the head's weights were set; read once since, see ``TITLES``), ``fresh`` (h31-h50,
written blind after the last verifier change), ``fresh2`` (h51-h70, written blind on
2026-11-24 after the methods were fixed, no scorer run on them when written), ``fresh3``
(h71-h90, written blind on 2026-11-24 by a helper who neither ran a scorer nor read the
scorers' code), ``fresh4`` (h91-h110, written blind on 2026-11-24 in the fifth session,
likewise by a helper who ran no scorer), ``fresh5`` (h111-h130, written blind on 2026-11-24
in the sixth session, likewise) or ``fresh6`` (h131-h150, written blind on 2026-11-24 in the
seventh session by a helper who ran no scorer and did not read the scorers' code, on twenty
domains none of h01-h130 uses) or ``fresh7`` (h151-h170, written blind on 2026-11-27, ninth
session, likewise, on twenty more domains); each is reported apart, and the blind parts
(``bench/blind.py``: today ``fresh7``) are printed under their own heading: a change to the
verifier is accepted on them, and once used to choose they become development data.
``python bench/quality_rag_dev.py --check`` validates the file and prints its counts.

Printed, per split, through ``ragmeter.evaluate`` with ``judge="local"`` (what users run):

* mean faithfulness of the faithful answers and of the unfaithful variants (absolute
  means), the share of (faithful, variant) pairs where the faithful answer scores higher
  (ties half), and the mean of each variant kind, each beside the careful reader's mean of
  the same samples (``answer_expected`` / ``expected``): a variant keeps the correct parts
  of its answer, so the careful reader's unfaithful mean is above 0, and the local judge's
  distance from it (mean absolute difference per sample) is printed too;
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
sys.path.insert(0, str(HERE))
DATA = HERE / "data" / "rag_dev.jsonl"


KINDS = ("wrong_number", "wrong_date", "wrong_entity", "swapped_roles", "negation", "antonym",
         "unsupported_addition", "partial",
         # from fresh8 on: a person or body named in the context in another role, a comparison
         # turned round, "there was no X" where there was, a claim made broader than its source
         "wrong_role", "reversed_comparison", "denial_false", "overgeneralisation")
SPLITS = ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7",
          "fresh8")
TITLES = {
    "dev": "development part (seen while building the verifier)",
    "heldout": ("held-out part (h01-h30, written after the head's weights were set; its misses "
                "were read once, on 2026-11-24, and led to the contradicted-value check)"),
    "fresh": ("fresh part (h31-h50, written blind after every change of 2026-11-24; "
              "nobody changing the code has read its scores)"),
    "fresh2": ("second fresh part (h51-h70, written blind on 2026-11-24 after the methods "
               "were fixed; no scorer had been run on it when it was written)"),
    "fresh3": ("third fresh part (h71-h90, written blind on 2026-11-24 by a helper who ran no "
               "scorer and did not read the scorers' code; no scorer had been run on it when "
               "it was written)"),
    "fresh4": ("fourth fresh part (h91-h110, written blind on 2026-11-24, fifth session, by a "
               "helper who ran no scorer and did not read the scorers' code; no scorer had been "
               "run on it when it was written)"),
    "fresh5": ("fifth fresh part (h111-h130, written blind on 2026-11-24, sixth session, by a "
               "helper who ran no scorer and did not read the scorers' code; no scorer had been "
               "run on it when it was written)"),
    "fresh6": ("sixth fresh part (h131-h150, written blind on 2026-11-24, seventh session, by a "
               "helper who ran no scorer and did not read the scorers' code; no scorer had been "
               "run on it when it was written)"),
    "fresh7": ("seventh fresh part (h151-h170, written blind on 2026-11-27, ninth session, by a "
               "helper who ran no scorer and did not read the scorers' code; retired on "
               "2026-11-27: the rule families deleted then were chosen on it)"),
    "fresh8": ("eighth fresh part (h171-h190, written blind on 2026-11-27, eleventh session, by a "
               "helper who ran no scorer and did not read the scorers' code; BLIND: see bench/blind.py)"),
}


class RagDevDataError(ValueError):
    """The RAG dev set has rows the benchmark cannot score; the message lists every problem
    as ``file line N (id X): field: what is wrong``, so one run shows them all."""


def _is_fraction(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0.0 <= x <= 1.0


def _is_text(x: object) -> bool:
    return isinstance(x, str) and bool(x.strip())


def row_problems(row: object) -> list[str]:
    """What is wrong with one row, as ``field: problem`` strings (empty when the row is good).

    A row needs: ``id``; ``split`` in SPLITS; ``question``, ``ground_truth``, ``answer`` as
    non-empty text; ``contexts``: 2-4 non-empty texts; ``answer_expected`` in [0, 1];
    ``variants``: exactly 3, each with ``kind`` in KINDS, non-empty ``answer`` and
    ``expected`` in [0, 1]."""
    if not isinstance(row, dict):
        return [f"row: expected a JSON object, got {type(row).__name__}"]
    out = []
    if not _is_text(row.get("id")):
        out.append("id: missing or empty")
    if row.get("split") not in SPLITS:
        out.append(f"split: {row.get('split')!r} is not one of {', '.join(SPLITS)}")
    for field in ("question", "ground_truth", "answer"):
        if not _is_text(row.get(field)):
            out.append(f"{field}: missing or empty")
    contexts = row.get("contexts")
    if not isinstance(contexts, list) or not 2 <= len(contexts) <= 4:
        n = len(contexts) if isinstance(contexts, list) else "no list"
        out.append(f"contexts: need 2-4 chunks, got {n}")
    else:
        out += [f"contexts[{i}]: missing or empty" for i, c in enumerate(contexts)
                if not _is_text(c)]
    if not _is_fraction(row.get("answer_expected")):
        out.append(f"answer_expected: {row.get('answer_expected')!r} is not a number in [0, 1]")
    variants = row.get("variants")
    if not isinstance(variants, list) or len(variants) != 3:
        n = len(variants) if isinstance(variants, list) else "no list"
        out.append(f"variants: need 3, got {n}")
        variants = variants if isinstance(variants, list) else []
    for i, v in enumerate(variants):
        if not isinstance(v, dict):
            out.append(f"variants[{i}]: expected an object")
            continue
        if v.get("kind") not in KINDS:
            out.append(f"variants[{i}].kind: {v.get('kind')!r} is not one of {', '.join(KINDS)}")
        if not _is_text(v.get("answer")):
            out.append(f"variants[{i}].answer: missing or empty")
        if not _is_fraction(v.get("expected")):
            out.append(f"variants[{i}].expected: {v.get('expected')!r} is not a number in [0, 1]")
    return out


def load(path: Path = DATA) -> list[dict]:
    """The rows of ``path``, validated; raises RagDevDataError naming every bad line, row id
    and field (a benchmark figure over a silently shortened set would not be comparable)."""
    rows, problems, seen = [], [], {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"{path.name} line {n}: not valid JSON ({e.msg})")
            continue
        rid = row.get("id") if isinstance(row, dict) else None
        where = f"{path.name} line {n} (id {rid})"
        problems += [f"{where}: {p}" for p in row_problems(row)]
        if isinstance(rid, str) and rid in seen:
            problems.append(f"{where}: id: duplicate of line {seen[rid]}")
        elif isinstance(rid, str):
            seen[rid] = n
        rows.append(row)
    if problems:
        raise RagDevDataError(f"{len(problems)} problem(s) in {path}:\n  " + "\n  ".join(problems))
    return rows


def counts(rows: list[dict]) -> dict:
    """Questions per split and variants per kind, for the README and ``--check``."""
    return {"questions": {s: sum(r["split"] == s for r in rows) for s in SPLITS},
            "variants": {k: sum(v["kind"] == k for r in rows for v in r["variants"])
                         for k in KINDS}}


def pairwise(pairs: Sequence[tuple[float, float]]) -> float:
    """Share of (better, worse) pairs ordered right; ties count half."""
    return float(np.mean([1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs]))


def _samples(rows: list[dict]) -> tuple[list[dict], list[tuple[str, str]], list[float]]:
    """One sample per answer, its (row id, kind) and the careful reader's faithfulness."""
    samples, meta, careful = [], [], []
    for r in rows:
        base = {"question": r["question"], "contexts": r["contexts"],
                "ground_truth": r["ground_truth"]}
        samples.append({**base, "answer": r["answer"]})
        meta.append((r["id"], "faithful"))
        careful.append(float(r["answer_expected"]))
        for v in r["variants"]:
            samples.append({**base, "answer": v["answer"]})
            meta.append((r["id"], v["kind"]))
            careful.append(float(v["expected"]))
    return samples, meta, careful


def split_report(rows: list[dict], verifier: str, band: tuple[float, float]) -> dict:
    from ragmeter import evaluate
    from ragmeter.judges.local import LocalJudge
    from ragmeter.judges.local.verifier import default_encoder

    samples, meta, careful = _samples(rows)
    careful_arr = np.array(careful)
    judge = LocalJudge(verifier=verifier)
    is_faithful = np.array([k == "faithful" for _, k in meta])
    t0 = time.perf_counter()
    result = evaluate(samples, ["faithfulness"], judge=judge, cache=False, journal=False,
                      show_progress=False)
    # context recall reads the ground truth and the contexts, which a row's four answers share:
    # it is scored once per row, on the faithful answer's sample (a quarter of the work)
    recalled = evaluate([s for s, f in zip(samples, is_faithful) if f], ["context_recall"], judge=judge,
                        cache=False, journal=False, show_progress=False)
    elapsed = time.perf_counter() - t0
    faith = [s.scores["faithfulness"].value for s in result.samples]
    recall = [s.scores["context_recall"].value for s in recalled.samples]
    faith0 = [0.0 if f is None else f for f in faith]  # NoClaims counts as unsupported here

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
    from ragmeter.judges.local.claims import extract_claims

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
        "kind_counts": {k: sum(kk == k for _, kk in meta) for k in kinds},
        "careful_faithful_mean": float(careful_arr[is_faithful].mean()),
        "careful_unfaithful_mean": float(careful_arr[~is_faithful].mean()),
        "careful_pairwise": pairwise(pairs_of(careful)),
        "careful_by_kind": {k: float(np.mean([c for c, (_, kk) in zip(careful, meta) if kk == k]))
                            for k in kinds},
        # how far the local judge is from the careful reader, sample by sample
        "abs_diff_faithful": float(np.abs(np.array(faith0) - careful_arr)[is_faithful].mean()),
        "abs_diff_unfaithful": float(np.abs(np.array(faith0) - careful_arr)[~is_faithful].mean()),
        "context_recall_mean": float(np.mean([r for r in recall if r is not None])),
        "context_recall_errors": int(sum(r is None for r in recall)),
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


def rag_dev(path: Path = DATA, verifier: str = "alignment",
            splits: Sequence[str] = SPLITS) -> dict:
    """The report of each split in ``splits`` (all by default). Scoring only the splits
    already read keeps a blind split blind while the verifier is being changed."""
    from ragmeter.judges.cascade import DEFAULT_BAND

    rows = load(path)
    out: dict = {"data": str(path), "verifier": verifier}
    for split in splits:
        mine = [r for r in rows if r.get("split") == split]
        if mine:
            out[split] = split_report(mine, verifier, DEFAULT_BAND)
    return out


def print_rag_dev(r: dict) -> None:
    from blind import is_blind

    development = [s for s in SPLITS if not is_blind("rag_dev.jsonl", s)]
    blind = [s for s in SPLITS if is_blind("rag_dev.jsonl", s)]
    for heading, splits in (("DEVELOPMENT (tuned on, or read while tuning)", development),
                            ("BLIND (written by someone who has not read the scorers; scored, never used to choose)", blind)):
        if any(r.get(split) for split in splits):
            print(f"\n=== {heading} ===")
        for split in splits:
            _print_split(r, split)


def _print_split(r: dict, split: str) -> None:
    s = r.get(split)
    if not s:
        return
    title = TITLES[split]
    print(f"\nRAG dev set, {title}: {s['items']} questions, {s['samples']} samples "
          f"(verifier {r['verifier']}, judge local, {s['seconds']:.1f} s)")
    print(f"{'measure':62} {'local judge':>11} {'careful reader':>14} {'cosine':>7} "
          f"{'length':>7} {'target':>7}")
    print(f"{'faithfulness, mean of the faithful answers':62} {s['faithful_mean']:>11.3f} "
          f"{s['careful_faithful_mean']:>14.3f} {s['baseline_cosine_faithful_mean']:>7.3f} "
          f"{'':>7} {'>=0.85':>7}")
    print(f"{'faithfulness, mean of the unfaithful variants':62} "
          f"{s['unfaithful_mean']:>11.3f} {s['careful_unfaithful_mean']:>14.3f} "
          f"{s['baseline_cosine_unfaithful_mean']:>7.3f} {'':>7} {'<=0.25':>7}")
    print(f"{'pairwise: faithful answer above its variant (ties half)':62} "
          f"{s['pairwise']:>11.3f} {s['careful_pairwise']:>14.3f} "
          f"{s['baseline_cosine_pairwise']:>7.3f} {s['baseline_length_pairwise']:>7.3f} "
          f"{'>=0.95':>7}")
    print(f"{'context recall of the ground truths (all stated)':62} "
          f"{s['context_recall_mean']:>11.3f} {1.0:>14.3f} "
          f"{s['baseline_cosine_truth_mean']:>7.3f} {'':>7} {'>=0.8':>7}")
    print(f"local judge vs careful reader, mean |difference| per sample: faithful answers "
          f"{s['abs_diff_faithful']:.3f}, unfaithful variants {s['abs_diff_unfaithful']:.3f}")
    print("faithfulness by variant kind (local judge / careful reader, n): " + "; ".join(
        f"{k} {v:.3f} / {s['careful_by_kind'][k]:.3f} ({s['kind_counts'][k]})"
        for k, v in s["by_kind"].items()))
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
    parser.add_argument("--check", action="store_true",
                        help="only validate the data file and print its counts (no models)")
    parser.add_argument("--splits", default=",".join(SPLITS),
                        help="comma-separated splits to score (default: all), e.g. dev,heldout")
    args = parser.parse_args(argv)
    splits = [s.strip() for s in args.splits.split(",") if s.strip()]
    unknown = sorted(set(splits) - set(SPLITS))
    if unknown:
        parser.error(f"unknown splits {unknown}; known: {', '.join(SPLITS)}")
    if args.check:
        try:
            rows = load(args.data)
        except RagDevDataError as e:
            print(e, file=sys.stderr)
            return 1
        c = counts(rows)
        print(f"{args.data}: {len(rows)} rows valid; questions " + ", ".join(
            f"{k} {v}" for k, v in c["questions"].items()) + "; variants " + ", ".join(
            f"{k} {v}" for k, v in c["variants"].items()))
        return 0
    out = rag_dev(args.data, args.verifier, splits)
    print_rag_dev(out)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
