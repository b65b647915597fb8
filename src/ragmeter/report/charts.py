"""The report's plotly figures, as plain JSON specs for ``Plotly.newPlot`` in the page.

Why pre-binned bars rather than plotly histograms over the raw values: the bin counts are a
few dozen numbers whatever the run's size, so a run of thousands of samples does not put
thousands of values per metric into the page, and the bins are the same in every report
(20 bins of 0.05 over [0, 1]), so two reports can be compared by eye.

Why labels go through ``html.escape``: plotly renders a subset of HTML in text (``<b>``,
``<a href>``...), and metric names come from users (custom critiques).
"""

from __future__ import annotations

import html
import json
from typing import Any, Sequence

import plotly.graph_objects as go

BINS = 20
CURRENT_COLOR = "#3b6ea8"
BASELINE_COLOR = "#9aa5b1"
STATUS_COLORS = {"regressed": "#c0392b", "improved": "#1e8449", "unchanged": "#6b7785"}


def bin_counts(values: Sequence[float], bins: int = BINS) -> list[int]:
    """Counts of ``values`` in ``bins`` equal bins over [0, 1]; 1.0 falls in the last bin."""
    counts = [0] * bins
    for value in values:
        counts[min(bins - 1, max(0, int(value * bins)))] += 1
    return counts


def _to_spec(fig: go.Figure) -> dict[str, Any]:
    # plotly's own JSON encoder knows its types; the page only needs plain data and layout
    spec = json.loads(fig.to_json())
    spec["layout"].pop("template", None)
    return {"data": spec["data"], "layout": spec["layout"]}


def _base_layout(height: int) -> dict[str, Any]:
    return dict(
        template="none",
        height=height,
        margin=dict(l=48, r=16, t=22, b=40),
        font=dict(family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif", size=12, color="#29323c"),
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        showlegend=False,
    )


def histogram_figure(
    values: Sequence[float],
    *,
    baseline_values: Sequence[float] | None = None,
    higher_is_better: bool = True,
) -> dict[str, Any]:
    """Distribution of one metric's scores (bars over [0, 1]) with its mean marked; the
    baseline's distribution drawn behind it when there is one."""
    width = 1.0 / BINS
    centers = [(i + 0.5) * width for i in range(BINS)]
    labels = [f"{i * width:.2f}–{(i + 1) * width:.2f}" for i in range(BINS)]
    fig = go.Figure()
    layout = _base_layout(240)

    def bars(counts: list[int], name: str, color: str, opacity: float) -> go.Bar:
        text = [f"{name}: {label}: {n} sample{'s' if n != 1 else ''}" for label, n in zip(labels, counts)]
        return go.Bar(
            x=centers, y=counts, width=width * 0.92, name=name, marker_color=color, opacity=opacity,
            hovertext=text, hoverinfo="text",
        )

    shapes: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    if baseline_values:
        fig.add_trace(bars(bin_counts(baseline_values), "baseline", BASELINE_COLOR, 0.55))
    counts = bin_counts(values)
    fig.add_trace(bars(counts, "current", CURRENT_COLOR, 0.85))
    tallest = max(counts + (bin_counts(baseline_values) if baseline_values else []))
    if values:
        mean = sum(values) / len(values)
        shapes.append(dict(type="line", x0=mean, x1=mean, y0=0, y1=1, yref="paper",
                           line=dict(color="#29323c", width=1.5, dash="dot")))
        annotations.append(dict(x=mean, y=1, yref="paper", text=f"mean {mean:.2f}", showarrow=False,
                                xanchor="left" if mean < 0.8 else "right", yanchor="bottom", xshift=2 if mean < 0.8 else -2,
                                font=dict(size=11)))
    else:
        annotations.append(dict(x=0.5, y=0.5, xref="paper", yref="paper", text="no sample scored",
                                showarrow=False, font=dict(size=14, color="#6b7785")))
    direction = "higher is better" if higher_is_better else "lower is better"
    layout.update(
        barmode="overlay",
        bargap=0,
        shapes=shapes,
        annotations=annotations,
        xaxis=dict(range=[0, 1], dtick=0.1, title=dict(text=f"score ({direction})", font=dict(size=11)),
                   showgrid=False, zeroline=False, ticks="outside"),
        # counts are whole numbers: no 0.2 ticks when a bin holds one or two samples
        yaxis=dict(title=dict(text="samples", font=dict(size=11)), rangemode="tozero", gridcolor="#e6e9ed",
                   zeroline=False, tickformat=",d", **({"dtick": 1} if 0 < tallest <= 6 else {}),
                   **({} if values else {"range": [0, 1], "showticklabels": False})),
    )
    fig.update_layout(**layout)
    return _to_spec(fig)


def levels_figure(scale: tuple[int, int], counts: dict[int, int]) -> dict[str, Any]:
    """A graded metric (rubric, G-Eval): one bar per level of the scale (levels nobody got included, at 0)."""
    levels = list(range(scale[0], scale[1] + 1))
    heights = [counts.get(level, 0) for level in levels]
    fig = go.Figure(go.Bar(
        x=levels, y=heights, marker_color=CURRENT_COLOR, opacity=0.85,
        hovertext=[f"level {lv}: {n} sample{'s' if n != 1 else ''}" for lv, n in zip(levels, heights)], hoverinfo="text",
    ))
    layout = _base_layout(240)
    layout.update(
        xaxis=dict(tickmode="array", tickvals=levels, title=dict(text="level (higher is better)", font=dict(size=11)),
                   showgrid=False, zeroline=False),
        yaxis=dict(title=dict(text="samples", font=dict(size=11)), rangemode="tozero", gridcolor="#e6e9ed",
                   tickformat=",d", zeroline=False),
    )
    fig.update_layout(**layout)
    return _to_spec(fig)


def comparison_figure(rows: Sequence[Any]) -> dict[str, Any] | None:
    """Delta of each comparable metric (current - baseline) with its confidence interval, a
    line at zero; ``rows`` are ``MetricComparison``. None when no metric is comparable."""
    rows = [r for r in rows if r.delta is not None]
    if not rows:
        return None
    names = [html.escape(r.metric) for r in rows][::-1]  # first metric on top
    rows = list(rows)[::-1]
    fig = go.Figure(go.Scatter(
        x=[r.delta for r in rows],
        y=names,
        mode="markers",
        marker=dict(size=10, color=[STATUS_COLORS.get(r.status, "#6b7785") for r in rows]),
        error_x=dict(type="data", symmetric=False,
                     array=[r.ci_high - r.delta for r in rows],
                     arrayminus=[r.delta - r.ci_low for r in rows],
                     color="#6b7785", thickness=1.5, width=5),
        hovertext=[f"{name}: {r.delta:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}], {r.status}, {r.paired} pairs"
                   for name, r in zip(names, rows)],
        hoverinfo="text",
    ))
    confidence = rows[0].confidence
    layout = _base_layout(60 + 34 * len(rows))
    layout["margin"]["l"] = 10
    span = max(0.05, *(max(abs(r.ci_low), abs(r.ci_high)) for r in rows)) * 1.15
    layout.update(
        xaxis=dict(range=[-span, span], zeroline=True, zerolinecolor="#29323c", zerolinewidth=1,
                   gridcolor="#e6e9ed", title=dict(text=f"change of the mean (current − baseline), {confidence:.0%} CI",
                                                   font=dict(size=11))),
        yaxis=dict(automargin=True, showgrid=False),
    )
    fig.update_layout(**layout)
    return _to_spec(fig)
