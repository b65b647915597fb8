"""The ``ragmeter`` command line (typer + rich).

Tables go to stdout; progress bars and log lines go to stderr, so ``ragmeter evaluate ... >
table.txt`` captures only the results.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Optional

import typer

from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.conversations import CONVERSATIONS_HELP, RETRIEVAL_TOOL_HELP, conversation_run
from ragmeter.cli.options import judge_option_group
from ragmeter.cli.exits import EXIT_FAILED, check_setup, fail, keys_not_needed, plain_errors
from ragmeter.cli.metric_options import (
    all_prompts, g_eval_option, load_written, metrics_file_option, print_g_eval_steps, print_metrics_file, rubric_option,
    with_written,
)
from ragmeter.cli.tables import nothing_scored, print_result
from ragmeter.data import empty_message
from ragmeter.extras import check
from ragmeter.judges.options import JudgeOptions


@app.command()
@judge_option_group
def evaluate(
    data: Path = typer.Argument(..., help="JSONL, CSV, Parquet or JSON file of samples.", exists=True, dir_okay=False),
    metrics: str = typer.Option("faithfulness,answer_similarity", "--metrics", "-m", help="Comma-separated metric names (see `ragmeter metrics`)."),
    judge: str = typer.Option("local", "--judge", "-j", help="local | local+openai:MODEL (cascade) | openai:MODEL | openai:MODEL@http://host:port/v1 | ollama:MODEL | azure:DEPLOYMENT@URL"),
    embedder: str = typer.Option("local", "--embedder", "-e", help="local | st:NAME_OR_PATH | openai:MODEL[@URL]"),
    out_path: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the full result (scores, reasons, verdicts, usage) as .json or .parquet, sample by sample as they finish (memory stays flat)."),
    concurrency: Optional[int] = typer.Option(None, "--concurrency", "-c", min=1, help="Samples evaluated at once (default 16 with an LLM judge, 64 with the local judge alone)."),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", help="Where the sqlite cache and run journals live (default ~/.cache/ragmeter)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the judge/embedder cache."),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="Reuse the journal of an interrupted identical run."),
    journal: Optional[Path] = typer.Option(None, "--journal", help="Journal file (default: one per run identity in the cache dir)."),
    critique: list[str] = typer.Option([], "--critique", help="A custom aspect critique: NAME=CRITERION (a yes/no question where yes is good; repeatable)."),
    rubric: list[str] = rubric_option(),
    g_eval: list[str] = g_eval_option(),
    metrics_file: Optional[Path] = metrics_file_option(),
    language: Optional[str] = typer.Option(None, "--language", help="Translate the judge's few-shot examples into this language (once, cached)."),
    prompts_file: Optional[Path] = typer.Option(None, "--prompts", help="JSON file of task prompts replacing the defaults (see `ragmeter prompts`).", exists=True, dir_okay=False),
    show_samples: bool = typer.Option(False, "--samples", help="Also print one line per sample."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the LLM calls, tokens and cost the run would spend (cache included), and call no judge."),
    engine: str = typer.Option("local", "--engine", help="local | ray: score on Ray workers, each with its own judge and embedder (pip install 'ragmeter\\[ray]'; see docs/scale.md)."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="With --engine ray: the Ray cluster to use (e.g. auto, ray://HOST:10001); default a local Ray."),
    tag: list[str] = typer.Option([], "--tag", help="Tag the recorded run (repeatable); see `ragmeter runs`."),
    record: bool = typer.Option(True, "--record/--no-record", help="Record the run in the run store (see `ragmeter runs`)."),
    store: Optional[str] = typer.Option(None, "--store", help="Run store: path or SQLAlchemy URL (default $RAGMETER_RUNS, else .ragmeter/runs.db)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log retries and repairs."),
    conversations: bool = typer.Option(False, "--conversations", help=CONVERSATIONS_HELP),
    retrieval_tool: list[str] = typer.Option([], "--retrieval-tool", help=RETRIEVAL_TOOL_HELP),
    judge_options: JudgeOptions = JudgeOptions(),
) -> None:
    """Evaluate a dataset and print a summary table (and write --out).

    Exit code 0 when scores were computed, 1 when nothing could be scored (an empty file,
    every row invalid, every score failed), 2 for a configuration error (a missing key or
    extra, an unknown metric, a bad option)."""
    import os

    from ragmeter.calls.cache import DiskCache
    from ragmeter.api import evaluate as run_evaluate

    setup_logging(verbose)
    if cache_dir is not None:
        os.environ["RAGMETER_CACHE_DIR"] = str(cache_dir)
    cache: DiskCache | bool = False if no_cache else DiskCache((cache_dir / "cache.sqlite") if cache_dir else None)
    from ragmeter.metrics import AspectCritique, get_metric
    from ragmeter.prompts import PromptSet

    with plain_errors():
        chosen: list = [m.strip() for m in metrics.split(",") if m.strip()]
        for spec in critique:
            name, sep, criterion = spec.partition("=")
            if not sep or not name.strip() or not criterion.strip():
                raise typer.BadParameter(f"--critique takes NAME=CRITERION, not {spec!r}")
            chosen.append(AspectCritique(name, criterion))
        chosen = with_written(chosen, "faithfulness,answer_similarity", metrics, rubric, g_eval, metrics_file)
        resolved = [get_metric(m) if isinstance(m, str) else m for m in chosen]
        check_setup(judge, embedder, uses_judge=any(m.uses_judge for m in resolved),
                    uses_embedder=any(m.uses_embedder for m in resolved))
        prompt_set = PromptSet.from_json(prompts_file.read_text(encoding="utf-8")) if prompts_file else None
    if (empty := empty_message(data)) is not None:
        fail(f"nothing to score: {empty}", EXIT_FAILED)
    inputs: Any = data
    if conversations:
        with plain_errors():
            inputs, chosen = conversation_run(data, chosen, retrieval_tool)
    if dry_run:
        from ragmeter.engine import estimate

        with plain_errors(), keys_not_needed():
            guess = estimate(inputs, chosen, judge=judge, embedder=embedder, cache=cache, judge_options=judge_options,
                             prompts=prompt_set, language=language, concurrency=concurrency, show_progress=not quiet)
        out.print(guess.to_text(), markup=False, highlight=False)
        return
    from ragmeter.runs import Record

    recording = Record(store=store, tags=tag) if record else None
    with plain_errors("finished scores are in the journal; run the same command again to resume"):
        # the engine builds the embedder from its spec with the same options (threads, timeout)
        result = run_evaluate(
            inputs,
            chosen,
            judge=judge,
            embedder=embedder,
            concurrency=concurrency,
            cache=cache,
            journal=journal if journal is not None else True,
            resume=resume,
            show_progress=not quiet,
            judge_options=judge_options,
            prompts=prompt_set,
            language=language,
            out=out_path,
            keep_samples=show_samples or out_path is None,
            engine=engine,
            ray_address=ray_address,
            record=recording if recording is not None else False,
        )
    print_result(out, result, show_samples=show_samples)
    if out_path is not None:
        err.print(f"result written to {out_path}")
    if recording is not None and recording.run:
        err.print(f"run recorded as {recording.run} (`ragmeter runs show {recording.run}`)")
    if (nothing := nothing_scored(result, data)) is not None:
        fail(nothing, EXIT_FAILED)


@app.command("metrics")
def list_metrics(
    file: Optional[Path] = typer.Option(None, "--file", help="Check a metrics file (YAML or TOML) and list the metrics it declares.", exists=True, dir_okay=False),
) -> None:
    """List the available metrics with the fields each needs (or check a metrics file)."""
    from rich.table import Table

    if file is not None:
        return print_metrics_file(file)

    from ragmeter.metrics import available_metrics

    table = Table("metric", "needs", "uses", "what it says")
    table.columns[0].no_wrap = True
    table.columns[1].min_width = 18  # a pair of field names on one line, even at 80 columns
    for name, cls in sorted(available_metrics().items()):
        metric = cls()
        uses = [w for w, flag in (("judge", metric.uses_judge), ("embedder", metric.uses_embedder)) if flag]
        doc = (cls.__doc__ or sys.modules[cls.__module__].__doc__ or "").strip().splitlines()[0]
        doc = doc.split(":", 1)[-1].strip() if ":" in doc[:40] else doc
        table.add_row(name, ", ".join(cls.required), ", ".join(uses) or "-", doc)
    out.print(table)


@app.command("prompts")
def show_prompts(
    out_path: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the prompts as JSON, to edit and pass back with `evaluate --prompts`."),
    g_eval: list[str] = g_eval_option(),
    metrics_file: Optional[Path] = metrics_file_option(),
    judge: Optional[str] = typer.Option(None, "--judge", "-j", help="With --g-eval or --metrics-file: the judge that writes G-Eval's evaluation steps (once, cached), printed after the prompts."),
) -> None:
    """Show every task prompt the LLM judge receives (instruction and few-shot example)."""
    written = load_written(g_eval, metrics_file)  # a Python metric's module registers its prompt
    prompts = all_prompts()

    if out_path is not None:
        out_path.write_text(prompts.to_json(), encoding="utf-8")
        err.print(f"prompts written to {out_path}")
        return
    for name, prompt in prompts.items():
        out.rule(name)
        out.print(prompt.instruction, markup=False, highlight=False)
        out.print(prompt.render_examples(), markup=False, highlight=False, style="dim")
    print_g_eval_steps(written, judge)


@app.command()
def demo(
    out_dir: Path = typer.Option(Path("ragmeter-demo"), "--out", "-o", help="Where to write the test set, answers, scores and report."),
    size: int = typer.Option(12, "--size", "-n", min=1, help="Questions to generate."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars."),
) -> None:
    """The whole chain offline: generate a test set from bundled documents, run a bundled
    RAG app over it, evaluate with the local judge, write the HTML report, apply the gate."""
    with plain_errors():
        check("local", "the demo (it uses the local judge)")
        check("docs", "the demo (it reads documents)")
    from ragmeter.demo.chain import run_demo

    setup_logging(False)
    err.print("[bold]ragmeter demo[/bold]: documents -> test set -> app -> scores -> report -> gate, "
              "offline (local judge: spaCy + MiniLM; an LLM judge is one --judge away in each step's command)")
    outcome = run_demo(out_dir, size=size, show_progress=not quiet,
                       log=lambda line: out.print(line, markup=False, highlight=False))
    gate = outcome.gate
    out.print(gate.to_text() if hasattr(gate, "to_text") else gate.to_markdown(), markup=False, highlight=False)
    verdict = "[green]PASS[/green]" if gate.passed else "[red]FAIL[/red]"
    out.print(f"5. gate: {verdict}")
    total = sum(outcome.seconds.values())
    out.print(f"done in {total:.0f} s. Open the report: [bold]{outcome.report.resolve()}[/bold]")


# the other commands live in their own files and register themselves on ``app`` (from
# ``cli.console``, so none of them imports this module back)
from ragmeter.cli import align as _align_commands  # noqa: E402,F401
from ragmeter.cli import annotate as _annotate_commands  # noqa: E402,F401
from ragmeter.cli import gate as _gate_commands  # noqa: E402,F401
from ragmeter.cli import generate as _generate_commands  # noqa: E402,F401
from ragmeter.cli import hub as _hub_commands  # noqa: E402,F401
from ragmeter.cli import ingest as _ingest_commands  # noqa: E402,F401
from ragmeter.cli import monitor as _monitor_commands  # noqa: E402,F401
from ragmeter.cli import report as _report_commands  # noqa: E402,F401
from ragmeter.cli import review as _review_commands  # noqa: E402,F401
from ragmeter.cli import run as _run_commands  # noqa: E402,F401
from ragmeter.cli import runs as _runs_commands  # noqa: E402,F401
from ragmeter.cli import ui as _ui_commands  # noqa: E402,F401


def main() -> None:
    app()


if __name__ == "__main__":
    main()
