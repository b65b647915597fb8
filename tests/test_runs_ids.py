"""One id per run, the store's: the summary, the result file, the report, the gate and
``ragmeter runs`` all name a recorded run the same way, and every ``runs`` command takes a
unique prefix of it. The identity of the run's inputs (the journal's key) is never shown.
Runs stored before the result carried the store's id are read back under it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from ragmeter import EvaluationResult
from ragmeter.cli.app import app
from ragmeter.runs import RunStore

METRICS = "token_f1,exact_match"
runner = CliRunner()


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def write_rows(path: Path, n: int, broken_every: int = 0) -> Path:
    rows = []
    for i in range(n):
        truth = f"the answer {i} is {i % 7} pears"
        rows.append({"id": f"s{i}", "question": f"How many pears in basket {i}?",
                     "answer": "no idea" if broken_every and i % broken_every == 0 else truth,
                     "contexts": [truth], "ground_truth": truth})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def evaluate(data: Path, store: str, out: Path):
    done = runner.invoke(app, ["evaluate", str(data), "-m", METRICS, "-q", "--no-cache", "--store", store,
                               "--out", str(out)], terminal_width=200)
    assert done.exit_code == 0, done.output
    return done


def test_the_summary_file_report_gate_and_runs_name_a_run_by_one_id(tmp_path):
    store = str(tmp_path / "runs.db")
    base = evaluate(write_rows(tmp_path / "base.jsonl", 20), store, tmp_path / "base.json")
    new = evaluate(write_rows(tmp_path / "new.jsonl", 20, broken_every=4), store, tmp_path / "new.json")
    new_id, base_id = (r.id for r in RunStore(store).list())
    result = EvaluationResult.load(tmp_path / "new.json")
    identity = result.info.run_id
    assert result.info.recorded_as == new_id and result.info.display_id == new_id
    assert f"run {new_id}" in new.stdout and f"run recorded as {new_id}" in new.stderr
    assert identity not in new.output and EvaluationResult.load(tmp_path / "base.json").info.run_id not in base.output

    report = runner.invoke(app, ["report", str(tmp_path / "new.json"), "-b", str(tmp_path / "base.json"),
                                 "-o", str(tmp_path / "r.html")])
    assert report.exit_code == 0, report.output
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert f"run <code>{new_id}</code>" in page and f"baseline run <code>{base_id}</code>" in page
    assert f"<code>{identity}</code>" not in page

    gate = runner.invoke(app, ["gate", str(tmp_path / "new.json"), "-b", str(tmp_path / "base.json")],
                         terminal_width=200)
    assert f"run {new_id}, baseline {base_id}" in gate.output and identity not in gate.output

    shown = runner.invoke(app, ["runs", "show", new_id[:4], "--store", store], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    assert f"run: {new_id}, finished" in shown.stdout and identity not in shown.stdout
    assert runner.invoke(app, ["runs", "show", identity[:4], "--store", store]).exit_code == 2

    compared = runner.invoke(app, ["runs", "compare", base_id[:4], new_id[:4], "--store", store])
    assert compared.exit_code == 0, compared.output
    assert f"A {base_id}\tB {new_id}" in compared.stdout
    exported = runner.invoke(app, ["runs", "export", new_id[:4], "-o", str(tmp_path / "e.json"), "--store", store])
    assert exported.exit_code == 0, exported.output
    assert (tmp_path / "e.json").read_bytes() == (tmp_path / "new.json").read_bytes()
    deleted = runner.invoke(app, ["runs", "delete", base_id[:4], "--yes", "--store", store])
    assert deleted.exit_code == 0 and deleted.stdout == f"deleted {base_id}\n"

    as_json = json.loads(runner.invoke(app, ["runs", "show", new_id, "--json", "--store", store]).stdout)
    assert as_json["id"] == new_id and identity not in json.dumps(as_json)


def test_a_run_stored_before_the_result_named_its_store_id_reads_back_under_it(tmp_path):
    store = str(tmp_path / "runs.db")
    evaluate(write_rows(tmp_path / "d.jsonl", 6), store, tmp_path / "d.json")
    (run,) = RunStore(store).list()
    engine = sa.create_engine(f"sqlite:///{store}")
    with engine.begin() as conn:  # as an older ragmeter stored it: no recorded_as in the info
        info = json.loads(conn.execute(sa.text("select info from runs")).scalar_one())
        del info["recorded_as"]
        conn.execute(sa.text("update runs set info = :info"), {"info": json.dumps(info)})
    engine.dispose()
    the_store = RunStore(store)
    assert the_store.load(run.id[:5]).info.display_id == run.id
    the_store.export(run.id, tmp_path / "old.json")
    assert EvaluationResult.load(tmp_path / "old.json").info.recorded_as == run.id


def test_an_unrecorded_run_is_named_by_its_identity(tmp_path):
    done = runner.invoke(app, ["evaluate", str(write_rows(tmp_path / "d.jsonl", 3)), "-m", METRICS, "-q",
                               "--no-cache", "--no-record", "--out", str(tmp_path / "d.json")])
    assert done.exit_code == 0, done.output
    info = EvaluationResult.load(tmp_path / "d.json").info
    assert info.recorded_as is None and f"run {info.run_id}" in done.stdout and "recorded as" not in done.output
