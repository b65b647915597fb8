"""The 8 hand-made agent conversations of bench_tool_calls.py, in the OpenAI chat format.

Each case is one conversation with ``reference_tool_calls``; the calls the agent made are in
its assistant messages (``function.arguments`` a JSON string, as the OpenAI API returns it).
Shared by the bench (both tools score them) and tests/test_tool_calls.py (hand-computed values).
"""

from __future__ import annotations

import json
from typing import Any


def call(name: str, **arguments: Any) -> dict[str, Any]:
    """A reference call in the flat form."""
    return {"name": name, "arguments": arguments}


def _openai(calls: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
    return [{"id": f"call_{start + k}", "type": "function",
             "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}} for k, c in enumerate(calls)]


def agent_run(question: str, *steps: list[dict[str, Any]], answer: str = "Done.") -> list[dict[str, Any]]:
    """A user question, then one assistant message per step (its calls made in parallel),
    each followed by its tool results, then the final answer."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    n = 0
    for calls in steps:
        messages.append({"role": "assistant", "content": None, "tool_calls": _openai(calls, n)})
        for k, c in enumerate(calls):
            messages.append({"role": "tool", "tool_call_id": f"call_{n + k}", "name": c["name"], "content": "ok"})
        n += len(calls)
    messages.append({"role": "assistant", "content": answer})
    return messages


PARIS = call("get_weather", city="Paris")
SEARCH = call("search_hotels", city="Paris", limit=5)
BOOK = call("book_hotel", hotel_id="h42")

CASES: list[dict[str, Any]] = [
    {"id": "exact", "messages": agent_run("Weather in Paris?", [PARIS]), "reference_tool_calls": [PARIS]},
    {"id": "wrong_argument", "messages": agent_run("Weather in Paris?", [call("get_weather", town="Paris")]),
     "reference_tool_calls": [PARIS]},
    {"id": "two_in_order", "messages": agent_run("Book a Paris hotel", [SEARCH], [BOOK]),
     "reference_tool_calls": [SEARCH, BOOK]},
    {"id": "two_swapped", "messages": agent_run("Book a Paris hotel", [BOOK], [SEARCH]),
     "reference_tool_calls": [SEARCH, BOOK]},
    {"id": "missing_call", "messages": agent_run("Book a Paris hotel", [SEARCH]),
     "reference_tool_calls": [SEARCH, BOOK]},
    {"id": "extra_call", "messages": agent_run("Find Paris hotels", [SEARCH], [BOOK]),
     "reference_tool_calls": [SEARCH]},
    {"id": "three_parallel", "messages": agent_run(
        "Weather in Tokyo, Paris and London?",
        [call("get_weather", city="Tokyo"), PARIS, call("get_weather", city="London")]),
     "reference_tool_calls": [PARIS, call("get_weather", city="London"), call("get_weather", city="Tokyo")]},
    {"id": "wrong_value", "messages": agent_run("Find Paris hotels", [call("search_hotels", city="Paris", limit=10)]),
     "reference_tool_calls": [SEARCH]},
]
