"""``ragmeter runs``: the recorded runs, listed, shown, compared, exported and deleted.

A run is named by its store id (the one ``evaluate`` prints) or any unique prefix of it.
``list``, ``show`` and ``compare`` print a table on a terminal, plain rows in a pipe, and
every field with ``--json``. Every error (no such run, a damaged store, a running run to
delete) is one line and exit 2.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Optional

import typer

from ragmeter.cli.console import app, err, out
from ragmeter.cli.exits import fail, first_lines, plain_errors, print_error
from ragmeter.cli.rows import print_json, print_line, print_rows

runs_app = typer.Typer(help="Runs recorded by `ragmeter evaluate` (see docs/runs.md).", no_args_is_help=True)
app.add_typer(runs_app, name="runs")

STORE_HELP = "Run store: a path or SQLAlchemy URL (default $RAGMETER_RUNS, else .ragmeter/runs.db)."
JSON_HELP = "Print JSON (every field) instead of a table."


def when(epoch: float | None) -> str:
    if epoch is None:
        return ""
    return datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


@contextmanager
def open_store(store: Optional[str]) -> Iterator[Any]:
    """``with open_store(spec) as the_store:``: the store, closed after; any error of the
    store, on opening or later (no such run, a damaged file), one line and exit 2."""
    from ragmeter.errors import RagmeterError
    from ragmeter.runs import RunStore

    with plain_errors():
        try:
            the_store = RunStore(store)
        except RagmeterError:
            raise
        except Exception as exc:  # a bad URL, a missing driver
            # fail masks it: the URL as typed holds its password, a driver's message may quote it
            fail(f"cannot open the run store {store or 'at the default place'}: {first_lines(str(exc), 1)}")
        try:
            yield the_store
        finally:
            the_store.close()


def _warn(message: str) -> None:
    print_error(message, label="warning", style="yellow")


@runs_app.command("list")
def list_runs(
    tag: Optional[str] = typer.Option(None, "--tag", help="Only runs with this tag."),
    branch: Optional[str] = typer.Option(None, "--branch", help="Only runs made on this git branch."),
    dataset: Optional[str] = typer.Option(None, "--dataset", help="Only runs of this test set: its file name or fingerprint prefix."),
    limit: int = typer.Option(20, "--limit", "-n", min=1, help="Newest runs shown."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """List recorded runs, newest first, with each metric's mean."""
    with open_store(store) as the_store:
        runs = the_store.list(tag=tag, branch=branch, dataset=dataset, limit=limit)
    if as_json:
        print_json([r.model_dump(mode="json") for r in runs])
        return
    if not runs:
        err.print("no runs recorded" + (" matching the filters" if tag or branch or dataset else ""))
        return
    metrics = list(dict.fromkeys(m for r in runs for m in r.metrics))
    rows = []
    for r in runs:
        git = f"{r.git_branch or ''}@{r.git_commit[:7]}" if r.git_commit else ""
        means = [_num(r.summary[m].mean) if r.summary and m in r.summary else "" for m in metrics]
        rows.append([when(r.started), r.status, f"{r.dataset_name} {(r.dataset or '')[:8]}".strip(), git,
                     r.judge or "", r.samples, *means, ",".join(r.tags), r.id])
    print_rows(out, ["started (UTC)", "status", "dataset", "git", "judge", "samples", *metrics, "tags", "run"], rows,
               keep_whole=["run"])


@runs_app.command("show")
def show(
    run: str = typer.Argument(..., help="Run id (or a unique prefix)."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """One run: where it came from, each metric with its interval, usage and cost."""
    with open_store(store) as the_store:
        r = the_store.get(run)
    if as_json:
        print_json(r.model_dump(mode="json"))
        return
    lines = [
        ("run", f"{r.id}, {r.status}"),
        ("started", when(r.started) + (f", finished {when(r.finished)}" if r.finished else "")),
        ("dataset", f"{r.source or ''} (fingerprint {r.dataset or '—'}), {r.samples} samples"),
        ("git", f"{r.git_branch or '—'} {r.git_commit or ''}"),
        ("judge", r.judge or "—"), ("embedder", r.embedder or "—"), ("prompts", r.prompts or "—"),
        ("tags", ", ".join(r.tags) or "—"), ("summary score", _num(r.summary_score)),
        ("cost", "—" if r.cost is None else f"${r.cost:.4f}"),
    ]
    for key, value in lines:
        if out.is_terminal:
            out.print(f"[bold]{key}[/bold]: ", end="")
            out.print(value, markup=False, highlight=False)
        else:
            print_line(out, f"{key}: {value}")
    if r.summary:
        rows = []
        for name, s in r.summary.items():
            interval = f"[{_num(s.ci_low)}, {_num(s.ci_high)}]" if s.ci_low is not None else "—"
            kinds = ", ".join(f"{k} {n}" for k, n in s.errors_by_kind.items())
            rows.append([name, _num(s.mean), interval, s.scored, f"{s.errors}" + (f" ({kinds})" if kinds else "")])
        if not out.is_terminal:
            print_line(out, "")
        print_rows(out, ["metric", "mean", "95% interval", "scored", "errors"], rows)


@runs_app.command("compare")
def compare(
    baseline: str = typer.Argument(..., help="Run A, the baseline (id or unique prefix)."),
    current: str = typer.Argument(..., help="Run B, compared with A (id or unique prefix)."),
    metric: list[str] = typer.Option([], "--metric", "-m", help="Compare only this metric (repeatable)."),
    moved: int = typer.Option(5, "--moved", min=0, help="Samples that moved most, listed per metric."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """B against A: per-metric deltas with paired bootstrap intervals (the gate's comparison)
    and the samples that moved most, with the reasons before and after. Runs of another test
    set, judge, embedder or judge prompts are compared too, with a warning naming what differs."""
    from ragmeter.gate.run_comparison import chosen_metrics, compare_runs
    from ragmeter.runs import describe_differences, run_differences

    with open_store(store) as the_store:
        a, b = the_store.get(baseline), the_store.get(current)
        if metric:  # checked before the samples are loaded: a typo costs no wait
            chosen_metrics(metric, list(dict.fromkeys([*a.metrics, *b.metrics])))
        differences = run_differences(a, b)
        comparison = compare_runs(the_store.load(b.id), the_store.load(a.id), current_id=b.id, baseline_id=a.id,
                                  k=moved, seed=seed, metrics=metric or None, differences=differences)
    if differences:
        _warn(describe_differences(differences))
    if as_json:
        print_json(comparison.model_dump(mode="json"))
        return
    rows = [[c.metric, _num(c.baseline_mean), _num(c.current_mean), c.describe_delta(), c.paired,
             c.status + (f" ({c.note})" if c.note else "")] for c in comparison.metrics]
    print_rows(out, ["metric", f"A {a.id}", f"B {b.id}", "delta B-A [95% CI]", "paired", "status"], rows)
    for name in dict.fromkeys(m.metric for m in comparison.moved):
        if out.is_terminal:
            out.rule(f"{name}: samples that moved most")
        else:
            print_line(out, f"\n{name}: samples that moved most")
        for m in (x for x in comparison.moved if x.metric == name):
            print_line(out, f"row {m.row}{f' ({m.id})' if m.id else ''}: {m.before:.3f} -> {m.after:.3f} "
                            f"({m.delta:+.3f})  {m.question[:100]}")
            for label, reason in (("before:", m.reason_before), ("after: ", m.reason_after)):
                if out.is_terminal:
                    out.print(f"    {label} {reason[:200]}", markup=False, highlight=False, style="dim", soft_wrap=True)
                else:
                    print_line(out, f"    {label} {reason[:200]}")


@runs_app.command("export")
def export(
    run: str = typer.Argument(..., help="Run id (or a unique prefix)."),
    out_path: Path = typer.Option(..., "--out", "-o", help="Result file to write (.json or .parquet): the file `evaluate --out` writes."),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """Write a recorded run back out as a result file (for `ragmeter report`, `gate`, the Hub)."""
    with open_store(store) as the_store:
        path = the_store.export(run, out_path)
    err.print(f"run written to {path}")


@runs_app.command("delete")
def delete(
    runs: list[str] = typer.Argument(..., help="Run ids (or unique prefixes)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask."),
    force: bool = typer.Option(False, "--force", help="Delete a run even while it is being recorded (status running): "
                               "for one left running by a process that was killed."),
    store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """Delete runs and their samples from the store. A run still being recorded is refused
    unless --force."""
    with open_store(store) as the_store:
        ids = list(dict.fromkeys(the_store.resolve(r) for r in runs))
        if not force:  # all checked before any is deleted (``delete`` checks again, in its transaction)
            for run_id in ids:
                the_store.check_deletable(run_id)
        if not yes and not typer.confirm(f"delete {len(ids)} run(s): {', '.join(ids)}?"):
            raise typer.Exit(1)
        for run_id in ids:
            the_store.delete(run_id, force=force)
            out.print(f"deleted {run_id}", markup=False, highlight=False)
