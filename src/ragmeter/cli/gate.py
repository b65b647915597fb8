"""``ragmeter gate``: exit 0 when a run meets its minimums and did not regress, 1 when not.

Exit code 2 means the gate could not judge (a file missing or unreadable, a bad option), so
a CI step can tell "the app got worse" from "the pipeline is broken".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from ragmeter.cli.console import app, err, out


def parse_minimums(values: list[str]) -> dict[str, float]:
    """``["faithfulness=0.8,context_recall=0.7", "answer_relevancy=0.6"]`` -> dict."""
    minimums: dict[str, float] = {}
    for value in values:
        for item in value.split(","):
            if not item.strip():
                continue
            name, sep, number = item.partition("=")
            try:
                if not sep:
                    # internal: caught just below and given to typer as BadParameter
                    raise ValueError
                minimums[name.strip()] = float(number)
            except ValueError:
                raise typer.BadParameter(f"--min takes METRIC=VALUE (e.g. faithfulness=0.8), not {item!r}")
    return minimums


def _load(path: Path, what: str):
    from pydantic import ValidationError

    from ragmeter.result import EvaluationResult

    try:
        return EvaluationResult.load(path)
    except FileNotFoundError:
        err.print(f"[red]error:[/red] {what} {path} does not exist")
    except (ValueError, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        err.print(f"[red]error:[/red] {what} {path} is not a ragmeter result file (`ragmeter evaluate --out`): {first}")
    raise typer.Exit(2)


@app.command("gate")
def gate(
    result_path: Path = typer.Argument(..., help="Result JSON written by `ragmeter evaluate --out`.", dir_okay=False),
    minimum: list[str] = typer.Option([], "--min", help="METRIC=VALUE: worst acceptable mean, a floor (a ceiling where lower is better: noise_sensitivity); repeatable or comma-separated."),
    baseline_path: Optional[Path] = typer.Option(None, "--baseline", "-b", help="Result JSON of the baseline run (e.g. main's) to detect regressions.", dir_okay=False),
    max_drop: float = typer.Option(0.0, "--max-drop", min=0.0, max=1.0, help="Ignore significant drops smaller than this."),
    max_error_rate: Optional[float] = typer.Option(None, "--max-errors", min=0.0, max=1.0, help="Fail a metric when more than this share of its scores failed."),
    confidence: float = typer.Option(0.95, "--confidence", min=0.5, max=0.999, help="Confidence of the paired bootstrap interval."),
    resamples: int = typer.Option(2000, "--resamples", min=100, help="Bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed (same files + same seed = same verdict)."),
    worst: int = typer.Option(3, "--worst", min=0, help="Worst samples listed per gated metric."),
    summary_path: Optional[Path] = typer.Option(None, "--summary", help="Append the markdown summary to this file (default: $GITHUB_STEP_SUMMARY when set)."),
    markdown: bool = typer.Option(False, "--markdown", help="Print markdown instead of plain text."),
    alignment_path: Optional[Path] = typer.Option(None, "--alignment", help="A `ragmeter align --json` file of the same judge: also print each metric's mean corrected by the judge's measured bias (prediction-powered; the verdict does not change).", exists=True, dir_okay=False),
) -> None:
    """Pass or fail a run: minimums per metric and regressions against a baseline."""
    from ragmeter.gate import check

    minimums = parse_minimums(minimum)
    result = _load(result_path, "result")
    baseline = _load(baseline_path, "baseline") if baseline_path is not None else None
    if not minimums and baseline is None:
        err.print("[yellow]note:[/yellow] no --min and no --baseline: nothing is gated, the verdict is PASS")
    try:
        report = check(result, minimums, baseline=baseline, max_drop=max_drop, max_error_rate=max_error_rate,
                       confidence=confidence, resamples=resamples, seed=seed, worst=worst)
    except ValueError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2)
    text = report.to_markdown() if markdown else report.to_text()
    out.print(text, markup=False, highlight=False, soft_wrap=True)
    if alignment_path is not None:
        from ragmeter.align import AlignmentReport, ppi_lines

        out.print(ppi_lines(result, AlignmentReport.load(alignment_path), confidence), markup=False,
                  highlight=False, soft_wrap=True)
    target = summary_path or (Path(os.environ["GITHUB_STEP_SUMMARY"]) if os.environ.get("GITHUB_STEP_SUMMARY") else None)
    if target is not None:
        with target.open("a", encoding="utf-8") as fh:
            fh.write(report.to_markdown() + "\n")
        err.print(f"markdown summary appended to {target}")
    raise typer.Exit(0 if report.passed else 1)
