"""``ragmeter monitor``: score a window of production traffic and alert (exit 1) on a drop.

A malformed line, span or record of the traffic is named on stderr ("skipped: FILE, line N,
...") and left out; the good records are sampled and scored, and the exit code is theirs.
Exit 1 as well when nothing was scored: no record could be read, or none is in the window.

Traces whose spans carry session ids (a chat app's) are scored as conversations, one per
session, unless ``--single-turn`` says otherwise; ``--conversations`` forces it (for JSON
Lines of conversation records too).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.exits import EXIT_FAILED, fail, plain_errors, print_error
from ragmeter.cli.options import judge_option_group
from ragmeter.judges.options import JudgeOptions


@app.command("monitor")
@judge_option_group
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
    conversations: Optional[bool] = typer.Option(None, "--conversations/--single-turn", help="Score chats: OTLP traces grouped by session id (or JSON Lines of conversation records), one conversation per session. Default: chats when the traces carry session ids."),
    retrieval_tool: list[str] = typer.Option([], "--retrieval-tool", help="With chats: a tool whose results are a turn's contexts when it has no retriever span (repeatable)."),
    judge_options: JudgeOptions = JudgeOptions(),
) -> None:
    """Sample the traffic window, score it, record it tagged 'production', and exit 1 when a
    metric fell below the recent production runs by more than this run's interval."""
    from ragmeter.traces import InputProblem
    from ragmeter.monitor import monitor as run_monitor

    setup_logging(False)

    def named(problem: InputProblem) -> None:
        print_error(str(problem), label="skipped", style="yellow")

    with plain_errors():
        report = run_monitor(traffic, metrics=[m.strip() for m in metrics.split(",") if m.strip()], judge=judge,
                             hours=hours or None, size=size, seed=seed, store=store, tags=tag, recent=recent,
                             show_progress=not quiet, on_problem=named, judge_options=judge_options,
                             conversations=conversations, retrieval_tools=retrieval_tool)
    if report.run is None:
        if report.records == 0 and report.skipped:
            fail(f"nothing could be read from the traffic: {len(report.skipped)} malformed part(s), each named above",
                 EXIT_FAILED)
        if report.records == 0:
            fail("nothing scored: the traffic holds no records", EXIT_FAILED)
        fail(f"no traffic in the window: {report.records} records read, none in the last {hours or 0:g} hours; nothing "
             "scored", EXIT_FAILED)
    unit = "conversations" if report.conversations else "samples"
    out.print(f"scored {report.sampled} of {report.window} {unit} in the window; recorded as run {report.run}",
              highlight=False)
    if report.skipped:
        err.print(f"{len(report.skipped)} malformed part(s) of the traffic skipped, each named above", highlight=False)
    for watch in report.metrics:
        out.print(("[red]ALERT[/red] " if watch.alert else "") + watch.message(), highlight=False)
    if report.alert:
        dropped = ", ".join(w.metric for w in report.metrics if w.alert)
        err.print(f"[red]ALERT:[/red] {dropped} dropped against the last production runs")
        raise typer.Exit(1)
