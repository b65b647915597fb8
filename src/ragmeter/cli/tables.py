"""Rich tables for a result: the summary, the errors, the usage, optionally every sample."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table

from ragmeter.data import empty_message
from ragmeter.result import ErrorRow, EvaluationResult
from ragmeter.result.failures import FAILURES_KEPT

MAX_ERRORS_SHOWN = FAILURES_KEPT  # a streamed run keeps as many failures as are listed


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def print_result(console: Console, result: EvaluationResult, show_samples: bool = False) -> None:
    if show_samples:
        table = Table(title="samples", show_lines=False)
        table.add_column("row", justify="right")
        table.add_column("id")
        for name in result.metric_names:
            table.add_column(name, justify="right")
        table.add_column("reason / error", overflow="fold")
        for sample in result.samples:
            cells = [str(sample.row), sample.id or ""]
            notes = []
            for name in result.metric_names:
                score = sample.scores.get(name)
                cells.append(_fmt(score.value) if score else "")
                if score is not None:
                    notes.append(str(score.error) if score.error else score.reason)
            cells.append(" | ".join(notes))
            table.add_row(*cells)
        console.print(table)

    summary = Table(title=f"ragmeter: {result.sample_count} samples, run {result.info.display_id}")
    for column in ("metric", "mean", "scored", "errors"):
        summary.add_column(column, justify="left" if column == "metric" else "right")
    for name, s in result.summary().items():
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(s.errors_by_kind.items()))
        summary.add_row(name, _fmt(s.mean), str(s.scored), f"{s.errors}" + (f" ({kinds})" if kinds else ""))
    console.print(summary)
    overall = result.summary_score()
    means = result.means()
    averaged = [name for name in result.info.summary_metrics if means.get(name) is not None]
    if overall is not None and len(averaged) > 1:  # name only the metrics that entered the mean
        console.print(f"summary score (harmonic mean of {', '.join(averaged)}): {overall:.3f}", highlight=False)

    errors, total, where = result.errors(), len(result.errors()), "see the result file"
    if result.streamed is not None and not result.samples:
        # the samples are in the file; the run kept its first failures in row order, and
        # with every input error they hold the first MAX_ERRORS_SHOWN problems of the run
        errors = sorted(errors + result.streamed.failures, key=ErrorRow.order)
        total = len(result.input_errors) + sum(s.errors for s in result.summary().values())
        where = f"each with its error in {result.streamed.path}"
    if total:
        console.print(f"[yellow]{total} problem(s)[/yellow] (scores left empty, never NaN):")
        for row in errors[:MAX_ERRORS_SHOWN]:
            console.print(f"  {row}", markup=False, highlight=False)
        if total > MAX_ERRORS_SHOWN:
            console.print(f"  ... and {total - MAX_ERRORS_SHOWN} more ({where})", markup=False, highlight=False)

    for who, usage in result.usage.items():
        parts = [f"{usage.calls} calls", f"{usage.cache_hits} cache hits"]
        parts += [f"{n} {label}" for n, label in ((usage.retries, "retries"), (usage.repairs, "repairs"), (usage.failures, "failures")) if n]
        if usage.prompt_tokens or usage.completion_tokens:
            parts.append(f"{usage.prompt_tokens} prompt + {usage.completion_tokens} completion tokens")
        if usage.cost is not None:
            parts.append(f"cost ${usage.cost:.4f}")
        if usage.escalated_share is not None:
            parts.append(
                f"{usage.escalated_judgements} of {usage.local_judgements + usage.escalated_judgements} verdicts "
                f"escalated ({usage.escalated_share:.0%}), {usage.calls_saved} calls saved"
            )
        console.print(f"{who}: " + ", ".join(parts), highlight=False)


def nothing_scored(result: EvaluationResult, source: object = None) -> str | None:
    """Why a run computed no score at all, or None if it computed one. A run like that must
    not pass in CI: its table of dashes looks like a result to a script that reads exit codes.
    """
    summary = result.summary()
    if any(s.scored for s in summary.values()):
        return None
    if result.sample_count == 0 and not result.input_errors:
        return "nothing to score: " + (empty_message(source if isinstance(source, (str, Path)) else None)
                                       or "the input has no samples")
    if result.sample_count == 0:
        return f"nothing could be scored: all {len(result.input_errors)} rows of the input are invalid (see above)"
    failed = sum(s.errors for s in summary.values())
    kinds: dict[str, int] = {}
    for s in summary.values():
        for kind, n in s.errors_by_kind.items():
            kinds[kind] = kinds.get(kind, 0) + n
    why = ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    return f"nothing could be scored: all {failed} scores of {result.sample_count} samples failed ({why})"
