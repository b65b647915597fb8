"""The run store: evaluate records its run as it streams; runs are listed, shown, compared,
exported back to the very file ``--out`` wrote, and deleted; two processes recording at once
lose nothing; credentials never reach the database.

Every test that takes ``store_url`` (conftest) runs twice: on an SQLite file and on a
PostgreSQL database (a throw-away server, tests/postgres.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from ragmeter import EvaluationResult, evaluate
from ragmeter.cli.app import app
from ragmeter.result import RunInfo, SampleResult
from ragmeter.metrics.score import MetricScore
from ragmeter.runs import Record, RunNotFound, RunRecorder, RunStore

ROOT = Path(__file__).resolve().parents[1]
METRICS = ["token_f1", "exact_match"]
runner = CliRunner()


def write_rows(path: Path, n: int, *, worse_every: int = 0) -> Path:
    rows = []
    for i in range(n):
        answer = f"the answer {i} is {i * 7 % 13} apples"
        if worse_every and i % worse_every == 0:
            answer = f"no idea about {i}"
        rows.append({"id": f"s{i}", "question": f"How many apples in basket {i}?", "answer": answer,
                     "contexts": [f"basket {i} holds {i * 7 % 13} apples"],
                     "ground_truth": f"the answer {i} is {i * 7 % 13} apples"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def sqlite_store_url(tmp_path) -> str:
    return str(tmp_path / "store" / "runs.db")


def run(data: Path, store_url: str, out: Path | None = None, tags=("t",)) -> tuple[EvaluationResult, Record]:
    record = Record(store=store_url, tags=list(tags))
    result = evaluate(data, METRICS, out=out, record=record, show_progress=False, cache=False, journal=False)
    return result, record


def test_a_recorded_run_exports_the_very_file_out_wrote(tmp_path, store_url):
    data = write_rows(tmp_path / "data.jsonl", 40)
    result, record = run(data, store_url, out=tmp_path / "out.json")
    store = RunStore(store_url)
    exported = store.export(record.run, tmp_path / "export.json")
    assert exported.read_bytes() == (tmp_path / "out.json").read_bytes()
    store.export(record.run, tmp_path / "export.parquet")
    assert EvaluationResult.load(tmp_path / "export.parquet") == EvaluationResult.load(tmp_path / "out.json")
    loaded = store.load(record.run[:6])  # a prefix is enough
    assert loaded == EvaluationResult.load(tmp_path / "out.json")
    assert store.resolve(record.run[:6].upper()) == record.run  # in capitals too, on either backend
    summary = store.get(record.run)
    assert summary.status == "finished" and summary.samples == 40 and summary.tags == ["t"]
    assert summary.summary["token_f1"].mean == pytest.approx(result.summary()["token_f1"].mean)
    assert summary.summary["exact_match"].scored == 40
    stats = summary.summary["token_f1"]
    assert stats.ci_low <= stats.mean <= stats.ci_high
    assert summary.source == str(data) and summary.metrics == METRICS


def test_list_filters_by_tag_dataset_and_branch(tmp_path, store_url, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", "-b", "feature-x", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    one = write_rows(tmp_path / "one.jsonl", 10)
    other = write_rows(tmp_path / "other.jsonl", 12)
    worse = write_rows(tmp_path / "one_v2.jsonl", 10, worse_every=2)  # same test set, another app version
    _, r1 = run(one, store_url, tags=["base"])
    monkeypatch.chdir(repo)
    _, r2 = run(worse, store_url, tags=["new", "nightly"])
    _, r3 = run(other, store_url, tags=["nightly"])
    store = RunStore(store_url)
    assert [r.id for r in store.list()] == [r3.run, r2.run, r1.run]
    assert [r.id for r in store.list(tag="nightly")] == [r3.run, r2.run]
    assert [r.id for r in store.list(branch="feature-x")] == [r3.run, r2.run]
    assert store.get(r2.run).git_commit == commit
    # one test set, two app versions: one fingerprint, so one trend
    assert store.get(r1.run).dataset == store.get(r2.run).dataset != store.get(r3.run).dataset
    assert [r.id for r in store.list(dataset=store.get(r1.run).dataset[:8])] == [r2.run, r1.run]
    assert [r.id for r in store.list(dataset=store.get(r1.run).dataset[:8].upper())] == [r2.run, r1.run]
    assert [r.id for r in store.list(dataset="other.jsonl")] == [r3.run]
    assert [r.id for r in store.trend(store.get(r1.run).dataset)] == [r1.run, r2.run]
    assert store.delete(r2.run[:5]) == r2.run
    assert [r.id for r in store.list()] == [r3.run, r1.run]
    with pytest.raises(RunNotFound, match="no run"):
        store.load(r2.run)
    with pytest.raises(sa.exc.NoResultFound):
        with store.engine.connect() as conn:  # its samples went with it
            conn.execute(sa.text("select 1 from samples where run = :r limit 1"), {"r": r2.run}).one()


def test_a_tag_the_store_cannot_hold_is_refused_before_the_run_starts(tmp_path, store_url):
    from ragmeter.errors import InvalidTag

    data = write_rows(tmp_path / "data.jsonl", 3)
    for bad, why in (("x" * 256, "256 characters long; a tag has at most 255"), ("a\x00b", "NUL character")):
        with pytest.raises(InvalidTag, match=why):
            run(data, store_url, tags=["ok", bad])
        done = runner.invoke(app, ["evaluate", str(data), "-m", ",".join(METRICS), "-q", "--no-cache",
                                   "--store", store_url, "--tag", bad])
        assert done.exit_code == 2, done.output
        assert flat(why) in flat(done.output)
    store = RunStore(store_url)
    assert store.list() == []  # nothing recorded, nothing left running
    longest = "y" * 255
    _, record = run(data, store_url, tags=[longest])
    assert [r.id for r in store.list(tag=longest)] == [record.run]
    with pytest.raises(InvalidTag):
        store.add_tags(record.run, ["z" * 256])
    store.add_tags(record.run, ["nightly", longest])
    assert store.get(record.run).tags == [longest, "nightly"]


def test_a_branch_longer_than_the_store_keeps_is_cut_and_still_found(tmp_path, store_url, monkeypatch):
    branch = "/".join(c * 100 for c in "abc")  # 302 characters; git allows it, the column holds 255
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", "-b", branch, str(repo)], check=True)
    subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "-C", str(repo), "commit", "-q",
                    "--allow-empty", "-m", "x"], check=True)
    monkeypatch.chdir(repo)
    _, record = run(write_rows(tmp_path / "data.jsonl", 3), store_url)
    store = RunStore(store_url)
    assert store.get(record.run).git_branch == branch[:255]
    assert [r.id for r in store.list(branch=branch)] == [record.run]


def test_no_record_and_env_off_record_nothing(tmp_path, store_url, monkeypatch):
    data = write_rows(tmp_path / "data.jsonl", 3)
    evaluate(data, METRICS, record=False, show_progress=False, cache=False, journal=False)
    monkeypatch.setenv("RAGMETER_RUNS", "off")
    evaluate(data, METRICS, show_progress=False, cache=False, journal=False)
    monkeypatch.setenv("RAGMETER_RUNS", store_url)
    evaluate(data, METRICS, show_progress=False, cache=False, journal=False)  # default: recorded, here
    assert len(RunStore(store_url).list()) == 1


def test_default_store_is_dot_ragmeter_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("RAGMETER_RUNS")
    monkeypatch.chdir(tmp_path)
    evaluate(write_rows(tmp_path / "d.jsonl", 2), METRICS, show_progress=False, cache=False, journal=False)
    assert len(RunStore(tmp_path / ".ragmeter" / "runs.db").list()) == 1
    mode = sa.create_engine(f"sqlite:///{tmp_path / '.ragmeter' / 'runs.db'}").connect().execute(
        sa.text("PRAGMA journal_mode")).scalar()
    assert mode == "wal"


def test_credentials_never_reach_the_store(tmp_path, store_url, request):
    secret_judge = "openai:gpt-4o@https://bob:hunter2@llm.internal/v1?api-key=XYZSECRET&model=a&pass=PASSSECRET&PW=PWSECRET"
    info = RunInfo(run_id="r", ragmeter_version="0", metrics={"token_f1": {}}, judge=secret_judge,
                   embedder="openai:e@http://svc/v1?token=TOKSECRET", started=1.0, source="d.jsonl")
    recorder = RunRecorder(RunStore(store_url), info)
    recorder.add(SampleResult(row=0, sample={"question": "q", "answer": "a"},
                              scores={"token_f1": MetricScore(value=0.5, reason="r")}))
    info.finished = 2.0
    recorder.finish(info, {}, [])
    stored = RunStore(store_url).get(recorder.id)
    assert stored.judge == "openai:gpt-4o@https://***@llm.internal/v1?api-key=***&model=a&pass=***&PW=***"
    assert stored.embedder == "openai:e@http://svc/v1?token=***"
    blob = stored_bytes(request, store_url)
    assert b"llm.internal/v1?api-key=***" in blob  # what was stored is in what is searched
    for secret in (b"hunter2", b"XYZSECRET", b"TOKSECRET", b"PASSSECRET", b"PWSECRET"):
        assert secret not in blob
    exported = RunStore(store_url).export(recorder.id, tmp_path / "export.json").read_text()
    assert "PASSSECRET" not in exported and "pass=***&PW=***" in exported


def stored_bytes(request, store_url: str) -> bytes:
    """Every byte the store's database wrote: the SQLite file and its WAL; on PostgreSQL the
    whole cluster's files (tables and WAL), after a checkpoint writes the tables out."""
    if "://" not in store_url:
        return b"".join(p.read_bytes() for p in Path(store_url).parent.iterdir())
    server = request.getfixturevalue("postgres")
    admin = sa.create_engine(server.url(), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text("CHECKPOINT"))
    admin.dispose()
    return b"".join(p.read_bytes() for p in server.data.rglob("*") if p.is_file() and not p.is_symlink())


def test_a_store_written_before_masking_is_shown_masked(tmp_path, store_url):
    info = RunInfo(run_id="r", ragmeter_version="0", metrics={"token_f1": {}}, started=1.0)
    recorder = RunRecorder(RunStore(store_url), info)
    recorder.finish(info, {}, [])
    store = RunStore(store_url)
    with store.engine.begin() as conn:  # as an older ragmeter left it
        conn.execute(sa.text("update runs set judge = :j, embedder = :e, source = :s"),
                     {"j": "openai:m@http://h/v1?pw=OLDSECRET", "e": "openai:e@http://a:OLDSECRET@h/v1",
                      "s": "https://h/d.jsonl?sig=OLDSECRET"})
    shown = store.get(recorder.id)
    assert (shown.judge, shown.embedder, shown.source) == (
        "openai:m@http://h/v1?pw=***", "openai:e@http://***@h/v1", "https://h/d.jsonl?sig=***")
    listed = runner.invoke(app, ["runs", "list", "--store", store_url], terminal_width=250)
    shown_cli = runner.invoke(app, ["runs", "show", recorder.id, "--store", store_url], terminal_width=250)
    for done in (listed, shown_cli):
        assert done.exit_code == 0, done.output
        assert "OLDSECRET" not in flat(done.output)


STORE_PASSWORD = "hunter2-STORE-41"


def flat(text: str) -> str:
    """``text`` without blanks: rich wraps long lines, and a wrapped secret is still a secret."""
    return "".join(text.split())


@pytest.mark.parametrize(("store", "masked"), [
    (f"postgresql+psycopg://alice:{STORE_PASSWORD}@127.0.0.1:1/r", "postgresql+psycopg://***@127.0.0.1:1/r"),
    (f"sqlite://alice:{STORE_PASSWORD}@/x.db", "sqlite://***@/x.db"),
])
def test_a_store_that_cannot_be_opened_is_named_without_its_password(store, masked):
    for command in (["runs", "list"], ["runs", "show", "abc"], ["runs", "compare", "a", "b"],
                    ["runs", "export", "abc", "-o", "x.json"], ["runs", "delete", "abc", "--yes"]):
        done = runner.invoke(app, [*command, "--store", store])
        assert done.exit_code == 2, (command, done.output)
        assert STORE_PASSWORD not in flat(done.output), command
        assert f"cannotopentherunstore{masked}" in flat(done.output), command


@pytest.mark.filterwarnings("ignore:Query string argument")  # SQLite ignores ?pass=, and says so
def test_a_store_url_with_a_secret_parameter_is_masked_where_it_is_shown(tmp_path):
    store = f"sqlite:///{tmp_path / 'runs.db'}?pass={STORE_PASSWORD}"  # opens: SQLite ignores the parameter
    store_obj = RunStore(store)
    assert store_obj.display_url == f"sqlite:///{tmp_path / 'runs.db'}?pass=***"
    with pytest.raises(RunNotFound) as caught:
        store_obj.resolve("zzz")
    assert STORE_PASSWORD not in str(caught.value) and "pass=***" in str(caught.value)
    missing = runner.invoke(app, ["runs", "show", "zzz", "--store", store])
    assert missing.exit_code == 2 and STORE_PASSWORD not in flat(missing.output)


def test_a_failed_run_is_kept_as_failed_without_samples(tmp_path, store_url):
    info = RunInfo(run_id="r", ragmeter_version="0", metrics={"token_f1": {}}, started=1.0)
    recorder = RunRecorder(RunStore(store_url), info, tags=["x"])
    for i in range(600):  # one batch already written
        recorder.add(SampleResult(row=i, sample={"question": f"q{i}", "answer": "a"},
                                  scores={"token_f1": MetricScore(value=0.5, reason="r")}))
    recorder.abort()
    store = RunStore(store_url)
    assert store.get(recorder.id).status == "failed"
    assert list(store.iter_samples(recorder.id)) == []
    with pytest.raises(RunNotFound, match="failed"):
        store.export(recorder.id, tmp_path / "x.json")


def test_two_processes_recording_at_once_lose_nothing(tmp_path, store_url):
    n = 3000
    script = (
        "import sys\n"
        "from ragmeter import evaluate\n"
        "from ragmeter.runs import Record\n"
        "r = Record(store=sys.argv[2], tags=[sys.argv[3]])\n"
        "evaluate(sys.argv[1], ['token_f1', 'exact_match'], out=sys.argv[4], record=r, show_progress=False,"
        " cache=False, journal=False)\n"
        "print(r.run)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    procs = []
    for name in ("p1", "p2"):
        data = write_rows(tmp_path / f"{name}.jsonl", n, worse_every=3 if name == "p2" else 0)
        procs.append(subprocess.Popen(
            [sys.executable, "-c", script, str(data), store_url, name, str(tmp_path / f"{name}.json")],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ))
    ids = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr
        ids.append(stdout.strip().splitlines()[-1])
    assert len(set(ids)) == 2
    store = RunStore(store_url)
    for name, run_id in zip(("p1", "p2"), ids):
        assert store.get(run_id).samples == n and store.get(run_id).tags == [name]
        store.export(run_id, tmp_path / f"{name}.export.json")
        assert (tmp_path / f"{name}.export.json").read_bytes() == (tmp_path / f"{name}.json").read_bytes()


def test_stores_opened_at_once_on_a_new_database_all_open(store_url):
    """Evaluations starting together on a new store each create its tables; none may fail
    (on PostgreSQL, two CREATE TABLEs at once collide in the catalogue)."""
    opened = 4
    barrier = threading.Barrier(opened)
    errors: list[BaseException] = []

    def open_store() -> None:
        barrier.wait()
        try:
            RunStore(store_url).close()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(opened)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert RunStore(store_url).list() == []


def test_runs_cli_lists_shows_compares_exports_and_deletes(tmp_path, store_url):
    base = write_rows(tmp_path / "base.jsonl", 30)
    new = write_rows(tmp_path / "new.jsonl", 30, worse_every=3)
    for data, tag in ((base, "base"), (new, "new")):
        done = runner.invoke(app, ["evaluate", str(data), "-m", ",".join(METRICS), "-q", "--no-cache",
                                   "--store", store_url, "--tag", tag, "--out", str(tmp_path / f"{tag}.json")])
        assert done.exit_code == 0, done.output
    store = RunStore(store_url)
    new_id, base_id = (r.id for r in store.list())
    listed = runner.invoke(app, ["runs", "list", "--store", store_url, "--tag", "new"], terminal_width=250)
    assert listed.exit_code == 0 and new_id in listed.stdout and base_id not in listed.stdout
    shown = runner.invoke(app, ["runs", "show", new_id[:6], "--store", store_url], terminal_width=200)
    assert shown.exit_code == 0 and "token_f1" in shown.stdout and "95% interval" in shown.stdout
    compared = runner.invoke(app, ["runs", "compare", base_id, new_id, "--store", store_url, "--moved", "2"],
                             terminal_width=250)
    assert compared.exit_code == 0, compared.output
    assert "regressed" in compared.stdout and "samples that moved most" in compared.stdout
    assert "row 0 (s0): 1.000 -> 0.000 (-1.000)" in compared.stdout  # every third answer broken
    exported = runner.invoke(app, ["runs", "export", base_id, "-o", str(tmp_path / "e.json"), "--store", store_url])
    assert exported.exit_code == 0
    assert (tmp_path / "e.json").read_bytes() == (tmp_path / "base.json").read_bytes()
    missing = runner.invoke(app, ["runs", "show", "zzz", "--store", store_url])
    assert missing.exit_code == 2 and "no run 'zzz'" in missing.output
    deleted = runner.invoke(app, ["runs", "delete", base_id, "--yes", "--store", store_url])
    assert deleted.exit_code == 0 and [r.id for r in store.list()] == [new_id]


def test_a_ray_run_is_recorded_like_a_local_one(tmp_path, sqlite_store_url, monkeypatch):
    store_url = sqlite_store_url  # Ray's driver records as a local run does: SQLite alone, Ray's start-up is slow
    ray = pytest.importorskip("ray")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    data = write_rows(tmp_path / "data.jsonl", 30, worse_every=4)
    _, local = run(data, store_url, out=tmp_path / "local.json")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        record = Record(store=store_url)
        evaluate(data, METRICS, engine="ray", out=tmp_path / "ray.json", record=record, show_progress=False,
                 cache=False, journal=False)
    finally:
        ray.shutdown()
    store = RunStore(store_url)
    assert store.get(record.run).samples == 30
    assert store.load(record.run) == EvaluationResult.load(tmp_path / "ray.json")
    assert store.load(record.run).samples == store.load(local.run).samples


def test_the_stored_interval_is_the_normal_approximation():
    import math
    import statistics

    from ragmeter.runs import RunningStats

    values = [0.1, 0.9, 0.5, 0.5, 0.7, 0.3, 1.0, 0.0]
    stats = RunningStats()
    for v in values:
        stats.add(v)
    half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(len(values))
    assert stats.mean == pytest.approx(statistics.fmean(values))
    assert stats.interval() == pytest.approx((statistics.fmean(values) - half, statistics.fmean(values) + half))
    one = RunningStats()
    one.add(0.4)
    assert one.interval() == (None, None)


def test_a_dry_run_records_nothing(tmp_path, store_url, monkeypatch):
    from ragmeter import estimate

    monkeypatch.setenv("RAGMETER_RUNS", store_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    guess = estimate(write_rows(tmp_path / "d.jsonl", 3), ["faithfulness"], judge="openai:gpt-4o-mini@http://127.0.0.1:9/v1",
                     show_progress=False, cache=False)
    assert guess.calls > 0  # it went through the engine, counting the calls a real run would make
    assert RunStore(store_url).list() == []


def _sample(i: int) -> SampleResult:
    return SampleResult(row=i, sample={"question": f"secret question {i}", "answer": "a"},
                        scores={"token_f1": MetricScore(value=0.5, reason="r")})


# deleted between two batches (the next one finds it gone); after the last one (finish does)
@pytest.mark.parametrize("deleted_after, total", [(600, 1200), (1000, 1000)])
def test_a_recorder_whose_run_is_deleted_says_so_once_and_records_no_more(store_url, caplog, deleted_after, total):
    from ragmeter.errors import RunStillRecording

    info = RunInfo(run_id="r", ragmeter_version="0", metrics={"token_f1": {}}, started=1.0)
    owner = Record(store=store_url)
    recorder = RunRecorder(RunStore(store_url), info, owner=owner)
    assert info.recorded_as == owner.run == recorder.id
    for i in range(deleted_after):
        recorder.add(_sample(i))
    store = RunStore(store_url)
    with pytest.raises(RunStillRecording, match=f"run {recorder.id} is still being recorded"):
        store.delete(recorder.id)
    assert store.get(recorder.id).status == "running"
    store.delete(recorder.id, force=True)
    caplog.set_level("WARNING", logger="ragmeter")
    for i in range(deleted_after, total):
        recorder.add(_sample(i))
    info.finished = 2.0
    assert recorder.finish(info, {}, []) is None
    assert [r.getMessage() for r in caplog.records] == [
        f"run {recorder.id} was deleted from the run store while it ran; no longer recorded"]
    assert "secret question" not in caplog.text
    assert info.recorded_as is None and owner.run is None
    assert store.list() == []
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("select count(*) from samples")).scalar() == 0
