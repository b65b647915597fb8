"""Every figure README.md and docs/ publish, measured on the locked install, into bench/figures.json.

    make figures                                            # all groups (about 10 minutes on 2 cores)
    .venv/bin/python bench/figures.py --only align,ragdev   # some groups; the others are kept
    .venv/bin/python bench/figures.py --check               # measure again, compare with the file
    .venv/bin/python bench/figures.py --list                # the keys and values in the file
    .venv/bin/python bench/figures.py --guard               # what CI checks (tests/test_quality_guard.py)

Each figure is written with its value, the command a reader runs to see it, the data it was
measured on and whether that data is development data (a mechanism was tuned on it) or blind
(``bench/blind.py``), the date, the commit and the SHA-256 of ``requirements/lock.txt``. Key
names say what a figure is: ``align.halueval.local.cohen_kappa``,
``ragdev.blind.faithful_mean``, ``ctxrel.blind.baseline.minilm_cosine``. Baselines (length,
cosine, BM25-like overlap) sit beside every quality figure, under ``.baseline.``.

Deterministic figures repeat to the last digit on the same lock (the local judge is
deterministic: no sampling, no threads racing on a sum); the throughput figures under
``perf.`` move with the machine's load and are marked ``varies_between_runs``; ``--check``
compares them loosely (a factor of two) and everything else to 0.005.

The datasets of ``../shared/datasets`` (HaluEval QA dev, MS MARCO) are read where they are;
without them, their groups are skipped with a message and their figures are kept as they were.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(HERE))

from blind import BLIND  # noqa: E402

FIGURES = HERE / "figures.json"
LOCK = ROOT / "requirements" / "lock.txt"
DATASETS = ROOT.parent / "shared" / "datasets"
TOLERANCE = 0.005
"""How far a re-measured deterministic figure may be from the recorded one."""


@dataclass(frozen=True)
class Figure:
    key: str
    value: float
    data: str
    data_kind: str  # "development", "blind" or "-" (performance, no labels)
    varies: str | None = None  # why it moves between runs, for the figures that do


@dataclass
class Group:
    """One benchmark run: the command a reader types to see its figures, and what makes them."""

    name: str
    command: str
    measure: Callable[[], list[Figure]]
    needs: Sequence[Path] = field(default_factory=tuple)


def pairwise(pairs: Iterable[tuple[float, float]]) -> float:
    """Share of (should-be-higher, should-be-lower) pairs ordered right; ties count half."""
    values = [1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs]
    return float(np.mean(values)) if values else float("nan")


def _fig(prefix: str, values: dict[str, float], data: str, kind: str) -> list[Figure]:
    return [Figure(f"{prefix}.{k}", float(v), data, kind) for k, v in values.items()]


# --- align: the ready check every user can run ---------------------------------------------

ALIGN_COMMAND = "ragmeter align --benchmark halueval --judge local --json F"
ALIGN_DATA = "src/ragmeter/align/data/halueval_qa_500.jsonl (bundled: 250 HaluEval QA dev questions x 2 answers)"


def align_figures(json_path: Path) -> dict[str, float]:
    """The figures of an ``align --benchmark halueval --json`` report, by name."""
    report = json.loads(json_path.read_text(encoding="utf-8"))
    metric = report["runs"][0]["metrics"]["faithfulness"]
    bench = report["benchmark"]
    return {
        "cohen_kappa": metric["cohen_kappa"]["value"],
        "balanced_accuracy": metric["balanced_accuracy"]["value"],
        "accuracy": metric["accuracy"]["value"],
        "yes_on_hallucinated": metric["confusion"]["fp"],
        "scored": bench["scored"],
        "auroc": bench["auroc"],
        "auroc_length_matched": bench["auroc_length_matched"],
        "pair_accuracy": bench["pair_accuracy"],
        "pair_accuracy_length_matched": bench["pair_accuracy_length_matched"],
        "baseline.length_auroc": bench["baseline_length_auroc"],
        "baseline.length_auroc_length_matched": bench["baseline_length_auroc_length_matched"],
    }


def measure_align() -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "align.json"
        ragmeter = Path(sys.executable).with_name("ragmeter")
        subprocess.run([str(ragmeter), "align", "--benchmark", "halueval", "--judge", "local",
                        "--json", str(out)], check=True, capture_output=True, text=True,
                       env={**os.environ, "HF_HUB_OFFLINE": "1", "COLUMNS": "200"})
        return _fig("align.halueval.local", align_figures(out), ALIGN_DATA, "development")


# --- the RAG development set: faithfulness and context recall of paraphrasing answers ------

RAG_COMMAND = ".venv/bin/python bench/quality_rag_dev.py"
RAG_KEYS = {
    "faithful_mean": "faithful_mean",
    "unfaithful_mean": "unfaithful_mean",
    "pairwise": "pairwise",
    "careful_unfaithful_mean": "careful_unfaithful_mean",
    "context_recall_mean": "context_recall_mean",
    "claims_in_band": "claims_in_band",
    "baseline.cosine_pairwise": "baseline_cosine_pairwise",
    "baseline.length_pairwise": "baseline_length_pairwise",
}


def rag_rows_by_kind() -> dict[str, list[dict]]:
    """The RAG dev set's rows, development and blind apart (``bench/blind.py``)."""
    from quality_rag_dev import load

    rows = load()
    blind = BLIND.get("rag_dev.jsonl", {})
    return {"development": [r for r in rows if r["split"] not in blind],
            "blind": [r for r in rows if r["split"] in blind]}


def rag_figures(rows: list[dict]) -> dict[str, float]:
    from quality_rag_dev import split_report

    from ragmeter.judges.cascade import DEFAULT_BAND

    report = split_report(rows, "alignment", DEFAULT_BAND)
    values = {key: report[name] for key, name in RAG_KEYS.items()}
    # each kind of unfaithful variant apart: a check switched off (negation, numbers, roles)
    # moves its own kind by far more than it moves the pooled means
    values.update({f"variant.{kind}.mean": report["by_kind"][kind] for kind in report["by_kind"]})
    values.update({f"variant.{kind}.careful_mean": report["careful_by_kind"][kind]
                   for kind in report["careful_by_kind"]})
    return values


def measure_ragdev() -> list[Figure]:
    out: list[Figure] = []
    for kind, rows in rag_rows_by_kind().items():
        if rows:
            splits = ", ".join(dict.fromkeys(r["split"] for r in rows))
            data = f"bench/data/rag_dev.jsonl, splits {splits} ({len(rows)} questions x 4 answers)"
            out += _fig(f"ragdev.{kind}", rag_figures(rows), data, kind)
    return out


# --- HaluEval QA dev, all 8,000 questions: the claim verifier beside its baselines ---------

def measure_halueval() -> list[Figure]:
    from quality import halueval

    r = halueval(DATASETS / "halueval_qa_dev.jsonl", 8000, "alignment", False)
    data = "../shared/datasets/halueval_qa_dev.jsonl (8,000 questions x 2 answers)"
    verifier, length, entities = r["rows"]  # in quality.halueval's order
    values = {
        "verifier.auroc": verifier["auroc"],
        "verifier.auroc_length_matched": verifier["auroc_length_matched"],
        "baseline.length_auroc": length["auroc"],
        "baseline.length_auroc_length_matched": length["auroc_length_matched"],
        "baseline.entity_share_auroc": entities["auroc"],
        "baseline.entity_share_auroc_length_matched": entities["auroc_length_matched"],
        "length_matched_pairs": r["length_matched_pairs"],
    }
    return _fig("halueval.dev", values, data, "development")


# --- context relevance: MS MARCO and the project's own pairs ---------------------------------

def relevance_pairs_figures(triples: Sequence[tuple[str, str, str]]) -> dict[str, float]:
    """``context_relevance`` of the local judge, through ``ragmeter.evaluate`` (one passage per
    sample: its chunk score), as pairwise accuracy and means, beside the baselines."""
    from quality import bm25_pairs, cosine_pairs

    from ragmeter import evaluate

    samples = [{"question": q, "contexts": [p]} for q, pos, neg in triples for p in (pos, neg)]
    result = evaluate(samples, ["context_relevance"], judge="local", cache=False, journal=False,
                      show_progress=False)
    scores = [0.0 if s is None else s for s in result.scores("context_relevance")]
    pairs = list(zip(scores[0::2], scores[1::2]))
    return {
        "pairwise": pairwise(pairs),
        "mean_relevant": float(np.mean([a for a, _ in pairs])),
        "mean_negative": float(np.mean([b for _, b in pairs])),
        "baseline.minilm_cosine": pairwise(cosine_pairs(triples)),
        "baseline.bm25_overlap": pairwise(bm25_pairs(triples)),
        "baseline.length": pairwise((float(len(p)), float(len(n))) for _, p, n in triples),
    }


def measure_msmarco() -> list[Figure]:
    from quality import load_msmarco

    triples = load_msmarco(DATASETS / "msmarco_ctxrel_dev.jsonl")
    data = "../shared/datasets/msmarco_ctxrel_dev.jsonl (100 queries, relevant vs hard negative)"
    return _fig("msmarco.dev.context_relevance", relevance_pairs_figures(triples), data, "development")


def measure_ctxrel() -> list[Figure]:
    rows = [json.loads(line) for line in (HERE / "data" / "context_relevance_pairs.jsonl")
            .read_text(encoding="utf-8").splitlines() if line.strip()]
    blind = BLIND.get("context_relevance_pairs.jsonl", {})
    out: list[Figure] = []
    for kind, mine in (("development", [r for r in rows if r.get("set") not in blind]),
                       ("blind", [r for r in rows if r.get("set") in blind])):
        sets = ", ".join(dict.fromkeys(str(r.get("set") or "first 34") for r in mine))
        data = f"bench/data/context_relevance_pairs.jsonl, sets {sets} ({len(mine)} pairs)"
        triples = [(r["question"], r["relevant"], r["negative"]) for r in mine]
        out += _fig(f"ctxrel.{kind}.context_relevance", relevance_pairs_figures(triples), data, kind)
    return out


# --- answer relevancy: complete against poorer answers --------------------------------------

def answer_figures(rows: list[dict]) -> dict[str, float]:
    from quality import cosine_pairs

    from ragmeter import evaluate

    samples = [{"question": r["question"], "answer": a} for r in rows for a in (r["complete"], r["poorer"])]
    result = evaluate(samples, ["answer_relevancy"], judge="local", cache=False, journal=False,
                      show_progress=False)
    scores = [0.0 if s is None else s for s in result.scores("answer_relevancy")]
    pairs = list(zip(scores[0::2], scores[1::2]))
    refusals = [b for (_, b), r in zip(pairs, rows) if r["kind"] == "refusal"]
    values = {
        "pairwise": pairwise(pairs),
        "mean_complete": float(np.mean([a for a, _ in pairs])),
        "mean_poorer": float(np.mean([b for _, b in pairs])),
        "baseline.minilm_cosine": pairwise(cosine_pairs([(r["question"], r["complete"], r["poorer"]) for r in rows])),
        "baseline.length": pairwise((float(len(r["complete"])), float(len(r["poorer"]))) for r in rows),
    }
    if refusals:
        values["mean_refusal"] = float(np.mean(refusals))
    return values


def measure_answer() -> list[Figure]:
    rows = [json.loads(line) for line in (HERE / "data" / "answer_relevancy_triples.jsonl")
            .read_text(encoding="utf-8").splitlines() if line.strip()]
    blind = BLIND.get("answer_relevancy_triples.jsonl", {})
    out: list[Figure] = []
    for kind, mine in (("development", [r for r in rows if r["half"] not in blind]),
                       ("blind", [r for r in rows if r["half"] in blind])):
        data = f"bench/data/answer_relevancy_triples.jsonl ({len(mine)} triples, {kind})"
        out += _fig(f"answer_relevancy.{kind}", answer_figures(mine), data, kind)
    return out


# --- risk-coverage: how right are the local verdicts it is surest of ------------------------

def measure_risk() -> list[Figure]:
    """``bench/risk_coverage.py``: per judgement kind (claim support, chunk relevance, answer
    addressing; calibrated probabilities), development and blind apart, the coverage at which
    95% of the kept verdicts are right, the share right at coverage 50% and 100%, and for the
    cascade's default band (0.05, 0.95), (0.25, 0.75) and (0.5, 0.5) the share kept (LLM calls
    saved), right among the kept, and right overall with the labels standing in for the LLM;
    MiniLM cosine by rank beside each under ``.baseline.minilm_cosine_rank.``."""
    import risk_coverage

    report = risk_coverage.measure()
    (HERE / "reliability.md").write_text(risk_coverage.diagrams(report), encoding="utf-8")
    return [Figure(key, value, data, kind) for key, value, data, kind in risk_coverage.figures(report)]


# --- speed: the eight-metric suite with the local judge --------------------------------------

def measure_perf() -> list[Figure]:
    """The eight-metric suite, and the same with ``context_relevance`` (the slowest local
    judgement: one MiniLM encode per chunk and its question-focus rules), 400 samples each."""
    import torch

    import bench_local
    from ragmeter import evaluate

    bench_local.DATASETS = DATASETS
    warm, data = bench_local.halueval_samples(40, 0), bench_local.halueval_samples(400, 2000)
    options = dict(cache=False, journal=False, show_progress=False)
    data_note = "400 samples built from ../shared/datasets/halueval_qa_dev.jsonl (bench/bench_local.py)"
    out = []
    for name, suite in (("local_suite", bench_local.SUITE),
                        ("local_suite_with_context_relevance", [*bench_local.SUITE, "context_relevance"])):
        evaluate(warm, suite, **options)
        started, cpu_started = time.perf_counter(), time.process_time()
        evaluate(data, suite, **options)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        why = (f"wall-clock throughput on the machine that ran `make figures` (torch threads "
               f"{torch.get_num_threads()}, load average {os.getloadavg()[0]:.1f} at the end): "
               "it moves with other load, by a third between runs on a shared 2-core machine")
        out += [Figure(f"perf.{name}.samples_per_s", len(data) / wall, data_note, "-", why),
                Figure(f"perf.{name}.cpu_ms_per_sample", 1000 * cpu / len(data), data_note, "-", why)]
    return out


# --- calls and tokens beside Ragas 0.4.3, through one mock server -----------------------------

RAGAS_PYTHON = HERE / ".venv-ragas" / "bin" / "python"


def measure_vs_ragas() -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "vs_ragas.json"
        subprocess.run([sys.executable, str(HERE / "bench_vs_ragas.py"), "--out", str(out)], check=True,
                       capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
        report = json.loads(out.read_text(encoding="utf-8"))
    n = report["config"]["samples"]
    c = report["comparison"]
    data = (f"{n} samples of bench/compare_samples.py, eight metrics (the Ragas set plus harmfulness), "
            "both tools answered by one local OpenAI-compatible mock server, 200 ms per call")
    why = "wall time on a shared machine: moves with its load"
    return [
        Figure("vs_ragas.ragmeter.calls_per_sample", c["calls"]["ragmeter"] / n, data, "-"),
        Figure("vs_ragas.ragas.calls_per_sample", c["calls"]["ragas"] / n, data, "-"),
        Figure("vs_ragas.calls_ratio", c["calls"]["ratio"], data, "-"),
        Figure("vs_ragas.prompt_tokens_ratio", c["prompt_tokens"]["ratio"], data, "-"),
        Figure("vs_ragas.wall_seconds_ratio", c["wall_seconds"]["ratio"], data, "-", why),
    ]


# --- testset: hand ratings of generated test sets on fresh folders ---------------------------

def measure_testset() -> list[Figure]:
    """``bench/testset_ratings.py``: per fresh folder generated once and rated once, the share of
    the size asked written, the types written and the share rated usable (a folder's first round
    is blind, a later one development data)."""
    from testset_ratings import round_figures, rating_rounds

    figures: list[Figure] = []
    for rnd in rating_rounds():
        data = (f"{rnd.source}: `ragmeter generate FOLDER -n {rnd.asked}` (offline) at {rnd.generated_at}, "
                "every record rated once by a person who did not read the generator's code "
                "(bench/testset_hand_ratings.jsonl)")
        kind = "blind" if rnd.blind else "development"
        # a folder's blind round stays; of its development rounds the latest is the figure
        figures += _fig(f"testset.{kind}.{rnd.folder}", round_figures(rnd), data, kind)
    return figures


def measure_testset_gate() -> list[Figure]:
    """``bench/testset_gate.py``: whether a gate could keep the usable generated records, each
    rated folder held out in turn (the round-trip figures need the folders on disk and are not
    among these)."""
    from testset_gate import gate_figures, rated_records

    data = ("every rated record of bench/testset_hand_ratings.jsonl that carries its ground truth, "
            "leave-one-folder-out")
    return _fig("testset_gate", gate_figures(rated_records()), data, "development")


GROUPS = [
    Group("align", ALIGN_COMMAND, measure_align),
    Group("ragdev", RAG_COMMAND, measure_ragdev),
    Group("ctxrel", ".venv/bin/python bench/quality.py --only relevance", measure_ctxrel),
    Group("answer", ".venv/bin/python bench/quality.py --only answer", measure_answer),
    Group("msmarco", ".venv/bin/python bench/quality.py --only msmarco", measure_msmarco,
          (DATASETS / "msmarco_ctxrel_dev.jsonl",)),
    Group("halueval", ".venv/bin/python bench/quality.py --only halueval", measure_halueval,
          (DATASETS / "halueval_qa_dev.jsonl",)),
    Group("perf", ".venv/bin/python bench/bench_local.py --samples 400 --warmup 40 [--with-context-relevance]", measure_perf,
          (DATASETS / "halueval_qa_dev.jsonl",)),
    Group("risk", ".venv/bin/python bench/risk_coverage.py --diagrams bench/reliability.md", measure_risk),
    Group("testset", ".venv/bin/python bench/testset_ratings.py", measure_testset),
    Group("testset_gate", ".venv/bin/python bench/testset_gate.py", measure_testset_gate),
    Group("vs_ragas", "bash bench/make_ragas_venv.sh && .venv/bin/python bench/bench_vs_ragas.py",
          measure_vs_ragas, (RAGAS_PYTHON,)),
]


# --- the guard: what CI checks on every change ------------------------------------------------

GUARD_GROUPS = ("align", "ragdev", "answer")
"""Cheap enough for every CI run (about a minute and a half on 2 cores) and need no shared data."""
GUARD_MARGIN = 0.02
"""A guarded figure may fall this far below (or, for a lower-is-better one, rise this far
above) the recorded value before the guard fails: more than any rounding, less than any change
a reader of the figures would notice."""
GUARDED: dict[str, int] = {
    # key -> +1 higher is better, -1 lower is better
    "align.halueval.local.cohen_kappa": +1,
    "align.halueval.local.balanced_accuracy": +1,
    "align.halueval.local.auroc_length_matched": +1,
    **{f"ragdev.{kind}.{name}": sign for kind in ("development", "blind")
       for name, sign in (("faithful_mean", +1), ("pairwise", +1), ("context_recall_mean", +1),
                          ("unfaithful_mean", -1))},
    **{f"ragdev.development.variant.{kind}.mean": -1 for kind in (
        "wrong_number", "wrong_date", "wrong_entity", "swapped_roles", "negation", "antonym",
        "unsupported_addition", "partial")},
    "answer_relevancy.development.pairwise": +1,
    "answer_relevancy.blind.pairwise": +1,
    "answer_relevancy.blind.mean_refusal": -1,
}


def guard(measured: dict[str, float], recorded: dict[str, dict]) -> tuple[list[str], list[str]]:
    """(a line per guarded figure, the lines of those that fell more than ``GUARD_MARGIN``)."""
    lines, failed = [], []
    for key, sign in GUARDED.items():
        if key not in measured or key not in recorded:
            failed.append(f"{key}: {'not measured' if key not in measured else 'not recorded'}")
            continue
        now, then = measured[key], recorded[key]["value"]
        worse = sign * (then - now)  # > 0 when the figure moved the wrong way
        line = (f"{key:52} recorded {then:.4f}  now {now:.4f}  "
                f"({'higher' if sign > 0 else 'lower'} is better)")
        lines.append(line)
        if worse > GUARD_MARGIN:
            failed.append(line + f"  FELL by {worse:.4f} > {GUARD_MARGIN}")
    return lines, failed


def measure_guarded() -> dict[str, float]:
    """The guarded figures, measured now (the groups of ``GUARD_GROUPS``)."""
    return {f.key: f.value for g in GROUPS if g.name in GUARD_GROUPS for f in g.measure()
            if f.key in GUARDED}


# --- where README and docs quote the figures -------------------------------------------------

QUOTE = re.compile(r"(?P<value>-?[0-9][0-9.,]*%?)<!-- fig (?P<key>[A-Za-z0-9_.]+)(?: (?P<fmt>[^ ]+))? -->")
"""A quoted figure in Markdown: the value, then an HTML comment (invisible when rendered) naming
its key in bench/figures.json and, optionally, a format spec (default ``.3f``; ``.0%``, ``.1f``,
``,.0f``...). ``make figures`` rewrites every value from the file; tests/test_figures_quoted.py
fails on any quoted value that differs from it."""
DEFAULT_FORMAT = ".3f"


def quoting_files() -> list[Path]:
    """README.md and docs/*.md: the pages that may quote a figure."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def quoted(value: float, fmt: str | None) -> str:
    return format(value, fmt or DEFAULT_FORMAT)


def render(text: str, figures: dict[str, dict]) -> str:
    """``text`` with every quoted figure's value written from ``figures`` (unknown keys kept)."""
    def one(m: re.Match) -> str:
        entry = figures.get(m["key"])
        value = m["value"] if entry is None else quoted(entry["value"], m["fmt"])
        return value + m.group(0)[len(m["value"]):]
    return QUOTE.sub(one, text)


def render_docs(figures: dict[str, dict]) -> list[Path]:
    """Rewrite the quoted figures of README and docs; the files that changed."""
    changed = []
    for path in quoting_files():
        text = path.read_text(encoding="utf-8")
        new = render(text, figures)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


# --- the file -------------------------------------------------------------------------------

def lock_sha256() -> str:
    return hashlib.sha256(LOCK.read_bytes()).hexdigest() if LOCK.exists() else "no lock"


def commit() -> str:
    """HEAD, with ``+changes`` when src/, testset_gen/ or bench/ differ from it (a figure of an
    uncommitted tree)."""
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "src", "testset_gen", "bench/*.py",
                            "bench/data"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return head + ("+changes" if dirty else "")


def load_figures(path: Path = FIGURES) -> dict[str, dict]:
    """The recorded figures by key (empty when there is no file yet)."""
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["figures"]


def value(key: str, path: Path = FIGURES) -> float:
    """One recorded figure's value (KeyError naming the key when it is not recorded)."""
    figures = load_figures(path)
    if key not in figures:
        raise KeyError(f"{key} is not in {path.name}: run `make figures`")
    return figures[key]["value"]


def measure(groups: Sequence[Group]) -> dict[str, dict]:
    stamp = {"date": dt.date.today().isoformat(), "commit": commit(), "lock_sha256": lock_sha256()}
    out: dict[str, dict] = {}
    for group in groups:
        missing = [str(p) for p in group.needs if not p.exists()]
        if missing:
            print(f"{group.name}: skipped, {', '.join(missing)} not found", flush=True)
            continue
        t0 = time.perf_counter()
        for f in group.measure():
            entry = {"value": round(f.value, 4), "command": group.command, "data": f.data,
                     "data_kind": f.data_kind, **stamp}
            if f.varies:
                entry["varies_between_runs"] = f.varies
            out[f.key] = entry
        print(f"{group.name}: measured in {time.perf_counter() - t0:.0f} s", flush=True)
    return out


def differences(old: dict[str, dict], new: dict[str, dict]) -> list[str]:
    """Every re-measured figure that moved beyond its tolerance, as a readable line."""
    lines = []
    for key, entry in sorted(new.items()):
        if key not in old:
            lines.append(f"{key}: new ({entry['value']})")
            continue
        a, b = old[key]["value"], entry["value"]
        if a != a or b != b:  # NaN: undefined (a share of nothing kept) both times, or a change
            ok = a != a and b != b
        elif "varies_between_runs" in entry:
            ok = b >= a / 2 and b <= 2 * a
        else:
            ok = abs(a - b) <= TOLERANCE
        if not ok:
            lines.append(f"{key}: recorded {a}, measured {b}")
    return lines


def print_table(figures: dict[str, dict]) -> None:
    for key, entry in sorted(figures.items()):
        tag = " (varies)" if "varies_between_runs" in entry else ""
        print(f"{key:62} {entry['value']:>10}  {entry['data_kind']}{tag}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=None, help="comma-separated groups: "
                        + ", ".join(g.name for g in GROUPS))
    parser.add_argument("--check", action="store_true",
                        help="measure, compare with the recorded figures, write nothing; exit 1 on a move")
    parser.add_argument("--list", action="store_true", help="print the recorded figures and exit")
    parser.add_argument("--render", action="store_true",
                        help="only rewrite the figures README and docs quote from the file")
    parser.add_argument("--guard", action="store_true",
                        help="measure the guarded figures only (what CI checks); exit 1 when one fell")
    parser.add_argument("--out", type=Path, default=FIGURES)
    args = parser.parse_args(argv)
    if args.list:
        print_table(load_figures(args.out))
        return 0
    if args.render:
        for path in render_docs(load_figures(args.out)):
            print(f"quoted figures rewritten in {path.relative_to(ROOT)}")
        return 0
    if args.guard:
        lines, failed = guard(measure_guarded(), load_figures(args.out))
        print("\n".join(lines))
        print("\n".join(["guard FAILED:", *failed]) if failed else "guard passed")
        return 1 if failed else 0
    names = args.only.split(",") if args.only else [g.name for g in GROUPS]
    unknown = set(names) - {g.name for g in GROUPS}
    if unknown:
        parser.error(f"unknown group(s): {', '.join(sorted(unknown))}")
    new = measure([g for g in GROUPS if g.name in names])
    print_table(new)
    old = load_figures(args.out)
    if args.check:
        moved = differences(old, new)
        print("\n".join(moved) if moved else f"all {len(new)} figures as recorded")
        return 1 if moved else 0
    kept = {k: v for k, v in old.items() if k.split(".")[0] not in _prefixes(names)}
    merged = dict(sorted({**kept, **new}.items()))
    args.out.write_text(json.dumps({"written_by": "make figures (bench/figures.py)",
                                    "lock": "requirements/lock.txt", "figures": merged},
                                   indent=1) + "\n", encoding="utf-8")
    print(f"{len(new)} figures measured, {len(merged)} in {args.out}")
    if args.out == FIGURES:
        for path in render_docs(merged):
            print(f"quoted figures rewritten in {path.relative_to(ROOT)}")
    return 0


PREFIXES = {"align": "align", "ragdev": "ragdev", "ctxrel": "ctxrel", "answer": "answer_relevancy",
            "msmarco": "msmarco", "halueval": "halueval", "perf": "perf", "vs_ragas": "vs_ragas",
            "risk": "risk", "testset": "testset", "testset_gate": "testset_gate"}


def _prefixes(names: Sequence[str]) -> set[str]:
    return {PREFIXES[n] for n in names}


if __name__ == "__main__":
    raise SystemExit(main())
