"""The Ragas half of bench_conversation_calls.py; runs inside bench/.venv-ragas (Ragas 0.4.3).

    bench/.venv-ragas/bin/python bench/run_ragas_conversations.py --base-url http://127.0.0.1:PORT/v1 \
        < conversations.json > scores.json

Scores each conversation (already in Ragas' shape: human / ai / tool messages, flat tool calls)
with Ragas' own AgentGoalAccuracyWithReference and TopicAdherenceScore (f1), its LLM a
ChatOpenAI on the bench's mock server (loopback only), one metric and conversation at a time.
"""

from __future__ import annotations

import os

os.environ["RAGAS_DO_NOT_TRACK"] = "true"
os.environ["LANGCHAIN_TRACING_V2"] = "false"
os.environ["LANGSMITH_TRACING"] = "false"

import argparse
import asyncio
import json
import sys
import warnings

from langchain_openai import ChatOpenAI
from ragas.dataset_schema import MultiTurnSample
from ragas_messages import ragas_message
from ragas.llms import LangchainLLMWrapper
from ragas.metrics import AgentGoalAccuracyWithReference, TopicAdherenceScore


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    args = parser.parse_args()
    if not args.base_url.startswith("http://127.0.0.1:"):
        raise SystemExit("the bench only talks to its mock server on 127.0.0.1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LangchainLLMWrapper is deprecated in 0.4 but still the documented way
        llm = LangchainLLMWrapper(ChatOpenAI(model="mock-judge", base_url=args.base_url, api_key="sk-bench",
                                             temperature=0))
    metrics = {"agent_goal_accuracy": AgentGoalAccuracyWithReference(llm=llm),
               "topic_adherence": TopicAdherenceScore(llm=llm, mode="f1")}
    out = {}
    for case in json.load(sys.stdin):
        sample = MultiTurnSample(user_input=[ragas_message(m) for m in case["messages"]], reference=case["reference"],
                                 reference_topics=case["reference_topics"])
        out[case["id"]] = {name: float(await m.multi_turn_ascore(sample)) for name, m in metrics.items()}
    json.dump({"ragas": __import__("ragas").__version__, "scores": out}, sys.stdout)


asyncio.run(main())
