"""``evaluate --out``: failed scores are listed as without ``--out``, not only counted.

A streamed run does not keep its samples, so the CLI had only the summary's counts and said
"N score(s) failed ... each with its error in PATH": the rows, metrics and errors were in a
file to open. The sink now keeps the first failures in row order (a fixed number, so memory
stays flat), and the CLI lists them exactly as an in-memory run does, then says where the
rest are.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter import evaluate
from ragmeter.cli.app import app
from ragmeter.cli.tables import MAX_ERRORS_SHOWN
from ragmeter.result import ErrorRow


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def write(tmp_path, rows):
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def rows_with_gaps(n, every):
    """``n`` rows; each ``every``-th lacks its ground truth (a MissingInput for exact_match)."""
    out = []
    for i in range(n):
        row = {"id": f"s{i}", "question": "Capital of France?", "answer": "Paris"}
        if i % every:
            row["ground_truth"] = "Paris"
        out.append(row)
    return out


def problems(output: str) -> list[str]:
    """The listed problems under "N problem(s)", each on one line again (rich wraps them at
    80 columns off a terminal: a continuation line is not indented)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "problem(s)" in line) + 1
    listed: list[str] = []
    for line in lines[start:]:
        if line.startswith("  "):
            listed.append(line)
        elif listed and line and not line.startswith(("embedder:", "judge:", "result written", "run recorded")):
            listed[-1] += " " + line.strip()
        else:
            break
    return [" ".join(entry.split()) for entry in listed]


def cli(*args):
    result = CliRunner().invoke(app, ["evaluate", *map(str, args), "-m", "exact_match", "-q", "--no-record"])
    assert result.exit_code == 0, result.output
    return result.output


def test_out_lists_the_failed_scores_as_a_run_without_out_does(tmp_path):
    data = write(tmp_path, rows_with_gaps(9, every=4) + [{"question": 7}])  # rows 0, 4, 8 fail; row 9 is bad
    kept = cli(data)
    streamed = cli(data, "-o", tmp_path / "result.json")
    assert problems(streamed) == problems(kept)
    assert problems(kept) == [
        "row 0 (s0) exact_match: MissingInput: field 'ground_truth' missing or empty; exact_match needs answer, ground_truth",
        "row 4 (s4) exact_match: MissingInput: field 'ground_truth' missing or empty; exact_match needs answer, ground_truth",
        "row 8 (s8) exact_match: MissingInput: field 'ground_truth' missing or empty; exact_match needs answer, ground_truth",
        "row 9: InvalidInput: line 10, field 'question': expected a string, got int",
    ]
    assert "4 problem(s)" in streamed


def test_out_lists_the_first_failures_and_says_where_the_others_are(tmp_path):
    data = write(tmp_path, rows_with_gaps(50, every=2))  # 25 failures: rows 0, 2, ..., 48
    out = tmp_path / "result.parquet"
    streamed = cli(data, "-o", out, "--concurrency", "7")  # samples finish out of row order
    listed = problems(streamed)
    assert listed[:MAX_ERRORS_SHOWN] == problems(cli(data))[:MAX_ERRORS_SHOWN]
    assert [line.split()[1] for line in listed[:MAX_ERRORS_SHOWN]] == [str(r) for r in range(0, 40, 2)]
    # compared without spaces: rich breaks a path longer than the line inside the path itself
    assert ["".join(line.split()) for line in listed[MAX_ERRORS_SHOWN:]] == \
        ["".join(f"... and 5 more (each with its error in {out})".split())]
    assert "25 problem(s)" in streamed


def test_a_streamed_result_carries_its_first_failures_in_row_order(tmp_path):
    result = evaluate(rows_with_gaps(50, every=2), ["exact_match"], out=tmp_path / "result.json",
                      concurrency=7, show_progress=False, journal=False, record=False)
    assert result.samples == [] and result.streamed is not None
    assert result.streamed.failures == [
        ErrorRow(row=r, id=f"s{r}", metric="exact_match", kind="MissingInput",
                 message="field 'ground_truth' missing or empty; exact_match needs answer, ground_truth")
        for r in range(0, 40, 2)
    ]
    assert result.streamed.summary["exact_match"].errors == 25
