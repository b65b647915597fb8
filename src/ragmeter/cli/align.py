"""``ragmeter align``: how far a judge agrees with people's labels (or with a bundled
benchmark), per metric and judge layout, with bootstrap intervals; ``--optimize`` tunes
the judge's prompts on a train split and reports the test split."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.exits import check_setup, plain_errors
from ragmeter.cli.metric_options import g_eval_option, metrics_file_option, rubric_option, with_metric_objects
from ragmeter.cli.options import judge_option_group
from ragmeter.extras import check
from ragmeter.judges.options import JudgeOptions
from ragmeter.cli.readable import print_line, print_table

LAYOUT_CHOICES = {"bundled": ("bundled",), "per_task": ("per_task",), "both": ("bundled", "per_task")}


def parse_thresholds(values: list[str]) -> dict[str, float]:
    thresholds: dict[str, float] = {}
    for value in values:
        for item in value.split(","):
            name, sep, number = item.partition("=")
            try:
                if not sep or not 0.0 <= float(number) <= 1.0:
                    # internal: caught just below and given to typer as BadParameter
                    raise ValueError
            except ValueError:
                raise typer.BadParameter(f"--threshold takes METRIC=VALUE with VALUE in [0, 1], not {item!r}")
            thresholds[name.strip()] = float(number)
    return thresholds


def print_report(report, show: int, console: Console = out) -> None:
    """Agreement per layout and metric, the layouts side by side, the confusion tables and
    the first ``show`` disagreements of each metric, on ``console``: tables drawn on a
    terminal, turned on a narrow one, plain rows in a pipe (``ragmeter.cli.readable``)."""
    if report.benchmark is not None:
        b = report.benchmark
        fmt = lambda v: "n/a" if v is None else f"{v:.3f}"  # noqa: E731
        table = Table("benchmark", "answers", "AUROC", "AUROC length-matched", "pair acc.",
                      "pair acc. length-matched", "length baseline AUROC (all / matched)",
                      title=f"{b.benchmark}: {b.metric} vs the faithful label "
                            f"({b.questions} questions, {b.length_matched_pairs} length-matched pairs)")
        table.add_row(b.benchmark, f"{b.scored}/{b.answers}", fmt(b.auroc), fmt(b.auroc_length_matched),
                      fmt(b.pair_accuracy), fmt(b.pair_accuracy_length_matched),
                      f"{fmt(b.baseline_length_auroc)} / {fmt(b.baseline_length_auroc_length_matched)}")
        print_table(console, table)
    for run in report.runs:
        table = Table("metric", "n", "accuracy", "balanced acc.", "Cohen's kappa", "Spearman", "Kendall",
                      "pairwise acc.", "judge mean", "label mean",
                      title=f"agreement with the labels: judge {run.judge}, layout {run.layout} "
                            "(value [95% bootstrap interval])")
        for name, m in run.metrics.items():
            failed = f" ({sum(m.judge_errors.values())} not scored)" if m.judge_errors else ""
            table.add_row(name, f"{m.n}{failed}", m.accuracy.text(), m.balanced_accuracy.text(),
                          m.cohen_kappa.text(), m.spearman.text(), m.kendall.text(), m.pairwise_accuracy.text(),
                          "n/a" if m.judge_mean is None else f"{m.judge_mean:.3f}",
                          "n/a" if m.label_mean is None else f"{m.label_mean:.3f}")
        print_table(console, table)
    if len(report.runs) > 1:
        table = Table("layout", "calls", "prompt tokens", "completion tokens", "seconds",
                      *(f"{n} bal. acc." for n in report.runs[0].metrics),
                      title="layouts side by side (calls and tokens include cache hits: what a cold run costs)")
        for run in report.runs:
            table.add_row(run.layout, str(run.calls), str(run.prompt_tokens), str(run.completion_tokens),
                          f"{run.seconds:.1f}", *(m.balanced_accuracy.text() for m in run.metrics.values()))
        print_table(console, table)
    first = report.runs[0]
    for name, m in first.metrics.items():
        c = m.confusion
        print_line(console, f"{name} at threshold {m.threshold:g}: judge yes & person yes {c['tp']}, judge yes & "
                   f"person no {c['fp']}, judge no & person yes {c['fn']}, judge no & person no {c['tn']}")
        for d in m.disagreements[:show]:
            who = d.id or f"row {d.row}"
            note = f"; person: {d.note}" if d.note else ""
            print_line(console, f"  {who}: judge {d.score:.2f}, person {d.label:g}: {d.reason}{note}")
        if len(m.disagreements) > show:
            print_line(console, f"  ... and {len(m.disagreements) - show} more disagreements (--json has them all)")


def _optimize(labels, chosen, judge, embedder, prompt_set, test_share, seed, thresholds, options, cache,
              resamples, quiet, prompts_out: Path) -> None:
    from ragmeter.align.optimize import optimize_prompts

    metric = (chosen or labels.metrics())[0]
    report, best = optimize_prompts(
        labels, metric, judge=judge, embedder=embedder, prompts=prompt_set, test_share=test_share, seed=seed,
        threshold=thresholds.get(getattr(metric, "name", metric), 0.5), judge_options=options, cache=cache, resamples=resamples,
        show_progress=not quiet)
    table = Table("variant", "train balanced acc.", title=f"{report.metric}: prompt {report.prompt!r} variants on the train "
                  f"split ({report.train} samples, seed {report.seed}); chosen: {report.chosen}")
    for v in report.variants:
        table.add_row(v.name, "n/a" if v.train_agreement is None else f"{v.train_agreement:.3f}")
    out.print(table)
    table = Table("test split", "n", "accuracy", "balanced acc.", "Cohen's kappa", "pairwise acc.",
                  title=f"held-out test split ({report.test} samples): the result")
    for label, m in (("before (baseline prompts)", report.test_before), (f"after ({report.chosen})", report.test_after)):
        table.add_row(label, str(m.n), m.accuracy.text(), m.balanced_accuracy.text(), m.cohen_kappa.text(),
                      m.pairwise_accuracy.text())
    out.print(table)
    for note in report.notes:
        err.print(f"[yellow]note:[/yellow] {note}", highlight=False)
    prompts_out.write_text(best.to_json(), encoding="utf-8")
    err.print(f"prompt set written to {prompts_out} (use it with --prompts)")


@app.command("align")
@judge_option_group
def align_command(
    labels_path: Optional[Path] = typer.Argument(None, metavar="LABELS", help="Labels file: JSONL of samples with \"labels\": {metric: 0/1 or [0, 1]} (and an optional \"note\")."),
    metrics: Optional[str] = typer.Option(None, "--metrics", "-m", help="Comma-separated metrics (default: every metric with labels)."),
    judge: str = typer.Option("local", "--judge", "-j", help="The judge to check (as in `ragmeter evaluate --judge`)."),
    embedder: str = typer.Option("local", "--embedder", "-e", help="local | st:NAME_OR_PATH | openai:MODEL[@URL]"),
    benchmark: Optional[str] = typer.Option(None, "--benchmark", help="Check the judge on a bundled labelled set instead: halueval (500 rows of HaluEval QA, MIT)."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Only the first N labelled samples (with --benchmark: the first N questions, both answers)."),
    layout: str = typer.Option("bundled", "--layout", help="How the LLM judge is asked: bundled (one call per phase) | per_task (one call per kind of judgement) | both (side by side)."),
    threshold: list[str] = typer.Option([], "--threshold", help="METRIC=VALUE: the pass mark for yes/no statistics (default 0.5); repeatable."),
    confidence: float = typer.Option(0.95, "--confidence", min=0.5, max=0.999, help="Confidence of the bootstrap intervals."),
    resamples: int = typer.Option(1000, "--resamples", min=100, help="Bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap (and of the --optimize split)."),
    prompts_file: Optional[Path] = typer.Option(None, "--prompts", help="JSON file of task prompts replacing the defaults.", exists=True, dir_okay=False),
    result_path: Optional[Path] = typer.Option(None, "--result", help="A result file of the same judge: also print its metrics' prediction-powered means (corrected by the judge's measured bias)."),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write the whole report (every statistic, interval and disagreement) as JSON to this file; - prints it on stdout (the tables then go to stderr)."),
    show: int = typer.Option(10, "--show", min=0, help="Disagreements printed per metric."),
    rubric: list[str] = rubric_option(),
    g_eval: list[str] = g_eval_option(),
    metrics_file: Optional[Path] = metrics_file_option(),
    optimize: bool = typer.Option(False, "--optimize", help="Tune the judge's prompt for the (first) metric on a seeded train split: few-shot examples from disagreements, instructions rewritten by the judge; report test agreement before and after."),
    test_share: float = typer.Option(0.5, "--test-share", min=0.05, max=0.95, help="With --optimize: share of the labels held out for the test split."),
    prompts_out: Path = typer.Option(Path("prompts.optimized.json"), "--prompts-out", help="With --optimize: where to write the chosen prompt set (for --prompts)."),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", help="Where the sqlite cache lives (default ~/.cache/ragmeter)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the judge/embedder cache."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log retries and repairs."),
    judge_options: JudgeOptions = JudgeOptions(),
) -> None:
    """Measure a judge's agreement with people: accuracy, balanced accuracy, Cohen's kappa,
    Spearman, Kendall and pairwise accuracy with bootstrap intervals, the confusion table and
    the disagreements with the judge's reasons and the person's notes."""
    import os

    from ragmeter.align import align, load_labels, ppi_summary
    from ragmeter.align.labels import describe_errors
    from ragmeter.calls.cache import DiskCache
    from ragmeter.prompts import PromptSet

    setup_logging(verbose)
    if layout not in LAYOUT_CHOICES:
        raise typer.BadParameter(f"--layout takes bundled, per_task or both, not {layout!r}")
    if (labels_path is None) == (benchmark is None):
        err.print("[red]error:[/red] give a LABELS file or --benchmark halueval (one of them)")
        raise typer.Exit(2)
    with plain_errors():
        # on a core install every row would fail (the local judge) or every statistic be n/a
        # (scipy, scikit-learn), and the command would still exit 0: one line instead, exit 2
        check_setup(judge, None, uses_judge=True, uses_embedder=False)
        check("align", "ragmeter align's agreement statistics")
    if cache_dir is not None:
        os.environ["RAGMETER_CACHE_DIR"] = str(cache_dir)
    cache = False if no_cache else DiskCache((cache_dir / "cache.sqlite") if cache_dir else None)
    chosen = [m.strip() for m in metrics.split(",") if m.strip()] if metrics else None
    with plain_errors():
        chosen = with_metric_objects(chosen, rubric, g_eval, metrics_file)  # rubrics, G-Eval: by name
    prompt_set = PromptSet.from_json(prompts_file.read_text(encoding="utf-8")) if prompts_file else None
    try:
        labels = load_labels(labels_path) if labels_path is not None else None
        for line in describe_errors(labels) if labels is not None else []:
            err.print(f"[yellow]skipped:[/yellow] {line}", markup=True, highlight=False)
        if optimize:
            from ragmeter.align.benchmark import load_benchmark

            _optimize(labels if labels is not None else load_benchmark(benchmark or "", limit), chosen, judge, embedder,
                      prompt_set, test_share, seed, parse_thresholds(threshold), judge_options, cache,
                      resamples, quiet, prompts_out)
            return
        report = align(
            labels, chosen, judge=judge, embedder=embedder, layouts=LAYOUT_CHOICES[layout], benchmark=benchmark,
            limit=limit, thresholds=parse_thresholds(threshold), prompts=prompt_set, cache=cache,
            judge_options=judge_options,
            confidence=confidence, resamples=resamples, seed=seed, show_progress=not quiet,
        )
    except (ValueError, TypeError, FileNotFoundError, KeyError) as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2)
    to_stdout = json_path is not None and str(json_path) == "-"
    shown = err if to_stdout else out  # with --json -, stdout carries the JSON alone
    print_report(report, show, shown)
    if result_path is not None:
        from ragmeter.result import EvaluationResult

        try:
            run = EvaluationResult.load(result_path)
        except (OSError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
            err.print(f"[red]error:[/red] {result_path} is not a ragmeter result file: {str(exc).splitlines()[0]}",
                      highlight=False)
            raise typer.Exit(2)
        means = ppi_summary(run, report, confidence=confidence)
        table = Table("metric", "judge mean (naive)", "people, labels only", "prediction-powered",
                      title=f"means of {result_path.name} with {confidence:.0%} intervals")
        for name, s in means.items():
            table.add_row(name, *(f"{m.mean:.3f} [{m.low:.3f}, {m.high:.3f}]" for m in (s.naive, s.labels_only, s.ppi)))
        print_table(shown, table)
    if to_stdout:
        typer.echo(report.to_json())
    elif json_path is not None:
        json_path.write_text(report.to_json(), encoding="utf-8")
        err.print(f"report written to {json_path}")
