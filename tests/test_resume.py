"""A run killed with SIGKILL midway, then rerun, finishes with no repeated calls for the
samples that had finished, and with the same scores as an uninterrupted run."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

from ragmeter.testing import scripted_judge
from ragmeter import EvaluationResult
from ragmeter.testing.openai_server import OpenAIMockServer

SECRET = "sk-test-resume-SECRET-42"
N = 12


def records():
    out = []
    for i in range(N):
        context = "France is in Western Europe. Its capital is Paris."
        if i % 2 == 0:
            context += f" Item {i} is here."
        out.append({
            "id": f"s{i}",
            "question": "What is the capital of France?",
            "answer": f"Paris is the capital of France. Item {i} is here.",
            "contexts": [context],
            "ground_truth": "Paris.",
        })
    return out


def sample_of(request_json) -> int:
    user = " ".join(m["content"] for m in request_json["messages"] if m["role"] == "user")
    return int(re.search(r"Item (\d+)", user).group(1))


def cli(tmp_path, server, out_name):
    command = [
        sys.executable, "-m", "ragmeter.cli.app", "evaluate", str(tmp_path / "data.jsonl"),
        "--metrics", "faithfulness", "--judge", f"openai:mock-judge@{server.base_url}",
        "--cache-dir", str(tmp_path / "cache"), "--journal", str(tmp_path / "journal.jsonl"),
        "--concurrency", "2", "--quiet", "--out", str(tmp_path / out_name),
    ]
    env = {**os.environ, "OPENAI_API_KEY": SECRET, "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished_rows(journal_path) -> set[int]:
    rows = set()
    for line in journal_path.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("type") == "score":
            rows.add(record["row"])
    return rows


def test_sigkill_midway_then_rerun(tmp_path):
    (tmp_path / "data.jsonl").write_text("\n".join(json.dumps(r) for r in records()) + "\n")
    journal = tmp_path / "journal.jsonl"
    with OpenAIMockServer(chat_responder=scripted_judge.respond, latency=0.15) as server:
        victim = cli(tmp_path, server, "first.json")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if journal.exists() and len(finished_rows(journal)) >= 4:
                break
            assert victim.poll() is None, victim.communicate()
            time.sleep(0.05)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        assert victim.returncode == -signal.SIGKILL
        done_before = finished_rows(journal)
        first_run = list(server.requests)
        assert 4 <= len(done_before) < N, "the kill should land midway"
        assert not (tmp_path / "first.json").exists()

        rerun = cli(tmp_path, server, "result.json")
        stdout, stderr = rerun.communicate(timeout=120)
        assert rerun.returncode == 0, stderr
        second_run = server.requests[len(first_run):]

    # no call for a sample that had finished before the kill
    assert not {sample_of(r.json) for r in second_run} & done_before
    # and no request sent twice, except those cut off in flight by the kill
    answered_before = {json.dumps(r.json, sort_keys=True) for r in first_run}
    repeated = [r for r in second_run if json.dumps(r.json, sort_keys=True) in answered_before]
    assert len(repeated) <= 2, "only requests in flight at the kill (concurrency 2) may be sent again"

    result = EvaluationResult.load(tmp_path / "result.json")
    assert result.info.resumed_scores == len(done_before)
    scores = {s.id: s.scores["faithfulness"].value for s in result.samples}
    assert scores == {f"s{i}": (1.0 if i % 2 == 0 else 0.5) for i in range(N)}
    assert "faithfulness" in stdout
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in stderr and SECRET not in stdout
