"""The report's "Agreement with people" section: a ``ragmeter align`` report as static HTML
(every user text through ``html.escape``), and, when the alignment measured the run's own
metrics, the run's means corrected by the judge's measured bias (prediction-powered)."""

from __future__ import annotations

from html import escape
from typing import Any

from ragmeter.result import EvaluationResult


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def alignment_section(alignment: Any, result: EvaluationResult) -> str:
    """``alignment``: a ``ragmeter.align.AlignmentReport``."""
    from ragmeter.align import ppi_summary

    parts = ['<section id="alignment"><h2>Agreement with people</h2>',
             f"<p>{_e(alignment.labelled)} labelled samples from {_e(alignment.source or 'a labels file')}; "
             "each statistic with its 95% bootstrap interval.</p>"]
    for run in alignment.runs:
        parts.append(f"<h3>judge {_e(run.judge)}, layout {_e(run.layout)}: {run.calls} calls, "
                     f"{run.prompt_tokens} prompt tokens</h3>")
        parts.append("<table class=\"summary\"><thead><tr><th>metric</th><th>n</th><th>accuracy</th>"
                     "<th>balanced acc.</th><th>Cohen's kappa</th><th>Spearman</th><th>Kendall</th>"
                     "<th>pairwise acc.</th><th>confusion (judge/person yes-yes, yes-no, no-yes, no-no)</th>"
                     "</tr></thead><tbody>")
        for name, m in run.metrics.items():
            c = m.confusion
            cells = [name, m.n, m.accuracy.text(), m.balanced_accuracy.text(), m.cohen_kappa.text(),
                     m.spearman.text(), m.kendall.text(), m.pairwise_accuracy.text(),
                     f"{c['tp']}, {c['fp']}, {c['fn']}, {c['tn']}"]
            parts.append("<tr>" + "".join(f"<td>{_e(x)}</td>" for x in cells) + "</tr>")
        parts.append("</tbody></table>")
    first = alignment.runs[0] if alignment.runs else None
    for name, m in (first.metrics.items() if first else []):
        if not m.disagreements:
            continue
        parts.append(f"<details><summary>{_e(name)}: {len(m.disagreements)} disagreement(s)</summary><ul>")
        for d in m.disagreements:
            note = f" · person: {_e(d.note)}" if d.note else ""
            parts.append(f"<li><b>{_e(d.id or f'row {d.row}')}</b> judge {d.score:.2f}, person {d.label:g}: "
                         f"{_e(d.reason)}{note}</li>")
        parts.append("</ul></details>")
    if first is not None and first.judge == result.info.judge:
        means = ppi_summary(result, alignment)
        if means:
            parts.append("<h3>This run's means, corrected by the judge's measured bias</h3><table class=\"summary\">"
                         "<thead><tr><th>metric</th><th>judge mean</th><th>people, labels only</th>"
                         "<th>prediction-powered</th></tr></thead><tbody>")
            for name, s in means.items():
                cells = [f"{x.mean:.3f} [{x.low:.3f}, {x.high:.3f}]" for x in (s.naive, s.labels_only, s.ppi)]
                parts.append(f"<tr><td>{_e(name)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
            parts.append("</tbody></table>")
    parts.append("</section>")
    return "".join(parts)
