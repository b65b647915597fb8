"""What ``generate --conversations`` writes: scripted chats with a ground truth per turn.

One scenario is one line of JSONL in the chat format ragmeter reads everywhere
(``ragmeter.conversations.load_conversations``) and drives (``ragmeter run --conversations``):

* ``messages``: the user's turns, each followed by the reply it should get (the turn's
  ground truth as the assistant's ``content`` and ``reference``, its reference passages as
  ``contexts``). ``run --conversations`` sends the user turns to the app one by one and keeps
  each ``reference`` on the app's reply, so per-turn metrics compare with it;
* ``reference``: what the whole conversation should leave the user knowing (the turns'
  ground truths), for ``agent_goal_accuracy``;
* ``metadata.turns``: per turn, the question as asked, its ``standalone`` form (the same
  question with its references to earlier turns spelled out), how the follow-up refers
  back, and where the answer comes from.

Why the reply slots hold the ground truth: loaded on its own, the file is the reference
conversation (the one a perfect assistant would have), so it is checkable and scorable as
it is, not a half-filled record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel, Field


class ScenarioTurn(BaseModel):
    """One user turn and what answers it."""

    question: str
    """As the user types it in the conversation: a follow-up leans on earlier turns."""
    standalone: str
    """The same question readable on its own (what it asks once the references are resolved)."""
    ground_truth: str
    reference_contexts: list[str]
    reference_context_ids: list[str] = Field(default_factory=list)
    refers_back: str = ""
    """How a follow-up depends on an earlier turn: ``pronoun`` ("When did she die?"),
    ``what_about`` ("And what about the price?"), ``llm`` (written so by the model); empty
    for the opening turn."""
    metadata: dict[str, Any] = Field(default_factory=dict)


class ConversationScenario(BaseModel):
    """A conversation to hold with a chat app: turns about one subject, in order."""

    __test__ = False

    id: str
    subject: str
    turns: list[ScenarioTurn]
    metadata: dict[str, Any] = Field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """The scenario as a conversation record (see the module docstring)."""
        messages: list[dict[str, Any]] = []
        for t in self.turns:
            messages.append({"role": "user", "content": t.question})
            messages.append({"role": "assistant", "content": t.ground_truth, "reference": t.ground_truth,
                             "contexts": list(t.reference_contexts)})
        turns = [{"question": t.question, "standalone": t.standalone, "refers_back": t.refers_back,
                  "ground_truth": t.ground_truth, "reference_contexts": t.reference_contexts,
                  "reference_context_ids": t.reference_context_ids, **t.metadata} for t in self.turns]
        return {"id": self.id, "messages": messages,
                "reference": " ".join(t.ground_truth for t in self.turns),
                "metadata": {"subject": self.subject, **self.metadata, "turns": turns}}


class ConversationSet(BaseModel):
    """Scenarios plus the settings that produced them."""

    __test__ = False

    scenarios: list[ConversationScenario] = Field(default_factory=list)
    settings: dict[str, Any] = Field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.scenarios)

    def __iter__(self) -> Iterator[ConversationScenario]:  # type: ignore[override]
        return iter(self.scenarios)

    def to_jsonl(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as f:
            for s in self.scenarios:
                f.write(json.dumps(s.record(), ensure_ascii=False) + "\n")
        return path

    def turn_counts(self) -> dict[int, int]:
        """Conversations by number of user turns."""
        out: dict[int, int] = {}
        for s in self.scenarios:
            out[len(s.turns)] = out.get(len(s.turns), 0) + 1
        return dict(sorted(out.items()))
