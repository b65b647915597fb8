"""Prompts as data: an instruction and its few-shot examples, one ``TaskPrompt`` per judgement.

Why data and not f-strings scattered through the code: a user must be able to read every
prompt ragmeter sends, replace one (``prompts={"answer_claims": "..."}``), translate the
examples into the language of their data (``adapt``), and save the result next to their
evaluation. A prompt's text is part of a run's identity, so a changed prompt never reuses
scores journalled under the old one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ragmeter.calls.cache import cache_key


class Example(BaseModel):
    """One worked example: the texts the judge sees and the JSON it should give back."""

    model_config = ConfigDict(frozen=True)

    input: dict[str, Any] = Field(description="section name -> text (or list of texts)")
    output: dict[str, Any] = Field(description="the expected JSON for this task")


class TaskPrompt(BaseModel):
    """The instruction for one kind of judgement and the examples that show it."""

    model_config = ConfigDict(frozen=True)

    name: str
    instruction: str
    examples: tuple[Example, ...] = ()
    language: str = Field("english", description="the language the examples are written in")

    def render_examples(self) -> str:
        """The examples as compact lines: inputs, then the expected JSON."""
        lines = []
        for example in self.examples:
            shown = "; ".join(f"{k}: {_show(v)}" for k, v in example.input.items())
            lines.append(f"Example. {shown} -> {json.dumps(example.output, ensure_ascii=False)}")
        return "\n".join(lines)

    def fingerprint(self) -> str:
        return cache_key(self.model_dump(mode="json"))[:16]


def _show(value: Any) -> str:
    if isinstance(value, list):
        return " | ".join(f"[{i}] {v}" for i, v in enumerate(value, start=1))
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else f'"{value}"'


class PromptSet(Mapping[str, TaskPrompt]):
    """An immutable set of task prompts by name; ``replace`` returns a new set.

    >>> prompts = DEFAULT_PROMPTS.replace(answer_claims="Split the text into claims ...")
    """

    def __init__(self, prompts: Mapping[str, TaskPrompt] | list[TaskPrompt]) -> None:
        items = prompts.values() if isinstance(prompts, Mapping) else prompts
        self._prompts: dict[str, TaskPrompt] = {p.name: p for p in items}

    def __getitem__(self, name: str) -> TaskPrompt:
        try:
            return self._prompts[name]
        except KeyError:
            raise KeyError(f"no prompt named {name!r}; known: {', '.join(sorted(self._prompts))}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._prompts)

    def __len__(self) -> int:
        return len(self._prompts)

    def replace(self, overrides: Mapping[str, "TaskPrompt | str"] | None = None, **more: "TaskPrompt | str") -> "PromptSet":
        """A copy with some prompts replaced. A string replaces the instruction only and
        drops the examples (they illustrated the old instruction)."""
        merged = dict(self._prompts)
        for name, new in {**(overrides or {}), **more}.items():
            if name not in merged:
                raise KeyError(f"no prompt named {name!r} to replace; known: {', '.join(sorted(merged))}")
            if isinstance(new, str):
                new = TaskPrompt(name=name, instruction=new, language=merged[name].language)
            elif new.name != name:
                new = new.model_copy(update={"name": name})
            merged[name] = new
        return PromptSet(merged)

    def fingerprint(self) -> str:
        """Changes whenever any prompt's text or examples change (part of the run identity)."""
        return cache_key({n: p.fingerprint() for n, p in sorted(self._prompts.items())})[:16]

    def to_json(self) -> str:
        return json.dumps([p.model_dump(mode="json") for p in self._prompts.values()], ensure_ascii=False, indent=2)

    @classmethod
    def from_json(cls, text: str) -> "PromptSet":
        return cls([TaskPrompt.model_validate(p) for p in json.loads(text)])

    def __repr__(self) -> str:
        return f"PromptSet({', '.join(self._prompts)})"
