"""The gate's verdict as GitHub-flavoured markdown (CI step summary, PR comment) and as
plain text (terminal, pytest assertion message)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragmeter.gate.check import GateReport, MetricCheck
    from ragmeter.gate.worst import WorstSample


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _cell(text: str, limit: int = 140) -> str:
    """One markdown table cell: one line, pipes escaped, long text cut."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _status(check: "MetricCheck") -> str:
    if check.failures:
        return "❌ " + "; ".join(check.failures)
    cmp = check.comparison
    if cmp is not None and cmp.status == "improved":
        return "✅ improved"
    if check.minimum is None and cmp is None:
        return "– not gated"
    return "✅"


def _baseline_cells(check: "MetricCheck") -> tuple[str, str]:
    cmp = check.comparison
    if cmp is None:
        return "", ""
    if cmp.delta is None:
        return _num(cmp.baseline_mean), f"not comparable: {cmp.note}"
    return _num(cmp.baseline_mean), cmp.describe_delta()


def _worst_line(w: "WorstSample") -> str:
    where = f"row {w.row}" + (f" ({w.id})" if w.id else "")
    if w.baseline_value is not None:
        return f"{where}: {_num(w.baseline_value)} -> {_num(w.value)}"
    return f"{where}: " + ((w.error or "no score") if w.value is None else _num(w.value))


def render_markdown(report: "GateReport") -> str:
    """A heading with the verdict, one table row per metric, then the worst samples of each
    gated metric with the judge's reasons."""
    verdict = "✅ PASS" if report.passed else "❌ FAIL"
    lines = [f"### ragmeter gate: {verdict}", ""]
    context = f"{report.samples} samples · run `{report.run_id}`"
    if report.judge:
        context += f" · judge `{report.judge}`"
    if report.baseline_run_id:
        context += f" · baseline run `{report.baseline_run_id}`"
    lines += [context, ""]
    with_baseline = any(c.comparison is not None for c in report.checks)
    header = ["metric", "mean", "threshold", "scored", "errors"]
    if with_baseline:
        header += ["baseline", f"Δ ({report.confidence:.0%} CI)"]
    header.append("status")
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join("---" for _ in header) + "|")
    for c in report.checks:
        bound = "" if c.minimum is None else f"{'≤' if c.lower_is_better else '≥'} {c.minimum:.2f}"
        row = [f"`{c.metric}`", _num(c.mean), bound, str(c.scored), str(c.errors)]
        if with_baseline:
            row += list(_baseline_cells(c))
        row.append(_cell(_status(c), 300))
        lines.append("| " + " | ".join(row) + " |")
    for c in report.checks:
        if not c.worst:
            continue
        if any(w.baseline_value is not None for w in c.worst):
            title = "biggest rises (lower is better)" if c.lower_is_better else "biggest drops"
        elif all(w.value is None for w in c.worst):
            title = "failed scores"
        else:
            title = "highest scores (lower is better)" if c.lower_is_better else "lowest scores"
        lines += ["", f"<details{' open' if c.failures else ''}><summary><code>{c.metric}</code>: {title}</summary>", ""]
        if title.startswith("biggest"):
            lines += ["| sample | question | baseline | now | reason now | reason before |", "|---|---|---|---|---|---|"]
            for w in c.worst:
                lines.append(f"| {w.row}{' ' + _cell(w.id, 40) if w.id else ''} | {_cell(w.question, 100)} | "
                             f"{_num(w.baseline_value)} | {_num(w.value)} | {_cell(w.reason)} | {_cell(w.baseline_reason or '')} |")
        else:
            lines += ["| sample | question | score | reason |", "|---|---|---|---|"]
            for w in c.worst:
                lines.append(f"| {w.row}{' ' + _cell(w.id, 40) if w.id else ''} | {_cell(w.question, 100)} | "
                             f"{_num(w.value) if w.value is not None else 'failed'} | {_cell(w.error or w.reason)} |")
        lines += ["", "</details>"]
    return "\n".join(lines) + "\n"


def render_text(report: "GateReport") -> str:
    """Plain text: what fell short first, then every metric, then the worst samples."""
    lines = [f"ragmeter gate: {'PASS' if report.passed else 'FAIL'} ({report.samples} samples, run {report.run_id}"
             + (f", baseline {report.baseline_run_id}" if report.baseline_run_id else "") + ")"]
    width = max([len(c.metric) for c in report.checks] + [6])
    for c in report.checks:
        parts = [f"mean {_num(c.mean)}"]
        if c.minimum is not None:
            parts.append(f"{'max' if c.lower_is_better else 'min'} {c.minimum:.2f}")
        if c.errors:
            parts.append(f"{c.errors} failed")
        if c.comparison is not None:
            cmp = c.comparison
            parts.append(f"vs baseline {_num(cmp.baseline_mean)}: {cmp.describe_delta()} {cmp.status}"
                         if cmp.delta is not None else f"vs baseline: not comparable ({cmp.note})")
        mark = "FAIL" if c.failures else ("ok  " if c.minimum is not None or c.comparison is not None else "    ")
        lines.append(f"  {mark} {c.metric:<{width}}  " + ", ".join(parts))
        for failure in c.failures:
            lines.append(f"       {'':<{width}}  -> {failure}")
    for c in report.checks:
        if not c.worst or not c.failures:
            continue
        failed_only = all(w.value is None for w in c.worst)
        lines.append(f"  {'failed samples' if failed_only else 'worst samples'} for {c.metric}:")
        for w in c.worst:
            question = " ".join(w.question.split())
            question = question if len(question) <= 90 else question[:89] + "…"
            lines.append(f"    {_worst_line(w)}  {question!r}")
            reason = " ".join((w.error or w.reason or "").split())
            if reason and w.value is not None or w.baseline_value is not None:
                lines.append(f"      reason: {reason[:300]}")
            if w.baseline_reason:
                lines.append(f"      before: {' '.join(w.baseline_reason.split())[:300]}")
    return "\n".join(lines)
