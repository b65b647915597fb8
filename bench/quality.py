"""Quality of the local (no-key) judge models against labelled development data.

    .venv/bin/python bench/quality.py                      # both sets, all rows (~3 min)
    .venv/bin/python bench/quality.py --limit 1500         # the first 1,500 HaluEval questions
    .venv/bin/python bench/quality.py --verifier nli:/path/to/nli-model
    .venv/bin/python bench/quality.py --only msmarco --json quality.json
    .venv/bin/python bench/quality.py --only relevance     # context_relevance: MS MARCO + own pairs
    .venv/bin/python bench/quality.py --only answer        # answer relevancy: own 60 triples
    .venv/bin/python bench/quality.py --only halueval --matched-only   # length-matched pairs only
    .venv/bin/python bench/quality.py --only ragdev                    # bench/quality_rag_dev.py

Reports, it does not assert:

* **HaluEval QA (faithfulness).** Each answer is split into sentences with spaCy; each
  sentence is a claim scored by the verifier against the question's passage; the answer's
  score is the **minimum** over its claims (one unsupported claim makes an answer
  unfaithful, as in the faithfulness metric's verdict). AUROC of that score against the
  ``faithful`` label, over all answers and over the *length-matched* pairs (the two answers
  of a question differ in length by less than 30% of the longer one), next to two
  baselines: answer length alone (shorter = faithful; right answers are short on this set)
  and the share of the answer's spaCy entities (any label) found in the passage, case
  folded (1 when the answer names none). Also both halves of the questions separately: the
  verifier's weights are hand-set, and the two halves show how much the figure moves.
* **MS MARCO context relevance.** For each query, is the relevant passage scored above its
  hard negative (ties count half)? ``ChunkRelevanceScorer`` (the local judge's
  ``context_relevance``) and ``RelevanceScorer`` (its ``context_relevancy`` and precision
  signals), each with and without the MiniLM cosine, beside three baselines: raw MiniLM cosine, passage length (longer = relevant)
  and BM25-like term overlap (``RelevanceScorer.focus`` alone); mean relevance of the
  relevant and of the negative passages beside the pairwise figure.
* **RAG development set** (``bench/quality_rag_dev.py``): faithfulness and context recall
  of paraphrasing answers written for this project, dev and held-out parts apart, each
  beside the careful reader's faithfulness of the same answers (labelled per answer).
* **Own context-relevance pairs** (``bench/data/context_relevance_pairs.jsonl``: a passage
  that answers the question against one on the same topic, sharing its terms, that does
  not): the same figures, for three sets reported apart: the first 34 pairs (written after
  ``ChunkRelevanceScorer``'s first weights were set), 66 pairs over seven domains
  (``"set": "ctxrel-2"``, written before the second round of changes) and 36 held-out pairs
  on other topics (``"set": "ctxrel-3"``, written before the third round, scored after it).
* **Answer relevancy triples** (``bench/data/answer_relevancy_triples.jsonl``: question,
  complete answer, poorer answer that is incomplete, evasive, off-point or padded-but-
  incomplete, often longer): how often local question coverage scores the complete answer
  higher, per half (the first looked at while the mechanism was set, the second written
  after), beside the plain cosine and the length baseline.
* Wall time and throughput of each: spaCy on the premises (most of the verifier's cost,
  paid once per context), the alignment itself, and samples/s in the shape the judge calls
  it (one call per sample: three passages joined, four claims, cold cache); peak memory
  (max RSS) of the process. Timings move with the machine's other load.

Datasets are read from ``../shared/datasets`` beside the repository (or ``--datasets``);
when they are missing the script says so and exits 0. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

# one definition of the statistics, the length match and the pairing for this benchmark and
# for `ragmeter align --benchmark halueval`, so the two print the same figures
from ragmeter.align.benchmark import LENGTH_MATCH, benchmark_path, length_matched, pair_rows  # noqa: E402
from ragmeter.align.statistics import auroc as shared_auroc  # noqa: E402
from ragmeter.align.statistics import pair_accuracy  # noqa: E402

HALUEVAL = "halueval_qa_dev.jsonl"
MSMARCO = "msmarco_ctxrel_dev.jsonl"


def auroc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """AUROC (ties half), as ``ragmeter align`` computes it; NaN with one class only."""
    value = shared_auroc(scores, labels)
    return float("nan") if value is None else value


def pairwise_accuracy(pairs: Sequence[tuple[float, float]]) -> float:
    """Share of (should-be-higher, should-be-lower) score pairs ordered right; ties count half."""
    value = pair_accuracy(pairs)
    return float("nan") if value is None else value


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- HaluEval ----------------------------------------------------------------------------


@dataclass
class Answer:
    question_id: str
    context: str
    answer: str
    faithful: int


def load_halueval(path: Path, limit: int) -> list[tuple[Answer, Answer]]:
    """(right, hallucinated) answer pairs of the first ``limit`` questions, in file order."""
    with path.open(encoding="utf-8") as f:
        pairs = pair_rows(json.loads(line) for line in f if line.strip())
    answer = lambda row: Answer(row["id"].rsplit("-", 1)[0], row["contexts"][0], row["answer"],  # noqa: E731
                                int(row["faithful"]))
    return [(answer(right), answer(wrong)) for right, wrong in pairs[:limit]]


def halueval_metric(path: Path, limit: int) -> dict:
    """The faithfulness *metric* through ``ragmeter.evaluate`` with the local judge (what a
    user of ``ragmeter align --benchmark halueval --judge local`` sees): AUROC and pair
    accuracy, overall and on the length-matched pairs. An answer the metric cannot score
    (no claims) is left out with its pair."""
    from ragmeter import evaluate

    with path.open(encoding="utf-8") as f:
        pairs = pair_rows(json.loads(line) for line in f if line.strip())[:limit]
    rows = [row for pair in pairs for row in pair]
    t0 = time.perf_counter()
    result = evaluate([{k: r[k] for k in ("id", "question", "contexts", "answer")} for r in rows],
                      ["faithfulness"], judge="local", cache=False, journal=False, show_progress=False)
    seconds = time.perf_counter() - t0
    score = {r["id"]: v for r, v in zip(rows, result.scores("faithfulness"))}
    kept = [(right, wrong) for right, wrong in pairs
            if score[right["id"]] is not None and score[wrong["id"]] is not None]
    matched = [(right, wrong) for right, wrong in kept if length_matched(right["answer"], wrong["answer"])]
    scored = [r for r in rows if score[r["id"]] is not None]
    in_matched = {r["id"] for right, wrong in pairs if length_matched(right["answer"], wrong["answer"])
                  for r in (right, wrong)}
    lm = [r for r in scored if r["id"] in in_matched]
    return {
        "questions": len(pairs),
        "answers": len(rows),
        "scored": len(scored),
        "auroc": auroc([score[r["id"]] for r in scored], [r["faithful"] for r in scored]),
        "auroc_length_matched": auroc([score[r["id"]] for r in lm], [r["faithful"] for r in lm]),
        "pair_accuracy": pairwise_accuracy([(score[a["id"]], score[b["id"]]) for a, b in kept]),
        "pair_accuracy_length_matched": pairwise_accuracy([(score[a["id"]], score[b["id"]]) for a, b in matched]),
        "seconds": seconds,
    }


def halueval(path: Path, limit: int, verifier_spec: str, embeddings: bool,
             matched_only: bool = False) -> dict:
    from ragmeter.text import nlp
    from ragmeter.judges.local.verifier import AlignmentVerifier, get_verifier

    pairs = load_halueval(path, limit)
    if matched_only:  # the pairs where the length cue is gone, from all ``limit`` questions
        pairs = [p for p in pairs if length_matched(p[0].answer, p[1].answer)]
    answers = [a for pair in pairs for a in pair]
    # keep every analysis of this run cached, so the premises analysed (and timed) first are
    # not analysed again inside support()
    nlp.CACHE_SIZE = max(nlp.CACHE_SIZE, 4 * len(answers))
    labels = np.array([a.faithful for a in answers])
    matched = np.array([length_matched(p[0].answer, p[1].answer) for p in pairs for _ in p])
    first_half = np.arange(len(answers)) < 2 * (len(pairs) // 2)

    t0 = time.perf_counter()
    nlp.load_nlp()
    verifier = (AlignmentVerifier(embeddings=True) if embeddings and verifier_spec == "alignment"
                else get_verifier(verifier_spec))
    verifier.support([("Warm up.", "Warm up.")])  # loads whatever model the verifier uses
    cold = time.perf_counter() - t0

    # Claims: the answer's spaCy sentences (an answer spaCy finds no sentence in is one claim).
    t0 = time.perf_counter()
    analysed = nlp.analyse([a.answer for a in answers])
    claims = [[s.text for s in an.sentences] or [a.answer] for a, an in zip(answers, analysed)]
    split_time = time.perf_counter() - t0
    flat = [(a.context, c) for a, cs in zip(answers, claims) for c in cs]
    owner = [i for i, cs in enumerate(claims) for _ in cs]
    premises = list(dict.fromkeys(a.context for a in answers))
    premise_time = 0.0
    if isinstance(verifier, AlignmentVerifier):
        # Timed apart: spaCy on the premises is most of the cost, paid once per context
        # however many claims and metrics use it.
        t0 = time.perf_counter()
        nlp.analyse(premises, entities=False)
        premise_time = time.perf_counter() - t0
    t0 = time.perf_counter()
    support = verifier.support(flat)
    verify_time = time.perf_counter() - t0
    scores = np.ones(len(answers))
    for i, s in zip(owner, support):
        scores[i] = min(scores[i], s)

    per_sample = _sample_throughput(verifier, pairs) if isinstance(
        verifier, AlignmentVerifier) else None

    lengths = np.array([len(a.answer) for a in answers], dtype=float)
    ent_share = np.array([_entity_share(an, a.context) for a, an in zip(answers, analysed)])

    def row(name: str, s: np.ndarray) -> dict:
        return {
            "score": name,
            "auroc": auroc(s, labels),
            "auroc_length_matched": auroc(s[matched], labels[matched]),
            "auroc_first_half_lm": auroc(s[first_half & matched], labels[first_half & matched]),
            "auroc_second_half_lm": auroc(s[~first_half & matched],
                                          labels[~first_half & matched]),
        }

    return {
        "questions": len(pairs),
        "answers": len(answers),
        "claims": len(flat),
        "length_matched_pairs": int(matched.sum() // 2),
        "verifier": (getattr(verifier, "name", verifier_spec)
                     + ("+embeddings" if embeddings else "")),
        "rows": [
            row(f"verifier ({getattr(verifier, 'name', verifier_spec)}, min over claims)", scores),
            row("baseline: answer length (shorter = faithful)", -lengths),
            row("baseline: share of answer's spaCy entities in passage", ent_share),
        ],
        "cold_start_s": cold,
        "split_s": split_time,
        "premise_analysis_s": premise_time,
        "premises_per_s": len(premises) / premise_time if premise_time else float("nan"),
        "premise_chars_per_s": (sum(map(len, premises)) / premise_time if premise_time
                                else float("nan")),
        "verify_s": verify_time,
        "pairs_per_s": len(flat) / verify_time if verify_time else float("nan"),
        "pairs_per_s_with_premise_analysis": len(flat) / (verify_time + premise_time),
        "accuracy_at_0_5": float(np.mean((scores >= 0.5) == labels)),
        "accuracy_at_0_5_length_matched": float(np.mean((scores[matched] >= 0.5)
                                                        == labels[matched])),
        "calibration": _calibration(scores, labels),
        "answers_per_s": len(answers) / (verify_time + premise_time + split_time),
        "unique_premises": len(premises),
        "per_sample": per_sample,
    }


def _sample_throughput(verifier, pairs: list[tuple[Answer, Answer]],
                       samples: int = 200) -> dict:
    """Samples/s in the judge's shape: one ``support`` call per sample, whose premise is three
    passages joined by line breaks and whose claims are four hallucinated answers, starting
    from empty caches (as a run's first pass over its data does)."""
    from ragmeter.text import clear_caches

    contexts = list(dict.fromkeys(p[0].context for p in pairs))
    claims = [p[1].answer for p in pairs]
    n = min(samples, len(contexts) // 3, len(claims) // 4)
    if n == 0:
        return {}
    batch = [("\n".join(contexts[3 * i:3 * i + 3]), claims[4 * i:4 * i + 4]) for i in range(n)]
    clear_caches()
    t0 = time.perf_counter()
    for premise, cs in batch:
        verifier.support([(premise, c) for c in cs])
    elapsed = time.perf_counter() - t0
    return {"samples": n, "context_chars": sum(len(p) for p, _ in batch) / n,
            "claims": 4, "samples_per_s": n / elapsed, "pairs_per_s": 4 * n / elapsed}


def _calibration(scores: np.ndarray, labels: np.ndarray) -> list[dict]:
    """Answers per score band, their mean score and their share of faithful answers."""
    edges = [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0001]
    out = []
    for lo, hi in zip(edges, edges[1:]):
        band = (scores >= lo) & (scores < hi)
        if band.any():
            out.append({"band": f"[{lo:.1f}, {min(hi, 1.0):.1f}{']' if hi > 1 else ')'}",
                        "answers": int(band.sum()), "mean_score": float(scores[band].mean()),
                        "faithful_share": float(labels[band].mean())})
    return out


def _entity_share(analysis, passage: str) -> float:
    """Share of the answer's spaCy entities (any label) whose text occurs in the passage."""
    ents = analysis.entities
    if not ents:
        return 1.0
    folded = passage.casefold()
    return float(np.mean([e.text.casefold() in folded for e in ents]))


# --- MS MARCO ----------------------------------------------------------------------------


def load_msmarco(path: Path) -> list[tuple[str, str, str]]:
    """(query, relevant passage, hard negative) triples."""
    by_query: dict[str, dict[int, str]] = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            by_query.setdefault(row["question"], {})[int(row["relevant"])] = row["context"]
    return [(q, v[1], v[0]) for q, v in by_query.items() if 0 in v and 1 in v]


def cosine_pairs(triples: Sequence[tuple[str, str, str]]) -> list[tuple[float, float]]:
    """The baseline every relevance figure stands beside: MiniLM cosine of (question, first
    text) and (question, second text), per triple."""
    from ragmeter.embedders.sentence_transformer import load_model

    texts = list(dict.fromkeys(t for triple in triples for t in triple))
    vectors = load_model().encode(texts, batch_size=64, normalize_embeddings=True,
                                  convert_to_numpy=True, show_progress_bar=False)
    row = {t: i for i, t in enumerate(texts)}
    cos = lambda a, b: float(vectors[row[a]] @ vectors[row[b]])  # noqa: E731
    return [(cos(q, a), cos(q, b)) for q, a, b in triples]


def bm25_pairs(triples: Sequence[tuple[str, str, str]]) -> list[tuple[float, float]]:
    """The term-overlap baseline (BM25-like weights of the question's focus terms in each text)."""
    from ragmeter.text import nlp
    from ragmeter.judges.local.relevance import RelevanceScorer, key_terms

    return [tuple(RelevanceScorer.focus(key_terms(nlp.analyse([q])[0]), t)  # type: ignore[misc]
                  for t in nlp.analyse([a, b])) for q, a, b in triples]


TOPIC_STRAY = 0.35
"""Below this ``topic_cosine``, a set's relevant passages are flagged as straying from the topic
(two pairs in three or more point the wrong way)."""


def topic_cosine(model, triples: Sequence[tuple[str, str, str]]) -> float:
    """Pairwise accuracy of the MiniLM cosine between the question's focus words alone (its
    topic, as ``question_focus`` reads it) and each passage: "the more on-topic passage is the
    relevant one".

    A check on the data rather than a scorer. Near 0.5 or above, relevant and negative
    passages share the topic alike, as hard negatives should. Far below 0.5, the set's relevant
    passages are the ones that stray from the topic, and a score that rewards straying (one
    that subtracts topical similarity, as ``asked_similarity`` does) looks better on it than it
    is: measured in the ninth round, ctxrel-4 gives 0.09 and ctxrel-6 0.15 (their relevant
    passages rarely name their subject), MS MARCO 0.625 and ctxrel-8 0.525."""
    from ragmeter.judges.local.question_focus import question_focus

    out = []
    for q, pos, neg in triples:
        topic = " ".join(question_focus(q).focus) or q
        v = model.encode([topic, pos, neg], normalize_embeddings=True, convert_to_numpy=True,
                         show_progress_bar=False)
        out.append((float(v[0] @ v[1]), float(v[0] @ v[2])))
    return pairwise_accuracy(out)


def msmarco(path: Path) -> dict:
    from ragmeter.embedders.sentence_transformer import load_model
    from ragmeter.text import nlp
    from ragmeter.judges.local.relevance import RelevanceScorer, key_terms

    triples = load_msmarco(path)
    t0 = time.perf_counter()
    nlp.load_nlp()
    model = load_model()
    scorer = RelevanceScorer()
    scorer.encoder.encode(["warm up"])
    cold = time.perf_counter() - t0

    t0 = time.perf_counter()
    ours = [tuple(scorer.relevance(q, [pos, neg])) for q, pos, neg in triples]
    scorer_time = time.perf_counter() - t0
    # what LocalJudge uses: the same signals without the MiniLM cosine
    lexical = RelevanceScorer(embeddings=False)
    ours_lexical = [tuple(lexical.relevance(q, [pos, neg])) for q, pos, neg in triples]

    from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer

    t0 = time.perf_counter()
    chunk = ChunkRelevanceScorer()  # with the MiniLM cosine, as the local judge runs it
    chunk_pairs = [tuple(j.relevance for j in chunk.relevance(q, [pos, neg])) for q, pos, neg in triples]
    chunk_time = time.perf_counter() - t0
    chunk_lex = ChunkRelevanceScorer(embeddings=False)
    chunk_lex_pairs = [tuple(j.relevance for j in chunk_lex.relevance(q, [pos, neg])) for q, pos, neg in triples]
    bm25 = [tuple(RelevanceScorer.focus(key_terms(nlp.analyse([q])[0]), a) for a in nlp.analyse([pos, neg]))
            for q, pos, neg in triples]
    length = [(float(len(pos)), float(len(neg))) for _, pos, neg in triples]

    texts = list(dict.fromkeys([t for triple in triples for t in triple]))
    t0 = time.perf_counter()
    vectors = model.encode(texts, batch_size=64, normalize_embeddings=True,
                           convert_to_numpy=True, show_progress_bar=False)
    cosine_time = time.perf_counter() - t0
    row = {t: i for i, t in enumerate(texts)}
    cos: Callable[[str, str], float] = lambda a, b: float(vectors[row[a]] @ vectors[row[b]])
    raw = [(cos(q, pos), cos(q, neg)) for q, pos, neg in triples]
    identical = sum(1 for _, pos, neg in triples if pos == neg)
    return {
        "queries": len(triples),
        "identical_pairs": identical,
        "relevance_scorer": pairwise_accuracy(ours),  # type: ignore[arg-type]
        "relevance_scorer_lexical": pairwise_accuracy(ours_lexical),  # type: ignore[arg-type]
        "minilm_cosine": pairwise_accuracy(raw),
        "topic_cosine": topic_cosine(model, triples),
        "context_relevance": pairwise_accuracy(chunk_pairs),  # type: ignore[arg-type]
        "context_relevance_mean_relevant": float(np.mean([a for a, _ in chunk_pairs])),
        "context_relevance_mean_negative": float(np.mean([b for _, b in chunk_pairs])),
        "context_relevance_lexical": pairwise_accuracy(chunk_lex_pairs),  # type: ignore[arg-type]
        "bm25_overlap": pairwise_accuracy(bm25),  # type: ignore[arg-type]
        "length": pairwise_accuracy(length),
        "context_relevance_s": chunk_time,
        "cold_start_s": cold,
        "scorer_s": scorer_time,
        "passages_per_s": 2 * len(triples) / scorer_time,
        "cosine_s": cosine_time,
    }


# --- own context-relevance pairs ---------------------------------------------------------

OWN_PAIRS = ROOT / "bench" / "data" / "context_relevance_pairs.jsonl"


def own_pairs(path: Path = OWN_PAIRS, written: str | None = None) -> dict:
    """The measures of ``msmarco`` on the hand-written pairs (no hub data, always runs).

    ``written=None``: the first 34 pairs (no ``set`` field, written after the first
    scorer's weights were set); ``written="ctxrel-2"``: the 66 pairs over seven domains
    written before the second round of changes to ``ChunkRelevanceScorer``; ``"ctxrel-3"``: 36
    pairs on other topics written before the third round and not scored until it was done;
    ``"ctxrel-4"``: 45 pairs written blind after the third round, on which the choice between
    the two answer-type weights measured then was made (``ChunkRelevanceScorer.W_ANSWER_TYPE``);
    ``"ctxrel-5"``: 40 pairs written blind on 2026-11-24 beside the fifth round of changes, which never saw it,
    scored once after it; its misses were read in the sixth round, so it is development data now;
    ``"ctxrel-6"``: 40 pairs over ten domains written blind on 2026-11-24 by a helper who ran no
    scorer and did not read the scorers' code, scored once after the sixth round; its misses were
    read in the seventh, so it is development data now;
    ``"ctxrel-7"``: 40 more pairs over ten domains written the same way on 2026-11-24 in the fifth
    session (half the negatives longer than the relevant passage, half the relevant passages
    naming their subject only by a description or pronoun), never seen by the scorer's authors;
    ``"ctxrel-8"``: 40 held-out pairs over ten domains written the same way on 2026-11-24 in the
    sixth session, in the style of MS MARCO (terse web-search queries, web-page and docs-chunk
    passages that mostly name their subject, a quarter by description or pronoun; hard negatives
    a retriever would rank high, half of them longer than the relevant passage), never seen by
    the scorer's authors;
    ``"ctxrel-9"``: 40 held-out pairs over ten more domains written blind on 2026-11-24 in the
    seventh session by a helper who ran no scorer and did not read the scorers' code, balanced
    on how plainly each passage names the question's subject (earlier sets' relevant passages
    avoided naming it while their negatives named it, rewarding scorers that prefer off-topic
    text): in 20 pairs the relevant passage names it at least as plainly as the negative, in 10
    the negative names it more (the relevant one a mid-document chunk saying "it" or "the
    town"), in 10 the relevant passage names it more; half the negatives longer than the
    relevant passage; terse queries and full questions, typed and untyped; never seen by the
    scorer's authors."""
    from ragmeter.embedders.sentence_transformer import load_model
    from ragmeter.text import nlp
    from ragmeter.judges.local.chunk_relevance import ChunkRelevanceScorer
    from ragmeter.judges.local.relevance import RelevanceScorer, key_terms

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    triples = [(r["question"], r["relevant"], r["negative"]) for r in rows if r.get("set") == written]
    chunk = ChunkRelevanceScorer()
    ours = [tuple(j.relevance for j in chunk.relevance(q, [p, n])) for q, p, n in triples]
    chunk_lex = ChunkRelevanceScorer(embeddings=False)
    ours_lex = [tuple(j.relevance for j in chunk_lex.relevance(q, [p, n])) for q, p, n in triples]
    lexical = RelevanceScorer(embeddings=False)
    old = [tuple(lexical.relevance(q, [p, n])) for q, p, n in triples]
    bm25 = [tuple(RelevanceScorer.focus(key_terms(nlp.analyse([q])[0]), a) for a in nlp.analyse([p, n]))
            for q, p, n in triples]
    model = load_model()
    cos = []
    for q, p, n in triples:
        v = model.encode([q, p, n], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        cos.append((float(v[0] @ v[1]), float(v[0] @ v[2])))
    return {
        "set": written or "first 34",
        "pairs": len(triples),
        "context_relevance": pairwise_accuracy(ours),  # type: ignore[arg-type]
        "context_relevance_mean_relevant": float(np.mean([a for a, _ in ours])),
        "context_relevance_mean_negative": float(np.mean([b for _, b in ours])),
        "context_relevance_lexical": pairwise_accuracy(ours_lex),  # type: ignore[arg-type]
        "relevance_scorer_lexical": pairwise_accuracy(old),  # type: ignore[arg-type]
        "minilm_cosine": pairwise_accuracy(cos),
        "topic_cosine": topic_cosine(model, triples),
        "bm25_overlap": pairwise_accuracy(bm25),  # type: ignore[arg-type]
        "length": pairwise_accuracy([(float(len(p)), float(len(n))) for _, p, n in triples]),
    }


def print_own_pairs(r: dict) -> None:
    when = {"first 34": "written after the first weights were set",
            "ctxrel-2": "written before the second round of changes, 7 domains",
            "ctxrel-3": "held out: written before the third round of changes, scored once after it",
            "ctxrel-4": "written blind after the third round, decided W_ANSWER_TYPE; misses read in the fifth",
            "ctxrel-5": "written blind beside the fifth round, scored once after it; misses read in the sixth",
            "ctxrel-6": "written blind, scored once after the sixth round; misses read in the seventh",
            "ctxrel-7": "written blind in the fifth session; printed beside every later round",
            "ctxrel-8": ("MS MARCO-style, written blind in the sixth session; printed beside "
                         "every later round"),
            "ctxrel-9": ("written blind in the seventh session, balanced on which passage "
                         "names the subject; printed beside every later round"),
            "ctxrel-10": ("written blind 2026-11-27 by a helper who ran no scorer, 16 new domains, "
                          "balanced as ctxrel-9; the family deletions were chosen on it"),
            "ctxrel-11": ("BLIND: written 2026-11-27 (eleventh session) by a helper who ran no "
                          "scorer, 14 new domains")}[r["set"]]
    print(f"\nOwn context-relevance pairs, {r['set']} (bench/data, {when}): {r['pairs']} pairs")
    print(f"{'score':58} {'pairwise accuracy':>17}")
    print(f"{'ChunkRelevanceScorer (local context_relevance)':58} {_fmt(r['context_relevance']):>17}"
          f"   mean relevant {r['context_relevance_mean_relevant']:.2f}, negative "
          f"{r['context_relevance_mean_negative']:.2f}")
    print(f"{'ChunkRelevanceScorer without the MiniLM cosine':58} {_fmt(r['context_relevance_lexical']):>17}")
    print(f"{'RelevanceScorer, lexical':58} {_fmt(r['relevance_scorer_lexical']):>17}")
    print(f"{'baseline: MiniLM cosine (question, whole passage)':58} {_fmt(r['minilm_cosine']):>17}")
    strays = "   relevant passages stray from the topic" if r["topic_cosine"] < TOPIC_STRAY else ""
    print(f"{'check: MiniLM cosine (question focus only = its topic)':58} {_fmt(r['topic_cosine']):>17}{strays}")
    print(f"{'baseline: BM25-like term overlap (RelevanceScorer.focus)':58} {_fmt(r['bm25_overlap']):>17}")
    print(f"{'baseline: passage length (longer = relevant)':58} {_fmt(r['length']):>17}")


# --- answer relevancy: complete against poorer answers -----------------------------------

ANSWER_TRIPLES = ROOT / "bench" / "data" / "answer_relevancy_triples.jsonl"


def answer_triples(path: Path = ANSWER_TRIPLES) -> dict:
    """Local answer relevancy (``question_coverage``, what the local judge answers with) on
    (question, complete answer, poorer answer) triples, per half: the first half was looked
    at while the mechanism was set, the second written afterwards. Beside it: the plain
    question-answer MiniLM cosine and the answer length (longer = better)."""
    from ragmeter.judges.local.coverage import question_coverage
    from ragmeter.judges.local.verifier import default_encoder

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    encoder = default_encoder()
    out: dict = {"triples": len(rows), "halves": {}}
    for half in dict.fromkeys(r["half"] for r in rows):
        mine = [r for r in rows if r["half"] == half]
        questions = [r["question"] for r in mine for _ in (0, 1)]
        answers = [a for r in mine for a in (r["complete"], r["poorer"])]
        scored = [c.score for c in question_coverage(questions, answers, encoder)]
        vectors = encoder.encode([*questions[::2], *answers])
        qv, av = vectors[: len(mine)], vectors[len(mine):]
        cos = [(float(qv[k] @ av[2 * k]), float(qv[k] @ av[2 * k + 1])) for k in range(len(mine))]
        ours = [(scored[2 * k], scored[2 * k + 1]) for k in range(len(mine))]
        kinds = sorted({r["kind"] for r in mine})
        out["halves"][half] = {
            "triples": len(mine),
            "coverage": pairwise_accuracy(ours),  # type: ignore[arg-type]
            "mean_complete": float(np.mean([a for a, _ in ours])),
            "mean_poorer": float(np.mean([b for _, b in ours])),
            "by_kind": {k: pairwise_accuracy([o for o, r in zip(ours, mine) if r["kind"] == k]) for k in kinds},
            "cosine": pairwise_accuracy(cos),
            "length": pairwise_accuracy([(float(len(r["complete"])), float(len(r["poorer"]))) for r in mine]),
            "poorer_longer": sum(len(r["poorer"]) > len(r["complete"]) for r in mine),
        }
    return out


def print_answer_triples(r: dict) -> None:
    from blind import is_blind

    print(f"\nAnswer relevancy, complete vs poorer answer ({r['triples']} triples, bench/data)")
    halves = list(r["halves"])
    heads = [f"{h} ({'BLIND' if is_blind('answer_relevancy_triples.jsonl', h) else 'dev'})" for h in halves]
    print(f"{'score':58} " + " ".join(f"{h:>24}" for h in heads))
    for key, label in (("coverage", "local question coverage (the local answer_relevancy)"),
                       ("cosine", "baseline: MiniLM cosine (question, whole answer)"),
                       ("length", "baseline: answer length (longer = better)")):
        print(f"{label:58} " + " ".join(f"{_fmt(r['halves'][h][key]):>24}" for h in halves))
    for name, h in r["halves"].items():
        kinds = ", ".join(f"{k} {_fmt(v)}" for k, v in h["by_kind"].items())
        print(f"{name} half ({h['triples']}; poorer answer longer in {h['poorer_longer']}): mean "
              f"complete {h['mean_complete']:.2f}, poorer {h['mean_poorer']:.2f}; by kind: {kinds}")


# --- report ------------------------------------------------------------------------------


def _fmt(x: float) -> str:
    return "n/a" if x != x else f"{x:.3f}"


def print_halueval(r: dict) -> None:
    print("\n=== DEVELOPMENT (every earlier round printed figures on HaluEval QA dev; no part of it is blind) ===")
    print(f"HaluEval QA dev: {r['questions']} questions, {r['answers']} answers, "
          f"{r['claims']} claims, {r['length_matched_pairs']} length-matched pairs "
          f"(answers differ by < {LENGTH_MATCH:.0%} of the longer)")
    print(f"{'score':58} {'AUROC':>6} {'len-matched':>11} {'LM 1st half':>11} {'LM 2nd half':>11}")
    for row in r["rows"]:
        print(f"{row['score']:58} {_fmt(row['auroc']):>6} {_fmt(row['auroc_length_matched']):>11} "
              f"{_fmt(row['auroc_first_half_lm']):>11} {_fmt(row['auroc_second_half_lm']):>11}")
    print(f"accuracy at 0.5: {r['accuracy_at_0_5']:.3f} (length-matched "
          f"{r['accuracy_at_0_5_length_matched']:.3f}); by score band "
          "(answers, mean score -> share faithful):")
    print("  " + "; ".join(f"{b['band']} {b['answers']}, {b['mean_score']:.2f} -> "
                           f"{b['faithful_share']:.2f}" for b in r["calibration"]))
    print(f"cold start (spaCy{' and NLI model' if 'nli' in r['verifier'] else ''} load): "
          f"{r['cold_start_s']:.1f} s; claim split (spaCy, {r['answers']} answers): "
          f"{r['split_s']:.1f} s")
    if r["premise_analysis_s"]:
        print(f"premise analysis (spaCy, no NER): {r['premise_analysis_s']:.1f} s for "
              f"{r['unique_premises']} premises = {r['premises_per_s']:.0f} premises/s, "
              f"{r['premise_chars_per_s'] / 1000:.0f}k characters/s")
    print(f"verification: {r['verify_s']:.1f} s for {r['claims']} (premise, claim) pairs = "
          f"{r['pairs_per_s']:.0f} pairs/s; with the premise analysis "
          f"{r['pairs_per_s_with_premise_analysis']:.0f} pairs/s; end to end (claim split "
          f"included) {r['answers_per_s']:.0f} answers/s")
    if r.get("per_sample"):
        p = r["per_sample"]
        print(f"judge-shaped samples ({p['samples']}; premise = 3 passages joined, "
              f"{p['context_chars']:.0f} characters; {p['claims']} claims; one call each; cold "
              f"cache): {p['samples_per_s']:.1f} samples/s, {p['pairs_per_s']:.0f} pairs/s")


def print_msmarco(r: dict) -> None:
    print("\n=== DEVELOPMENT (MS MARCO dev: the relevance scorer was tuned on it; blind pairs: --only relevance) ===")
    print(f"MS MARCO context relevance dev: {r['queries']} queries "
          f"({r['identical_pairs']} with identical relevant and negative passages: a tie)")
    print(f"{'score':58} {'pairwise accuracy':>17}")
    print(f"{'RelevanceScorer, lexical (what the local judge uses)':58} "
          f"{_fmt(r['relevance_scorer_lexical']):>17}")
    print(f"{'RelevanceScorer with MiniLM cosine':58} {_fmt(r['relevance_scorer']):>17}")
    print(f"{'baseline: MiniLM cosine (question, whole passage)':58} "
          f"{_fmt(r['minilm_cosine']):>17}")
    print(f"{'check: MiniLM cosine (question focus only = its topic)':58} {_fmt(r['topic_cosine']):>17}")
    print(f"{'ChunkRelevanceScorer (local context_relevance)':58} {_fmt(r['context_relevance']):>17}"
          f"   mean relevant {r['context_relevance_mean_relevant']:.2f}, negative "
          f"{r['context_relevance_mean_negative']:.2f}")
    print(f"{'ChunkRelevanceScorer without the MiniLM cosine':58} {_fmt(r['context_relevance_lexical']):>17}")
    print(f"{'baseline: BM25-like term overlap (RelevanceScorer.focus)':58} {_fmt(r['bm25_overlap']):>17}")
    print(f"{'baseline: passage length (longer = relevant)':58} {_fmt(r['length']):>17}")
    print(f"ChunkRelevanceScorer: {r['context_relevance_s']:.1f} s; RelevanceScorer: {r['scorer_s']:.1f} s, {r['passages_per_s']:.0f} passages/s "
          f"(one call per query, 2 passages); raw cosine: {r['cosine_s']:.1f} s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets",
                        help="directory holding the development sets (default: ../shared/datasets)")
    parser.add_argument("--limit", type=int, default=8000,
                        help="HaluEval questions to use, in file order (default: all 8000, "
                             "about 2 minutes on 2 cores; each gives a right and a "
                             "hallucinated answer)")
    parser.add_argument("--verifier", default="alignment",
                        help="verifier spec: 'alignment' (default) or 'nli:NAME_OR_PATH'")
    parser.add_argument("--embeddings", action="store_true",
                        help="alignment verifier with MiniLM similarity (off by default)")
    parser.add_argument("--only", choices=("halueval", "msmarco", "relevance", "answer", "ragdev"),
                        help="run one set only")
    parser.add_argument("--matched-only", action="store_true",
                        help="HaluEval: score only the length-matched pairs (455 of 8000 "
                             "questions; the figure that matters, in a fraction of the time)")
    parser.add_argument("--threads", type=int, default=None, help="torch threads")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--halueval", default=None,
                        help="HaluEval file to read instead of DATASETS/halueval_qa_dev.jsonl; "
                             "'bundled' = the 500 rows shipped for `ragmeter align --benchmark halueval`")
    parser.add_argument("--metric", action="store_true",
                        help="also score the faithfulness metric end to end (ragmeter.evaluate, local "
                             "judge), as `ragmeter align --benchmark halueval` does")
    args = parser.parse_args(argv)

    halu_path, marco_path = args.datasets / HALUEVAL, args.datasets / MSMARCO
    if args.halueval is not None:
        halu_path = benchmark_path("halueval") if args.halueval == "bundled" else Path(args.halueval)
    if not halu_path.exists() and not marco_path.exists() and args.only != "ragdev":
        print(f"no development sets in {args.datasets} ({HALUEVAL}, {MSMARCO}): "
              "nothing to measure (pass --datasets DIR)")
        return 0
    if args.threads is not None:
        import torch

        torch.set_num_threads(args.threads)

    out: dict = {"datasets": str(args.datasets)}
    start = time.perf_counter()
    if args.only in (None, "halueval"):
        if halu_path.exists():
            out["halueval"] = halueval(halu_path, args.limit, args.verifier, args.embeddings,
                                       args.matched_only)
            print_halueval(out["halueval"])
            if args.metric:
                m = out["halueval_metric"] = halueval_metric(halu_path, args.limit)
                print(f"faithfulness metric, local judge, via ragmeter.evaluate ({m['scored']}/{m['answers']} "
                      f"answers scored, {m['seconds']:.1f} s): AUROC {_fmt(m['auroc'])} (length-matched "
                      f"{_fmt(m['auroc_length_matched'])}); pair accuracy {_fmt(m['pair_accuracy'])} "
                      f"(length-matched {_fmt(m['pair_accuracy_length_matched'])})")
        else:
            print(f"\n{halu_path} is missing: HaluEval skipped")
    if args.only in (None, "msmarco", "relevance"):
        if marco_path.exists():
            out["msmarco"] = msmarco(marco_path)
            print_msmarco(out["msmarco"])
        else:
            print(f"\n{marco_path} is missing: MS MARCO skipped")
    if args.only in (None, "answer"):
        out["answer_relevancy_triples"] = answer_triples()
        print_answer_triples(out["answer_relevancy_triples"])
    if args.only in (None, "relevance"):
        from blind import is_blind

        sets = [None, "ctxrel-2", "ctxrel-3", "ctxrel-4", "ctxrel-5", "ctxrel-6", "ctxrel-7",
                "ctxrel-8", "ctxrel-9", "ctxrel-10", "ctxrel-11"]
        for blind in (False, True):
            print("\n=== " + ("BLIND (written by someone who has not read the scorers; never used to choose)"
                              if blind else "DEVELOPMENT (tuned on, or read while tuning)") + " ===")
            for name in sets:
                if is_blind("context_relevance_pairs.jsonl", name) == blind:
                    key = "own_relevance_pairs" + ("" if name is None else "_" + name.split("-")[1])
                    out[key] = own_pairs(written=name)
                    print_own_pairs(out[key])
    if args.only in (None, "ragdev"):
        from quality_rag_dev import print_rag_dev, rag_dev

        out["ragdev"] = rag_dev(verifier=args.verifier)
        print_rag_dev(out["ragdev"])
    out["total_s"] = time.perf_counter() - start
    out["peak_rss_mb"] = peak_rss_mb()
    print(f"\ntotal {out['total_s']:.1f} s; peak memory (max RSS) {out['peak_rss_mb']:.0f} MB")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
