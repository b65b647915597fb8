"""``ragmeter align`` end to end: labels files (good and bad rows), the scripted judge through
the OpenAI mock server, both judge layouts side by side, the CLI's table and JSON, and
prediction-powered means of a run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragmeter import evaluate
from ragmeter.align import align, labels_from_records, load_labels, ppi_summary
from ragmeter.cli.app import app
from ragmeter.testing import OpenAIMockServer, scripted_judge

CONTEXT = ["Paris is the capital of France. The Eiffel Tower is 330 metres tall."]
TRUTH = "Paris is the capital of France."
# (answer, faithfulness label, note): the scripted judge's faithfulness is the share of the
# answer's sentences whose content words and numbers all appear in the context
ROWS = [
    ("Paris is the capital of France.", 1, None),  # judge 1
    ("The Eiffel Tower is 330 metres tall.", 1, None),  # 1
    ("Lyon is the capital of France.", 0, None),  # 0
    ("The Eiffel Tower is 500 metres tall.", 0, None),  # 0
    ("Paris is the capital of France. Lyon is big.", 0, "Lyon is made up"),  # 0.5
    ("Paris is the capital of France. The tower is 330 metres tall.", 0, "which tower?"),  # 1
    ("Berlin is the capital of Germany.", 1, "true, if off topic"),  # 0
    ("Paris is the capital of France. Madrid is sunny. Rome is old.", 0, None),  # 1/3
]


def records():
    return [
        {"id": f"s{i}", "question": "Tell me about Paris.", "answer": answer, "contexts": CONTEXT,
         "ground_truth": TRUTH, "labels": {"faithfulness": label}, **({"note": note} if note else {})}
        for i, (answer, label, note) in enumerate(ROWS)
    ]


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as srv:
        yield srv


def test_labels_file_loads_and_names_bad_rows(tmp_path):
    path = tmp_path / "labels.jsonl"
    good = records()[:2]
    lines = [json.dumps(good[0]),
             json.dumps({"answer": "a", "contexts": ["c"]}),
             json.dumps({"answer": "a", "labels": {"faithfulness": 1.5}}),
             "",
             json.dumps({"answer": 3, "labels": {"faithfulness": 1}}),
             json.dumps({"answer": "a", "labels": {"faithfulness": 1}, "note": 7}),
             json.dumps(good[1])]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    labels = load_labels(path)
    assert [s.sample.id for s in labels.samples] == ["s0", "s1"]
    assert [(e.row, e.line, e.field) for e in labels.errors] == [
        (1, 2, "labels"), (2, 3, "labels"), (3, 5, "answer"), (4, 6, "note")]
    assert "label of 'faithfulness' must be 0/1 or a number in [0, 1], got 1.5" in labels.errors[1].message
    assert labels.metrics() == ["faithfulness"] and labels.binary("faithfulness")
    # a labels set saves back to the same records
    again = load_labels(labels.save(tmp_path / "again.jsonl"))
    assert [s.to_record() for s in again.samples] == [s.to_record() for s in labels.samples]
    train, test = labels_from_records(records()).split(0.25, seed=1)
    assert len(train) == 6 and len(test) == 2
    assert {s.row for s in train.samples} | {s.row for s in test.samples} == set(range(8))
    assert [s.row for s in labels_from_records(records()).split(0.25, seed=1)[1].samples] == [s.row for s in test.samples]


def test_align_with_the_scripted_judge_matches_hand_computed_values(server):
    report = align(labels_from_records(records()), ["faithfulness"], judge=f"openai:mock@{server.base_url}",
                   cache=False, resamples=200)
    m = report.runs[0].metrics["faithfulness"]
    assert m.scores == pytest.approx([1.0, 1.0, 0.0, 0.0, 0.5, 1.0, 0.0, 1 / 3])
    assert m.n == 8 and m.binary_labels and m.threshold == 0.5
    assert m.confusion == {"tp": 2, "fp": 2, "fn": 1, "tn": 3}
    assert m.accuracy.value == pytest.approx(5 / 8)
    assert m.balanced_accuracy.value == pytest.approx((2 / 3 + 3 / 5) / 2)
    assert m.cohen_kappa.value == pytest.approx(0.25)
    assert m.pairwise_accuracy.value == pytest.approx(10 / 15)
    assert m.accuracy.low <= m.accuracy.value <= m.accuracy.high
    assert [(d.id, d.score, d.label, d.note) for d in m.disagreements] == [
        ("s4", 0.5, 0.0, "Lyon is made up"), ("s5", 1.0, 0.0, "which tower?"), ("s6", 0.0, 1.0, "true, if off topic")]
    assert "1 of 2 claims are supported" in m.disagreements[0].reason
    # a stricter pass mark moves the 0.5 sample to "no": one disagreement fewer
    strict = align(labels_from_records(records()), ["faithfulness"], judge=f"openai:mock@{server.base_url}",
                   cache=False, resamples=200, thresholds={"faithfulness": 0.6})
    assert strict.runs[0].metrics["faithfulness"].confusion == {"tp": 2, "fp": 1, "fn": 1, "tn": 4}


def test_both_layouts_side_by_side(server):
    """Two metrics that need claims of the answer and of the ground truth: bundled asks each
    phase in one call (2 per sample), per_task asks each kind apart (4 per sample); the
    scripted judge answers alike, so agreement is the same and only the cost differs."""
    labelled = labels_from_records(
        [{**r, "labels": {**r["labels"], "context_recall": 1}} for r in records()])
    report = align(labelled, ["faithfulness", "context_recall"], judge=f"openai:mock@{server.base_url}",
                   layouts=("bundled", "per_task"), cache=False, resamples=100)
    bundled, per_task = report.runs
    assert (bundled.layout, per_task.layout) == ("bundled", "per_task")
    assert (bundled.calls, per_task.calls) == (16, 32)
    # a retried attempt (a connection dropped on a loaded machine) is counted apart; the server
    # may or may not have seen it
    assert 48 <= len(server.calls("/chat/completions")) <= 48 + bundled.retries + per_task.retries
    assert per_task.prompt_tokens > bundled.prompt_tokens
    for name in ("faithfulness", "context_recall"):
        assert bundled.metrics[name].scores == per_task.metrics[name].scores
    # one task per request in the per_task run
    tasks = [m["content"].count("\nTask ") + m["content"].startswith("Task ")
             for r in server.calls("/chat/completions") for m in r.json["messages"] if m["role"] == "user"]
    # the bundled run's calls carry 2 tasks each, then every per_task call carries 1
    assert tasks == [2] * tasks.count(2) + [1] * tasks.count(1)
    assert tasks.count(2) >= 16 and tasks.count(1) >= 32


def test_cli_table_json_and_ppi(server, tmp_path, monkeypatch):
    from ragmeter.cli.app import out

    monkeypatch.setattr(out, "width", 250)  # one table row per line
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(r) + "\n" for r in records()) + '{"answer": "x", "labels": 1}\n',
                      encoding="utf-8")
    judge = f"openai:mock@{server.base_url}"
    run = evaluate([{k: v for k, v in r.items() if k not in ("labels", "note")} for r in records() * 3],
                   ["faithfulness"], judge=judge, journal=False, show_progress=False)
    run_path = run.save(tmp_path / "run.json")
    out_json = tmp_path / "align.json"
    result = CliRunner().invoke(app, ["align", str(labels), "--judge", judge, "--resamples", "200", "-q",
                                      "--json", str(out_json), "--result", str(run_path), "--show", "1"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # rich wraps lines at the terminal's width
    assert "row 8 (line 9), field 'labels'" in text
    assert "0.625 [" in text and "0.250 [" in text
    assert "judge yes & person no 2" in text
    assert "and 2 more disagreements" in text
    assert "prediction-powered" in text
    data = json.loads(out_json.read_text())
    m = data["runs"][0]["metrics"]["faithfulness"]
    assert m["cohen_kappa"]["value"] == pytest.approx(0.25)
    assert len(m["disagreements"]) == 3 and data["input_errors"]
    # the PPI mean: the run's judge mean minus the judge's mean error on the labels
    judge_mean = sum([1, 1, 0, 0, 0.5, 1, 0, 1 / 3]) / 8
    means = ppi_summary(run, align(labels_from_records(records()), judge=judge, resamples=100))
    assert means["faithfulness"].naive.mean == pytest.approx(judge_mean)
    assert means["faithfulness"].ppi.mean == pytest.approx(judge_mean - (judge_mean - 3 / 8))
    # the same file feeds the report's section and the gate's bias-corrected means
    page = tmp_path / "report.html"
    shown = CliRunner().invoke(app, ["report", str(run_path), "--alignment", str(out_json), "-o", str(page)])
    assert shown.exit_code == 0, shown.output
    html = page.read_text()
    assert '<section id="alignment"><h2>Agreement with people</h2>' in html
    assert "<td>0.250 [" in html and "person: which tower?" in html
    assert "corrected by the judge&#x27;s measured bias" in html or "corrected by the judge's measured bias" in html
    gated = CliRunner().invoke(app, ["gate", str(run_path), "--alignment", str(out_json)])
    assert gated.exit_code == 0, gated.output
    gate_text = " ".join(gated.output.split())
    assert f"faithfulness: judge {judge_mean:.3f} [" in gate_text and "prediction-powered 0.375 [" in gate_text
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    failed = CliRunner().invoke(app, ["report", str(run_path), "--alignment", str(broken), "-o", str(page)])
    assert failed.exit_code == 2 and "is not a `ragmeter align --json` file" in " ".join(failed.output.split())
    unlabelled = CliRunner().invoke(app, ["align", str(labels), "--judge", judge, "-m", "context_recall"])
    assert unlabelled.exit_code == 2
    assert "has a label for 'context_recall'; labelled metrics: faithfulness" in " ".join(unlabelled.output.split())
    bad = CliRunner().invoke(app, ["align", "--judge", judge])
    assert bad.exit_code == 2 and "give a LABELS file or --benchmark" in " ".join(bad.output.split())


def test_cli_piped_prints_whole_plain_rows_and_json_to_stdout_with_json_dash(server, tmp_path, monkeypatch):
    """Piped (CliRunner's stdout is no terminal; rich would draw 80 columns and cut cells to
    "fait…", "[0.7…"), every table is a "# title" line, a tab-separated header and rows, and
    no line is wrapped; ``--json -`` puts the report's JSON alone on stdout, the tables on
    stderr."""
    import re

    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(r) + "\n" for r in records()), encoding="utf-8")
    judge = f"openai:mock@{server.base_url}"
    args = ["align", str(labels), "--judge", judge, "--resamples", "200", "-q", "--show", "1"]
    runner = CliRunner()
    piped = runner.invoke(app, args)
    assert piped.exit_code == 0, piped.output
    lines = piped.stdout.splitlines()
    assert "…" not in piped.stdout and "─" not in piped.stdout and "│" not in piped.stdout
    at = lines.index(f"# agreement with the labels: judge {judge}, layout bundled (value [95% bootstrap interval])")
    assert lines[at + 1].split("\t") == ["metric", "n", "accuracy", "balanced acc.", "Cohen's kappa", "Spearman",
                                         "Kendall", "pairwise acc.", "judge mean", "label mean"]
    row = lines[at + 2].split("\t")
    assert row[:2] == ["faithfulness", "8"] and row[8:] == ["0.479", "0.375"]
    assert all(re.fullmatch(r"-?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\]", cell) for cell in row[2:8]), row
    assert row[2].startswith("0.625 [") and row[4].startswith("0.250 [")
    assert lines[at + 3] == ""
    assert ("faithfulness at threshold 0.5: judge yes & person yes 2, judge yes & person no 2, judge no & person "
            "yes 1, judge no & person no 3") in lines
    assert any(line.startswith("  s4: judge 0.50, person 0: ") and line.endswith("; person: Lyon is made up")
               for line in lines)
    monkeypatch.chdir(tmp_path)
    dashed = runner.invoke(app, [*args, "--json", "-"])
    assert dashed.exit_code == 0, dashed.output
    assert not Path("-").exists()
    data = json.loads(dashed.stdout)
    assert data["runs"][0]["metrics"]["faithfulness"]["cohen_kappa"]["value"] == pytest.approx(0.25)
    assert "# agreement with the labels" in dashed.stderr and "report written" not in dashed.stderr


def test_a_terminal_80_columns_wide_gets_the_table_turned_not_cut(server):
    """Ten columns of intervals do not fit 80 columns: drawn as they are, rich cut every cell
    ("fait…", "[0.2…"); turned, each statistic is a line and each value whole."""
    import io

    from rich.console import Console

    from ragmeter.cli.align import print_report

    report = align(labels_from_records(records()), ["faithfulness"], judge=f"openai:mock@{server.base_url}",
                   cache=False, resamples=200)
    screen = io.StringIO()
    print_report(report, 1, Console(file=screen, width=80, force_terminal=True, color_system=None))
    text = screen.getvalue()
    assert "…" not in text and max(len(line) for line in text.splitlines() if "│" in line) <= 80
    m = report.runs[0].metrics["faithfulness"]
    lines = [" ".join(line.replace("│", " ").replace("┃", " ").split()) for line in text.splitlines()]
    assert "metric faithfulness" in lines
    for label, stat in (("accuracy", m.accuracy), ("balanced acc.", m.balanced_accuracy),
                        ("Cohen's kappa", m.cohen_kappa), ("pairwise acc.", m.pairwise_accuracy)):
        assert f"{label} {stat.text()}" in lines, label
    assert "judge mean 0.479" in lines and "label mean 0.375" in lines
    wide = io.StringIO()  # wide enough: drawn as it is
    print_report(report, 1, Console(file=wide, width=250, force_terminal=True, color_system=None))
    assert any(line.split("│")[1].strip() == "faithfulness" for line in wide.getvalue().splitlines() if "│" in line)


def test_per_task_layout_through_get_judge():
    from ragmeter.judges import get_judge

    url = "openai:m@http://127.0.0.1:1/v1"
    assert get_judge(url, options={"layout": "per_task"}, cache=False).layout == "per_task"
    assert get_judge(url, cache=False).layout == "bundled"
    assert get_judge(f"local+{url}", options={"layout": "per_task"}, cache=False).llm.layout == "per_task"
    with pytest.raises(ValueError, match="layout must be one of"):
        get_judge(url, options={"layout": "sideways"}, cache=False)
