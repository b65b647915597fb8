"""The Ragas half of bench_tool_calls.py; runs inside bench/.venv-ragas (Ragas 0.4.3).

    bench/.venv-ragas/bin/python bench/run_ragas_tool_calls.py < cases.json > scores.json

Reads conversations already reduced to Ragas' shape by the bench (each message's type,
content and flat tool calls), builds MultiTurnSamples and scores them with Ragas' own
ToolCallAccuracy (strict and unordered) and ToolCallF1. No LLM, no network.
"""

from __future__ import annotations

import os

os.environ["RAGAS_DO_NOT_TRACK"] = "true"

import asyncio
import json
import sys
import warnings

from ragas.dataset_schema import MultiTurnSample
from ragas.messages import ToolCall
from ragas_messages import ragas_message
from ragas.metrics import ToolCallAccuracy, ToolCallF1


async def main() -> None:
    cases = json.load(sys.stdin)
    metrics = {"accuracy_strict": ToolCallAccuracy(), "accuracy_unordered": ToolCallAccuracy(strict_order=False),
               "f1": ToolCallF1()}
    out = {}
    for case in cases:
        sample = MultiTurnSample(
            user_input=[ragas_message(m) for m in case["messages"]],
            reference_tool_calls=[ToolCall(name=c["name"], args=c["arguments"]) for c in case["reference_tool_calls"]],
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Ragas warns on every length mismatch
            out[case["id"]] = {name: float(await m.multi_turn_ascore(sample)) for name, m in metrics.items()}
    json.dump({"ragas": __import__("ragas").__version__, "scores": out}, sys.stdout)


asyncio.run(main())
