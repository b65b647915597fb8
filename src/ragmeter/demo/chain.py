"""The whole chain, offline, in one call: documents -> test set -> app -> scores -> report -> gate.

What ``ragmeter demo`` runs, and the shape of a team's own pipeline: generate a test set
from the bundled documents (the offline generator), run the bundled app over it
(``app.DemoRAG``: MiniLM retriever, extractive answerer), evaluate the answers with the
local judge, write the HTML report, and apply the gate. Every artefact is written to
``out_dir`` so each step can be looked at (and rerun with the CLI on its own).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

DEMO_DOCS = Path(__file__).resolve().parent.parent / "sample_data" / "docs"
DEMO_METRICS = ["faithfulness", "answer_relevancy", "context_precision", "context_recall",
                "answer_correctness", "id_context_recall"]
DEMO_MINIMUMS = {"faithfulness": 0.5, "context_recall": 0.5, "id_context_recall": 0.5}
"""Floors for the demo's gate: modest, as for a first version of an app."""


@dataclass
class DemoOutcome:
    out_dir: Path
    testset: Path
    dataset: Path
    result: Path
    report: Path
    gate: Any
    seconds: dict[str, float] = field(default_factory=dict)


def run_demo(out_dir: str | Path, *, size: int = 12, seed: int = 0, show_progress: bool = True,
             log: Callable[[str], None] = print) -> DemoOutcome:
    from ragmeter.adapters import run_app
    from ragmeter.demo.app import DemoRAG, Passage
    from ragmeter.api import evaluate
    from ragmeter.gate import check
    from ragmeter.report import write_report
    from testset_gen.generator import generate

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    seconds: dict[str, float] = {}

    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        generated = generate(DEMO_DOCS, size, judge="local", seed=seed, cache=False)
    testset_path = generated.testset.to_jsonl(out / "testset.jsonl")
    generated.graph.save(out / "graph.json")
    seconds["generate"] = time.perf_counter() - started
    stats = generated.graph.stats()
    log(f"1. test set: {len(generated.testset)} questions {generated.testset.counts()} from "
        f"{stats['nodes']['document']} documents ({stats['nodes']['chunk']} chunks) -> {testset_path}")
    for w in caught:
        log(f"   note: {w.message}")

    started = time.perf_counter()
    app = DemoRAG([Passage(c.id, c.text) for c in generated.graph.chunks()], k=3)
    ran = run_app(generated.testset, app, concurrency=4, show_progress=show_progress)
    dataset_path = out / "dataset.jsonl"
    ran.dataset.save(dataset_path)
    seconds["run app"] = time.perf_counter() - started
    log(f"2. app: {ran.answered} of {len(ran.dataset)} questions answered by the bundled RAG app -> {dataset_path}")

    started = time.perf_counter()
    result = evaluate(ran.dataset, DEMO_METRICS, judge="local", embedder="local", journal=False,
                      show_progress=show_progress)
    result_path = result.save(out / "result.json")
    seconds["evaluate"] = time.perf_counter() - started
    score = result.summary_score()
    log(f"3. scores (local judge): " + ", ".join(
        f"{k} {v.mean:.2f}" for k, v in result.summary().items() if v.mean is not None)
        + (f"; summary score {score:.2f}" if score is not None else "") + f" -> {result_path}")

    started = time.perf_counter()
    report_path = write_report(result, out / "report.html", title="ragmeter demo")
    seconds["report"] = time.perf_counter() - started
    log(f"4. report -> {report_path}")

    gate = check(result, DEMO_MINIMUMS)
    return DemoOutcome(out, testset_path, dataset_path, result_path, report_path, gate, seconds)
