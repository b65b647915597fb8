"""What each rule family of the local judge adds: every family switched off alone, against all on.

    .venv/bin/python bench/ablation.py                      # development figures, every family
    .venv/bin/python bench/ablation.py --families roles,negation
    .venv/bin/python bench/ablation.py --blind              # adds the blind parts (the lead runs it once)

Why: eight rounds of hand rules made the local judge (``ragmeter.judges.local.families`` lists
them); a family that moves no figure when it is switched off is a candidate for deletion, and
one that moves a figure the wrong way is a finding. The switch is
``families.families_off``, which clears every cache on a change, so each run starts cold and
its wall time is comparable with the all-on run's.

Figures (development data only unless ``--blind``; the blind parts are those of
``bench/blind.py``):

* ``support AUROC``: the default claim verifier's support probability against the labels of
  the development rows of ``bench/data/support_pairs.jsonl`` (every row whose ``set`` is not
  blind);
* ``RAG faithful`` / ``RAG unfaithful`` / ``RAG pairwise``: faithfulness through
  ``ragmeter.evaluate`` with the local judge on the development splits of
  ``bench/data/rag_dev.jsonl`` (an answer with no claims counts 0, as in
  ``quality_rag_dev``): mean of the faithful answers, mean of the unfaithful variants, share
  of (faithful, variant) pairs ordered right (ties half);
* ``ctxrel pairwise``: local chunk relevance, relevant chunk above its negative, on the
  development sets of ``bench/data/context_relevance_pairs.jsonl``;
* ``answer pairwise``: local answer relevancy (``question_coverage``), complete answer
  above the poorer one, on the development halves of ``bench/data/answer_relevancy_triples.jsonl``;
* ``HaluEval LM AUROC``: the verifier on the length-matched pairs of the first
  ``--halueval`` (default 400) questions of ``halueval_qa_dev.jsonl`` (each answer's spaCy
  sentences as claims, min over claims, as ``quality.halueval``); development data.

Subsets, to keep the development table under about 15 minutes on 2 cores: by default
HaluEval reads its first 200 questions (``--halueval``; the brief's 400 cost twice as much
per verifier family) and the RAG figures the first 80 development questions of
``rag_dev.jsonl`` in file order (``--rag-questions``; 0 = all 232: faithfulness through
``evaluate`` is most of a run's time, six minutes all on with all of them); the other files
are read whole (their development part; ``--support-pairs N`` reads the first N support pairs,
whole premises in file order). The blind parts are read whole. On a machine shared with other
jobs the defaults took longer (support pairs alone 81 s cold, all on); the first table was
run with ``--support-pairs 320 --rag-questions 40 --halueval 100``. Each finished family is
logged with its deltas on stderr as it goes. A family
is rerun only on the figures whose judgements it serves (``TOUCHES``, from the lines of
``families.FAMILIES``): the others cannot move and print as ``.``; ``--all-figures`` reruns
everything for every family (slower; a check on ``TOUCHES``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

os.environ.setdefault("HF_HUB_OFFLINE", "1")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

from blind import is_blind  # noqa: E402
from ragmeter.align.benchmark import length_matched, pair_rows  # noqa: E402
from ragmeter.align.statistics import auroc as shared_auroc  # noqa: E402
from ragmeter.align.statistics import pair_accuracy  # noqa: E402

DATA = HERE / "data"
HALUEVAL = Path(os.environ.get("RAGMETER_DATASETS", HERE.parent.parent / "shared" / "datasets")) / "halueval_qa_dev.jsonl"

SUPPORT, RAG, CTXREL, ANSWER, HALU = "support", "rag", "ctxrel", "answer", "halueval"
GROUPS = (SUPPORT, RAG, CTXREL, ANSWER, HALU)

FIGURES: dict[str, tuple[str, str]] = {
    # column -> (group that computes it, what it is)
    "support AUROC": (SUPPORT, "claim support AUROC, support_pairs"),
    "RAG faithful": (RAG, "mean faithfulness of faithful answers, rag_dev"),
    "RAG unfaithful": (RAG, "mean faithfulness of unfaithful variants, rag_dev (lower is better)"),
    "RAG pairwise": (RAG, "faithful answer above its variant, rag_dev"),
    "ctxrel pairwise": (CTXREL, "relevant chunk above negative, context_relevance_pairs"),
    "answer pairwise": (ANSWER, "complete answer above poorer, answer_relevancy_triples"),
    "HaluEval LM AUROC": (HALU, "verifier AUROC on length-matched pairs, HaluEval QA dev"),
}

_VERIFIER = (SUPPORT, RAG, HALU)
TOUCHES: dict[str, tuple[str, ...]] = {
    # family -> the figure groups whose judgements it serves (families.FAMILIES says which)
    "support_head": _VERIFIER, "meaning": _VERIFIER, "antonyms": _VERIFIER, "roles": _VERIFIER,
    "negation": _VERIFIER, "quantities": _VERIFIER, "comparisons": _VERIFIER,
    # claims of answers (faithfulness) and answer clauses (question coverage)
    "claim_pronouns": (RAG, ANSWER), "hedges": (RAG, ANSWER), "noncommittal": (RAG, ANSWER),
    "question_parts": (ANSWER,),
    "question_focus": (CTXREL,), "chunk_cosine": (CTXREL,), "lexical_overlap": (CTXREL,),
}


def auroc(scores: Sequence[float], labels: Sequence[int]) -> float:
    value = shared_auroc(scores, labels)
    return float("nan") if value is None else value


def pairwise(pairs: Sequence[tuple[float, float]]) -> float:
    value = pair_accuracy(pairs)
    return float("nan") if value is None else value


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# --- the data, development or blind ------------------------------------------------------

class Data:
    """The rows each figure reads: the development parts, or (``blind=True``) only the blind
    ones. Loaded once; a blind part is never read unless asked for."""

    def __init__(self, blind: bool, halueval_questions: int, rag_questions: int = 0,
                 support_pairs: int = 0) -> None:
        from quality_rag_dev import load as load_rag

        self.blind = blind

        def mine(name: str, part: str | None) -> bool:
            return is_blind(name, part) == blind

        self.support = [r for r in _jsonl(DATA / "support_pairs.jsonl") if mine("support_pairs.jsonl", r.get("set"))]
        if support_pairs > 0:  # file order: whole premises, fewer of them
            self.support = self.support[:support_pairs]
        self.rag = [r for r in load_rag(DATA / "rag_dev.jsonl") if mine("rag_dev.jsonl", r["split"])]
        if rag_questions > 0:
            self.rag = self.rag[:rag_questions]
        self.ctxrel = [r for r in _jsonl(DATA / "context_relevance_pairs.jsonl")
                       if mine("context_relevance_pairs.jsonl", r.get("set"))]
        self.answer = [r for r in _jsonl(DATA / "answer_relevancy_triples.jsonl")
                       if mine("answer_relevancy_triples.jsonl", r["half"])]
        self.halueval: list[tuple[dict, dict]] = []
        if not blind and halueval_questions > 0:  # HaluEval has no blind part
            with HALUEVAL.open(encoding="utf-8") as f:
                self.halueval = pair_rows(json.loads(line) for line in f if line.strip())[:halueval_questions]

    def sizes(self) -> str:
        return (f"support {len(self.support)} pairs; rag {len(self.rag)} questions "
                f"({len(self.rag) * 4} answers, splits {', '.join(dict.fromkeys(r['split'] for r in self.rag))}); "
                f"ctxrel {len(self.ctxrel)} pairs; answer {len(self.answer)} triples"
                + (f"; HaluEval {len(self.halueval)} questions" if self.halueval else ""))


# --- the figures -------------------------------------------------------------------------

def support_figures(data: Data, judge) -> dict[str, float]:  # noqa: ANN001
    if not data.support:
        return {}
    probs = judge.model("verifier").support([(r["premise"], r["claim"]) for r in data.support])
    return {"support AUROC": auroc(probs, [int(bool(r["label"])) for r in data.support])}


def rag_figures(data: Data, judge) -> dict[str, float]:  # noqa: ANN001
    from quality_rag_dev import pairwise as rag_pairwise

    from ragmeter import evaluate

    if not data.rag:
        return {}
    samples, faithful, owner = [], [], []
    for n, r in enumerate(data.rag):
        base = {"question": r["question"], "contexts": r["contexts"], "ground_truth": r["ground_truth"]}
        for answer, is_faithful in [(r["answer"], True), *((v["answer"], False) for v in r["variants"])]:
            samples.append({**base, "answer": answer})
            faithful.append(is_faithful)
            owner.append(n)
    result = evaluate(samples, ["faithfulness"], judge=judge, cache=False, journal=False, show_progress=False)
    scores = [0.0 if s is None else s for s in result.scores("faithfulness")]
    best = {o: s for o, s, f in zip(owner, scores, faithful) if f}
    is_faithful = np.array(faithful)
    return {
        "RAG faithful": float(np.mean(np.array(scores)[is_faithful])),
        "RAG unfaithful": float(np.mean(np.array(scores)[~is_faithful])),
        "RAG pairwise": rag_pairwise([(best[o], s) for o, s, f in zip(owner, scores, faithful) if not f]),
    }


def ctxrel_figures(data: Data, judge) -> dict[str, float]:  # noqa: ANN001
    if not data.ctxrel:
        return {}
    scorer = judge.model("chunk_relevance")
    pairs = [tuple(j.relevance for j in scorer.relevance(r["question"], [r["relevant"], r["negative"]]))
             for r in data.ctxrel]
    return {"ctxrel pairwise": pairwise(pairs)}  # type: ignore[arg-type]


def answer_figures(data: Data, judge) -> dict[str, float]:  # noqa: ANN001
    from ragmeter.judges.local.coverage import question_coverage

    if not data.answer:
        return {}
    questions = [r["question"] for r in data.answer for _ in (0, 1)]
    answers = [a for r in data.answer for a in (r["complete"], r["poorer"])]
    scores = [c.score for c in question_coverage(questions, answers, judge.model("encoder"))]
    return {"answer pairwise": pairwise(list(zip(scores[0::2], scores[1::2])))}


def halueval_figures(data: Data, judge) -> dict[str, float]:  # noqa: ANN001
    from ragmeter.text import nlp

    matched = [(right, wrong) for right, wrong in data.halueval
               if length_matched(right["answer"], wrong["answer"])]
    if not matched:
        return {}
    answers = [a for pair in matched for a in pair]
    analysed = nlp.analyse([a["answer"] for a in answers])
    claims = [[s.text for s in an.sentences] or [a["answer"]] for a, an in zip(answers, analysed)]
    flat = [(a["contexts"][0], c) for a, cs in zip(answers, claims) for c in cs]
    owner = [i for i, cs in enumerate(claims) for _ in cs]
    scores = np.ones(len(answers))
    for i, s in zip(owner, judge.model("verifier").support(flat)):
        scores[i] = min(scores[i], s)
    return {"HaluEval LM AUROC": auroc(list(scores), [int(a["faithful"]) for a in answers])}


COMPUTE: dict[str, Callable[[Data, object], dict[str, float]]] = {
    SUPPORT: support_figures, RAG: rag_figures, CTXREL: ctxrel_figures, ANSWER: answer_figures,
    HALU: halueval_figures,
}


def run(data: Data, groups: Sequence[str], off: Sequence[str] = ()) -> tuple[dict[str, float], float]:
    """The figures of ``groups`` with the families ``off`` switched off, and the wall time."""
    from ragmeter.judges.local import LocalJudge
    from ragmeter.judges.local.families import families_off
    from ragmeter.text import clear_caches

    clear_caches()  # cold, as every switched run is (families_off clears on a change)
    t0 = time.perf_counter()
    figures: dict[str, float] = {}
    with families_off(*off):
        judge = LocalJudge()
        for group in groups:
            t1 = time.perf_counter()
            figures.update(COMPUTE[group](data, judge))
            print(f"  {group}: {time.perf_counter() - t1:.0f} s", file=sys.stderr, flush=True)
    return figures, time.perf_counter() - t0


# --- the table ---------------------------------------------------------------------------

def table(data: Data, families: Sequence[str], all_figures: bool, log: Callable[[str], None]) -> dict:
    """All-on figures, then each family off alone: its figures and their deltas."""
    base, seconds = run(data, GROUPS)
    log(f"all on: {seconds:.0f} s")
    rows = {}
    for family in families:
        groups = GROUPS if all_figures else TOUCHES[family]
        figures, took = run(data, groups, [family])
        rows[family] = {"figures": figures, "seconds": took}
        log(f"{family} off: {took:.0f} s; " + ", ".join(
            f"{k} {v - base[k]:+.3f}" for k, v in figures.items() if k in base))
    return {"base": base, "base_seconds": seconds, "rows": rows}


def print_table(title: str, data: Data, result: dict) -> None:
    base = result["base"]
    columns = [c for c in FIGURES if c in base]
    print(f"\n=== {title} ===")
    print(data.sizes())
    width = 18
    print(f"{'':22}" + "".join(f"{c:>{width}}" for c in columns) + f"{'seconds':>9}")
    print(f"{'all on':22}" + "".join(f"{base[c]:>{width}.3f}" for c in columns)
          + f"{result['base_seconds']:>9.0f}")
    for family, row in result["rows"].items():
        cells = []
        for c in columns:
            if c in row["figures"]:
                delta = row["figures"][c] - base[c]
                cells.append(f"{delta:>+{width}.3f}")
            else:
                cells.append(f"{'.':>{width}}")
        print(f"{family + ' off':22}" + "".join(cells) + f"{row['seconds']:>9.0f}")
    print("delta = figure with the family off minus all on; '.' = not rerun (the family serves none "
          "of its judgements, TOUCHES); 'RAG unfaithful' is better lower. seconds = wall time of the "
          "run, cold caches.")


def main(argv: Sequence[str] | None = None) -> int:
    from ragmeter.judges.local.families import FAMILIES, parse_names

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", default="",
                        help="comma-separated families to switch off one at a time (default: all)")
    parser.add_argument("--blind", action="store_true",
                        help="also the same figures on the blind parts (bench/blind.py), printed apart")
    parser.add_argument("--halueval", type=int, default=200, help="HaluEval questions read (default 200)")
    parser.add_argument("--support-pairs", type=int, default=0,
                        help="development support pairs read, in file order (default 0 = all 860)")
    parser.add_argument("--rag-questions", type=int, default=80,
                        help="development questions of rag_dev.jsonl read, in file order (default 80; 0 = all)")
    parser.add_argument("--all-figures", action="store_true",
                        help="rerun every figure for every family, not only the ones it serves")
    parser.add_argument("--json", type=Path, help="write the tables here too")
    args = parser.parse_args(argv)
    try:
        chosen = parse_names(args.families) if args.families else frozenset(FAMILIES)
    except ValueError as e:
        parser.error(str(e))
    families = [f for f in FAMILIES if f in chosen]  # in FAMILIES order

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    out = {}
    development = Data(blind=False, halueval_questions=args.halueval, rag_questions=args.rag_questions,
                       support_pairs=args.support_pairs)
    out["development"] = table(development, families, args.all_figures, log)
    print_table("DEVELOPMENT (tuned on, or read while tuning)", development, out["development"])
    if args.blind:
        blind = Data(blind=True, halueval_questions=0)
        out["blind"] = table(blind, families, args.all_figures, log)
        print_table("BLIND (written by someone who has not read the scorers; scored, never used to choose)",
                    blind, out["blind"])
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
