"""Every recipe runs offline, end to end, as a user would run it.

No timing target here (targets live in benchmarks): under a busy machine (two suites at once)
a recipe took over a minute; ``LIMIT_S`` only stops a hung subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RECIPES = Path(__file__).resolve().parent.parent / "recipes"
LIMIT_S = 600


def run(*args: str, cwd: Path, expect: int = 0) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "RAGMETER_CACHE_DIR": str(cwd / "cache")}
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=LIMIT_S)
    assert done.returncode == expect, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def test_evaluate_jsonl(tmp_path):
    done = run(str(RECIPES / "evaluate_jsonl.py"), cwd=tmp_path)
    assert "faithfulness: mean" in done.stdout and "context_precision: mean" in done.stdout


def test_ci_gate_passes_and_fails_with_a_readable_summary(tmp_path):
    summary = tmp_path / "summary.md"
    done = run(str(RECIPES / "ci_gate" / "gate.py"), "--summary", str(summary), "--out", "main", cwd=tmp_path)
    assert "| `answer_similarity` |" in done.stdout and "FAIL" not in done.stdout
    assert summary.read_text(encoding="utf-8").startswith("### ragmeter gate: ✅ PASS")
    assert (tmp_path / "main" / "report.html").stat().st_size > 100_000  # plotly inlined
    failing = run(str(RECIPES / "ci_gate" / "gate.py"), "--min", "faithfulness=0.95",
                  "--baseline", "main/result.json", "--out", "pr", cwd=tmp_path, expect=1)
    assert "❌ FAIL" in failing.stdout and "lowest scores" in failing.stdout
    assert "claims are supported" in failing.stdout  # the reasons, not just numbers
    # compared with main's run of the same app: no change, so only the floor fails
    assert "Δ (95% CI)" in failing.stdout and "+0.000 [+0.000, +0.000]" in failing.stdout


def test_monitoring_alerts_on_a_drop(tmp_path):
    monitor = RECIPES / "monitoring"
    run(str(monitor / "simulate_traffic.py"), "good.jsonl", "--records", "200", cwd=tmp_path)
    run(str(monitor / "simulate_traffic.py"), "bad.jsonl", "--records", "200", "--degraded", "--seed", "1", cwd=tmp_path)
    calm = run(str(monitor / "nightly.py"), "--log", "good.jsonl", "--state", "state.json",
               "--night", "2026-11-20", "--sample", "30", cwd=tmp_path)
    assert "ALERT" not in calm.stdout + calm.stderr
    alarm = run(str(monitor / "nightly.py"), "--log", "bad.jsonl", "--state", "state.json",
                "--night", "2026-11-21", "--sample", "30", cwd=tmp_path, expect=1)
    assert "ALERT: faithfulness fell" in alarm.stderr or "ALERT: context_precision fell" in alarm.stderr
    state = json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))
    assert [n["night"] for n in state["nights"]] == ["2026-11-20", "2026-11-21"]


@pytest.mark.parametrize("name", ["langchain_app.py", "llamaindex_app.py"])
def test_framework_apps_are_run_and_evaluated(tmp_path, name):
    pytest.importorskip("langchain_core" if name.startswith("langchain") else "llama_index.core")
    done = run(str(RECIPES / name), cwd=tmp_path)
    assert "8 questions answered" in done.stdout
    assert "faithfulness" in done.stdout and "summary score:" in done.stdout


def test_langchain_agent_is_held_to_a_scripted_conversation_and_scored(tmp_path):
    pytest.importorskip("langchain.agents")
    pytest.importorskip("langchain_openai")
    done = run(str(RECIPES / "langchain_agent.py"), cwd=tmp_path)
    assert "search({'query': 'How high is Mount Kilimanjaro and in which country is it?'})" in done.stdout
    assert "turn 1: 2 contexts" in done.stdout and "turn 3: 0 contexts" in done.stdout
    assert "tool_call_accuracy   mean 1.000" in done.stdout and "faithfulness         mean" in done.stdout
