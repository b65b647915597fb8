"""``ragmeter runs``: the recorded runs, listed, shown, compared, exported and deleted."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from ragmeter.cli.console import app, err, out
from ragmeter.cli.exits import print_error

runs_app = typer.Typer(help="Runs recorded by `ragmeter evaluate` (see docs/runs.md).", no_args_is_help=True)
app.add_typer(runs_app, name="runs")

STORE_HELP = "Run store: a path or SQLAlchemy URL (default $RAGMETER_RUNS, else .ragmeter/runs.db)."


def when(epoch: float | None) -> str:
    if epoch is None:
        return ""
    return datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def open_store(store: Optional[str]):
    from ragmeter.calls.redact import mask_secrets
    from ragmeter.runs import RunStore

    try:
        return RunStore(store)
    except Exception as exc:  # a bad URL, a missing driver, a database that is down
        # the URL as typed holds its password, and a driver's message may quote it
        print_error(mask_secrets(f"cannot open the run store {store or ''}: {exc}"))
        raise typer.Exit(2)


def _resolve(store, run: str) -> str:
    from ragmeter.runs import RunNotFound

    try:
        return store.resolve(run)
    except RunNotFound as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2)


def _load(store, run: str):
    from ragmeter.runs import RunNotFound

    try:
        return store.load(run)
    except RunNotFound as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2)


@runs_app.command("list")
def list_runs(
    tag: Optional[str] = typer.Option(None, "--tag", help="Only runs with this tag."),
    branch: Optional[str] = typer.Option(None, "--branch", help="Only runs made on this git branch."),
    dataset: Optional[str] = typer.Option(None, "--dataset", help="Only runs of this test set: its file name or fingerprint prefix."),
    limit: int = typer.Option(20, "--limit", "-n", min=1, help="Newest runs shown."),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """List recorded runs, newest first, with each metric's mean."""
    with open_store(store) as the_store:
        runs = the_store.list(tag=tag, branch=branch, dataset=dataset, limit=limit)
    if not runs:
        err.print("no runs recorded" + (" matching the filters" if tag or branch or dataset else ""))
        return
    metrics = list(dict.fromkeys(m for r in runs for m in r.metrics))
    table = Table("started (UTC)", "status", "dataset", "git", "judge", "samples", *metrics, "tags")
    table.add_column("run", no_wrap=True, min_width=12)  # the id to type next: never cut
    for r in runs:
        git = f"{r.git_branch or ''}@{r.git_commit[:7]}" if r.git_commit else ""
        means = [_num(r.summary[m].mean) if r.summary and m in r.summary else "" for m in metrics]
        table.add_row(when(r.started), r.status, f"{r.dataset_name} {(r.dataset or '')[:8]}", git,
                      r.judge or "", str(r.samples), *means, ",".join(r.tags), r.id)
    out.print(table)


@runs_app.command("show")
def show(
    run: str = typer.Argument(..., help="Run id (or a unique prefix)."),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """One run: where it came from, each metric with its interval, usage and cost."""
    with open_store(store) as the_store:
        r = the_store.get(_resolve(the_store, run))
    lines = [
        ("run", f"{r.id} (identity {r.run_id}), {r.status}"),
        ("started", when(r.started) + (f", finished {when(r.finished)}" if r.finished else "")),
        ("dataset", f"{r.source or ''} (fingerprint {r.dataset or '—'}), {r.samples} samples"),
        ("git", f"{r.git_branch or '—'} {r.git_commit or ''}"),
        ("judge", r.judge or "—"), ("embedder", r.embedder or "—"), ("prompts", r.prompts or "—"),
        ("tags", ", ".join(r.tags) or "—"), ("summary score", _num(r.summary_score)),
        ("cost", "—" if r.cost is None else f"${r.cost:.4f}"),
    ]
    for key, value in lines:
        out.print(f"[bold]{key}[/bold]: ", end="")
        out.print(value, markup=False, highlight=False)
    if r.summary:
        table = Table("metric", "mean", "95% interval", "scored", "errors")
        for name, s in r.summary.items():
            interval = f"[{_num(s.ci_low)}, {_num(s.ci_high)}]" if s.ci_low is not None else "—"
            kinds = ", ".join(f"{k} {n}" for k, n in s.errors_by_kind.items())
            table.add_row(name, _num(s.mean), interval, str(s.scored), f"{s.errors}" + (f" ({kinds})" if kinds else ""))
        out.print(table)


@runs_app.command("compare")
def compare(
    baseline: str = typer.Argument(..., help="Run A, the baseline."),
    current: str = typer.Argument(..., help="Run B, compared with A."),
    moved: int = typer.Option(5, "--moved", min=0, help="Samples that moved most, listed per metric."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed."),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """B against A: per-metric deltas with paired bootstrap intervals (the gate's comparison)
    and the samples that moved most, with the reasons before and after."""
    from ragmeter.runs import compare_runs

    with open_store(store) as the_store:
        a_id, b_id = _resolve(the_store, baseline), _resolve(the_store, current)
        comparison = compare_runs(_load(the_store, b_id), _load(the_store, a_id), current_id=b_id,
                                  baseline_id=a_id, k=moved, seed=seed)
    table = Table("metric", f"A {a_id}", f"B {b_id}", "delta B-A [95% CI]", "paired", "status")
    for c in comparison.metrics:
        table.add_row(c.metric, _num(c.baseline_mean), _num(c.current_mean), c.describe_delta(), str(c.paired),
                      c.status + (f" ({c.note})" if c.note else ""))
    out.print(table)
    for metric in dict.fromkeys(m.metric for m in comparison.moved):
        out.rule(f"{metric}: samples that moved most")
        for m in (x for x in comparison.moved if x.metric == metric):
            out.print(f"row {m.row}{f' ({m.id})' if m.id else ''}: {m.before:.3f} -> {m.after:.3f} ({m.delta:+.3f})  "
                      f"{m.question[:100]}", markup=False, highlight=False, soft_wrap=True)
            out.print(f"    before: {m.reason_before[:200]}", markup=False, highlight=False, style="dim", soft_wrap=True)
            out.print(f"    after:  {m.reason_after[:200]}", markup=False, highlight=False, style="dim", soft_wrap=True)


@runs_app.command("export")
def export(
    run: str = typer.Argument(..., help="Run id (or a unique prefix)."),
    out_path: Path = typer.Option(..., "--out", "-o", help="Result file to write (.json or .parquet): the file `evaluate --out` writes."),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """Write a recorded run back out as a result file (for `ragmeter report`, `gate`, the Hub)."""
    from ragmeter.runs import RunNotFound

    with open_store(store) as the_store:
        try:
            path = the_store.export(_resolve(the_store, run), out_path)
        except (RunNotFound, ValueError) as exc:
            err.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2)
    err.print(f"run written to {path}")


@runs_app.command("delete")
def delete(
    runs: list[str] = typer.Argument(..., help="Run ids (or unique prefixes)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask."),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """Delete runs and their samples from the store."""
    with open_store(store) as the_store:
        ids = [_resolve(the_store, r) for r in runs]
        if not yes and not typer.confirm(f"delete {len(ids)} run(s): {', '.join(ids)}?"):
            raise typer.Exit(1)
        for run_id in ids:
            the_store.delete(run_id)
            out.print(f"deleted {run_id}")
