"""The ``ragmeter ui`` web app (FastAPI): a JSON API over the run store and three pages
that draw from it.

- ``/``: the runs table with filters (tag, branch, test set, status) and, for the chosen
  test set, one trend chart per metric: a point per run with its 95% interval.
- ``/compare?a=A&b=B``: B against A with the gate's paired comparison, the samples that
  moved most (reasons before and after), and below them the HTML report of B with A as its
  baseline, which holds every sample's contexts, reasons and verdicts.
- ``/report?run=R[&baseline=A]``: that report on its own.

Everything the pages need is served from here (plotly.js from the installed plotly package,
the report's CSS), so the UI works with no network. User text reaches the page only through
``textContent`` (``ui.js``) or ``html.escape`` (the report).
"""

from __future__ import annotations

import html
import threading
from collections import OrderedDict
from functools import lru_cache
from importlib import resources
from typing import Any, Callable

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import HTMLResponse, Response

from ragmeter.gate.run_comparison import RunComparison, compare_runs
from ragmeter.runs import RunNotFound, RunStore, RunSummary, run_differences
from ragmeter.ui._auth import TokenGuard, required_token
from ragmeter.ui._hosts import HostGuard, allowed_names
from ragmeter.ui._trend import trend_data

LOADED_RUNS = 4
"""Finished runs kept loaded for the compare view (a run does not change once finished)."""


@lru_cache(maxsize=None)
def _asset(package: str, name: str) -> str:
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def _page(page: str, title: str, body: str, **data: str) -> HTMLResponse:
    attrs = "".join(f' data-{k}="{html.escape(v, quote=True)}"' for k, v in data.items())
    return HTMLResponse(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="icon" href="data:,">'  # no favicon request (a 404 in the console)
        '<link rel="stylesheet" href="/assets/report.css"><link rel="stylesheet" href="/assets/ui.css">'
        '<script src="/assets/plotly.js"></script>'
        f'</head><body data-page="{page}"{attrs}>'
        '<header class="top"><div class="titles"><h1><a href="/" class="home">ragmeter</a> · '
        f"{html.escape(title)}</h1></div></header><main>{body}</main>"
        '<script src="/assets/ui.js"></script></body></html>\n'
    )


RUNS_BODY = """
<section id="runs"><h2>Runs</h2>
<form class="controls" id="filters">
<label>tag <input name="tag" id="f-tag" size="12"></label>
<label>branch <input name="branch" id="f-branch" size="12"></label>
<label>test set <select name="dataset" id="f-dataset"><option value="">all</option></select></label>
<label>status <select name="status" id="f-status"><option value="">all</option><option>finished</option>
<option>running</option><option>failed</option></select></label>
<button type="submit">filter</button>
<button type="button" id="compare-button" disabled>compare A and B</button>
<span id="run-count" class="muted"></span></form>
<p class="muted">Pick a run as A (baseline) and one as B, then compare. A run's id opens its report.</p>
<div class="tablewrap"><table id="runs-table" class="runs"><thead></thead><tbody></tbody></table></div>
</section>
<section id="trends"><h2>Trends</h2>
<p class="muted" id="trend-note">Choose a test set above: one chart per metric, a point per finished run with its
95% interval.</p><div class="charts" id="trend-charts"></div></section>
"""

COMPARE_BODY = """
<section id="comparison"><h2>Metrics, B against A</h2>
<p class="meta" id="compare-head"></p>
<p class="warning" id="compare-warning" hidden></p>
<table id="compare-table" class="summary"><thead><tr><th>metric</th><th>A</th><th>B</th>
<th>delta B−A [95% CI]</th><th>paired</th><th>status</th></tr></thead><tbody></tbody></table></section>
<section id="moved"><h2>Samples that moved most</h2>
<p class="muted">Per metric, the samples whose score changed most between the runs, with the judge's reason in
each. The report below has every sample in full (click a row for its contexts, reasons and verdicts).</p>
<table id="moved-table"><thead><tr><th>metric</th><th>sample</th><th>question</th><th>A</th><th>B</th>
<th>change</th><th>reason in A</th><th>reason in B</th></tr></thead><tbody></tbody></table></section>
<section id="detail"><h2>Every sample</h2><iframe id="report-frame" title="report of B with A as baseline"></iframe>
</section>
"""


def create_app(store: RunStore | str | None = None, *, token: str | None = None,
               host: str = "127.0.0.1") -> FastAPI:
    """The web app over ``store`` (a ``RunStore``, a path or URL, or the default store);
    with ``token`` every request must carry it (see ``ragmeter.ui._auth``; ``UnsafeAccess``
    for a short token, or none where one is needed). ``host`` is the address it is served
    on: requests addressed to any name but it and the loopback names are refused (see
    ``ragmeter.ui._hosts``), so give the real one."""
    token = required_token(host, token)  # before the store: nothing opened for an app that must not run
    the_store = store if isinstance(store, RunStore) else RunStore(store)
    app = FastAPI(title="ragmeter runs", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    if token:
        app.add_middleware(TokenGuard, token=token)
    app.add_middleware(HostGuard, names=allowed_names(host))  # added last: runs first
    loaded: OrderedDict[str, Any] = OrderedDict()
    lock = threading.Lock()  # sync endpoints run on a thread pool

    def load(run: str) -> Any:
        try:
            run_id = the_store.resolve(run)
            with lock:
                if run_id in loaded:
                    loaded.move_to_end(run_id)
                    return run_id, loaded[run_id]
            result = the_store.load(run_id)
        except RunNotFound as exc:
            raise HTTPException(404, str(exc)) from None
        with lock:
            loaded[run_id] = result
            while len(loaded) > LOADED_RUNS:
                loaded.popitem(last=False)
        return run_id, result

    @app.get("/api/runs", response_model=list[RunSummary])
    def list_runs(tag: str | None = None, branch: str | None = None, dataset: str | None = None,
                  status: str | None = None, limit: int = Query(500, ge=1, le=10_000)) -> list[RunSummary]:
        return the_store.list(tag=tag or None, branch=branch or None, dataset=dataset or None,
                              status=status or None, limit=limit)

    @app.get("/api/runs/{run}", response_model=RunSummary)
    def get_run(run: str) -> RunSummary:
        try:
            return the_store.get(run)
        except RunNotFound as exc:
            raise HTTPException(404, str(exc)) from None

    @app.get("/api/datasets")
    def datasets() -> list[dict[str, Any]]:
        """Test sets with finished runs: fingerprint, the latest source name, run count; and
        a source name whose runs hold several test sets (the windows ``ragmeter monitor``
        samples from production) as one more entry, its trend spanning them all."""
        seen: dict[str, dict[str, Any]] = {}
        by_name: dict[str, set[str]] = {}
        for run in the_store.list(status="finished"):
            if not run.dataset:
                continue
            if run.dataset not in seen:
                seen[run.dataset] = {"dataset": run.dataset, "name": run.dataset_name, "runs": 0}
            seen[run.dataset]["runs"] += 1
            by_name.setdefault(run.dataset_name, set()).add(run.dataset)
        groups = [{"dataset": name, "name": f"{name}, every version",
                   "runs": sum(seen[d]["runs"] for d in prints)}
                  for name, prints in by_name.items() if len(prints) > 1]
        return groups + list(seen.values())

    @app.get("/api/trend")
    def trend(dataset: str, tag: str | None = None) -> dict[str, Any]:
        """Per metric, a point per finished run of ``dataset``, oldest first, and the time
        range the charts share (see ``ragmeter.ui._trend``)."""
        return trend_data(dataset, the_store.trend(dataset, tag=tag or None))

    @app.get("/api/compare", response_model=RunComparison)
    def compare(a: str, b: str, k: int = Query(5, ge=0, le=100)) -> RunComparison:
        """B against A, with ``differences``: the settings (test set, judge...) they differ in,
        which the page shows as a warning above the numbers."""
        a_id, baseline = load(a)
        b_id, current = load(b)
        differences = run_differences(the_store.get(a_id), the_store.get(b_id))
        return compare_runs(current, baseline, current_id=b_id, baseline_id=a_id, k=k, differences=differences)

    @app.get("/", response_class=HTMLResponse)
    def runs_page() -> HTMLResponse:
        return _page("runs", "runs", RUNS_BODY)

    @app.get("/compare", response_class=HTMLResponse)
    def compare_page(a: str, b: str) -> HTMLResponse:
        a_id, _ = load(a)
        b_id, _ = load(b)
        return _page("compare", f"{b_id} against {a_id}", COMPARE_BODY, a=a_id, b=b_id)

    @app.get("/report", response_class=HTMLResponse)
    def report(run: str, baseline: str | None = None) -> HTMLResponse:
        from ragmeter.report import render_report

        run_id, result = load(run)
        base = load(baseline)[1] if baseline else None
        return HTMLResponse(render_report(result, baseline=base, title=f"ragmeter run {run_id}"))

    @app.get("/assets/{name}")
    def asset(name: str) -> Response:
        assets: dict[str, tuple[Callable[[], str], str]] = {
            "plotly.js": (_plotly_js, "text/javascript"),
            "ui.js": (lambda: _asset("ragmeter.ui", "ui.js"), "text/javascript"),
            "ui.css": (lambda: _asset("ragmeter.ui", "ui.css"), "text/css"),
            "report.css": (lambda: _asset("ragmeter.report", "report.css"), "text/css"),
        }
        if name not in assets:
            raise HTTPException(404, "no such asset")
        read, media = assets[name]
        return Response(read(), media_type=media, headers={"Cache-Control": "max-age=3600"})

    return app
