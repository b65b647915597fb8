"""Streaming evaluation: lazy input, bounded memory, results written as they finish."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragmeter import Dataset, EvaluationResult, evaluate
from ragmeter.data.stream import SampleStream, stream_samples
from ragmeter.engine import evaluate as engine_module  # noqa: F401
from ragmeter.engine.core import ResultSink

METRICS = ["exact_match", "token_f1", "rouge_l", "string_similarity", "id_context_recall"]


def records(n: int) -> list[dict]:
    out = []
    for i in range(n):
        out.append({
            "id": f"s{i}",
            "question": f"What is item {i}?",
            "answer": f"Item {i} is a {'red' if i % 3 else 'blue'} thing number {i}",
            "ground_truth": f"Item {i} is a red thing number {i}",
            "retrieved_context_ids": [f"c{i}", f"c{i + 1}"],
            "reference_context_ids": [f"c{i}"] if i % 4 else [f"c{i + 5}"],
        })
    out.insert(7, {"question": 42, "answer": "not text"})  # a bad row, named and skipped
    return out


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def files(tmp_path):
    rows = records(300)
    jsonl = tmp_path / "data.jsonl"
    jsonl.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    good = Dataset.from_records(rows)
    good.to_csv(tmp_path / "data.csv")
    good.to_parquet(tmp_path / "data.parquet")
    return {"jsonl": jsonl, "csv": tmp_path / "data.csv", "parquet": tmp_path / "data.parquet"}


def scores_by_id(result: EvaluationResult) -> dict:
    return {s.id: {m: (v.value, v.reason) for m, v in s.scores.items()} for s in result.samples}


def test_files_are_read_lazily_and_every_format_streams(files):
    for path in files.values():
        stream = stream_samples(path)
        assert stream.lazy
        first = next(iter(stream))
        assert first[0] == 0
    assert not stream_samples(Dataset.from_records(records(3))).lazy


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("out_ext", ["json", "parquet"])
def test_streamed_run_writes_what_the_in_memory_run_returns(files, tmp_path, fmt, out_ext):
    in_memory = evaluate(files["jsonl"], METRICS, journal=False, show_progress=False)
    out = tmp_path / f"result.{out_ext}"
    streamed = evaluate(files[fmt], METRICS, journal=False, show_progress=False, out=out, concurrency=4)
    assert streamed.samples == [] and streamed.streamed.path == str(out)
    assert streamed.sample_count == 300
    for name, s in streamed.summary().items():
        assert s.mean == pytest.approx(in_memory.summary()[name].mean, abs=1e-12)
        assert s.scored == in_memory.summary()[name].scored
    back = EvaluationResult.load(out)
    assert [s.row for s in back.samples] == sorted(s.row for s in back.samples)
    assert scores_by_id(back) == scores_by_id(in_memory)
    if fmt == "jsonl":  # the bad row, named, in the file too
        assert [(e.row, e.field) for e in back.input_errors] == [(7, "question")]
        assert back.info.run_id == in_memory.info.run_id
    assert back.summary() == streamed.summary() or all(
        back.summary()[m].mean == pytest.approx(streamed.summary()[m].mean) for m in METRICS)


def test_keep_samples_returns_them_as_well(files, tmp_path):
    result = evaluate(files["jsonl"], METRICS, journal=False, show_progress=False,
                      out=tmp_path / "r.json", keep_samples=True)
    assert len(result.samples) == 300 and (tmp_path / "r.json").exists()
    assert result.with_samples() is result


def test_at_most_a_few_times_concurrency_samples_are_in_flight(files, monkeypatch):
    """The reader waits for the workers: the number of samples read but not finished stays
    bounded by the queue (2 x concurrency) plus the samples being scored (concurrency)."""
    finished = peak = passes = 0
    inner = stream_samples(files["jsonl"])

    def rows():  # the engine reads twice: once for the run's identity, once to score
        nonlocal peak, passes
        passes += 1
        read = 0
        for item in inner:
            read += 1
            if passes == 2:
                peak = max(peak, read - finished)
            yield item

    original = ResultSink.add

    def add(self, *args):
        nonlocal finished
        finished += 1
        original(self, *args)

    monkeypatch.setattr(ResultSink, "add", add)
    evaluate(SampleStream(rows, "counted", lazy=True), METRICS, journal=False, show_progress=False,
             concurrency=3, out=files["jsonl"].with_name("bounded.json"))
    assert finished == 300 and passes == 2
    assert peak <= 3 * 3 + 2


def test_a_run_that_dies_leaves_no_half_file_and_resumes(files, tmp_path, monkeypatch):
    out = tmp_path / "result.parquet"
    calls = 0
    original = ResultSink.add

    def add_then_die(self, *args):
        nonlocal calls
        calls += 1
        if calls == 150:
            raise KeyboardInterrupt
        original(self, *args)

    monkeypatch.setattr(ResultSink, "add", add_then_die)
    with pytest.raises(KeyboardInterrupt):
        evaluate(files["jsonl"], METRICS, show_progress=False, out=out, concurrency=2)
    assert not out.exists() and not list(tmp_path.glob(".result.parquet*"))
    monkeypatch.setattr(ResultSink, "add", original)
    result = evaluate(files["jsonl"], METRICS, show_progress=False, out=out, concurrency=2)
    assert result.info.resumed_scores >= 140 * len(METRICS)
    assert EvaluationResult.load(out).sample_count == 300


def test_bad_output_extension_fails_before_any_work(files, tmp_path):
    with pytest.raises(ValueError, match=".json or .parquet"):
        evaluate(files["jsonl"], METRICS, out=tmp_path / "r.csv", show_progress=False)


def test_cli_streams_to_parquet_and_gate_and_report_read_it(files, tmp_path):
    from ragmeter.cli.app import app

    runner = CliRunner()
    out = tmp_path / "r.parquet"
    done = runner.invoke(app, ["evaluate", str(files["jsonl"]), "-m", ",".join(METRICS), "-o", str(out), "-q"])
    assert done.exit_code == 0, done.output
    assert "300 samples" in done.output and out.exists()
    gate = runner.invoke(app, ["gate", str(out), "--min", "token_f1=0.5"])
    assert gate.exit_code == 0, gate.output
    report = runner.invoke(app, ["report", str(out), "-o", str(tmp_path / "r.html")])
    assert report.exit_code == 0, report.output
    assert "s299" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_a_run_that_cannot_start_leaves_no_temporary_file(files, tmp_path):
    with pytest.raises(ValueError):
        evaluate(files["jsonl"], ["faithfulness"], judge="nosuchprovider:model", out=tmp_path / "r.parquet",
                 show_progress=False)
    assert list(tmp_path.glob(".r.parquet*")) == [] and not (tmp_path / "r.parquet").exists()
