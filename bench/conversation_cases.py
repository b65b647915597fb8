"""Hand-made conversations with the judgements a careful judge would make about them, for
bench_conversation_calls.py: both tools are answered from these same judgements (each in its
own prompt format), so the bench compares what the two cost, not what two judges think.

Per conversation: the messages (OpenAI chat format), the ``reference`` outcome and the
``reference_topics``; and, as judgements, the outcome reached and whether it is the one
wanted, and per user message whether the assistant answered it and whether it is on topic.
"""

from __future__ import annotations

from typing import Any


def chat(*turns: tuple[str, str], calls: dict[int, tuple[str, str, str]] | None = None) -> list[dict[str, Any]]:
    """User/assistant turns; ``calls[k]`` = (tool, JSON arguments, result) made before reply k."""
    messages: list[dict[str, Any]] = []
    for k, (user, reply) in enumerate(turns):
        messages.append({"role": "user", "content": user})
        if calls and k in calls:
            tool, arguments, result = calls[k]
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{k}", "type": "function", "function": {"name": tool, "arguments": arguments}}]})
            messages.append({"role": "tool", "tool_call_id": f"call_{k}", "content": result})
        messages.append({"role": "assistant", "content": reply})
    return messages


CASES: list[dict[str, Any]] = [
    {
        "id": "booking",
        "messages": chat(("Book a table for two on Friday at 8pm.", "Done: a table for two, Friday 8pm."),
                         ("What is on the menu?", "Risotto, sea bass and a vegan curry."),
                         ("Who won the football last night?", "I can only help with bookings and the menu."),
                         calls={0: ("book_table", '{"people": 2, "day": "Friday", "time": "20:00"}', "booked #A17")}),
        "reference": "A table for two is booked for Friday at 8pm.",
        "reference_topics": ["restaurant bookings", "the menu"],
        "outcome": "a table for two on Friday at 8pm", "achieved": True,
        "topics": [(True, True), (True, True), (False, False)],
    },
    {
        "id": "refund",
        "messages": chat(("I want a refund for order 1182.", "Refunds take 5 days once the item is back."),
                         ("Can you start it now?", "Sure, what's your favourite film?"),
                         ("Just the refund please.", "Please write to support."),
                         calls={0: ("get_order", '{"order_id": 1182}', '{"status": "delivered"}')}),
        "reference": "The refund for order 1182 is started.",
        "reference_topics": ["orders", "refunds"],
        "outcome": "the user is told to write to support", "achieved": False,
        "topics": [(True, True), (False, True), (False, True)],
    },
    {
        "id": "weather",
        "messages": chat(("Weather in Paris tomorrow?", "Rain, 12 degrees."),
                         ("And should I bring an umbrella?", "Yes, bring one."),
                         ("Any good bakeries near the Louvre?", "Try Du Pain et des Idées, a short metro ride away."),
                         calls={0: ("get_forecast", '{"city": "Paris", "day": "tomorrow"}', "rain, 12C")}),
        "reference": "The user knows tomorrow's weather in Paris.",
        "reference_topics": ["weather"],
        "outcome": "tomorrow's forecast for Paris", "achieved": True,
        "topics": [(True, True), (True, True), (True, False)],
    },
    {
        "id": "flight",
        "messages": chat(("Move my flight LH450 to Monday.", "Your flight LH450 now leaves Monday 9:40."),
                         ("And add a checked bag.", "A 23 kg bag is added."),
                         ("What's the baggage allowance on Lufthansa?", "One 23 kg bag in economy."),
                         ("Tell me a joke.", "I can only help with your trip."),
                         calls={0: ("change_flight", '{"flight": "LH450", "day": "Monday"}', "ok"),
                                1: ("add_bag", '{"flight": "LH450", "kg": 23}', "ok")}),
        "reference": "LH450 is moved to Monday and a bag is added.",
        "reference_topics": ["flights", "baggage"],
        "outcome": "LH450 on Monday with a 23 kg bag", "achieved": True,
        "topics": [(True, True), (True, True), (True, True), (False, False)],
    },
]


def user_messages(case: dict[str, Any]) -> list[str]:
    return [m["content"] for m in case["messages"] if m["role"] == "user"]
