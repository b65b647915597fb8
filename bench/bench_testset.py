"""Test-set generation: usable records (offline generator) and LLM calls per question.

    .venv/bin/python bench/bench_testset.py quality [--out DIR] [--size 100]
    .venv/bin/python bench/bench_testset.py cost [--documents 100] [--size 100] [--latency 0.2]
        [--paths offline,evolutions,synthesizers] [--critic-reject 0.3]

``quality``: the offline generator (``judge="local"``) on two folders assembled at bench
time from openly licensed prose (``testset_folders``: HaluEval passages, MIT; this
project's docs and 102 package READMEs, MIT/BSD/Apache/ISC/PSF), nothing committed. Per folder:
records asked and written per evolution type, the filter's rejections by reason, and the
share of written records passing the automatic rubric check: the filter's own checks run
again (``record_filter.rule_reasons`` and the local judge's ``judge_reasons``) AND the
separate checker (``check_testset.py``, rules written apart from the filter). The records
are written to ``--out`` for the hand ratings bench/HISTORY.md reports.

``cost``: the two LLM paths (evolutions, and the synthesizers with personas and query
styles) through the local OpenAI-compatible mock server answering every request after
``--latency`` seconds with the scripted writer and critic (``testset_gen.testing``): calls
split into the fixed cost (evolutions: one summary per document; synthesizers: one
enrichment call per 6 chunks of a document and one persona call) and the cost per question
(writing calls, critic calls, rejected attempts and repair re-asks included); and the
offline generator's wall time on the same folder. ``--critic-reject 0.3`` makes the
synthesizer critic reject 30% of the records, to measure what rejections cost. Documents: each a Markdown file of 6
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
    from testset_gen.offline.candidate import Candidate
    from testset_gen.offline.record_filter import FilterInput, judge_reasons, rule_reasons
    from testset_gen.offline.structure_checks import structure_reasons

    def candidate(r):
        return Candidate(r.evolution_type, r.question, r.ground_truth, tuple(r.reference_context_ids),
                         (), structural=str(r.metadata.get("template", "")).startswith("structure:"))

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
              "| from structure | wall time |\n|---|---|---|---|---|---|---|---|---|---|")
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
                                          "which_first": "first", "span_years": "span",
                                          "doc:newer_python": "newer_python",
                                          "doc:oldest_python": "oldest_python",
                                          "doc:shared_fact": "shared_fact",
                                          "doc:which_licence": "which_licence",
                                          "doc:python_support": "python_support",
                                          "doc:cause": "cause",
                                          "doc:consequence": "consequence"}.get(r.metadata.get("template"), ""),
                                 pages=tuple(r.metadata.get("pages", ())) or (
                                     (r.metadata["page"],) if r.metadata.get("page") else ()))
                     for r in records]
            verdicts = judge_reasons(items)
            # a structure record is re-checked by the checks it passed (``structure_checks``;
            # a sentence made from a table row or a list is not re-judged for support)
            refilter = [not (structure_reasons(candidate(r)) if candidate(r).structural else rule_reasons(i))
                        and not [x for x in v if not (x == "unsupported" and r.metadata.get("constructed"))]
                        for r, i, v in zip(records, items, verdicts)]
            checker = [not check(r.model_dump()) for r in records]
            both = sum(a and b for a, b in zip(refilter, checker))
            counts = result.testset.counts()
            reasons: dict[str, int] = {}
            for per in result.rejections_by_type().values():
                for k, v in per.items():
                    reasons[k] = reasons.get(k, 0) + v
            top = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])[:4])
            structural = sum(str(r.metadata.get("template", "")).startswith("structure:") for r in records)
            n = len(records) or 1
            print(f"| {name} | {len(list(folder.iterdir()))}, {chars[name]:,} | {args.size} | {len(records)} "
                  f"({counts['simple']} / {counts['reasoning']} / {counts['multi_context']}) | {top} | "
                  f"{sum(refilter) / n:.0%} | {sum(checker) / n:.0%} | {both / n:.0%} | {structural} | {wall:.0f} s |")
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
    parser.add_argument("--paths", default="offline,evolutions,synthesizers", help="cost: which generators")
    parser.add_argument("--synthesizers", default="single_hop_specific=0.5,multi_hop_specific=0.25,multi_hop_abstract=0.25")
    parser.add_argument("--critic-reject", type=float, default=0.0,
                        help="cost: share of synthesized records the scripted critic rejects")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.mode == "quality":
        quality(args)
        return
    if not (DATASETS / "halueval_qa_dev.jsonl").exists():
        print(f"{DATASETS / 'halueval_qa_dev.jsonl'} not found: this benchmark needs it")
        return

    cost(args)


KINDS = {"You summarise": "summary", "You write evaluation": "writing", "You review evaluation": "critic",
         "You index documents": "enrichment", "You design user personas": "personas",
         "You write test queries": "writing", "You review test records": "critic"}


def rejecting(respond, share: float):
    """The scripted responder, with its synthesizer critic rejecting ``share`` of the records
    (those whose query hashes below it: deterministic, spread over the set), to measure the
    cost of rejected attempts the always-accepting script hides."""
    import hashlib
    import json

    def answer(request):
        content = respond(request)
        if share <= 0 or not request["messages"][0]["content"].startswith("You review test records"):
            return content
        reply = json.loads(content)
        queries = request["messages"][1]["content"].split("<query>\n")[1:]
        for review, query in zip(reply["reviews"], queries):
            digest = hashlib.sha256(query.split("\n</query>")[0].encode()).digest()
            if digest[0] / 256 < share:
                review.update(answerable=False, reason="rejected by the bench's share")
        return json.dumps(reply)

    return answer


def synthesis_checks(result) -> dict[str, str]:
    """Record by record: the metadata every synthesized record must carry, and multi-hop
    records citing two or more chunks linked in the graph by the edge kind they name."""
    from collections import Counter

    from testset_gen.llm.scenarios import Scenario, linked

    records = result.testset.records
    keys = ("synthesizer", "persona", "query_style", "query_length", "chunk_ids", "document_ids")
    full = sum(all(r.metadata.get(k) for k in keys) and r.metadata["chunk_ids"] == r.reference_context_ids
               for r in records)
    multi = [r for r in records if r.metadata.get("synthesizer", "").startswith("multi_hop")]
    ok = sum(len(set(r.reference_context_ids)) >= 2 and linked(result.graph, Scenario(
        r.metadata["synthesizer"], tuple(r.reference_context_ids), r.metadata["topic"], r.metadata["link"]))
        for r in multi)
    cross = sum(len(set(r.metadata["document_ids"])) >= 2 for r in multi)
    styles = Counter(r.metadata.get("query_style") for r in records)
    return {"records with synthesizer, persona, style, length, chunk and document ids": f"{full} of {len(records)}",
            "multi-hop records citing >= 2 chunks linked in the graph": f"{ok} of {len(multi)} ({cross} across documents)",
            "query styles": ", ".join(f"{k} {v}" for k, v in sorted(styles.items())),
            "personas used": str(len({r.metadata.get('persona') for r in records}))}


def cost(args: argparse.Namespace) -> None:
    from ragmeter.testing import OpenAIMockServer
    from testset_gen import testing as scripted
    from testset_gen.generator import generate

    paths = args.paths.split(",")
    rows: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        chars = write_documents(folder, args.documents)
        warnings.simplefilter("ignore")
        graph_stats = None
        for path in paths:
            options = {} if path != "synthesizers" else {"synthesizers": args.synthesizers}
            if path == "offline":
                started = time.perf_counter()
                result = generate(folder, args.size, judge="local", cache=False)
                calls: list[dict] = []
            else:
                responder = rejecting(scripted.respond, args.critic_reject if path == "synthesizers" else 0.0)
                with OpenAIMockServer(chat_responder=responder, latency=args.latency) as server:
                    started = time.perf_counter()
                    result = generate(folder, args.size, judge=f"openai:mock-writer@{server.base_url}", cache=False,
                                      journal=False, concurrency=args.concurrency,
                                      judge_options={"timeout": 30.0}, **options)
                    calls = [r.json for r in server.calls("/chat/completions")]
            wall = time.perf_counter() - started
            graph_stats = graph_stats or result.graph.stats()
            counted = {k: 0 for k in ("summary", "enrichment", "personas", "writing", "critic")}
            for c in calls:
                system = c["messages"][0]["content"]
                counted[next(v for k, v in KINDS.items() if system.startswith(k))] += 1
            kept = len(result.testset.records)
            fixed = counted["summary"] + counted["enrichment"] + counted["personas"]
            per_question = (counted["writing"] + counted["critic"]) / kept if kept else float("nan")
            rows[path] = {
                "questions kept (per kind)": f"{kept} ({', '.join(f'{k} {v}' for k, v in result.written().items())})",
                "fixed cost: summary calls (evolutions; one per document)": str(counted["summary"]),
                "fixed cost: enrichment calls (synthesizers; one per 6 chunks of a document)": str(counted["enrichment"]),
                "fixed cost: persona calls": str(counted["personas"]),
                "fixed calls per document": f"{fixed / args.documents:.2f}",
                "writing calls (repair re-asks included)": str(counted["writing"]),
                "critic calls (batches of 8)": str(counted["critic"]),
                "**calls per kept question beyond the fixed cost**": f"**{per_question:.2f}**" if calls else "0",
                "rejected (LLM: attempts; offline: filtered candidates)": str(
                    sum(sum(v.values()) for v in result.rejections_by_type().values())),
                "prompt tokens (mock count)": f"{result.usage.prompt_tokens:,}" if result.usage else "0",
                "wall time (ingest, chunk, graph, generate)": f"{wall:.1f} s",
                "shortfall": str(result.shortfall or "none"),
            }
            if path == "synthesizers":
                rows[path].update(synthesis_checks(result))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    stats = graph_stats or {}
    print(f"documents: {args.documents} ({chars:,} characters) -> {stats['nodes']['chunk']} chunks, {stats['bridges']} bridges; "
          f"questions asked: {args.size}; mock latency {args.latency * 1000:.0f} ms per call; "
          f"concurrency {args.concurrency}; synthesizer critic rejects {args.critic_reject:.0%}")
    names = {"offline": "offline generator", "evolutions": "LLM evolutions (mock server)",
             "synthesizers": "LLM synthesizers (mock server)"}
    print("| measure | " + " | ".join(names[p] for p in paths) + " |\n|---|" + "---|" * len(paths))
    for measure in dict.fromkeys(m for row in rows.values() for m in row):
        print(f"| {measure} | " + " | ".join(rows[p].get(measure, "-") for p in paths) + " |")
    print(f"peak memory of the process (max RSS): {peak:.0f} MB")

if __name__ == "__main__":
    main()
