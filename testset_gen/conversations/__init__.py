"""Test sets for chats: multi-turn scenarios whose follow-ups depend on earlier turns.

``generate_conversations`` (``generator``) writes them offline (``follow_ups``: the
offline generator's records regrouped by subject, follow-ups reworded by rule) or with an
LLM (``writer``: one call per conversation, for a persona). ``scenario`` is what is
written: JSONL that ``ragmeter.conversations.load_conversations`` reads and ``ragmeter run
--conversations`` drives.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "generate_conversations": "testset_gen.conversations.generator",
    "agenerate_conversations": "testset_gen.conversations.generator",
    "ConversationResult": "testset_gen.conversations.generator",
    "ConversationScenario": "testset_gen.conversations.scenario",
    "ConversationSet": "testset_gen.conversations.scenario",
    "ScenarioTurn": "testset_gen.conversations.scenario",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
