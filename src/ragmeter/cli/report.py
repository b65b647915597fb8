"""``ragmeter report``: one self-contained HTML page for a result file, optionally against a baseline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ragmeter.cli.console import app, err, out


def _load(path: Path, what: str):
    """The result at ``path``, or exit 2 with a message that says what is wrong with it:
    a report of a file that is not a result would only be an empty page."""
    from pydantic import ValidationError

    from ragmeter.result import EvaluationResult

    if not path.exists():
        err.print(f"[red]error:[/red] {what} file {path} does not exist", highlight=False)
        raise typer.Exit(2)
    if path.is_dir():
        err.print(f"[red]error:[/red] {what} {path} is a folder, not a result file", highlight=False)
        raise typer.Exit(2)
    try:
        return EvaluationResult.load(path)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        err.print(f"[red]error:[/red] {what} file {path} is not JSON ({exc}); "
                  "write one with `ragmeter evaluate ... --out result.json`", highlight=False)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "top level"
        err.print(f"[red]error:[/red] {what} file {path} is not a ragmeter result: {where}: {first.get('msg')} "
                  f"({exc.error_count()} problem(s))", highlight=False)
    except ValueError as exc:  # e.g. a Parquet result file that is damaged
        err.print(f"[red]error:[/red] {what} file {path} cannot be read as a ragmeter result: {exc}", highlight=False)
    except OSError as exc:
        err.print(f"[red]error:[/red] cannot read {what} file {path}: {exc}", highlight=False)
    raise typer.Exit(2)


@app.command("report")
def report(
    result_path: Path = typer.Argument(..., metavar="RESULT", help="Result file written by `ragmeter evaluate --out`."),
    out_path: Path = typer.Option(Path("report.html"), "--out", "-o", help="Where to write the HTML page."),
    baseline_path: Optional[Path] = typer.Option(None, "--baseline", "-b", help="A previous result to compare with (paired bootstrap, per metric)."),
    title: str = typer.Option("ragmeter report", "--title", "-t", help="Title of the page."),
    alignment_path: Optional[Path] = typer.Option(None, "--alignment", help="A `ragmeter align --json` file: adds the agreement with people (and, for the same judge, this run's bias-corrected means).", exists=True, dir_okay=False),
) -> None:
    """Write one self-contained HTML page (works offline): scores, distributions, usage, errors,
    every sample with its reasons and verdicts, and the comparison with --baseline."""
    from ragmeter.report import write_report

    result = _load(result_path, "result")
    baseline = _load(baseline_path, "baseline") if baseline_path is not None else None
    alignment = None
    if alignment_path is not None:
        from ragmeter.align import AlignmentReport

        try:
            alignment = AlignmentReport.load(alignment_path)
        except ValueError as exc:  # pydantic's ValidationError included
            err.print(f"[red]error:[/red] {alignment_path} is not a `ragmeter align --json` file: "
                      f"{str(exc).splitlines()[0]}", highlight=False)
            raise typer.Exit(2)
    try:
        path = write_report(result, out_path, baseline=baseline, title=title, alignment=alignment)
    except OSError as exc:
        err.print(f"[red]error:[/red] cannot write {out_path}: {exc}", highlight=False)
        raise typer.Exit(2)
    size = path.stat().st_size / 1e6
    out.print(f"report written to {path} ({size:.1f} MB)", markup=False, highlight=False, soft_wrap=True)
