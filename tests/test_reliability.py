"""Reliability edge cases (issue 15): nothing wrong stays cached, nothing is dropped silently.

Each test drives a real run against the OpenAI-compatible test server on 127.0.0.1.
"""

from __future__ import annotations

import json

import pytest

from ragmeter import evaluate
from ragmeter.calls import DiskCache
from ragmeter.testing import scripted_judge
from ragmeter.testing.openai_server import OpenAIMockServer, Reply

SECRET = "sk-test-reliability-SECRET-77"
PARIS = {
    "id": "paris",
    "question": "What is the capital of France?",
    "answer": "Paris is the capital of France.",
    "contexts": ["France is in Western Europe. Its capital is Paris."],
    "ground_truth": "The capital of France is Paris.",
}


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def server():
    with OpenAIMockServer(chat_responder=scripted_judge.respond) as srv:
        yield srv


def run(server, data, metrics=("faithfulness",), **options):
    options.setdefault("show_progress", False)
    options.setdefault("judge_options", {"timeout": 2.0})
    return evaluate(data, list(metrics), judge=f"openai:mock-judge@{server.base_url}",
                    embedder=f"openai:mock-embed@{server.base_url}", **options)


# --- 1. only replies that validated enter the cache; a failed score is retried on resume ---


def test_an_invalid_reply_is_not_cached_and_the_failed_score_is_retried_on_resume(server, tmp_path):
    cut = Reply(content='{"claims": ["Paris is', finish_reason="length")
    server.chat_responder = lambda request: cut  # the server truncates every reply
    first = run(server, [PARIS], journal=tmp_path / "journal.jsonl")
    failed = first.samples[0].scores["faithfulness"]
    assert failed.value is None and failed.error.kind == "JudgeOutputInvalid"
    assert failed.error.transient  # a resumed run tries it again

    server.chat_responder = scripted_judge.respond  # the server recovers
    calls = len(server.calls())
    again = run(server, [PARIS], journal=tmp_path / "journal.jsonl")  # same command, resume on
    assert again.samples[0].scores["faithfulness"].value == 1.0
    assert len(server.calls()) > calls  # asked again, not replayed from the cache
    assert again.info.resumed_scores == 0


def test_an_invalid_output_journaled_before_it_became_transient_is_retried_too(server, tmp_path):
    journal = tmp_path / "journal.jsonl"
    server.chat_responder = lambda request: Reply(content="not json")
    run(server, [PARIS], journal=journal)
    # as an older ragmeter wrote it: JudgeOutputInvalid with transient false
    lines = [json.loads(line) for line in journal.read_text().splitlines() if line]
    for record in lines:
        if record.get("type") == "score":
            record["score"]["error"]["transient"] = False
    journal.write_text("".join(json.dumps(r) + "\n" for r in lines))
    server.chat_responder = scripted_judge.respond
    again = run(server, [PARIS], journal=journal)
    assert again.info.resumed_scores == 0 and again.samples[0].scores["faithfulness"].value == 1.0


def test_no_resume_does_not_replay_an_invalid_reply_from_the_cache(server, tmp_path):
    server.chat_responder = lambda request: Reply(content="not json at all")
    assert run(server, [PARIS], journal=False).samples[0].scores["faithfulness"].error.kind == "JudgeOutputInvalid"
    server.chat_responder = scripted_judge.respond
    assert run(server, [PARIS], journal=False).samples[0].scores["faithfulness"].value == 1.0


def test_a_repaired_conversation_caches_only_the_reply_that_validated(server, tmp_path):
    cache = DiskCache(tmp_path / "c.sqlite")
    server.script.append(Reply(content="{oops"))  # the first reply is malformed; the re-ask repairs it
    first = run(server, [PARIS], cache=cache, journal=False)
    assert first.samples[0].scores["faithfulness"].value == 1.0
    stored = [json.loads(v) for v in cache.get_many("chat", _keys(cache)).values()]
    assert stored and all(entry["content"] != "{oops" for entry in stored)


def _keys(cache: DiskCache) -> list[str]:
    return [k for (k,) in cache._db.execute("SELECT key FROM entries WHERE namespace = 'chat'")]


# --- 4. a resumed, partly finished sample sends the requests an uninterrupted run sends ---


def test_resuming_a_partly_finished_sample_replays_its_requests_from_the_cache(server, tmp_path):
    metrics = ["faithfulness", "answer_relevancy", "context_recall"]
    journal = tmp_path / "journal.jsonl"
    first = run(server, [PARIS], metrics, journal=journal)
    # as if killed after one of the sample's scores was journaled and before the others
    lines = journal.read_text().splitlines()
    kept = [line for line in lines if json.loads(line).get("metric") not in ("answer_relevancy", "context_recall")]
    assert len(kept) == len(lines) - 2
    journal.write_text("\n".join(kept) + "\n")
    calls = len(server.calls())
    again = run(server, [PARIS], metrics, journal=journal)
    assert again.info.resumed_scores == 1
    assert len(server.calls()) == calls  # the cache served every request: they were the same
    assert {n: s.value for n, s in again.samples[0].scores.items()} == {
        n: s.value for n, s in first.samples[0].scores.items()
    }


# --- 3. credentials in a judge or embedder URL are masked everywhere, and still sent ----------

CLI = [__import__("sys").executable, "-c", "from ragmeter.cli.app import main; main()"]
PASSWORD, QUERY_KEY = "pw-SECRET-in-userinfo-31", "qk-SECRET-in-query-32"


def test_credentials_in_urls_are_masked_in_every_output_and_still_sent(server, tmp_path):
    import subprocess
    import sys

    (tmp_path / "data.jsonl").write_text(json.dumps(PARIS) + "\n")
    url = f"http://alice:{PASSWORD}@127.0.0.1:{server.port}/v1?api-key={QUERY_KEY}&api-version=2024"
    server.chat_responder = lambda request: Reply(status=503)  # failures write error messages and retry logs
    command = [
        *CLI, "evaluate", str(tmp_path / "data.jsonl"),
        "--metrics", "faithfulness,answer_similarity", "--judge", f"openai:mock-judge@{url}",
        "--embedder", f"openai:mock-embed@{url}", "--cache-dir", str(tmp_path / "cache"),
        "--journal", str(tmp_path / "journal.jsonl"), "--out", str(tmp_path / "result.json"),
        "--timeout", "2", "--max-attempts", "2", "--quiet", "-v",
    ]
    env = {**__import__("os").environ, "OPENAI_API_KEY": SECRET, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = subprocess.run([*CLI, "report", str(tmp_path / "result.json"),
                             "--out", str(tmp_path / "report.html")], env=env, capture_output=True, text=True,
                            timeout=120)
    assert report.returncode == 0, report.stderr

    result = json.loads((tmp_path / "result.json").read_text())
    assert result["info"]["judge"] == f"openai:mock-judge@http://***@127.0.0.1:{server.port}/v1?api-key=***&api-version=2024"
    assert any(s["scores"]["faithfulness"]["error"] for s in result["samples"])  # a 503 was recorded
    assert "127.0.0.1" in done.stderr  # -v logged the retries...
    outputs = {"stdout": done.stdout, "stderr": done.stderr, "report stderr": report.stderr}
    outputs.update({str(p): p.read_bytes().decode("utf-8", "replace") for p in tmp_path.rglob("*") if p.is_file()})
    assert any("journal" in where for where in outputs) and any("cache.sqlite" in where for where in outputs)
    for where, text in outputs.items():
        for secret in (PASSWORD, QUERY_KEY, SECRET):
            assert secret not in text, (secret, where)  # ...and masked every secret
    # the query parameter was sent with every request and did not break its path
    chat, embed = server.calls("/chat/completions"), server.calls("/embeddings")
    assert chat and embed
    assert all(f"api-key={QUERY_KEY}" in r.query for r in chat + embed)


def test_credentials_in_urls_stay_out_of_the_api_result_and_python_logs(server, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    for name in ("httpx", "httpx2"):  # a CLI test earlier in the process may have quietened them
        caplog.set_level(logging.DEBUG, logger=name)
    url = f"http://alice:{PASSWORD}@127.0.0.1:{server.port}/v1?token={QUERY_KEY}"
    server.script.append(Reply(status=503))
    result = evaluate([PARIS], ["faithfulness"], judge=f"openai:mock-judge@{url}", show_progress=False,
                      judge_options={"timeout": 2.0, "max_attempts": 2})
    assert result.samples[0].scores["faithfulness"].value == 1.0
    assert "HTTP Request" in caplog.text  # the HTTP client logged its requests, masked
    for text in (caplog.text, result.model_dump_json()):
        assert PASSWORD not in text and QUERY_KEY not in text
    assert all(r.query == f"token={QUERY_KEY}" for r in server.calls("/chat/completions"))


def test_a_spec_that_is_refused_is_quoted_without_its_credentials(tmp_path):
    from typer.testing import CliRunner

    from ragmeter.cli.app import app
    from ragmeter.embedders import get_embedder
    from ragmeter.judges import parse_judge_spec

    url = f"http://alice:{PASSWORD}@127.0.0.1:9/v1?pass={QUERY_KEY}"
    for spec in (f"opnai:m@{url}", f"openai:@{url}"):
        with pytest.raises(ValueError) as caught:
            parse_judge_spec(spec)
        assert PASSWORD not in str(caught.value) and QUERY_KEY not in str(caught.value)
        assert "http://***@127.0.0.1:9/v1?pass=***" in str(caught.value)
    for spec in (f"openai:@{url}", f"openai:m@ftp://alice:{PASSWORD}@h?pw={QUERY_KEY}", f"nope:m@{url}"):
        with pytest.raises(ValueError) as caught:
            get_embedder(spec, cache=False)
        assert PASSWORD not in str(caught.value) and QUERY_KEY not in str(caught.value)
    (tmp_path / "data.jsonl").write_text(json.dumps(PARIS) + "\n")
    done = CliRunner().invoke(app, ["evaluate", str(tmp_path / "data.jsonl"), "-m", "faithfulness", "--no-record",
                                    "--judge", f"opnai:m@{url}", "-q"])
    assert done.exit_code == 2 and "unknown judge" in done.output
    assert PASSWORD not in "".join(done.output.split()) and QUERY_KEY not in "".join(done.output.split())


def test_run_info_is_masked_whoever_built_it(tmp_path):
    from ragmeter import EvaluationResult
    from ragmeter.result import RunInfo

    raw = {"run_id": "r", "ragmeter_version": "0", "metrics": {}, "started": 0.0,
           "judge": f"my-judge@http://h/v1?PW={QUERY_KEY}", "embedder": f"e@https://alice:{PASSWORD}@h/v1",
           "source": f"https://h/data.jsonl?X-Amz-Signature={QUERY_KEY}"}
    info = RunInfo.model_validate(raw)  # a custom judge's name, an older result file
    assert (info.judge, info.embedder, info.source) == (
        "my-judge@http://h/v1?PW=***", "e@https://***@h/v1", "https://h/data.jsonl?X-Amz-Signature=***")
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"info": raw, "samples": []}))
    assert QUERY_KEY not in EvaluationResult.load(old).model_dump_json()


# --- 2. the judge's call options (timeout, attempts) reach the embedder too -----------------


def test_the_api_gives_the_embedder_the_judge_options(server):
    import time

    server.script.append(Reply(delay=4.0))  # the embeddings endpoint hangs
    started = time.monotonic()
    result = run(server, [PARIS], ["answer_similarity"], journal=False, cache=False,
                 judge_options={"timeout": 0.5, "max_attempts": 1})
    assert time.monotonic() - started < 3.5  # one attempt of 0.5 s, not 5 of 60 s
    score = result.samples[0].scores["answer_similarity"]
    assert score.value is None and score.error.kind == "EmbedderError" and "0.5s" in score.error.message
    assert len(server.calls("/embeddings")) == 1


def test_the_cli_gives_the_embedder_timeout_and_max_attempts(server, tmp_path):
    import os
    import subprocess

    (tmp_path / "data.jsonl").write_text(json.dumps(PARIS) + "\n")
    server.script.append(Reply(delay=4.0))
    command = [*CLI, "evaluate", str(tmp_path / "data.jsonl"), "--metrics", "answer_similarity",
               "--embedder", f"openai:mock-embed@{server.base_url}", "--no-cache", "--no-resume",
               "--cache-dir", str(tmp_path / "cache"), "--timeout", "0.5", "--max-attempts", "1", "--quiet",
               "--out", str(tmp_path / "result.json")]
    env = {**os.environ, "OPENAI_API_KEY": SECRET, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    # the one score failed, so the run failed (exit 1), after one attempt of 0.5 s
    assert done.returncode == 1 and "nothing could be scored" in done.stderr, done.stderr
    (sample,) = json.loads((tmp_path / "result.json").read_text())["samples"]
    assert "timed out (0.5s per attempt) after 1 attempt(s)" in sample["scores"]["answer_similarity"]["error"]["message"]
    assert len(server.calls("/embeddings")) == 1


# --- 5. a killed run's temporary result file does not outlive the next run ------------------


def test_stale_temporaries_of_the_same_output_are_removed_and_live_ones_kept(tmp_path):
    import subprocess
    import sys

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)  # that process has exited: its temporary is stale
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        out = tmp_path / "result.json"
        stale = tmp_path / f".result.json.{dead_pid}.tmp"
        running = tmp_path / f".result.json.{live.pid}.tmp"  # a concurrent run still writing
        other = tmp_path / f".other.json.{dead_pid}.tmp"  # another output's: not ours to touch
        for path in (stale, running, other):
            path.write_text("half a result")
        evaluate([{"question": "q", "answer": "Paris", "ground_truth": "Paris"}], ["exact_match"],
                 out=out, journal=False, show_progress=False)
        assert out.exists() and not stale.exists()
        assert running.exists() and other.exists()
    finally:
        live.kill()
        live.wait()


# --- 6. two identical runs at once: every journal line stays whole --------------------------


def _journal_writer(path: str, name: str, ready, go) -> None:
    from ragmeter.sinks.journal import Journal
    from ragmeter.metrics.score import MetricScore

    journal = Journal(path, {"run_id": "same-run", "ragmeter_version": "test"})
    journal.open(fresh=False)
    ready.wait()  # both journals are open before either writes
    go.wait()
    for row in range(400):
        journal.append((row, f"fp-{name}", "faithfulness"), MetricScore.ok(0.5, f"{name} " + "x" * (row % 50)))
    journal.close()


def test_two_runs_of_one_identity_append_whole_lines_to_one_journal(tmp_path):
    import multiprocessing

    from ragmeter.sinks.journal import Journal

    path = tmp_path / "journal.jsonl"
    context = multiprocessing.get_context("spawn")
    ready, go = context.Barrier(2), context.Barrier(2)
    workers = [context.Process(target=_journal_writer, args=(str(path), name, ready, go)) for name in ("a", "b")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    lines = [line for line in path.read_text().splitlines() if line]
    assert all(json.loads(line) for line in lines)  # no torn line
    done = Journal(path, {"run_id": "same-run"}).read()
    assert len(done) == 800  # every score of both runs


# --- 7. invalid UTF-8 on one line is that row's named input error ---------------------------


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_invalid_utf8_on_one_line_is_a_named_row_error_and_the_rest_is_scored(tmp_path, suffix):
    rows = [{"question": "q", "answer": a, "ground_truth": "Paris"} for a in ("Paris", "Pa\udcffris", "Lyon")]
    path = tmp_path / f"data{suffix}"
    if suffix == ".jsonl":
        text = "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n"
    else:
        text = "question,answer,ground_truth\n" + "".join(f"{r['question']},{r['answer']},{r['ground_truth']}\n" for r in rows)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))  # line 2 holds the byte 0xff
    result = evaluate(path, ["exact_match"], journal=False, show_progress=False)
    assert [s.scores["exact_match"].value for s in result.samples] == [1.0, 0.0]
    (error,) = result.input_errors
    assert error.row == 1 and error.line == (2 if suffix == ".jsonl" else 3)  # a CSV's line 1 is its header
    assert "invalid UTF-8" in error.message and f"data{suffix}" in error.message


# --- 8. a judge that cannot be reached stops the run early, with one clear error ------------


def _refused_url() -> str:
    import socket

    with socket.socket() as probe:  # a port that was just free: connections to it are refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_an_unreachable_judge_stops_the_run_early(tmp_path):
    import time

    from ragmeter.errors import JudgeUnavailable

    records = [{**PARIS, "id": f"s{i}", "answer": f"Paris is the capital of France, says {i}."} for i in range(40)]
    started = time.monotonic()
    with pytest.raises(JudgeUnavailable, match="unreachable") as raised:
        evaluate(records, ["faithfulness"], judge=f"openai:m@{_refused_url()}", show_progress=False,
                 journal=tmp_path / "journal.jsonl", judge_options={"timeout": 2.0, "max_attempts": 5})
    assert time.monotonic() - started < 15  # spending every attempt of every sample takes ~22 s (3 waves x 7.5 s)
    assert raised.value.stops_run


def test_the_cli_exits_non_zero_with_one_error_when_the_judge_is_unreachable(tmp_path):
    import os
    import subprocess

    (tmp_path / "data.jsonl").write_text("\n".join(json.dumps({**PARIS, "id": f"s{i}"}) for i in range(20)) + "\n")
    command = [*CLI, "evaluate", str(tmp_path / "data.jsonl"), "--metrics", "faithfulness",
               "--judge", f"openai:m@{_refused_url()}", "--cache-dir", str(tmp_path / "cache"), "--quiet"]
    env = {**os.environ, "OPENAI_API_KEY": SECRET, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, (done.returncode, done.stderr)  # a run that failed, not a crash (exits.py)
    assert "unreachable" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("error:") == 1


def test_the_breaker_closes_again_after_its_cooldown():
    import time

    from ragmeter.calls.breaker import CircuitBreaker
    from ragmeter.errors import EndpointUnreachable

    breaker = CircuitBreaker(threshold=3, min_seconds=0.0, cooldown=0.2)
    for _ in range(2):
        breaker.connection_failed("refused")
    breaker.success()  # an answer in between: the count starts again
    for _ in range(2):
        breaker.connection_failed("refused")
    breaker.check("judge")  # still closed: 2 in a row
    breaker.connection_failed("refused")
    with pytest.raises(EndpointUnreachable, match="judge is unreachable: 3 connection attempts"):
        breaker.check("judge")
    time.sleep(0.25)
    breaker.check("judge")  # the cooldown passed: calls may try again


def test_invalid_utf8_in_a_json_document_is_an_error_naming_file_and_line(tmp_path):
    path = tmp_path / "data.json"
    path.write_bytes(b'[\n{"question": "q", "answer": "Paris"},\n{"question": "q", "answer": "Pa\xffris"}\n]\n')
    with pytest.raises(ValueError, match=r"data.json, line 3: invalid UTF-8"):
        evaluate(path, ["exact_match"], journal=False, show_progress=False)
