"""The HTML report: self-contained, complete, escaped, robust to odd runs; and its CLI.

Results are built by hand (or with judge-free metrics), so no model is loaded. What the page
does in a browser (charts drawn, rows that open) is in test_report_browser.py.
"""

from __future__ import annotations

import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import ragmeter
from ragmeter.calls.usage import Usage
from ragmeter.cli.app import app
from ragmeter.data import RowError, Sample
from ragmeter.errors import ErrorInfo
from ragmeter.gate import compare
from ragmeter.metrics.score import MetricScore
from ragmeter.report import render_report, write_report
from ragmeter.report.html import plotly_bundle
from ragmeter.report.payload import jsonable, metric_meta
from ragmeter.result import EvaluationResult, RunInfo, SampleResult

XSS = "<script>alert(1)</script>"
BREAKOUT = "</script><script>alert(2)</script>"


# ---------------------------------------------------------------- building results by hand


def score(value: float | None, reason: str = "", verdicts: Any = None, error: tuple[str, str] | None = None) -> MetricScore:
    info = ErrorInfo(kind=error[0], message=error[1], transient=False) if error else None
    return MetricScore(value=value, reason=reason or (error[1] if error else ""), verdicts=verdicts, error=info)


def make_result(
    rows: list[dict[str, Any]],
    metrics: list[str],
    *,
    run_id: str = "run-current",
    summary_metrics: list[str] | None = None,
    usage: dict[str, Usage] | None = None,
    input_errors: list[RowError] | None = None,
) -> EvaluationResult:
    """``rows``: dicts with sample fields plus ``scores`` (metric -> MetricScore)."""
    samples = []
    for i, row in enumerate(rows):
        row = dict(row)
        scores = row.pop("scores", {})
        sample = Sample(**row)
        samples.append(SampleResult(row=i, id=sample.id, sample=sample, scores=scores))
    info = RunInfo(
        run_id=run_id, ragmeter_version="0.1.0", metrics={m: {} for m in metrics}, judge="local",
        embedder="local:all-MiniLM-L6-v2", source="data.jsonl", started=1_700_000_000.0, finished=1_700_000_042.0,
        summary_metrics=summary_metrics if summary_metrics is not None else list(metrics),
    )
    return EvaluationResult(info=info, samples=samples, usage=usage or {}, input_errors=input_errors or [])


def rich_result() -> EvaluationResult:
    """Three metrics, a failed score, hostile text, nested verdicts, usage with and without a price."""
    rows = [
        {
            "id": "paris", "question": "What is the capital of France?", "answer": "Paris.",
            "contexts": ["France's capital is Paris."], "ground_truth": "Paris",
            "scores": {
                "faithfulness": score(1.0, "1 of 1 claims supported", [{"claim": "Paris is the capital.", "supported": True}]),
                "context_recall": score(0.5, "1 of 2 ground-truth claims found"),
                "token_f1": score(0.8, "token F1 0.8", {"precision": 0.9, "recall": 0.7}),
            },
        },
        {
            "id": "refusal", "question": "What is the capital of Atlantis?", "answer": "I don't know.",
            "contexts": ["Atlantis is fictional."], "ground_truth": "It has none.",
            "scores": {
                "faithfulness": score(None, error=("NoClaims", "the answer makes no claims to check")),
                "context_recall": score(0.0, "0 of 1 ground-truth claims found", []),
                "token_f1": score(0.1, "token F1 0.1"),
            },
        },
        {
            "id": "hostile", "question": f"Is {XSS} safe?", "answer": f"Maybe {BREAKOUT} & <b>bold</b>",
            "contexts": [f"<img src=x onerror=alert(3)> {XSS}"], "ground_truth": XSS,
            "metadata": {"note": XSS},
            "scores": {
                "faithfulness": score(0.25, f"reason with {XSS}", {"claims": [{"claim": XSS, "supported": False}]}),
                "context_recall": score(None, error=("JudgeOutputInvalid", f"bad output {XSS}")),
                "token_f1": score(0.3, "token F1 0.3"),
            },
        },
    ]
    usage = {
        "judge": Usage(calls=12, cache_hits=3, retries=1, prompt_tokens=4567, completion_tokens=890, cost=0.0123,
                       local_judgements=30, escalated_judgements=10, calls_saved=7),
        "embedder": Usage(calls=2, prompt_tokens=321),
    }
    return make_result(rows, ["faithfulness", "context_recall", "token_f1"],
                       summary_metrics=["faithfulness", "context_recall", "token_f1"], usage=usage)


class _Tags(HTMLParser):
    """Every start tag with its attributes (script bodies are not parsed as markup)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


def page_data(page: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert match, "the data blob is missing"
    return json.loads(match.group(1))


def section(page: str, name: str) -> str:
    match = re.search(rf'<section id="{name}">(.*?)</section>', page, re.S)
    assert match, f"section {name} missing"
    return match.group(1)


@pytest.fixture(scope="module")
def page() -> str:
    return render_report(rich_result(), title="Nightly <run>")


# ---------------------------------------------------------------- self-contained


def test_report_is_self_contained(page: str) -> None:
    plotly_js = plotly_bundle()
    assert page.count(plotly_js[:400]) == 1, "plotly.js must be inlined exactly once"
    assert "plotly.js (basic - minified) v" in plotly_js[:200]
    found = tags(page)
    scripts = [a for t, a in found if t == "script"]
    assert len(scripts) == 3  # plotly.js, the data, the page's script
    assert all("src" not in a for a in scripts)
    assert not [t for t, _ in found if t in {"link", "iframe", "img", "object", "embed", "base"}]
    # nothing in the markup would be fetched from elsewhere
    for tag, attrs in found:
        for name in ("src", "href", "action", "data", "srcset", "poster"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value.startswith(("http:", "https:", "//", "ftp:")), (tag, name, value)
    css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    assert "url(" not in css and "@import" not in css
    # the parts that are ours (not plotly.js) carry no URL at all
    ours = page.replace(plotly_js, "")
    assert not re.search(r"https?://", ours)


def test_report_shows_metrics_summary_and_usage(page: str) -> None:
    result = rich_result()
    assert "<title>Nightly &lt;run&gt;</title>" in page
    assert "<h1>Nightly &lt;run&gt;</h1>" in page
    assert "run-current" in page and "2023-11-14 22:13 UTC" in page
    overall = result.summary_score()
    assert overall is not None
    assert f'id="summary-score">{overall:.3f}<' in page
    summary = section(page, "summary")
    for name, s in result.summary().items():
        assert f"<b>{name}</b>" in summary
        assert f"{s.mean:.3f}" in summary
    distributions = section(page, "distributions")
    for i, name in enumerate(result.metric_names):
        assert f'id="chart-{i}" data-metric="{name}"' in distributions
    usage = section(page, "usage")
    for text in ("12", "4,567", "890", "$0.0123", "321", "no price known", "10 of 40 verdicts escalated", "25%", "7 calls saved"):
        assert text in usage, text
    assert "<b>total</b>" in usage  # two sources: a total row
    assert 'id="baseline"' not in page  # only with a baseline


def test_charts_are_binned_once_per_metric(page: str) -> None:
    data = page_data(page)
    assert [c["id"] for c in data["charts"]] == ["chart-0", "chart-1", "chart-2"]
    faithfulness = data["charts"][0]["figure"]
    (bars,) = faithfulness["data"]
    assert len(bars["y"]) == 20 and sum(bars["y"]) == 2  # 1.0 and 0.25; the failed score is not drawn
    assert bars["y"][19] == 1 and bars["y"][5] == 1
    annotations = faithfulness["layout"]["annotations"]
    assert annotations[0]["text"] == "mean 0.62"


def test_samples_are_in_the_page_data(page: str) -> None:
    data = page_data(page)
    assert [m["name"] for m in data["metrics"]] == ["faithfulness", "context_recall", "token_f1"]
    assert [s["id"] for s in data["samples"]] == ["paris", "refusal", "hostile"]
    paris = data["samples"][0]
    assert paris["q"] == "What is the capital of France?" and paris["ctx"] == ["France's capital is Paris."]
    assert paris["v"] == [1.0, 0.5, 0.8]
    assert paris["s"][0] == {"r": "1 of 1 claims supported", "vd": [{"claim": "Paris is the capital.", "supported": True}]}
    refusal = data["samples"][1]
    assert refusal["v"][0] is None
    assert refusal["s"][0]["e"] == {"kind": "NoClaims", "message": "the answer makes no claims to check", "transient": False}


def test_user_text_is_escaped(page: str) -> None:
    assert XSS not in page
    assert BREAKOUT not in page
    assert "<b>bold</b>" not in page
    assert "onerror=alert" not in page.replace("\\u003cimg src=x onerror=alert(3)\\u003e", "")
    # in the static sections: entities
    assert "bad output &lt;script&gt;alert(1)&lt;/script&gt;" in section(page, "errors")
    # in the data: the same text, back whole after JSON.parse
    hostile = page_data(page)["samples"][2]
    assert hostile["q"] == f"Is {XSS} safe?"
    assert hostile["a"] == f"Maybe {BREAKOUT} & <b>bold</b>"
    assert hostile["s"][0]["r"] == f"reason with {XSS}"
    assert hostile["s"][0]["vd"] == {"claims": [{"claim": XSS, "supported": False}]}
    assert hostile["more"] == {"metadata": {"note": XSS}}
    # the page's script never turns data into markup
    script = (Path(ragmeter.__file__).parent / "report" / "report.js").read_text(encoding="utf-8")
    assert ".innerHTML" not in script and ".outerHTML" not in script and "insertAdjacentHTML" not in script
    assert "document.write" not in script and "eval(" not in script


def test_failed_scores_show_kind_and_message(page: str) -> None:
    errors = section(page, "errors")
    assert "NoClaims" in errors and "the answer makes no claims to check" in errors
    assert "JudgeOutputInvalid" in errors
    assert 'data-open-row="1"' in errors and 'data-open-row="2"' in errors  # links to the samples
    summary = section(page, "summary")
    assert "(NoClaims 1)" in summary and "(JudgeOutputInvalid 1)" in summary


def test_input_errors_are_listed() -> None:
    result = make_result([], ["token_f1"], input_errors=[RowError(row=4, line=5, field="answer", message="expected a string, got int")])
    errors = section(render_report(result), "errors")
    assert "expected a string, got int" in errors and "answer" in errors


# ---------------------------------------------------------------- odd runs


def test_zero_samples() -> None:
    page = render_report(make_result([], ["faithfulness", "token_f1"]))
    assert 'id="summary-score">—<' in page
    assert "No samples in this run." in page
    data = page_data(page)
    assert data["samples"] == [] and len(data["charts"]) == 2
    assert data["charts"][0]["figure"]["layout"]["annotations"][0]["text"] == "no sample scored"
    assert "No failed scores." in page


def test_no_metrics_at_all() -> None:
    page = render_report(make_result([{"question": "q", "answer": "a"}], []))
    assert "No metric in this run." in page


def test_metric_with_no_scored_sample() -> None:
    rows = [{"question": f"q{i}", "answer": "a", "scores": {
        "faithfulness": score(None, error=("JudgeUnavailable", "connection refused")),
        "token_f1": score(0.5, "half"),
    }} for i in range(3)]
    page = render_report(make_result(rows, ["faithfulness", "token_f1"]))
    summary = section(page, "summary")
    assert "0 of 3" in summary and "(JudgeUnavailable 3)" in summary
    figure = page_data(page)["charts"][0]["figure"]
    assert figure["layout"]["annotations"][0]["text"] == "no sample scored"
    # the summary score uses the metrics that have a mean
    assert 'id="summary-score">0.500<' in page


def test_metric_not_run_on_a_sample() -> None:
    rows = [{"question": "q", "answer": "a", "scores": {"token_f1": score(0.5)}}]
    data = page_data(render_report(make_result(rows, ["token_f1", "bleu"])))
    assert data["samples"][0]["v"] == [0.5, None] and data["samples"][0]["s"][1] is None


def test_verdicts_of_any_shape_are_made_json() -> None:
    import numpy as np

    odd = {"t": (1, 2), "nan": float("nan"), "np": np.float32(0.5), "set": {3}, 7: "int key", "obj": object}
    converted = jsonable(odd)
    json.dumps(converted, allow_nan=False)
    assert converted["t"] == [1, 2] and converted["nan"] == "nan" and converted["np"] == 0.5 and converted["7"] == "int key"
    rows = [{"question": "q", "answer": "a", "scores": {"token_f1": score(0.5, verdicts=odd)}}]
    assert page_data(render_report(make_result(rows, ["token_f1"])))["samples"][0]["s"][0]["vd"]["t"] == [1, 2]


def test_lower_is_better_metric_is_marked() -> None:
    rows = [{"question": "q", "answer": "a", "scores": {"noise_sensitivity": score(0.2)}}]
    page = render_report(make_result(rows, ["noise_sensitivity"], summary_metrics=[]))
    assert "lower is better" in section(page, "summary")
    assert page_data(page)["metrics"][0]["higherIsBetter"] is False


def test_thousands_of_samples_stay_small_and_fast() -> None:
    rows = [{
        "id": f"s{i}", "question": f"question number {i}?", "answer": f"answer {i}", "contexts": [f"context {i}"],
        "scores": {
            "token_f1": score((i % 97) / 96, f"reason {i}", {"precision": 0.5, "recall": 0.5}),
            "rouge_l": score((i % 13) / 12, f"rouge {i}"),
            "exact_match": score(float(i % 2), "match" if i % 2 else "no match"),
        },
    } for i in range(3000)]
    result = make_result(rows, ["token_f1", "rouge_l", "exact_match"])
    started = time.perf_counter()
    page = render_report(result)
    assert time.perf_counter() - started < 10
    data = page_data(page)
    assert len(data["samples"]) == 3000
    assert len(data["charts"]) == 3  # one figure per metric, none per sample
    assert all(len(trace["y"]) == 20 for chart in data["charts"] for trace in chart["figure"]["data"])
    assert len(page) - len(plotly_bundle()) < 2_000_000


# ---------------------------------------------------------------- baseline


def baseline_pair() -> tuple[EvaluationResult, EvaluationResult]:
    """Current against baseline over 30 samples matched by id: faithfulness drops by 0.3
    everywhere (regressed), token_f1 rises by 0.2 (improved), rouge_l is the same
    (unchanged), bleu is only in the baseline (not comparable)."""
    def rows(current: bool) -> list[dict[str, Any]]:
        out = []
        for i in range(30):
            base = 0.3 + (i % 5) / 10
            scores = {
                "faithfulness": score(base + (0.0 if current else 0.3), f"f {i}"),
                "token_f1": score(base + (0.2 if current else 0.0), f"t {i}"),
                "rouge_l": score(base + (0.01 if i % 2 else -0.01), f"r {i}"),
            }
            if not current:
                scores["bleu"] = score(0.4)
            out.append({"id": f"s{i}", "question": f"q{i}", "answer": "a", "scores": scores})
        return out[::-1] if current else out  # order differs: matching is by id

    current = make_result(rows(True), ["faithfulness", "token_f1", "rouge_l"])
    baseline = make_result(rows(False), ["faithfulness", "token_f1", "rouge_l", "bleu"], run_id="run-baseline")
    return current, baseline


def test_baseline_comparison() -> None:
    current, baseline = baseline_pair()
    page = render_report(current, baseline=baseline)
    expected = {c.metric: c for c in compare(current, baseline)}
    assert {m: c.status for m, c in expected.items()} == {
        "faithfulness": "regressed", "token_f1": "improved", "rouge_l": "unchanged", "bleu": "not comparable"}
    part = section(page, "baseline")
    for name, c in expected.items():
        row = re.search(rf"<tr><td><b>{name}</b></td>(.*?)</tr>", part, re.S).group(1)
        label = {"unchanged": "no significant change"}.get(c.status, c.status)
        assert f'class="status {c.status.replace(" ", "-")}">{label}<' in row
        if c.delta is not None:
            assert f"{c.delta:+.3f}" in row and f"[{c.ci_low:+.3f}, {c.ci_high:+.3f}]" in row
            assert f"<td>{c.paired}</td>" in row
    assert "paired bootstrap" in part and "excludes zero" in part
    assert 'id="chart-compare"' in part
    assert "run-baseline" in page and 'href="#baseline"' in page
    data = page_data(page)
    assert data["hasBaseline"] is True
    assert [c["id"] for c in data["charts"]][-1] == "chart-compare"
    assert len(data["charts"][0]["figure"]["data"]) == 2  # baseline bars behind the current ones
    # per sample, the baseline's value of the same sample (matched by id, not by position)
    first = data["samples"][0]
    assert first["id"] == "s29"
    assert first["b"][0] == pytest.approx(first["v"][0] + 0.3)
    assert first["br"][0] == "f 29"


def test_baseline_section_says_header_delta() -> None:
    current, baseline = baseline_pair()
    page = render_report(current, baseline=baseline)
    base_score, score_now = baseline.summary_score(), current.summary_score()
    assert f"baseline {base_score:.3f} ({score_now - base_score:+.3f})" in page


# ---------------------------------------------------------------- write_report and the CLI


def test_write_report_creates_folders(tmp_path: Path) -> None:
    path = write_report(rich_result(), tmp_path / "a" / "b" / "report.html", title="T")
    assert path == tmp_path / "a" / "b" / "report.html"
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_report_of_a_real_run(tmp_path: Path) -> None:
    records = [
        {"id": "cat", "question": "Where did the cat sit?", "answer": "the cat sat on the mat",
         "ground_truth": "the cat is on the mat", "contexts": ["a cat"]},
        {"id": "empty", "question": "Anything?", "answer": "something", "contexts": ["x"]},  # no ground truth
    ]
    result = ragmeter.evaluate(records, ["exact_match", "token_f1", "rouge_l"], cache=False, journal=False, show_progress=False)
    saved = result.save(tmp_path / "result.json")
    page = write_report(EvaluationResult.load(saved), tmp_path / "report.html").read_text(encoding="utf-8")
    data = page_data(page)
    assert [s["id"] for s in data["samples"]] == ["cat", "empty"]
    assert data["samples"][1]["s"][0]["e"]["kind"] == "MissingInput"
    assert "MissingInput" in section(page, "errors")


def test_report_of_a_streamed_run(tmp_path: Path) -> None:
    """A run written to a file as it goes returns without its samples; the page reads them back."""
    records = [{"id": f"r{i}", "question": f"q{i}?", "answer": "the cat sat", "ground_truth": "the cat sat"} for i in range(3)]
    result = ragmeter.evaluate(records, ["exact_match", "token_f1"], cache=False, journal=False, show_progress=False,
                               out=tmp_path / "result.json")
    assert result.samples == []
    data = page_data(render_report(result))
    assert [s["id"] for s in data["samples"]] == ["r0", "r1", "r2"]


runner = CliRunner()


def test_cli_writes_the_report(tmp_path: Path) -> None:
    current, baseline = baseline_pair()
    cur_path, base_path = current.save(tmp_path / "cur.json"), baseline.save(tmp_path / "base.json")
    out = tmp_path / "out" / "report.html"
    res = runner.invoke(app, ["report", str(cur_path), "-o", str(out), "--baseline", str(base_path), "--title", "PR 42"])
    assert res.exit_code == 0, res.output
    assert "report written to" in res.output and "report.html" in res.output
    page = out.read_text(encoding="utf-8")
    assert "<h1>PR 42</h1>" in page and 'id="baseline"' in page


def test_cli_default_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    rich_result().save(tmp_path / "result.json")
    res = runner.invoke(app, ["report", "result.json"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "report.html").exists()


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "does not exist"),
        ("{not json", "is not JSON"),
        ('{"samples": []}', "is not a ragmeter result"),
        ("[1, 2]", "is not a ragmeter result"),
    ],
)
def test_cli_bad_result_file_exits_2(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "result.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    res = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 2
    assert message in " ".join(res.output.split())
    assert not (tmp_path / "r.html").exists()


def test_cli_bad_baseline_exits_2(tmp_path: Path) -> None:
    good = rich_result().save(tmp_path / "result.json")
    res = runner.invoke(app, ["report", str(good), "-o", str(tmp_path / "r.html"), "--baseline", str(tmp_path / "nope.json")])
    assert res.exit_code == 2
    assert "baseline file" in res.output and "does not exist" in " ".join(res.output.split())


# ---------------------------------------------------------------- a new user's first report


def test_a_typical_report_is_small_and_labels_answer_similarity_by_its_settings() -> None:
    from ragmeter import evaluate

    rows = [{"question": f"Question {i}?", "answer": f"The answer is {i} and more words.",
             "ground_truth": f"The answer is {i}.", "contexts": [f"Context {i}."]} for i in range(21)]
    result = evaluate(rows, ["token_f1", "rouge_l", "exact_match", "bleu"], show_progress=False, journal=False)
    page = render_report(result)
    assert len(page.encode("utf-8")) < 1_500_000, len(page.encode("utf-8"))
    assert "0 or 1" in _summary_row(page, "exact_match") and "0 or 1" not in _summary_row(page, "token_f1")
    # the label follows the run's settings, not a class-level read of a property
    assert not metric_meta("answer_similarity", {"threshold": None}).binary
    assert metric_meta("answer_similarity", {"threshold": 0.8}).binary
    # every table sits in a scrolling box, so a narrow window scrolls the table, not the page
    markup = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    assert markup.count("<table") == len(re.findall(r'<div class="tablewrap"[^>]*><table', markup)) >= 2


def _summary_row(page: str, metric: str) -> str:
    return re.search(rf"<tr><td><b>{metric}</b>.*?</tr>", page).group(0)
