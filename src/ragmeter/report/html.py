"""The report page: one HTML file with its CSS, plotly.js (a partial bundle) and a small script inlined.

Why inlined: the report is opened from a CI artefact, an e-mail or a laptop on a train, so
it must work offline and alone; plotly.js is included once for all charts. The static
sections (header, summary, usage, baseline, errors) are written here with every user text
passed through ``html.escape``; the charts and the sample table are drawn by
``report.js`` from the JSON blob of ``ragmeter.report.payload``.
"""

from __future__ import annotations

import html
from datetime import datetime, timezone
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from ragmeter.calls.usage import Usage
from ragmeter.report import charts
from ragmeter.report.alignment import alignment_section
from ragmeter.report.levels import asked_section, level_counts
from ragmeter.report.payload import (
    baseline_matches,
    dumps_for_script,
    metric_meta,
    sample_record,
)
from ragmeter.result import EvaluationResult, MetricSummary

MAX_ERRORS_LISTED = 200
"""Failed scores listed one by one in the Errors section; the rest are in the sample table
(filter "only samples with errors")."""

STATUS_LABELS = {
    "regressed": "regressed",
    "improved": "improved",
    "unchanged": "no significant change",
    "not comparable": "not comparable",
}


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _when(epoch: float | None) -> str:
    if epoch is None:
        return ""
    return datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


@lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return resources.files("ragmeter.report").joinpath(name).read_text(encoding="utf-8")


PLOTLY_BUNDLE = "plotly-basic.min.js.gz"
"""plotly.js 4.1.1, the "basic" partial bundle (scatter, bar, pie: the report draws bars and
scatter points only), from the npm package plotly.js-basic-dist-min (MIT), gzipped. Inlined
it is 1.2 MB where the full bundle that the plotly package ships is 4.8 MB: a report of 21
samples went from 5 MB to about 1.2 MB and still works offline."""


@lru_cache(maxsize=1)
def plotly_bundle() -> str:
    """The plotly.js source the page inlines (read once per process)."""
    import gzip

    return gzip.decompress(resources.files("ragmeter.report").joinpath(PLOTLY_BUNDLE).read_bytes()).decode("utf-8")


def _table(head: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """``head`` and cells are already HTML (escaped by the caller)."""
    thead = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    # in a scrolling box: at 800 px a wide table (usage, baseline) scrolls instead of widening the page
    return f'<div class="tablewrap"><table class="{cls}"><thead><tr>{thead}</tr></thead><tbody>{body}</tbody></table></div>'


def _bar(value: float | None, higher_is_better: bool) -> str:
    if value is None:
        return ""
    good = value if higher_is_better else 1 - value
    return (f'<span class="meanbar" aria-hidden="true"><span style="width:{value * 100:.1f}%;'
            f'background:hsl({good * 120:.0f},55%,48%)"></span></span>')


def _header(result: EvaluationResult, baseline: EvaluationResult | None, title: str) -> str:
    info = result.info
    parts = [f"run <code>{esc(info.display_id)}</code>"]
    if info.judge:
        parts.append(f"judge <b>{esc(info.judge)}</b>")
    if info.embedder:
        parts.append(f"embedder <b>{esc(info.embedder)}</b>")
    parts.append(f"{len(result.samples)} sample{'s' if len(result.samples) != 1 else ''}")
    when = _when(info.started)
    if when:
        took = f" ({info.finished - info.started:.0f} s)" if info.finished else ""
        parts.append(esc(when + took))
    parts.append(f"ragmeter {esc(info.ragmeter_version)}")
    lines = [" · ".join(parts)]
    if info.source:
        lines.append(f"data <code>{esc(info.source)}</code>")
    if baseline is not None:
        lines.append(f"baseline run <code>{esc(baseline.info.display_id)}</code> of {esc(_when(baseline.info.started))}, "
                     f"{len(baseline.samples)} samples")
    score = result.summary_score()
    sub = ""
    if baseline is not None:
        base_score = baseline.summary_score()
        if base_score is not None:
            delta = f" ({score - base_score:+.3f})" if score is not None else ""
            sub = f'<div class="sub">baseline {fmt(base_score)}{delta}</div>'
    meta = "".join(f'<p class="meta">{line}</p>' for line in lines)
    return (
        f'<header class="top"><div class="titles"><h1>{esc(title)}</h1>{meta}</div>'
        f'<div class="scorebox" title="harmonic mean of the means of the non-binary, higher-is-better metrics">'
        f'<div class="label">summary score</div><div class="big" id="summary-score">{fmt(score)}</div>{sub}</div></header>'
    )


def _nav(has_baseline: bool) -> str:
    links = [("summary", "Summary"), ("distributions", "Distributions"), ("usage", "Usage &amp; cost")]
    if has_baseline:
        links.append(("baseline", "Baseline comparison"))
    links += [("errors", "Errors"), ("samples", "Samples")]
    return '<nav class="toc">' + "".join(f'<a href="#{a}">{label}</a>' for a, label in links) + "</nav>"


def _summary(result: EvaluationResult, summary: dict[str, MetricSummary]) -> str:
    n = len(result.samples)
    rows = []
    for name, s in summary.items():
        meta = metric_meta(name, result.info.metrics.get(name))
        notes = []
        if not meta.higher_is_better:
            notes.append("lower is better")
        if meta.binary:
            notes.append("0 or 1")
        if name not in result.info.summary_metrics:
            notes.append("not in the summary score")
        not_run = n - s.scored - s.errors
        failed = f"{s.errors}" + (f' <span class="muted">({esc(", ".join(f"{k} {v}" for k, v in sorted(s.errors_by_kind.items())))})</span>' if s.errors else "")
        rows.append([
            f"<b>{esc(name)}</b>",
            f'<span class="num">{fmt(s.mean)}</span>{_bar(s.mean, meta.higher_is_better)}',
            f"{s.scored} of {n}" + (f' <span class="muted">({not_run} not run)</span>' if not_run > 0 else ""),
            failed,
            f'<span class="muted">{esc(", ".join(notes))}</span>',
        ])
    table = _table(["metric", "mean", "scored", "failed", ""], rows, "summary") if rows else "<p>No metric in this run.</p>"
    score = result.summary_score()
    used = [m for m in result.info.summary_metrics if m in summary and summary[m].mean is not None]
    if score is not None:
        note = (f"<p>Summary score <b>{fmt(score)}</b>: the harmonic mean of the means of "
                f"{esc(', '.join(used))}. One weak metric pulls it down more than an average would.</p>")
    else:
        note = "<p>Summary score: none (no non-binary, higher-is-better metric has a score).</p>"
    extra = ""
    if result.input_errors:
        extra = (f'<p class="warn">{len(result.input_errors)} input row(s) could not be read and are not '
                 f'in these numbers (see <a href="#errors">Errors</a>).</p>')
    return f'<section id="summary"><h2>Summary</h2>{note}{table}{extra}</section>'


def _distributions(metrics: list[str], has_baseline: bool) -> str:
    if not metrics:
        return '<section id="distributions"><h2>Distributions</h2><p>No metric in this run.</p></section>'
    cards = "".join(
        f'<figure class="chartcard"><figcaption>{esc(name)}</figcaption>'
        f'<div class="chart" id="chart-{i}" data-metric="{esc(name)}"></div></figure>'
        for i, name in enumerate(metrics)
    )
    return (
        '<section id="distributions"><h2>Distributions</h2>'
        '<p class="muted">Scores of each metric over [0, 1] in bins of 0.05 (rubric and G-Eval metrics: one bar '
        'per level of their scale); the dotted line is the mean'
        + ('; <span class="key current"></span> this run, <span class="key baseline"></span> the baseline' if has_baseline else "")
        + '. Failed scores are not drawn (see Errors).</p>'
        f'<div class="charts">{cards}</div>'
        '<noscript><p class="warn">The charts and the sample table need JavaScript.</p></noscript></section>'
    )


def _cost(usage: Usage) -> str:
    if usage.cost is not None:
        return f"${usage.cost:,.4f}"
    if usage.prompt_tokens or usage.completion_tokens:
        return '<span class="warn">no price known</span>'
    return '<span class="muted">$0 (no tokens sent)</span>'


def _cascade(usage: Usage) -> str:
    share = usage.escalated_share
    if share is None:
        return '<span class="muted">—</span>'
    total = usage.local_judgements + usage.escalated_judgements
    return (f"{usage.escalated_judgements:,} of {total:,} verdicts escalated (<b>{share:.0%}</b>), "
            f"{usage.calls_saved:,} calls saved")


def _usage(result: EvaluationResult) -> str:
    items = list(result.usage.items())
    if len(items) > 1:
        items.append(("total", result.total_usage))
    if not items:
        return '<section id="usage"><h2>Usage &amp; cost</h2><p>No usage recorded.</p></section>'
    rows = []
    for who, u in items:
        saved = u.cached_prompt_tokens + u.cached_completion_tokens
        rows.append([
            f"<b>{esc(who)}</b>",
            f"{u.calls:,}",
            f"{u.cache_hits:,}",
            f"{u.retries:,} / {u.repairs:,} / {u.failures:,}",
            f"{u.prompt_tokens:,}",
            f"{u.completion_tokens:,}",
            f"{saved:,}",
            _cost(u),
            _cascade(u),
        ])
    table = _table(
        ["", "calls", "cache hits", "retries / repairs / failures", "prompt tokens", "completion tokens",
         "tokens saved by the cache", "cost", "cascade"],
        rows, "usage",
    )
    return (
        '<section id="usage"><h2>Usage &amp; cost</h2>'
        '<p class="muted">Calls are requests actually sent; a cache hit sent nothing. Cost is in USD at the '
        'prices known when the run was made ("no price known": set one with <code>--price</code>).</p>'
        f"{table}</section>"
    )


def _baseline(comparisons: list[Any]) -> str:
    rows = []
    for c in comparisons:
        ci = f"[{c.ci_low:+.3f}, {c.ci_high:+.3f}]" if c.ci_low is not None and c.ci_high is not None else "—"
        delta = f"{c.delta:+.3f}" if c.delta is not None else "—"
        status = (f'<span class="status {c.status.replace(" ", "-")}">{esc(STATUS_LABELS.get(c.status, c.status))}</span>'
                  + (f' <span class="muted">{esc(c.note)}</span>' if c.note else ""))
        rows.append([f"<b>{esc(c.metric)}</b>", fmt(c.baseline_mean), fmt(c.current_mean), delta, ci,
                     f"{c.paired:,}", status])
    confidence = comparisons[0].confidence if comparisons else 0.95
    table = _table(["metric", "baseline mean", "current mean", "delta", f"{confidence:.0%} CI", "paired samples", "status"],
                   rows, "compare")
    chart = '<div class="chart" id="chart-compare"></div>' if any(c.delta is not None for c in comparisons) else ""
    return (
        '<section id="baseline"><h2>Baseline comparison</h2>'
        f'<p class="muted">Samples are matched by id (else by question). The delta is the mean change over the '
        f'samples scored in both runs, with a {confidence:.0%} paired bootstrap confidence interval; a change '
        'counts as a regression or an improvement only when the interval excludes zero.</p>'
        f"{table}{chart}</section>"
    )


def _errors(result: EvaluationResult, summary: dict[str, MetricSummary]) -> str:
    parts = ['<section id="errors"><h2>Errors</h2>']
    kinds = sorted({k for s in summary.values() for k in s.errors_by_kind})
    failing = [(name, s) for name, s in summary.items() if s.errors]
    if failing:
        rows = [[f"<b>{esc(name)}</b>", f"{s.errors:,}"] + [str(s.errors_by_kind.get(k, 0) or "") for k in kinds]
                for name, s in failing]
        parts.append('<h3>Failed scores by kind</h3>')
        parts.append(_table(["metric", "failed"] + [esc(k) for k in kinds], rows, "errors-by-kind"))
    else:
        parts.append("<p>No failed scores.</p>")
    if result.input_errors:
        parts.append(f"<h3>Input rows that could not be read ({len(result.input_errors)})</h3>")
        rows = [[str(e.row), "" if e.line is None else str(e.line), esc(e.field or ""), esc(e.message)]
                for e in result.input_errors]
        parts.append(_table(["row", "line", "field", "problem"], rows, "input-errors"))
    failed = [e for e in result.errors() if e.metric is not None]
    if failed:
        parts.append(f"<h3>Failed scores ({len(failed):,})</h3>")
        rows = [[f'<a href="#sample-{e.row}" data-open-row="{e.row}">{e.row}</a>', esc(e.id or ""), esc(e.metric or ""),
                 f'<span class="kind">{esc(e.kind)}</span>', esc(e.message)] for e in failed[:MAX_ERRORS_LISTED]]
        parts.append(_table(["row", "id", "metric", "kind", "message"], rows, "failed"))
        if len(failed) > MAX_ERRORS_LISTED:
            parts.append(f'<p class="muted">… and {len(failed) - MAX_ERRORS_LISTED:,} more: tick "only samples '
                         'with errors" in the sample table.</p>')
    parts.append("</section>")
    return "".join(parts)


def _samples(n: int) -> str:
    hidden = "" if n else " hidden"  # the script still finds the controls, but there is nothing to show
    return (
        '<section id="samples"><h2>Samples</h2>'
        f'<div class="controls"{hidden}>'
        '<input type="search" id="filter" placeholder="Filter by question, answer or id" aria-label="filter samples">'
        '<label><input type="checkbox" id="only-errors"> only samples with errors</label>'
        '<label>worst first by <select id="worst"><option value="">—</option></select></label>'
        '<span id="count" class="muted"></span></div>'
        f'<p class="muted"{hidden}>Click a row for the sample\'s contexts and, per metric, the reason, the verdicts '
        'and any error. Click a metric\'s header to sort by it (worst first, then best first).</p>'
        f'<div class="tablewrap"{hidden}><table id="samples-table" class="samples"><thead></thead><tbody></tbody></table></div>'
        '<button type="button" id="more" hidden>show more</button>'
        + ("" if n else "<p>No samples in this run.</p>")
        + "</section>"
    )


def _annotate(result: EvaluationResult) -> str:
    """Annotate mode (drawn by annotate.js): agree / disagree / corrected score and a note per
    sample and metric in an opened sample, kept in this browser, exported as a labels file.
    Labels are kept under the run's identity (``run_id``, not the id shown): a rerun of the
    same inputs finds the labels given to the first."""
    return (
        f'<section id="annotate" data-run="{esc(result.info.run_id)}"><h2>Annotate</h2>'
        '<p><label><input type="checkbox" id="annotate-on"> annotate mode</label>: open a sample and mark each '
        "score agree or disagree (or type the right score) with a note. Labels stay in this browser; "
        "export them as a labels file for <code>ragmeter align LABELS --judge ...</code>.</p>"
        '<p><span id="annotate-count"></span> '
        '<button type="button" id="annotate-download">export labels (JSONL)</button> '
        '<button type="button" id="annotate-clear">forget labels</button></p>'
        '<details><summary>labels file preview</summary><pre id="annotate-export" class="json"></pre></details>'
        "</section>"
    )


def render_report(
    result: EvaluationResult,
    *,
    baseline: EvaluationResult | None = None,
    title: str = "ragmeter report",
    alignment: Any = None,
) -> str:
    """The report as one HTML document (see ``write_report``); ``alignment`` (a
    ``ragmeter.align.AlignmentReport``) adds the "Agreement with people" section."""
    # a streamed run keeps its samples in its result file, not in memory: the page needs them
    result = result.with_samples()
    baseline = baseline.with_samples() if baseline is not None else None
    metrics = result.metric_names
    summary = result.summary()
    comparisons: list[Any] = []
    if baseline is not None:
        from ragmeter.gate import compare

        comparisons = compare(result, baseline)

    matches = baseline_matches(result, baseline)
    chart_specs: list[dict[str, Any]] = []
    for i, name in enumerate(metrics):
        values = [v for v in result.scores(name) if v is not None]
        base_values = None
        if baseline is not None and name in baseline.info.metrics:
            base_values = [v for v in baseline.scores(name) if v is not None]
        graded = level_counts(result, name) if baseline is None else None  # rubric, G-Eval: levels
        figure = charts.levels_figure(*graded) if graded else charts.histogram_figure(
            values, baseline_values=base_values,
            higher_is_better=metric_meta(name, result.info.metrics.get(name)).higher_is_better)
        chart_specs.append({"id": f"chart-{i}", "figure": figure})
    compare_figure = charts.comparison_figure(comparisons) if comparisons else None
    if compare_figure is not None:
        chart_specs.append({"id": "chart-compare", "figure": compare_figure})

    data = {
        "metrics": [metric_meta(name, result.info.metrics.get(name)).to_json() for name in metrics],
        "charts": chart_specs,
        "hasBaseline": baseline is not None,
        "samples": [sample_record(s, metrics, b) for s, b in zip(result.samples, matches)],
    }
    body = "".join([
        _header(result, baseline, title),
        _nav(baseline is not None),
        "<main>",
        _summary(result, summary),
        _distributions(metrics, baseline is not None),
        asked_section(result),
        _usage(result),
        _baseline(comparisons) if baseline is not None else "",
        _errors(result, summary),
        alignment_section(alignment, result) if alignment is not None else "",
        _samples(len(result.samples)),
        _annotate(result),
        "</main>",
        '<footer class="muted">Made by ragmeter. This file is self-contained and works offline.</footer>',
    ])
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title>"
        f"<style>{_asset('report.css')}</style>"
        f"<script>{plotly_bundle()}</script>"
        f"</head><body>{body}"
        f'<script type="application/json" id="report-data">{dumps_for_script(data)}</script>'
        f"<script>{_asset('report.js')}\n{_asset('annotate.js')}</script>"
        "</body></html>\n"
    )


def write_report(
    result: EvaluationResult,
    path: str | Path,
    *,
    baseline: EvaluationResult | None = None,
    title: str = "ragmeter report",
    alignment: Any = None,
) -> Path:
    """Write the report to ``path`` (parent folders created) and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_report(result, baseline=baseline, title=title, alignment=alignment), encoding="utf-8")
    return path
