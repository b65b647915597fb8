"""The run store under abuse, end to end through the CLI.

* ``runs delete`` of a run still being recorded is refused (one line, exit 2) unless
  ``--force``; forced, the evaluation that was recording it still writes its ``--out``, says
  once that the run was deleted and is no longer recorded, and prints no sample text.
* A damaged ``runs.db`` (garbage bytes, a truncated file, a WAL damaged after a killed
  process) is one line naming the file and suggesting ``--no-record``, exit 2, for
  ``evaluate`` and for ``runs list/show/compare``; nothing is scored into a broken store.
* A 0-byte ``runs.db`` is taken as a new store, with a notice naming it.
* The delete tests run on SQLite and on PostgreSQL (conftest ``store_url``); a PostgreSQL
  store that cannot be opened is one line, never "damaged" (damage is an SQLite file's).
"""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragmeter.cli.app import app
from ragmeter.runs import RunStore

ROOT = Path(__file__).resolve().parents[1]
METRICS = "token_f1,exact_match"
SECRET_QUESTION = "Which basket holds the hidden pears"  # a sample text that must never reach stderr
runner = CliRunner()


def write_rows(path: Path, n: int) -> Path:
    rows = [{"id": f"s{i}", "question": f"{SECRET_QUESTION} number {i}?", "answer": f"basket {i} has {i % 7} pears",
             "contexts": [f"basket {i} has {i % 7} pears"], "ground_truth": f"basket {i} has {i % 7} pears"}
            for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def evaluate_cli(data: Path, store: Path | str, *extra: str):
    return runner.invoke(app, ["evaluate", str(data), "-m", METRICS, "-q", "--no-cache", "--store", str(store),
                               *extra])


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """A cache (and journal) folder of this test's own: a journal an earlier run of the same
    data left elsewhere would be resumed, and nothing would be scored."""
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]), "COLUMNS": "200"}


# ---------------------------------------------------------------- deleting a running run

PAUSING_EVALUATE = r"""
import asyncio, sys
from pathlib import Path
from ragmeter.metrics.token_f1 import TokenF1

go, paused = Path(sys.argv[1]), Path(sys.argv[2])
score = TokenF1.score

async def held(self, sample, facts):
    # rows from 600 on wait for the test: the run is recording (a batch of 500 flushed or
    # about to be) and stays running until the test says go
    if int(sample.id[1:]) >= 600:
        paused.touch()
        while not go.exists():
            await asyncio.sleep(0.02)
    return await score(self, sample, facts)

TokenF1.score = held
from ragmeter.cli.app import app
app(sys.argv[3:], prog_name="ragmeter")
"""


def running_run(store: str, proc: subprocess.Popen, paused: Path) -> str:
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if paused.exists():
            runs = RunStore(store).list()
            if runs and runs[0].status == "running":
                return runs[0].id
        time.sleep(0.05)
    raise AssertionError(f"the evaluation never paused while recording: {proc.communicate()}")


def test_deleting_a_running_run_is_refused_and_forced_the_evaluation_still_writes_its_out(tmp_path, store_url):
    store = store_url  # SQLite and PostgreSQL (conftest)
    data = write_rows(tmp_path / "data.jsonl", 1500)
    go, paused, out = tmp_path / "go", tmp_path / "paused", tmp_path / "out.json"
    proc = subprocess.Popen(
        [sys.executable, "-c", PAUSING_EVALUATE, str(go), str(paused), "evaluate", str(data), "-m", METRICS, "-q",
         "--no-cache", "--store", store, "--out", str(out)],
        env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )
    try:
        run_id = running_run(store, proc, paused)
        refused = runner.invoke(app, ["runs", "delete", run_id[:6], "--yes", "--store", store])
        assert refused.exit_code == 2, refused.output
        assert refused.output.count("\n") == 1  # one line
        assert f"run {run_id} is still being recorded" in refused.output and "--force" in refused.output
        assert [r.id for r in RunStore(store).list()] == [run_id]  # still there
        forced = runner.invoke(app, ["runs", "delete", run_id[:6], "--yes", "--force", "--store", store])
        assert forced.exit_code == 0, forced.output
        assert RunStore(store).list() == []
    finally:
        go.touch()
        stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr
    assert len(json.loads(out.read_text())["samples"]) == 1500  # --out written whole
    warnings = [line.strip() for line in stderr.splitlines() if "deleted from the run store" in line]
    assert warnings == [f"WARNING  run {run_id} was deleted from the run store while it ran; no longer recorded"]
    assert SECRET_QUESTION not in stderr and "IntegrityError" not in stderr and "Traceback" not in stderr
    assert "pipeline" not in stderr  # psycopg's note on a failed batch: no batch fails
    assert "run recorded as" not in stderr  # it was not
    assert RunStore(store).list() == []  # nothing came back under that id


def test_runs_delete_of_finished_and_failed_runs_needs_no_force(tmp_path, store_url):
    store = store_url
    done = evaluate_cli(write_rows(tmp_path / "d.jsonl", 3), store)
    assert done.exit_code == 0, done.output
    (run,) = RunStore(store).list()
    deleted = runner.invoke(app, ["runs", "delete", run.id, "--yes", "--store", store])
    assert deleted.exit_code == 0 and deleted.stdout == f"deleted {run.id}\n"


# ---------------------------------------------------------------- a damaged store


def recorded_store(tmp_path: Path, runs: int = 2) -> tuple[Path, list[str]]:
    store = tmp_path / "good" / "runs.db"
    for i in range(runs):
        done = evaluate_cli(write_rows(tmp_path / f"d{i}.jsonl", 400), store)
        assert done.exit_code == 0, done.output
    return store, [r.id for r in RunStore(store).list()]


def garbage(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(random.Random(7).randbytes(64 * 1024))


def truncated(path: Path, source: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(source.read_bytes()[: source.stat().st_size // 2])


KILLED_RECORDER = r"""
import os, sys
from ragmeter.result import RunInfo, SampleResult
from ragmeter.metrics.score import MetricScore
from ragmeter.runs import RunRecorder, RunStore

info = RunInfo(run_id="killed", ragmeter_version="0", metrics={"token_f1": {}}, started=1.0)
recorder = RunRecorder(RunStore(sys.argv[1]), info)
for i in range(50):
    recorder.add(SampleResult(row=i, sample={"question": "q", "answer": "a"},
                              scores={"token_f1": MetricScore(value=0.5, reason="r")}))
recorder._flush()
os._exit(0)  # killed: no checkpoint, the WAL and its index stay beside the database
"""

WAL_HEADER, FRAME_HEADER = 32, 24


def wal_checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum (sqlite.org/fileformat.html, "Checksum Algorithm")."""
    words = struct.unpack((">" if big_endian else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def damaged_wal(path: Path) -> None:
    """A store whose recording process was killed (its WAL left beside the database), then
    the WAL's latest copy of page 1 (the schema) overwritten with garbage, checksums made to
    match: SQLite cannot tell the damage from data (a WAL whose damaged tail it can detect
    by checksum it drops silently, as it should, so that is not this test)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-c", KILLED_RECORDER, str(path)], env=env(), check=True, timeout=120)
    wal = path.with_name(path.name + "-wal")
    blob = bytearray(wal.read_bytes())
    big_endian = int.from_bytes(blob[0:4], "big") == 0x377F0683
    page_size = int.from_bytes(blob[8:12], "big")
    frames = (len(blob) - WAL_HEADER) // (FRAME_HEADER + page_size)
    starts = [WAL_HEADER + i * (FRAME_HEADER + page_size) for i in range(frames)]
    last_page_one = max(s for s in starts if int.from_bytes(blob[s:s + 4], "big") == 1)
    body = last_page_one + FRAME_HEADER
    blob[body:body + page_size] = random.Random(3).randbytes(page_size)
    s0, s1 = int.from_bytes(blob[24:28], "big"), int.from_bytes(blob[28:32], "big")
    for start in starts:
        page = bytes(blob[start + FRAME_HEADER:start + FRAME_HEADER + page_size])
        s0, s1 = wal_checksum(bytes(blob[start:start + 8]) + page, s0, s1, big_endian)
        blob[start + 16:start + 24] = s0.to_bytes(4, "big") + s1.to_bytes(4, "big")
    wal.write_bytes(bytes(blob))


def one_error_line(result, path: Path) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    assert str(path.resolve()) in lines[0] and "--no-record" in lines[0] and lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wal"])
def test_a_damaged_store_is_one_line_and_exit_2_for_evaluate_and_runs(tmp_path, damage):
    good, ids = recorded_store(tmp_path) if damage == "truncated" else (None, ["abc", "def"])
    path = tmp_path / "bad" / "runs.db"
    if damage == "garbage":
        garbage(path)
    elif damage == "truncated":
        assert good is not None
        truncated(path, good)
    else:
        damaged_wal(path)
    before = path.read_bytes()
    data = write_rows(tmp_path / "new.jsonl", 5)
    out = tmp_path / "out.json"
    line = one_error_line(evaluate_cli(data, path, "--out", str(out)), path)
    assert "damaged" in line
    assert not out.exists() and not list(tmp_path.glob(".out.json.*"))  # nothing scored, no stray temporary
    for args in (["runs", "list"], ["runs", "show", ids[0]], ["runs", "compare", ids[0], ids[1]]):
        assert one_error_line(runner.invoke(app, [*args, "--store", str(path)]), path) == line, args
    assert path.read_bytes() == before  # the damaged file is left as it was, for whoever rescues it
    # the way out the line suggests works
    assert evaluate_cli(data, path, "--no-record").exit_code == 0


def test_an_empty_file_is_taken_as_a_new_store_with_a_notice(tmp_path):
    path = tmp_path / "runs.db"
    path.touch()
    done = evaluate_cli(write_rows(tmp_path / "d.jsonl", 4), path)
    assert done.exit_code == 0, done.output
    # without spaces: rich breaks a path longer than the line inside the path itself
    assert "".join(f"WARNING {path.resolve()} is an empty file (0 bytes): starting a new run store in it".split()) \
        in "".join(done.stderr.split())
    assert len(RunStore(path).list()) == 1
    again = evaluate_cli(write_rows(tmp_path / "d.jsonl", 4), path)
    assert "empty file" not in again.stderr  # said once, when it was empty


def test_a_postgresql_store_that_cannot_be_opened_is_one_line_and_never_called_damaged(tmp_path, postgres):
    """Damage is an SQLite file's: on PostgreSQL a database that is not there is the store that
    cannot be opened, one line and exit 2, not a damaged file to move aside."""
    store = postgres.url("no_such_database")
    out = tmp_path / "out.json"
    for done in (evaluate_cli(write_rows(tmp_path / "d.jsonl", 3), store, "--out", str(out)),
                 runner.invoke(app, ["runs", "list", "--store", store])):
        assert done.exit_code == 2, done.output
        assert "Traceback" not in done.output and len(done.output.splitlines()) == 1, done.output
        assert "cannot open the run store" in done.output and 'database "no_such_database" does not exist' in done.output
        assert "damaged" not in done.output and "move it aside" not in done.output
    assert not out.exists()

