"""Judge calls and tokens per conversation: ragmeter against Ragas 0.4.3, on the same chats.

    PYTHONPATH=src:. python bench/bench_conversation_calls.py [--ragas-python bench/.venv-ragas/bin/python]

Both tools score agent goal accuracy (with a reference outcome) and topic adherence (F1) on
the conversations of ``bench/conversation_cases.py`` through a local OpenAI mock server.
Both are answered from the same hand-made judgements, each in its own prompt format, so
their scores must agree and only the cost differs: ragmeter asks every conversation
judgement in one call per conversation; Ragas makes 2 calls for the goal and 2 + one per
topic for topic adherence. Tokens are counted the same way for both (the mock server's
estimate over every message sent and every reply). Exits 1 if a score differs.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE.parent))

from bench.bench_tool_calls import RAGAS_PYTHON, ragas_messages  # noqa: E402
from bench.conversation_cases import CASES, user_messages  # noqa: E402
from bench.ragas_responder import INPUT_MARKER, OUTPUT_MARKER  # noqa: E402
from ragmeter.conversations import load_conversations  # noqa: E402
from ragmeter.testing import OpenAIMockServer  # noqa: E402
from ragmeter.testing.openai_server import approx_tokens  # noqa: E402

METRICS = ("agent_goal_accuracy", "topic_adherence")
BY_FIRST = {user_messages(c)[0]: c for c in CASES}
BY_USER = {text: (c, k) for c in CASES for k, text in enumerate(user_messages(c))}
BY_REFERENCE = {c["reference"]: c for c in CASES}


class Meter:
    """Calls and tokens per conversation, as the responder answers them."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = defaultdict(int)
        self.tokens: dict[str, int] = defaultdict(int)

    def count(self, case: dict[str, Any], request: dict[str, Any], reply: str) -> str:
        sent = " ".join(str(m.get("content", "")) for m in request.get("messages", []))
        self.calls[case["id"]] += 1
        self.tokens[case["id"]] += approx_tokens(sent) + approx_tokens(reply)
        return reply


# --- ragmeter's prompts -----------------------------------------------------------------------

def ragmeter_answer(case: dict[str, Any], key: str) -> dict[str, Any]:
    if key == "agent_goal_with_reference":
        return {"goal": case["reference"], "outcome": case["outcome"], "reason": "as judged by hand",
                "achieved": case["achieved"]}
    if key == "topic_adherence":
        return {"verdicts": [{"reason": "as judged by hand", "answered": a, "on_topic": t} for a, t in case["topics"]]}
    raise ValueError(f"no hand judgement for ragmeter task {key!r}")


def ragmeter_responder(meter: Meter):
    def respond(request: dict[str, Any]) -> str:
        user = request["messages"][-1]["content"]
        first = re.search(r"<conversation>\n\[user 1\] (.*?)\n", user)
        if first is None:
            raise ValueError("ragmeter sent a prompt without a conversation")
        case = BY_FIRST[first.group(1)]
        keys = re.findall(r"^Task (\w+):", user, re.MULTILINE)
        return meter.count(case, request, json.dumps({k: ragmeter_answer(case, k) for k in keys}))

    return respond


# --- Ragas' prompts ---------------------------------------------------------------------------

def ragas_answer(prompt: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the conversation it is about, the JSON answer) for one of the five Ragas prompts."""
    _, sep, tail = prompt.rpartition(INPUT_MARKER)
    if not sep or not tail.endswith(OUTPUT_MARKER):
        raise ValueError(f"not a Ragas prompt: {prompt[:80]!r}")
    data = json.loads(tail[: -len(OUTPUT_MARKER)])
    if prompt.startswith("Given an agentic workflow"):
        case = next(c for first, c in BY_FIRST.items() if f"Human: {first}" in data["workflow"])
        return case, {"user_goal": case["reference"], "end_state": case["outcome"]}
    if prompt.startswith("Given user goal, desired outcome and acheived outcome"):
        case = BY_REFERENCE[data["desired_outcome"]]
        return case, {"reason": "as judged by hand", "verdict": "1" if case["achieved"] else "0"}
    if prompt.startswith("Given an interaction between Human, Tool and AI, extract the topics"):
        case = next(c for first, c in BY_FIRST.items() if f"Human: {first}" in data["user_input"])
        return case, {"topics": user_messages(case)}  # one topic per user message, as ragmeter judges them
    if prompt.startswith("Given a topic, classify if the AI refused"):
        case, k = BY_USER[data["topic"]]
        return case, {"refused_to_answer": not case["topics"][k][0]}
    if prompt.startswith("Given a set of topics classify"):
        found = [BY_USER[t] for t in data["topics"]]
        return found[0][0], {"classifications": [c["topics"][k][1] for c, k in found]}
    raise ValueError(f"no hand judgement for the Ragas prompt {prompt[:100]!r}")


def ragas_responder(meter: Meter):
    def respond(request: dict[str, Any]) -> str:
        case, answer = ragas_answer(request["messages"][-1]["content"])
        return meter.count(case, request, json.dumps(answer))

    return respond


# --- the two runs -----------------------------------------------------------------------------

def run_ragmeter() -> tuple[Meter, dict[str, dict[str, float]]]:
    import ragmeter

    meter = Meter()
    with OpenAIMockServer(chat_responder=ragmeter_responder(meter)) as server:
        result = ragmeter.evaluate_conversations(
            CASES, list(METRICS), judge=f"openai:mock-judge@{server.base_url}", cache=False, journal=False,
            record=False, show_progress=False)
    scores = {s.id: {m: s.scores[m].value for m in METRICS} for s in result.samples}
    return meter, scores


def run_ragas(python: Path) -> tuple[Meter, str, dict[str, dict[str, float]]]:
    meter = Meter()
    shaped = [{"id": s.id, "messages": ragas_messages(s), "reference": s.ground_truth,
               "reference_topics": s.reference_topics} for s in load_conversations(CASES)]
    with OpenAIMockServer(chat_responder=ragas_responder(meter)) as server:
        proc = subprocess.run([str(python), str(HERE / "run_ragas_conversations.py"), "--base-url", server.base_url],
                              input=json.dumps(shaped), capture_output=True, text=True, check=False, timeout=900,
                              env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-bench", "HF_HUB_OFFLINE": "1"})
    if proc.returncode != 0:
        raise SystemExit(f"the Ragas side failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    out = json.loads(proc.stdout)
    return meter, out["ragas"], out["scores"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ragas-python", type=Path, default=RAGAS_PYTHON)
    args = parser.parse_args()
    ours, our_scores = run_ragmeter()
    theirs, version, their_scores = run_ragas(args.ragas_python)
    print(f"{'conversation':13} {'calls ragmeter/ragas':>21} {'tokens ragmeter/ragas':>22}   "
          + "   ".join(f"{m} ragmeter/ragas {version}" for m in METRICS))
    differ = 0
    for case in CASES:
        cid = case["id"]
        cells = []
        for m in METRICS:
            a, b = our_scores[cid][m], their_scores[cid][m]
            same = a is not None and abs(a - b) < 1e-6
            differ += not same
            cells.append(f"{a:.3f} / {b:.3f} {'=' if same else 'DIFFERENT'}".rjust(len(m) + 22))
        print(f"{cid:13} {ours.calls[cid]:>10} / {theirs.calls[cid]:<8} {ours.tokens[cid]:>10} / {theirs.tokens[cid]:<9}  "
              + "   ".join(cells))
    n = len(CASES)
    print(f"{'total':13} {sum(ours.calls.values()):>10} / {sum(theirs.calls.values()):<8} "
          f"{sum(ours.tokens.values()):>10} / {sum(theirs.tokens.values()):<9}")
    print(f"per conversation: ragmeter {sum(ours.calls.values()) / n:.2f} calls, {sum(ours.tokens.values()) / n:,.0f} tokens; "
          f"Ragas {sum(theirs.calls.values()) / n:.2f} calls, {sum(theirs.tokens.values()) / n:,.0f} tokens")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
