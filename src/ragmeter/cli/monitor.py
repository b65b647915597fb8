"""``ragmeter monitor``: score a window of production traffic and alert (exit 1) on a drop."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.exits import print_error


@app.command("monitor")
def monitor(
    traffic: list[Path] = typer.Argument(..., help="OTLP JSON traces or JSON Lines records (from `ragmeter ingest` or the callback handlers).", exists=True, dir_okay=False),
    metrics: str = typer.Option("faithfulness,answer_relevancy", "--metrics", "-m", help="Comma-separated metrics (traffic has no reference answers)."),
    judge: str = typer.Option("local", "--judge", "-j", help="local | local+openai:MODEL (the cascade) | any judge spec."),
    hours: Optional[float] = typer.Option(24.0, "--window", help="Hours of traffic to sample from (by metadata.started); 0 for all."),
    size: int = typer.Option(200, "--sample", "-n", min=1, help="Samples scored from the window."),
    seed: int = typer.Option(0, "--seed", help="Sampling seed."),
    recent: int = typer.Option(5, "--recent", min=1, help="Recent production runs to compare with."),
    tag: list[str] = typer.Option([], "--tag", help="More tags for the recorded run (it always gets 'production')."),
    store: Optional[str] = typer.Option(None, "--store", help="Run store: a path or SQLAlchemy URL (default $RAGMETER_RUNS, else .ragmeter/runs.db)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Sample the traffic window, score it, record it tagged 'production', and exit 1 when a
    metric fell below the recent production runs by more than this run's interval."""
    from ragmeter.monitor import monitor as run_monitor

    setup_logging(False)
    try:
        report = run_monitor(traffic, metrics=[m.strip() for m in metrics.split(",") if m.strip()], judge=judge,
                             hours=hours or None, size=size, seed=seed, store=store, tags=tag, recent=recent,
                             show_progress=not quiet)
    except (ValueError, FileNotFoundError) as exc:
        print_error(str(exc))  # masked: it may name the store or judge URL
        raise typer.Exit(2)
    if report.run is None:
        err.print(f"no traffic in the window ({report.window} records): nothing scored")
        raise typer.Exit(2)
    out.print(f"scored {report.sampled} of {report.window} samples in the window; recorded as run {report.run}",
              highlight=False)
    for watch in report.metrics:
        out.print(("[red]ALERT[/red] " if watch.alert else "") + watch.message(), highlight=False)
    if report.alert:
        dropped = ", ".join(w.metric for w in report.metrics if w.alert)
        err.print(f"[red]ALERT:[/red] {dropped} dropped against the last production runs")
        raise typer.Exit(1)
