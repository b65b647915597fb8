"""Test-set generation: usable records (offline generator) and LLM calls per question.

    .venv/bin/python bench/bench_testset.py quality [--out DIR] [--size 100]
    .venv/bin/python bench/bench_testset.py cost [--documents 100] [--size 100] [--latency 0.2]

``quality``: the offline generator (``judge="local"``) on two folders assembled at bench
time from openly licensed prose (``testset_folders``: HaluEval passages, MIT; this
project's docs and 25 package READMEs, MIT/BSD/Apache), nothing committed. Per folder:
records asked and written per evolution type, the filter's rejections by reason, and the
share of written records passing the automatic rubric check: the filter's own checks run
again (``record_filter.rule_reasons`` and the local judge's ``judge_reasons``) AND the
separate checker (``check_testset.py``, rules written apart from the filter). The records
are written to ``--out`` for the hand rating bench/README.md reports.

``cost``: the LLM path through the local OpenAI-compatible mock server answering every
request after ``--latency`` seconds with the scripted writer and critic
(``testset_gen.testing``): calls split into the fixed cost (one summary per document) and
the cost per question (writing calls, critic calls, rejected attempts included); and the
offline generator's wall time on the same folder. Documents: each a Markdown file of 6
HaluEval passages, so chunks share entities across documents as real corpora do.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from testset_folders import HALUEVAL, write_docs, write_halueval  # noqa: E402
DATASETS = HALUEVAL.parent


def write_documents(folder: Path, count: int, passages_per_doc: int = 6) -> int:
    return write_halueval(folder, count, passages_per_doc)


def quality(args: argparse.Namespace) -> None:
    from check_testset import check

    from testset_gen.generator import generate
    from testset_gen.record_filter import FilterInput, judge_reasons, rule_reasons

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folders = {name: Path(tmp) / name for name in args.folders.split(",")}
        writers = {"halueval": lambda p: write_halueval(p, documents=args.halueval_documents,
                                                        passages_per_doc=30),
                   "docs": write_docs}
        chars = {name: writers[name](folder) for name, folder in folders.items()}
        print("| folder | files, characters | asked | written (simple / reasoning / multi_context) "
              "| filter rejections (top) | pass filter re-check | pass checker script | pass both "
              "| wall time |\n|---|---|---|---|---|---|---|---|---|")
        for name, folder in folders.items():
            warnings.simplefilter("ignore")
            started = time.perf_counter()
            result = generate(folder, args.size, judge="local", cache=False, seed=args.seed)
            wall = time.perf_counter() - started
            records = result.testset.records
            result.testset.to_jsonl(out / f"{name}.jsonl")
            items = [FilterInput(r.question, r.ground_truth, str(r.metadata.get("answer", "")),
                                 tuple(r.metadata.get("source_sentences", ())),
                                 tuple(r.reference_contexts),
                                 subject=r.metadata.get("subject", ""),
                                 subject_label=r.metadata.get("subject_label", ""),
                                 derived={"years_between": "years_between",
                                          "which_first": "first", "span_years": "span"}.get(r.metadata.get("template"), ""))
                     for r in records]
            verdicts = judge_reasons(items)
            refilter = [not rule_reasons(i) and not v for i, v in zip(items, verdicts)]
            checker = [not check(r.model_dump()) for r in records]
            both = sum(a and b for a, b in zip(refilter, checker))
            counts = result.testset.counts()
            reasons: dict[str, int] = {}
            for per in result.rejections_by_type().values():
                for k, v in per.items():
                    reasons[k] = reasons.get(k, 0) + v
            top = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])[:4])
            n = len(records) or 1
            print(f"| {name} | {len(list(folder.iterdir()))}, {chars[name]:,} | {args.size} | {len(records)} "
                  f"({counts['simple']} / {counts['reasoning']} / {counts['multi_context']}) | {top} | "
                  f"{sum(refilter) / n:.0%} | {sum(checker) / n:.0%} | {both / n:.0%} | {wall:.0f} s |")
    print(f"records written to {out}/<folder>.jsonl for the hand rating")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["quality", "cost"], nargs="?", default="quality")
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--halueval-documents", type=int, default=40)
    parser.add_argument("--folders", default="halueval,docs", help="quality: which folders (comma-separated)")
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "ragmeter_bench_testset"))
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.mode == "quality":
        quality(args)
        return
    if not (DATASETS / "halueval_qa_dev.jsonl").exists():
        print(f"{DATASETS / 'halueval_qa_dev.jsonl'} not found: this benchmark needs it")
        return

    from ragmeter.testing import OpenAIMockServer
    from testset_gen import testing as scripted
    from testset_gen.generator import generate

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        chars = write_documents(folder, args.documents)
        warnings.simplefilter("ignore")

        started = time.perf_counter()
        offline = generate(folder, args.size, judge="local", cache=False)
        offline_wall = time.perf_counter() - started

        with OpenAIMockServer(chat_responder=scripted.respond, latency=args.latency) as server:
            started = time.perf_counter()
            result = generate(folder, args.size, judge=f"openai:mock-writer@{server.base_url}", cache=False,
                              journal=False, concurrency=args.concurrency, judge_options={"timeout": 30.0})
            wall = time.perf_counter() - started
            calls = [r.json for r in server.calls("/chat/completions")]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    kind = {"You summarise": "summary", "You write": "writing", "You review": "critic"}
    counted = {"summary": 0, "writing": 0, "critic": 0}
    for c in calls:
        system = c["messages"][0]["content"]
        counted[next(v for k, v in kind.items() if system.startswith(k))] += 1
    kept = len(result.testset.records)
    stats = result.graph.stats()
    per_question = (counted["writing"] + counted["critic"]) / kept if kept else float("nan")
    print(f"documents: {args.documents} ({chars:,} characters) -> {stats['nodes']['chunk']} chunks, {stats['bridges']} bridges; "
          f"questions asked: {args.size}; mock latency {args.latency * 1000:.0f} ms per call; "
          f"concurrency {args.concurrency}")
    print("| measure | LLM path (mock server) | offline generator |\n|---|---|---|")
    print(f"| questions kept | {kept} ({result.testset.counts()}) | {len(offline.testset.records)} ({offline.testset.counts()}) |")
    print(f"| fixed cost: summary calls (one per document) | {counted['summary']} | 0 |")
    print(f"| writing calls | {counted['writing']} | 0 |")
    print(f"| critic calls (batches of 8) | {counted['critic']} | 0 |")
    print(f"| **calls per kept question beyond the fixed cost** | **{per_question:.2f}** | 0 |")
    print(f"| rejected attempts | {len(result.rejected)} | - |")
    print(f"| prompt tokens (mock count) | {result.usage.prompt_tokens:,} | 0 |")
    print(f"| wall time (ingest, chunk, graph, generate) | {wall:.1f} s | {offline_wall:.1f} s |")
    print(f"| peak memory of the process (max RSS) | {peak:.0f} MB | |")
    print(f"| shortfall | {result.shortfall or 'none'} | {offline.shortfall or 'none'} |")


if __name__ == "__main__":
    main()
