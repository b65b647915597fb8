"""The bundled HaluEval benchmark: the data as shipped, and ``ragmeter align --benchmark
halueval`` with the local judge printing the same figures as bench/quality.py, which scores
the same rows through ``ragmeter.evaluate`` directly."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragmeter.align import benchmark_path, load_benchmark
from ragmeter.align.benchmark import length_matched, pair_rows
from ragmeter.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
# beside the repository, as bench/quality.py reads it (a git worktree sits one level deeper)
SHARED = next((p for p in (ROOT.parent / "shared" / "datasets" / "halueval_qa_dev.jsonl",
                           ROOT.parent.parent / "shared" / "datasets" / "halueval_qa_dev.jsonl") if p.exists()),
              ROOT.parent / "shared" / "datasets" / "halueval_qa_dev.jsonl")


def test_bundled_data_is_small_licensed_and_half_length_matched():
    path = benchmark_path("halueval")
    assert path.stat().st_size < 400_000
    assert "MIT License" in (path.parent / "LICENSE_HaluEval_MIT.txt").read_text()
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 500
    pairs = pair_rows(rows)
    assert len(pairs) == 250
    assert sum(length_matched(a["answer"], b["answer"]) for a, b in pairs) == 125
    # interleaved: any prefix of questions holds both kinds
    assert [length_matched(a["answer"], b["answer"]) for a, b in pairs[:4]] == [True, False, True, False]
    labels = load_benchmark("halueval", limit=3)
    assert [s.labels for s in labels.samples] == [{"faithfulness": 1}, {"faithfulness": 0}] * 3
    with pytest.raises(ValueError, match="unknown benchmark"):
        benchmark_path("msmarco")


@pytest.mark.skipif(not SHARED.exists(), reason="the development set is not beside the repository")
def test_bundled_rows_are_verbatim_rows_of_the_source():
    source = {}
    with SHARED.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            source[row["id"]] = row
    bundled = benchmark_path("halueval").read_text().splitlines()
    assert len(bundled) == 500
    for line in bundled:
        row = json.loads(line)
        assert source[row["id"]] == row


def test_align_benchmark_reproduces_bench_quality(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    spec = importlib.util.spec_from_file_location("bench_quality", ROOT / "bench" / "quality.py")
    quality = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_quality", quality)  # its dataclasses look themselves up there
    spec.loader.exec_module(quality)  # type: ignore[union-attr]
    questions = 16
    expected = quality.halueval_metric(benchmark_path("halueval"), questions)

    out = tmp_path / "bench.json"
    result = CliRunner().invoke(app, ["align", "--benchmark", "halueval", "--limit", str(questions), "--judge", "local",
                                      "--no-cache", "-q", "--resamples", "100", "--json", str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())["benchmark"]
    assert figures["answers"] == expected["answers"] == 2 * questions
    assert figures["scored"] == expected["scored"]
    assert figures["length_matched_pairs"] == questions // 2
    for key in ("auroc", "auroc_length_matched", "pair_accuracy", "pair_accuracy_length_matched"):
        assert figures[key] == pytest.approx(expected[key]), key
    assert 0.5 < figures["auroc"] <= 1.0
